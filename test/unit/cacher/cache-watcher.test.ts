// Tests for src/engine/cacher/cache-watcher.ts: ports k8s.io/apiserver pkg/storage/cacher/
// cache_watcher_test.go (release-1.36) with a FakeClock instead of goroutines and sleeps, plus
// tables for nextBookmarkTime, convertToWatchEvent, the process RV rule and add's timeout.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import {
  defaultBookmarkFrequency,
  newTimeBucketWatchers,
  zeroTime,
} from '../../../src/engine/cacher/bookmark-buckets';
import { CachingObject, newCachingObject } from '../../../src/engine/cacher/caching-object';
import {
  CacheWatcher,
  CacheWatcherState,
  emptyFunc,
  newCacheWatcher,
} from '../../../src/engine/cacher/cache-watcher';
import type { CacheWatcherEvent } from '../../../src/engine/cacher/cache-watcher-report';
import {
  filterWithAttrsAndPrefixFunction,
  type FilterWithAttrsFunc,
} from '../../../src/engine/cacher/filter-with-attrs';
import {
  annotateInitialEventsEndBookmark,
  initialEventsAnnotationKey,
} from '../../../src/engine/cacher/initial-events-end-bookmark';
import type { WatchEvent, WatchObject } from '../../../src/engine/cacher/watch';
import { ChannelTimer } from '../../../src/engine/cacher/channel';
import type {
  WatchCacheEvent,
  WatchCacheEventType,
} from '../../../src/engine/cacher/watch-cache-event';
import {
  CacheIntervalInvalidatedError,
  newCacheInterval,
  newCacheIntervalFromStore,
  type WatchCacheInterval,
} from '../../../src/engine/cacher/watch-cache-interval';
import type { StoreElement } from '../../../src/engine/cacher/watch-cache-store';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { profile136 } from '../../../src/engine/features';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';

const podsGR = { group: '', resource: 'pods' };

const pods = { group: '', resource: 'pods' };
const everything: FilterWithAttrsFunc = () => true;
const epoch = 1_700_000_000_000;

/** &v1.Pod{ObjectMeta: …}: only the metadata matters to the watcher. */
function pod(meta: KubeObject['metadata']): KubeObject {
  return { metadata: meta };
}

function event(
  type: WatchCacheEventType,
  object: WatchObject | undefined,
  resourceVersion: number,
  extra: Partial<WatchCacheEvent<WatchObject>> = {},
): WatchCacheEvent<WatchObject> {
  return {
    type,
    object,
    objLabels: {},
    objFields: {},
    key: '/pods/ns/p',
    resourceVersion,
    recordTime: 0,
    ...extra,
  };
}

/** makeWatchCacheEvent: ADDED pod-<rv> at rv. */
function makeWatchCacheEvent(rv: number): WatchCacheEvent<WatchObject> {
  return event('ADDED', pod({ name: `pod-${rv}`, resourceVersion: String(rv) }), rv);
}

/** intervalFromEvents (watch_cache_interval_test.go). */
function intervalFromEvents(
  events: WatchCacheEvent<WatchObject>[],
): WatchCacheInterval<WatchObject> {
  return newCacheInterval<WatchObject>(
    0,
    events.length,
    (i) => (events.length === 0 ? undefined : events[i]),
    () => true,
    0,
  );
}

function plain(o: WatchObject): KubeObject {
  return o instanceof CachingObject ? o.getObject() : o;
}

/** What a reader gets from the result channel right now: events until it would block, and whether it is closed. */
function readAvailable(w: CacheWatcher): {
  events: Array<{ type: string; object: KubeObject }>;
  closed: boolean;
} {
  const events: Array<{ type: string; object: KubeObject }> = [];
  for (;;) {
    const r = w.resultChan().tryRecv();
    if (r === undefined) return { events, closed: false };
    if (!r.ok) return { events, closed: true };
    const e = r.value as WatchEvent;
    events.push({ type: e.type, object: plain(e.object) });
  }
}

/** A forget like the tests' ones: counts calls and stops the watcher as forgetWatcher does. */
function countingForget(get: () => CacheWatcher): {
  forget: (drain: boolean) => void;
  drains: boolean[];
} {
  const drains: boolean[] = [];
  return {
    drains,
    forget: (drain: boolean) => {
      drains.push(drain);
      const w = get();
      w.setDrainInputBufferLocked(drain);
      w.stopLocked();
    },
  };
}

