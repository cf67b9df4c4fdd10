// Mirrors k8s.io/apiserver pkg/storage/cacher/metrics/metrics.go (release-1.36; master 24a394e5 for
// the 1.37 preview): every cacher, watch cache and watcher metric the engine records, with
// upstream's names, help texts, labels and buckets, and the Record* helpers. Master deprecates the
// apiserver_cache_list_* counters (1.37.0) and also counts cache LISTs in the storage LIST metrics
// (storage="watchcache"). Not here: the consistency checker's counter (consistency-checker.ts
// registers it), sharded-watch, initialization
// error/duration and dispatch-stage metrics (nothing here records them).
// Deliberate difference: one instance per cacher over a shared registry instead of package
// globals; series are looked up per call, as WithLabelValues does, so a registry reset starts them
// afresh.
import type { KubernetesVersion } from '../features';
import type { Counter, Gauge, Histogram, Labels, MetricsRegistry } from '../metrics/registry';
import type { GroupResource } from '../storage/group-resource';
import { StorageBackendWatchCache, StorageListMetrics } from '../storage/metrics';

/** apiserver_watch_cache_read_wait_seconds buckets. */
export const watchCacheReadWaitBuckets: readonly number[] = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3,
];

/** The cacher's metrics over one registry, as `kubernetesVersion` defines them. */
export class CacherMetrics {
  readonly kubernetesVersion: KubernetesVersion;
  readonly listCacheCount: Counter;
  readonly listCacheNumFetched: Counter;
  readonly listCacheNumReturned: Counter;
  readonly initCounter: Counter;
  readonly eventsReceivedCounter: Counter;
  readonly eventsCounter: Counter;
  readonly terminatedWatchersCounter: Counter;
  readonly watchCacheResourceVersion: Gauge;
  /** These three use only the `watch_cache` subsystem, without the `apiserver` namespace. */
  readonly watchCacheCapacityIncreaseTotal: Counter;
  readonly watchCacheCapacityDecreaseTotal: Counter;
  readonly watchCacheCapacity: Gauge;
  readonly watchCacheInitializations: Counter;
  readonly watchCacheReadWait: Histogram;
  readonly consistentReadTotal: Counter;
  /** Master only: cache LISTs also count in apiserver_storage_list_*. */
  private readonly storageListMetrics: StorageListMetrics | undefined;

  constructor(registry: MetricsRegistry, kubernetesVersion: KubernetesVersion = '1.36') {
    this.kubernetesVersion = kubernetesVersion;
    const master = kubernetesVersion !== '1.36';
    const gr = ['group', 'resource'];
    const listCacheOptions = master ? { deprecatedVersion: '1.37.0' } : {};
    this.listCacheCount = registry.counter(
      'apiserver_cache_list_total',
      'Number of LIST requests served from watch cache',
      [...gr, 'index'],
      listCacheOptions,
    );
    this.listCacheNumFetched = registry.counter(
      'apiserver_cache_list_fetched_objects_total',
      'Number of objects read from watch cache in the course of serving a LIST request',
      [...gr, 'index'],
      listCacheOptions,
    );
    this.listCacheNumReturned = registry.counter(
      'apiserver_cache_list_returned_objects_total',
      'Number of objects returned for a LIST request from watch cache',
      gr,
      listCacheOptions,
    );
    this.initCounter = registry.counter(
      'apiserver_init_events_total',
      'Counter of init events processed in watch cache broken by resource type.',
      gr,
    );
    this.eventsReceivedCounter = registry.counter(
      'apiserver_watch_cache_events_received_total',
      'Counter of events received in watch cache broken by resource type.',
      gr,
    );
    this.eventsCounter = registry.counter(
      'apiserver_watch_cache_events_dispatched_total',
      'Counter of events dispatched in watch cache broken by resource type.',
      gr,
    );
    this.terminatedWatchersCounter = registry.counter(
      'apiserver_terminated_watchers_total',
      'Counter of watchers closed due to unresponsiveness broken by resource type.',
      gr,
    );
    this.watchCacheResourceVersion = registry.gauge(
      'apiserver_watch_cache_resource_version',
      'Current resource version of watch cache broken by resource type. This is truncated to the 15 least significant digits.',
      gr,
    );
    this.watchCacheCapacityIncreaseTotal = registry.counter(
      'watch_cache_capacity_increase_total',
      'Total number of watch cache capacity increase events broken by resource type.',
      gr,
    );
    this.watchCacheCapacityDecreaseTotal = registry.counter(
      'watch_cache_capacity_decrease_total',
      'Total number of watch cache capacity decrease events broken by resource type.',
      gr,
    );
    this.watchCacheCapacity = registry.gauge(
      'watch_cache_capacity',
      'Total capacity of watch cache broken by resource type.',
      gr,
    );
    this.watchCacheInitializations = registry.counter(
      'apiserver_watch_cache_initializations_total',
      'Counter of watch cache initializations broken by resource type.',
      gr,
    );
    this.watchCacheReadWait = registry.histogram(
      'apiserver_watch_cache_read_wait_seconds',
      'Histogram of time spent waiting for a watch cache to become fresh.',
      gr,
      watchCacheReadWaitBuckets,
    );
    this.consistentReadTotal = registry.counter(
      'apiserver_watch_cache_consistent_read_total',
      'Counter for consistent reads from cache.',
      [...gr, 'success', 'fallback'],
    );
    this.storageListMetrics = master
      ? new StorageListMetrics(registry, kubernetesVersion)
      : undefined;
  }

