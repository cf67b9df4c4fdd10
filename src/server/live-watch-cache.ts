// No upstream counterpart: what a live recorder says about the server's watch caches when it
// starts. The caches listed, became ready and started serving before anyone recorded (the server
// waits for them before it listens), so their reflector and readiness events were never heard:
// without this a live run's Watch cache tab would say the watch cache never started. Each cache's
// state (capacity, resourceVersion, history window, ready) is reported as an `observed`
// watchcache/history event, and the run is told which resource's cache the tab follows.
import type { WatchCacheHistoryEvent } from '../engine';
import type { ServedResource } from './served-resource';
import { resourceName } from './faults';

/** The resource the Watch cache tab follows: pods, what `kubectl get -w` and most clients watch. */
const followedResource = 'pods';

export interface WatchCachesObserved {
  /** The resource whose watch cache the run follows (pods when served, else the first served). */
  resource: string | undefined;
  /** One `observed` event per resource that has a watch cache, the followed one first. */
  events: WatchCacheHistoryEvent[];
}

export function observeWatchCaches(
  resources: readonly Pick<ServedResource, 'group' | 'resource' | 'engine'>[],
): WatchCachesObserved {
  const cached = resources.filter((r) => r.engine.watchCacheEnabled);
  const followed =
    cached.find((r) => resourceName(r) === followedResource) ??
    (cached[0] as (typeof cached)[0] | undefined);
  const ordered = followed ? [followed, ...cached.filter((r) => r !== followed)] : cached;
  return {
    resource: followed && resourceName(followed),
    events: ordered.map((r) =>
      r.engine.watchCache.historyReport('observed', 0, r.engine.cacher.isReady()),
    ),
  };
}
