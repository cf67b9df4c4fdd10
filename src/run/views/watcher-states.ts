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

/**
 * How a person reads each state, whatever the watch asked for. Upstream's names say what the
 * cacher tracks (the bookmark after bookmarkAfterResourceVersion, the initial-events-end one), not
 * what the client sees: a watch that asked for no initial events is put straight into
 * BookmarkSent (setBookmarkAfterResourceVersion(0), "no-op") although no bookmark was ever sent.
 */
export const watcherStateLabels: Readonly<Record<WatcherStateName, string>> = {
  // The initial events go out; the initial-events-end bookmark waits for the cache to reach the RV.
  WaitingForBookmark: 'Initial events',
  // The cache reached the RV: the initial-events-end bookmark goes at the next bookmark tick.
  BookmarkReceived: 'End bookmark due',
  // Events as they happen (and heartbeat bookmarks, if asked for).
  BookmarkSent: 'Streaming',
};

/** What the watch asked for, which says how its Streaming state reads. */
export interface WatcherAsked {
  /** allowWatchBookmarks (undefined: the trace does not say). */
  allowWatchBookmarks?: boolean;
  /** The watcher waited for bookmarkAfterResourceVersion (sendInitialEvents=true with bookmarks). */
  bookmarkFloorRv: number;
}

/**
 * WaitingForBookmark of a watch that waits for no bookmark (no floor): only the zero state it is
 * created in, until setBookmarkAfterResourceVersion(0) registers it as BookmarkSent; it sends no
 * initial events meanwhile.
 */
export const openingStateLabel = 'Opening';

/** The state as this watch's user reads it: Streaming says whether bookmarks were asked for. */
export function watcherStateText(state: WatcherStateName, asked: WatcherAsked): string {
  if (state === 'WaitingForBookmark' && asked.bookmarkFloorRv === 0) return openingStateLabel;
  if (state !== 'BookmarkSent') return watcherStateLabels[state];
  if (asked.bookmarkFloorRv > 0) return 'Streaming (initial events done)';
  // Heartbeat bookmarks are what a reflector asks for; a watch without them says so.
  if (asked.allowWatchBookmarks === false) return 'Streaming (no bookmarks asked)';
  return watcherStateLabels[state];
}

/** Where a watcher is at a moment: one of the three states, not opened yet, or ended. */
export type WatcherPhase = WatcherStateName | 'notStarted' | 'closed';

export const watcherPhaseLabels: Readonly<Record<WatcherPhase, string>> = {
  ...watcherStateLabels,
  notStarted: 'Not opened yet',
  closed: 'Closed',
};

/** A watcher's phase as its user reads it (watcherStateText for its three states). */
export function watcherPhaseText(phase: WatcherPhase, asked: WatcherAsked): string {
  return phase === 'notStarted' || phase === 'closed'
    ? watcherPhaseLabels[phase]
    : watcherStateText(phase, asked);
}

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
