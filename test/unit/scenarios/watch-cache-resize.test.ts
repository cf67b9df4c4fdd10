// Tests for src/scenarios/watch-cache-resize.ts against release-1.36 resizeCacheLocked and
// capacityUpperBound (reference notes §4.5): the ring doubles only when full and its oldest event is
// younger than the 75 s window, halves only when full and the event a quarter from the newest is
// older, stays within [100, 102400]; a watch from an RV the ring dropped gets 410.
import * as assert from 'assert';
import { runScenario } from '../../../src/scenarios/runner';
import type { CapacityPoint } from '../../../src/run/run-model';

const windowMs = 75_000;
const lower = 100;
const upper = 102_400;

/** The largest capacity a burst of `rate`/s for `seconds` s reaches: it doubles while full with its oldest event younger than the window. */
function expectedMaxCapacity(rate: number, seconds: number): number {
  const events = Math.floor(rate * seconds);
  let c = lower;
  // The (c+1)-th event arrives c/rate s after the first: the ring is full then and grows if that is < 75 s.
  while (c < events && (c / rate) * 1000 < windowMs && c < upper) c = Math.min(c * 2, upper);
  return c;
}

function checkRule(points: CapacityPoint[], name: string): void {
  assert.strictEqual(points[0].change, 'initial', name);
  assert.strictEqual(points[0].capacity, lower, `${name}: starts at the lower bound`);
  for (let i = 1; i < points.length; i++) {
    const from = points[i - 1].capacity;
    const p = points[i];
    assert.ok(
      p.capacity >= lower && p.capacity <= upper,
      `${name}: ${p.capacity} within [${lower}, ${upper}]`,
    );
    if (p.change === 'grow') {
      assert.strictEqual(
        p.capacity,
        Math.min(from * 2, upper),
        `${name}: a grow doubles (at ${p.at})`,
      );
      assert.ok(
        (p.comparedAgeMs ?? Infinity) < windowMs,
        `${name}: grows only while the oldest event is younger than the window`,
      );
    } else {
      assert.strictEqual(p.change, 'shrink', name);
      assert.strictEqual(
        p.capacity,
        Math.max(Math.floor(from / 2), lower),
        `${name}: a shrink halves (at ${p.at})`,
      );
      assert.ok(
        (p.comparedAgeMs ?? 0) > windowMs,
        `${name}: shrinks only when the newest quarter is older than the window`,
      );
    }
  }
}

describe('scenario watch-cache-resize', () => {
  it('a burst longer than the ring holds: grows, overruns, shrinks in the quiet phase; the late watcher gets 410', async () => {
    const params = {
      burstEventsPerSecond: 50,
      burstSeconds: 150,
      quietEventsPerSecond: 1,
      quietSeconds: 200,
      lateWatcherDelaySeconds: 140,
    };
    const { model, summary } = await runScenario('watch-cache-resize', params);
    checkRule(model.capacity, 'overrun');
    assert.strictEqual(summary.facts.maxCapacity, expectedMaxCapacity(50, 150));
    assert.strictEqual(summary.facts.maxCapacity, 6400);
    assert.ok(
      Number(summary.facts.shrinks) > 0,
      'it shrank once full of events older than the window',
    );
    assert.strictEqual(
      summary.facts.finalCapacity,
      model.capacity[model.capacity.length - 1].capacity,
    );
    assert.strictEqual(
      summary.facts.capacityMetric,
      summary.facts.finalCapacity,
      'watch_cache_capacity agrees',
    );
    const grows = model.capacity.filter((c) => c.change === 'grow').length;
    assert.strictEqual(
      model.metrics['watch_cache_capacity_increase_total{group="",resource="pods"}'],
      grows,
    );
    assert.strictEqual(
      model.metrics['watch_cache_capacity_decrease_total{group="",resource="pods"}'],
      summary.facts.shrinks,
    );
    assert.strictEqual(summary.facts.lateWatcherCode, 410);
    assert.match(
      String(summary.facts.lateWatcherMessage),
      /^too old resource version: \d+ \(\d+\)$/,
    );
  });

  it('a short burst: the ring keeps every event, no shrink while it is not full, the late watcher resumes', async () => {
    const params = {
      burstEventsPerSecond: 50,
      burstSeconds: 20,
      quietEventsPerSecond: 1,
      quietSeconds: 100,
      lateWatcherDelaySeconds: 30,
    };
    const { model, summary } = await runScenario('watch-cache-resize', params);
    checkRule(model.capacity, 'short');
    assert.strictEqual(summary.facts.maxCapacity, expectedMaxCapacity(50, 20));
    assert.strictEqual(
      summary.facts.shrinks,
      0,
      'the hysteresis: a ring that is not full never shrinks',
    );
    assert.strictEqual(summary.facts.lateWatcherOutcome, 'resumed');
    const late = model.watchers.find(
      (w) => w.id === model.watchRequests?.find((q) => q.client === 'late-watcher')?.watcherId,
    );
    assert.ok(late, 'the late watcher was registered');
    const live = late.log.find((l) => l.kind === 'live')?.text ?? '';
    assert.match(
      live,
      /^initial events sent \(1010\)/,
      'it replayed every update since its list: the burst and 10 quiet seconds',
    );
  });

  it('a burst past the upper bound stops growing at 102400', async () => {
    const params = {
      burstEventsPerSecond: 2000,
      burstSeconds: 60,
      quietEventsPerSecond: 0,
      quietSeconds: 0,
      lateWatcherDelaySeconds: 61,
    };
    const { model, summary } = await runScenario('watch-cache-resize', params);
    checkRule(model.capacity, 'upper bound');
    assert.strictEqual(summary.facts.maxCapacity, upper);
    assert.strictEqual(summary.facts.lateWatcherCode, 410, 'the oldest events were pushed out');
  });
});
