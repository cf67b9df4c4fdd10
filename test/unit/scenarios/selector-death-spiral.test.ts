// Tests for src/scenarios/selector-death-spiral.ts: the etcd calls, limits and counts of a filtered
// LIST, checked against the release-1.36 etcd3 GetList paging loop (store.go) computed here from its
// rules, and the RunTestListPaginationRareObject numbers (reference notes §3.3).
import * as assert from 'assert';
import { decodeContinue } from '../../../src/engine/storage/continue';
import { fixedPageCost } from '../../../src/scenarios/selector-death-spiral';
import { runScenario } from '../../../src/scenarios/runner';

const maxLimit = 10000;

interface Expected {
  limits: number[];
  kvs: number[];
  fetched: number;
  evaluated: number;
  returned: number;
  hasMore: boolean;
}

/**
 * GetList's loop over keys 1..n (key i matches iff i % m === 0), starting after `start` keys:
 * ask etcd for `limit`, take items until the client's limit is reached (the next key then only
 * sets hasMore), double the etcd limit up to maxLimit after every short page.
 */
function expectedList(n: number, m: number, clientLimit: number, start = 0): Expected {
  const e: Expected = {
    limits: [],
    kvs: [],
    fetched: 0,
    evaluated: 0,
    returned: 0,
    hasMore: false,
  };
  let limit = clientLimit;
  let pos = start;
  for (;;) {
    const kvs = Math.min(limit, n - pos);
    e.limits.push(limit);
    e.kvs.push(kvs);
    e.fetched += kvs;
    let hasMore = pos + kvs < n;
    let consumed = 0;
    for (let j = 1; j <= kvs; j++) {
      if (e.returned >= clientLimit) {
        hasMore = true;
        break;
      }
      consumed++;
      e.evaluated++;
      if ((pos + j) % m === 0) e.returned++;
    }
    pos += consumed;
    e.hasMore = hasMore;
    if (!hasMore || e.returned >= clientLimit) break;
    if (limit < maxLimit) limit = Math.min(limit * 2, maxLimit);
  }
  return e;
}

/** checkStorageCallsInvariants' estimate (store_test.go): n+1 calls, the sum starting at 1. */
function estimatedGetCalls(pageSize: number, estimatedProcessedObjects: number): number {
  let calls = 1;
  let currLimit = pageSize;
  for (let sum = 1; sum < estimatedProcessedObjects;) {
    currLimit = Math.min(currLimit * 2, maxLimit);
    sum += currLimit;
    calls++;
  }
  return calls;
}

