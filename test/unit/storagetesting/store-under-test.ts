// The storage.Interface a shared store case runs against, with its two implementations, as
// upstream runs pkg/storage/testing's RunTest… from etcd3/store_test.go (testSetup: the etcd3
// store, path prefix "", resource prefix /pods/) and from cacher/cacher_test.go
// (testSetupWithEtcdServer: etcd3 store under /registry behind StorageInjectingListErrors with one
// injected list error, a started Cacher that has consumed it and is ready, and NewCacheDelegator
// over both), over the etcd a suite is given (the model, or a real etcd in the etcd suite). No
// upstream counterpart as one file. Upstream's cases run in real time while the cacher catches
// up; here every call is driven through virtual time until it settles.
import * as assert from 'assert';
import { settle, type FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import type { KV } from '../../../src/engine/etcd/kv';
import { RequestRecorder } from '../../../src/engine/etcd/request-recorder';
import {
  EtcdStore,
  type GetOptions,
  type GuaranteedUpdateOptions,
  type ListResult,
  type UpdateFunc,
} from '../../../src/engine/etcd3/store';
import type { StorageWatch, WatchOptions } from '../../../src/engine/etcd3/watcher';
import { Cacher, type IndexedTrigger } from '../../../src/engine/cacher/cacher';
import { CacheDelegator, type DelegatorStorage } from '../../../src/engine/cacher/delegator';
import type { Indexers } from '../../../src/engine/cacher/watch-cache-store';
import { profile136, withGates, type FeatureGates } from '../../../src/engine/features';
import type { ListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject, Pod } from '../../../src/engine/storage/objects';
import {
  openMemoryEtcd,
  type EtcdUnderTest,
  type OpenedEtcd,
  type TestEtcd,
} from '../../harness/etcd-under-test';

/** What a shared case needs from the storage it tests. */
export interface StoreUnderTest {
  /** 'etcd3' or 'cacher': part of every case name. */
  readonly name: string;
  /** Reads may be served by the watch cache (RunTestConsistentList's cacheEnabled). */
  readonly cacheEnabled: boolean;
  readonly clock: FakeClock;
  readonly etcd: TestEtcd;
  /** Every etcd request, in order (KubernetesRecorder). */
  readonly recorder: RequestRecorder;
  create(key: string, obj: KubeObject): Promise<KubeObject>;
  get(key: string, opts?: GetOptions): Promise<KubeObject | undefined>;
  getList(key: string, opts: ListOptions): Promise<ListResult>;
  guaranteedUpdate(
    key: string,
    tryUpdate: UpdateFunc,
    opts?: GuaranteedUpdateOptions,
  ): Promise<KubeObject>;
  delete(key: string): Promise<KubeObject>;
  watch(key: string, opts: ListOptions): Promise<{ stop(): void }>;
  /** increaseRVFunc: a write outside the resource (key increaseRV) moves etcd's revision. */
  increaseRV(): Promise<number>;
  /** Compacts etcd at the RV (compactStorage / compactStore) and lets the store observe it. */
  compact(resourceVersion: string): Promise<void>;
  /** Resolves once the watch cache has seen the RV (waitUntilFreshAndBlock; at once for etcd3). */
  waitForCache(resourceVersion: string): Promise<void>;
  stop(): void;
}

/** Upstream waits up to wait.ForeverTestTimeout (30s) for anything in these tests. */
const foreverTestTimeoutMs = 30_000;
/** The cacher's dispatch loop polls every 10ms: a finer step shows nothing more. */
const driveStepMs = 10;

/** Runs virtual time until `p` settles (at most wait.ForeverTestTimeout), then returns its outcome. */
export async function drive<T>(clock: FakeClock, p: Promise<T>): Promise<T> {
  let settled = false;
  const done = p.then(
    (v) => {
      settled = true;
      return v;
    },
    (e: unknown) => {
      settled = true;
      throw e;
    },
  );
  // The outcome is taken below; until then a rejection is not unhandled.
  done.catch(() => undefined);
  await settle();
  const deadline = clock.now() + foreverTestTimeoutMs;
  while (!settled) {
    if (clock.now() >= deadline)
      assert.fail(`no answer within ${foreverTestTimeoutMs}ms of virtual time`);
    await clock.stepAsync(driveStepMs);
  }
  return done;
}

/** The etcd3 store in a setup, for what a case does beside storage.Interface. */
export interface Etcd3Setup extends StoreUnderTest {
  readonly store: EtcdStore;
}

export interface Etcd3SetupOptions {
  /** withPrefix: the etcd path prefix (default "", as upstream's testSetup). */
  pathPrefix?: string;
  /** Wraps the KV the store talks to (upstream swaps the store's transformer). */
  wrapKV?: (etcd: TestEtcd, store: () => EtcdStore) => KV;
}

/** etcd3/store_test.go testSetup: an etcd3 store for pods over a fresh etcd. */
export async function newEtcd3Store(
  etcdUnderTest: EtcdUnderTest,
  o: Etcd3SetupOptions = {},
): Promise<Etcd3Setup> {
  return etcd3StoreOver(await etcdUnderTest.open(), o);
}

/** newEtcd3Store over the model, built synchronously (for a case that needs no etcd call). */
export function newMemoryEtcd3Store(o: Etcd3SetupOptions = {}): Etcd3Setup {
  return etcd3StoreOver(openMemoryEtcd(), o);
}

function etcd3StoreOver({ clock, etcd }: OpenedEtcd, o: Etcd3SetupOptions): Etcd3Setup {
  const recorder = new RequestRecorder();
  etcd.addRequestListener(recorder.record);
  // The wrapper may need the store it serves (e.g. its prepareKey), made just below.
  const made: { store?: EtcdStore } = {};
  const kv = o.wrapKV ? o.wrapKV(etcd, () => made.store as EtcdStore) : etcd;
  const s = new EtcdStore({
    etcd: kv,
    clock,
    groupResource: { group: '', resource: 'pods' },
    pathPrefix: o.pathPrefix ?? '',
    resourcePrefix: '/pods/',
  });
  made.store = s;
  return {
    name: 'etcd3',
    cacheEnabled: false,
    clock,
    etcd,
    recorder,
    store: s,
    create: (key, obj) => drive(clock, s.create(key, obj)),
    get: (key, opts) => drive(clock, s.get(key, opts)),
    getList: (key, opts) => drive(clock, s.getList(key, opts)),
    guaranteedUpdate: (key, fn, opts) => drive(clock, s.guaranteedUpdate(key, fn, opts)),
    delete: (key) => drive(clock, s.delete(key)),
    watch: (key, opts) => drive(clock, s.watch(key, watchOptions(opts))),
    increaseRV: async () => etcd.put('increaseRV', 'ok'),
    compact: (rv) => compactStorage(etcd, rv),
    waitForCache: async () => undefined,
    stop: () => etcd.close(),
  };
}

function watchOptions(opts: ListOptions): WatchOptions {
  return {
    resourceVersion: opts.resourceVersion,
    recursive: opts.recursive,
    predicate: opts.predicate,
    progressNotify: opts.progressNotify,
    sendInitialEvents: opts.sendInitialEvents,
  };
}

/** etcd3.Compact: compact_rev_key is written (one revision), then etcd compacts at the RV. */
async function compactStorage(etcd: TestEtcd, rv: string): Promise<void> {
  await etcd.put('compact_rev_key', rv);
  await etcd.compaction({ revision: Number(rv) });
}

/** storagetesting.StorageInjectingListErrors: the first `errors` GetList calls fail. */
export class StorageInjectingListErrors implements DelegatorStorage {
  constructor(
    readonly store: EtcdStore,
    public errors: number,
  ) {}

  async getList(key: string, opts: ListOptions): Promise<ListResult> {
    if (this.errors > 0) {
      this.errors--;
      throw new Error('injected error');
    }
    return this.store.getList(key, opts);
  }

  getCurrentResourceVersion(): Promise<bigint> {
    return this.store.getCurrentResourceVersion();
  }

  watch(key: string, opts: WatchOptions): Promise<StorageWatch> {
    return this.store.watch(key, opts);
  }

  get(key: string, opts?: GetOptions): Promise<KubeObject | undefined> {
    return this.store.get(key, opts);
  }

  errorsConsumed(): boolean {
    return this.errors === 0;
  }
}

/** The cacher, its delegator and the storage under them, for what a case inspects directly. */
export interface CacherSetup extends StoreUnderTest {
  readonly cacher: Cacher;
  readonly delegator: CacheDelegator;
  readonly storage: StorageInjectingListErrors;
}

export interface CacherSetupOptions {
  /** Gate overrides on release-1.36 (locked ones too, as upstream's emulated-version tests do). */
  gates?: Partial<FeatureGates>;
  /** withNodeNameAndNamespaceIndex: the spec.nodeName trigger and the two field indexes. */
  nodeNameAndNamespaceIndex?: boolean;
}

/** pkg/registry/core/pod/strategy.go's indexers, as withNodeNameAndNamespaceIndex mirrors them. */
const nodeNameTrigger: IndexedTrigger = {
  indexName: 'spec.nodeName',
  indexerFunc: (obj) => (obj as Pod).spec?.nodeName ?? '',
};
const nodeNameAndNamespaceIndexers: Indexers<KubeObject> = {
  'f:spec.nodeName': (obj) => [(obj as Pod).spec?.nodeName ?? ''],
  'f:metadata.namespace': (obj) => [obj.metadata.namespace ?? ''],
};

/** cacher_test.go testSetupWithEtcdServer. */
export async function newCacherStore(
  etcdUnderTest: EtcdUnderTest,
  o: CacherSetupOptions = {},
): Promise<CacherSetup> {
  const { clock, etcd } = await etcdUnderTest.open();
  const recorder = new RequestRecorder();
  etcd.addRequestListener(recorder.record);
  const store = new EtcdStore({
    etcd,
    clock,
    groupResource: { group: '', resource: 'pods' },
    pathPrefix: '/registry',
    resourcePrefix: '/pods/',
  });
  // Inject one list error to make sure the relist path runs.
  const storage = new StorageInjectingListErrors(store, 1);
  const gates = withGates(profile136, o.gates ?? {}, { allowLockedOverride: true }).gates;
  const cacher = new Cacher({
    storage,
    groupResource: { group: '', resource: 'pods' },
    resourcePrefix: '/pods/',
    clock,
    rand: new SeededRandom(7),
    dispatchOrderRand: new SeededRandom(8),
    gates,
    compactRevision: () => etcd.compactRevision(),
    indexedTrigger: o.nodeNameAndNamespaceIndex ? nodeNameTrigger : undefined,
    indexers: o.nodeNameAndNamespaceIndex ? nodeNameAndNamespaceIndexers : undefined,
  });
  cacher.start();
  // Tests expect GetList not to fail: wait until the injected error is consumed and the cache is up.
  await drive(
    clock,
    untilTrue(clock, () => storage.errorsConsumed()),
  );
  await drive(clock, cacher.waitReady());
  const delegator = new CacheDelegator(cacher, storage);
  return {
    name: 'cacher',
    cacheEnabled: true,
    clock,
    etcd,
    recorder,
    cacher,
    delegator,
    storage,
    create: (key, obj) => drive(clock, store.create(key, obj)),
    get: (key, opts) => drive(clock, delegator.get(key, opts)),
    getList: (key, opts) => drive(clock, delegator.getList(key, opts)),
    guaranteedUpdate: (key, fn, opts) => drive(clock, store.guaranteedUpdate(key, fn, opts)),
    delete: (key) => drive(clock, store.delete(key)),
    watch: (key, opts) => drive(clock, delegator.watch(key, opts)),
    increaseRV: async () => etcd.put('increaseRV', 'ok'),
    compact: async (rv) => {
      await compactStorage(etcd, rv);
      cacher.compactIfNeeded();
    },
    waitForCache: (rv) =>
      drive(
        clock,
        untilTrue(clock, () => cacher.watchCache.resourceVersion >= Number(rv)),
      ),
    stop: () => {
      cacher.stop();
      etcd.close();
    },
  };
}

/** wait.PollInfinite in virtual time: resolves once `cond` holds (checked every 10ms). */
async function untilTrue(clock: FakeClock, cond: () => boolean): Promise<void> {
  while (!cond()) await clock.sleep(driveStepMs);
}

/** Both implementations, for a case upstream runs from etcd3/store_test.go and cacher_test.go. */
export function bothStores(etcd: EtcdUnderTest): readonly {
  name: string;
  setup: () => Promise<StoreUnderTest>;
}[] {
  return [
    { name: 'etcd3', setup: () => newEtcd3Store(etcd) },
    { name: 'cacher', setup: () => newCacherStore(etcd) },
  ];
}
