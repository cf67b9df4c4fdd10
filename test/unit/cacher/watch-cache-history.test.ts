// Tests for src/engine/cacher/watch-cache-history.ts, porting TestCapacityUpperBound,
// TestDynamicCache and TestCacheIncreaseDoesNotBreakWatch from k8s.io/apiserver
// pkg/storage/cacher/watch_cache_test.go (release-1.36), plus metrics, the inspector hook and a
// property test of the ring.
import * as assert from 'assert';
import fc from 'fast-check';
import { MetricsRegistry } from '../../../src/engine/metrics/registry';
import { CacherMetrics } from '../../../src/engine/cacher/metrics';
import { StatusError } from '../../../src/engine/storage/errors';
import type { WatchCacheEvent } from '../../../src/engine/cacher/watch-cache-event';
import {
  capacityUpperBound,
  DefaultEventFreshDuration,
  defaultLowerBoundCapacity,
  defaultUpperBoundCapacity,
  WatchCacheHistory,
} from '../../../src/engine/cacher/watch-cache-history';
import type { WatchCacheCapacityChangeEvent } from '../../../src/engine/inspect/events';
import { newTestWatchCache, testEpoch } from './watch-cache-testing';

const D = DefaultEventFreshDuration;
const second = 1000;
const pods = { group: '', resource: 'pods' };

function event(key: string, resourceVersion: number, recordTime: number): WatchCacheEvent {
  return {
    type: 'ADDED',
    object: undefined,
    objLabels: {},
    objFields: {},
    key,
    resourceVersion,
    recordTime,
  };
}

