// Tests for src/engine/cacher/time-budget.ts: ports TestTimeBudget (pkg/storage/cacher/time_budget_test.go).
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import {
  TimeBudgetImpl,
  maxBudget,
  newTimeBudget,
  refreshPerSecond,
} from '../../../src/engine/cacher/time-budget';

// FakeClock never goes back in time, and TestTimeBudget does: a clock whose now() can be set.
class SettableClock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
}

describe('timeBudget (time_budget.go)', () => {
  it('TestTimeBudget: refresh, cap, returnUnused, and a clock that goes back in time', () => {
    const clock = new SettableClock(1_000_000);
    const budget = new TimeBudgetImpl(clock, { maxBudget: 200, refresh: 50 });
    const ms = 1;
    const steps: Array<{ name: string; act: () => void; want: number }> = [
      { name: 'nothing accumulated at start', act: () => {}, want: 0 },
      {
        name: 'after 10s: capped at maxBudget',
        act: () => {
          clock.t += 10_000;
        },
        want: 200 * ms,
      },
      {
        name: 'after 2s: two refresh intervals',
        act: () => {
          clock.t += 2_000;
        },
        want: 100 * ms,
      },
      { name: 'returned one refresh', act: () => budget.returnUnused(50), want: 50 * ms },
      {
        name: 'returned a negative value (-50ns)',
        act: () => budget.returnUnused(-50e-6),
        want: 0,
      },
      {
        name: 'clock went back 2 minutes, empty budget',
        act: () => {
          clock.t -= 120_000;
        },
        want: 0,
      },
      {
        name: 'after 10 minutes: capped again',
        act: () => {
          clock.t += 600_000;
        },
        want: 200 * ms,
      },
      {
        name: 'returned 10s (capped), then the clock went back 2 minutes',
        act: () => {
          budget.returnUnused(10_000);
          clock.t -= 120_000;
        },
        want: 200 * ms,
      },
    ];
    for (const s of steps) {
      s.act();
      assert.strictEqual(budget.takeAvailable(), s.want, s.name);
    }
  });

  it('accumulates fractions of a second exactly like Go (whole nanoseconds, truncated)', () => {
    const clock = new FakeClock();
    const budget = newTimeBudget(clock);
    const cases: Array<{ name: string; stepMs: number; want: number }> = [
      { name: '1ms elapsed -> 50us', stepMs: 1, want: 0.05 },
      { name: '333ms elapsed -> 16.65ms', stepMs: 333, want: 16.65 },
      { name: '1s elapsed -> refreshPerSecond', stepMs: 1000, want: refreshPerSecond },
      { name: '5s elapsed -> maxBudget', stepMs: 5000, want: maxBudget },
    ];
    for (const c of cases) {
      clock.step(c.stepMs);
      assert.ok(Math.abs(budget.takeAvailable() - c.want) < 1e-9, c.name);
    }
  });

  it('the default budget is 50ms per second capped at 100ms', () => {
    assert.strictEqual(refreshPerSecond, 50);
    assert.strictEqual(maxBudget, 100);
    const clock = new FakeClock();
    const budget = newTimeBudget(clock);
    clock.step(60_000);
    assert.strictEqual(budget.takeAvailable(), 100);
    budget.returnUnused(30);
    budget.returnUnused(200);
    assert.strictEqual(budget.takeAvailable(), 100, 'returned time is capped at maxBudget');
  });
});
