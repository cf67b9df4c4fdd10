// No upstream counterpart: folds the model's `rejected`: the trace lines (or events) a reader could
// not use, counted, with the first few reasons.
export class RejectedFold {
  private count = 0;
  private readonly samples: string[] = [];

  /** Counts one (kept: the first `maxSamples` reasons). */
  reject(reason: string, maxSamples: number): void {
    this.count++;
    if (this.samples.length < maxSamples) this.samples.push(reason);
  }

  /** Adds a reader's own counts (kept: the first 5 reasons in all). */
  add(count: number, samples: string[]): void {
    this.count += count;
    for (const s of samples) if (this.samples.length < 5) this.samples.push(s);
  }

  /** The counts so far (a copy). */
  finish(): { count: number; samples: string[] } {
    return { count: this.count, samples: this.samples.slice() };
  }
}
