// `npm run bench`: every benchmark in bench/, one after the other, each in a process of its own
// (a fresh heap and freshly shaped code: one benchmark's 100,000 watchers do not slow the next),
// each printing its figure next to a baseline measured in the same run; then one summary table
// with the ratios and PASS/MISS against each goal (information only where there is none).
// The timing benchmarks run three times, each in a new process, and every row of the summary is
// the run with the median ratio: on a shared machine one process now and then runs a good deal
// slower than the others (all three runs are logged, and their ratios are in the row's note).
// Benchmarks are not tests: a MISS does not fail the run. The benchmarks with an exported entry
// hand their rows back as a JSON line (`--rows`); list-paging's summary line is read back.
//   node esbuild.js && node --expose-gc out/bench/main.js
import { spawnSync } from 'child_process';
import { existsSync } from 'fs';
import * as path from 'path';
import { fmtMs, hasGc, printTable, rowsMarker, type BenchRow } from './bench-util';

/** Runs out/bench/<name>.js in its own process, logging its output, and returns its rows. */
function runInProcess(name: string, log: (line: string) => void): BenchRow[] {
  const script = path.join(__dirname, `${name}.js`);
  if (!existsSync(script)) {
    log(`${name}: ${script} not built; skipped`);
    return [];
  }
  const r = spawnSync(process.execPath, ['--expose-gc', script, '--rows'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = `${r.stdout ?? ''}${r.stderr ?? ''}`.trimEnd().split('\n');
  const rowsLine = lines.find((l) => l.startsWith(rowsMarker));
  // The benchmark's own log, without its table (the summary repeats its rows).
  const table = lines.findIndex((l) => l.startsWith('benchmark '));
  for (const line of lines.slice(0, table >= 0 ? table : lines.length)) if (line !== '') log(line);
  if (r.status !== 0 || rowsLine === undefined) {
    for (const line of lines.slice(table >= 0 ? table : lines.length)) log(line);
    return [
      {
        bench: name,
        measure: '(failed)',
        figure: 'failed',
        baseline: '-',
        ratio: NaN,
        note: `exit ${r.status}`,
      },
    ];
  }
  return (JSON.parse(rowsLine.slice(rowsMarker.length)) as BenchRow[]).map((row) => ({
    ...row,
    ratio: row.ratio ?? NaN,
  }));
}

/** How many processes each timing benchmark runs in. */
const timedRuns = 3;

/** Row by row, the run with the median ratio; the note lists every run's ratio. */
function medianRows(runs: BenchRow[][]): BenchRow[] {
  const first = runs[0] ?? [];
  return first.map((_, i) => {
    const candidates = runs
      .map((r) => r[i])
      .filter((r): r is BenchRow => r !== undefined && Number.isFinite(r.ratio));
    if (candidates.length === 0) return first[i];
    const sorted = [...candidates].sort((a, b) => a.ratio - b.ratio);
    const median = sorted[(sorted.length - 1) >> 1];
    const ratios = candidates.map((r) => r.ratio.toFixed(2)).join(', ');
    return { ...median, note: `${median.note ?? ''}${median.note ? '; ' : ''}runs: ${ratios}` };
  });
}

/** Runs out/bench/list-paging.js and turns its summary line into a row. */
function runListPaging(log: (line: string) => void): BenchRow[] {
  const script = path.join(__dirname, 'list-paging.js');
  if (!existsSync(script)) {
    log(`list-paging: ${script} not built; skipped`);
    return [];
  }
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--expose-gc', script], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trimEnd();
  for (const line of out.split('\n')) log(`  ${line}`);
  if (r.status !== 0) {
    return [
      {
        bench: 'list-paging',
        measure: 'filtered LIST pages through the etcd3 store',
        figure: 'failed',
        baseline: '-',
        ratio: NaN,
        note: `exit ${r.status}`,
      },
    ];
  }
  const m = /worst median ratio ([\d.]+) \(goal <= ([\d.]+)\)/.exec(out);
  if (!m) {
    return [
      {
        bench: 'list-paging',
        measure: 'filtered LIST pages through the etcd3 store',
        figure: 'see above',
        baseline: '-',
        ratio: NaN,
        note: 'summary line not found',
      },
    ];
  }
  const ratio = Number(m[1]);
  const limit = Number(m[2]);
  return [
    {
      bench: 'list-paging',
      measure: 'filtered LIST page, getList / array scan (worst median)',
      figure: 'see above',
      baseline: 'see above',
      ratio,
      goal: { text: `<= ${limit}`, met: ratio <= limit },
      note: `own process, ${fmtMs(ms)}`,
    },
  ];
}

async function main(): Promise<void> {
  const log = (line: string): void => console.log(line);
  if (!hasGc()) log('(run with --expose-gc: heap figures and steady timings need it)');
  const rows: BenchRow[] = [];
  const section = (name: string): void => {
    log('');
    log(`== ${name} ==`);
  };
  for (const name of ['watcher-memory', 'server-memory']) {
    section(name);
    rows.push(...runInProcess(name, log));
  }
  for (const name of ['fanout', 'server-fanout', 'bookmarks', 'continue-decode', 'serve-start']) {
    section(name);
    const runs: BenchRow[][] = [];
    for (let k = 1; k <= timedRuns; k++) {
      log(`-- run ${k} of ${timedRuns}`);
      runs.push(runInProcess(name, log));
    }
    rows.push(...medianRows(runs));
  }
  // One run: it generates and reads a 1 GB audit log (LISTWATCH_BENCH_IMPORT_MB for less); its
  // own three passes of each give the median.
  section('import-audit');
  rows.push(...runInProcess('import-audit', log));
  // One run: a server of its own under 5,000 idle sockets, a slow-header client and YAML bombs.
  section('hostile-clients');
  rows.push(...runInProcess('hostile-clients', log));
  section('list-paging');
  rows.push(...runListPaging(log));
  // One run: it takes half a minute (1,000 watch connections, 3 s of writes).
  section('live-panel');
  rows.push(...runInProcess('live-panel', log));
  // One run: it spawns an etcd and writes 100,000 pods to it; its own alternating passes give the
  // median.
  section('etcd-list');
  rows.push(...runInProcess('etcd-list', log));
  log('');
  log('== summary (ratio = figure / baseline, rates: ours / baseline) ==');
  printTable(rows, log);
  const misses = rows.filter((r) => r.goal && !r.goal.met).length;
  log('');
  log(
    `${rows.filter((r) => r.goal?.met).length} PASS, ${misses} MISS, ${rows.filter((r) => !r.goal).length} information only (benchmarks never fail the run)`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
