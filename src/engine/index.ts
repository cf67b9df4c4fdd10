// The engine's public library API: everything the extension, the CLI, tests and benchmarks use.
// Each area appends its exports below; keep one line per module.
export { FakeClock, RealClock, settle, type Clock, type Timer } from './clock';
export { SeededRandom } from './rand';
