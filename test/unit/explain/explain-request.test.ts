// Tests for src/explain/explain-request.ts: a table of requests × cluster states with what the
// explainer must answer (the expectations follow delegator/interface.go ShouldDelegateList,
// cacher.go and delegator.go of release-1.36), a cross-check against the delegation events of a
// separately built engine, and the etcd3 store's paging loop for a filtered etcd-bound LIST.
import * as assert from 'assert';
import { createResource } from '../../../src/engine/apiserver';
import { FakeClock } from '../../../src/engine/clock';
import { RecordingSink } from '../../../src/engine/inspect/events';
import { SeededRandom } from '../../../src/engine/rand';
import { makePod } from '../../../src/engine/storage/objects';
import type { ClusterState } from '../../../src/explain/cluster-state';
import { explainRequest, type RequestExplanation } from '../../../src/explain/explain-request';

const pods = '/api/v1/namespaces/default/pods';

interface Case {
  name: string;
  url: string;
  objects?: number;
  state?: Partial<ClusterState>;
  profile?: '1.36' | '1.37';
  want: Partial<
    Pick<
      RequestExplanation,
      | 'kind'
      | 'servedBy'
      | 'ruleId'
      | 'limitHonoured'
      | 'consistentRead'
      | 'mayWait'
      | 'errorCode'
      | 'message'
    >
  >;
}

