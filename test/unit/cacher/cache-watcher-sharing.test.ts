// Tests for what src/engine/cacher/cache-watcher.ts shares between watchers to stay cheap at 100k
// watchers, and what it must not share: the watch event of a dispatched CachingObject, a pure
// filter's verdict, a heartbeat bookmark's copy; plus the lazily made processDone promise and
// identifier, and nextBookmarkTimeOrNaN against nextBookmarkTime.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { FakeClock } from '../../../src/engine/clock';
import { zeroTime } from '../../../src/engine/cacher/bookmark-buckets';
import {
  CachingObject,
  newCachingObject,
  setCachingObjects,
  type CachingObjectInspector,
} from '../../../src/engine/cacher/caching-object';
import {
  CacheWatcher,
  emptyFunc,
  filterWithAttrsAndPrefixFunction,
  initialEventsAnnotationKey,
  newCacheWatcher,
  watcherIdentifier,
  type FilterWithAttrsFunc,
  type WatchEvent,
  type WatchObject,
} from '../../../src/engine/cacher/cache-watcher';
import type {
  WatchCacheEvent,
  WatchCacheEventType,
} from '../../../src/engine/cacher/watch-cache-event';
import { newCacheInterval } from '../../../src/engine/cacher/watch-cache-interval';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';

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

/** A live watcher (started from rv 1, no bookmark awaited) with a fast reader draining `result`. */
function live(
  filter: FilterWithAttrsFunc,
  bookmarkAfter = 0,
): { w: CacheWatcher; got: WatchEvent[] } {
  const w = newCacheWatcher(10, filter, emptyFunc, zeroTime, true, pods, 'test');
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
  const read = (): void => {
    w.resultChan().waitRecv((r) => {
      if (!r.ok) return;
      got.push(r.value as WatchEvent);
      read();
    });
  };
  read();
  return { w, got };
}