describe('cacheWatcher (cache_watcher.go)', () => {
  it('TestCacheWatcherCleanupNotBlockedByResult: Stop ends the task although nobody reads the result', async () => {
    const f = countingForget(() => w);
    const initEvents = [event('ADDED', pod({}), 0), event('ADDED', pod({}), 0)];
    // Result channel of size 0: the first send blocks.
    const w = newCacheWatcher(0, everything, f.forget, epoch, false, pods, '');
    const done = w.processInterval(intervalFromEvents(initEvents), 0);
    w.stop();
    await done;
    assert.strictEqual(f.drains.length, 2, 'forget() called twice: by Stop and by processInterval');
    assert.deepStrictEqual(readAvailable(w), { events: [], closed: true });
  });

  it('TestCacheWatcherHandlesFiltering', () => {
    const host: FilterWithAttrsFunc = (_k, _l, fields) => fields['spec.nodeName'] === 'host';
    const rv = (n: number) => pod({ resourceVersion: String(n) });
    const on = (node: string) => ({ 'spec.nodeName': node });
    const cases: Array<{
      name: string;
      events: Array<{ type: WatchCacheEventType; prev?: string; obj: string }>;
      expected: Array<[string, number]>;
    }> = [
      {
        name: 'starting with the filter, then deleted by it, then re-added',
        events: [
          { type: 'ADDED', obj: 'host' },
          { type: 'MODIFIED', prev: 'host', obj: '' },
          { type: 'MODIFIED', prev: '', obj: 'host' },
        ],
        expected: [
          ['ADDED', 1],
          ['DELETED', 2],
          ['ADDED', 3],
        ],
      },
      {
        name: 'ignoring changes before the filter matches, then added, modified, deleted',
        events: [
          { type: 'ADDED', obj: '' },
          { type: 'MODIFIED', prev: '', obj: '' },
          { type: 'MODIFIED', prev: '', obj: 'host' },
          { type: 'MODIFIED', prev: 'host', obj: 'host' },
          { type: 'MODIFIED', prev: 'host', obj: '' },
          { type: 'MODIFIED', prev: '', obj: '' },
        ],
        expected: [
          ['ADDED', 3],
          ['MODIFIED', 4],
          ['DELETED', 5],
        ],
      },
    ];
    for (const c of cases) {
      const events = c.events.map((e, j) =>
        event(e.type, rv(j + 1), j + 1, {
          objFields: on(e.obj),
          ...(e.prev !== undefined ? { prevObject: rv(j), prevObjFields: on(e.prev) } : {}),
        }),
      );
      const w = newCacheWatcher(0, host, emptyFunc, epoch, false, pods, '');
      void w.processInterval(intervalFromEvents(events), 0);
      const got: Array<[string, number]> = [];
      for (let j = 0; j < c.expected.length; j++) {
        const r = w.resultChan().tryRecv();
        assert.ok(r?.ok, `${c.name}: event ${j} expected`);
        const e = r.value as WatchEvent;
        got.push([e.type, Number(plain(e.object).metadata.resourceVersion)]);
      }
      // The DELETED object is the previous one (rv j) rewritten to the event's rv.
      assert.deepStrictEqual(got, c.expected, c.name);
      assert.strictEqual(w.resultChan().tryRecv(), undefined, `${c.name}: no excess event`);
      w.setDrainInputBufferLocked(false);
      w.stopLocked();
    }
  });

  it('TestCacheWatcherStoppedInAnotherGoroutine (deterministic): Stop never blocks; a started task delivers buffered input', async () => {
    for (let i = 0; i < 3; i++) {
      let signalled = 0;
      const w: CacheWatcher = newCacheWatcher(
        0,
        everything,
        (drain) => {
          w.setDrainInputBufferLocked(drain);
          w.stopLocked();
          signalled++;
        },
        epoch,
        false,
        pods,
        '',
      );
      w.stop();
      assert.strictEqual(signalled, 1, `iteration ${i}: stop returned after forget`);
      assert.ok(w.stopped && w.isDone, `iteration ${i}: stopped with done closed`);
    }
    const deadline = epoch + 3_600_000;
    for (let i = 0; i < 3; i++) {
      const w = newCacheWatcher(2, everything, emptyFunc, deadline, false, pods, '');
      assert.ok(w.input.trySend(event('ADDED', pod({}), i + 1)), `iteration ${i}: input accepts`);
      const ctx = new AbortController();
      const done = w.processInterval(intervalFromEvents([]), 0, ctx.signal);
      const r = w.resultChan().tryRecv();
      assert.ok(r?.ok, `iteration ${i}: expected an event on the result channel`);
      w.setDrainInputBufferLocked(false);
      w.stopLocked();
      await done;
      ctx.abort();
    }
  });

  it('TestResourceVersionAfterInitEvents: the buffered event at rv 9 is not delivered after init events at rv 10', async () => {
    const numObjects = 10;
    const elems: StoreElement<WatchObject>[] = [];
    for (let i = 0; i < numObjects; i++) {
      elems.push({
        key: `/pods/ns/pod-${i}`,
        object: pod({ name: `pod-${i}`, namespace: 'ns', resourceVersion: String(i) }),
        labels: {},
        fields: {},
      });
    }
    const store = { getByKey: (k: string) => elems.find((e) => e.key === k), list: () => elems };
    const lastEvent = () =>
      event('ADDED', pod({ name: 'pod-9', namespace: 'ns', resourceVersion: '9' }), numObjects - 1);

    // Faithful port: the test stops the watcher (done closed, no draining) before processing, so
    // nothing at all is delivered; upstream's ten reads return the zero value of a closed channel.
    {
      const clock = new FakeClock(epoch);
      const w = newCacheWatcher(
        numObjects + 1,
        everything,
        emptyFunc,
        epoch + 60_000,
        true,
        pods,
        '',
      );
      const wci = newCacheIntervalFromStore<WatchObject>(numObjects, store, '', false);
      assert.strictEqual(
        await w.add(lastEvent(), new ChannelTimer(clock, 1000)),
        true,
        'failed to add event',
      );
      w.stopLocked();
      await w.processInterval(wci, numObjects - 1);
      for (let i = 0; i < numObjects; i++)
        assert.ok(w.resultChan().tryRecv() !== undefined, `read ${i} does not block`);
      assert.strictEqual(
        w.resultChan().tryRecv()?.ok,
        false,
        'no event after the init events: channel closed',
      );
      assert.strictEqual(w.counts.delivered, 0, 'done was closed before processing');
      assert.strictEqual(w.counts.skippedOld, 1, 'rv 9 <= 10: skipped by the RV rule');
    }
    // The intent, without the stop: ten init events (rv 10), then nothing.
    {
      const clock = new FakeClock(epoch);
      const w = newCacheWatcher(
        numObjects + 1,
        everything,
        emptyFunc,
        epoch + 60_000,
        true,
        pods,
        '',
      );
      const wci = newCacheIntervalFromStore<WatchObject>(numObjects, store, '', false);
      assert.strictEqual(await w.add(lastEvent(), new ChannelTimer(clock, 1000)), true);
      void w.processInterval(wci, numObjects - 1);
      const got = readAvailable(w);
      assert.deepStrictEqual(
        got.events.map((e) => e.object.metadata.name),
        elems.map((e) => (e.object instanceof CachingObject ? '' : e.object.metadata.name)),
      );
      assert.strictEqual(got.closed, false);
      w.stopLocked();
      assert.deepStrictEqual(readAvailable(w), { events: [], closed: true });
    }
  });

  it('TestTimeBucketWatchersBasic (with real cacheWatchers)', () => {
    const clock = new FakeClock(epoch);
    const newWatcher = (deadline: number) => {
      const w = newCacheWatcher(0, everything, emptyFunc, deadline, true, pods, '');
      w.setBookmarkAfterResourceVersion(0);
      return w;
    };
    const watchers = newTimeBucketWatchers<CacheWatcher>(clock, defaultBookmarkFrequency);
    const now = clock.now();
    for (const d of [10_000, 20_000, 20_000]) watchers.addWatcherThreadUnsafe(newWatcher(now + d));
    assert.strictEqual(watchers.watchersBuckets.size, 2, 'unexpected bucket size');
    const steps = [
      { name: 'nothing due', stepMs: 0, want: [] as number[] },
      { name: 'after 10s', stepMs: 10_000, want: [1] },
      { name: 'again', stepMs: 0, want: [] },
      { name: 'after 22s', stepMs: 12_000, want: [2] },
    ];
    for (const s of steps) {
      clock.step(s.stepMs);
      assert.deepStrictEqual(
        watchers.popExpiredWatchersThreadUnsafe().map((g) => g.length),
        s.want,
        s.name,
      );
    }
  });

  it('TestCacheWatcherDraining: a draining stop still delivers the buffered event, then closes', async () => {
    const clock = new FakeClock(epoch);
    const f = countingForget(() => w);
    const w = newCacheWatcher(1, everything, f.forget, epoch, true, pods, '');
    const done = w.processInterval(
      intervalFromEvents([makeWatchCacheEvent(5), makeWatchCacheEvent(6)]),
      1,
    );
    assert.strictEqual(
      await w.add(makeWatchCacheEvent(7), new ChannelTimer(clock, 1000)),
      true,
      'failed adding an event',
    );
    f.forget(true); // drain the watcher
    const got = readAvailable(w);
    assert.deepStrictEqual(
      got.events.map((e) => e.object.metadata.resourceVersion),
      ['5', '6', '7'],
    );
    assert.strictEqual(got.closed, true);
    await done;
    assert.deepStrictEqual(
      f.drains,
      [true, false],
      'forget() twice: drain, then Stop() from processInterval',
    );
  });

  it('TestCacheWatcherDrainingRequestedButNotDrained: the client stops instead of reading', async () => {
    const clock = new FakeClock(epoch);
    const f = countingForget(() => w);
    const w = newCacheWatcher(1, everything, f.forget, epoch, true, pods, '');
    const done = w.processInterval(
      intervalFromEvents([makeWatchCacheEvent(5), makeWatchCacheEvent(6)]),
      1,
    );
    assert.strictEqual(await w.add(makeWatchCacheEvent(7), new ChannelTimer(clock, 1000)), true);
    f.forget(true);
    w.stop(); // client disconnected, timeout expired or ctx was closed
    await done;
    assert.deepStrictEqual(f.drains, [true, false, false], 'forget() three times');
    assert.strictEqual(
      w.counts.droppedStopped,
      2,
      'rv 6 (blocked) and rv 7 (buffered) dropped once done closed',
    );
  });

  it('TestCacheWatcherDrainingNoBookmarkAfterResourceVersionReceived: the timeout terminates without draining', async () => {
    const clock = new FakeClock(epoch);
    const f = countingForget(() => w);
    const w = newCacheWatcher(0, everything, f.forget, epoch, true, pods, '');
    w.setBookmarkAfterResourceVersion(10);
    const done = w.processInterval(
      intervalFromEvents([event('ADDED', pod({}), 0), event('ADDED', pod({}), 0)]),
      0,
    );
    // One event read: the task is now blocked sending the second one.
    assert.ok(w.resultChan().tryRecv()?.ok);
    const added = w.add(event('ADDED', pod({}), 0), new ChannelTimer(clock, 10));
    await clock.stepAsync(9);
    assert.deepStrictEqual(f.drains, [], 'still waiting for room before the timer fires');
    await clock.stepAsync(1);
    assert.strictEqual(await added, false, 'expected the add method to fail');
    await done;
    assert.deepStrictEqual(
      f.drains,
      [false, false],
      'forget() twice, never with drain: from add(), then from Stop()',
    );
    assert.ok(w.stopped, 'expected the watcher to be stopped');
    assert.strictEqual(w.counts.terminated, 1);
  });

  it('TestCacheWatcherDrainingNoBookmarkAfterResourceVersionSent: drains up to the awaited bookmark', async () => {
    const clock = new FakeClock(epoch);
    const makePod = (rv: number) =>
      pod({ name: `pod-${rv}`, namespace: 'ns', resourceVersion: String(rv), annotations: {} });
    const f = countingForget(() => w);
    const w = newCacheWatcher(2, everything, f.forget, epoch, true, pods, '');
    w.setBookmarkAfterResourceVersion(10);
    const done = w.processInterval(
      intervalFromEvents([event('ADDED', makePod(1), 0), event('ADDED', makePod(2), 0)]),
      0,
    );

    // Three fit although chanSize is 2: the task took pod-5 and is blocked sending it.
    assert.strictEqual(
      await w.add(event('ADDED', makePod(5), 5), new ChannelTimer(clock, 1000)),
      true,
      'add pod-5',
    );
    assert.strictEqual(
      w.nonblockingAdd(event('BOOKMARK', pod({ resourceVersion: '10' }), 10)),
      true,
      'bookmark rv 10',
    );
    assert.strictEqual(w.state, CacheWatcherState.BookmarkReceived);
    assert.strictEqual(
      await w.add(event('ADDED', makePod(15), 15), new ChannelTimer(clock, 1000)),
      true,
      'add pod-15',
    );
    const last = w.add(event('ADDED', makePod(20), 20), new ChannelTimer(clock, 1000));
    await clock.stepAsync(1000);
    assert.strictEqual(await last, false, 'expected the add method to fail');
    assert.deepStrictEqual(f.drains, [true], 'forget() once, from add(), graceful');
    assert.ok(w.stopped, 'expected the watcher to be stopped');

    const got = readAvailable(w);
    assert.deepStrictEqual(
      got.events,
      [
        { type: 'ADDED', object: makePod(1) },
        { type: 'ADDED', object: makePod(2) },
        { type: 'ADDED', object: makePod(5) },
        {
          type: 'BOOKMARK',
          object: pod({
            resourceVersion: '10',
            annotations: { [initialEventsAnnotationKey]: 'true' },
          }),
        },
        { type: 'ADDED', object: makePod(15) },
      ],
      'strict order',
    );
    assert.strictEqual(got.closed, true);
    await done;
    assert.deepStrictEqual(
      f.drains,
      [true, false],
      'the second forget() is Stop() from processInterval',
    );
    assert.strictEqual(w.state, CacheWatcherState.BookmarkSent);
  });

  it('TestBookmarkAfterResourceVersionWatchers (with a real cacheWatcher)', () => {
    const clock = new FakeClock(epoch);
    const target = newTimeBucketWatchers<CacheWatcher>(clock, defaultBookmarkFrequency);
    const w = newCacheWatcher(0, everything, emptyFunc, clock.now() + 120_000, true, pods, '1');
    w.setBookmarkAfterResourceVersion(10);
    assert.ok(target.addWatcherThreadUnsafe(w));
    const steps: Array<{ name: string; stepMs: number; want: number[]; then?: () => void }> = [
      { name: 'waiting for its bookmark: expired at once', stepMs: 0, want: [1] },
      { name: 'after 1s still expired', stepMs: 1_000, want: [1] },
      {
        name: 'after 29s still expired',
        stepMs: 29_000,
        want: [1],
        then: () => w.markBookmarkAfterRvAsReceived(event('BOOKMARK', pod({}), 10)),
      },
      { name: 'received: not expired 30s later', stepMs: 30_000, want: [] },
      { name: 'received: expired 60s later', stepMs: 30_000, want: [1] },
    ];
    for (const s of steps) {
      clock.step(s.stepMs);
      const got = target.popExpiredWatchersThreadUnsafe();
      assert.deepStrictEqual(
        got.map((g) => g.length),
        s.want,
        s.name,
      );
      s.then?.();
      if (got.length) assert.ok(target.addWatcherThreadUnsafe(got[0][0]), `${s.name}: re-adding`);
    }
  });
});

