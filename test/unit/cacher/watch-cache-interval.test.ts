// Tests for src/engine/cacher/watch-cache-interval.ts, porting k8s.io/apiserver
// pkg/storage/cacher/watch_cache_interval_test.go (release-1.36; TestCacheIntervalFromStoreSorted from master).
import * as assert from 'assert';
import type { WatchCacheEvent } from '../../../src/engine/cacher/watch-cache-event';
import {
  bufferSize,
  CacheIntervalInvalidatedError,
  newCacheInterval,
  newCacheIntervalFromStore,
  WatchCacheIntervalBuffer,
  type WatchCacheInterval,
} from '../../../src/engine/cacher/watch-cache-interval';
import { WatchCacheStore } from '../../../src/engine/cacher/watch-cache-store';
import {
  makeTestPod,
  makeTestStoreElement,
  newTestWatchCache,
  type TestPod,
} from './watch-cache-testing';

type Ev = WatchCacheEvent<TestPod>;

function podEvent(type: Ev['type'], name: string, rv: number): Ev {
  return {
    type,
    object: makeTestPod(name, rv),
    objLabels: {},
    objFields: {},
    key: '',
    resourceVersion: 0,
    recordTime: 0,
  };
}

function intervalFromEvents(events: Ev[]): WatchCacheInterval<TestPod> {
  return newCacheInterval<TestPod>(
    0,
    events.length,
    (i) => (events.length === 0 ? undefined : events[i]),
    () => true,
    0,
  );
}

function bufferFromEvents(events: Ev[]): WatchCacheIntervalBuffer<TestPod> {
  const buffer = new Array<Ev | undefined>(bufferSize);
  events.forEach((e, i) => (buffer[i] = e));
  return new WatchCacheIntervalBuffer<TestPod>(buffer, 0, events.length);
}

function generateEvents(start: number, end: number): Ev[] {
  const events: Ev[] = [];
  for (let i = start; i < end; i++) events.push(podEvent('ADDED', `pod${i}`, i));
  return events;
}

