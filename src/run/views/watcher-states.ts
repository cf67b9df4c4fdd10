// What the inspector derives from a watcher's recorded state history at a point of virtual time
// (the scrubber's). No upstream counterpart: upstream's cacheWatcher (cache_watcher.go) has one
// current state; the history is ours. Plain functions over RunModel data, shared by the webview
// and the extension host's Watchers view (no DOM, no vscode).
import type { VirtualMs, WatcherStateName, WatcherTrack } from '../run-model';

/** The three upstream states in the order a watcher normally passes through them. */
export const watcherStateNames: readonly WatcherStateName[] = [
  'WaitingForBookmark',
  'BookmarkReceived',
  'BookmarkSent',
];

/** How a person reads each state. */
export const watcherStateLabels: Readonly<Record<WatcherStateName, string>> = {
  WaitingForBookmark: 'Waiting for bookmark',
  BookmarkReceived: 'Bookmark received',
  BookmarkSent: 'Bookmark sent',
};

/** Where a watcher is at a moment: one of the three states, not opened yet, or ended. */
export type WatcherPhase = WatcherStateName | 'notStarted' | 'closed';

export const watcherPhaseLabels: Readonly<Record<WatcherPhase, string>> = {
  ...watcherStateLabels,
  notStarted: 'Not opened yet',
  closed: 'Closed',
};

/** Index of the last element whose `at` is <= at (-1 when none); `items` sorted by `at`. */
export function lastIndexAtOrBefore(
  items: ReadonlyArray<{ at: VirtualMs }>,
  at: VirtualMs,
): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].at <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The state the watcher was in at `at` (the last change at or before it); undefined before it opened. */
export function watcherStateAt(track: WatcherTrack, at: VirtualMs): WatcherStateName | undefined {
  const i = lastIndexAtOrBefore(track.states, at);
  return i < 0 ? undefined : track.states[i].state;
}

/**
 * Whether the watch had ended by `at`. A watch closed without a recorded time counts as closed at
 * the end of the run (`runEnd`), the only moment known to see it closed.
 */
export function watcherClosedAt(track: WatcherTrack, at: VirtualMs, runEnd: VirtualMs): boolean {
  if (track.closedAt !== undefined) return track.closedAt <= at;
  return (track.terminated || track.closeReason !== '') && at >= runEnd;
}

export function watcherPhaseAt(
  track: WatcherTrack,
  at: VirtualMs,
  runEnd: VirtualMs,
): WatcherPhase {
  if (watcherClosedAt(track, at, runEnd)) return 'closed';
  return watcherStateAt(track, at) ?? 'notStarted';
}

/** One edge of the state machine as this watcher took it. */
export interface WatcherTransition {
  from: WatcherStateName;
  to: WatcherStateName;
  /** Virtual times it was taken, in order. */
  times: VirtualMs[];
}

/** Every transition the watcher took (consecutive distinct states), grouped by edge, in first-taken order. */
export function watcherTransitions(track: WatcherTrack): WatcherTransition[] {
  const byEdge = new Map<string, WatcherTransition>();
  for (let i = 1; i < track.states.length; i++) {
    const from = track.states[i - 1].state;
    const to = track.states[i].state;
    if (from === to) continue;
    const edge = `${from}>${to}`;
    let t = byEdge.get(edge);
    if (!t) {
      t = { from, to, times: [] };
      byEdge.set(edge, t);
    }
    t.times.push(track.states[i].at);
  }
  return [...byEdge.values()];
}

/** Virtual time as a person reads it: seconds with milliseconds, e.g. "12.345 s". */
export function formatVirtualTime(ms: VirtualMs): string {
  if (!Number.isFinite(ms)) return '—';
  return `${(ms / 1000).toFixed(3)} s`;
}
