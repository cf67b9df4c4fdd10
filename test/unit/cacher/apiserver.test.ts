// Tests for src/engine/apiserver.ts, the composition root: one resource over the in-memory etcd,
// with ports of the storage-level watch tests the cacher runs in upstream's cacher_test.go
// (RunTestOptionalWatchBookmarksWithCorrectResourceVersion, RunTestWatchDispatchBookmarkEvents,
// TestEmptyWatchEventCache) plus consistent reads, paging, serialization and determinism.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { EventHub, RecordingSink, type EngineEvent } from '../../../src/engine/inspect/events';
import { makePod, type KubeObject } from '../../../src/engine/storage/objects';
import { StatusError, type Status } from '../../../src/engine/storage/errors';
import { contentTypeJSON, contentTypeProtobuf } from '../../../src/engine/cacher/object-encoders';
import type { WatchContentType } from '../../../src/engine/clients/watch-client';
import {
  createResource,
  type CreateResourceOptions,
  type Resource,
} from '../../../src/engine/apiserver';

async function started(
  o: Partial<CreateResourceOptions> = {},
  before?: (r: Resource) => Promise<void>,
): Promise<{ r: Resource; clock: FakeClock }> {
  const clock = (o.clock as FakeClock | undefined) ?? new FakeClock(0);
  const r = createResource({ clock, rand: new SeededRandom(42), ...o });
  if (before) await before(r);
  r.start();
  await r.waitReady();
  await r.step(20);
  return { r, clock };
}

function sample(r: Resource, name: string): number | undefined {
  return r.metrics.samples()[name];
}