const cases: Case[] = [
  {
    name: 'consistent paged list: the cache, once caught up',
    url: `${pods}?limit=500`,
    objects: 10,
    want: {
      kind: 'list',
      servedBy: 'cache',
      ruleId: 'consistent-read',
      limitHonoured: true,
      consistentRead: true,
      mayWait: true,
    },
  },
  {
    name: 'consistent list without RequestWatchProgress: etcd',
    url: `${pods}?limit=500`,
    objects: 10,
    state: { consistentReadsSupported: false },
    want: {
      servedBy: 'etcd',
      ruleId: 'consistent-read-unsupported',
      limitHonoured: true,
      consistentRead: true,
      mayWait: false,
    },
  },
  {
    name: 'RV=0 with a limit: the cache ignores the limit',
    url: `${pods}?resourceVersion=0&limit=5`,
    objects: 10,
    want: {
      servedBy: 'cache',
      ruleId: 'served-from-cache',
      limitHonoured: false,
      consistentRead: false,
      mayWait: false,
    },
  },
  {
    name: 'no limit, no RV: limitHonoured is null',
    url: pods,
    objects: 3,
    want: { servedBy: 'cache', ruleId: 'consistent-read', limitHonoured: null },
  },
  {
    name: 'legacy exact RV=N with a limit, snapshot at or below N',
    url: `${pods}?resourceVersion=12&limit=2`,
    objects: 10,
    state: { etcdRV: 14 },
    want: { servedBy: 'cache-snapshot', ruleId: 'snapshot-available', limitHonoured: true },
  },
  {
    name: 'Exact RV below the oldest snapshot: etcd',
    url: `${pods}?resourceVersion=12&resourceVersionMatch=Exact`,
    objects: 10,
    state: { etcdRV: 20, oldestSnapshotRV: 15 },
    want: { servedBy: 'etcd', ruleId: 'no-snapshot', consistentRead: false },
  },
  {
    name: 'Exact RV compacted in etcd: 410 from etcd',
    url: `${pods}?resourceVersion=12&resourceVersionMatch=Exact`,
    objects: 10,
    state: { etcdRV: 20, oldestSnapshotRV: 15, compactedRV: 14 },
    want: {
      servedBy: 'error',
      ruleId: 'no-snapshot',
      errorCode: 410,
      message: 'The resourceVersion for the provided list is too old.',
    },
  },
  {
    name: 'NotOlderThan a future RV the cache never reaches: 504',
    url: `${pods}?resourceVersion=30&resourceVersionMatch=NotOlderThan`,
    objects: 2,
    state: { etcdRV: 10 },
    want: {
      servedBy: 'error',
      ruleId: 'served-from-cache',
      errorCode: 504,
      message: 'Timeout: Too large resource version: 30, current: 10',
      mayWait: true,
    },
  },
  {
    name: 'filtered list on a cache that is not ready: 429',
    url: `${pods}?labelSelector=app%3Dx&limit=10`,
    objects: 3,
    state: { cacheReady: false },
    want: { servedBy: 'error', ruleId: 'not-ready', errorCode: 429 },
  },
  {
    name: 'paged unfiltered list on a cache that is not ready: etcd',
    url: `${pods}?limit=10`,
    objects: 3,
    state: { cacheReady: false },
    want: { servedBy: 'etcd', ruleId: 'not-ready-paginated-unfiltered', limitHonoured: true },
  },
  {
    name: 'consistent list, cache behind and not catching up: 1.36 falls back to etcd',
    url: `${pods}?limit=10`,
    objects: 3,
    state: { cacheRV: 4, etcdRV: 6, cacheCatchesUp: false },
    want: { servedBy: 'etcd', ruleId: 'consistent-read', consistentRead: true, mayWait: true },
  },
  {
    name: 'resourceVersionMatch without resourceVersion: 422 from listOpts',
    url: `${pods}?resourceVersionMatch=NotOlderThan`,
    want: {
      servedBy: 'error',
      errorCode: 422,
      message:
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    },
  },
  {
    name: 'a bad limit: 400 from decoding',
    url: `${pods}?limit=abc`,
    want: {
      servedBy: 'error',
      errorCode: 400,
      message: 'strconv.ParseInt: parsing "abc": invalid syntax',
    },
  },
  {
    name: 'watch from an RV older than the history: 410',
    url: `${pods}?watch=true&resourceVersion=5&allowWatchBookmarks=true`,
    objects: 10,
    want: {
      kind: 'watch',
      servedBy: 'error',
      errorCode: 410,
      message: 'too old resource version: 5 (11)',
    },
  },
  {
    name: 'watch from an RV in the history: the cache',
    url: `${pods}?watch=true&resourceVersion=12`,
    objects: 10,
    state: { etcdRV: 14 },
    want: { kind: 'watch', servedBy: 'cache', consistentRead: false, mayWait: false },
  },
  {
    name: 'watch-list (sendInitialEvents, RV ""): consistent start from the cache',
    url: `${pods}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    objects: 3,
    want: { kind: 'watch', servedBy: 'cache', consistentRead: true, mayWait: true },
  },
  {
    name: 'watch-list without RequestWatchProgress: the cacher refuses it',
    url: `${pods}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    objects: 3,
    state: { consistentReadsSupported: false },
    want: {
      servedBy: 'error',
      errorCode: 500,
      message:
        'a watch stream was requested by the client but the required storage feature RequestWatchProgress is disabled',
    },
  },
  {
    // watch_cache.go waitAndListExactRV: waitUntilFreshAndBlock, then snapshots.GetLessOrEqual.
    name: 'Exact RV ahead of the cache: waits for it, then reads a snapshot',
    url: `${pods}?resourceVersion=13&resourceVersionMatch=Exact`,
    objects: 10,
    state: { cacheRV: 11, etcdRV: 13 },
    want: { servedBy: 'cache-snapshot', ruleId: 'future-rv', mayWait: true },
  },
  {
    name: 'legacy exact RV=N with a limit, N ahead of the cache: waits, then a snapshot',
    url: `${pods}?resourceVersion=13&limit=5`,
    objects: 10,
    state: { cacheRV: 11, etcdRV: 13 },
    want: { servedBy: 'cache-snapshot', ruleId: 'future-rv', limitHonoured: true, mayWait: true },
  },
  {
    // store.go ListPredicate: MatchesSingle and a key from NamespaceKeyFunc, so Recursive: false;
    // ShouldDelegateExactRV delegates every non-recursive exact read.
    name: 'single-object LIST (metadata.name) at an exact RV: not recursive, etcd',
    url: `${pods}?fieldSelector=metadata.name%3Dweb-0&limit=1&resourceVersion=9500`,
    want: { servedBy: 'etcd', ruleId: 'not-recursive', limitHonoured: true },
  },
  {
    name: 'single-object LIST of a cluster-scoped resource: NoNamespaceKeyFunc, not recursive',
    url: '/api/v1/namespaces?fieldSelector=metadata.name%3Dkube-system&resourceVersion=9&resourceVersionMatch=Exact',
    objects: 3,
    state: { etcdRV: 9 },
    want: { servedBy: 'etcd', ruleId: 'not-recursive' },
  },
  {
    // NamespaceKeyFunc fails without a namespace: the optimisation is skipped (recursive).
    name: 'metadata.name across all namespaces: recursive, a snapshot',
    url: '/api/v1/pods?fieldSelector=metadata.name%3Dweb-0&limit=1&resourceVersion=12',
    objects: 10,
    state: { etcdRV: 14 },
    want: { servedBy: 'cache-snapshot', ruleId: 'snapshot-available' },
  },
  {
    name: 'single-object LIST at RV=0: the cache',
    url: `${pods}?fieldSelector=metadata.name%3Dweb-0&resourceVersion=0`,
    objects: 3,
    want: { servedBy: 'cache', ruleId: 'served-from-cache' },
  },
  {
    // DefaultWatchCacheSizes: events 0, so UndecoratedStorage: the etcd3 store answers, limit and all.
    name: 'events have no watch cache: RV=0 with a limit is an etcd LIST that honours the limit',
    url: '/api/v1/namespaces/default/events?limit=500&resourceVersion=0',
    objects: 600,
    want: { kind: 'list', servedBy: 'etcd', limitHonoured: true, mayWait: false },
  },
  {
    name: 'events.k8s.io events have no watch cache either',
    url: '/apis/events.k8s.io/v1/namespaces/default/events?limit=500&resourceVersion=0',
    objects: 3,
    want: { kind: 'list', servedBy: 'etcd', limitHonoured: true },
  },
  {
    name: "a WATCH of events is the etcd3 store's watch",
    url: '/api/v1/namespaces/default/events?watch=1&resourceVersion=3',
    objects: 3,
    want: { kind: 'watch', servedBy: 'etcd', mayWait: false },
  },
  {
    name: 'a custom resource, RV=0',
    url: '/apis/example.com/v1/namespaces/ns/widgets?resourceVersion=0',
    objects: 2,
    want: { kind: 'list', servedBy: 'cache', ruleId: 'served-from-cache' },
  },
];

