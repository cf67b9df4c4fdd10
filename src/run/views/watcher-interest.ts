// The order the side bar's Watchers view lists watchers in: the ones most worth a look first.
// No upstream counterpart (upstream keeps watchers in maps; this is only how we list them). Plain
// functions over RunModel data (no DOM, no vscode), so the order is testable and can be shared.
import type { WatcherTrack } from '../run-model';

// How a watch ends when nothing went wrong: its deadline, the client stopping it, the client leaving.
const normalEnds: ReadonlySet<string> = new Set(['', 'timeout', 'stopped', 'client went away']);

/** Terminated by the cacher, or closed for a reason other than a normal end (410, 504, overrun…). */
export function endedWithError(w: WatcherTrack): boolean {
  return w.terminated || !normalEnds.has(w.closeReason);
}

/** Told in the view's description, so the order is never a puzzle. */
export const watcherInterestOrder = 'errors first, then most events';

/** Ids in numeric order when both are numbers (the cacher's ids), else as text with numbers in it. */
function compareIds(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isInteger(na) && Number.isInteger(nb) && a !== '' && b !== '') return na - nb;
  return a.localeCompare(b, 'en', { numeric: true });
}

/**
 * Watchers that ended with an error first, then by events received (most first), then by id in
 * numeric order: the order holds for the whole run, so rows do not jump while the scrubber moves.
 */
export function compareWatcherInterest(a: WatcherTrack, b: WatcherTrack): number {
  const error = Number(endedWithError(b)) - Number(endedWithError(a));
  if (error !== 0) return error;
  const events = b.eventsReceived - a.eventsReceived;
  if (events !== 0) return events;
  return compareIds(a.id, b.id);
}

/** A sorted copy (each watcher's keys worked out once: 100,000 watchers sort in well under a second). */
export function byInterest(watchers: readonly WatcherTrack[]): WatcherTrack[] {
  const keyed = watchers.map((w) => ({
    w,
    error: endedWithError(w) ? 0 : 1,
    events: w.eventsReceived,
  }));
  keyed.sort((a, b) => a.error - b.error || b.events - a.events || compareIds(a.w.id, b.w.id));
  return keyed.map((k) => k.w);
}
