// Test helpers for the watch cache tests, after newTestWatchCache / makeTestPod in k8s.io/apiserver
// pkg/storage/cacher/watch_cache_test.go (release-1.36).
import { FakeClock } from '../../../src/engine/clock';
import { MetricsRegistry } from '../../../src/engine/metrics/registry';
import { CacherMetrics } from '../../../src/engine/cacher/metrics';
import { APIObjectVersioner } from '../../../src/engine/storage/versioner';
import type { KubeObject } from '../../../src/engine/storage/objects';
import type { StoreElement, Indexers } from '../../../src/engine/cacher/watch-cache-store';
import { WatchCache, type WatchCacheConfig } from '../../../src/engine/cacher/watch-cache';
import {
  DefaultEventFreshDuration,
  defaultLowerBoundCapacity,
  defaultUpperBoundCapacity,
} from '../../../src/engine/cacher/watch-cache-history';
import type { WatchCacheEvent } from '../../../src/engine/cacher/watch-cache-event';

export interface TestPod extends KubeObject {
  metadata: {
    namespace: string;
    name: string;
    resourceVersion: string;
    labels: Record<string, string>;
  };
  spec: { nodeName: string };
}

export function makeTestPodDetails(
  name: string,
  resourceVersion: number,
  nodeName: string,
  labels: Record<string, string>,
): TestPod {
  return {
    metadata: { namespace: 'ns', name, resourceVersion: String(resourceVersion), labels },
    spec: { nodeName },
  };
}

export function makeTestPod(name: string, resourceVersion: number): TestPod {
  return makeTestPodDetails(name, resourceVersion, 'some-node', { 'k8s-app': 'my-app' });
}

export function makeTestStoreElement(pod: TestPod): StoreElement<TestPod> {
  return {
    key: `/prefix/ns/${pod.metadata.name}`,
    object: pod,
    labels: { ...pod.metadata.labels },
    fields: { 'spec.nodeName': pod.spec.nodeName },
  };
}

/** A watch cache over pods with a fake clock, as upstream's testWatchCache. */
export interface TestWatchCache {
  wc: WatchCache<TestPod>;
  clock: FakeClock;
  registry: MetricsRegistry;
  /** Events given to the cacher's event handler. */
  handled: WatchCacheEvent<TestPod>[];
  /**
   * store.bookmarkRevision <- rev: the etcd progress notification the next progress request gets
   * (delivered at once if a consistent read is already requesting progress).
   */
  sendBookmarkRevision(rev: number): void;
  /** getAllEventsSince: drains the interval into a list (throws what the interval throws). */
  getAllEventsSince(
    resourceVersion: number,
    opts?: { sendInitialEvents?: boolean },
  ): WatchCacheEvent<TestPod>[];
}

/** The virtual epoch of test clocks (upstream uses time.Now(); any value works). */
export const testEpoch = 1_000_000;

export function newTestWatchCache(
  capacity: number,
  eventFreshDuration = DefaultEventFreshDuration,
  indexers: Indexers<TestPod> = {},
  extra: Partial<WatchCacheConfig<TestPod>> = {},
): TestWatchCache {
  const clock = new FakeClock(testEpoch);
  const registry = new MetricsRegistry();
  const handled: WatchCacheEvent<TestPod>[] = [];
  const pendingBookmarks: number[] = [];
  let requesting = 0;
  const deliver = () => {
    while (requesting > 0 && pendingBookmarks.length > 0)
      wc.updateResourceVersion(String(pendingBookmarks.shift()));
  };
  const wc: WatchCache<TestPod> = new WatchCache<TestPod>({
    keyFunc: (pod) => `/prefix/${pod.metadata.namespace}/${pod.metadata.name}`,
    getAttrsFunc: (pod) => ({
      labels: { ...pod.metadata.labels },
      fields: { 'spec.nodeName': pod.spec.nodeName },
    }),
    versioner: new APIObjectVersioner(),
    indexers,
    clock,
    eventFreshDuration,
    groupResource: { group: '', resource: 'pods' },
    eventHandler: (e) => handled.push(e),
    // Upstream's test requester ticks immediately and asks for progress while someone waits.
    progressRequester: {
      add: () => {
        requesting++;
        deliver();
      },
      remove: () => {
        requesting--;
      },
    },
    consistentReadSupported: () => true,
    getCurrentRV: async () => wc.resourceVersion,
    metrics: new CacherMetrics(registry),
    ...extra,
  });
  // To preserve the behaviour of tests that assume a given capacity, resize it to that size.
  const h = wc.history;
  h.capacity = capacity;
  h.cache = new Array(capacity);
  h.lowerBoundCapacity = Math.min(capacity, defaultLowerBoundCapacity);
  h.upperBoundCapacity = Math.max(capacity, defaultUpperBoundCapacity);
  return {
    wc,
    clock,
    registry,
    handled,
    sendBookmarkRevision(rev: number) {
      pendingBookmarks.push(rev);
      deliver();
    },
    getAllEventsSince(resourceVersion, opts = {}) {
      const interval = wc.getAllEventsSinceLocked(resourceVersion, '', {
        predicate: {},
        sendInitialEvents: opts.sendInitialEvents,
      });
      const result: WatchCacheEvent<TestPod>[] = [];
      for (;;) {
        const event = interval.next();
        if (!event) return result;
        result.push(event);
      }
    },
  };
}