describe('cacheWatcher: what watchers share', () => {
  it('a dispatched CachingObject makes one watch event for every watcher; plain objects are copied per watcher', () => {
    const all = filterWithAttrsAndPrefixFunction('/pods/', SelectionPredicate.from({}));
    const cases: Array<{
      name: string;
      type: WatchCacheEventType;
      wrap: boolean;
      wantType: string;
      shared: boolean;
    }> = [
      { name: 'ADDED, CachingObject', type: 'ADDED', wrap: true, wantType: 'ADDED', shared: true },
      {
        name: 'MODIFIED, CachingObject',
        type: 'MODIFIED',
        wrap: true,
        wantType: 'MODIFIED',
        shared: true,
      },
      {
        name: 'DELETED, CachingObject',
        type: 'DELETED',
        wrap: true,
        wantType: 'DELETED',
        shared: true,
      },
      {
        name: 'ADDED, plain object (interval events)',
        type: 'ADDED',
        wrap: false,
        wantType: 'ADDED',
        shared: false,
      },
      {
        name: 'DELETED, plain object',
        type: 'DELETED',
        wrap: false,
        wantType: 'DELETED',
        shared: false,
      },
    ];
    for (const c of cases) {
      const a = live(all);
      const b = live(all);
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
    const copies: string[] = [];
    const inspector: CachingObjectInspector = { deepCopied: (e) => copies.push(e.setter) };
    const all = filterWithAttrsAndPrefixFunction('/pods/', SelectionPredicate.from({}));
    const ws = [live(all), live(all), live(all)];
    const e = event('DELETED', podObj('p', 4), 9, {
      prevObject: podObj('p', 4),
      prevObjLabels: {},
      prevObjFields: {},
    });
    setCachingObjects(e, { inspector });
    for (const x of ws) x.w.nonblockingAdd(e);
    assert.deepStrictEqual(copies, ['setResourceVersion']);
    assert.deepStrictEqual(
      ws.map((x) => (x.got[0].object as CachingObject).getResourceVersion()),
      ['9', '9', '9'],
    );
  });

  it('a pure filter is asked once per event, others once per watcher; verdicts stay per filter when watchers interleave', () => {
    let calls = 0;
    const counting: FilterWithAttrsFunc = (_k, labels) => {
      calls++;
      return labels.app === 'web';
    };
    const web = filterWithAttrsAndPrefixFunction(
      '/pods/',
      SelectionPredicate.from({ label: 'app=web' }),
    );
    const db = filterWithAttrsAndPrefixFunction(
      '/pods/',
      SelectionPredicate.from({ label: 'app=db' }),
    );
    const watchers = [live(web), live(db), live(counting), live(web), live(db), live(counting)];
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
    assert.strictEqual(
      calls,
      6,
      'a filter that is not filterWithAttrsAndPrefixFunction is called for every watcher',
    );
  });

  it("a heartbeat is one shared copy; the initial-events-end bookmark is a watcher's own annotated copy", () => {
    const all = filterWithAttrsAndPrefixFunction('/pods/', SelectionPredicate.from({}));
    const a = live(all);
    const b = live(all);
    const waiting = live(all, 10);
    const object: KubeObject = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { resourceVersion: '10' },
    };
    const bm = event('BOOKMARK', object, 10, { key: '' });
    for (const x of [a, b, waiting]) assert.ok(x.w.nonblockingAdd(bm), 'queued');
    const [ea, eb, ew] = [a.got[0], b.got[0], waiting.got[0]];
    assert.strictEqual(ea, eb, 'heartbeats share one event');
    assert.notStrictEqual(ea.object, object, "not the dispatcher's object");
    assert.deepStrictEqual(ea.object, object);
    assert.deepStrictEqual((ew.object as KubeObject).metadata.annotations, {
      [initialEventsAnnotationKey]: 'true',
    });
    assert.strictEqual(
      (ea.object as KubeObject).metadata.annotations,
      undefined,
      'the annotation does not leak into the shared copy',
    );
    assert.strictEqual(object.metadata.annotations, undefined, 'nor into the dispatched object');
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

  it('builds its identifier on first read from the key and selectors; a given identifier wins', () => {
    const predicate = SelectionPredicate.from({ label: 'app=web', field: 'spec.nodeName=n1' });
    const lazy = new CacheWatcher({
      chanSize: 1,
      filter: () => true,
      groupResource: pods,
      identifierSource: { key: '/pods/ns', predicate },
    });
    assert.strictEqual(
      lazy.identifier,
      'key: "/pods/ns", labels: "app=web", fields: "spec.nodeName=n1"',
    );
    assert.strictEqual(lazy.identifier, watcherIdentifier({ key: '/pods/ns', predicate }));
    assert.strictEqual(lazy.id, lazy.identifier, 'no id: the identifier');
    const given = new CacheWatcher({
      chanSize: 1,
      filter: () => true,
      groupResource: pods,
      identifier: 'mine',
      identifierSource: { key: '/x', predicate },
    });
    assert.strictEqual(given.identifier, 'mine');
  });

  it('nextBookmarkTimeOrNaN is nextBookmarkTime as one number (NaN for ok=false)', () => {
    const clock = new FakeClock(0);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 1, max: 120_000 }),
        (bookmarkAfter, received, deadline, now, frequency) => {
          const w = newCacheWatcher(
            10,
            () => true,
            emptyFunc,
            deadline ?? zeroTime,
            true,
            pods,
            'p',
            { clock },
          );
          w.setBookmarkAfterResourceVersion(bookmarkAfter);
          if (received)
            w.markBookmarkAfterRvAsReceived(
              event('BOOKMARK', podObj('b', bookmarkAfter), bookmarkAfter),
            );
          const want = w.nextBookmarkTime(now, frequency);
          const got = w.nextBookmarkTimeOrNaN(now, frequency);
          return want.ok ? got === want.time : Number.isNaN(got);
        },
      ),
    );
  });

  it('a plain object in an unannotated bookmark is copied, not handed out (CachingObject bookmarks still deep-copy per watcher)', () => {
    const all = filterWithAttrsAndPrefixFunction('/pods/', SelectionPredicate.from({}));
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
