// No upstream counterpart: folds the model's `watchCache`: whether the run started a watch cache
// (its cacher's reflector was heard from) and when it first became ready.
import type { CacherReadyEvent } from '../../engine';
import type { RunModel } from '../run-model';

type WatchCache = NonNullable<RunModel['watchCache']>;

export class WatchCacheFold {
  private readonly watchCache: WatchCache = { started: false };

  /** The cacher's reflector reported (any phase): the watch cache started. */
  reflector(at: number): void {
    if (!this.watchCache.started) {
      this.watchCache.started = true;
      this.watchCache.startedAt = at;
    }
  }

  ready(e: CacherReadyEvent): void {
    if (e.state === 'ready') this.watchCache.readyAt ??= e.at;
  }

  /** The state so far (a copy). */
  finish(): WatchCache {
    return { ...this.watchCache };
  }
}
