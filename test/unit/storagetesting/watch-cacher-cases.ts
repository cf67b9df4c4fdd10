// Runs the shared watch cases against the cacher through its delegator, as k8s.io/apiserver
// pkg/storage/cacher/cacher_test.go does (release-1.36; master nests the same calls under one
// TestWatch), with testSetup, testSetupWithEtcdAndCreateWrapper and compactWatch of
// cacher_test.go / cacher_testing_utils_test.go; plus TestWatchListSemanticsSimple
// (cacher_whitebox_test.go) and TestCacheWatcherStoppedOnDestroy (cache_watcher_test.go).
// Writes go to the etcd3 store, as CacheDelegator's Create/GuaranteedUpdate/Delete pass them on.
import * as assert from 'assert';
import { settle, type FakeClock } from '../../../src/engine/clock';
import { EtcdStore, type GetOptions } from '../../../src/engine/etcd3/store';
import type { StorageWatch, WatchOptions } from '../../../src/engine/etcd3/watcher';
import { Cacher, type IndexedTrigger } from '../../../src/engine/cacher/cacher';
import { namespaceKeyFunc } from '../../../src/engine/storage/keys';
import type { WatchEvent, WatchInterface } from '../../../src/engine/cacher/watch';
import { CachingObject } from '../../../src/engine/cacher/caching-object';
import { CacheDelegator, type DelegatorStorage } from '../../../src/engine/cacher/delegator';
import type { Indexers } from '../../../src/engine/cacher/watch-cache-store';
import { profile136, profile137Preview, type SemanticsProfile } from '../../../src/engine/features';
import { SeededRandom } from '../../../src/engine/rand';
import type { ListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject, Pod } from '../../../src/engine/storage/objects';
import {
  foreverTestTimeout,
  type Compaction,
  type Received,
  type TestWatch,
  type WatchCall,
  type WatchTestStorage,
  newPod,
} from './watch-testing';
import * as run from './watch-tests';
import type { EtcdUnderTest, TestEtcd } from '../../harness/etcd-under-test';

/** The virtual epoch of these tests' clocks. */
const testEpoch = 1_000_000;

/** A cacher watch.Interface: its result channel, CachingObjects unwrapped (GetObject). */
export class CacheWatchReader implements TestWatch {
  constructor(private readonly w: WatchInterface) {}

  tryRecv(): Received | undefined {
    const r = this.w.resultChan().tryRecv();
    if (r === undefined) return undefined;
    if (!r.ok) return { closed: true };
    const e = r.value as WatchEvent;
    const o = e.object;
    return {
      event: {
        type: e.type,
        object: o instanceof CachingObject ? o.getObject() : (o as KubeObject),
      },
    };
  }

  stop(): void {
    this.w.stop();
  }
}

/** StorageInjectingListErrors: the first `errors` GetList calls fail with "injected error". */
class StorageInjectingListErrors implements DelegatorStorage {
  constructor(
    private readonly storage: EtcdStore,
    public errors: number,
  ) {}

  async getList(key: string, opts: ListOptions) {
    if (this.errors > 0) {
      this.errors--;
      throw new Error('injected error');
    }
    return this.storage.getList(key, opts);
  }

  getCurrentResourceVersion(): Promise<bigint> {
    return this.storage.getCurrentResourceVersion();
  }

  watch(key: string, opts: WatchOptions): Promise<StorageWatch> {
    return this.storage.watch(key, opts);
  }

  get(key: string, opts?: GetOptions): Promise<KubeObject | undefined> {
    return this.storage.get(key, opts);
  }

  requestWatchProgress(): void {
    this.storage.requestWatchProgress();
  }
}

/** Steps the clock (10ms at a time) until `done` holds, for at most ForeverTestTimeout. */
async function stepUntil(clock: FakeClock, done: () => boolean, what: string): Promise<void> {
  const deadline = clock.now() + foreverTestTimeout;
  for (;;) {
    await settle();
    if (done()) return;
    if (clock.now() >= deadline) assert.fail(`timed out waiting for ${what}`);
    await clock.stepAsync(10);
  }
}

/** Awaits a promise that resolves in virtual time. */
async function inVirtualTime<T>(clock: FakeClock, p: Promise<T>, what: string): Promise<T> {
  let settled = false;
  const done = p.finally(() => {
    settled = true;
  });
  await stepUntil(clock, () => settled, what);
  return done;
}

interface SetupOptions {
  keyFunc?: (obj: KubeObject) => string;
  indexedTrigger?: IndexedTrigger;
  indexers?: Indexers<KubeObject>;
}