describe('cacheWatcher.nextBookmarkTime', () => {
  it('schedules at once while waiting, else min(now+frequency, deadline-2s), none past that', () => {
    const now = 100_000;
    const cases: Array<{
      name: string;
      bookmarkAfter: number;
      received?: boolean;
      deadline: number;
      want: { time: number; ok: boolean };
    }> = [
      {
        name: 'waiting for the bookmark: immediately',
        bookmarkAfter: 10,
        deadline: now + 1_000,
        want: { time: zeroTime, ok: true },
      },
      {
        name: 'no deadline: a minute from now',
        bookmarkAfter: 0,
        deadline: zeroTime,
        want: { time: now + 60_000, ok: true },
      },
      {
        name: 'far deadline: a minute from now',
        bookmarkAfter: 0,
        deadline: now + 3_600_000,
        want: { time: now + 60_000, ok: true },
      },
      {
        name: 'deadline within the minute: 2s before it',
        bookmarkAfter: 0,
        deadline: now + 30_000,
        want: { time: now + 28_000, ok: true },
      },
      {
        name: 'deadline exactly 2s away: now',
        bookmarkAfter: 0,
        deadline: now + 2_000,
        want: { time: now, ok: true },
      },
      {
        name: 'deadline 1.5s away: no more bookmarks',
        bookmarkAfter: 0,
        deadline: now + 1_500,
        want: { time: zeroTime, ok: false },
      },
      {
        name: 'received (not sent) counts as received',
        bookmarkAfter: 10,
        received: true,
        deadline: now + 30_000,
        want: { time: now + 28_000, ok: true },
      },
    ];
    for (const c of cases) {
      const w = newCacheWatcher(1, everything, emptyFunc, c.deadline, true, pods, c.name);
      w.setBookmarkAfterResourceVersion(c.bookmarkAfter);
      if (c.received) w.markBookmarkAfterRvAsReceived(event('BOOKMARK', pod({}), c.bookmarkAfter));
      // Go's (time.Time, bool): NaN stands for ok=false.
      const t = w.nextBookmarkTime(now, defaultBookmarkFrequency);
      const got = Number.isNaN(t) ? { time: zeroTime, ok: false } : { time: t, ok: true };
      assert.deepStrictEqual(got, c.want, c.name);
    }
  });
});

