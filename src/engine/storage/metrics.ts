// Mirrors k8s.io/apiserver pkg/storage/metrics/metrics.go (master 24a394e5): the storage LIST cost
// metrics, which the etcd3 store and (on master) the watch cache record. release-1.36 defines the
// same four in etcd3/metrics/metrics.go with {group,resource} only and only etcd records them;
// master adds the `storage` backend label (and `index` on the total and fetched counters).
import type { KubernetesVersion } from '../features';
import type { GroupResource } from './group-resource';
import type { Counter, MetricsRegistry } from '../metrics/registry';

/** The `storage` label values (master). */
export const StorageBackendEtcd = 'etcd';
export const StorageBackendWatchCache = 'watchcache';

export type StorageBackend = typeof StorageBackendEtcd | typeof StorageBackendWatchCache;

/** The storage LIST metrics of one registry, with the label sets of `kubernetesVersion`. */
export class StorageListMetrics {
  readonly listStorageCount: Counter;
  readonly listStorageNumFetched: Counter;
  readonly listStorageNumSelectorEvals: Counter;
  readonly listStorageNumReturned: Counter;
  private readonly labelled: boolean;

  constructor(registry: MetricsRegistry, kubernetesVersion: KubernetesVersion) {
    this.labelled = kubernetesVersion !== '1.36';
    const gr = ['group', 'resource'];
    const withStorage = this.labelled ? [...gr, 'storage'] : gr;
    const withIndex = this.labelled ? [...gr, 'storage', 'index'] : gr;
    this.listStorageCount = registry.counter(
      'apiserver_storage_list_total',
      'Number of LIST requests served from storage',
      withIndex,
    );
    this.listStorageNumFetched = registry.counter(
      'apiserver_storage_list_fetched_objects_total',
      'Number of objects read from storage in the course of serving a LIST request',
      withIndex,
    );
    this.listStorageNumSelectorEvals = registry.counter(
      'apiserver_storage_list_evaluated_objects_total',
      'Number of objects tested in the course of serving a LIST request from storage',
      withStorage,
    );
    this.listStorageNumReturned = registry.counter(
      'apiserver_storage_list_returned_objects_total',
      'Number of objects returned for a LIST request from storage',
      withStorage,
    );
  }

  /** RecordStorageListMetrics: the cost of one LIST (release-1.36 drops `storage` and `index`). */
  recordStorageListMetrics(
    groupResource: GroupResource,
    storageBackend: StorageBackend,
    index: string,
    numFetched: number,
    numEvald: number,
    numReturned: number,
  ): void {
    const gr = { group: groupResource.group, resource: groupResource.resource };
    const withStorage = this.labelled ? { ...gr, storage: storageBackend } : gr;
    const withIndex = this.labelled ? { ...withStorage, index } : gr;
    this.listStorageCount.inc(withIndex);
    this.listStorageNumFetched.inc(withIndex, numFetched);
    this.listStorageNumSelectorEvals.inc(withStorage, numEvald);
    this.listStorageNumReturned.inc(withStorage, numReturned);
  }
}