const resourcePrefix = '/pods/';

/** withClusterScopedKeyFunc: storage.NoNamespaceKeyFunc. */
const withClusterScopedKeyFunc: SetupOptions = {
  keyFunc: (obj) => resourcePrefix + obj.metadata.name,
};

/** withNodeNameAndNamespaceIndex: the spec.nodeName trigger and the f:spec.nodeName, f:metadata.namespace indexes. */
const withNodeNameAndNamespaceIndex: SetupOptions = {
  indexedTrigger: {
    indexName: 'spec.nodeName',
    indexerFunc: (obj) => (obj as Pod).spec?.nodeName ?? '',
  },
  indexers: {
    'f:spec.nodeName': (obj) => [(obj as Pod).spec?.nodeName ?? ''],
    'f:metadata.namespace': (obj) => [obj.metadata.namespace ?? ''],
  },
};

interface CacherSetup extends WatchTestStorage {
  etcd: TestEtcd;
  store: EtcdStore;
  cacher: Cacher;
  delegator: CacheDelegator;
}

/**
 * testSetupWithEtcdServer: etcd, the etcd3 store, one injected list error (the relist path), the
 * cacher, waited for until the error is consumed and the cache is ready, then the delegator.
 */
async function testSetup(
  etcdUnderTest: EtcdUnderTest,
  profile: SemanticsProfile,
  ...opts: SetupOptions[]
): Promise<CacherSetup> {
  const o: SetupOptions = Object.assign({}, ...opts);
  // The etcd suite's 3.4 has no RangeStream: the 1.37 profile's store falls back to paging there.
  const { clock, etcd } = await etcdUnderTest.open({
    clockStartMs: testEpoch,
    rangeStream:
      profile.gates.EtcdRangeStream && etcdUnderTest.kind === 'memory'
        ? 'supported'
        : 'unimplemented',
  });
  const store = new EtcdStore({
    etcd,
    clock,
    groupResource: { group: '', resource: 'pods' },
    features: {
      EtcdRangeStream: profile.gates.EtcdRangeStream,
      WatchList: profile.gates.WatchList,
    },
    random: new SeededRandom(7),
    newFunc: newPod,
  });
  // Inject one list error to make sure we test the relist case.
  const wrappedStorage = new StorageInjectingListErrors(store, 1);
  const cacher = new Cacher({
    storage: wrappedStorage,
    dispatchOrderRand: new SeededRandom(8),
    groupResource: { group: '', resource: 'pods' },
    resourcePrefix,
    keyFunc: o.keyFunc ?? namespaceKeyFunc(resourcePrefix),
    indexedTrigger: o.indexedTrigger,
    indexers: o.indexers,
    newFunc: newPod,
    clock,
    rand: new SeededRandom(7),
    gates: profile.gates,
    compactRevision: () => etcd.compactRevision(),
  });
  cacher.start();
  // Some tests depend on GetList not failing: wait until the injected error is consumed.
  await stepUntil(clock, () => wrappedStorage.errors === 0, 'the injected list error');
  // 429s are possible while the cache initialises (ResilientWatchCacheInitialization): wait.
  await inVirtualTime(clock, cacher.waitReady(), 'the cacher to be ready');
  const delegator = new CacheDelegator(cacher, wrappedStorage);
  return {
    clock,
    etcd,
    store,
    cacher,
    delegator,
    create: (key, obj) => store.create(key, obj),
    guaranteedUpdate: (key, tryUpdate) =>
      store.guaranteedUpdate(key, tryUpdate, { ignoreNotFound: true }),
    delete: (key) => store.delete(key),
    getList: (key, opts: ListOptions, call: WatchCall = {}) =>
      inVirtualTime(
        clock,
        delegator.getList(key, opts, { requestNamespace: call.requestNamespace }),
        `GetList ${key}`,
      ),
    getCurrentResourceVersion: () => store.getCurrentResourceVersion(),
    watch: async (key, opts: ListOptions, call: WatchCall = {}) =>
      new CacheWatchReader(
        await inVirtualTime(
          clock,
          delegator.watch(key, opts, {
            requestNamespace: call.requestNamespace,
            requestName: call.requestName,
          }),
          `Watch ${key}`,
        ),
      ),
  };
}

/**
 * testSetupWithEtcdAndCreateWrapper: Create returns once the cache serves the created object
 * (Get with RV 0 every 100ms, for at most ForeverTestTimeout).
 */
