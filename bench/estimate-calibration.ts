// Calibration of src/scenarios/run-estimate.ts: runs every scenario with its defaults and with
// variants that each scale one parameter, measures what the run did (etcd writes, deliveries,
// watch requests, trace lines and bytes, CPU time, heap at the end) and prints it next to the
// estimate, with the ratio. The CPU and heap constants in run-estimate.ts were fitted to these
// figures; the trace constants to the lines and bytes per kind that `--kinds` prints.
// Not a benchmark with a goal: information for whoever re-fits the constants.
// Each run is measured in a process of its own (as the CLI runs it: a fresh heap, code not yet
// warmed by another scenario); `--json` prints one JSON line per run (workload and measure), for a fit.
//   node esbuild.js && node --expose-gc out/bench/estimate-calibration.js [--kinds] [--json]
import { spawnSync } from 'child_process';
import { findScenario } from '../src/scenarios/catalogue';
import { resolveParams, estimateRun } from '../src/scenarios/runner';
import type { RunEstimate } from '../src/scenarios/run-estimate';
import { runAsScript, type BenchRow } from './bench-util';
import { measureRun, type RunMeasure } from './run-measure';

/** The default runs, then variants that scale one parameter each. */
export const calibrationRuns: Array<[string, Record<string, string | number | boolean>]> = [
  ['selector-death-spiral', {}],
  ['read-your-writes', {}],
  ['bookmark-heartbeats', {}],
  ['watchlist-starvation', {}],
  ['serialization-fanout', {}],
  ['watch-cache-resize', {}],
  ['rangestream-fallback', {}],
  ['slow-watcher-termination', {}],
  ['selector-death-spiral', { objects: 300_000 }],
  ['selector-death-spiral', { objects: 300_000, matchEvery: 1000, pages: 20 }],
  ['read-your-writes', { readers: 20, cacheLagMs: 4000 }],
  ['bookmark-heartbeats', { watchers: 30_000 }],
  ['bookmark-heartbeats', { watchers: 1000, minutes: 60 }],
  ['watchlist-starvation', { watchers: 400, stuckSeconds: 60 }],
  ['serialization-fanout', { watchers: 5000, events: 300 }],
  ['serialization-fanout', { watchers: 50, events: 5000 }],
  ['watch-cache-resize', { burstEventsPerSecond: 2000 }],
  ['watch-cache-resize', { quietSeconds: 20_000 }],
  ['rangestream-fallback', { lists: 200 }],
  ['slow-watcher-termination', { fastWatchers: 500, eventsPerSecond: 1000 }],
];

function ratio(estimated: number, measured: number): string {
  if (measured === 0) return estimated === 0 ? '1.00' : `${estimated}/0`;
  return (estimated / measured).toFixed(2);
}

function describe(name: string, set: Record<string, unknown>): string {
  const p = Object.entries(set).map(([k, v]) => `${k}=${String(v)}`);
  return p.length ? `${name} ${p.join(' ')}` : `${name} (defaults)`;
}

function row(name: string, set: Record<string, unknown>, e: RunEstimate, m: RunMeasure): BenchRow {
  return {
    bench: 'estimate',
    measure: describe(name, set),
    figure: `${m.cpuMs.toFixed(0)} ms cpu, ${(m.traceBytes / 1048576).toFixed(2)} MiB`,
    baseline: `${e.wallMs} ms, ${(e.traceBytes / 1048576).toFixed(2)} MiB est.`,
    ratio: e.wallMs / m.cpuMs,
    note:
      `writes ${ratio(e.etcdWrites, m.etcdWrites)} deliveries ${ratio(e.deliveries, m.deliveries)} ` +
      `watches ${ratio(e.watches, m.watches)} lines ${ratio(e.traceLines, m.traceLines)} ` +
      `bytes ${ratio(e.traceBytes, m.traceBytes)} heap ${ratio(e.memoryBytes, m.heapBytes)} ` +
      `(${(m.heapBytes / 1048576).toFixed(0)} MiB) virtual ${ratio(e.virtualMs, m.virtualMs)}`,
  };
}

/** `--run i`: measures calibrationRuns[i] in this process and prints it as one JSON line. */
async function measureOne(i: number, kinds: boolean): Promise<void> {
  const [name, set] = calibrationRuns[i];
  const m = await measureRun(name, set, kinds);
  const workload = findScenario(name)?.estimate(resolveParams(name, set));
  console.log(JSON.stringify({ name, set, workload, measure: { ...m, kinds: [...m.kinds] } }));
}

async function main(): Promise<BenchRow[]> {
  const kinds = process.argv.includes('--kinds');
  const json = process.argv.includes('--json');
  const rows: BenchRow[] = [];
  for (let i = 0; i < calibrationRuns.length; i++) {
    const [name, set] = calibrationRuns[i];
    const args = ['--expose-gc', __filename, '--run', String(i), ...(kinds ? ['--kinds'] : [])];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${describe(name, set)}: exit ${r.status}: ${r.stderr}`);
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (json) console.log(line);
    const got = JSON.parse(line) as {
      measure: RunMeasure & { kinds: Array<[string, { lines: number; bytes: number }]> };
    };
    const m: RunMeasure = { ...got.measure, kinds: new Map(got.measure.kinds) };
    const e = estimateRun(name, set);
    const row0 = row(name, set, e, m);
    console.log(`${row0.measure}: ${row0.figure} (est. ${row0.baseline}); ${row0.note}`);
    if (kinds)
      for (const [k, v] of [...m.kinds].sort((a, b) => b[1].bytes - a[1].bytes))
        console.log(
          `    ${k.padEnd(34)} ${String(v.lines).padStart(8)} lines ${String(Math.round(v.bytes / v.lines)).padStart(6)} B/line`,
        );
    rows.push(row0);
  }
  return rows;
}

const runIndex = process.argv.indexOf('--run');
if (runIndex >= 0) {
  measureOne(Number(process.argv[runIndex + 1]), process.argv.includes('--kinds')).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else runAsScript('estimate-calibration', main);
