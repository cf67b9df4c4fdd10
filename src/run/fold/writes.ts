// No upstream counterpart: folds the model's `writes`: the objects the scenario seeded and wrote,
// by verb, and the last etcd revision they reached.
import type { RunModel } from '../run-model';

type Writes = NonNullable<RunModel['writes']>;

export class WritesFold {
  private readonly writes: Writes = { total: 0, byVerb: {}, lastRevision: 0 };

  /** `count` objects written by `verb` (`seed`: before the apiserver served anything), the last at `revision`. */
  wrote(verb: string, count: number, revision: number): void {
    this.writes.byVerb[verb] = (this.writes.byVerb[verb] ?? 0) + count;
    this.writes.total += count;
    this.writes.lastRevision = Math.max(this.writes.lastRevision, revision);
  }

  /** The writes so far (a copy). */
  finish(): Writes {
    return { ...this.writes, byVerb: { ...this.writes.byVerb } };
  }
}
