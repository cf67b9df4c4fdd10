// Runs the shared watch cases against the etcd3 store, as k8s.io/apiserver
// pkg/storage/etcd3/watcher_test.go does (release-1.36; master runs the same list, the watch-list
// ones once per EtcdRangeStream setting, which the 1.37 profile here covers). testSetup and
// storeWithPrefixTransformer are upstream's; the transformer sits between the store and the
// in-memory etcd as a KV wrapper, since the engine's store has no value transformer.
import * as assert from 'assert';
import type {
  KV,
  KeyValue,
  RangeRequest,
  RangeResponse,
  RequestOp,
  ResponseOp,
  TxnRequest,
  TxnResponse,
  Watch,
  WatchRequest,
  WatchResponse,
} from '../../../src/engine/etcd/kv';
import { RequestRecorder } from '../../../src/engine/etcd/request-recorder';
import { EtcdStore } from '../../../src/engine/etcd3/store';
import type { StorageWatch, StorageWatchEvent } from '../../../src/engine/etcd3/watcher';
import { profile136, profile137Preview, type SemanticsProfile } from '../../../src/engine/features';
import { SeededRandom } from '../../../src/engine/rand';
import type { Status } from '../../../src/engine/storage/errors';
import type { ListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import {
  PrefixTransformer,
  computePodKey,
  pod,
  foreverTestTimeout,
  receive,
  type Compaction,
  type TestEvent,
  type Received,
  type TestWatch,
  type Transformer,
  type WatchCall,
  type WatchTestStorageWithPrefixTransformer,
  newPod,
} from './watch-testing';
import * as run from './watch-tests';
import type { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import type { EtcdUnderTest, TestEtcd } from '../../harness/etcd-under-test';

/** defaultTestPrefix of etcd3's testSetup transformer. */
const defaultTestPrefix = 'test!';

/**
 * The store's value.Transformer, applied to every value going to and coming from etcd. A value
 * that fails TransformFromStorage is handed on as bytes the codec cannot decode, so the store
 * reports a decode error where upstream reports the transform error: both are an InternalError
 * (in a watch, an ERROR event), which is all the cases look at.
 */
class TransformingKV implements KV {
  constructor(
    private readonly inner: KV,
    public transformer: Transformer,
  ) {}

  private fromStorage(data: string): string {
    if (data === '') return data;
    try {
      return this.transformer.transformFromStorage(data);
    } catch (e) {
      return `\u0000untransformable: ${(e as Error).message}`;
    }
  }

  private kv(kv: KeyValue): KeyValue;
  private kv(kv: KeyValue | undefined): KeyValue | undefined;
  private kv(kv: KeyValue | undefined): KeyValue | undefined {
    return kv === undefined ? undefined : { ...kv, value: this.fromStorage(kv.value) };
  }

  private rangeResponse(r: RangeResponse): RangeResponse {
    return { ...r, kvs: r.kvs.map((kv) => this.kv(kv)) };
  }

  private requestOp(op: RequestOp): RequestOp {
    if ('requestPut' in op) {
      const put = op.requestPut;
      return { requestPut: { ...put, value: this.transformer.transformToStorage(put.value) } };
    }
    if ('requestTxn' in op) return { requestTxn: this.txnRequest(op.requestTxn) };
    return op;
  }

  private txnRequest(req: TxnRequest): TxnRequest {
    return {
      ...req,
      success: req.success?.map((op) => this.requestOp(op)),
      failure: req.failure?.map((op) => this.requestOp(op)),
    };
  }

  private responseOp(op: ResponseOp): ResponseOp {
    if ('responseRange' in op) return { responseRange: this.rangeResponse(op.responseRange) };
    if ('responseTxn' in op) return { responseTxn: this.txnResponse(op.responseTxn) };
    return op;
  }

  private txnResponse(r: TxnResponse): TxnResponse {
    return { ...r, responses: r.responses.map((op) => this.responseOp(op)) };
  }

  private watchResponse(r: WatchResponse): WatchResponse {
    return {
      ...r,
      events: r.events.map((e) => ({ ...e, kv: this.kv(e.kv), prevKv: this.kv(e.prevKv) })),
    };
  }

  async range(req: RangeRequest): Promise<RangeResponse> {
    return this.rangeResponse(await this.inner.range(req));
  }

  async *rangeStream(req: RangeRequest): AsyncIterable<RangeResponse> {
    for await (const chunk of this.inner.rangeStream(req)) yield this.rangeResponse(chunk);
  }

  async txn(req: TxnRequest): Promise<TxnResponse> {
    return this.txnResponse(await this.inner.txn(this.txnRequest(req)));
  }

  deleteRange: KV['deleteRange'] = (req) => this.inner.deleteRange(req);
  compaction: KV['compaction'] = (req) => this.inner.compaction(req);

  watch(req: WatchRequest): Watch {
    const w = this.inner.watch(req);
    const map = (r: WatchResponse) => this.watchResponse(r);
    return {
      get id() {
        return w.id;
      },
      get canceled() {
        return w.canceled;
      },
      onResponse: (cb) => w.onResponse((r) => cb(map(r))),
      requestProgress: () => w.requestProgress(),
      cancel: () => w.cancel(),
      [Symbol.asyncIterator]: () => {
        const it = w[Symbol.asyncIterator]();
        return {
          next: async () => {
            const n = await it.next();
            return n.done ? n : { done: false, value: map(n.value) };
          },
        };
      },
    };
  }
}

/** A StorageWatch read as watch.Interface: its events are pumped into a buffer as they come. */
class StorageWatchReader implements TestWatch {
  private readonly buffered: StorageWatchEvent[] = [];
  private closed = false;

  constructor(private readonly w: StorageWatch) {
    void (async () => {
      for await (const e of w) this.buffered.push(e);
      this.closed = true;
    })();
  }

  tryRecv(): Received | undefined {
    const e = this.buffered.shift();
    if (e !== undefined) return { event: { type: e.type, object: e.object } };
    return this.closed ? { closed: true } : undefined;
  }

  stop(): void {
    this.w.stop();
  }
}

interface Etcd3Setup extends WatchTestStorageWithPrefixTransformer {
  etcd: TestEtcd;
  memory: MemoryEtcd | undefined;
  settle(): Promise<void>;
  store: EtcdStore;
  recorder: RequestRecorder;
}

/**
 * testSetup: a fresh etcd (3.7, with RangeStream, under the 1.37 profile), a pods store with the
 * prefix transformer and the profile's gates. `wrapKV` stands in for replacing store.client.KV.
 */
async function testSetup(
  etcdUnderTest: EtcdUnderTest,
  profile: SemanticsProfile,
  wrapKV: (kv: KV) => KV = (kv) => kv,
): Promise<Etcd3Setup> {
  // The etcd suite's 3.4 has no RangeStream: the 1.37 profile's store falls back to paging there.
  const { clock, etcd, memory, settle } = await etcdUnderTest.open({
    rangeStream:
      profile.gates.EtcdRangeStream && etcdUnderTest.kind === 'memory'
        ? 'supported'
        : 'unimplemented',
  });
  const recorder = new RequestRecorder();
  etcd.addRequestListener(recorder.record);
  const kv = new TransformingKV(etcd, new PrefixTransformer(defaultTestPrefix));
  const store = new EtcdStore({
    etcd: wrapKV(kv),
    clock,
    groupResource: { group: '', resource: 'pods' },
    features: {
      EtcdRangeStream: profile.gates.EtcdRangeStream,
      WatchList: profile.gates.WatchList,
    },
    random: new SeededRandom(7),
    newFunc: newPod,
  });
  return {
    clock,
    etcd,
    memory,
    settle,
    store,
    recorder,
    create: (key, obj) => store.create(key, obj),
    guaranteedUpdate: (key, tryUpdate) =>
      store.guaranteedUpdate(key, tryUpdate, { ignoreNotFound: true }),
    delete: (key) => store.delete(key),
    getList: (key, opts: ListOptions) => store.getList(key, opts),
    getCurrentResourceVersion: () => store.getCurrentResourceVersion(),
    watch: async (key, opts: ListOptions, call: WatchCall = {}) =>
      new StorageWatchReader(
        await store.watch(
          key,
          {
            resourceVersion: opts.resourceVersion,
            recursive: opts.recursive,
            predicate: opts.predicate,
            progressNotify: opts.progressNotify,
            sendInitialEvents: opts.sendInitialEvents,
          },
          {
            requestId: 0,
            client: 'watch-test',
            requestLine: `GET ${key}?watch=true`,
            signal: call.signal,
          },
        ),
      ),
    // A copy of the transformer goes to the modifier; the revert puts the original back.
    updatePrefixTransformer: (modifier) => {
      const original = kv.transformer as PrefixTransformer;
      kv.transformer = modifier(new PrefixTransformer(original.prefix));
      return () => {
        kv.transformer = original;
      };
    },
  };
}

/** compactStorage: etcd3.Compact (the compact_rev_key write, then the compaction). */
function compactStorage(s: Etcd3Setup): Compaction {
  return async (resourceVersion) => {
    await s.etcd.put('compact_rev_key', resourceVersion);
    await s.etcd.compact(Number(resourceVersion));
  };
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function watchEtcd3Cases(etcd: EtcdUnderTest): void {
  for (const profile of [profile136, profile137Preview]) {
    describe(`storagetesting watch: etcd3 (${profile.name})`, () => {
      const cases: [string, (s: Etcd3Setup) => Promise<void>][] = [
        ['TestWatch', run.runTestWatch],
        ['TestClusterScopedWatch', run.runTestClusterScopedWatch],
        ['TestNamespaceScopedWatch', run.runTestNamespaceScopedWatch],
        ['TestDeleteTriggerWatch', run.runTestDeleteTriggerWatch],
        ['TestWatchFromZero', (s) => run.runTestWatchFromZero(s, compactStorage(s))],
        ['TestWatchFromNoneZero', run.runTestWatchFromNonZero],
        ['TestDelayedWatchDelivery', run.runTestDelayedWatchDelivery],
        ['TestWatchError', run.runTestWatchError],
        ['TestWatchContextCancel', run.runTestWatchContextCancel],
        ['TestWatcherTimeout', run.runTestWatcherTimeout],
        ['TestWatchDeleteEventObjectHaveLatestRV', run.runTestWatchDeleteEventObjectHaveLatestRV],
        ['TestWatchInitializationSignal', run.runTestWatchInitializationSignal],
        [
          'TestSendInitialEventsBackwardCompatibility',
          run.runSendInitialEventsBackwardCompatibility,
        ],
        ['TestEtcdWatchSemantics', run.runWatchSemantics],
        // TestEtcdWatchSemanticsWithConcurrentDecode is not repeated: the engine decodes a watch's
        // events in order on one queue, so ConcurrentWatchObjectDecode has nothing to switch.
        ['TestEtcdWatchSemanticInitialEventsExtended', run.runWatchSemanticInitialEventsExtended],
        ['TestWatchListMatchSingle', run.runWatchListMatchSingle],
        ['TestWatchErrorEventIsBlockingFurtherEvent', run.runWatchErrorIsBlockingFurtherEvents],
      ];
      for (const [name, fn] of cases) {
        it(name, async () => {
          await fn(await testSetup(etcd, profile));
        });
      }
    });
  }

  // ---------------------------------------------------------------- master: TestWatchChanSyncStream*

  /**
   * The initial sync of a legacy (RV 0) watch on /pods/: the ADDED events it queued before the etcd
   * watch started, by key. Stands in for drainSync (createWatchChan, sync, drain
   * incomingEventChan), which reaches watchChan's internals; here the sync's events arrive through
   * the watch itself, and the recorder shows which sync ran.
   */
  async function drainSync(
    s: Etcd3Setup,
    store = s.store,
  ): Promise<Map<string, StorageWatchEvent>> {
    const w = await store.watch('/pods/', { resourceVersion: '0' });
    const out = new Map<string, StorageWatchEvent>();
    w.onEvent((e) => {
      const o = e.object as KubeObject;
      out.set(computePodKey(o), e);
    });
    await s.settle();
    w.stop();
    return out;
  }

  /** The first received event of a watch (an ERROR when the sync failed). */
  async function firstEvent(s: Etcd3Setup, key: string): Promise<TestEvent> {
    const reader = new StorageWatchReader(await s.store.watch(key, { resourceVersion: '0' }));
    const r = await receive(s.clock, reader, foreverTestTimeout);
    reader.stop();
    if (r === undefined || 'closed' in r) assert.fail('the watch sends an event');
    return r.event;
  }

  function streamCalls(s: Etcd3Setup): number {
    return s.recorder.requests.filter((r) => r.op === 'rangeStream').length;
  }

  /** initStoreData: first/bar and second/bar; their keys. */
  async function initStoreData(s: Etcd3Setup): Promise<string[]> {
    const created: string[] = [];
    for (const p of [pod('first', 'bar'), pod('second', 'bar')]) {
      await s.create(computePodKey(p), p);
      created.push(computePodKey(p));
    }
    return created;
  }

  /** etcdClientKVWrapper's streamRev: when set, RangeStream reads at that revision. */
  class StreamPinningKV implements KV {
    streamRev = 0;
    constructor(private readonly kv: KV) {}
    range: KV['range'] = (req) => this.kv.range(req);
    rangeStream: KV['rangeStream'] = (req) =>
      this.kv.rangeStream(this.streamRev !== 0 ? { ...req, revision: this.streamRev } : req);
    txn: KV['txn'] = (req) => this.kv.txn(req);
    deleteRange: KV['deleteRange'] = (req) => this.kv.deleteRange(req);
    compaction: KV['compaction'] = (req) => this.kv.compaction(req);
    watch: KV['watch'] = (req) => this.kv.watch(req);
  }

  describe(`storagetesting watch: etcd3 TestWatchChanSyncStream* (master, ${profile137Preview.name})`, () => {
    const profile = profile137Preview;

    // Memory only: it needs RangeStream (etcd 3.7); the etcd suite's 3.4 answers Unimplemented.
    if (etcd.kind === 'memory')
      it('TestWatchChanSyncStreamMatchesPaginated: syncStreamRecursive queues what syncPaginated does', async () => {
        const s = await testSetup(etcd, profile);
        const want = new Set<string>();
        for (let i = 0; i < 20; i++) {
          const p = pod(`ns-${i % 3}`, `pod-${i}`);
          await s.create(computePodKey(p), p);
          want.add(computePodKey(p));
        }
        const stream = await drainSync(s);
        assert.strictEqual(streamCalls(s), 1, 'the stream sync ran');
        // syncPaginated on the same etcd state: a store with the gate off shares the etcd.
        const paginatedStore = new EtcdStore({
          etcd: s.store.etcd,
          clock: s.clock,
          groupResource: { group: '', resource: 'pods' },
          features: { EtcdRangeStream: false, WatchList: true },
          newFunc: newPod,
        });
        const paginated = await drainSync(s, paginatedStore);
        assert.strictEqual(streamCalls(s), 1, 'the paginated sync made no RangeStream');
        assert.strictEqual(
          stream.size,
          want.size,
          `syncStreamRecursive queued ${stream.size} events, expected ${want.size}`,
        );
        assert.deepStrictEqual(
          [...stream.entries()].sort(),
          [...paginated.entries()].sort(),
          'syncStreamRecursive and syncPaginated queued different events',
        );
      });

    it('TestWatchChanSyncStreamFallsBackToPaginated: Unimplemented marks RangeStream unsupported', async () => {
      const s = await testSetup(etcd, profile);
      const initList = await initStoreData(s);
      // kvWrapper.streamKV = unimplementedRangeStreamKV(): an etcd before 3.7.
      // The etcd suite's 3.4 is one.
      s.memory?.setRangeStream('unimplemented');
      s.recorder.clear();
      const events = await drainSync(s);
      assert.strictEqual(streamCalls(s), 1, 'expected GetStream to be called once');
      const watchStart = s.recorder.requests.find((r) => r.op === 'watch')?.revision ?? 0;
      assert.ok(
        watchStart - 1 > 0,
        `expected initialRev to be set by the paginated fallback, got ${watchStart - 1}`,
      );
      assert.strictEqual(
        s.store.featureSupportChecker.supports('RangeStream'),
        false,
        'expected RangeStream to be marked unsupported after the Unimplemented fallback',
      );
      assert.deepStrictEqual([...events.keys()].sort(), initList.sort(), 'incorrect list pods');
    });

    // Memory only: it needs RangeStream (etcd 3.7); the etcd suite's 3.4 answers Unimplemented.
    if (etcd.kind === 'memory')
      it('TestWatchChanSyncStreamCompactionError: a compacted stream revision is ResourceExpired, counted as a listStream error', async () => {
        let kv: StreamPinningKV | undefined;
        const s = await testSetup(etcd, profile, (inner) => (kv = new StreamPinningKV(inner)));
        // Upstream's raw puts, under the store's path prefix: compacting at r2 removes r1.
        const r1 = await s.etcd.put('/registry/pods/a', 'v1');
        const r2 = await s.etcd.put('/registry/pods/b', 'v2');
        await s.etcd.compact(r2);
        (kv as StreamPinningKV).streamRev = r1;
        const e = await firstEvent(s, '/pods/');
        assert.strictEqual(e.type, 'ERROR');
        const status = e.object as Status;
        assert.strictEqual(
          status.reason,
          'Expired',
          `expected ResourceExpired from a compacted revision, got ${JSON.stringify(status)}`,
        );
        assert.strictEqual(status.code, 410);
        assert.strictEqual(
          s.store.metrics.samples()[
            'etcd_request_errors_total{group="",operation="listStream",resource="pods"}'
          ],
          1,
        );
      });

    describe('TestWatchChanSyncStreamMetrics', () => {
      /** etcd_requests_total and etcd_request_errors_total series that changed since `before`. */
      const requestCountsSince = (store: EtcdStore, before: Record<string, number>) =>
        Object.entries(store.metrics.samples()).filter(
          ([k, v]) =>
            (k.startsWith('etcd_requests_total{') || k.startsWith('etcd_request_errors_total{')) &&
            v !== (before[k] ?? 0),
        );

      // Memory only: it needs RangeStream (etcd 3.7); the etcd suite's 3.4 answers Unimplemented.
      if (etcd.kind === 'memory')
        it('success records a listStream request', async () => {
          const s = await testSetup(etcd, profile);
          await s.create('/pods/ns/pod-1', pod('ns', 'pod-1'));
          // legacyregistry.Reset(): only what the sync records counts.
          const before = s.store.metrics.samples();
          await drainSync(s);
          assert.deepStrictEqual(requestCountsSince(s.store, before), [
            ['etcd_requests_total{group="",operation="listStream",resource="pods"}', 1],
          ]);
        });

      it('unimplemented is not recorded', async () => {
        const s = await testSetup(etcd, profile);
        // kv.streamKV = unimplementedRangeStreamKV().
        // The etcd suite's 3.4 is one.
        s.memory?.setRangeStream('unimplemented');
        const before = s.store.metrics.samples();
        await drainSync(s);
        assert.strictEqual(streamCalls(s), 1, 'the stream was tried');
        // Upstream calls syncStreamRecursive alone; the watch here goes on to the paginated sync,
        // whose `list` is counted: only listStream must not be.
        assert.deepStrictEqual(
          requestCountsSince(s.store, before).filter(([k]) => k.includes('operation="listStream"')),
          [],
        );
      });
    });
  });
}