describe('cacheWatcher bookmark state machine', () => {
  it('moves Waiting -> Received only on an accepted bookmark at or above the floor, and -> Sent once delivered', () => {
    const cases: Array<{
      name: string;
      floor: number;
      adds: Array<[WatchCacheEventType, number, boolean]>;
      want: number;
      dropped?: number;
    }> = [
      {
        name: 'rv 0: no bookmark awaited, already Sent',
        floor: 0,
        adds: [],
        want: CacheWatcherState.BookmarkSent,
      },
      {
        name: 'floor 10: a bookmark at 9 is dropped, still waiting',
        floor: 10,
        adds: [['BOOKMARK', 9, false]],
        want: CacheWatcherState.WaitingForBookmark,
        dropped: 1,
      },
      {
        name: 'floor 10: an ADDED does not count',
        floor: 10,
        adds: [['ADDED', 12, true]],
        want: CacheWatcherState.WaitingForBookmark,
      },
      {
        name: 'floor 10: a bookmark at 10 is received',
        floor: 10,
        adds: [['BOOKMARK', 10, true]],
        want: CacheWatcherState.BookmarkReceived,
      },
      {
        name: 'floor 10: a bookmark at 11 is received',
        floor: 10,
        adds: [['BOOKMARK', 11, true]],
        want: CacheWatcherState.BookmarkReceived,
      },
      {
        name: 'floor 10: the buffer is full, the bookmark is dropped',
        floor: 10,
        adds: [
          ['ADDED', 1, true],
          ['BOOKMARK', 10, false],
        ],
        want: CacheWatcherState.WaitingForBookmark,
      },
    ];
    for (const c of cases) {
      const w = newCacheWatcher(1, everything, emptyFunc, zeroTime, true, pods, c.name);
      w.setBookmarkAfterResourceVersion(c.floor);
      for (const [type, rv, ok] of c.adds)
        assert.strictEqual(
          w.nonblockingAdd(event(type, pod({ resourceVersion: String(rv) }), rv)),
          ok,
          `${c.name}: add ${type} ${rv}`,
        );
      assert.strictEqual(w.state, c.want, c.name);
      assert.strictEqual(
        w.counts.bookmarksDropped.belowBookmarkAfterResourceVersion,
        c.dropped ?? 0,
        `${c.name}: drops below the floor`,
      );
    }
  });

  it('process sends a bookmark newer than the last RV, or equal to it until the awaited one was sent', () => {
    const cases: Array<{
      name: string;
      floor: number;
      startRv: number;
      bookmarks: number[];
      want: Array<[string, boolean]>;
    }> = [
      // process() never raises its rv for live events: the dispatcher only sends increasing RVs.
      {
        name: 'plain watch: not newer than the start rv is dropped; live events do not raise it',
        floor: 0,
        startRv: 5,
        bookmarks: [4, 5, 6, 6],
        want: [
          ['6', false],
          ['6', false],
        ],
      },
      {
        name: 'watch-list: the bookmark at the start rv is the awaited one (annotated)',
        floor: 5,
        startRv: 5,
        bookmarks: [5, 5, 7],
        want: [
          ['5', true],
          ['7', false],
        ],
      },
      {
        name: 'watch-list: first bookmark above rv is annotated, later ones not',
        floor: 5,
        startRv: 5,
        bookmarks: [8, 9],
        want: [
          ['8', true],
          ['9', false],
        ],
      },
    ];
    for (const c of cases) {
      const w = newCacheWatcher(10, everything, emptyFunc, zeroTime, true, pods, c.name);
      w.setBookmarkAfterResourceVersion(c.floor);
      void w.processInterval(intervalFromEvents([]), c.startRv);
      for (const rv of c.bookmarks)
        w.nonblockingAdd(event('BOOKMARK', pod({ resourceVersion: String(rv) }), rv));
      const got = readAvailable(w).events.map((e) => [
        e.object.metadata.resourceVersion,
        e.object.metadata.annotations?.[initialEventsAnnotationKey] === 'true',
      ]);
      assert.deepStrictEqual(got, c.want, c.name);
      assert.strictEqual(
        w.counts.bookmarksDropped.notNewer,
        c.bookmarks.length - c.want.length,
        `${c.name}: dropped as not newer`,
      );
    }
  });

  it("sends the interval's initial-events-end bookmark right after the initial events (TestInitialEventsEndBookmark, watcher part)", () => {
    for (const withBookmark of [true, false]) {
      const name = withBookmark
        ? 'sendInitialEvents + allowWatchBookmarks'
        : 'no end bookmark requested';
      const w = newCacheWatcher(10, everything, emptyFunc, zeroTime, true, pods, name);
      w.setBookmarkAfterResourceVersion(withBookmark ? 103 : 0);
      const interval = intervalFromEvents([101, 102, 103].map(makeWatchCacheEvent));
      if (withBookmark)
        interval.initialEventsEndBookmark = event('BOOKMARK', pod({ resourceVersion: '103' }), 103);
      void w.processInterval(interval, 100);
      const got = readAvailable(w).events.map(
        (e) =>
          `${e.type} ${e.object.metadata.resourceVersion} ${JSON.stringify(e.object.metadata.annotations ?? {})}`,
      );
      const want = ['ADDED 101 {}', 'ADDED 102 {}', 'ADDED 103 {}'];
      if (withBookmark) want.push('BOOKMARK 103 {"k8s.io/initial-events-end":"true"}');
      assert.deepStrictEqual(got, want, name);
      assert.strictEqual(w.state, CacheWatcherState.BookmarkSent, `${name}: state`);
    }
  });
});

