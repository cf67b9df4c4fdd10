// No upstream counterpart: the Perfetto export's chunk (dist/extension-export.js, loaded on the
// first Export Run to Perfetto; src/extension/lazy-feature.ts).
export { exportPerfettoCommands } from './export-perfetto-command';