describe('watch cache history (watch_cache.go ring and resize)', () => {
  it('TestCapacityUpperBound', () => {
    const cases: { name: string; eventFreshDuration: number; expected: number }[] = [
      {
        name: 'default eventFreshDuration',
        eventFreshDuration: D,
        expected: defaultUpperBoundCapacity,
      },
      {
        name: 'lower eventFreshDuration, capacity limit unchanged',
        eventFreshDuration: 45 * second,
        expected: defaultUpperBoundCapacity,
      },
      {
        name: 'higher eventFreshDuration, capacity limit scaled up',
        eventFreshDuration: 4 * D,
        expected: 4 * defaultUpperBoundCapacity,
      },
      {
        name: 'higher eventFreshDuration, capacity limit scaled and rounded up',
        eventFreshDuration: 3 * D,
        expected: 4 * defaultUpperBoundCapacity,
      },
      {
        name: 'higher eventFreshDuration, capacity limit scaled up and capped',
        eventFreshDuration: D * 2 ** 20,
        expected: defaultUpperBoundCapacity * 2 ** 14,
      },
    ];
    assert.strictEqual(D, 75_000, 'DefaultEventFreshDuration is 75s');
    assert.strictEqual(defaultUpperBoundCapacity, 102_400);
    assert.strictEqual(defaultUpperBoundCapacity * 2 ** 14, 1_677_721_600);
    for (const c of cases) {
      assert.strictEqual(capacityUpperBound(c.eventFreshDuration), c.expected, c.name);
    }
  });

  it('TestDynamicCache (all 20 rows)', () => {
    const rows: {
      name: string;
      eventCount: number;
      cacheCapacity: number;
      startIndex: number;
      lowerBoundCapacity: number;
      upperBoundCapacity: number;
      interval: number;
      expectCapacity: number;
      expectStartIndex: number;
    }[] = [];
    // [#, eventCount, cap, startIndex, lower, upper, interval, expectCap, expectStartIndex] from the reference table.
    const table: [number, number, number, number, number, number, number, number, number][] = [
      [1, 5, 5, 0, 2, 10, D / 6, 10, 0],
      [2, 5, 5, 0, 2, 10, D / 4, 5, 0],
      [3, 5, 5, 0, 2, 10, D + second, 2, 3],
      [4, 5, 5, 0, 3, 10, D + second, 3, 2],
      [5, 5, 5, 0, 2, 8, D / 6, 8, 0],
      [6, 5, 5, 3, 2, 10, D / 6, 10, 3],
      [7, 5, 5, 3, 2, 10, D / 4, 5, 3],
      [8, 5, 5, 3, 2, 10, D + second, 2, 6],
      [9, 5, 5, 3, 3, 10, D + second, 3, 5],
      [10, 5, 5, 3, 2, 8, D / 6, 8, 3],
      [11, 8, 8, 0, 4, 16, D / 9, 16, 0],
      [12, 8, 8, 0, 4, 16, D / 8, 8, 0],
      [13, 8, 8, 0, 4, 16, D / 2 + second, 4, 4],
      [14, 8, 8, 0, 7, 16, D / 2 + second, 7, 1],
      [15, 8, 8, 0, 4, 10, D / 9, 10, 0],
      [16, 8, 8, 3, 4, 16, D / 9, 16, 3],
      [17, 8, 8, 3, 4, 16, D / 8, 8, 3],
      [18, 8, 8, 3, 4, 16, D / 2 + second, 4, 7],
      [19, 8, 8, 3, 7, 16, D / 2 + second, 7, 4],
      [20, 8, 8, 3, 4, 10, D / 9, 10, 3],
    ];
    for (const [
      n,
      eventCount,
      cacheCapacity,
      startIndex,
      lowerBoundCapacity,
      upperBoundCapacity,
      interval,
      expectCapacity,
      expectStartIndex,
    ] of table) {
      rows.push({
        name: `#${n}`,
        eventCount,
        cacheCapacity,
        startIndex,
        lowerBoundCapacity,
        upperBoundCapacity,
        interval,
        expectCapacity,
        expectStartIndex,
      });
    }
    assert.strictEqual(rows.length, 20);
    for (const t of rows) {
      const h = new WatchCacheHistory({ groupResource: pods, eventFreshDuration: D });
      h.capacity = t.cacheCapacity;
      h.cache = new Array(t.cacheCapacity);
      h.startIndex = t.startIndex;
      h.lowerBoundCapacity = t.lowerBoundCapacity;
      h.upperBoundCapacity = t.upperBoundCapacity;
      // loadEventWithDuration
      const now = testEpoch;
      for (let i = 0; i < t.eventCount; i++) {
        h.cache[(i + h.startIndex) % h.capacity] = event(
          `event-${i + h.startIndex}`,
          0,
          now + t.interval * i,
        );
      }
      h.endIndex = h.startIndex + t.eventCount;
      h.resizeCacheLocked(now + t.interval * t.eventCount);
      assert.strictEqual(h.capacity, t.expectCapacity, `${t.name}: capacity`);
      assert.strictEqual(h.startIndex, t.expectStartIndex, `${t.name}: startIndex`);
      assert.strictEqual(h.endIndex, t.startIndex + t.eventCount, `${t.name}: endIndex`);
      for (let i = h.startIndex; i < h.endIndex; i++) {
        assert.strictEqual(
          h.cache[i % h.capacity]?.key,
          `event-${i}`,
          `${t.name}: element ${i} at ${i % h.capacity}`,
        );
      }
    }
  });

  it('TestCacheIncreaseDoesNotBreakWatch', () => {
    const { wc, clock } = newTestWatchCache(2, D);
    const now = clock.now();
    const addEvent = (key: string, rv: number, t: number) =>
      wc.history.updateCache(event(key, rv, t) as WatchCacheEvent<never>);
    // The initial LIST comes from the moment of RV=10.
    wc.replace([], '10');
    addEvent('key1', 20, now);
    // Force key1 to rotate out of the cache.
    const later = now + 2 * D;
    addEvent('key2', 30, later);
    addEvent('key3', 40, later);
    // Force a cache resize.
    addEvent('key4', 50, later + second);
    assert.strictEqual(wc.history.capacity, 4, 'the cache grew');
    assert.throws(
      () => wc.getAllEventsSinceLocked(15, '', { predicate: {} }),
      (e: unknown) =>
        e instanceof StatusError &&
        e.status.code === 410 &&
        e.message === 'too old resource version: 15 (29)',
    );
  });

  it('records watch_cache_capacity and the increase/decrease counters with {group,resource}', () => {
    const registry = new MetricsRegistry();
    const changes: WatchCacheCapacityChangeEvent[] = [];
    const h = new WatchCacheHistory({
      groupResource: { group: 'apps', resource: 'deployments' },
      eventFreshDuration: D,
      metrics: new CacherMetrics(registry),
      onCapacityChange: (e) => changes.push(e),
    });
    const labels = '{group="apps",resource="deployments"}';
    assert.strictEqual(
      registry.samples()[`watch_cache_capacity${labels}`],
      100,
      'set to 100 at construction',
    );
    // 101 fresh events: the 101st finds the ring full of fresh events and doubles it.
    for (let i = 0; i < 101; i++) h.updateCache(event(`k${i}`, i + 1, testEpoch + i));
    assert.strictEqual(h.capacity, 200);
    // Then events far apart: once full, the newest quarter is stale, so the ring halves back to 100.
    let t = testEpoch + 1000;
    for (let i = 101; h.capacity === 200 && i < 1000; i++) {
      t += D + 1;
      h.updateCache(event(`k${i}`, i + 1, t));
    }
    assert.strictEqual(h.capacity, 100);
    const s = registry.samples();
    assert.strictEqual(s[`watch_cache_capacity${labels}`], 100);
    assert.strictEqual(s[`watch_cache_capacity_increase_total${labels}`], 1);
    assert.strictEqual(s[`watch_cache_capacity_decrease_total${labels}`], 1);
    assert.match(
      registry.text(['watch_cache_capacity']),
      /^# HELP watch_cache_capacity \[ALPHA\] Total capacity of watch cache broken by resource type\.\n# TYPE watch_cache_capacity gauge\n/,
    );
    assert.deepStrictEqual(
      changes.map((c) => [c.from, c.to, c.reason]),
      [
        [100, 200, 'increase'],
        [200, 100, 'decrease'],
      ],
    );
    assert.strictEqual(changes[0].at, testEpoch + 100);
    assert.strictEqual(
      changes[0].oldestEventAgeMs,
      100,
      'the oldest event (t+0) is 100ms old when the 101st arrives',
    );
    assert.ok(changes[1].comparedEventAgeMs > D, 'the quarter event is older than the window');
  });

  it('resetLocked empties the ring without moving startIndex back', () => {
    const h = new WatchCacheHistory({ groupResource: pods, eventFreshDuration: D });
    for (let i = 0; i < 5; i++) h.updateCache(event(`k${i}`, i + 1, i));
    h.startIndex = 1;
    h.removedEventSinceRelist = true;
    h.resetLocked();
    assert.deepStrictEqual(
      [h.startIndex, h.endIndex, h.size, h.removedEventSinceRelist, h.capacity],
      [5, 5, 0, false, 100],
    );
    assert.throws(
      () => h.getIntervalLocked(3, 0),
      /^Error: watch cache isn't correctly initialized$/,
    );
  });

  it('getIntervalLocked: the oldest deliverable RV and the exact 410 message', () => {
    const h = new WatchCacheHistory({ groupResource: pods, eventFreshDuration: D });
    h.capacity = 3;
    h.cache = new Array(3);
    h.lowerBoundCapacity = 3;
    h.upperBoundCapacity = 3;
    for (const rv of [11, 12, 13]) h.updateCache(event(`k${rv}`, rv, 0));
    const cases: { name: string; rv: number; listRV: number; expect: number[] | string }[] = [
      {
        name: 'after a list at 10, nothing dropped: 9 is too old',
        rv: 9,
        listRV: 10,
        expect: 'too old resource version: 9 (10)',
      },
      { name: 'after a list at 10: from 10', rv: 10, listRV: 10, expect: [11, 12, 13] },
      {
        name: 'no list: the oldest buffered event bounds it',
        rv: 9,
        listRV: 0,
        expect: 'too old resource version: 9 (10)',
      },
      { name: 'mid-history', rv: 12, listRV: 10, expect: [13] },
      { name: 'at the head', rv: 13, listRV: 10, expect: [] },
      { name: 'in the future', rv: 99, listRV: 10, expect: [] },
    ];
    for (const c of cases) {
      const run = () => {
        const it = h.getIntervalLocked(c.rv, c.listRV);
        const out: number[] = [];
        for (let e = it.next(); e; e = it.next()) out.push(e.resourceVersion);
        return out;
      };
      if (typeof c.expect === 'string') {
        assert.throws(
          run,
          (e: unknown) =>
            e instanceof StatusError &&
            e.status.code === 410 &&
            e.status.reason === 'Expired' &&
            e.message === c.expect,
          c.name,
        );
      } else {
        assert.deepStrictEqual(run(), c.expect, c.name);
      }
    }
    // One more event pushes RV 11 out: the list RV no longer bounds the history.
    h.updateCache(event('k14', 14, 0));
    assert.throws(() => h.getIntervalLocked(10, 10), /too old resource version: 10 \(11\)/);
    assert.deepStrictEqual(
      h.events().map((e) => e.resourceVersion),
      [12, 13, 14],
    );
  });

  it('property: capacity stays in [100, capacityUpperBound] and the history serves exactly the events after any RV in its window', () => {
    const windows = [D, 2 * D, 45 * second];
    const resizes = { increase: 0, decrease: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(...windows),
        // Phases of events: bursts (0-100ms apart) that grow the ring, and sparse stretches (D/8 to 2D apart) that shrink it.
        fc.array(
          fc.record({
            n: fc.integer({ min: 1, max: 400 }),
            dt: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: D / 8, max: 2 * D })),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.array(fc.nat(), { minLength: 1, maxLength: 10 }),
        (window, phases, probes) => {
          const h = new WatchCacheHistory({
            groupResource: pods,
            eventFreshDuration: window,
            onCapacityChange: (e) => resizes[e.reason]++,
          });
          const upper = capacityUpperBound(window);
          let t = testEpoch;
          let rv = 0;
          const all: number[] = [];
          const steps = phases.flatMap((p) => new Array<number>(p.n).fill(p.dt));
          for (const dt of steps) {
            t += dt;
            rv += 1 + (dt % 3); // RVs strictly increase, with gaps
            h.updateCache(event(`k${rv}`, rv, t));
            all.push(rv);
            assert.ok(
              h.capacity >= defaultLowerBoundCapacity && h.capacity <= upper,
              `capacity ${h.capacity} out of [100, ${upper}]`,
            );
            assert.ok(h.size <= h.capacity);
          }
          const held = h.events().map((e) => e.resourceVersion);
          assert.deepStrictEqual(
            held,
            all.slice(all.length - held.length),
            'the ring holds the newest events in order',
          );
          const oldest = held[0];
          for (const p of probes) {
            // Any RV from oldest-1 (the last one not held) to the newest.
            const from = oldest - 1 + (p % (rv - oldest + 2));
            const it = h.getIntervalLocked(from, 0);
            const got: number[] = [];
            for (let e = it.next(); e; e = it.next()) got.push(e.resourceVersion);
            assert.deepStrictEqual(
              got,
              all.filter((x) => x > from),
              `events after ${from}`,
            );
          }
          if (oldest - 2 >= 0) {
            assert.throws(() => h.getIntervalLocked(oldest - 2, 0), /too old resource version/);
          }
        },
      ),
      { seed: 1366, numRuns: 200 },
    );
    // The generated runs must exercise both directions, or the property proves little.
    assert.ok(
      resizes.increase > 50 && resizes.decrease > 50,
      `resizes seen: ${JSON.stringify(resizes)}`,
    );
  });
});
