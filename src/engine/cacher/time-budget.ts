// Mirrors k8s.io/apiserver pkg/storage/cacher/time_budget.go (release-1.36).
// Durations are milliseconds (the engine's Clock unit); the budget itself is kept in whole
// nanoseconds so the arithmetic truncates exactly like Go's time.Duration.
import type { Clock } from '../clock';

/** Budget refilled per second of elapsed time: small, so one slow watcher cannot stall dispatch for long. */
export const refreshPerSecond = 50;
/** The budget never grows beyond this, however long nothing was blocked. */
export const maxBudget = 100;

/**
 * A budget of time that is periodically refreshed. Take it all, spend at most that much, and give
 * back what was not used:
 *
 *   const timeout = budget.takeAvailable();
 *   ... spend at most `timeout` ...
 *   budget.returnUnused(timeout - spent);
 */
export interface TimeBudget {
  /** Milliseconds available now; the budget is zero afterwards. */
  takeAvailable(): number;
  /** Gives back `unused` ms (ignored when negative: more than allowed was used). */
  returnUnused(unused: number): void;
}

export interface TimeBudgetOptions {
  /** Refill per second, ms (default refreshPerSecond). */
  readonly refresh?: number;
  /** Cap, ms (default maxBudget). */
  readonly maxBudget?: number;
  /** Starting budget, ms (default 0). */
  readonly budget?: number;
}

const nsPerMs = 1e6;

export class TimeBudgetImpl implements TimeBudget {
  private readonly clock: Pick<Clock, 'now'>;
  private budgetNs: number;
  private readonly maxBudgetNs: number;
  private readonly refreshNs: number;
  /** Last access time (clock ms). */
  private last: number;

  constructor(clock: Pick<Clock, 'now'>, options: TimeBudgetOptions = {}) {
    this.clock = clock;
    this.budgetNs = Math.trunc((options.budget ?? 0) * nsPerMs);
    this.maxBudgetNs = Math.trunc((options.maxBudget ?? maxBudget) * nsPerMs);
    this.refreshNs = Math.trunc((options.refresh ?? refreshPerSecond) * nsPerMs);
    this.last = clock.now();
  }

  takeAvailable(): number {
    // Budget accumulated since the last access; nothing when the clock went backwards.
    const now = this.clock.now();
    let acc = ((now - this.last) / 1000) * (this.refreshNs / 1e9);
    if (acc < 0) acc = 0;
    this.budgetNs += Math.trunc(acc * 1e9);
    if (this.budgetNs > this.maxBudgetNs) this.budgetNs = this.maxBudgetNs;
    this.last = now;
    const result = this.budgetNs;
    this.budgetNs = 0;
    return result / nsPerMs;
  }

  returnUnused(unused: number): void {
    if (!(unused >= 0)) return; // negative (or NaN): we used more than allowed
    // takeAvailable() accounts for the elapsed time; the unused part goes straight back.
    this.budgetNs += Math.trunc(unused * nsPerMs);
    if (this.budgetNs > this.maxBudgetNs) this.budgetNs = this.maxBudgetNs;
  }
}

/** The cacher's dispatch budget: 50ms per second, at most 100ms. */
export function newTimeBudget(clock: Pick<Clock, 'now'>): TimeBudget {
  return new TimeBudgetImpl(clock);
}
