// Tests for src/engine/cacher/delegator.ts: ports of k8s.io/apiserver pkg/storage/cacher
// cacher_whitebox_test.go (release-1.36; the Skip row from master) for CacheDelegator.GetList, Get
// and Watch: consistent-read fallback, exact-RV fallback, cache bypass rules, the not-ready 429;
// shouldDelegateListOnNotReadyCache.
import * as assert from 'assert';
import { FakeClock, settle } from '../../../src/engine/clock';
import { newListOptions, type ListOptions } from '../../../src/engine/storage/list-options';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import * as labels from '../../../src/engine/storage/labels';
import { encodeContinue } from '../../../src/engine/storage/continue';
import { isTooManyRequests, StatusError } from '../../../src/engine/storage/errors';
import { RecordingSink } from '../../../src/engine/inspect/events';
import { WatchRequestContext } from '../../../src/engine/clients/watch-client';
import type { OrderedLister } from '../../../src/engine/cacher/watch-cache-store';
import { shouldDelegateListOnNotReadyCache } from '../../../src/engine/cacher/delegator';
import {
  MockStorage,
  drain,
  makeTestPod,
  newTestCacher,
  newTestCacherWithoutSyncing,
  testGates,
} from './cacher-testing';

const errDummy = new Error('dummy error');

/** Runs `p` to completion, stepping the clock by 100ms whenever it is still pending; returns the virtual time spent. */
async function runBlocking<T>(
  clock: FakeClock,
  p: Promise<T>,
  maxMs = 60_000,
): Promise<{ value?: T; error?: unknown; elapsed: number }> {
  const start = clock.now();
  let done = false;
  let value: T | undefined;
  let error: unknown;
  p.then(
    (v) => {
      done = true;
      value = v;
    },
    (e) => {
      done = true;
      error = e;
    },
  );
  await settle();
  while (!done && clock.now() - start < maxMs) {
    await clock.stepAsync(100);
    await settle();
  }
  return { value, error, elapsed: clock.now() - start };
}

function consistentReadSamples(samples: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(samples))
    if (k.startsWith('apiserver_watch_cache_consistent_read_total')) out[k] = v;
  return out;
}