  /** RecordListCacheMetrics: the cost of one LIST served from the watch cache. */
  recordListCacheMetrics(
    groupResource: GroupResource,
    indexName: string,
    numFetched: number,
    numReturned: number,
  ): void {
    const gr = { group: groupResource.group, resource: groupResource.resource };
    const labels = { ...gr, index: indexName };
    this.listCacheCount.inc(labels);
    this.listCacheNumFetched.inc(labels, numFetched);
    this.listCacheNumReturned.inc(gr, numReturned);
    this.storageListMetrics?.recordStorageListMetrics(
      groupResource,
      StorageBackendWatchCache,
      indexName,
      numFetched,
      0,
      numReturned,
    );
  }

  /**
   * RecordResourceVersion: the watch cache's RV, truncated to its 15 least significant digits so
   * that the float keeps every digit. `labels` is {group, resource}, built once by the caller.
   */
  recordResourceVersion(labels: Labels, resourceVersion: number): void {
    this.watchCacheResourceVersion.set(labels, resourceVersion % 1_000_000_000_000_000);
  }

  /** RecordsWatchCacheCapacityChange: the gauge takes the new value; old >= new is a decrease. */
  recordsWatchCacheCapacityChange(
    groupResource: GroupResource,
    oldCapacity: number,
    newCapacity: number,
  ): void {
    const labels = { group: groupResource.group, resource: groupResource.resource };
    this.watchCacheCapacity.set(labels, newCapacity);
    if (oldCapacity < newCapacity) {
      this.watchCacheCapacityIncreaseTotal.inc(labels);
      return;
    }
    this.watchCacheCapacityDecreaseTotal.inc(labels);
  }

  /**
   * WatchCacheReadWait for a read at rv > 0 that took `seconds`: release-1.36 observes every such
   * read (waitUntilFreshAndBlock's defer), master only reads that had to wait (waitUntilFreshLocked
   * returns before its defer when the cache is fresh enough).
   */
  observeReadWait(labels: Labels, waited: boolean, seconds: number): void {
    if (!waited && this.kubernetesVersion !== '1.36') return;
    this.watchCacheReadWait.observe(labels, seconds);
  }

  terminatedWatchersInc(groupResource: GroupResource): void {
    this.terminatedWatchersCounter.inc({
      group: groupResource.group,
      resource: groupResource.resource,
    });
  }

  initEventsAdd(groupResource: GroupResource, n: number): void {
    this.initCounter.inc({ group: groupResource.group, resource: groupResource.resource }, n);
  }
}
