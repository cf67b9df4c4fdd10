// Tests for what watchers share to stay cheap at 100k watchers, and what they must not share: the
// watch event of a dispatched CachingObject and a pure filter's verdict (shared by in-place
// deliveries through a SharedConversion, src/engine/cacher/in-place-delivery.ts), bookmarks (a copy
// per watcher, as upstream), plus what src/engine/cacher/cache-watcher.ts makes on demand (the
// processDone promise, the identifier, the counts) and the environment a cacher's watchers share.
import * as assert from 'assert';
import { zeroTime } from '../../../src/engine/cacher/bookmark-buckets';
import {
  CachingObject,
  newCachingObject,
  setCachingObjects,
  type CachingObjectHooks,
} from '../../../src/engine/cacher/caching-object';
import { CacheWatcher, emptyFunc, newCacheWatcher } from '../../../src/engine/cacher/cache-watcher';
import { watcherIdentifier } from '../../../src/engine/cacher/cacher';
import {
  filterWithAttrsAndPrefixFunction,
  type FilterWithAttrsFunc,
} from '../../../src/engine/cacher/filter-with-attrs';
import {
  InPlaceDelivery,
  SharedConversion,
  type InPlaceClient,
} from '../../../src/engine/cacher/in-place-delivery';
import { HeartbeatCopy } from '../../../src/engine/cacher/heartbeat-copy';
import { initialEventsAnnotationKey } from '../../../src/engine/cacher/initial-events-end-bookmark';
import type { WatchEvent, WatchObject } from '../../../src/engine/cacher/watch';
import type {
  WatchCacheEvent,
  WatchCacheEventType,
} from '../../../src/engine/cacher/watch-cache-event';
import { newCacheInterval } from '../../../src/engine/cacher/watch-cache-interval';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { profile136 } from '../../../src/engine/features';
import type { CacheWatcherEvent } from '../../../src/engine/cacher/cache-watcher-report';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { createResource } from '../../../src/engine/apiserver';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';

const podsGR = { group: '', resource: 'pods' };

const pods = { group: '', resource: 'pods' };

function podObj(name: string, rv: number, labels?: Record<string, string>): KubeObject {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, namespace: 'ns', resourceVersion: String(rv), ...(labels ? { labels } : {}) },
  };
}

function event(
  type: WatchCacheEventType,
  object: WatchObject | undefined,
  rv: number,
  extra: Partial<WatchCacheEvent<WatchObject>> = {},
): WatchCacheEvent<WatchObject> {
  return {
    type,
    object,
    objLabels: {},
    objFields: {},
    key: '/pods/ns/p',
    resourceVersion: rv,
    recordTime: 0,
    ...extra,
  };
}

/** A client that takes every event in place and keeps the watch events it was given. */
class KeepingClient implements InPlaceClient {
  recvParked = false;
  inPlaceSource: { settle(): void } | undefined = undefined;
  readonly directEncoder = undefined;
  readonly directCounts = false;
  constructor(
    private readonly result: { parkRecv(r: KeepingClient): void },
    readonly got: WatchEvent[],
  ) {}
  canAcceptParked(): boolean {
    return true;
  }
  acceptParked(event: WatchEvent): void {
    this.got.push(event);
  }
  onReceive(value: WatchEvent | undefined, ok: boolean): void {
    if (!ok) return;
    this.got.push(value as WatchEvent);
    this.result.parkRecv(this);
  }
  addDirect(): void {
    throw new Error('a keeping client is never counted for');
  }
}

/**
 * A live watcher (started from rv 1, no bookmark awaited) whose client reads `result` at once:
 * through the channel, or (with `shared`) in place, sharing conversions through `shared`.
 */
function live(
  filter: FilterWithAttrsFunc,
  bookmarkAfter = 0,
  shared?: SharedConversion,
  heartbeatCopy?: HeartbeatCopy,
): { w: CacheWatcher; got: WatchEvent[] } {
  const w = newCacheWatcher(10, filter, emptyFunc, zeroTime, true, pods, 'test', {
    heartbeatCopy,
  });
  if (shared !== undefined) new InPlaceDelivery(w, shared);
  w.setBookmarkAfterResourceVersion(bookmarkAfter);
  w.startProcessing(
    newCacheInterval<WatchObject>(
      0,
      0,
      () => undefined,
      () => true,
      1,
    ),
    1,
  );
  const got: WatchEvent[] = [];
  w.result.parkRecv(new KeepingClient(w.result, got));
  return { w, got };
}

