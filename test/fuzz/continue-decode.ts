// `npm run fuzz:continue [count] [seed]`: the differential fuzz of continue-fuzz.test.ts at full
// size (default one million inputs), printing its counts and CPU time; exit 1 on any mismatch.
import { runContinueFuzz } from '../unit/storage/continue-fuzzing';

const count = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 20251);
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const t = runContinueFuzz(seed, count);
const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(cpu0);
const { mismatches, ...counts } = t;
console.log(JSON.stringify(counts, null, 2));
console.log(
  `seed ${seed}: ${t.inputs.toLocaleString('en-US')} inputs, ${t.mismatchCount} mismatches; ` +
    `${wallS.toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU`,
);
for (const m of mismatches) console.log(m);
if (t.mismatchCount > 0) process.exit(1);