describe('explainRequest: requests × cluster states', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const got = await explainRequest(c.url, {
        objects: c.objects,
        state: c.state,
        profile: c.profile,
      });
      const picked = Object.fromEntries(
        Object.keys(c.want).map((k) => [k, got[k as keyof RequestExplanation]]),
      );
      assert.deepStrictEqual(picked, c.want, `${c.name}: ${JSON.stringify(got)}`);
    });
  }

  it('prints the full state it assumed, defaults filled in', async () => {
    const got = await explainRequest(`${pods}?limit=1`, { objects: 4, possibleErrors: false });
    assert.deepStrictEqual(got.assumed, {
      cacheReady: true,
      consistentReadsSupported: true,
      cacheRV: 5,
      etcdRV: 5,
      cacheCatchesUp: true,
      oldestSnapshotRV: 5,
      oldestWatchRV: 5,
      compactedRV: 0,
      rangeStreamSupported: false,
    });
  });

  it('finds the errors a request can meet, each in the state that causes it', async () => {
    const got = await explainRequest(`${pods}?resourceVersion=8&limit=2&labelSelector=a%3Db`, {
      objects: 5,
      state: { etcdRV: 9 },
    });
    const byCode = new Map(got.possibleErrors.map((p) => [p.code, p]));
    assert.strictEqual(byCode.get(429)?.message, 'storage is (re)initializing');
    assert.deepStrictEqual(byCode.get(429)?.state, { cacheReady: false });
    assert.strictEqual(
      byCode.get(410)?.message,
      'The resourceVersion for the provided list is too old.',
    );
    assert.strictEqual(
      byCode.get(504)?.message,
      'Timeout: Too large resource version: 8, current: 7',
    );
  });

  it('rejects a state the engine cannot be put in', async () => {
    await assert.rejects(
      explainRequest(pods, { state: { cacheRV: 10, etcdRV: 5 } }),
      /cacheRV=10 is ahead of etcdRV=5/,
    );
    await assert.rejects(
      explainRequest(pods, { objects: 10, state: { etcdRV: 5 } }),
      /etcdRV=5 is below 11/,
    );
    await assert.rejects(
      explainRequest('/api/v1/namespaces/default/pods/p1'),
      /not a LIST or WATCH/,
    );
  });
});

