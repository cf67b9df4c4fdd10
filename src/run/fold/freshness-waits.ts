// No upstream counterpart: folds the model's `freshnessWaits` and `progressRequests`: the reads
// that waited for the watch cache to become fresh (waitUntilFreshAndBlock) and the etcd progress
// requests made meanwhile (the cacher's progressRequester).
import type { WatchCacheFreshnessWaitEvent } from '../../engine';
import type { FreshnessWaitRecord } from '../run-model';
import type { SeriesLimit } from './series-limit';

export class FreshnessWaitsFold {
  private readonly waits: FreshnessWaitRecord[] = [];
  private progressRequests = 0;

  constructor(private readonly series: SeriesLimit) {}

  waited(e: WatchCacheFreshnessWaitEvent): void {
    const w: FreshnessWaitRecord = {
      at: e.at,
      rv: e.resourceVersion,
      cacheRv: e.cacheResourceVersion,
      waitedMs: e.waitedMs,
      outcome: e.outcome,
    };
    this.series.push(this.waits, w, 'freshnessWaits');
  }

  progressRequested(): void {
    this.progressRequests++;
  }

  /** The waits so far (a new array). */
  finishWaits(): FreshnessWaitRecord[] {
    return this.waits.slice();
  }

  finishProgressRequests(): number {
    return this.progressRequests;
  }
}
