// Mirrors k8s.io/apiserver pkg/storage/etcd3/metrics/metrics.go (release-1.36): the etcd request,
// bookmark, event, decode-error and storage LIST cost metrics with their 1.36 names, help texts,
// labels ({operation,group,resource} / {group,resource}) and buckets.
// Deliberate difference: durations are virtual seconds from the injected Clock.
import type { GroupResource } from '../storage/group-resource';
import type { Counter, Gauge, Histogram, MetricsRegistry } from '../metrics/registry';
import type { EtcdOperation } from '../inspect/events';

/** etcd_request_duration_seconds buckets; kept equal to the apiserver request latency buckets (SLO). */
export const etcdRequestLatencyBuckets: readonly number[] = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45,
  60,
];

/** The etcd3 metrics of one registry; registering twice returns the same series. */
export class EtcdMetrics {
  readonly etcdRequestLatency: Histogram;
  readonly etcdRequestCounts: Counter;
  readonly etcdRequestErrorCounts: Counter;
  readonly etcdEventsReceivedCounts: Counter;
  readonly etcdBookmarkCounts: Gauge;
  readonly etcdBookmarkTotal: Counter;
  readonly listStorageCount: Counter;
  readonly listStorageNumFetched: Counter;
  readonly listStorageNumSelectorEvals: Counter;
  readonly listStorageNumReturned: Counter;
  readonly decodeErrorCounts: Counter;
  readonly registry: MetricsRegistry;

  constructor(registry: MetricsRegistry) {
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
    this.listStorageCount = registry.counter(
      'apiserver_storage_list_total',
      'Number of LIST requests served from storage',
      gr,
    );
    this.listStorageNumFetched = registry.counter(
      'apiserver_storage_list_fetched_objects_total',
      'Number of objects read from storage in the course of serving a LIST request',
      gr,
    );
    this.listStorageNumSelectorEvals = registry.counter(
      'apiserver_storage_list_evaluated_objects_total',
      'Number of objects tested in the course of serving a LIST request from storage',
      gr,
    );
    this.listStorageNumReturned = registry.counter(
      'apiserver_storage_list_returned_objects_total',
      'Number of objects returned for a LIST request from storage',
      gr,
    );
    this.decodeErrorCounts = registry.counter(
      'apiserver_storage_decode_errors_total',
      'Number of stored object decode errors split by object type',
      gr,
    );
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

  /** RecordStorageListMetrics: the cost of one LIST served from etcd. */
  recordStorageListMetrics(
    groupResource: GroupResource,
    numFetched: number,
    numEvald: number,
    numReturned: number,
  ): void {
    const labels = { group: groupResource.group, resource: groupResource.resource };
    this.listStorageCount.inc(labels);
    this.listStorageNumFetched.inc(labels, numFetched);
    this.listStorageNumSelectorEvals.inc(labels, numEvald);
    this.listStorageNumReturned.inc(labels, numReturned);
  }
}
