// No upstream counterpart: folds the model's `bookmarkTicks`: each tick of the cacher's bookmark
// timer with the buckets it popped (watcherBookmarkTimeBuckets) and the watchers they held.
import type { BookmarkTickEvent } from '../../engine';
import type { BookmarkTickRecord } from '../run-model';
import type { SeriesLimit } from './series-limit';

export class BookmarkTicksFold {
  private readonly ticks: BookmarkTickRecord[] = [];
  /** Buckets popped since the last tick: the next tick's. */
  private popsSinceTick = 0;

  constructor(private readonly series: SeriesLimit) {}

  bucketPopped(): void {
    this.popsSinceTick++;
  }

  tick(e: BookmarkTickEvent): void {
    const rec = {
      at: e.at,
      resourceVersion: e.resourceVersion,
      buckets: this.popsSinceTick,
      watchers: e.watchers,
      queued: e.queued,
    };
    this.popsSinceTick = 0;
    this.series.push(this.ticks, rec, 'bookmarkTicks');
  }

  /** The ticks so far (a new array). */
  finish(): BookmarkTickRecord[] {
    return this.ticks.slice();
  }
}