describe('watch cache interval (watch_cache_interval_test.go)', () => {
  it('TestIntervalBufferIsFull', () => {
    const cases = [
      { endIndex: bufferSize - 1, expected: false },
      { endIndex: bufferSize, expected: true },
      { endIndex: bufferSize + 1, expected: true },
    ];
    assert.strictEqual(bufferSize, 100);
    for (const c of cases) {
      assert.strictEqual(
        new WatchCacheIntervalBuffer([], 0, c.endIndex).isFull(),
        c.expected,
        `endIndex ${c.endIndex}`,
      );
    }
  });

  it('TestIntervalBufferIsEmpty', () => {
    const cases = [
      { startIndex: 0, endIndex: 10, expected: false },
      { startIndex: 5, endIndex: 20, expected: false },
      { startIndex: 50, endIndex: 50, expected: true },
    ];
    for (const c of cases) {
      assert.strictEqual(
        new WatchCacheIntervalBuffer([], c.startIndex, c.endIndex).isEmpty(),
        c.expected,
        `(${c.startIndex},${c.endIndex})`,
      );
    }
  });

  it('TestIntervalBufferNext', () => {
    const cases: { name: string; events: Ev[] }[] = [
      {
        name: 'buffer has elements',
        events: [
          podEvent('ADDED', 'pod1', 1),
          podEvent('ADDED', 'pod2', 2),
          podEvent('MODIFIED', 'pod3', 3),
        ],
      },
      { name: 'buffer is empty', events: [] },
    ];
    for (const c of cases) {
      const wcib = bufferFromEvents(c.events);
      for (let i = 0; i < c.events.length; i++) {
        assert.strictEqual(wcib.next(), c.events[i], `${c.name}: event ${i}`);
        assert.strictEqual(
          wcib.buffer[i],
          undefined,
          `${c.name}: slot ${i} dropped once handed out`,
        );
      }
      assert.strictEqual(wcib.next(), undefined, `${c.name}: then nothing`);
    }
  });

  it('TestFillBuffer', () => {
    const cases = [
      { name: 'no events to put in buffer', numEventsToFill: 0 },
      { name: 'less than bufferSize events to put in buffer', numEventsToFill: 5 },
      { name: 'equal to bufferSize events to put in buffer', numEventsToFill: bufferSize },
      { name: 'greater than bufferSize events to put in buffer', numEventsToFill: bufferSize + 5 },
    ];
    for (const c of cases) {
      const events = generateEvents(0, c.numEventsToFill);
      const wci = intervalFromEvents(events);
      for (let i = 0; i < events.length; i++) {
        if (i % bufferSize === 0) wci.fillBuffer();
        assert.strictEqual(wci.buffer.next(), events[i], `${c.name}: event ${i}`);
        if (i % bufferSize === bufferSize - 1) {
          assert.strictEqual(
            wci.buffer.next(),
            undefined,
            `${c.name}: buffer empty after ${i + 1}`,
          );
        }
      }
      assert.strictEqual(wci.buffer.next(), undefined, `${c.name}: empty at the end`);
      wci.fillBuffer();
      assert.strictEqual(
        wci.buffer.next(),
        undefined,
        `${c.name}: a refill after the end gives nothing`,
      );
    }
  });

  it('TestCacheIntervalNextFromWatchCache', () => {
    // Room to fill the interval buffer more than once completely and then some.
    const capacity = 2 * bufferSize + 10;
    const cases = [
      {
        name: 'watchCache empty, eventsAddedToWatchcache = 0',
        eventsAddedToWatchcache: 0,
        intervalStartIndex: 0,
      },
      {
        name: 'watchCache partially propagated, eventsAddedToWatchcache < capacity',
        eventsAddedToWatchcache: bufferSize,
        intervalStartIndex: 0,
      },
      {
        name: 'watchCache partially propagated, intervalStartIndex at some offset',
        eventsAddedToWatchcache: bufferSize,
        intervalStartIndex: 5,
      },
      {
        name: 'watchCache fully propagated, eventsAddedToWatchcache = capacity',
        eventsAddedToWatchcache: capacity,
        intervalStartIndex: 0,
      },
      {
        name: 'watchCache fully propagated, intervalStartIndex at some offset',
        eventsAddedToWatchcache: capacity,
        intervalStartIndex: 5,
      },
      {
        name: 'watchCache over propagated, eventsAddedToWatchcache > capacity',
        eventsAddedToWatchcache: capacity + bufferSize,
        intervalStartIndex: 0,
      },
      {
        name: 'watchCache over propagated, intervalStartIndex at some offset',
        eventsAddedToWatchcache: capacity + bufferSize,
        intervalStartIndex: 5,
      },
    ];
    for (const c of cases) {
      const { wc } = newTestWatchCache(capacity);
      const h = wc.history;
      // All events are fresh (the clock stands still), so past `capacity` the ring doubles, as upstream.
      for (let i = 0; i < c.eventsAddedToWatchcache; i++) wc.add(makeTestPod(`pod${i}`, i));
      const wci = newCacheInterval<TestPod>(
        c.intervalStartIndex,
        h.endIndex,
        (i) => h.cache[i % h.capacity],
        (i) => wc.isIndexValidLocked(i),
        wc.resourceVersion,
      );
      const numExpectedEvents = h.endIndex - c.intervalStartIndex;
      for (let i = 0; i < numExpectedEvents; i++) {
        // Invalidation is only checked when the buffer is refilled: at multiples of bufferSize.
        if (
          c.eventsAddedToWatchcache > 0 &&
          i % bufferSize === 0 &&
          i !== c.eventsAddedToWatchcache
        ) {
          const originalCacheStartIndex = h.startIndex;
          h.startIndex = wci.startIndex + 1;
          assert.throws(
            () => wci.next(),
            CacheIntervalInvalidatedError,
            `${c.name}: invalidated at ${i}`,
          );
          h.startIndex = originalCacheStartIndex;
        }
        assert.strictEqual(
          wci.buffer.isEmpty(),
          i % bufferSize === 0 || i === numExpectedEvents,
          `${c.name}: buffer emptiness at ${i}`,
        );
        const ev = wci.next();
        assert.strictEqual(
          ev,
          h.cache[(c.intervalStartIndex + i) % h.capacity],
          `${c.name}: event ${i}`,
        );
        assert.ok(ev, `${c.name}: event ${i} present`);
      }
      assert.strictEqual(wci.next(), undefined, `${c.name}: end`);
    }
  });

  it("TestCacheIntervalInvalidationStopsWatch: a ring that overran the interval fails next() with upstream's message", () => {
    const { wc } = newTestWatchCache(3);
    const h = wc.history;
    h.upperBoundCapacity = 3;
    wc.replace([], '1');
    for (let rv = 2; rv <= 4; rv++) wc.add(makeTestPod(`pod${rv}`, rv));
    const interval = wc.getAllEventsSinceLocked(1, '', { predicate: {} });
    // Three more events push every event of the interval out before it copied them.
    for (let rv = 5; rv <= 7; rv++) wc.add(makeTestPod(`pod${rv}`, rv));
    assert.throws(
      () => interval.next(),
      (e: unknown) =>
        e instanceof CacheIntervalInvalidatedError &&
        e.message === 'cache interval invalidated, interval startIndex: 0',
    );
    // An interval that already copied its events keeps serving them.
    const copied = wc.getAllEventsSinceLocked(4, '', { predicate: {} });
    assert.strictEqual(copied.next()?.resourceVersion, 5);
    for (let rv = 8; rv <= 12; rv++) wc.add(makeTestPod(`pod${rv}`, rv));
    assert.deepStrictEqual(
      [copied.next()?.resourceVersion, copied.next()?.resourceVersion, copied.next()],
      [6, 7, undefined],
    );
  });

  it('a relist (Replace) invalidates intervals that still had events to copy', () => {
    const { wc } = newTestWatchCache(10);
    wc.replace([], '1');
    for (let rv = 2; rv <= 4; rv++) wc.add(makeTestPod(`pod${rv}`, rv));
    const interval = wc.getAllEventsSinceLocked(1, '', { predicate: {} });
    wc.replace([], '10');
    assert.throws(() => interval.next(), /cache interval invalidated, interval startIndex: 0/);
  });

  it("TestCacheIntervalNextFromStore: ADDED events carrying the interval RV, not the objects'", () => {
    const numEvents = 50;
    const store = new WatchCacheStore<TestPod>();
    const rv = 1; // the RV the watch cache has progressed to
    const expected = new Map<string, Ev>();
    for (let i = 0; i < numEvents; i++) {
      const elem = makeTestStoreElement(makeTestPod(`pod${i}`, i));
      expected.set(elem.key, {
        type: 'ADDED',
        object: elem.object,
        objLabels: elem.labels,
        objFields: elem.fields,
        key: elem.key,
        resourceVersion: rv,
        recordTime: 0,
      });
      store.add(elem);
    }
    const wci = newCacheIntervalFromStore(rv, store, '', false);
    for (let i = 0; i < numEvents; i++) {
      assert.strictEqual(wci.buffer.isEmpty(), false, `buffer non-empty before event ${i}`);
      const ev = wci.next();
      assert.ok(ev, `event ${i}`);
      assert.deepStrictEqual(ev, expected.get(ev.key), `event ${i} (${ev.key})`);
    }
    assert.strictEqual(wci.buffer.isEmpty(), true);
    assert.strictEqual(wci.next(), undefined);
    assert.strictEqual(wci.resourceVersion, rv);
  });

  it('TestCacheIntervalFromStoreSorted: items come out sorted by key; matchesSingle takes just the key', () => {
    const store = new WatchCacheStore<TestPod>();
    for (const name of ['pod-c', 'pod-a', 'pod-b', 'pod-aa'])
      store.add(makeTestStoreElement(makeTestPod(name, 1)));
    const keys = (wci: WatchCacheInterval<TestPod>) => {
      const out: string[] = [];
      for (let e = wci.next(); e; e = wci.next()) out.push(e.key);
      return out;
    };
    assert.deepStrictEqual(keys(newCacheIntervalFromStore(7, store, '', false)), [
      '/prefix/ns/pod-a',
      '/prefix/ns/pod-aa',
      '/prefix/ns/pod-b',
      '/prefix/ns/pod-c',
    ]);
    assert.deepStrictEqual(keys(newCacheIntervalFromStore(7, store, '/prefix/ns/pod-b', true)), [
      '/prefix/ns/pod-b',
    ]);
    assert.deepStrictEqual(
      keys(newCacheIntervalFromStore(7, store, '/prefix/ns/missing', true)),
      [],
    );
  });
});