describe('scenario selector-death-spiral', () => {
  it('the rule computed here gives the hand-checked numbers of the default story', () => {
    const e = expectedList(100000, 100, 100);
    assert.deepStrictEqual(e.limits, [100, 200, 400, 800, 1600, 3200, 6400]);
    assert.deepStrictEqual(
      [e.fetched, e.evaluated, e.returned, e.hasMore],
      [12700, 10000, 100, true],
    );
    assert.strictEqual(
      estimatedGetCalls(1, 1000),
      10,
      'RunTestListPaginationRareObject: 10 etcd calls',
    );
  });

  const cases: Array<{ name: string; objects: number; matchEvery: number; limit: number }> = [
    {
      name: 'every 100th, limit 100 (the default story on fewer pods)',
      objects: 20000,
      matchEvery: 100,
      limit: 100,
    },
    {
      name: 'RunTestListPaginationRareObject: 1000 pods, limit 1, only the last matches',
      objects: 1000,
      matchEvery: 1000,
      limit: 1,
    },
    {
      name: 'the doubling reaches maxLimit and stays there',
      objects: 60000,
      matchEvery: 2000,
      limit: 20,
    },
    {
      name: 'a client limit above maxLimit is sent unchanged',
      objects: 30000,
      matchEvery: 7,
      limit: 20000,
    },
    { name: 'the bucket fills in the first page', objects: 500, matchEvery: 1, limit: 50 },
    {
      name: 'fewer matches than the limit: the keys run out',
      objects: 3000,
      matchEvery: 500,
      limit: 10,
    },
    { name: 'nothing matches', objects: 700, matchEvery: 1000, limit: 5 },
  ];
  for (const c of cases) {
    it(`${c.name}: etcd calls, limits, fetched/evaluated/returned follow GetList`, async () => {
      const { model, summary } = await runScenario('selector-death-spiral', {
        objects: c.objects,
        matchEvery: c.matchEvery,
        limit: c.limit,
      });
      const want = expectedList(c.objects, c.matchEvery, c.limit);
      assert.strictEqual(model.lists.length, 1, c.name);
      const l = model.lists[0];
      const calls = l.etcdRequests.filter((q) => q.operation === 'list');
      assert.deepStrictEqual(
        calls.map((q) => q.limit),
        want.limits,
        `${c.name}: limits asked`,
      );
      assert.deepStrictEqual(
        calls.map((q) => q.kvs),
        want.kvs,
        `${c.name}: keys returned`,
      );
      assert.deepStrictEqual(
        [l.fetched, l.evaluated, l.returned],
        [want.fetched, want.evaluated, want.returned],
        `${c.name}: fetched/evaluated/returned`,
      );
      assert.strictEqual(
        l.continue !== '',
        want.hasMore,
        `${c.name}: continue token iff more keys remain`,
      );
      assert.strictEqual(
        l.remainingItemCount,
        undefined,
        `${c.name}: remainingItemCount is omitted with a selector`,
      );
      assert.strictEqual(l.servedBy, 'etcd', c.name);
      assert.strictEqual(summary.facts.etcdCalls, want.limits.length, c.name);
      assert.strictEqual(summary.facts.fetched, want.fetched, c.name);
      assert.strictEqual(
        model.metrics['apiserver_storage_list_fetched_objects_total{group="",resource="pods"}'],
        want.fetched,
        `${c.name}: metric`,
      );
      assert.strictEqual(
        model.metrics['apiserver_storage_list_evaluated_objects_total{group="",resource="pods"}'],
        want.evaluated,
        `${c.name}: metric`,
      );
      const naive = fixedPageCost(want.evaluated, c.limit, c.objects);
      assert.deepStrictEqual(
        [summary.facts.naiveEtcdCalls, summary.facts.naiveFetched],
        [naive.calls, naive.fetched],
        `${c.name}: fixed-page cost`,
      );
    });
  }

  it('the continue token starts after the last key examined, at the list revision', async () => {
    const { model } = await runScenario('selector-death-spiral', {
      objects: 20000,
      matchEvery: 100,
      limit: 100,
    });
    const l = model.lists[0];
    const d = decodeContinue(l.continue, '/registry/pods/default/');
    assert.deepStrictEqual(
      [d.fromKey, String(d.resourceVersion)],
      ['/registry/pods/default/pod-009999\u0000', l.resourceVersion],
    );
  });

  it('pages=3 follows continue tokens: each page runs the loop again from where the last stopped', async () => {
    const objects = 35000;
    const { model, summary } = await runScenario('selector-death-spiral', {
      objects,
      matchEvery: 100,
      limit: 100,
      pages: 3,
    });
    assert.strictEqual(model.lists.length, 3);
    let start = 0;
    for (const [i, l] of model.lists.entries()) {
      const want = expectedList(objects, 100, 100, start);
      assert.deepStrictEqual(
        l.etcdRequests.map((q) => q.limit),
        want.limits,
        `page ${i + 1}`,
      );
      assert.deepStrictEqual(
        [l.fetched, l.evaluated, l.returned],
        [want.fetched, want.evaluated, want.returned],
        `page ${i + 1}`,
      );
      start += want.evaluated;
    }
    assert.ok(model.lists[1].request.includes('continue='), 'the second page sends the token');
    assert.strictEqual(summary.facts.lists, 3);
    assert.ok(model.lists[2].continue !== '', 'pages stops at 3 although more remain');
  });

  it('stops early when the keys run out before `pages` pages', async () => {
    const { model } = await runScenario('selector-death-spiral', {
      objects: 20000,
      matchEvery: 100,
      limit: 100,
      pages: 5,
    });
    assert.deepStrictEqual(
      model.lists.map((l) => l.continue !== ''),
      [true, false],
      'the second page ends on the last key: no token',
    );
  });

  it('profile 1.37: a filtered page never streams; the same paging', async () => {
    const { model } = await runScenario('selector-death-spiral', {
      objects: 5000,
      matchEvery: 100,
      limit: 10,
      profile: '1.37',
    });
    const l = model.lists[0];
    assert.deepStrictEqual(l.stream, { decision: 'paged', reason: 'filtered-page' });
    assert.strictEqual(l.streamed, false);
    assert.deepStrictEqual(
      l.etcdRequests.map((q) => q.limit),
      expectedList(5000, 100, 10).limits,
    );
  });
});
