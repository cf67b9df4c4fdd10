// Test helpers for the cacher tests, after k8s.io/apiserver pkg/storage/cacher/testing/mock.go
// (MockStorage, MockWatch) and newTestCacher / newTestCacherWithoutSyncing in
// cacher_whitebox_test.go (release-1.36), on a FakeClock.
import { FakeClock, settle } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { MetricsRegistry } from '../../../src/engine/metrics/registry';
import { profile136, withGates, type FeatureGates } from '../../../src/engine/features';
import { Cacher, type CacherConfig } from '../../../src/engine/cacher/cacher';
import { CacheDelegator } from '../../../src/engine/cacher/delegator';
import type { WatchEvent, WatchInterface } from '../../../src/engine/cacher/watch';
import { CachingObject } from '../../../src/engine/cacher/caching-object';
import type { ListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import type { Status } from '../../../src/engine/storage/errors';
import type { ListResult } from '../../../src/engine/etcd3/store';
import type {
  StorageWatch,
  StorageWatchEvent,
  WatchOptions,
} from '../../../src/engine/etcd3/watcher';

/** MockWatch: a storage watch whose events the test sends. */
export class MockWatch implements StorageWatch {
  stopped = false;
  private consumer: ((e: StorageWatchEvent) => void) | undefined;
  private queued: StorageWatchEvent[] = [];

  constructor(private readonly owner: MockStorage | undefined) {}

  onEvent(cb: (e: StorageWatchEvent) => void): void {
    this.consumer = cb;
    const q = this.queued;
    this.queued = [];
    for (const e of q) cb(e);
  }

  requestWatchProgress(): void {
    if (this.owner) this.owner.requestWatchProgressCounter++;
  }

  stop(): void {
    this.stopped = true;
  }

  /** Sends an event (queued until the consumer registers). */
  send(e: StorageWatchEvent): void {
    if (this.stopped) return;
    if (this.consumer) this.consumer(e);
    else this.queued.push(e);
  }

  add(obj: KubeObject): void {
    this.send({
      type: 'ADDED',
      object: obj,
      resourceVersion: Number(obj.metadata.resourceVersion ?? '0'),
    });
  }

  /** An ERROR event: a Status, or (like watch.FakeWatcher.Error(nil)) an object that is not one. */
  error(status?: Status): void {
    this.send({ type: 'ERROR', object: status ?? ({} as Status), resourceVersion: 0 });
  }

  [Symbol.asyncIterator](): AsyncIterator<StorageWatchEvent> {
    throw new Error('MockWatch: use onEvent');
  }
}

/** MockStorage: GetList answers RV 100 (or getListFn), GetCurrentResourceVersion 100 (or getRVFn). */
export class MockStorage {
  getListErr: Error | undefined;
  watchErr: Error | undefined;
  getListFn: ((key: string, opts: ListOptions) => ListResult | Promise<ListResult>) | undefined;
  getRVFn: (() => number | Promise<number>) | undefined;
  watchFn: ((key: string, opts: WatchOptions) => StorageWatch) | undefined;
  getFn: ((key: string) => KubeObject | undefined) | undefined;
  requestWatchProgressCounter = 0;
  readonly watches: MockWatch[] = [];

  constructor(
    init: Partial<
      Pick<MockStorage, 'getListErr' | 'watchErr' | 'getListFn' | 'getRVFn' | 'watchFn'>
    > = {},
  ) {
    Object.assign(this, init);
  }

  async getList(key: string, opts: ListOptions): Promise<ListResult> {
    if (this.getListFn) return this.getListFn(key, opts);
    if (this.getListErr) throw this.getListErr;
    return { items: [], resourceVersion: '100' };
  }

  async getCurrentResourceVersion(): Promise<number> {
    if (this.getRVFn) return this.getRVFn();
    return 100;
  }

  async watch(key: string, opts: WatchOptions): Promise<StorageWatch> {
    if (this.watchFn) return this.watchFn(key, opts);
    if (this.watchErr) throw this.watchErr;
    const w = new MockWatch(this);
    this.watches.push(w);
    return w;
  }

  async get(key: string): Promise<KubeObject | undefined> {
    if (this.getListErr) throw this.getListErr;
    return this.getFn?.(key);
  }

  injectGetListError(err: Error | undefined): void {
    this.getListErr = err;
  }
}

export interface TestCacher {
  cacher: Cacher;
  delegator: CacheDelegator;
  clock: FakeClock;
  registry: MetricsRegistry;
  storage: MockStorage;
}

/** The virtual epoch of the tests' clocks. */
export const testEpoch = 1_000_000;

export function testGates(overrides: Partial<FeatureGates> = {}): FeatureGates {
  return withGates(profile136, overrides as Record<keyof FeatureGates, boolean>, {
    allowLockedOverride: true,
  }).gates;
}

/** newTestCacherWithoutSyncing: resourcePrefix /pods/, started, not waited for. */
export function newTestCacherWithoutSyncing(
  storage: MockStorage,
  extra: Partial<CacherConfig> & { gates?: FeatureGates; clock?: FakeClock } = {},
): TestCacher {
  const clock = extra.clock ?? new FakeClock(testEpoch);
  const registry = extra.metrics ?? new MetricsRegistry();
  const cacher = new Cacher({
    storage,
    groupResource: { group: '', resource: 'pods' },
    resourcePrefix: '/pods/',
    clock,
    rand: new SeededRandom(7),
    dispatchOrderRand: new SeededRandom(8),
    ...extra,
    gates: extra.gates ?? testGates(),
    metrics: registry,
  });
  cacher.start();
  const delegator = new CacheDelegator(cacher, storage);
  return { cacher, delegator, clock, registry, storage };
}

/** newTestCacher: also waits until the cache is ready (the reflector listed and replaced). */
export async function newTestCacher(
  storage: MockStorage = new MockStorage(),
  extra: Partial<CacherConfig> & { gates?: FeatureGates; clock?: FakeClock } = {},
): Promise<TestCacher> {
  const t = newTestCacherWithoutSyncing(storage, extra);
  await t.cacher.waitReady();
  // Let the dispatcher see the list RV (it polls every 10ms).
  await t.clock.stepAsync(20);
  return t;
}

/** example.Pod as upstream's tests make it: namespace ns, a resourceVersion, optional labels. */
export function makeTestPod(
  name: string,
  resourceVersion: number | string,
  labels?: Record<string, string>,
  namespace = 'ns',
): KubeObject {
  const metadata: KubeObject['metadata'] = {
    name,
    namespace,
    resourceVersion: String(resourceVersion),
  };
  if (labels && Object.keys(labels).length > 0) metadata.labels = labels;
  return { metadata };
}

/** The object of a received event, unwrapped from its CachingObject (GetObject: a copy). */
export function eventObject(e: WatchEvent): KubeObject {
  return e.object instanceof CachingObject ? e.object.getObject() : e.object;
}

/** Takes every event available now (after letting queued work run). */
export async function drain(w: WatchInterface): Promise<{ events: WatchEvent[]; closed: boolean }> {
  await settle();
  const events: WatchEvent[] = [];
  for (;;) {
    const r = w.resultChan().tryRecv();
    if (r === undefined) return { events, closed: false };
    if (!r.ok) return { events, closed: true };
    events.push(r.value as WatchEvent);
  }
}

/** Reads up to n events, stepping the clock by `stepMs` while none is available (at most maxSteps). */
export async function readEvents(
  clock: FakeClock,
  w: WatchInterface,
  n: number,
  stepMs = 10,
  maxSteps = 1000,
): Promise<{ events: WatchEvent[]; closed: boolean }> {
  const events: WatchEvent[] = [];
  for (let steps = 0; events.length < n && steps <= maxSteps;) {
    await settle();
    const r = w.resultChan().tryRecv();
    if (r === undefined) {
      await clock.stepAsync(stepMs);
      steps++;
      continue;
    }
    if (!r.ok) return { events, closed: true };
    events.push(r.value as WatchEvent);
  }
  return { events, closed: false };
}

/** A compact rendering for assertions: `TYPE name@rv`. */
export function describeEvent(e: WatchEvent): string {
  const o = eventObject(e);
  const ann =
    o.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true'
      ? ' (initial-events-end)'
      : '';
  return `${e.type} ${o.metadata?.name ?? ''}@${o.metadata?.resourceVersion ?? ''}${ann}`;
}
