// Mirrors k8s.io/apiserver pkg/storage/cacher/cacher.go `watcherBookmarkTimeBuckets` (release-1.36).
// Times are Clock milliseconds; Go's zero time.Time is `zeroTime` (-Infinity). Deliberate
// difference: a pop after a long clock jump walks the occupied buckets instead of every second in
// between (same result, O(buckets due) rather than O(seconds elapsed)).
import type { Clock } from '../clock';

/** How often a watcher that asked for bookmarks gets one, besides the one right before its deadline. */
export const defaultBookmarkFrequency = 60_000;

/** Go's zero time.Time: "as early as possible". Any bucket arithmetic with it clamps to the start bucket. */
export const zeroTime = Number.NEGATIVE_INFINITY;

/** What the buckets need from a watcher (cacheWatcher implements it). */
export interface BookmarkWatcher {
  readonly id: number | string;
  /**
   * When the watcher wants its next bookmark: zeroTime = immediately; NaN = no more bookmarks
   * (upstream's ok=false: the deadline is too close).
   */
  nextBookmarkTime(now: number, bookmarkFrequency: number): number;
}

/** EventSink hooks; unset hooks cost nothing. */
export interface BookmarkBucketsHooks {
  /** A watcher was put into a bucket (bucket due at createTime + bucketId s). */
  watcherScheduled?(e: {
    bucketId: number;
    watcherId: number | string;
    nextBookmarkTime: number;
    at: number;
  }): void;
  /** A due bucket was popped: these watchers get the bookmark being dispatched. */
  bucketPopped?(e: { bucketId: number; watcherIds: Array<number | string>; at: number }): void;
}

/**
 * Keeps every watcher whose bookmark is due within the same second in one bucket, keyed by whole
 * seconds since creation, and pops them all at once: a watcher whose fire time is X gets its
 * bookmark within (X-1, X+1). Precision is traded for O(watchers due) work per dispatch tick.
 */
export class WatcherBookmarkTimeBuckets<W extends BookmarkWatcher = BookmarkWatcher> {
  /** key = whole seconds since createTime. */
  readonly watchersBuckets = new Map<number, W[]>();
  readonly createTime: number;
  /** Every bucket before this one has been popped. */
  startBucketID = 0;
  readonly bookmarkFrequency: number;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly eventSink: BookmarkBucketsHooks | undefined;

  constructor(
    clock: Pick<Clock, 'now'>,
    bookmarkFrequency: number,
    eventSink?: BookmarkBucketsHooks,
  ) {
    this.clock = clock;
    this.createTime = clock.now();
    this.bookmarkFrequency = bookmarkFrequency;
    this.eventSink = eventSink;
  }

  /**
   * Adds a watcher to the bucket of its next bookmark time; a time before the start bucket (e.g. the
   * zero time of a watcher still waiting for its bookmark) lands in the start bucket. Returns false
   * when the watcher wants no more bookmarks.
   */
  addWatcherThreadUnsafe(w: W): boolean {
    const now = this.clock.now();
    const nextTime = w.nextBookmarkTime(now, this.bookmarkFrequency);
    if (Number.isNaN(nextTime)) return false;
    // Go: int64(nextTime.Sub(createTime) / time.Second), integer division truncating toward zero.
    let bucketID = Math.trunc((nextTime - this.createTime) / 1000);
    if (!(bucketID >= this.startBucketID)) bucketID = this.startBucketID; // also catches -Infinity/NaN
    const bucket = this.watchersBuckets.get(bucketID);
    if (bucket) bucket.push(w);
    else this.watchersBuckets.set(bucketID, [w]);
    const insp = this.eventSink;
    const scheduled = insp?.watcherScheduled;
    if (scheduled)
      scheduled.call(insp, {
        bucketId: bucketID,
        watcherId: w.id,
        nextBookmarkTime: nextTime,
        at: now,
      });
    return true;
  }

  /**
   * addWatcherThreadUnsafe for each watcher in order, at one instant (the re-queue after a
   * bookmark dispatch): one clock read, and the bucket of the previous watcher reused when it is
   * the same. Watchers with `stopped` set are skipped (they are never re-queued).
   */
  addWatchersThreadUnsafe(ws: readonly W[]): void {
    const now = this.clock.now();
    const frequency = this.bookmarkFrequency;
    let lastID = Number.NaN;
    let last: W[] | undefined;
    for (let i = 0; i < ws.length; i++) {
      const w = ws[i];
      if ((w as { stopped?: boolean }).stopped === true) continue;
      const nextTime = w.nextBookmarkTime(now, frequency);
      if (Number.isNaN(nextTime)) continue;
      let bucketID = Math.trunc((nextTime - this.createTime) / 1000);
      if (!(bucketID >= this.startBucketID)) bucketID = this.startBucketID;
      if (bucketID !== lastID || last === undefined) {
        last = this.watchersBuckets.get(bucketID);
        if (last === undefined) {
          last = [];
          this.watchersBuckets.set(bucketID, last);
        }
        lastID = bucketID;
      }
      last.push(w);
      const insp = this.eventSink;
      const scheduled = insp?.watcherScheduled;
      if (scheduled)
        scheduled.call(insp, {
          bucketId: bucketID,
          watcherId: w.id,
          nextBookmarkTime: nextTime,
          at: now,
        });
    }
  }

  /** Removes and returns every bucket due by now, one list per non-empty bucket, in bucket order. */
  popExpiredWatchersThreadUnsafe(): W[][] {
    const now = this.clock.now();
    const currentBucketID = Math.trunc((now - this.createTime) / 1000);
    const expired: W[][] = [];
    if (currentBucketID < this.startBucketID) return expired;
    const span = currentBucketID - this.startBucketID + 1;
    if (span <= this.watchersBuckets.size) {
      for (; this.startBucketID <= currentBucketID; this.startBucketID++)
        this.popBucket(this.startBucketID, expired, now);
    } else {
      // Fewer buckets than seconds to walk: visit the occupied ones (same order, same result).
      const due = [...this.watchersBuckets.keys()]
        .filter((id) => id <= currentBucketID)
        .sort((a, b) => a - b);
      for (const id of due) this.popBucket(id, expired, now);
      this.startBucketID = currentBucketID + 1;
    }
    return expired;
  }

  /** Number of watchers currently scheduled (for inspectors and tests). */
  scheduledWatchers(): number {
    let n = 0;
    for (const ws of this.watchersBuckets.values()) n += ws.length;
    return n;
  }

  private popBucket(id: number, expired: W[][], now: number): void {
    const watchers = this.watchersBuckets.get(id);
    if (!watchers) return;
    this.watchersBuckets.delete(id);
    expired.push(watchers);
    this.eventSink?.bucketPopped?.({
      bucketId: id,
      watcherIds: watchers.map((w) => w.id),
      at: now,
    });
  }
}

/** Upstream's constructor name. */
export function newTimeBucketWatchers<W extends BookmarkWatcher>(
  clock: Pick<Clock, 'now'>,
  bookmarkFrequency: number,
  eventSink?: BookmarkBucketsHooks,
): WatcherBookmarkTimeBuckets<W> {
  return new WatcherBookmarkTimeBuckets<W>(clock, bookmarkFrequency, eventSink);
}
