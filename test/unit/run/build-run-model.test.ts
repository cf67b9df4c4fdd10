// Tests for src/run/build-run-model.ts: the fold of engine events into a RunModel — watcher
// tracks and their bounded logs, lists and their etcd calls, capacity points, serialization totals.
import * as assert from 'assert';
import { RunModelBuilder, selectorFromIdentifier } from '../../../src/run/build-run-model';
import type { RunHeader } from '../../../src/run/run-model';
import type { EngineEvent } from '../../../src/engine/inspect/events';
import { watcherFiguresAt } from '../../../src/run/views/watcher-at-time';

const header: RunHeader = {
  format: 'listwatch-trace',
  version: 2,
  scenario: 'bookmark-heartbeats',
  profile: '1.36',
  seed: 1,
  params: {},
};
const gr = { group: '', resource: 'pods' };

describe('RunModelBuilder', () => {
  it('keeps the first and last log entries of a watcher and counts the rest', () => {
    const b = new RunModelBuilder(header, { watcherLogLimit: 6 });
    b.add({
      type: 'watcher/created',
      at: 0,
      watcherId: 1,
      groupResource: gr,
      identifier: 'key: "/pods/ns", labels: "app=x", fields: ""',
      chanSize: 10,
      deadline: null,
      allowWatchBookmarks: true,
    });
    for (let i = 1; i <= 20; i++)
      b.add({
        type: 'watcher/bookmark',
        at: i * 1000,
        watcherId: 1,
        resourceVersion: 100 + i,
        outcome: 'delivered',
      });
    const [w] = b.finish().watchers;
    assert.strictEqual(w.log.length, 6);
    assert.strictEqual(w.logDropped, 15);
    assert.deepStrictEqual(
      w.log.map((l) => l.at),
      [0, 1000, 2000, 18000, 19000, 20000],
    );
    assert.deepStrictEqual(
      [w.bookmarksReceived, w.lastRvSent, w.selector, w.bufferCapacity],
      [20, 120, 'app=x', 10],
    );
  });

  it("a watcher's next bookmark is the bucket the events put it in: scheduled, popped, re-queued", () => {
    const b = new RunModelBuilder(header);
    const created: EngineEvent = {
      type: 'watcher/created',
      at: 0,
      watcherId: 7,
      groupResource: gr,
      identifier: '',
      chanSize: 10,
      deadline: 600_000,
      allowWatchBookmarks: true,
    };
    b.add(created);
    b.add({ ...created, watcherId: 8 });
    b.add({
      type: 'bookmarks/scheduled',
      at: 0,
      groupResource: gr,
      buckets: [{ bucketId: 0, watchers: 2, bucketTime: 0, watcherIds: [7, 8] }],
    });
    b.add({
      type: 'bookmarks/bucket-popped',
      at: 1000,
      groupResource: gr,
      bucketId: 0,
      bucketTime: 0,
      watchersDue: 2,
      watcherIds: [7, 8],
    });
    // Re-queued (cacher.go dispatchEvents re-adds the watchers that still want bookmarks), told
    // a tick later than its instant, after a sample at 1001: it changes that sample.
    b.add({
      kind: 'metrics',
      scope: 'watchers',
      at: 1001,
      // A sample's bucket figure is not read once the events name the watchers.
      changes: [{ ids: [8], received: 1, lastRv: 5, nextBookmarkSecond: 99 }],
    });
    b.add({
      type: 'bookmarks/scheduled',
      at: 1000,
      groupResource: gr,
      buckets: [{ bucketId: 61, watchers: 2, bucketTime: 61_000, watcherIds: [7, 8] }],
    });
    const m = b.finish();
    const next = (id: string, at: number) =>
      watcherFiguresAt(
        m.watchers.find((w) => w.id === id)!,
        at,
        m.durationMs,
      ).nextBookmarkSecond;
    for (const id of ['7', '8']) {
      assert.deepStrictEqual(
        [next(id, 0), next(id, 2000)],
        [0, 61],
        `watcher ${id}: the start bucket, then the one it was re-queued into`,
      );
      const log = m.watchers.find((w) => w.id === id)!.log.map((e) => e.text);
      assert.deepStrictEqual(
        log.slice(-3),
        [
          'in the bookmark bucket due now (its second began at 0.000 s): offered at the next bookmark tick',
          'the bookmark bucket whose second began at 0.000 s popped: offered a bookmark',
          'in the bookmark bucket due at 61.000 s',
        ],
        `watcher ${id}: its log says the same`,
      );
    }
  });

  it('tracks state changes, drops by reason, termination and the close reason', () => {
    const b = new RunModelBuilder(header);
    const ev: EngineEvent[] = [
      {
        type: 'watcher/created',
        at: 0,
        watcherId: 'a',
        groupResource: gr,
        identifier: '',
        chanSize: 2,
        deadline: 60000,
        allowWatchBookmarks: true,
      },
      {
        type: 'watcher/state',
        at: 0,
        watcherId: 'a',
        from: 'WaitingForBookmark',
        to: 'BookmarkReceived',
        bookmarkAfterResourceVersion: 7,
        resourceVersion: 7,
      },
      {
        type: 'watcher/bookmark',
        at: 1,
        watcherId: 'a',
        resourceVersion: 5,
        outcome: 'dropped',
        reason: 'inputFull',
      },
      {
        type: 'watcher/bookmark',
        at: 2,
        watcherId: 'a',
        resourceVersion: 6,
        outcome: 'dropped',
        reason: 'inputFull',
      },
      {
        type: 'watcher/bookmark',
        at: 57000,
        watcherId: 'a',
        resourceVersion: 9,
        outcome: 'delivered',
        initialEventsEnd: true,
      },
      {
        type: 'watcher/terminated',
        at: 58000,
        watcherId: 'a',
        groupResource: gr,
        graceful: true,
        inputLen: 2,
        resultLen: 2,
      },
      { type: 'watcher/closed', at: 59000, watcherId: 'a', reason: 'inputClosed', delivered: 12 },
    ];
    for (const e of ev) b.add(e);
    const [w] = b.finish().watchers;
    assert.deepStrictEqual(
      w.states.map((s) => s.state),
      ['WaitingForBookmark', 'BookmarkReceived'],
    );
    assert.deepStrictEqual(w.bookmarksDropped, { inputFull: 2 });
    assert.deepStrictEqual(
      [w.terminated, w.closeReason, w.closedAt, w.eventsReceived],
      [true, 'terminated (blocked dispatch, graceful drain)', 59000, 12],
    );
    assert.deepStrictEqual([w.preDeadlineBookmarks, w.initialEventsEndBookmarks], [1, 1]);
  });

  it('groups etcd calls and pages under the list that made them; cacher lists apart', () => {
    const b = new RunModelBuilder(header);
    const req = (requestId: number, at: number, limit: number, kvs: number): EngineEvent => ({
      type: 'etcd/request',
      at,
      groupResource: gr,
      requestId,
      operation: 'list',
      key: '/registry/pods/',
      rangeEnd: '/registry/pods0',
      limit,
      revision: 0,
      headerRevision: 9,
      kvs,
      count: 50,
      latencyMs: 0,
    });
    const done = (requestId: number, at: number, fetched: number): EngineEvent => ({
      type: 'list/done',
      at,
      groupResource: gr,
      requestId,
      keyPrefix: '/registry/pods/',
      recursive: true,
      streamed: false,
      etcdRequests: 1,
      fetched,
      evaluated: fetched,
      returned: 1,
      latencyMs: 0,
    });
    b.add(req(1, 0, 10000, 50));
    b.add(done(1, 0, 50));
    b.addInput(1, {
      action: 'list',
      id: 'list-1',
      requestId: 2,
      request: '/api/v1/pods?limit=2',
      via: 'store',
      client: 'kubectl',
    });
    b.add(req(2, 1, 2, 2));
    b.add(req(2, 1, 4, 4));
    b.add(done(2, 1, 6));
    b.addInput(1, {
      action: 'list-end',
      id: 'list-1',
      requestId: 2,
      status: 200,
      items: 1,
      resourceVersion: '9',
      continue: 'tok',
    });
    const m = b.finish();
    assert.deepStrictEqual(
      m.lists.map((l) => [
        l.id,
        l.requestId,
        l.etcdRequests.map((q) => q.limit),
        l.fetched,
        l.continue,
        l.servedBy,
      ]),
      [['list-1', 2, [2, 4], 6, 'tok', 'etcd']],
    );
    assert.deepStrictEqual(
      m.cacherLists?.map((l) => [l.requestId, l.etcdRequests.map((q) => q.limit), l.fetched]),
      [[1, [10000], 50]],
    );
  });

  // Second review of #24: an imported audit log's replay (the cache listed once and never
  // resized) drew "fresh window 0 s" against the oldest event's age: eventFreshDuration is 75 s.
  const unresized: Array<[name: string, history: boolean, want: number]> = [
    [
      'a watch cache that listed and never resized: the window its history event names',
      true,
      90000,
    ],
    ['no history event at all: the engine default, 75 s', false, 75000],
  ];
  for (const [name, history, want] of unresized)
    it(`the initial capacity point carries eventFreshDuration: ${name}`, () => {
      const b = new RunModelBuilder(header);
      if (history)
        b.add({
          type: 'watchcache/history',
          at: 10,
          groupResource: gr,
          reason: 'listed',
          dropped: 0,
          resourceVersion: 1201,
          window: { oldestResourceVersion: 1201, size: 0, capacity: 100 },
          eventFreshDuration: 90000,
        });
      b.addMetrics({
        kind: 'metrics',
        scope: 'resource',
        at: 20,
        samples: { 'watch_cache_capacity{group="",resource="pods"}': 100 },
        text: '',
      });
      const c = b.finish().capacity;
      assert.deepStrictEqual(
        c.map((p) => [p.capacity, p.change, p.eventFreshDurationMs]),
        [[100, 'initial', want]],
      );
    });

  it("capacity points start from the first change's old capacity", () => {
    const b = new RunModelBuilder(header);
    b.add({
      type: 'watchcache/capacity',
      at: 500,
      groupResource: gr,
      from: 100,
      to: 200,
      reason: 'increase',
      oldestEventAgeMs: 400,
      comparedEventAgeMs: 400,
      eventFreshDuration: 75000,
    });
    b.add({
      type: 'watchcache/capacity',
      at: 90000,
      groupResource: gr,
      from: 200,
      to: 100,
      reason: 'decrease',
      oldestEventAgeMs: 90000,
      comparedEventAgeMs: 76000,
      eventFreshDuration: 75000,
    });
    const c = b.finish().capacity;
    assert.deepStrictEqual(
      c.map((p) => [p.capacity, p.change]),
      [
        [100, 'initial'],
        [200, 'grow'],
        [100, 'shrink'],
      ],
    );
    assert.match(c[2].reason, /a quarter from the newest \(76 s\) is older than the 75 s window/);
  });

  it('selectorFromIdentifier reads the labels and fields of a watcher identifier', () => {
    const cases: Array<[string, string]> = [
      ['key: "/pods", labels: "", fields: ""', ''],
      ['key: "/pods/ns", labels: "a=b", fields: "spec.nodeName=n"', 'a=b,spec.nodeName=n'],
      ['key: "/pods", labels: "x in (\\"q\\")", fields: ""', 'x in (\\"q\\")'],
      ['garbage', ''],
    ];
    for (const [id, want] of cases) assert.strictEqual(selectorFromIdentifier(id), want, id);
  });
});
