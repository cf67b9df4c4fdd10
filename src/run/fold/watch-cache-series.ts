// No upstream counterpart: one resource's watch cache over a run (whether and when it started, its
// capacity, its resourceVersion against etcd's, its history window) for a cache the model does not
// follow at its top level: a live server has one watch cache per resource, and the Watch cache tab
// picks which to draw. The same folds as the followed cache's, with a cap of their own.
import type { WatchCacheSeries } from '../run-model';
import { CapacityFold } from './capacity';
import { HistoryWindowFold } from './history-window';
import { ResourceVersionsFold } from './resource-versions';
import { SeriesLimit } from './series-limit';
import { WatchCacheFold } from './watch-cache';

export class WatchCacheSeriesFold {
  readonly state: WatchCacheFold;
  readonly capacity: CapacityFold;
  readonly resourceVersions: ResourceVersionsFold;
  readonly historyWindow: HistoryWindowFold;

  /** `etcd`: etcd's revision when the cache was first heard from (the RV chart starts there). */
  constructor(
    readonly resource: string,
    limit: number,
    etcd?: { at: number; rv: number },
  ) {
    // Its own cap: what it leaves out is not the followed cache's (the model's `truncated`).
    const series = new SeriesLimit(limit);
    this.state = new WatchCacheFold(resource);
    this.capacity = new CapacityFold(series);
    this.resourceVersions = new ResourceVersionsFold(series);
    this.historyWindow = new HistoryWindowFold(series);
    if (etcd) this.resourceVersions.etcd(etcd.at, etcd.rv);
  }

  finish(): WatchCacheSeries {
    const { started, startedAt, readyAt } = this.state.finish();
    return {
      resource: this.resource,
      started,
      ...(startedAt !== undefined ? { startedAt } : {}),
      ...(readyAt !== undefined ? { readyAt } : {}),
      // No metrics fallback: the run's resource metrics are the followed cache's.
      capacity: this.capacity.finish({}),
      resourceVersions: this.resourceVersions.finish(),
      historyWindow: this.historyWindow.finish(),
    };
  }
}
