// Tests for src/engine/cacher/watch-cache.ts, porting k8s.io/apiserver
// pkg/storage/cacher/watch_cache_test.go (release-1.36; TestHistogramCacheReadWait's waiting case
// as master steps the clock) plus the list routing, freshness waits and event handling.
import * as assert from 'assert';
import fc from 'fast-check';
import { encodeContinue } from '../../../src/engine/storage/continue';
import {
  isTimeout,
  isTooLargeResourceVersion,
  StatusError,
} from '../../../src/engine/storage/errors';
import * as fields from '../../../src/engine/storage/fields';
import * as labels from '../../../src/engine/storage/labels';
import { newListOptions, type ListOptions } from '../../../src/engine/storage/list-options';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import {
  blockTimeout,
  resourceVersionTooHighRetrySeconds,
} from '../../../src/engine/cacher/watch-cache';
import type { WatchCacheFreshnessWaitEvent } from '../../../src/engine/inspect/events';
import {
  capacityUpperBound,
  DefaultEventFreshDuration,
} from '../../../src/engine/cacher/watch-cache-history';
import type { Indexers } from '../../../src/engine/cacher/watch-cache-store';
import {
  makeTestPod,
  makeTestPodDetails,
  makeTestStoreElement,
  newTestWatchCache,
  type TestPod,
} from './watch-cache-testing';

const D = DefaultEventFreshDuration;
const everything = () => new SelectionPredicate();

function listOpts(init: Partial<ListOptions>): ListOptions {
  return newListOptions({ predicate: everything(), ...init });
}

/** Rejection of a promise, or a failure when it resolves. */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  assert.fail('expected the promise to reject');
}

function isStatus(code: number, message: string): (e: unknown) => boolean {
  return (e) => e instanceof StatusError && e.status.code === code && e.message === message;
}

const podIndexers: Indexers<TestPod> = {
  'l:label': (pod) => (pod.metadata.labels.label !== undefined ? [pod.metadata.labels.label] : []),
  'f:spec.nodeName': (pod) => [pod.spec.nodeName],
};

