// No upstream counterpart: folds the model's `phases` and `faults`: the named marks of a run, in
// order (a scenario's narrative phases; the faults injected into a live server, bounded).
import type { SeriesLimit } from './series-limit';

type Mark = { at: number; name: string; text: string; resource?: string };

export class PhasesFold {
  private readonly phases: Mark[] = [];
  private readonly faults: Mark[] = [];

  constructor(private readonly series: SeriesLimit) {}

  phase(at: number, name: string, text: string): void {
    this.phases.push({ at, name, text });
  }

  /** `resource`: the one resource the fault was aimed at (its `resource` parameter), if any. */
  fault(at: number, name: string, text: string, resource?: string): void {
    this.series.push(
      this.faults,
      { at, name, text, ...(resource !== undefined ? { resource } : {}) },
      'faults',
    );
  }

  /** The phases so far (a new array). */
  finishPhases(): Mark[] {
    return this.phases.slice();
  }

  /** The faults so far (a new array). */
  finishFaults(): Mark[] {
    return this.faults.slice();
  }
}
