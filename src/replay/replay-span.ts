// No upstream counterpart: how much log time a replay would run, checked before it starts. The
// cacher ticks its bookmark timer about once a virtual second whether or not a watch is open
// (cacher.go dispatchEvents, with jitter from the seeded generator), so a replay costs a step per
// second of its span: a day of log is 86,400 ticks (a few seconds), a week about ten seconds and
// 6 MB of trace on a loaded machine, a year (a klog file read a year off) ten minutes and more.
import type { ImportedRequest } from '../run/imported-request';
import { scheduleRequests } from './replay-schedule';

/** The longest log time a replay runs: a week, seconds of work (see above). */
export const maxReplaySpanMs = 7 * 24 * 3_600_000;

/** A replay refused before it started: its span is longer than maxReplaySpanMs. */
export class ReplaySpanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplaySpanError';
  }
}

/** Virtual ms from the first request to the last request or watch end the replay runs to. */
export function replaySpanMs(requests: readonly ImportedRequest[]): number {
  const schedule = scheduleRequests(requests);
  let end = 0;
  for (const s of schedule.requests) {
    end = Math.max(end, s.atMs);
    const done = s.request.completedAt;
    if (s.verb === 'watch' && s.request.endInFile && done !== undefined)
      end = Math.max(end, done - schedule.originMs);
  }
  return end;
}

/** `365 d 0 h`, `2 h 05 min`, `42 s`. */
export function spanText(ms: number): string {
  const s = Math.round(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  return m > 0 ? `${m} min ${s % 60} s` : `${s} s`;
}

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Throws ReplaySpanError when the replay would run longer than `maxMs` of log time. */
export function checkReplaySpan(
  requests: readonly ImportedRequest[],
  maxMs: number = maxReplaySpanMs,
): void {
  const span = replaySpanMs(requests);
  if (span <= maxMs) return;
  // Each file's first and last request time, in the order first seen.
  const files = new Map<string, { from: number; to: number; n: number }>();
  for (const r of requests) {
    const at = r.receivedAt ?? r.completedAt;
    const file = r.sources[0]?.file ?? '(no file)';
    if (at === undefined) continue;
    const f = files.get(file);
    if (f) {
      f.from = Math.min(f.from, at);
      f.to = Math.max(f.to, at);
      f.n++;
    } else files.set(file, { from: at, to: at, n: 1 });
  }
  const each = [...files].map(
    ([file, f]) =>
      `${file}: ${f.n} request${f.n === 1 ? '' : 's'}, ${f.from === f.to ? iso(f.from) : `${iso(f.from)} – ${iso(f.to)}`}`,
  );
  throw new ReplaySpanError(
    `not replayed: the requests span ${spanText(span)} of log time, longer than the ${spanText(maxMs)} a replay runs (the engine ticks once a virtual second, so it would run for minutes). ` +
      `${each.join('; ')}. ` +
      'Import the files of one period together; a klog file (its times have no year) is read in the year nearest the dates of an audit log imported with it, else in its modification year: `listwatch import --year N` sets it.',
  );
}