describe('cacheWatcher: what watchers share', () => {
  it('in place, a dispatched CachingObject makes one watch event for every watcher with one filter; otherwise each gets its own', () => {
    const all = filterWithAttrsAndPrefixFunction(
      '/pods/',
      SelectionPredicate.from({}),
      podsGR,
      profile136.gates,
    );
    const cases: Array<{
      name: string;
      type: WatchCacheEventType;
      wrap: boolean;
      wantType: string;
      inPlace: boolean;
      shared: boolean;
    }> = [];
    for (const inPlace of [true, false]) {
      for (const [type, wrap] of [
        ['ADDED', true],
        ['MODIFIED', true],
        ['DELETED', true],
        ['ADDED', false],
        ['DELETED', false],
      ] as const) {
        cases.push({
          name: `${type}, ${wrap ? 'CachingObject' : 'plain object (interval events)'}, ${inPlace ? 'in place' : 'through the channels'}`,
          type,
          wrap,
          wantType: type,
          inPlace,
          shared: inPlace && wrap,
        });
      }
    }
    for (const c of cases) {
      const conversion = c.inPlace ? new SharedConversion() : undefined;
      const a = live(all, 0, conversion);
      const b = live(all, 0, conversion);
      const prev = c.type === 'ADDED' ? undefined : podObj('p', 4);
      const e = event(
        c.type,
        podObj('p', 5),
        5,
        prev ? { prevObject: prev, prevObjLabels: {}, prevObjFields: {} } : {},
      );
      if (c.wrap) setCachingObjects(e);
      assert.ok(a.w.nonblockingAdd(e) && b.w.nonblockingAdd(e), `${c.name}: queued`);
      assert.deepStrictEqual([a.got.length, b.got.length], [1, 1], `${c.name}: delivered to both`);
      assert.strictEqual(a.got[0].type, c.wantType, c.name);
      assert.strictEqual(a.got[0] === b.got[0], c.shared, `${c.name}: one event object for both`);
      assert.strictEqual(
        a.got[0].object === b.got[0].object,
        c.wrap,
        `${c.name}: a CachingObject is never copied, a plain object always`,
      );
      const rv = (o: WatchObject): string | undefined =>
        o instanceof CachingObject ? o.getResourceVersion() : o.metadata.resourceVersion;
      assert.deepStrictEqual(
        [rv(a.got[0].object), rv(b.got[0].object)],
        ['5', '5'],
        `${c.name}: at the event's RV`,
      );
    }
  });

  it('a DELETED CachingObject gets its resourceVersion (one lazy copy) once, however many watchers', () => {
    const all = filterWithAttrsAndPrefixFunction(
      '/pods/',
      SelectionPredicate.from({}),
      podsGR,
      profile136.gates,
    );
    for (const conversion of [new SharedConversion(), undefined]) {
      const copies: string[] = [];
      const eventSink: CachingObjectHooks = { deepCopied: (e) => copies.push(e.setter) };
      const ws = [live(all, 0, conversion), live(all, 0, conversion), live(all, 0, conversion)];
      const e = event('DELETED', podObj('p', 4), 9, {
        prevObject: podObj('p', 4),
        prevObjLabels: {},
        prevObjFields: {},
      });
      setCachingObjects(e, { eventSink: eventSink });
      for (const x of ws) x.w.nonblockingAdd(e);
      assert.deepStrictEqual(copies, ['setResourceVersion']);
      assert.deepStrictEqual(
        ws.map((x) => (x.got[0].object as CachingObject).getResourceVersion()),
        ['9', '9', '9'],
      );
    }
  });

  it('in place, a filter is asked once per event by the watchers sharing its conversion; verdicts stay per filter when watchers interleave', () => {
    const calls = { web: 0, db: 0, own: 0 };
    const counting = (label: 'web' | 'db' | 'own', app: string): FilterWithAttrsFunc => {
      const f = filterWithAttrsAndPrefixFunction(
        '/pods/',
        SelectionPredicate.from({ label: `app=${app}` }),
        podsGR,
        profile136.gates,
      );
      return (k, l, fl, o) => {
        calls[label]++;
        return f(k, l, fl, o);
      };
    };
    const web = counting('web', 'web');
    const db = counting('db', 'db');
    const own = counting('own', 'web');
    const webShared = new SharedConversion();
    const dbShared = new SharedConversion();
    const watchers = [
      live(web, 0, webShared),
      live(db, 0, dbShared),
      live(own, 0, new SharedConversion()),
      live(web, 0, webShared),
      live(db, 0, dbShared),
      live(own, 0, new SharedConversion()),
    ];
    for (const [rv, app] of [
      [2, 'web'],
      [3, 'db'],
      [4, 'web'],
    ] as const) {
      const e = event('ADDED', podObj(`p${rv}`, rv), rv, { objLabels: { app } });
      setCachingObjects(e);
      for (const x of watchers) x.w.nonblockingAdd(e);
    }
    assert.deepStrictEqual(
      watchers.map((x) => x.got.map((g) => (g.object as CachingObject).getName())),
      [['p2', 'p4'], ['p3'], ['p2', 'p4'], ['p2', 'p4'], ['p3'], ['p2', 'p4']],
    );
    assert.deepStrictEqual(
      calls,
      { web: 3, db: 3, own: 6 },
      'once per event for a shared conversion, once per watcher for a conversion of its own',
    );
  });

  it("a heartbeat is one copy for all with the cacher's HeartbeatCopy, else a copy each (upstream's DeepCopyObject); the initial-events-end one is its watcher's own", () => {
    const all = filterWithAttrsAndPrefixFunction(
      '/pods/',
      SelectionPredicate.from({}),
      podsGR,
      profile136.gates,
    );
    for (const copy of [new HeartbeatCopy(), undefined]) {
      const name = copy ? 'a HeartbeatCopy' : 'none';
      const a = live(all, 0, undefined, copy);
      const b = live(all, 0, undefined, copy);
      const waiting = live(all, 10, undefined, copy);
      const object: KubeObject = {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: { resourceVersion: '10' },
      };
      const bm = event('BOOKMARK', object, 10, { key: '' });
      for (const x of [a, b, waiting]) assert.ok(x.w.nonblockingAdd(bm), `${name}: queued`);
      const [ea, eb, ew] = [a.got[0], b.got[0], waiting.got[0]];
      assert.strictEqual(ea === eb, copy !== undefined, `${name}: one event for the heartbeats`);
      assert.notStrictEqual(ea.object, object, `${name}: not the dispatcher's object`);
      assert.deepStrictEqual(ea.object, object);
      assert.deepStrictEqual((ew.object as KubeObject).metadata.annotations, {
        [initialEventsAnnotationKey]: 'true',
      });
      assert.strictEqual(
        (ea.object as KubeObject).metadata.annotations,
        undefined,
        `${name}: the annotation does not leak into the heartbeats`,
      );
      assert.strictEqual(object.metadata.annotations, undefined, 'nor into the dispatched object');
      const next = event('BOOKMARK', { ...object, metadata: { resourceVersion: '11' } }, 11, {
        key: '',
      });
      a.w.nonblockingAdd(next);
      assert.notStrictEqual(a.got[1], ea, `${name}: a new bookmark, a new copy`);
    }
  });

  it('processDone is made on demand: undefined before the start, settled whenever asked after the end', async () => {
    const w = newCacheWatcher(1, () => true, emptyFunc, zeroTime, false, pods, 'test');
    w.forget = () => w.stopLocked();
    assert.strictEqual(w.processDone, undefined);
    w.startProcessing(
      newCacheInterval<WatchObject>(
        0,
        0,
        () => undefined,
        () => true,
        0,
      ),
      0,
    );
    const processDone = (x: CacheWatcher): Promise<void> | undefined => x.processDone;
    const early = processDone(w) as Promise<void>;
    assert.ok(early instanceof Promise);
    assert.strictEqual(processDone(w), early, 'the same promise on every read');
    let settled = false;
    void early.then(() => {
      settled = true;
    });
    await Promise.resolve();
    assert.strictEqual(settled, false, 'still running');
    w.stop();
    await early;
    const late = newCacheWatcher(1, () => true, emptyFunc, zeroTime, false, pods, 'test');
    late.forget = () => late.stopLocked();
    late.startProcessing(
      newCacheInterval<WatchObject>(
        0,
        0,
        () => undefined,
        () => true,
        0,
      ),
      0,
    );
    late.stop();
    await late.processDone;
    assert.throws(
      () =>
        late.processInterval(
          newCacheInterval<WatchObject>(
            0,
            0,
            () => undefined,
            () => true,
            0,
          ),
          0,
        ),
      /already being processed/,
    );
  });

  it('an idle watcher makes no counts: the inspector hears it go live with no init events, and the counts come with the first event', () => {
    const events: CacheWatcherEvent[] = [];
    const w = newCacheWatcher(2, () => true, emptyFunc, zeroTime, false, pods, 'test', {
      eventSink: { emit: (e) => events.push(e) },
    });
    w.forget = () => w.stopLocked();
    const countsMade = (): boolean =>
      (w as unknown as { countsValue: unknown }).countsValue !== undefined;
    w.startProcessing(
      newCacheInterval<WatchObject>(
        0,
        0,
        () => undefined,
        () => true,
        0,
      ),
      0,
    );
    const live = events.find((e) => e.type === 'watcher/live');
    assert.deepStrictEqual(live && live.type === 'watcher/live' && live.initEvents, 0);
    assert.strictEqual(countsMade(), false, 'idle: no counts');
    assert.ok(w.nonblockingAdd(event('ADDED', podObj('a', 5), 5)));
    assert.strictEqual(countsMade(), true, 'an event counted');
    assert.strictEqual(w.counts.delivered, 1);
  });

  it("a cacher's watchers share one environment (group-resource, clock, sink, metrics, log, heartbeat copy)", async () => {
    const clock = new FakeClock(0);
    const r = createResource({ clock, rand: new SeededRandom(1) });
    r.start();
    await r.waitReady();
    const rv = String(r.etcd.currentRevision());
    const envOf = async (): Promise<unknown> =>
      ((await r.watch({ resourceVersion: rv })).watcher as unknown as { env: unknown }).env;
    const [a, b] = [await envOf(), await envOf()];
    assert.ok(a !== undefined, 'the watcher has an environment');
    assert.strictEqual(a, b, 'one for both watchers');
    r.stop();
  });

  it('builds its identifier on first read, once; a given string is used as it is', () => {
    const predicate = SelectionPredicate.from({ label: 'app=web', field: 'spec.nodeName=n1' });
    let built = 0;
    const lazy = new CacheWatcher({
      chanSize: 1,
      filter: () => true,
      groupResource: pods,
      identifier: () => {
        built++;
        return watcherIdentifier('/pods/ns/', predicate);
      },
      id: 1,
    });
    assert.strictEqual(built, 0, 'not built for nobody');
    assert.strictEqual(
      lazy.identifier,
      'key: "/pods/ns/", labels: "app=web", fields: "spec.nodeName=n1"',
    );
    assert.strictEqual(lazy.identifier, lazy.identifier);
    assert.strictEqual(built, 1);
    const noId = new CacheWatcher({
      chanSize: 1,
      filter: () => true,
      groupResource: pods,
      identifier: 'mine',
    });
    assert.strictEqual(noId.identifier, 'mine');
    assert.strictEqual(noId.id, 'mine', 'no id: the identifier');
  });

  it('a plain object in an unannotated bookmark is copied, not handed out (CachingObject bookmarks still deep-copy per watcher)', () => {
    const all = filterWithAttrsAndPrefixFunction(
      '/pods/',
      SelectionPredicate.from({}),
      podsGR,
      profile136.gates,
    );
    const a = live(all);
    const b = live(all);
    const co = newCachingObject({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { resourceVersion: '7' },
    });
    const bm = event('BOOKMARK', co, 7, { key: '' });
    a.w.nonblockingAdd(bm);
    b.w.nonblockingAdd(bm);
    assert.notStrictEqual(a.got[0], b.got[0]);
    assert.ok(
      a.got[0].object instanceof CachingObject && a.got[0].object !== co,
      'DeepCopyObject of the caching object',
    );
  });
});
