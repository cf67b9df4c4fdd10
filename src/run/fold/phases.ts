// No upstream counterpart: folds the model's `phases` and `faults`: the named marks of a run, in
// order (a scenario's narrative phases; the faults injected into a live server, bounded, each
// with the requests it hit).
import type { FaultHit, FaultMark } from '../run-model';
import { hitsKept } from './answers';
import type { SeriesLimit } from './series-limit';

type Mark = { at: number; name: string; text: string };

export class PhasesFold {
  private readonly phases: Mark[] = [];
  private readonly faults: FaultMark[] = [];
  /** The faults with an id, by id: their hits join them. */
  private readonly byId = new Map<number, FaultMark>();

  constructor(private readonly series: SeriesLimit) {}

  phase(at: number, name: string, text: string): void {
    this.phases.push({ at, name, text });
  }

  /**
   * `resource`: the one resource the fault was aimed at (its `resource` parameter), if any.
   * `request`: a request fault: its hits are the only clients it touches, none before the first.
   */
  fault(
    at: number,
    name: string,
    text: string,
    resource?: string,
    id?: number,
    request = false,
  ): void {
    const mark: FaultMark = {
      at,
      name,
      text,
      ...(resource !== undefined ? { resource } : {}),
      ...(id !== undefined ? { id } : {}),
      ...(request ? { hits: [] } : {}),
    };
    this.series.push(this.faults, mark, 'faults');
    if (id !== undefined) this.byId.set(id, mark);
  }

  /** Request fault `id` hit a request (a hit of a fault not heard of makes its mark). */
  hit(id: number, name: string, hit: FaultHit): void {
    let mark = this.byId.get(id);
    if (!mark) {
      this.fault(hit.at, name, `#${id}`, undefined, id);
      mark = this.byId.get(id)!;
    }
    const hits = (mark.hits ??= []);
    if (hits.length < hitsKept) hits.push(hit);
    else mark.hitsDropped = (mark.hitsDropped ?? 0) + 1;
  }

  /** The phases so far (a new array). */
  finishPhases(): Mark[] {
    return this.phases.slice();
  }

  /** The faults so far (new arrays: hits folded later do not grow them). */
  finishFaults(): FaultMark[] {
    return this.faults.map((f) => (f.hits ? { ...f, hits: f.hits.slice() } : { ...f }));
  }
}