describe('CacheDelegator (delegator.go)', () => {
  it('TestConsistentReadFallback (1.36 rows + the master Skip row)', async () => {
    const cases: Array<{
      name: string;
      consistentReadsEnabled: boolean;
      watchCacheRV: string;
      storageRV: string;
      fallbackError?: boolean;
      skipGate?: boolean;
      expectError: boolean;
      expectRV: string;
      expectBlock: boolean;
      expectRequestsToStorage: number;
      expectMetric: Record<string, number>;
      expect429?: boolean;
    }> = [
      {
        name: 'Success',
        consistentReadsEnabled: true,
        watchCacheRV: '42',
        storageRV: '42',
        expectError: false,
        expectRV: '42',
        expectBlock: false,
        expectRequestsToStorage: 1,
        expectMetric: {
          'apiserver_watch_cache_consistent_read_total{fallback="false",group="",resource="pods",success="true"}': 1,
        },
      },
      {
        name: 'Fallback',
        consistentReadsEnabled: true,
        watchCacheRV: '2',
        storageRV: '42',
        expectError: false,
        expectRV: '42',
        expectBlock: true,
        expectRequestsToStorage: 2,
        expectMetric: {
          'apiserver_watch_cache_consistent_read_total{fallback="true",group="",resource="pods",success="true"}': 1,
        },
      },
      {
        name: 'Fallback Failure',
        consistentReadsEnabled: true,
        watchCacheRV: '2',
        storageRV: '42',
        fallbackError: true,
        expectError: true,
        expectRV: '',
        expectBlock: true,
        expectRequestsToStorage: 2,
        expectMetric: {
          'apiserver_watch_cache_consistent_read_total{fallback="true",group="",resource="pods",success="false"}': 1,
        },
      },
      {
        name: 'Disabled',
        consistentReadsEnabled: false,
        watchCacheRV: '2',
        storageRV: '42',
        expectError: false,
        expectRV: '42',
        expectBlock: false,
        expectRequestsToStorage: 1,
        expectMetric: {},
      },
      {
        name: 'Skip Storage Fallback (master, ConsistentListFromCacheSkipTimeoutFallback)',
        consistentReadsEnabled: true,
        skipGate: true,
        watchCacheRV: '2',
        storageRV: '42',
        expectError: true,
        expect429: true,
        expectRV: '',
        expectBlock: true,
        expectRequestsToStorage: 1,
        expectMetric: {
          'apiserver_watch_cache_consistent_read_total{fallback="skipped",group="",resource="pods",success="false"}': 1,
        },
      },
    ];
    for (const tc of cases) {
      const storage = new MockStorage();
      storage.getListFn = () => ({ items: [], resourceVersion: tc.watchCacheRV });
      const gates = testGates({
        ConsistentListFromCache: tc.consistentReadsEnabled,
        ConsistentListFromCacheSkipTimeoutFallback: tc.skipGate ?? false,
      });
      const { cacher, delegator, clock, registry } = await newTestCacher(storage, { gates });
      assert.strictEqual(
        String(cacher.watchCache.resourceVersion),
        tc.watchCacheRV,
        `${tc.name}: watch cache RV`,
      );
      let requestToStorageCount = 0;
      storage.getListFn = () => {
        requestToStorageCount++;
        if (tc.fallbackError) throw errDummy;
        return { items: [], resourceVersion: tc.storageRV };
      };
      storage.getRVFn = () => {
        requestToStorageCount++;
        return Number(tc.storageRV);
      };
      const r = await runBlocking(
        clock,
        delegator.getList('/pods/ns', newListOptions({ resourceVersion: '', recursive: true })),
      );
      assert.strictEqual(
        r.error !== undefined,
        tc.expectError,
        `${tc.name}: error ${String(r.error)}`,
      );
      if (tc.expect429) {
        assert.ok(isTooManyRequests(r.error), `${tc.name}: 429`);
        const s = (r.error as StatusError).status;
        assert.strictEqual(
          s.message,
          'Timeout: Too large resource version: 42, current: 2',
          tc.name,
        );
        assert.strictEqual(s.details?.retryAfterSeconds, 1, tc.name);
      }
      assert.strictEqual(r.value?.resourceVersion ?? '', tc.expectRV, `${tc.name}: RV`);
      assert.strictEqual(
        requestToStorageCount,
        tc.expectRequestsToStorage,
        `${tc.name}: requests to storage`,
      );
      assert.strictEqual(r.elapsed >= 3000, tc.expectBlock, `${tc.name}: blocked (${r.elapsed}ms)`);
      assert.deepStrictEqual(
        consistentReadSamples(registry.samples()),
        tc.expectMetric,
        `${tc.name}: metric`,
      );
      cacher.stop();
    }
  });

  it('TestMatchExactResourceVersionFallback: snapshot decision, snapshot read, 410 fallback to etcd', async () => {
    const cases: Array<{
      name: string;
      snapshotsAvailable: boolean[];
      expectStoreRequests: number;
      expectSnapshotRequests: number;
    }> = [
      {
        name: 'Disabled',
        snapshotsAvailable: [false, false],
        expectStoreRequests: 2,
        expectSnapshotRequests: 1,
      },
      {
        name: 'Enabled',
        snapshotsAvailable: [true, true],
        expectStoreRequests: 1,
        expectSnapshotRequests: 2,
      },
      {
        name: 'Fallback',
        snapshotsAvailable: [true, false],
        expectStoreRequests: 2,
        expectSnapshotRequests: 2,
      },
    ];
    for (const tc of cases) {
      const storage = new MockStorage();
      let storeRequests = 0;
      storage.getListFn = (_key, opts: ListOptions) => {
        storeRequests++;
        return {
          items: [],
          resourceVersion: opts.resourceVersionMatch === 'Exact' ? opts.resourceVersion : '42',
        };
      };
      const { cacher, delegator } = await newTestCacher(storage, {
        gates: testGates({ ListFromCacheSnapshot: true }),
      });
      let snapshotRequests = 0;
      const fakeLister: OrderedLister<never> = {
        listPrefix: () => [],
        count: () => 0,
        clone: () => fakeLister,
      };
      (cacher.watchCache as unknown as { snapshots: unknown }).snapshots = {
        getLessOrEqual: () => (tc.snapshotsAvailable[snapshotRequests++] ? fakeLister : undefined),
        add: () => undefined,
        removeLess: () => undefined,
        reset: () => undefined,
      };
      const list = await delegator.getList(
        '/pods/ns',
        newListOptions({ resourceVersion: '20', resourceVersionMatch: 'Exact', recursive: true }),
      );
      assert.strictEqual(list.resourceVersion, '20', tc.name);
      assert.strictEqual(storeRequests, tc.expectStoreRequests, `${tc.name}: requests to storage`);
      assert.strictEqual(
        snapshotRequests,
        tc.expectSnapshotRequests,
        `${tc.name}: requests to snapshots`,
      );
      cacher.stop();
    }
  });

  it('TestGetListNonRecursiveCacheBypass: RV "0" with a limit is served by the cache, RV "" bypasses it (consistent reads off)', async () => {
    const storage = new MockStorage();
    const { cacher, delegator } = await newTestCacher(storage, {
      gates: testGates({ ConsistentListFromCache: false }),
    });
    const pred = new SelectionPredicate({ limit: 500 });
    storage.injectGetListError(errDummy);
    await delegator.getList('/pods/ns', newListOptions({ resourceVersion: '0', predicate: pred }));
    await assert.rejects(
      delegator.getList('/pods/ns', newListOptions({ resourceVersion: '', predicate: pred })),
      (e: unknown) => e === errDummy,
    );
    cacher.stop();
  });

  it('TestGetListNonRecursiveCacheWithConsistentListFromCache: a consistent paged list is served by the cache', async () => {
    const storage = new MockStorage();
    let getListCount = 0;
    let getCurrentRVCount = 0;
    storage.getListFn = () => {
      getListCount++;
      return { items: [], resourceVersion: '100' };
    };
    storage.getRVFn = () => {
      getCurrentRVCount++;
      return 100;
    };
    const { cacher, delegator } = await newTestCacher(storage, {
      gates: testGates({ ConsistentListFromCache: true, ListFromCacheSnapshot: false }),
    });
    cacher.watchCache.add(makeTestPod('foo', 100));
    const result = await delegator.getList(
      '/pods/ns',
      newListOptions({
        resourceVersion: '',
        recursive: true,
        predicate: new SelectionPredicate({ limit: 500 }),
      }),
    );
    assert.strictEqual(getListCount, 1, 'only the reflector listed');
    assert.ok(getCurrentRVCount > 0, 'GetCurrentResourceVersion was called');
    assert.strictEqual(result.resourceVersion, '100');
    assert.deepStrictEqual(
      result.items.map((i) => i.metadata.name),
      ['foo'],
    );
    cacher.stop();
  });

  it('TestGetCacheBypass: Get with RV "0" from the cache, without RV from storage', async () => {
    const storage = new MockStorage();
    const { cacher, delegator } = await newTestCacher(storage);
    storage.injectGetListError(errDummy);
    assert.strictEqual(
      await delegator.get('/pods/ns/pod-0', { ignoreNotFound: true, resourceVersion: '0' }),
      undefined,
    );
    await assert.rejects(
      delegator.get('/pods/ns/pod-0', { ignoreNotFound: true, resourceVersion: '' }),
      (e: unknown) => e === errDummy,
    );
    await assert.rejects(
      delegator.get('/pods/ns/pod-0', { resourceVersion: '0' }),
      (e: unknown) => e instanceof StatusError && e.status.code === 404,
    );
    cacher.stop();
  });

  it('TestWatchCacheBypass: watches with RV "0" and "" are served by the cache', async () => {
    const { cacher, delegator } = await newTestCacher();
    for (const rv of ['0', '']) {
      const w = await delegator.watch(
        '/pods/ns',
        newListOptions({ resourceVersion: rv, recursive: true }),
      );
      w.stop();
    }
    cacher.stop();
  });

  it('Watch drops sendInitialEvents while the WatchList gate is off', async () => {
    const { cacher, delegator } = await newTestCacher(new MockStorage(), {
      gates: testGates({ WatchList: false }),
    });
    cacher.watchCache.add(makeTestPod('a', 101));
    const w = await delegator.watch(
      '/pods/ns',
      newListOptions({
        resourceVersion: '101',
        recursive: true,
        sendInitialEvents: true,
        predicate: new SelectionPredicate({ allowWatchBookmarks: true }),
      }),
    );
    const { events } = await drain(w);
    assert.deepStrictEqual(
      events.map((e) => e.type),
      [],
      'a plain watch from 101: no initial events, no end bookmark',
    );
    cacher.stop();
  });

  it('TestRetryAfterForUnreadyCache: 429 with Retry-After from the downtime', async () => {
    const { cacher, delegator, clock } = await newTestCacher();
    cacher.ready.setError(undefined);
    await clock.stepAsync(14_000);
    const err = await delegator
      .getList('/pods/ns', newListOptions({ resourceVersion: '0', recursive: true }))
      .then(
        () => undefined,
        (e) => e,
      );
    assert.ok(isTooManyRequests(err), String(err));
    const s = (err as StatusError).status;
    assert.strictEqual(s.details?.retryAfterSeconds, 2);
    assert.strictEqual(s.message, 'storage is (re)initializing');
    cacher.stop();
  });

  it('a not-ready cache: paginated unfiltered lists go to etcd, everything else gets 429', async () => {
    const storage = new MockStorage();
    const { cacher, delegator } = await newTestCacher(storage);
    cacher.ready.setError(new Error('boom'));
    let storageLists = 0;
    storage.getListFn = () => {
      storageLists++;
      return { items: [], resourceVersion: '7' };
    };
    const cases: Array<{ name: string; opts: ListOptions; want: 'etcd' | 429 }> = [
      {
        name: 'paginated, unfiltered',
        opts: newListOptions({
          resourceVersion: '0',
          recursive: true,
          predicate: new SelectionPredicate({ limit: 10 }),
        }),
        want: 'etcd',
      },
      {
        name: 'unpaginated',
        opts: newListOptions({ resourceVersion: '0', recursive: true }),
        want: 429,
      },
      {
        name: 'paginated, filtered',
        opts: newListOptions({
          resourceVersion: '0',
          recursive: true,
          predicate: new SelectionPredicate({ limit: 10, label: labels.parse('a=b') }),
        }),
        want: 429,
      },
    ];
    for (const c of cases) {
      const before = storageLists;
      const r = await delegator.getList('/pods/ns', c.opts).then(
        (v) => v,
        (e) => e,
      );
      if (c.want === 'etcd') {
        assert.strictEqual(storageLists, before + 1, c.name);
        assert.strictEqual(r.resourceVersion, '7', c.name);
      } else {
        assert.ok(isTooManyRequests(r), `${c.name}: ${String(r)}`);
        assert.strictEqual(
          (r as StatusError).status.message,
          'storage is (re)initializing: boom',
          c.name,
        );
      }
    }
    // Gets go to storage while not ready.
    storage.getFn = () => makeTestPod('x', 3);
    assert.strictEqual(
      (await delegator.get('/pods/ns/x', { resourceVersion: '5' }))?.metadata.name,
      'x',
    );
    cacher.stop();
  });

  it('TestTooManyRequestsNotReturned: without ResilientWatchCacheInitialization, no 429', async () => {
    const storage = new MockStorage({ getListErr: new Error('dummy') });
    const { cacher, delegator, clock } = newTestCacherWithoutSyncing(storage, {
      gates: testGates({ ResilientWatchCacheInitialization: false }),
    });
    const err = await delegator.getList('/pods/ns', newListOptions({ resourceVersion: '0' })).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(!isTooManyRequests(err), 'list: not a 429');
    const ctx = new WatchRequestContext(clock, 250);
    const watch = runBlocking(
      clock,
      delegator.watch('/pods/ns', newListOptions({ resourceVersion: '0' }), { ctx }),
    );
    const r = await watch;
    assert.ok(
      r.error !== undefined && !isTooManyRequests(r.error),
      `watch: not a 429 (${String(r.error)})`,
    );
    assert.ok(
      r.error instanceof StatusError &&
        r.error.status.code === 503 &&
        r.error.status.message === 'context canceled',
      `watch: 503 after its context ended (${String(r.error)})`,
    );
    cacher.stop();
  });

  it('validates list options first (400), before any decision', async () => {
    const { cacher, delegator } = await newTestCacher();
    const token = encodeContinue('/pods/ns/a\u0000', '/pods/ns/', 5);
    await assert.rejects(
      delegator.getList(
        '/pods/ns',
        newListOptions({
          resourceVersion: '7',
          recursive: true,
          predicate: new SelectionPredicate({ continue: token }),
        }),
      ),
      (e: unknown) =>
        e instanceof StatusError &&
        e.status.code === 400 &&
        e.status.message === 'specifying resource version is not allowed when using continue',
    );
    await assert.rejects(
      delegator.getList(
        '/pods/ns',
        newListOptions({
          recursive: true,
          predicate: new SelectionPredicate({ continue: 'not-a-token!' }),
        }),
      ),
      (e: unknown) =>
        e instanceof StatusError &&
        e.status.code === 400 &&
        /^invalid continue token: /.test(e.status.message ?? ''),
    );
    cacher.stop();
  });

  it('reports each decision with the rule that made it', async () => {
    const insp = new RecordingSink();
    const storage = new MockStorage();
    const { cacher, delegator, clock } = await newTestCacher(storage, { eventSink: insp });
    cacher.watchCache.add(makeTestPod('a', 101));
    await settle();
    const lim = (n: number) => new SelectionPredicate({ limit: n });
    const cases: Array<{
      name: string;
      opts: ListOptions;
      path: string;
      rule: string;
      target: string;
    }> = [
      {
        name: 'consistent',
        opts: newListOptions({ recursive: true }),
        path: 'consistent',
        rule: 'consistent-read',
        target: 'cache',
      },
      {
        name: 'RV 0',
        opts: newListOptions({ resourceVersion: '0', recursive: true }),
        path: 'any',
        rule: 'served-from-cache',
        target: 'cache',
      },
      {
        name: 'NotOlderThan',
        opts: newListOptions({
          resourceVersion: '50',
          resourceVersionMatch: 'NotOlderThan',
          recursive: true,
        }),
        path: 'not-older-than',
        rule: 'served-from-cache',
        target: 'cache',
      },
      {
        name: 'exact with snapshot',
        opts: newListOptions({
          resourceVersion: '101',
          resourceVersionMatch: 'Exact',
          recursive: true,
        }),
        path: 'exact',
        rule: 'snapshot-available',
        target: 'cache',
      },
      {
        name: 'exact before the list',
        opts: newListOptions({
          resourceVersion: '50',
          resourceVersionMatch: 'Exact',
          recursive: true,
        }),
        path: 'exact',
        rule: 'no-snapshot',
        target: 'etcd',
      },
      {
        name: 'legacy exact in the future',
        opts: newListOptions({ resourceVersion: '500', recursive: true, predicate: lim(5) }),
        path: 'legacy-exact',
        rule: 'future-rv',
        target: 'cache',
      },
      {
        name: 'exact, not recursive',
        opts: newListOptions({
          resourceVersion: '101',
          resourceVersionMatch: 'Exact',
          recursive: false,
        }),
        path: 'exact',
        rule: 'not-recursive',
        target: 'etcd',
      },
      {
        name: 'unknown match',
        opts: newListOptions({
          resourceVersion: '101',
          resourceVersionMatch: 'Invalid',
          recursive: true,
        }),
        path: 'unknown-match',
        rule: 'invalid-options',
        target: 'rejected',
      },
    ];
    for (const c of cases) {
      insp.clear();
      await runBlocking(clock, delegator.getList('/pods/ns', c.opts));
      const d = insp.ofType('delegator/decision');
      assert.strictEqual(d.length, 1, c.name);
      assert.deepStrictEqual(
        [d[0].path, d[0].rule, d[0].target],
        [c.path, c.rule, c.target],
        c.name,
      );
    }
    cacher.stop();
  });
});

describe('shouldDelegateListOnNotReadyCache (delegator.go)', () => {
  it('sends only paginated, unfiltered lists to etcd while the cache initialises', () => {
    const empty = { empty: () => true };
    const nonEmpty = { empty: () => false };
    const cases: Array<{
      name: string;
      predicate: { limit?: number; label?: { empty(): boolean }; field?: { empty(): boolean } };
      want: boolean;
    }> = [
      { name: 'limit, no selectors', predicate: { limit: 500 }, want: true },
      {
        name: 'limit, empty selectors',
        predicate: { limit: 500, label: empty, field: empty },
        want: true,
      },
      { name: 'no limit', predicate: {}, want: false },
      {
        name: 'limit with a label selector',
        predicate: { limit: 500, label: nonEmpty },
        want: false,
      },
      {
        name: 'limit with a field selector',
        predicate: { limit: 500, field: nonEmpty },
        want: false,
      },
    ];
    for (const c of cases)
      assert.strictEqual(
        shouldDelegateListOnNotReadyCache({ predicate: c.predicate }),
        c.want,
        c.name,
      );
  });
});
