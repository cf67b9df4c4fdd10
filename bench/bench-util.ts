// Shared helpers for the benchmarks in bench/: timing, medians, heap readings, the result rows
// every benchmark returns (a figure next to a baseline measured in the same run, as a ratio,
// with PASS/MISS against the goal) and the table they are printed in. Benchmarks are not tests:
// nothing here fails on wall time.

/** One line of the summary: a figure, the baseline measured in the same run, their ratio. */
export interface BenchRow {
  /** Which benchmark (file) it comes from, e.g. `bookmarks`. */
  bench: string;
  /** What was measured, e.g. `tick, 100 due / nothing due`. */
  measure: string;
  /** The figure, with its unit. */
  figure: string;
  /** The baseline, with its unit. */
  baseline: string;
  /** figure / baseline, or as the row says (rates: ours / baseline). */
  ratio: number;
  /** The goal the ratio is held against, e.g. `< 1.5`; undefined: none (information only). */
  goal?: { text: string; met: boolean };
  /** Counts that show what was measured (e.g. `100,000 heartbeats`). */
  note?: string;
}

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) g();
}

export function hasGc(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

/** Heap in use after a full collection (exact only with --expose-gc). */
export function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Wall milliseconds of a synchronous function. */
export function timeSync(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Wall milliseconds of an asynchronous function. */
export async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function fmtMs(ms: number): string {
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

export function fmtRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M/s`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k/s`;
  return `${perSecond.toFixed(0)} /s`;
}

export function fmtBytes(b: number): string {
  if (Math.abs(b) >= 1024 * 1024) return `${(b / 1024 / 1024).toFixed(1)} MiB`;
  return `${Math.round(b).toLocaleString('en-US')} B`;
}

/** `goal` for ratios that must stay below `limit`. */
export function below(ratio: number, limit: number): { text: string; met: boolean } {
  return { text: `< ${limit}`, met: ratio < limit };
}

/** `goal` for ratios that must reach at least `limit`. */
export function atLeast(ratio: number, limit: number): { text: string; met: boolean } {
  return { text: `>= ${limit}`, met: ratio >= limit };
}

/** Prints rows as an aligned table. */
export function printTable(
  rows: readonly BenchRow[],
  log: (line: string) => void = console.log,
): void {
  const header = [
    'benchmark',
    'measure',
    'figure',
    'baseline',
    'ratio',
    'goal',
    'result',
    'counts',
  ];
  const cells = rows.map((r) => [
    r.bench,
    r.measure,
    r.figure,
    r.baseline,
    // No ratio (a failed run, a row that compares calls rather than times): '-', not 'NaN'.
    Number.isFinite(r.ratio) ? r.ratio.toFixed(r.ratio >= 100 ? 0 : r.ratio >= 10 ? 1 : 2) : '-',
    r.goal ? r.goal.text : '-',
    r.goal ? (r.goal.met ? 'PASS' : 'MISS') : 'info',
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const right = new Set([2, 3, 4]);
  const line = (c: string[]): string =>
    c
      .map((x, i) => (right.has(i) ? x.padStart(widths[i]) : x.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  log(line(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) log(line(c));
}

/** True when this bundle is the process's entry point (not imported by bench/main.ts). */
export function isEntryPoint(name: string): boolean {
  const entry = process.argv[1] ?? '';
  return entry.endsWith(`${name}.js`) || entry.endsWith(`${name}.ts`);
}

/** The line a benchmark run with `--rows` ends with: its rows as JSON, for bench/main.ts. */
export const rowsMarker = '@@bench-rows ';

/** The script's arguments without the `--rows` flag. */
export function scriptArgs(): string[] {
  return process.argv.slice(2).filter((a) => a !== '--rows');
}

/**
 * Runs a benchmark when its file is executed directly, printing its rows (and, with `--rows`, a
 * last line with them as JSON); exit 1 on error.
 */
export function runAsScript(name: string, run: () => Promise<readonly BenchRow[]>): void {
  if (!isEntryPoint(name)) return;
  run()
    .then((rows) => {
      console.log('');
      printTable(rows);
      if (process.argv.includes('--rows')) console.log(rowsMarker + JSON.stringify(rows));
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