describe('createResource (the composition root)', () => {
  it('lists etcd into the cache at start, serves lists and gets, and records the cacher metrics', async () => {
    const { r } = await started({}, async (res) => {
      for (const n of ['a', 'b']) await res.createPod({ name: n, namespace: 'ns' });
    });
    assert.strictEqual(r.watchCache.resourceVersion, r.etcd.currentRevision());
    await r.createPod({ name: 'c', namespace: 'ns' });
    await r.settle();
    const list = await r.list({ namespace: 'ns' });
    assert.deepStrictEqual(
      list.items.map((i) => i.metadata.name),
      ['a', 'b', 'c'],
    );
    assert.strictEqual(list.resourceVersion, String(r.etcd.currentRevision()));
    assert.strictEqual((await r.get('ns', 'c', '0'))?.metadata.name, 'c', 'RV "0": from the cache');
    assert.strictEqual((await r.get('ns', 'c'))?.metadata.name, 'c', 'RV "": from etcd');
    const gr = '{group="",resource="pods"}';
    assert.strictEqual(sample(r, `apiserver_watch_cache_initializations_total${gr}`), 1);
    assert.strictEqual(sample(r, `apiserver_watch_cache_events_received_total${gr}`), 1);
    assert.strictEqual(
      sample(r, `apiserver_watch_cache_events_dispatched_total${gr}`),
      2,
      "the event and the reflector's RV update",
    );
    assert.strictEqual(sample(r, `watch_cache_capacity${gr}`), 100);
    assert.strictEqual(
      sample(r, `apiserver_watch_cache_resource_version${gr}`),
      r.etcd.currentRevision(),
    );
    assert.strictEqual(
      sample(
        r,
        `apiserver_watch_cache_consistent_read_total{fallback="false",group="",resource="pods",success="true"}`,
      ),
      1,
    );
    assert.strictEqual(
      sample(r, `apiserver_cache_list_total{group="",index="",resource="pods"}`),
      1,
    );
    r.stop();
  });

  it('pages the cache list and continues from the token (limit ignored for RV "0")', async () => {
    const { r } = await started({}, async (res) => {
      for (const n of ['a', 'b', 'c', 'd']) await res.createPod({ name: n, namespace: 'ns' });
    });
    const rv = String(r.etcd.currentRevision());
    const p1 = await r.list({ namespace: 'ns', limit: 3 });
    assert.deepStrictEqual(
      [p1.items.map((i) => i.metadata.name), p1.resourceVersion, p1.remainingItemCount],
      [['a', 'b', 'c'], rv, 1],
    );
    const p2 = await r.list({ namespace: 'ns', limit: 3, continue: p1.continue });
    assert.deepStrictEqual(
      [p2.items.map((i) => i.metadata.name), p2.continue, p2.resourceVersion],
      [['d'], undefined, rv],
    );
    const all = await r.list({ namespace: 'ns', limit: 1, resourceVersion: '0' });
    assert.deepStrictEqual([all.items.length, all.continue], [4, undefined]);
    r.stop();
  });

  // #24 third review (F7): the Lists tab said a limit=100 page of 300 cached pods evaluated 300;
  // Cacher.GetList stops trying the selector once the page is full.
  it("a cache list's event counts the objects the selector was tried on, up to a full page", async () => {
    const insp = new RecordingSink();
    const { r } = await started({ eventSink: insp }, async (res) => {
      for (const n of ['a', 'b', 'c', 'd', 'e']) await res.createPod({ name: n, namespace: 'ns' });
    });
    const p1 = await r.list({ namespace: 'ns', limit: 2 });
    await r.list({ namespace: 'ns', limit: 2, continue: p1.continue });
    await r.list({ namespace: 'ns' });
    assert.deepStrictEqual(
      insp.ofType('cacher/list').map((e) => [e.fetched, e.evaluated, e.returned]),
      [
        [5, 2, 2],
        [3, 2, 2],
        [5, 5, 5],
      ],
    );
    r.stop();
  });

  it('the reflector lists etcd in pages of 10000', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock(0) });
    for (let i = 0; i < 10001; i++) {
      const name = `p${String(i).padStart(5, '0')}`;
      etcd.put(`/registry/pods/ns/${name}`, JSON.stringify(makePod({ name, namespace: 'ns' })));
    }
    const clock = new FakeClock(0);
    const r = createResource({ clock, rand: new SeededRandom(1), etcd, recordEtcdRequests: true });
    r.start();
    await r.waitReady();
    const ranges = (r.recorder?.requests ?? []).filter(
      (q) => q.op === 'range' && q.key.startsWith('/registry/pods/') && q.rangeEnd !== '',
    );
    assert.deepStrictEqual(
      ranges.map((q) => [q.limit, q.kvs]),
      [
        [10000, 10000],
        [10000, 1],
      ],
    );
    assert.strictEqual(r.watchCache.store.length, 10001);
    r.stop();
  });

  it('TestEmptyWatchEventCache: a watch below the list RV fails with 410, at or above it waits', async () => {
    const { r } = await started({}, async (res) => {
      for (let i = 0; i < 5; i++) await res.createPod({ name: `foo-${i}`, namespace: 'test-ns' });
    });
    const lastRV = r.etcd.currentRevision();
    const cases: Array<{ name: string; rv: number; wantError: boolean }> = [
      { name: 'RV-1', rv: lastRV - 1, wantError: true },
      { name: 'RV', rv: lastRV, wantError: false },
      { name: 'RV+1', rv: lastRV + 1, wantError: false },
    ];
    for (const c of cases) {
      const w = await r.watch({ namespace: 'test-ns', resourceVersion: String(c.rv) });
      await r.step(1000);
      if (c.wantError) {
        assert.deepStrictEqual(
          w.client.events.map((e) => [e.type, (e.object as unknown as Status).code]),
          [['ERROR', 410]],
          c.name,
        );
        assert.strictEqual(w.client.closeReason, 'resultClosed', c.name);
      } else {
        assert.deepStrictEqual(w.client.events, [], c.name);
        w.client.disconnect();
      }
    }
    r.stop();
  });

  it('TestWatchDispatchBookmarkEvents: the pre-timeout bookmark only with allowWatchBookmarks', async () => {
    for (const [i, allow] of [false, true].entries()) {
      const { r } = await started();
      const stored = await r.createPod({ name: 'foo', namespace: 'test-ns' });
      const w = await r.watch({
        namespace: 'test-ns',
        name: 'foo',
        resourceVersion: stored.metadata.resourceVersion,
        allowWatchBookmarks: allow,
        timeoutSeconds: 3,
      });
      await r.createPod({ name: 'foo', namespace: `other-ns-${i}` });
      await r.step(3000);
      const types = w.client.events.map((e) => e.type);
      assert.deepStrictEqual(types, allow ? ['BOOKMARK'] : [], `allowWatchBookmarks=${allow}`);
      if (allow)
        assert.ok(
          w.client.events[0].at <= 1300 + 20,
          `the bookmark comes ~2s before the 3s deadline (at ${w.client.events[0].at})`,
        );
      assert.ok(w.client.closed, 'closed at its timeout');
      r.stop();
    }
  });

  it('TestWatchBookmarksWithCorrectResourceVersion: bookmarks never go back, events always move forward', async () => {
    const { r } = await started({ cache: { bookmarkFrequency: 1000 } });
    const startRV = (await r.list({})).resourceVersion;
    const w = await r.watch({
      namespace: 'test-ns',
      resourceVersion: startRV,
      allowWatchBookmarks: true,
      timeoutSeconds: 3,
    });
    for (let i = 0; i < 100; i++) {
      await r.createPod({ name: `foo-${i}`, namespace: 'test-ns' });
      await r.step(10);
    }
    await r.step(3000);
    assert.ok(w.client.closed);
    let bookmarkReceived = false;
    let last = 0;
    for (const e of w.client.events) {
      const rv = Number(e.resourceVersion);
      if (e.type === 'BOOKMARK') {
        bookmarkReceived = true;
        assert.ok(rv >= last, `bookmark ${rv} below observed ${last}`);
      } else {
        assert.ok(rv > last, `event ${rv} not after ${last}`);
      }
      last = rv;
    }
    assert.ok(bookmarkReceived, 'a bookmark event was received');
    assert.strictEqual(w.client.events.filter((e) => e.type === 'ADDED').length, 100);
    r.stop();
  });

  it("a consistent list waits for etcd's revision, moved by another resource, via progress requests", async () => {
    const clock = new FakeClock(0);
    const etcd = new MemoryEtcd({ clock });
    const insp = new RecordingSink();
    const { r } = await started({ clock, etcd, eventSink: insp });
    const cms = createResource({
      clock,
      rand: new SeededRandom(2),
      etcd,
      groupResource: { group: '', resource: 'configmaps' },
    });
    await r.createPod({ name: 'a', namespace: 'ns' });
    for (let i = 0; i < 3; i++)
      await cms.create({ metadata: { name: `cm-${i}`, namespace: 'ns' } });
    await r.step(200);
    assert.ok(
      r.watchCache.resourceVersion < etcd.currentRevision(),
      'the pods cache lags the global revision',
    );
    const list = await r.list({ namespace: 'ns' });
    assert.strictEqual(list.resourceVersion, String(etcd.currentRevision()));
    assert.ok(insp.ofType('cacher/progress-request').length >= 1, 'progress was requested');
    const starts = insp.ofType('watchcache/wait-start');
    assert.strictEqual(starts.length, 1, 'one freshness wait started');
    const ends = insp
      .ofType('watchcache/wait')
      .filter((w) => w.at === starts[0].at && w.resourceVersion === starts[0].resourceVersion);
    assert.deepStrictEqual(
      ends.map((w) => w.outcome),
      ['caught-up'],
    );
    assert.strictEqual(
      sample(
        r,
        'apiserver_watch_cache_consistent_read_total{fallback="false",group="",resource="pods",success="true"}',
      ),
      1,
    );
    r.stop();
  });

  it('a consistent list falls back to etcd when the cache cannot catch up within 3s', async () => {
    const clock = new FakeClock(0);
    const etcd = new MemoryEtcd({ clock });
    const { r } = await started({ clock, etcd, gates: { ConsistentListFromCache: true } });
    const cms = createResource({
      clock,
      rand: new SeededRandom(2),
      etcd,
      groupResource: { group: '', resource: 'configmaps' },
    });
    await cms.create({ metadata: { name: 'cm', namespace: 'ns' } });
    // Nobody asks etcd for progress: the cache cannot catch up, 3s later the list goes to etcd.
    r.cacher.progressRequester.stop();
    const start = clock.now();
    const p = r.list({ namespace: 'ns' });
    await r.step(3100);
    const list = await p;
    assert.ok(clock.now() - start >= 3000);
    assert.strictEqual(list.resourceVersion, String(etcd.currentRevision()));
    assert.strictEqual(
      sample(
        r,
        'apiserver_watch_cache_consistent_read_total{fallback="true",group="",resource="pods",success="true"}',
      ),
      1,
    );
    r.stop();
  });

  it('watch timeouts: timeoutSeconds, else random in [minRequestTimeout, 2·minRequestTimeout)', async () => {
    const { r, clock } = await started({ minRequestTimeoutSeconds: 60 });
    const a = await r.watch({ namespace: 'ns', resourceVersion: '0', timeoutSeconds: 5 });
    assert.strictEqual(a.timeoutMs, 5000);
    assert.strictEqual(a.ctx.deadline, clock.now() + 5000);
    const timeouts: number[] = [];
    for (let i = 0; i < 20; i++)
      timeouts.push((await r.watch({ namespace: 'ns', resourceVersion: '0' })).timeoutMs);
    assert.ok(
      timeouts.every((t) => t >= 60_000 && t < 120_000),
      JSON.stringify(timeouts),
    );
    await r.step(6000);
    assert.ok(a.client.closed, 'closed after 5s');
    await r.step(120_000);
    assert.ok(
      r.openedWatches().every((w) => w.client.closed),
      'every watch ended by 2·minRequestTimeout',
    );
    assert.strictEqual(r.cacher.watcherCount(), 0);
    r.stop();
  });

  it('WatchList defaulting: an RV "" watch becomes a consistent watch-list', async () => {
    const { r } = await started({}, async (res) => {
      await res.createPod({ name: 'a', namespace: 'ns' });
    });
    const w = await r.watch({ namespace: 'ns', allowWatchBookmarks: true });
    assert.deepStrictEqual(
      [w.options.sendInitialEvents, w.options.resourceVersionMatch],
      [true, 'NotOlderThan'],
    );
    await r.step(10);
    assert.deepStrictEqual(
      w.client.events.map((e) => [
        e.type,
        e.object.metadata.name ?? '',
        e.object.metadata.annotations?.['k8s.io/initial-events-end'] ?? '',
      ]),
      [
        ['ADDED', 'a', ''],
        ['BOOKMARK', '', 'true'],
      ],
    );
    const plain = await r.watch({ namespace: 'ns', applyDefaults: false });
    assert.strictEqual(plain.options.sendInitialEvents, undefined);
    r.stop();
  });

  it('a stalled client is terminated (apiserver_terminated_watchers_total), a fast one is not', async () => {
    const insp = new RecordingSink();
    const { r } = await started({ eventSink: insp });
    const stalled = await r.watch({
      namespace: 'ns',
      resourceVersion: String(r.etcd.currentRevision()),
      readRate: { kind: 'stalled' },
    });
    const fast = await r.watch({
      namespace: 'ns',
      resourceVersion: String(r.etcd.currentRevision()),
    });
    for (let i = 0; i < 40; i++) await r.createPod({ name: `p${i}`, namespace: 'ns' });
    await r.step(1000);
    assert.strictEqual(
      sample(r, 'apiserver_terminated_watchers_total{group="",resource="pods"}'),
      1,
    );
    assert.deepStrictEqual(
      insp.ofType('watcher/terminated').map((t) => [t.watcherId, t.graceful]),
      [[stalled.watcherId, false]],
    );
    assert.strictEqual(fast.client.events.length, 40);
    assert.strictEqual(fast.client.closed, false);
    r.stop();
  });

  it('a watch-list watcher terminated after its awaited bookmark was queued drains gracefully', async () => {
    const insp = new RecordingSink();
    const { r } = await started({ eventSink: insp }, async (res) => {
      for (let i = 0; i < 30; i++)
        await res.createPod({ name: `init-${String(i).padStart(2, '0')}`, namespace: 'ns' });
    });
    await r.step(3000); // the dispatch budget refills to its cap
    const w = await r.watch({
      namespace: 'ns',
      allowWatchBookmarks: true,
      readRate: { kind: 'stalled' },
    });
    await r.step(1500); // a bookmark tick queues the awaited bookmark: WaitingForBookmark -> BookmarkReceived
    assert.deepStrictEqual(
      insp
        .ofType('watcher/state')
        .filter((s) => s.watcherId === w.watcherId)
        .map((s) => s.to),
      ['BookmarkReceived'],
    );
    for (let i = 0; i < 30; i++) await r.createPod({ name: `live-${i}`, namespace: 'ns' });
    await r.step(1000);
    assert.deepStrictEqual(
      insp.ofType('watcher/terminated').map((t) => [t.watcherId, t.graceful]),
      [[w.watcherId, true]],
    );
    w.client.setReadRate({ kind: 'fast' });
    await r.step(100);
    const ev = w.client.events;
    const ends = ev.filter(
      (e) => e.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true',
    );
    assert.strictEqual(ends.length, 1, 'the client still gets the initial-events-end bookmark');
    assert.strictEqual(
      ev.slice(0, 30).every((e) => e.type === 'ADDED'),
      true,
    );
    assert.strictEqual(ev[30].type, 'BOOKMARK');
    assert.ok(ev.length > 31, 'and the events buffered before the termination');
    assert.strictEqual(w.client.closeReason, 'resultClosed');
    r.stop();
  });

  it("the compactor drops snapshots below etcd's compaction: exact lists there go to etcd (410)", async () => {
    const insp = new RecordingSink();
    const { r } = await started({ eventSink: insp });
    await r.createPod({ name: 'a', namespace: 'ns' });
    const old = String(r.etcd.currentRevision());
    await r.createPod({ name: 'b', namespace: 'ns' });
    await r.settle();
    const before = await r.list({
      namespace: 'ns',
      resourceVersion: old,
      resourceVersionMatch: 'Exact',
    });
    assert.deepStrictEqual(
      [before.items.map((i) => i.metadata.name), before.resourceVersion],
      [['a'], old],
      'served from a snapshot',
    );
    await r.compact();
    await r.step(15_000);
    insp.clear();
    await assert.rejects(
      r.list({ namespace: 'ns', resourceVersion: old, resourceVersionMatch: 'Exact' }),
      (e: unknown) => e instanceof StatusError && e.status.code === 410,
    );
    assert.deepStrictEqual(
      insp.ofType('delegator/decision').map((d) => [d.rule, d.target]),
      [['no-snapshot', 'etcd']],
    );
    r.stop();
  });

  it('encodes each dispatched object once per content type, however many clients read it', async () => {
    const insp = new RecordingSink();
    const { r } = await started({ eventSink: insp });
    const rv = String(r.etcd.currentRevision());
    const types: WatchContentType[] = [
      contentTypeJSON,
      contentTypeJSON,
      contentTypeJSON,
      contentTypeProtobuf,
      contentTypeProtobuf,
    ];
    const ws = [];
    for (const ct of types)
      ws.push(await r.watch({ namespace: 'ns', resourceVersion: rv, contentType: ct }));
    for (let i = 0; i < 3; i++) await r.createPod({ name: `p${i}`, namespace: 'ns' });
    await r.step(10);
    r.flushEvents();
    const ser = insp.ofType('serialization/encode');
    assert.strictEqual(ser.length, 6, 'three events x two identifiers');
    for (const s of ser) {
      const json = s.identifier.includes('"json');
      assert.deepStrictEqual(
        [s.encodes, s.hits],
        json ? [1, 2] : [1, 1],
        `${s.resourceVersion} ${s.identifier}`,
      );
    }
    assert.ok(ws.every((w) => w.client.bytesEncoded > 0));
    r.stop();
  });

  it('nothing is built for a hub nobody listens to', async () => {
    const hub = new EventHub();
    const { r } = await started({ eventSink: hub });
    let built = 0;
    const orig = hub.emit.bind(hub);
    hub.emit = (e: EngineEvent) => {
      built++;
      orig(e);
    };
    const w = await r.watch({
      namespace: 'ns',
      resourceVersion: String(r.etcd.currentRevision()),
      allowWatchBookmarks: true,
      contentType: contentTypeJSON,
    });
    for (let i = 0; i < 5; i++) await r.createPod({ name: `p${i}`, namespace: 'ns' });
    await r.step(65_000);
    r.flushEvents();
    assert.strictEqual(built, 0);
    assert.ok(w.client.events.length >= 6);
    r.stop();
  });

  it('rejects what upstream answers with an HTTP error: bad options, a not-ready cache', async () => {
    const clock = new FakeClock(0);
    const r = createResource({ clock, rand: new SeededRandom(1) });
    await assert.rejects(
      r.watch({ namespace: 'ns', resourceVersion: '0' }),
      (e: unknown) => e instanceof StatusError && e.status.code === 429,
    );
    r.start();
    await r.waitReady();
    await assert.rejects(
      r.watch({ namespace: 'ns', labelSelector: '!!' }),
      (e: unknown) => e instanceof StatusError && e.status.code === 400,
    );
    await assert.rejects(
      r.list({ namespace: 'ns', resourceVersion: 'x' }),
      (e: unknown) => e instanceof StatusError && e.status.code === 400,
    );
    r.stop();
  });

  it('is deterministic: the same seed gives the same inspector events', async () => {
    const run = async (): Promise<string> => {
      const insp = new RecordingSink();
      const clock = new FakeClock(0);
      const r = createResource({
        clock,
        rand: new SeededRandom(99),
        eventSink: insp,
        cache: { bookmarkFrequency: 2000 },
      });
      r.start();
      await r.waitReady();
      const rv = String(r.etcd.currentRevision());
      await r.watch({
        namespace: 'default',
        resourceVersion: rv,
        allowWatchBookmarks: true,
        readRate: { kind: 'slow', eventsPerSecond: 20 },
      });
      await r.watch({
        allowWatchBookmarks: true,
        labelSelector: 'app=web',
        contentType: contentTypeProtobuf,
      });
      for (const pod of r.pods.take(30)) {
        await r.create(pod);
        await r.step(37);
      }
      await r.step(5000);
      r.flushEvents();
      r.stop();
      return JSON.stringify(insp.events);
    };
    const a = await run();
    const b = await run();
    assert.ok(a.length > 1000);
    assert.strictEqual(a, b);
  });
});

