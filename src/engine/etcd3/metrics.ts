// Mirrors k8s.io/apiserver pkg/storage/etcd3/metrics/metrics.go (release-1.36; master 24a394e5 for
// the 1.37 preview): the etcd request, bookmark, event and decode-error metrics with their names,
// help texts, labels ({operation,group,resource} / {group,resource}) and buckets, and master's
// apiserver_storage_list_duration_seconds. The storage LIST cost counters, which release-1.36
// defines here, live in storage/metrics.ts (where master moved them).
// Deliberate difference: durations are virtual seconds from the injected Clock.
import type { GroupResource } from '../storage/group-resource';
import type { Counter, Gauge, Histogram, MetricsRegistry } from '../metrics/registry';
import type { EtcdOperation } from '../inspect/events';
import type { KubernetesVersion } from '../features';
import { StorageBackendEtcd, StorageListMetrics } from '../storage/metrics';

/** etcd_request_duration_seconds buckets; kept equal to the apiserver request latency buckets (SLO). */
export const etcdRequestLatencyBuckets: readonly number[] = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45,
  60,
];

/** apiserver_storage_list_duration_seconds buckets (master): the same bounds as etcd requests. */
export const listLatencyBuckets = etcdRequestLatencyBuckets;

/** The etcd3 metrics of one registry; registering twice returns the same series. */
export class EtcdMetrics {
  readonly etcdRequestLatency: Histogram;
  readonly etcdRequestCounts: Counter;
  readonly etcdRequestErrorCounts: Counter;
  readonly etcdEventsReceivedCounts: Counter;
  readonly etcdBookmarkCounts: Gauge;
  readonly etcdBookmarkTotal: Counter;
  readonly decodeErrorCounts: Counter;
  /** apiserver_storage_list_duration_seconds: master only (undefined for release-1.36). */
  readonly listLatency: Histogram | undefined;
  readonly storageListMetrics: StorageListMetrics;
  readonly registry: MetricsRegistry;

  constructor(registry: MetricsRegistry, kubernetesVersion: KubernetesVersion = '1.36') {
    this.registry = registry;
    const opGr = ['operation', 'group', 'resource'];
    const gr = ['group', 'resource'];
    this.etcdRequestLatency = registry.histogram(
      'etcd_request_duration_seconds',
      'Etcd request latency in seconds for each operation and object type.',
      opGr,
      etcdRequestLatencyBuckets,
    );
    this.etcdRequestCounts = registry.counter(
      'etcd_requests_total',
      'Etcd request counts for each operation and object type.',
      opGr,
    );
    this.etcdRequestErrorCounts = registry.counter(
      'etcd_request_errors_total',
      'Etcd failed request counts for each operation and object type.',
      opGr,
    );
    this.etcdEventsReceivedCounts = registry.counter(
      'apiserver_storage_events_received_total',
      'Number of etcd events received split by kind.',
      gr,
      { stabilityLevel: 'BETA' },
    );
    // A gauge that is only ever incremented (sic), deprecated in 1.36 in favour of etcd_bookmark_total.
    this.etcdBookmarkCounts = registry.gauge(
      'etcd_bookmark_counts',
      'Number of etcd bookmarks (progress notify events) split by kind.',
      gr,
      { deprecatedVersion: '1.36.0' },
    );
    this.etcdBookmarkTotal = registry.counter(
      'etcd_bookmark_total',
      'Number of etcd bookmarks (progress notify events) split by kind.',
      gr,
    );
    this.decodeErrorCounts = registry.counter(
      'apiserver_storage_decode_errors_total',
      'Number of stored object decode errors split by object type',
      gr,
    );
    this.listLatency =
      kubernetesVersion === '1.36'
        ? undefined
        : registry.histogram(
            'apiserver_storage_list_duration_seconds',
            'Latency of the storage layer GetList call in seconds, including object decode, split by whether etcd RangeStream was used.',
            ['streamed', 'group', 'resource'],
            listLatencyBuckets,
          );
    this.storageListMetrics = new StorageListMetrics(registry, kubernetesVersion);
  }

  /** RecordEtcdRequest: latency, count and (on error) error count for one etcd call. */
  recordEtcdRequest(
    operation: EtcdOperation,
    groupResource: GroupResource,
    failed: boolean,
    seconds: number,
  ): void {
    const labels = { operation, group: groupResource.group, resource: groupResource.resource };
    this.etcdRequestLatency.observe(labels, seconds);
    this.etcdRequestCounts.inc(labels);
    if (failed) this.etcdRequestErrorCounts.inc(labels);
  }

  /** RecordEtcdEvent: one etcd watch event received. */
  recordEtcdEvent(groupResource: GroupResource): void {
    this.etcdEventsReceivedCounts.inc({
      group: groupResource.group,
      resource: groupResource.resource,
    });
  }

  /** RecordEtcdBookmark: increments both the deprecated gauge and the 1.36 counter. */
  recordEtcdBookmark(groupResource: GroupResource): void {
    const labels = { group: groupResource.group, resource: groupResource.resource };
    this.etcdBookmarkCounts.inc(labels);
    this.etcdBookmarkTotal.inc(labels);
  }

  /** RecordDecodeError. */
  recordDecodeError(groupResource: GroupResource): void {
    this.decodeErrorCounts.inc({ group: groupResource.group, resource: groupResource.resource });
  }

  /** RecordStorageListMetrics: the cost of one LIST served from etcd (master: storage="etcd"). */
  recordStorageListMetrics(
    groupResource: GroupResource,
    index: string,
    numFetched: number,
    numEvald: number,
    numReturned: number,
  ): void {
    this.storageListMetrics.recordStorageListMetrics(
      groupResource,
      StorageBackendEtcd,
      index,
      numFetched,
      numEvald,
      numReturned,
    );
  }

  /** RecordListLatency (master): one GetList's duration, by whether it was streamed. */
  recordListLatency(groupResource: GroupResource, streamed: boolean, seconds: number): void {
    this.listLatency?.observe(
      { streamed: String(streamed), group: groupResource.group, resource: groupResource.resource },
      seconds,
    );
  }
}
