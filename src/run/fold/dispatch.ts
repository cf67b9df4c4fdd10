// No upstream counterpart: folds the model's `dispatch`: the cacher's dispatch of cache events to
// its watchers, in totals, and the dispatches that met a blocked watcher (bounded).
import type { DispatchEvent } from '../../engine';
import type { DispatchSummary } from '../run-model';
import type { SeriesLimit } from './series-limit';

export class DispatchFold {
  private readonly dispatch: DispatchSummary = {
    events: 0,
    deliveries: 0,
    blockedEvents: 0,
    terminated: 0,
    waitedMs: 0,
    blocked: [],
  };

  constructor(private readonly series: SeriesLimit) {}

  dispatched(e: DispatchEvent): void {
    const d = this.dispatch;
    d.events++;
    d.deliveries += e.candidates;
    d.terminated += e.terminated;
    d.waitedMs += e.waitedMs;
    if (e.blocked > 0) {
      d.blockedEvents++;
      const rec = {
        at: e.at,
        rv: e.resourceVersion,
        candidates: e.candidates,
        blocked: e.blocked,
        unblocked: e.unblocked,
        terminated: e.terminated,
        budgetMs: e.budgetMs,
        waitedMs: e.waitedMs,
      };
      this.series.push(d.blocked, rec, 'dispatch.blocked');
    }
  }

  /** The summary so far (its totals and array its own). */
  finish(): DispatchSummary {
    return { ...this.dispatch, blocked: this.dispatch.blocked.slice() };
  }
}