describe('the unresponsive watcher log line (cache_watcher.go add closeFunc)', () => {
  it("names the group-resource and the watcher's identifier with the prepared key, as upstream's format", async () => {
    const cases: Array<{
      name: string;
      watch: { namespace?: string; name?: string; labelSelector?: string };
      want: string;
    }> = [
      {
        name: 'a namespace: the recursive key gets its trailing /',
        watch: { namespace: 'ns' },
        want: 'key: "/pods/ns/", labels: "", fields: ""',
      },
      {
        name: 'all namespaces, a label selector',
        watch: { labelSelector: 'app=web' },
        want: 'key: "/pods/", labels: "app=web", fields: ""',
      },
      {
        name: 'one object: not recursive, no /',
        watch: { namespace: 'ns', name: 'p' },
        want: 'key: "/pods/ns/p", labels: "", fields: "metadata.name=p"',
      },
    ];
    for (const c of cases) {
      const lines: string[] = [];
      const { r } = await started({ log: (m) => lines.push(m) });
      const w = await r.watch({
        ...c.watch,
        resourceVersion: String(r.etcd.currentRevision()),
        readRate: { kind: 'stalled' },
      });
      // A stalled client: the result channel, then the input fill up, then add times out.
      await r.createPod({ name: 'p', namespace: 'ns', labels: { app: 'web' } });
      for (let i = 0; i < 25 && w.client.closeReason === undefined; i++) {
        await r.setLabels('ns', 'p', { app: 'web', i: String(i) });
        await r.step(200);
      }
      const forcing = lines.filter((l) => l.startsWith('Forcing'));
      assert.deepStrictEqual(
        forcing,
        [
          `Forcing pods watcher close due to unresponsiveness: ${c.want}. len(c.input) = 10, len(c.result) = 10, graceful = false`,
        ],
        c.name,
      );
      r.stop();
    }
  });
});