describe('explainRequest agrees with the engine’s own delegation events', () => {
  // The same requests sent to a resource built here, with its own clock and inspector.
  const requests: { url: string; req: Parameters<ReturnType<typeof createResource>['list']>[0] }[] =
    [
      { url: `${pods}?limit=500`, req: { namespace: 'default', limit: 500 } },
      { url: `${pods}?resourceVersion=0`, req: { namespace: 'default', resourceVersion: '0' } },
      {
        url: `${pods}?resourceVersion=4&limit=2`,
        req: { namespace: 'default', resourceVersion: '4', limit: 2 },
      },
      {
        url: `${pods}?resourceVersion=2&resourceVersionMatch=Exact`,
        req: { namespace: 'default', resourceVersion: '2', resourceVersionMatch: 'Exact' },
      },
      {
        url: `${pods}?resourceVersion=4&resourceVersionMatch=NotOlderThan&labelSelector=app%3Dx`,
        req: {
          namespace: 'default',
          resourceVersion: '4',
          resourceVersionMatch: 'NotOlderThan',
          labelSelector: 'app=x',
        },
      },
    ];
  for (const consistentReadsSupported of [true, false]) {
    it(`requestWatchProgressSupported=${consistentReadsSupported}`, async () => {
      const clock = new FakeClock(0);
      const eventSink = new RecordingSink();
      const r = createResource({
        clock,
        rand: new SeededRandom(1),
        eventSink: eventSink,
        cache: { requestWatchProgressSupported: consistentReadsSupported },
      });
      for (let i = 0; i < 4; i++)
        r.etcd.put(
          r.store.prepareKey(r.objectKey('default', `p${i}`), false),
          JSON.stringify(makePod({ name: `p${i}`, namespace: 'default' })),
        );
      r.start();
      await r.waitReady();
      await r.step(10);
      for (const { url, req } of requests) {
        eventSink.clear();
        const ctx = r.listContext(req);
        await r.list(req, ctx).catch(() => undefined);
        const decision = eventSink
          .ofType('delegator/decision')
          .find((e) => e.requestId === ctx.requestId);
        assert.ok(decision, url);
        const explained = await explainRequest(url, {
          objects: 4,
          state: { consistentReadsSupported },
          possibleErrors: false,
        });
        assert.strictEqual(explained.ruleId, decision.rule, url);
        assert.strictEqual(explained.consistentRead, decision.consistentRead, url);
        assert.strictEqual(explained.servedBy === 'etcd' ? 'etcd' : 'cache', decision.target, url);
      }
      r.stop();
    });
  }
});

describe('explainRequest: a filtered LIST served by etcd pages as the etcd3 store does', () => {
  it('10000 objects, 1% matching, limit 500: the limit doubles up to maxLimit, 10000 fetched, 100 returned', async () => {
    const got = await explainRequest(`${pods}?limit=500&labelSelector=app%3Dx`, {
      objects: 10000,
      matchRatio: 0.01,
      state: { consistentReadsSupported: false },
      possibleErrors: false,
    });
    assert.strictEqual(got.servedBy, 'etcd');
    assert.strictEqual(got.matchingObjects, 100);
    assert.deepStrictEqual(
      got.etcdCalls.map((c) => [c.limit, c.returnedKeys, c.more]),
      [
        [500, 500, true],
        [1000, 1000, true],
        [2000, 2000, true],
        [4000, 4000, true],
        [8000, 2500, false],
      ],
    );
    assert.strictEqual(got.etcdCalls[0].key, '/registry/pods/default/');
    assert.strictEqual(got.etcdCalls[0].rangeEnd, '/registry/pods/default0');
    assert.strictEqual(got.etcdCalls[0].revision, 0, 'the first page reads the latest revision');
    assert.ok(
      got.etcdCalls.slice(1).every((c) => c.revision === 10001),
      'later pages pin it',
    );
    assert.strictEqual(got.fetched, 10000);
    assert.strictEqual(got.returned, 100);
    assert.strictEqual(got.continue, undefined, 'fewer than 500 matched: the list is complete');
  });
});