describe('cacheWatcher.convertToWatchEvent', () => {
  it('turns selector transitions and deletes into ADDED / MODIFIED / DELETED (RV rewritten), bookmarks into copies', () => {
    const host: FilterWithAttrsFunc = (_k, _l, fields) => fields.node === 'host';
    const cases: Array<{
      name: string;
      e: WatchCacheEvent<WatchObject>;
      sent?: boolean;
      want: [string, KubeObject] | undefined;
    }> = [
      {
        name: 'matches now, did not: ADDED',
        e: event('MODIFIED', pod({ resourceVersion: '2' }), 2, {
          objFields: { node: 'host' },
          prevObject: pod({ resourceVersion: '1' }),
          prevObjFields: { node: 'x' },
        }),
        want: ['ADDED', pod({ resourceVersion: '2' })],
      },
      {
        name: 'matches both: MODIFIED',
        e: event('MODIFIED', pod({ resourceVersion: '2' }), 2, {
          objFields: { node: 'host' },
          prevObject: pod({ resourceVersion: '1' }),
          prevObjFields: { node: 'host' },
        }),
        want: ['MODIFIED', pod({ resourceVersion: '2' })],
      },
      {
        name: 'stops matching: DELETED with the previous object at the event rv',
        e: event('MODIFIED', pod({ name: 'new', resourceVersion: '2' }), 2, {
          objFields: { node: 'x' },
          prevObject: pod({ name: 'old', resourceVersion: '1' }),
          prevObjFields: { node: 'host' },
        }),
        want: ['DELETED', pod({ name: 'old', resourceVersion: '2' })],
      },
      {
        name: 'matches neither: nothing',
        e: event('MODIFIED', pod({}), 2, {
          objFields: { node: 'x' },
          prevObject: pod({}),
          prevObjFields: { node: 'y' },
        }),
        want: undefined,
      },
      {
        name: 'a real delete of a matching object: DELETED at the delete rv',
        e: event('DELETED', pod({ resourceVersion: '7' }), 9, {
          objFields: { node: 'host' },
          prevObject: pod({ resourceVersion: '7' }),
          prevObjFields: { node: 'host' },
        }),
        want: ['DELETED', pod({ resourceVersion: '9' })],
      },
      {
        name: 'a delete of a non-matching object: nothing',
        e: event('DELETED', pod({}), 9, { prevObject: pod({}), prevObjFields: { node: 'x' } }),
        want: undefined,
      },
      {
        name: 'bookmark before the awaited one was sent: annotated',
        e: event('BOOKMARK', pod({ resourceVersion: '5', annotations: { a: 'b' } }), 5),
        want: [
          'BOOKMARK',
          pod({
            resourceVersion: '5',
            annotations: { a: 'b', [initialEventsAnnotationKey]: 'true' },
          }),
        ],
      },
      {
        name: 'bookmark after: a plain copy',
        sent: true,
        e: event('BOOKMARK', pod({ resourceVersion: '5' }), 5),
        want: ['BOOKMARK', pod({ resourceVersion: '5' })],
      },
    ];
    for (const c of cases) {
      const w = newCacheWatcher(1, host, emptyFunc, zeroTime, true, pods, c.name);
      w.setBookmarkAfterResourceVersion(c.sent ? 0 : 5);
      const before = JSON.stringify(c.e);
      const got = w.convertToWatchEvent(c.e);
      assert.deepStrictEqual(got && [got.type, plain(got.object)], c.want, c.name);
      assert.strictEqual(JSON.stringify(c.e), before, `${c.name}: the cache event is not modified`);
    }
  });

  it('hands out CachingObjects without copying, and rewrites a DELETED one lazily', () => {
    const w = newCacheWatcher(1, everything, emptyFunc, zeroTime, false, pods, '');
    const shared = newCachingObject(pod({ resourceVersion: '3' }));
    const added = w.convertToWatchEvent(event('ADDED', shared, 3));
    assert.strictEqual(
      added?.object,
      shared,
      'same instance: serializations are shared by all watchers',
    );
    const prev = newCachingObject(pod({ resourceVersion: '3' }));
    const del = w.convertToWatchEvent(event('DELETED', undefined, 4, { prevObject: prev }));
    assert.strictEqual(del?.object, prev);
    assert.strictEqual(prev.getResourceVersion(), '4');
    assert.strictEqual(prev.deepCopied, true, 'the change made the lazy copy');
  });

  it('annotateInitialEventsEndBookmark keeps ObjectMeta field order and sorted annotations, and rejects objects without metadata', () => {
    const o: KubeObject = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { resourceVersion: '12', labels: { a: 'b' } },
    };
    annotateInitialEventsEndBookmark(o);
    assert.strictEqual(
      JSON.stringify(o),
      '{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12","labels":{"a":"b"},"annotations":{"k8s.io/initial-events-end":"true"}}}',
    );
    const o2: KubeObject = { metadata: { annotations: { z: '1', a: '2' } } };
    annotateInitialEventsEndBookmark(o2);
    assert.deepStrictEqual(Object.keys(o2.metadata.annotations ?? {}), [
      'a',
      'k8s.io/initial-events-end',
      'z',
    ]);
    assert.throws(
      () => annotateInitialEventsEndBookmark({} as KubeObject),
      /does not implement the Object interfaces/,
    );
  });

  it('filterWithAttrsAndPrefixFunction: key under the watched prefix at a path boundary, then the selectors', () => {
    const pred = SelectionPredicate.from({ label: 'app=web' });
    const filter = filterWithAttrsAndPrefixFunction('/pods/ns', pred, podsGR, profile136.gates);
    const cases: Array<{
      name: string;
      key: string;
      labels: Record<string, string>;
      want: boolean;
    }> = [
      { name: 'in the namespace, matching', key: '/pods/ns/a', labels: { app: 'web' }, want: true },
      {
        name: 'in the namespace, not matching',
        key: '/pods/ns/a',
        labels: { app: 'db' },
        want: false,
      },
      {
        name: 'a namespace sharing the prefix',
        key: '/pods/ns2/a',
        labels: { app: 'web' },
        want: false,
      },
    ];
    for (const c of cases)
      assert.strictEqual(filter(c.key, c.labels, {}, undefined), c.want, c.name);
  });
});

