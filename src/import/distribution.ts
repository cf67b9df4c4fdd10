// No upstream counterpart: a bounded summary of many durations (watch lengths, request latencies)
// for the import's analysis. Exact while it holds at most `exactLimit` values; past that it folds
// them into logarithmic buckets, so a client with millions of requests costs a few hundred numbers.
import type { DistributionSummary } from '../run/import-report';

/** Values kept one by one before folding: enough for every watch of most clients. */
export const exactLimit = 2048;

/**
 * Bucket i holds values in [base^i, base^(i+1)); base 1.02 keeps a bucket's midpoint within 1% of
 * every value in it.
 */
const bucketBase = 1.02;
const logBase = Math.log(bucketBase);

function bucketOf(v: number): number {
  return v <= 0 ? -1 : Math.floor(Math.log(v) / logBase);
}

function bucketValue(b: number): number {
  return b < 0 ? 0 : (bucketBase ** b + bucketBase ** (b + 1)) / 2;
}

/** The nearest-rank quantile of sorted values (q in [0, 1]). */
function rank(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export class Distribution {
  private values: number[] | undefined = [];
  private readonly buckets = new Map<number, number>();
  private n = 0;
  private lo = Infinity;
  private hi = -Infinity;

  add(v: number): void {
    this.n++;
    if (v < this.lo) this.lo = v;
    if (v > this.hi) this.hi = v;
    if (this.values) {
      this.values.push(v);
      if (this.values.length <= exactLimit) return;
      for (const x of this.values) this.fold(x);
      this.values = undefined;
      return;
    }
    this.fold(v);
  }

  get count(): number {
    return this.n;
  }

  summary(round: (v: number) => number = (v) => v): DistributionSummary {
    if (this.n === 0)
      return { count: 0, min: null, median: null, p99: null, max: null, exact: true };
    const quantile = (q: number): number => {
      if (this.values)
        return rank(
          [...this.values].sort((a, b) => a - b),
          q,
        );
      const target = Math.max(1, Math.ceil(q * this.n));
      let seen = 0;
      for (const b of [...this.buckets.keys()].sort((x, y) => x - y)) {
        seen += this.buckets.get(b) as number;
        if (seen >= target) return Math.min(this.hi, Math.max(this.lo, bucketValue(b)));
      }
      return this.hi;
    };
    return {
      count: this.n,
      min: round(this.lo),
      median: round(quantile(0.5)),
      p99: round(quantile(0.99)),
      max: round(this.hi),
      exact: this.values !== undefined,
    };
  }

  private fold(v: number): void {
    const b = bucketOf(v);
    this.buckets.set(b, (this.buckets.get(b) ?? 0) + 1);
  }
}