describe('watch cache (watch_cache_test.go)', () => {
  it('TestWatchCacheBasic: add/update/delete, list and replace', () => {
    const { wc } = newTestWatchCache(2);
    wc.add(makeTestPod('pod', 1));
    assert.deepStrictEqual(
      wc.get(makeTestPod('pod', 1)),
      makeTestStoreElement(makeTestPod('pod', 1)),
      'after add',
    );
    wc.update(makeTestPod('pod', 2));
    assert.deepStrictEqual(
      wc.get(makeTestPod('pod', 2)),
      makeTestStoreElement(makeTestPod('pod', 2)),
      'after update',
    );
    wc.delete(makeTestPod('pod', 3));
    assert.strictEqual(wc.get(makeTestPod('pod', 3)), undefined, 'after delete');

    wc.add(makeTestPod('pod1', 4));
    wc.add(makeTestPod('pod2', 5));
    wc.add(makeTestPod('pod3', 6));
    assert.deepStrictEqual(
      wc.list(),
      [4, 5, 6].map((rv) => makeTestStoreElement(makeTestPod(`pod${rv - 3}`, rv))),
      'list',
    );

    wc.replace([makeTestPod('pod4', 7), makeTestPod('pod5', 8)], '8');
    assert.deepStrictEqual(
      wc.list(),
      [makeTestStoreElement(makeTestPod('pod4', 7)), makeTestStoreElement(makeTestPod('pod5', 8))],
      'after replace',
    );
    assert.deepStrictEqual([wc.resourceVersion, wc.getListResourceVersion()], [8, 8]);
  });

  it('TestEvents: ADDED/MODIFIED/DELETED with previous objects, and "too old" as the ring moves', () => {
    const { wc, getAllEventsSince } = newTestWatchCache(5);
    // No dynamic size, to fit the old tests.
    wc.history.lowerBoundCapacity = 5;
    wc.history.upperBoundCapacity = 5;
    const everythingOpts = {};

    wc.add(makeTestPod('pod', 3));
    assert.throws(
      () => getAllEventsSince(1, everythingOpts),
      isStatus(410, 'too old resource version: 1 (2)'),
      'since(1) after add',
    );
    let result = getAllEventsSince(2);
    assert.deepStrictEqual(
      result.map((e) => [e.type, e.object, e.prevObject]),
      [['ADDED', makeTestPod('pod', 3), undefined]],
      'since(2)',
    );

    wc.update(makeTestPod('pod', 4));
    wc.update(makeTestPod('pod', 5));
    assert.throws(
      () => getAllEventsSince(1),
      /too old resource version/,
      'since(1) with a not full cache',
    );
    result = getAllEventsSince(3);
    assert.deepStrictEqual(
      result.map((e) => [e.type, e.object, e.prevObject]),
      [
        ['MODIFIED', makeTestPod('pod', 4), makeTestPod('pod', 3)],
        ['MODIFIED', makeTestPod('pod', 5), makeTestPod('pod', 4)],
      ],
      'since(3)',
    );

    for (let i = 6; i < 10; i++) wc.update(makeTestPod('pod', i));
    // A full cache: events 5 to 9.
    assert.throws(
      () => getAllEventsSince(3),
      isStatus(410, 'too old resource version: 3 (4)'),
      'since(3) with a full cache',
    );
    result = getAllEventsSince(4);
    assert.deepStrictEqual(
      result.map((e) => e.object),
      [5, 6, 7, 8, 9].map((rv) => makeTestPod('pod', rv)),
      'since(4)',
    );

    wc.delete(makeTestPod('pod', 10));
    result = getAllEventsSince(9);
    assert.deepStrictEqual(
      result.map((e) => [e.type, e.object, e.prevObject]),
      [['DELETED', makeTestPod('pod', 10), makeTestPod('pod', 9)]],
      'since(9)',
    );
  });

  it('TestMarker: after a list at 9, history starts right after it', () => {
    const { wc, getAllEventsSince } = newTestWatchCache(3);
    wc.replace([makeTestPod('pod1', 5), makeTestPod('pod2', 9)], '9');
    assert.throws(() => getAllEventsSince(8), isStatus(410, 'too old resource version: 8 (9)'));
    assert.deepStrictEqual(getAllEventsSince(9), [], 'no events after 9 yet');
    const pod = makeTestPod('pods', 12);
    wc.add(pod);
    assert.deepStrictEqual(
      getAllEventsSince(9).map((e) => e.object),
      [pod],
    );
  });

  it('getAllEventsSinceLocked: rv 0, sendInitialEvents and an uninitialised cache', () => {
    const { wc, getAllEventsSince } = newTestWatchCache(10);
    assert.throws(
      () => getAllEventsSince(5),
      /^Error: watch cache isn't correctly initialized$/,
      'no list, no events',
    );
    assert.throws(
      () => getAllEventsSince(0),
      /isn't correctly initialized/,
      'rv 0 checks initialisation first',
    );
    assert.deepStrictEqual(
      getAllEventsSince(0, { sendInitialEvents: true }),
      [],
      'sendInitialEvents=true lists the (empty) store',
    );

    wc.replace([makeTestPod('b', 5), makeTestPod('a', 6)], '7');
    wc.add(makeTestPod('c', 8));
    const cases: {
      name: string;
      rv: number;
      sendInitialEvents?: boolean;
      expect: [string, string, number][];
    }[] = [
      {
        name: 'rv 0, sendInitialEvents unset: the current state as ADDED at the cache RV, by key',
        rv: 0,
        expect: [
          ['ADDED', 'a', 8],
          ['ADDED', 'b', 8],
          ['ADDED', 'c', 8],
        ],
      },
      {
        name: 'rv 0, sendInitialEvents=false: from now on',
        rv: 0,
        sendInitialEvents: false,
        expect: [],
      },
      {
        name: 'rv 7, sendInitialEvents=false: history',
        rv: 7,
        sendInitialEvents: false,
        expect: [['ADDED', 'c', 8]],
      },
      {
        name: 'rv 7, sendInitialEvents=true: the store, whatever the rv',
        rv: 7,
        sendInitialEvents: true,
        expect: [
          ['ADDED', 'a', 8],
          ['ADDED', 'b', 8],
          ['ADDED', 'c', 8],
        ],
      },
    ];
    for (const c of cases) {
      const got = getAllEventsSince(c.rv, { sendInitialEvents: c.sendInitialEvents }).map((e) => [
        e.type,
        (e.object as TestPod).metadata.name,
        e.resourceVersion,
      ]);
      assert.deepStrictEqual(got, c.expect, c.name);
    }
    // A single-object watch (metadata.name=...) that is not recursive takes only its key.
    const single = wc.getAllEventsSinceLocked(0, '/prefix/ns/b', {
      predicate: new SelectionPredicate({
        field: fields.oneTermEqualSelector('metadata.name', 'b'),
      }),
      recursive: false,
    });
    assert.deepStrictEqual([single.next()?.key, single.next()], ['/prefix/ns/b', undefined]);
  });

  it('TestWaitUntilFreshAndGetList: index use and the RV of the result', async () => {
    const { wc } = newTestWatchCache(3, D, podIndexers);
    const pending = wc.waitUntilFreshAndGetList(
      '/prefix/',
      listOpts({ resourceVersion: '5', recursive: true }),
    );
    wc.add(makeTestPodDetails('pod1', 2, 'node1', { label: 'value1' }));
    wc.add(makeTestPodDetails('pod2', 3, 'node1', { label: 'value1' }));
    wc.add(makeTestPodDetails('pod3', 5, 'node2', { label: 'value2' }));
    const first = await pending;
    assert.deepStrictEqual(
      [first.resourceVersion, first.items.length, first.index],
      [5, 3, ''],
      'list by empty MatchValues',
    );

    const cases: { name: string; predicate: SelectionPredicate; items: number; index: string }[] = [
      {
        name: 'list by label index',
        predicate: new SelectionPredicate({
          label: labels.selectorFromSet({ label: 'value1' }),
          field: fields.selectorFromSet({ 'spec.nodeName': 'node2' }),
          indexLabels: ['label'],
        }),
        items: 2, // the index only pre-filters
        index: 'l:label',
      },
      {
        name: 'list with spec.nodeName index',
        predicate: new SelectionPredicate({
          label: labels.selectorFromSet({ 'not-exist-label': 'whatever' }),
          field: fields.selectorFromSet({ 'spec.nodeName': 'node2' }),
          indexFields: ['spec.nodeName'],
        }),
        items: 1,
        index: 'f:spec.nodeName',
      },
      {
        name: 'list with index not exists',
        predicate: new SelectionPredicate({
          label: labels.selectorFromSet({ 'not-exist-label': 'whatever' }),
          field: fields.everything(),
          indexLabels: ['label'],
        }),
        items: 3,
        index: '',
      },
    ];
    for (const c of cases) {
      const resp = await wc.waitUntilFreshAndGetList(
        '/prefix/',
        listOpts({ resourceVersion: '5', recursive: true, predicate: c.predicate }),
      );
      assert.deepStrictEqual(
        [resp.resourceVersion, resp.items.length, resp.index],
        [5, c.items, c.index],
        c.name,
      );
    }
  });

  it('TestWaitUntilFreshAndListFromCache: a future RV is reached through a requested progress notification', async () => {
    const t = newTestWatchCache(3);
    const pending = t.wc.waitUntilFreshAndGetList(
      '/prefix/',
      listOpts({ resourceVersion: '3', recursive: true }),
    );
    t.wc.add(makeTestPod('pod1', 2));
    t.sendBookmarkRevision(3);
    const resp = await pending;
    assert.deepStrictEqual([resp.resourceVersion, resp.items.length, resp.index], [3, 1, '']);
    assert.deepStrictEqual(
      t.handled.map((e) => [e.type, e.resourceVersion]),
      [
        ['ADDED', 2],
        ['BOOKMARK', 3],
      ],
    );
  });

  it('TestWaitUntilFreshAndGet', async () => {
    const { wc } = newTestWatchCache(3);
    const pending = wc.waitUntilFreshAndGet(5, '/prefix/ns/bar');
    wc.add(makeTestPod('foo', 2));
    wc.add(makeTestPod('bar', 5));
    const got = await pending;
    assert.deepStrictEqual(got, {
      object: makeTestStoreElement(makeTestPod('bar', 5)),
      exists: true,
      resourceVersion: 5,
    });
  });

  it('TestWaitUntilFreshAndListTimeout: blockTimeout gives a 504 Too large resource version (both rows)', async () => {
    assert.strictEqual(blockTimeout, 3000);
    assert.strictEqual(resourceVersionTooHighRetrySeconds, 1);
    const rows = [
      // FromStorage: ConsistentListFromCache off (emulated 1.33), so no progress is requested and the bookmark never comes.
      { name: 'FromStorage', consistentListFromCache: false, current: 2 },
      { name: 'FromCache', consistentListFromCache: true, current: 3 },
    ];
    for (const row of rows) {
      const t = newTestWatchCache(
        3,
        D,
        {},
        { consistentReadSupported: () => row.consistentListFromCache },
      );
      const pending = rejection(
        t.wc.waitUntilFreshAndGetList('', listOpts({ resourceVersion: '4' })),
      );
      assert.strictEqual(
        t.clock.pendingTimers(),
        1,
        `${row.name}: the blockTimeout timer is armed`,
      );
      t.wc.add(makeTestPod('foo', 2));
      t.sendBookmarkRevision(3);
      t.clock.step(blockTimeout - 1);
      assert.strictEqual(
        t.wc.waitingRequests(),
        1,
        `${row.name}: still waiting 1ms before the timeout`,
      );
      t.clock.step(1);
      const err = await pending;
      assert.ok(isTimeout(err), `${row.name}: expected a timeout error, got ${String(err)}`);
      assert.ok(
        isTooLargeResourceVersion(err),
        `${row.name}: expected the ResourceVersionTooLarge cause`,
      );
      const status = (err as StatusError).status;
      assert.strictEqual(
        status.message,
        `Timeout: Too large resource version: 4, current: ${row.current}`,
        row.name,
      );
      assert.deepStrictEqual(
        [status.code, status.reason, status.details?.retryAfterSeconds],
        [504, 'Timeout', 1],
        row.name,
      );
      // The test's safety net: an object added later changes nothing.
      t.wc.add(makeTestPod('bar', 4));
      assert.strictEqual(t.wc.waitingRequests(), 0, row.name);
    }
  });

  it('freshness waits: nothing scheduled for rv 0 or a fresh cache; the timer is cancelled once caught up', async () => {
    const waits: WatchCacheFreshnessWaitEvent[] = [];
    const t = newTestWatchCache(10, D, {}, { onFreshnessWait: (e) => waits.push(e) });
    await t.wc.waitUntilFreshAndBlock(0);
    assert.strictEqual(t.clock.pendingTimers(), 0, 'rv 0: no timer');
    t.wc.add(makeTestPod('a', 2));
    await t.wc.waitUntilFreshAndBlock(2);
    assert.strictEqual(t.clock.pendingTimers(), 0, 'fresh: no timer');
    const pending = t.wc.waitUntilFreshAndBlock(3);
    assert.strictEqual(t.clock.pendingTimers(), 1);
    t.clock.step(250);
    t.wc.add(makeTestPod('b', 3));
    await pending;
    assert.strictEqual(t.clock.pendingTimers(), 0, 'caught up: the timer is stopped');
    assert.deepStrictEqual(
      waits.map((w) => [w.resourceVersion, w.outcome, w.waitedMs, w.cacheResourceVersion]),
      [
        [2, 'fresh', 0, 2],
        [3, 'caught-up', 250, 3],
      ],
    );
  });

  it('progress notifications are requested only while a consistent read is behind', async () => {
    const calls: string[] = [];
    const t = newTestWatchCache(
      10,
      D,
      {},
      { progressRequester: { add: () => calls.push('add'), remove: () => calls.push('remove') } },
    );
    t.wc.add(makeTestPod('a', 5));
    await t.wc.waitUntilFreshAndGet(5, '/prefix/ns/a');
    assert.deepStrictEqual(calls, [], 'fresh: no progress request');
    const pending = t.wc.waitUntilFreshAndGet(6, '/prefix/ns/a');
    assert.deepStrictEqual(calls, ['add']);
    t.wc.updateResourceVersion('6');
    await pending;
    assert.deepStrictEqual(calls, ['add', 'remove']);
  });

  it('TestReflectorForWatchCache (without a reflector): RV 0 before the first list, the list RV after it', async () => {
    const { wc } = newTestWatchCache(5);
    let resp = await wc.waitUntilFreshAndGetList(
      '',
      listOpts({ resourceVersion: '', recursive: true }),
    );
    assert.strictEqual(resp.resourceVersion, 0);
    wc.replace([], '10');
    resp = await wc.waitUntilFreshAndGetList(
      '',
      listOpts({ resourceVersion: '10', recursive: true }),
    );
    assert.strictEqual(resp.resourceVersion, 10);
  });

  it('TestHistogramCacheReadWait: apiserver_watch_cache_read_wait_seconds with its buckets and the 1.36 observation rule', async () => {
    const t = newTestWatchCache(2);
    const name = 'apiserver_watch_cache_read_wait_seconds';
    const histogram = (buckets: number[], sum: string, count: number) => {
      const les = [
        '0.005',
        '0.025',
        '0.05',
        '0.1',
        '0.2',
        '0.4',
        '0.6',
        '0.8',
        '1',
        '1.25',
        '1.5',
        '2',
        '3',
        '+Inf',
      ];
      return (
        `# HELP ${name} [ALPHA] Histogram of time spent waiting for a watch cache to become fresh.\n# TYPE ${name} histogram\n` +
        les
          .map((le, i) => `${name}_bucket{group="",resource="pods",le="${le}"} ${buckets[i]}\n`)
          .join('') +
        `${name}_sum{group="",resource="pods"} ${sum}\n${name}_count{group="",resource="pods"} ${count}\n`
      );
    };
    const cases: { desc: string; run: () => Promise<void>; want: string }[] = [
      {
        desc: 'resourceVersion is non-zero: a 1s wait',
        run: async () => {
          t.wc.add(makeTestPod('foo', 2));
          const got = t.wc.waitUntilFreshAndGet(5, 'prefix/ns/bar');
          t.clock.step(1000);
          t.wc.add(makeTestPod('bar', 5));
          await got;
        },
        want: histogram([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], '1', 1),
      },
      {
        desc: 'resourceVersion is non-zero and already fresh: observed as 0 (1.36; master observes only real waits)',
        run: async () => {
          await t.wc.waitUntilFreshAndGet(5, 'prefix/ns/bar');
        },
        want: histogram([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], '0', 1),
      },
      {
        desc: 'a timeout is observed too (3s)',
        run: async () => {
          const got = rejection(t.wc.waitUntilFreshAndGet(6, 'prefix/ns/bar'));
          t.clock.step(blockTimeout);
          await got;
        },
        want: histogram([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1], '3', 1),
      },
      {
        desc: 'resourceVersion is 0',
        run: async () => {
          await t.wc.waitUntilFreshAndGet(0, 'prefix/ns/bar');
        },
        want: '',
      },
    ];
    for (const c of cases) {
      t.registry.reset();
      await c.run();
      assert.strictEqual(t.registry.text([name]), c.want, c.desc);
    }
  });

  it('TestCacheSnapshots', () => {
    const t = newTestWatchCache(3);
    const { wc, clock } = t;
    wc.history.upperBoundCapacity = 3;
    wc.history.lowerBoundCapacity = 1;
    const snapshots = wc.snapshots;
    assert.ok(snapshots);
    const at = (rv: number) =>
      snapshots
        .getLessOrEqual(rv)
        ?.listPrefix('', '')
        .map((e) => e.object);

    assert.strictEqual(snapshots.getLessOrEqual(100), undefined, 'an empty cache has no snapshots');
    wc.add(makeTestPod('foo', 100));
    wc.update(makeTestPod('foo', 200));
    clock.step(1000);
    wc.delete(makeTestPod('foo', 300));
    assert.strictEqual(at(99), undefined, 'no rev 99');
    assert.deepStrictEqual(at(100), [makeTestPod('foo', 100)], 'rev 100');

    // Overflow the cache to remove rev 100.
    wc.add(makeTestPod('foo', 400));
    assert.strictEqual(at(100), undefined, 'the overfilled cache dropped rev 100');
    assert.deepStrictEqual(at(200), [makeTestPod('foo', 200)], 'rev 200');
    assert.deepStrictEqual(at(300), [], 'rev 300 (deleted)');
    assert.deepStrictEqual(at(400), [makeTestPod('foo', 400)], 'rev 400');

    // An event outside the fresh window shrinks the capacity.
    assert.strictEqual(wc.history.capacity, 3);
    clock.step(D + 1);
    wc.update(makeTestPod('foo', 500));
    assert.strictEqual(wc.history.capacity, 1);
    assert.strictEqual(snapshots.length, 1);
    assert.strictEqual(at(499), undefined, 'snapshots below 500 were dropped');
    assert.deepStrictEqual(at(500), [makeTestPod('foo', 500)], 'rev 500');

    // An event to force a capacity upsize.
    wc.update(makeTestPod('foo', 600));
    assert.strictEqual(wc.history.capacity, 2);
    assert.strictEqual(snapshots.length, 2);
    assert.deepStrictEqual(at(600), [makeTestPod('foo', 600)], 'rev 600');

    // Replace removes the history.
    assert.ok(at(500), 'history kept before the replace');
    wc.replace([makeTestPod('foo', 600)], '700');
    assert.strictEqual(at(500), undefined, 'replace removed rev 500');
    assert.strictEqual(at(600), undefined, 'replace removed rev 600');
    assert.deepStrictEqual(at(700), [makeTestPod('foo', 600)], 'the replace is snapshotted at 700');
  });

  it('TestSuggestedWatchChannelSize', () => {
    const rows: [number, boolean, boolean, number, number][] = [
      // capacity, indexExists, triggerUsed, eventsFreshDuration, expected
      [100, true, true, D, 10],
      [100, true, false, D, 10],
      [100, false, false, D, 10],
      [750, true, true, D, 10],
      [750, true, false, D, 10],
      [750, false, false, D, 10],
      [7500, true, true, D, 10],
      [7500, true, false, D, 100],
      [7500, true, false, 2 * D, 50],
      [7500, false, false, D, 100],
      [7500, false, false, 2 * D, 50],
      [75000, true, true, D, 10],
      [75000, true, false, D, 1000],
      [75000, true, false, 2 * D, 500],
      [75000, false, false, D, 100],
      [750000, true, true, D, 10],
      [750000, true, false, D, 1000],
      [750000, false, false, D, 100],
    ];
    for (const [capacity, indexExists, triggerUsed, fresh, expected] of rows) {
      const { wc } = newTestWatchCache(capacity, fresh);
      assert.strictEqual(
        wc.suggestedWatchChannelSize(indexExists, triggerUsed),
        expected,
        `capacity=${capacity}, indexExists=${indexExists}, triggerUsed=${triggerUsed}, eventsFreshDuration=${fresh / 1000}s`,
      );
    }
  });

  it('waitUntilFreshAndList routing (mirrors ShouldDelegateList)', async () => {
    const { wc } = newTestWatchCache(10);
    wc.replace([], '1');
    for (const [name, rv] of [
      ['a', 2],
      ['b', 3],
      ['c', 4],
    ] as [string, number][])
      wc.add(makeTestPod(name, rv));
    wc.delete(makeTestPod('b', 5));
    const names = (items: { object: TestPod }[]) =>
      items.map((e) => e.object.metadata.name).join(',');
    const token = (key: string, rv: number) => encodeContinue(key, '/prefix/', rv);
    const cases: {
      name: string;
      opts: Partial<ListOptions>;
      expect: string | { names: string; rv: number };
    }[] = [
      {
        name: 'Exact at 3: the snapshot, result RV = the request',
        opts: { resourceVersion: '3', resourceVersionMatch: 'Exact' },
        expect: { names: 'a,b', rv: 3 },
      },
      {
        name: 'Exact below the oldest snapshot: 410',
        opts: { resourceVersion: '0', resourceVersionMatch: 'Exact' },
        expect: 'too old resource version: 0',
      },
      {
        name: 'NotOlderThan 3: the latest state at the cache RV',
        opts: { resourceVersion: '3', resourceVersionMatch: 'NotOlderThan' },
        expect: { names: 'a,c', rv: 5 },
      },
      {
        name: 'legacy exact: a limit with RV 3',
        opts: { resourceVersion: '3', predicate: new SelectionPredicate({ limit: 1 }) },
        expect: { names: 'a,b', rv: 3 },
      },
      {
        name: 'RV "0" with a limit: latest',
        opts: { resourceVersion: '0', predicate: new SelectionPredicate({ limit: 1 }) },
        expect: { names: 'a,c', rv: 5 },
      },
      {
        name: 'RV "": consistent (etcd current RV), latest',
        opts: { resourceVersion: '' },
        expect: { names: 'a,c', rv: 5 },
      },
      {
        name: 'continue at RV 4 from b: the snapshot at 4 from the continue key',
        opts: {
          resourceVersion: '',
          predicate: new SelectionPredicate({ continue: token('/prefix/ns/b', 4) }),
        },
        expect: { names: 'b,c', rv: 4 },
      },
      {
        name: 'continue with RV -1: consistent, from the continue key',
        opts: {
          resourceVersion: '',
          predicate: new SelectionPredicate({ continue: token('/prefix/ns/b', -1) }),
        },
        expect: { names: 'c', rv: 5 },
      },
      {
        name: 'a bad continue token: 400',
        opts: { resourceVersion: '', predicate: new SelectionPredicate({ continue: '!!!' }) },
        expect:
          'invalid continue token: continue key is not valid: illegal base64 data at input byte 0',
      },
    ];
    for (const c of cases) {
      const p = wc.waitUntilFreshAndGetList('/prefix/', listOpts({ recursive: true, ...c.opts }));
      if (typeof c.expect === 'string') {
        const err = await rejection(p);
        assert.ok(err instanceof StatusError, `${c.name}: ${String(err)}`);
        assert.strictEqual(err.message, c.expect, c.name);
        assert.strictEqual(
          err.status.code,
          c.expect.startsWith('invalid continue token') ? 400 : 410,
          c.name,
        );
      } else {
        const resp = await p;
        assert.deepStrictEqual(
          { names: names(resp.items), rv: resp.resourceVersion },
          c.expect,
          c.name,
        );
      }
    }
  });

  it('exact-RV lists are 410 when snapshots are off (ListFromCacheSnapshot=false) or marked inconsistent', async () => {
    const off = newTestWatchCache(10, D, {}, { listFromCacheSnapshot: false });
    off.wc.replace([makeTestPod('a', 1)], '1');
    const err = await rejection(
      off.wc.waitUntilFreshAndGetList(
        '/prefix/',
        listOpts({ resourceVersion: '1', resourceVersionMatch: 'Exact', recursive: true }),
      ),
    );
    assert.ok(isStatus(410, 'too old resource version: 1')(err), String(err));

    const on = newTestWatchCache(10);
    on.wc.replace([makeTestPod('a', 1)], '1');
    on.wc.add(makeTestPod('b', 2));
    on.wc.markConsistent(false);
    assert.strictEqual(on.wc.snapshots?.length, 0, 'marking inconsistent drops the snapshots');
    on.wc.add(makeTestPod('c', 3));
    assert.strictEqual(on.wc.snapshots?.length, 0, 'and takes none while inconsistent');
    on.wc.markConsistent(true);
    on.wc.add(makeTestPod('d', 4));
    assert.deepStrictEqual(on.wc.snapshots?.resourceVersions(), [4]);
    on.wc.add(makeTestPod('e', 5));
    on.wc.compact(5);
    assert.deepStrictEqual(
      on.wc.snapshots?.resourceVersions(),
      [5],
      'compact drops snapshots below the compacted revision',
    );
  });

  it('non-recursive GetList: 0 or 1 items at the cache RV', async () => {
    const { wc } = newTestWatchCache(10);
    wc.replace([makeTestPod('a', 3)], '3');
    const hit = await wc.waitUntilFreshAndGetList(
      '/prefix/ns/a',
      listOpts({ resourceVersion: '2' }),
    );
    assert.deepStrictEqual(
      [hit.items.map((e) => e.key), hit.resourceVersion],
      [['/prefix/ns/a'], 3],
    );
    const miss = await wc.waitUntilFreshAndGetList(
      '/prefix/ns/zz',
      listOpts({ resourceVersion: '' }),
    );
    assert.deepStrictEqual([miss.items, miss.resourceVersion], [[], 3]);
  });

  it('events: the handler gets every event (and storage bookmarks), metrics count them', () => {
    const t = newTestWatchCache(10);
    const { wc } = t;
    wc.add(makeTestPod('a', 2));
    t.clock.step(5);
    wc.update(makeTestPod('a', 3));
    wc.updateResourceVersion('7');
    wc.updateResourceVersion('not-a-number'); // ignored, as upstream logs and drops it
    assert.deepStrictEqual(
      t.handled.map((e) => [
        e.type,
        e.key,
        e.resourceVersion,
        e.recordTime - t.clock.now(),
        e.prevObject?.metadata.resourceVersion,
      ]),
      [
        ['ADDED', '/prefix/ns/a', 2, -5, undefined],
        ['MODIFIED', '/prefix/ns/a', 3, 0, '2'],
        ['BOOKMARK', '', 7, -t.clock.now(), undefined],
      ],
    );
    assert.strictEqual(wc.resourceVersion, 7);
    const s = t.registry.samples();
    assert.strictEqual(
      s['apiserver_watch_cache_events_received_total{group="",resource="pods"}'],
      2,
      'bookmarks are not received events',
    );
    assert.strictEqual(s['apiserver_watch_cache_resource_version{group="",resource="pods"}'], 7);
    assert.strictEqual(
      s['watch_cache_capacity{group="",resource="pods"}'],
      100,
      'set at construction (the test helper then resizes the ring by hand)',
    );
  });

  it('bad input: a key that cannot be computed or a malformed resourceVersion is reported, not swallowed', () => {
    const t = newTestWatchCache(
      10,
      D,
      {},
      {
        keyFunc: (pod) => {
          if (!pod.metadata.name) throw new Error('name is empty');
          return `/prefix/${pod.metadata.namespace}/${pod.metadata.name}`;
        },
      },
    );
    assert.throws(
      () => t.wc.add(makeTestPod('', 1)),
      /^Error: couldn't compute key: name is empty$/,
    );
    assert.throws(
      () => t.wc.replace([makeTestPod('', 1)], '1'),
      /couldn't compute key: name is empty/,
    );
    assert.throws(() => t.wc.replace([], 'abc'), /resourceVersion/);
    assert.throws(
      () =>
        t.wc.add({
          ...makeTestPod('x', 1),
          metadata: { ...makeTestPod('x', 1).metadata, resourceVersion: 'x1' },
        }),
      /x1/,
    );
  });

  it('property: through add/update/delete with time passing, capacity stays in [100, capacityUpperBound], the history serves exactly the events after any RV in its window, and snapshots (covering at least the history) give the state at any RV they hold', () => {
    const upper = capacityUpperBound(D);
    const resizes = { up: 0, down: 0 };
    fc.assert(
      fc.property(
        // Phases: bursts (0-100ms apart) grow the ring, sparse stretches (D/8 to 2D apart) shrink it.
        fc.array(
          fc.record({
            n: fc.integer({ min: 1, max: 300 }),
            dt: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: D / 8, max: 2 * D })),
          }),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        fc.array(fc.nat(), { minLength: 2, maxLength: 4 }),
        (phases, probes) => {
          const t = newTestWatchCache(
            100,
            D,
            {},
            {
              onCapacityChange: (e) => (e.reason === 'increase' ? resizes.up++ : resizes.down++),
            },
          );
          const { wc } = t;
          wc.replace([], '1');
          const events: { rv: number; text: string }[] = []; // text: `${rv} ${type} ${name}`
          const model = new Map<string, number>();
          const stateAt: string[][] = []; // by RV: sorted "name@rv"
          const render = () =>
            [...model.entries()]
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, v]) => `${k}@${v}`);
          stateAt[1] = render();
          let rv = 1;
          for (const phase of phases) {
            for (let i = 0; i < phase.n; i++) {
              t.clock.step(phase.dt);
              rv++;
              const name = `p${(rv * 2654435761) % 7}`;
              const pod = makeTestPod(name, rv);
              if (!model.has(name)) {
                wc.add(pod);
                model.set(name, rv);
                events.push({ rv, text: `${rv} ADDED ${name}` });
              } else if (rv % 4 === 0) {
                wc.delete(pod);
                model.delete(name);
                events.push({ rv, text: `${rv} DELETED ${name}` });
              } else {
                wc.update(pod);
                model.set(name, rv);
                events.push({ rv, text: `${rv} MODIFIED ${name}` });
              }
              stateAt[rv] = render();
            }
            const h = wc.history;
            assert.ok(h.capacity >= 100 && h.capacity <= upper, `capacity ${h.capacity}`);
            // The oldest RV a watch may start from: the list RV until an event was dropped, then the oldest held - 1.
            const from = h.removedEventSinceRelist ? h.oldestResourceVersionLocked() - 1 : 1;
            for (const p of probes) {
              const since = from + (p % (rv - from + 1));
              const got = t
                .getAllEventsSince(since)
                .map(
                  (e) => `${e.resourceVersion} ${e.type} ${(e.object as TestPod).metadata.name}`,
                );
              assert.deepStrictEqual(
                got,
                events.filter((e) => e.rv > since).map((e) => e.text),
                `events since ${since}`,
              );
            }
            if (from > 1)
              assert.throws(
                () => t.getAllEventsSince(from - 1),
                /too old resource version/,
                `since ${from - 1}`,
              );
            // Snapshots are trimmed to the history whenever the ring is full: they always cover at least its window.
            const snapshotFrom = wc.snapshots?.resourceVersions()[0] ?? Infinity;
            assert.ok(
              snapshotFrom <= (h.size > 0 ? h.oldestResourceVersionLocked() : rv),
              `snapshots from ${snapshotFrom} cover the history`,
            );
            for (const p of probes) {
              const at = snapshotFrom + (p % (rv - snapshotFrom + 1));
              const listed = wc.snapshots
                ?.getLessOrEqual(at)
                ?.listPrefix('/prefix/', '')
                .map((e) => `${e.object.metadata.name}@${e.object.metadata.resourceVersion}`);
              assert.deepStrictEqual(listed, stateAt[at], `snapshot at ${at}`);
            }
          }
        },
      ),
      { seed: 136, numRuns: 40 },
    );
    assert.ok(resizes.up > 20 && resizes.down > 20, `resizes seen: ${JSON.stringify(resizes)}`);
  });
});