describe('cacheWatcher.add and the processInterval task', () => {
  it('add waits in virtual time for room, on a timer shared by the blocked watchers (dispatchEvent)', async () => {
    const clock = new FakeClock(epoch);
    const forgotten: Array<[string, boolean]> = [];
    const mk = (id: string) => {
      const w = newCacheWatcher(
        1,
        everything,
        (d) => forgotten.push([id, d]),
        zeroTime,
        false,
        pods,
        id,
        { id },
      );
      void w.processInterval(intervalFromEvents([]), 0);
      // Fill the pipeline: the task holds one event blocked on result, input holds one.
      assert.ok(
        w.nonblockingAdd(makeWatchCacheEvent(1)) &&
          w.nonblockingAdd(makeWatchCacheEvent(2)) &&
          w.nonblockingAdd(makeWatchCacheEvent(3)),
        `${id}: fill`,
      );
      assert.strictEqual(w.nonblockingAdd(makeWatchCacheEvent(4)), false, `${id}: full`);
      return w;
    };
    const a = mk('a');
    const b = mk('b');
    // The reader of `a` takes one event after 40ms: room appears in a's input.
    clock.afterFunc(40, () => a.resultChan().tryRecv());
    const timer = new ChannelTimer(clock, 100); // budget 100ms
    let t: ChannelTimer | null = timer;
    const results: Array<[string, boolean, number]> = [];
    const dispatch = (async () => {
      for (const w of [a, b]) {
        const ok = await w.add(makeWatchCacheEvent(4), t);
        if (!ok) t = null;
        results.push([String(w.id), ok, clock.now() - epoch]);
      }
    })();
    await clock.stepAsync(200);
    await dispatch;
    assert.deepStrictEqual(
      results,
      [
        ['a', true, 40],
        ['b', false, 100],
      ],
      'a unblocked at 40ms, b terminated when the timer fired',
    );
    assert.deepStrictEqual(
      forgotten,
      [['b', false]],
      'only b forgotten, not gracefully (no bookmark awaited)',
    );
    assert.strictEqual(a.counts.queued, 4);
    // A nil timer terminates at once; a tick nobody received yet counts as fired.
    const c = mk('c');
    assert.strictEqual(await c.add(makeWatchCacheEvent(4), null), false, 'nil timer');
    const d = mk('d');
    const fired = new ChannelTimer(clock, 0);
    clock.step(0);
    assert.strictEqual(await d.add(makeWatchCacheEvent(4), fired), false, 'pending tick');
    assert.deepStrictEqual(forgotten.slice(1), [
      ['c', false],
      ['d', false],
    ]);
    assert.strictEqual(c.counts.terminated + d.counts.terminated, 2);
  });

  it('add on a watcher stopped directly (Go would panic) neither terminates it nor reports a fired timer', async () => {
    const clock = new FakeClock(epoch);
    const forgets: boolean[] = [];
    const w = newCacheWatcher(0, everything, (d) => forgets.push(d), zeroTime, false, pods, '');
    w.stopLocked();
    assert.strictEqual(w.nonblockingAdd(makeWatchCacheEvent(1)), false, 'input closed');
    assert.strictEqual(await w.add(makeWatchCacheEvent(1), new ChannelTimer(clock, 100)), true);
    assert.strictEqual(await w.add(makeWatchCacheEvent(2), null), true);
    assert.deepStrictEqual([forgets, w.counts.terminated, w.counts.queued], [[], 0, 0]);
  });

  it('ends on the request context only while waiting for input, never while blocked on the result', async () => {
    const clock = new FakeClock(epoch);
    const stops: boolean[] = [];
    const w = newCacheWatcher(0, everything, (d) => stops.push(d), zeroTime, false, pods, '');
    const ctx = new AbortController();
    clock.afterFunc(1000, () => ctx.abort());
    let exited = false;
    void w.processInterval(intervalFromEvents([makeWatchCacheEvent(1)]), 0, ctx.signal).then(() => {
      exited = true;
    });
    await clock.stepAsync(2000);
    assert.strictEqual(
      exited,
      false,
      'blocked sending rv 1: the context is not part of that select',
    );
    assert.strictEqual(w.resultChan().tryRecv()?.ok, true, 'the reader takes rv 1');
    await clock.stepAsync(0);
    assert.strictEqual(exited, true, 'back in the input select: the ended context wins');
    assert.deepStrictEqual(stops, [false], 'Stop() on exit');
    assert.strictEqual(w.resultChan().tryRecv()?.ok, false, 'result closed');
  });

  it('closes silently when the interval is invalidated', async () => {
    const events: CacheWatcherEvent[] = [];
    const w = newCacheWatcher(5, everything, emptyFunc, zeroTime, false, pods, '', {
      id: 7,
      eventSink: { emit: (e) => events.push(e) },
    });
    let n = 0;
    const interval = newCacheInterval<WatchObject>(
      0,
      300,
      (i) => makeWatchCacheEvent(i + 1),
      () => n++ === 0,
      0,
    );
    const done = w.processInterval(interval, 0);
    const got = readAvailable(w);
    await done;
    assert.strictEqual(got.events.length, 100, 'the first buffer was served');
    assert.strictEqual(got.closed, true);
    assert.ok(
      got.events.every((e) => e.type === 'ADDED'),
      'no ERROR event',
    );
    const closed = events.find((e) => e.type === 'watcher/closed');
    assert.deepStrictEqual(closed && { reason: closed.reason, error: closed.error }, {
      reason: 'intervalInvalidated',
      error: new CacheIntervalInvalidatedError(100).message,
    });
  });

  it('reports its life to the inspector: created, state changes, bookmarks with reasons, termination, close', async () => {
    const clock = new FakeClock(epoch);
    const events: CacheWatcherEvent[] = [];
    const f = countingForget(() => w);
    const w = newCacheWatcher(1, everything, f.forget, epoch + 60_000, true, pods, 'id', {
      id: 1,
      clock,
      eventSink: { emit: (e) => events.push(e) },
    });
    w.setBookmarkAfterResourceVersion(10);
    void w.processInterval(intervalFromEvents([makeWatchCacheEvent(5)]), 5);
    w.nonblockingAdd(event('BOOKMARK', pod({ resourceVersion: '9' }), 9)); // below the floor
    assert.ok(w.nonblockingAdd(makeWatchCacheEvent(8))); // the task takes it and blocks: rv 5 fills result
    assert.ok(w.nonblockingAdd(makeWatchCacheEvent(9))); // fills input
    assert.ok(!w.nonblockingAdd(event('BOOKMARK', pod({ resourceVersion: '10' }), 10))); // input full
    assert.ok(w.resultChan().tryRecv()?.ok); // rv 5 read; rv 8 moves into result, the task blocks on rv 9
    w.nonblockingAdd(event('BOOKMARK', pod({ resourceVersion: '10' }), 10)); // received
    const blocked = w.add(makeWatchCacheEvent(11), new ChannelTimer(clock, 50));
    await clock.stepAsync(50);
    assert.strictEqual(await blocked, false);
    readAvailable(w);
    const summary = events.map((e) => {
      switch (e.type) {
        case 'watcher/state':
          return `state ${e.from}->${e.to}`;
        case 'watcher/bookmark':
          return `bookmark ${e.resourceVersion} ${e.outcome}${e.reason ? ' ' + e.reason : ''}${e.initialEventsEnd ? ' initial-events-end' : ''}`;
        case 'watcher/terminated':
          return `terminated graceful=${e.graceful}`;
        case 'watcher/stopped':
          return `stopped drain=${e.drainInputBuffer}`;
        case 'watcher/closed':
          return `closed ${e.reason}`;
        default:
          return e.type;
      }
    });
    assert.deepStrictEqual(summary, [
      'watcher/created',
      'watcher/live',
      'bookmark 9 dropped belowBookmarkAfterResourceVersion',
      'bookmark 10 dropped inputFull',
      'bookmark 10 queued',
      'state WaitingForBookmark->BookmarkReceived',
      'terminated graceful=true',
      'stopped drain=true',
      'bookmark 10 delivered initial-events-end',
      'state BookmarkReceived->BookmarkSent',
      'closed inputClosed',
    ]);
    assert.ok(
      events.every((e) => e.at >= epoch),
      'timestamped with the clock',
    );
  });
});
