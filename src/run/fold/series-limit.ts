// No upstream counterpart: the cap on each of a run model's long series and the count of what
// each cap left out (the model's `truncated`). One instance is shared by every fold, so the counts
// keep the order in which their caps were first reached, as one object in the model.
export class SeriesLimit {
  /** Entries left out, by series name, in the order the caps were first reached. */
  readonly truncated: Record<string, number> = {};

  constructor(
    /** Entries kept in each series. */
    readonly limit: number,
  ) {}

  /** Counts one entry of series `what` left out. */
  truncate(what: string): void {
    this.truncated[what] = (this.truncated[what] ?? 0) + 1;
  }

  /** Appends `v` to series `what` while it is under the cap; counts it left out otherwise. */
  push<T>(series: T[], v: T, what: string): void {
    if (series.length < this.limit) series.push(v);
    else this.truncate(what);
  }
}