// store.go (release-1.36) ListPredicate and WatchPredicate: a field selector that names one object
// (MatchesSingle) reads that object's key alone, Recursive: false, where KeyFunc can build the key.
describe('a predicate naming one object reads its key alone (registry ListPredicate, WatchPredicate)', () => {
  const cases: {
    name: string;
    namespaced: boolean;
    namespace?: string;
    fieldSelector: string;
    key: string;
    recursive: boolean;
  }[] = [
    {
      name: 'namespaced, in a namespace: NamespaceKeyFunc',
      namespaced: true,
      namespace: 'ns',
      fieldSelector: 'metadata.name=web-0',
      key: '/pods/ns/web-0',
      recursive: false,
    },
    {
      name: 'namespaced, all namespaces: NamespaceKeyFunc fails, the collection',
      namespaced: true,
      fieldSelector: 'metadata.name=web-0',
      key: '/pods',
      recursive: true,
    },
    {
      name: 'cluster-scoped: NoNamespaceKeyFunc',
      namespaced: false,
      fieldSelector: 'metadata.name=web-0',
      key: '/pods/web-0',
      recursive: false,
    },
    {
      name: 'a name that is not a path segment: KeyFunc fails, the collection',
      namespaced: true,
      namespace: 'ns',
      fieldSelector: 'metadata.name=..',
      key: '/pods/ns',
      recursive: true,
    },
    {
      name: 'metadata.name!=: not a single object',
      namespaced: true,
      namespace: 'ns',
      fieldSelector: 'metadata.name!=web-0',
      key: '/pods/ns',
      recursive: true,
    },
  ];
  for (const c of cases) {
    it(`LIST, ${c.name}`, async () => {
      const insp = new RecordingSink();
      const { r } = await started({ namespaced: c.namespaced, eventSink: insp });
      insp.clear();
      await r.list({
        namespace: c.namespace,
        fieldSelector: c.fieldSelector,
        resourceVersion: String(r.etcd.currentRevision()),
        resourceVersionMatch: 'Exact',
      });
      const [d] = insp.ofType('delegator/decision');
      assert.deepStrictEqual(
        { key: d.key, recursive: d.recursive },
        { key: c.key, recursive: c.recursive },
        c.name,
      );
      // ShouldDelegateExactRV: every non-recursive exact read goes to etcd.
      assert.strictEqual(d.target, c.recursive ? 'cache' : 'etcd', c.name);
      r.stop();
    });
    it(`WATCH, ${c.name}`, async () => {
      const insp = new RecordingSink();
      const { r } = await started({ namespaced: c.namespaced, eventSink: insp });
      insp.clear();
      const w = await r.watch({
        namespace: c.namespace,
        fieldSelector: c.fieldSelector,
        resourceVersion: '0',
      });
      assert.strictEqual(w.options.recursive, c.recursive, c.name);
      const [e] = insp.ofType('cacher/watch');
      assert.strictEqual(e.key, c.key, c.name);
      r.stop();
    });
  }
});

