// No upstream counterpart: folds the figures a run recorded over time into each WatcherTrack's
// `samples` (the scenario run's per-instant `watchers` records, plus the bookmarks, floor
// changes and bookmark buckets the watcher's own events report), so that every face can read a
// watcher at any moment.
import type { WatcherSampleGroup } from './trace/trace-format';
import type { VirtualMs, WatcherSample, WatcherTrack } from './run-model';

/**
 * The track's sample for instant `at`: the last one when it is at `at`, else a copy of it from `at`
 * on. An event told after a later sample (a live run's aggregated `bookmarks/scheduled` is emitted
 * a tick after its instant) changes the last sample: samples stay in time order.
 */
export function sampleFrom(track: WatcherTrack, at: VirtualMs): WatcherSample {
  const samples = (track.samples ??= []);
  const last = samples[samples.length - 1];
  if (last && last.at >= at) return last;
  // One literal shape for every sample (a spread would make them differ): there are millions.
  const next: WatcherSample = last
    ? {
        at,
        received: last.received,
        bookmarks: last.bookmarks,
        lastRv: last.lastRv,
        bufferFill: last.bufferFill,
        nextBookmarkSecond: last.nextBookmarkSecond,
        floorRv: last.floorRv,
      }
    : {
        at,
        received: 0,
        bookmarks: 0,
        lastRv: 0,
        bufferFill: 0,
        nextBookmarkSecond: null,
        floorRv: 0,
      };
  samples.push(next);
  return next;
}

/** Calls `fn` with every id of a sample group (single ids and inclusive ranges). */
export function forEachId(ids: WatcherSampleGroup['ids'], fn: (id: string) => void): void {
  for (const x of ids) {
    if (typeof x === 'number') fn(String(x));
    else for (let id = x[0]; id <= x[1]; id++) fn(String(id));
  }
}

/**
 * One `watchers` record: each named watcher's figures from `at` on. `withBuckets` false: its
 * bookmark buckets are left as the events put them (bookmarks/scheduled and bucket-popped).
 */
export function foldSampleGroups(
  at: VirtualMs,
  changes: readonly WatcherSampleGroup[],
  trackOf: (id: string) => WatcherTrack | undefined,
  withBuckets = true,
): void {
  for (const g of changes) {
    forEachId(g.ids, (id) => {
      const t = trackOf(id);
      if (!t) return;
      const s = sampleFrom(t, at);
      s.received += g.received;
      s.lastRv = g.lastRv;
      if (g.bufferFill !== undefined) s.bufferFill = g.bufferFill;
      if (withBuckets && g.nextBookmarkSecond !== undefined)
        s.nextBookmarkSecond = g.nextBookmarkSecond;
    });
  }
}