async function testSetupWithCreateWrapper(
  etcd: EtcdUnderTest,
  profile: SemanticsProfile,
): Promise<CacherSetup> {
  const s = await testSetup(etcd, profile);
  return {
    ...s,
    create: async (key, obj) => {
      const out = await s.store.create(key, obj);
      const deadline = s.clock.now() + foreverTestTimeout;
      for (;;) {
        const current = await inVirtualTime(
          s.clock,
          s.delegator.get(key, { resourceVersion: '0', ignoreNotFound: true }),
          `Get ${key}`,
        );
        if (current !== undefined && isDeepEqual(current, out)) return out;
        if (s.clock.now() >= deadline) assert.fail(`the cache did not get ${key} in time`);
        await s.clock.stepAsync(100);
      }
    },
  };
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

/**
 * compactWatch: waits until the watch cache has the RV, drops the events up to it from the watch
 * cache's history (the cache has no compaction of its own), makes the RV its list RV and
 * compacts etcd. Open watchers are not supported meanwhile.
 */
function compactWatch(s: CacherSetup): Compaction {
  return async (resourceVersion) => {
    const rv = Number(resourceVersion);
    const wc = s.cacher.watchCache;
    await inVirtualTime(s.clock, wc.waitUntilFreshAndBlock(rv), `the watch cache at RV ${rv}`);
    assert.ok(wc.resourceVersion >= rv, `Can't compact into a future version: ${resourceVersion}`);
    assert.strictEqual(
      s.cacher.watchers.allWatchers.size + s.cacher.watchers.valueWatchers.size,
      0,
      'Open watchers are not supported during compaction',
    );
    const h = wc.history;
    while (h.startIndex < h.endIndex) {
      const e = h.cache[h.startIndex % h.capacity];
      if (e !== undefined && e.resourceVersion > rv) break;
      h.startIndex++;
    }
    wc.listResourceVersion = rv;
    await s.etcd.compact(rv);
  };
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function watchCacherCases(etcd: EtcdUnderTest): void {
  for (const profile of [profile136, profile137Preview]) {
    describe(`storagetesting watch: cacher (${profile.name})`, () => {
      const cases: [string, () => Promise<CacherSetup>, (s: CacherSetup) => Promise<void>][] = [
        ['TestWatch', () => testSetup(etcd, profile), run.runTestWatch],
        [
          'TestWatchFromZero',
          () => testSetup(etcd, profile),
          (s) => run.runTestWatchFromZero(s, compactWatch(s)),
        ],
        ['TestDeleteTriggerWatch', () => testSetup(etcd, profile), run.runTestDeleteTriggerWatch],
        ['TestWatchFromNonZero', () => testSetup(etcd, profile), run.runTestWatchFromNonZero],
        [
          'TestDelayedWatchDelivery',
          () => testSetup(etcd, profile),
          run.runTestDelayedWatchDelivery,
        ],
        // TestWatchError and TestWatchContextCancel are empty upstream (TODO(#109831)).
        ['TestWatcherTimeout', () => testSetup(etcd, profile), run.runTestWatcherTimeout],
        [
          'TestWatchDeleteEventObjectHaveLatestRV',
          () => testSetup(etcd, profile),
          run.runTestWatchDeleteEventObjectHaveLatestRV,
        ],
        [
          'TestWatchInitializationSignal',
          () => testSetup(etcd, profile),
          run.runTestWatchInitializationSignal,
        ],
        [
          'TestClusterScopedWatch',
          () => testSetup(etcd, profile, withClusterScopedKeyFunc, withNodeNameAndNamespaceIndex),
          run.runTestClusterScopedWatch,
        ],
        [
          'TestNamespaceScopedWatch',
          () => testSetup(etcd, profile, withNodeNameAndNamespaceIndex),
          run.runTestNamespaceScopedWatch,
        ],
        [
          'TestSendInitialEventsBackwardCompatibility',
          () => testSetup(etcd, profile),
          run.runSendInitialEventsBackwardCompatibility,
        ],
        [
          'TestWatchSemantics',
          () => testSetupWithCreateWrapper(etcd, profile),
          run.runWatchSemantics,
        ],
        [
          'TestWatchSemanticInitialEventsExtended',
          () => testSetupWithCreateWrapper(etcd, profile),
          run.runWatchSemanticInitialEventsExtended,
        ],
        [
          'TestWatchListMatchSingle',
          () => testSetupWithCreateWrapper(etcd, profile),
          run.runWatchListMatchSingle,
        ],
      ];
      for (const [name, setup, fn] of cases) {
        it(name, async () => {
          const s = await setup();
          try {
            await fn(s);
          } finally {
            s.cacher.stop();
          }
        });
      }
    });
  }
}
