// No upstream counterpart: small formatting helpers the scenario summaries share (virtual times,
// counts, metric lookups).
import type { RunModel } from '../run/run-model';

/** Virtual ms as `m:ss.s` (or `s.s s` under a minute). */
export function vtime(ms: number): string {
  const neg = ms < 0;
  const t = Math.abs(ms) / 1000;
  if (t < 60) return `${neg ? '-' : ''}${t.toFixed(t < 10 ? 3 : 1)} s`;
  const m = Math.floor(t / 60);
  const s = t - m * 60;
  return `${neg ? '-' : ''}${m}:${s.toFixed(1).padStart(4, '0')}`;
}

/** A duration in ms, short: `523 ms`, `3.00 s`. */
export function dur(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** A short duration in ms with the precision it needs: `0.49 ms`, `14.6 ms`, `1.39 s`. */
/** Milliseconds rounded to the microsecond (the latency model's figures are exact in 1/128 ms). */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

export function fineDur(ms: number): string {
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** A metric sample by name and (a subset of) its labels; summed over matching series. */
export function metric(model: RunModel, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [k, v] of Object.entries(model.metrics)) {
    const brace = k.indexOf('{');
    const n = brace < 0 ? k : k.slice(0, brace);
    if (n !== name) continue;
    const ok = Object.entries(labels).every(([lk, lv]) => k.includes(`${lk}="${lv}"`));
    if (ok) sum += v;
  }
  return sum;
}

/** The buckets of a histogram as (upper bound, count in that bucket) — not cumulative. */
export function histogramBuckets(
  model: RunModel,
  name: string,
): Array<{ le: string; count: number }> {
  const cumulative: Array<{ le: string; value: number }> = [];
  for (const [k, v] of Object.entries(model.metrics)) {
    if (!k.startsWith(`${name}_bucket{`)) continue;
    const m = /le="([^"]*)"/.exec(k);
    if (m) cumulative.push({ le: m[1], value: v });
  }
  const num = (s: string): number => (s === '+Inf' ? Number.POSITIVE_INFINITY : Number(s));
  cumulative.sort((a, b) => num(a.le) - num(b.le));
  let prev = 0;
  return cumulative.map((c) => {
    const r = { le: c.le, count: c.value - prev };
    prev = c.value;
    return r;
  });
}

/** min / max / mean of a list of numbers (zeros for none). */
export function stats(values: number[]): { min: number; max: number; mean: number } {
  if (values.length === 0) return { min: 0, max: 0, mean: 0 };
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  return { min, max, mean: sum / values.length };
}

/** Counts of each distinct value, sorted by value. */
export function histogram(values: number[]): Array<{ value: number; count: number }> {
  const m = new Map<number, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([value, c]) => ({ value, count: c }));
}

/** The value of a parameter from the run's header, as a number. */
export function numParam(model: RunModel, name: string): number {
  return Number(model.header.params[name]);
}
