// A watcher's figures at a moment of virtual time (the scrubber's), read from the samples the run
// recorded where they changed (src/run/watcher-samples.ts). No upstream counterpart. Plain
// functions over RunModel data, shared by the extension host (which answers the panel's rows) and
// the webview (the selected watcher's detail).
import type { VirtualMs, WatcherSample, WatcherTrack } from '../run-model';
import { lastIndexAtOrBefore, watcherPhaseAt, type WatcherPhase } from './watcher-states';

export interface WatcherFigures {
  phase: WatcherPhase;
  /** The watch had been opened by then. */
  opened: boolean;
  /**
   * The figures below are true at the moment. False before the watch opened (nothing is true of it
   * yet), and in a run without samples before the watch ended (only its last figures are known):
   * then every figure is undefined, never a later one standing in for the moment's.
   */
  known: boolean;
  /** Events and bookmarks the client had read. */
  received?: number;
  /** Bookmarks sent to it. */
  bookmarks?: number;
  /** The newest RV the client had read (0: none yet). */
  lastRv?: number;
  bufferFill?: number;
  bufferCapacity: number;
  /** The virtual second of the bookmark bucket it sat in (undefined: none, or not known). */
  nextBookmarkSecond: number | undefined;
  floorRv?: number;
  /** The run recorded no samples (an older trace): the figures are the run's last, not the moment's. */
  endOfRun: boolean;
  /** endOfRun: when the last figures become true (the watch's end, or the run's). */
  knownFrom?: VirtualMs;
}

/** When the watch opened: its first recorded state. */
export function watcherOpenedAt(track: WatcherTrack): VirtualMs {
  return track.states.length ? track.states[0].at : 0;
}

/** The sample in force at `at` (undefined before the first). */
export function sampleAt(track: WatcherTrack, at: VirtualMs): WatcherSample | undefined {
  const samples = track.samples;
  if (!samples) return undefined;
  const i = lastIndexAtOrBefore(samples, at);
  return i < 0 ? undefined : samples[i];
}

/** Every figure of the watcher as it stood at `at` (after everything that happened at `at`). */
export function watcherFiguresAt(
  track: WatcherTrack,
  at: VirtualMs,
  runEnd: VirtualMs,
): WatcherFigures {
  const phase = watcherPhaseAt(track, at, runEnd);
  const opened = phase !== 'notStarted';
  const nothing: WatcherFigures = {
    phase,
    opened,
    known: false,
    bufferCapacity: track.bufferCapacity,
    nextBookmarkSecond: undefined,
    endOfRun: !track.samples,
  };
  if (!track.samples) {
    // An older trace: only the figures at its end are known, true from the moment the watch
    // ended (nothing changes after that), or at the end of the run for a watch still open.
    const knownFrom = track.closedAt ?? runEnd;
    if (!opened || at < knownFrom) return { ...nothing, knownFrom };
    return {
      phase,
      opened,
      known: true,
      received: track.eventsReceived,
      bookmarks: track.bookmarksReceived,
      lastRv: track.lastRvSent,
      bufferFill: track.bufferFill,
      bufferCapacity: track.bufferCapacity,
      nextBookmarkSecond: phase === 'closed' ? undefined : track.nextBookmarkSecond,
      floorRv: track.bookmarkFloorRv,
      endOfRun: true,
      knownFrom,
    };
  }
  if (!opened) return nothing;
  const s = sampleAt(track, at);
  return {
    phase,
    opened,
    known: true,
    received: s?.received ?? 0,
    bookmarks: s?.bookmarks ?? 0,
    lastRv: s?.lastRv ?? 0,
    bufferFill: s?.bufferFill ?? 0,
    bufferCapacity: track.bufferCapacity,
    // A closed watcher sits in no bucket any more.
    nextBookmarkSecond:
      phase === 'closed' || s === undefined || s.nextBookmarkSecond === null
        ? undefined
        : s.nextBookmarkSecond,
    floorRv: s?.floorRv ?? 0,
    endOfRun: false,
  };
}