// kube-apiserver DefaultWatchCacheSizes sets events to 0: pkg/server/options/etcd.go gives the
// registry generic.UndecoratedStorage, so the etcd3 store serves every LIST, GET and WATCH.
describe('a resource without a watch cache (UndecoratedStorage)', () => {
  const events = { group: '', resource: 'events' };
  const event = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'ns' },
  });
  it('LISTs from etcd, honouring the limit of an RV "0" list; no delegator, no cacher', async () => {
    const insp = new RecordingSink();
    const { r } = await started({ groupResource: events, watchCache: false, eventSink: insp });
    for (const n of ['a', 'b', 'c']) await r.create(event(n));
    insp.clear();
    const list = await r.list({ namespace: 'ns', resourceVersion: '0', limit: 2 });
    assert.deepStrictEqual(
      list.items.map((i) => i.metadata.name),
      ['a', 'b'],
    );
    assert.ok(list.continue, 'a continue token: etcd honoured the limit');
    assert.strictEqual((await r.get('ns', 'c', '0'))?.metadata.name, 'c');
    assert.deepStrictEqual(insp.ofType('delegator/decision'), []);
    assert.deepStrictEqual(insp.ofType('cacher/list'), []);
    assert.deepStrictEqual(insp.ofType('cacher/reflector'), [], 'no cacher lists etcd');
    assert.strictEqual(insp.ofType('list/done').length, 1);
    r.stop();
  });
  it('WATCHes etcd: the events after the RV, ended by the request deadline', async () => {
    const insp = new RecordingSink();
    const { r } = await started({ groupResource: events, watchCache: false, eventSink: insp });
    await r.create(event('a'));
    const rv = String(r.etcd.currentRevision());
    const w = await r.watch({ namespace: 'ns', resourceVersion: rv, timeoutSeconds: 5 });
    await r.create(event('b'));
    await r.step(100);
    assert.deepStrictEqual(
      w.client.events.map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED b'],
    );
    assert.ok(insp.ofType('etcd/watch').some((e) => e.phase === 'watching'));
    assert.deepStrictEqual(insp.ofType('cacher/watch'), []);
    await r.step(5000);
    assert.ok(w.client.closed, 'closed at timeoutSeconds');
    r.stop();
  });
});
