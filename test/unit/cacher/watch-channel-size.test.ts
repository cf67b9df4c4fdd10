// Tests for src/engine/cacher/watch-channel-size.ts: ports TestSuggestedWatchChannelSize (pkg/storage/cacher/watch_cache_test.go).
import * as assert from 'assert';
import { suggestedWatchChannelSize } from '../../../src/engine/cacher/watch-channel-size';

const DefaultEventFreshDuration = 75_000; // cacher.go: defaultBookmarkFrequency + 15s

describe('suggestedWatchChannelSize (watch_cache.go)', () => {
  it('TestSuggestedWatchChannelSize', () => {
    const cases: Array<{
      name: string;
      capacity: number;
      indexExists: boolean;
      triggerUsed: boolean;
      eventsFreshDuration: number;
      expected: number;
    }> = [
      {
        name: 'capacity=100, indexExists, triggerUsed',
        capacity: 100,
        indexExists: true,
        triggerUsed: true,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 10,
      },
      {
        name: 'capacity=100, indexExists, !triggerUsed',
        capacity: 100,
        indexExists: true,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 10,
      },
      {
        name: 'capacity=100, !indexExists',
        capacity: 100,
        indexExists: false,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 10,
      },
      {
        name: 'capacity=750, indexExists, triggerUsed',
        capacity: 750,
        indexExists: true,
        triggerUsed: true,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 10,
      },
      {
        name: 'capacity=750, indexExists, !triggerUsed',
        capacity: 750,
        indexExists: true,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 10,
      },
      {
        name: 'capacity=750, !indexExists',
        capacity: 750,
        indexExists: false,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 10,
      },
      {
        name: 'capacity=7500, indexExists, triggerUsed',
        capacity: 7500,
        indexExists: true,
        triggerUsed: true,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 10,
      },
      {
        name: 'capacity=7500, indexExists, !triggerUsed',
        capacity: 7500,
        indexExists: true,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 100,
      },
      {
        name: 'capacity=7500, indexExists, !triggerUsed, eventsFreshDuration=2m30s',
        capacity: 7500,
        indexExists: true,
        triggerUsed: false,
        eventsFreshDuration: 2 * DefaultEventFreshDuration,
        expected: 50,
      },
      {
        name: 'capacity=7500, !indexExists',
        capacity: 7500,
        indexExists: false,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 100,
      },
      {
        name: 'capacity=7500, !indexExists, eventsFreshDuration=2m30s',
        capacity: 7500,
        indexExists: false,
        triggerUsed: false,
        eventsFreshDuration: 2 * DefaultEventFreshDuration,
        expected: 50,
      },
      {
        name: 'capacity=75000, indexExists, triggerUsed',
        capacity: 75000,
        indexExists: true,
        triggerUsed: true,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 10,
      },
      {
        name: 'capacity=75000, indexExists, !triggerUsed',
        capacity: 75000,
        indexExists: true,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 1000,
      },
      {
        name: 'capacity=75000, indexExists, !triggerUsed, eventsFreshDuration=2m30s',
        capacity: 75000,
        indexExists: true,
        triggerUsed: false,
        eventsFreshDuration: 2 * DefaultEventFreshDuration,
        expected: 500,
      },
      {
        name: 'capacity=75000, !indexExists',
        capacity: 75000,
        indexExists: false,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 100,
      },
      {
        name: 'capacity=750000, indexExists, triggerUsed',
        capacity: 750000,
        indexExists: true,
        triggerUsed: true,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 10,
      },
      {
        name: 'capacity=750000, indexExists, !triggerUsed',
        capacity: 750000,
        indexExists: true,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 1000,
      },
      {
        name: 'capacity=750000, !indexExists',
        capacity: 750000,
        indexExists: false,
        triggerUsed: false,
        eventsFreshDuration: DefaultEventFreshDuration,
        expected: 100,
      },
    ];
    for (const c of cases) {
      assert.strictEqual(
        suggestedWatchChannelSize(c.capacity, c.eventsFreshDuration, c.indexExists, c.triggerUsed),
        c.expected,
        c.name,
      );
    }
  });

  it('rounds up one second of history (ceil), not down', () => {
    // 7501 / 75s = 100.01 -> 101 with an index (max 1000).
    assert.strictEqual(
      suggestedWatchChannelSize(7501, DefaultEventFreshDuration, true, false),
      101,
    );
  });
});
