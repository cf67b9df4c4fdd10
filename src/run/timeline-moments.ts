// No upstream counterpart: the moments of a run that its timeline steps through (a watcher opened,
// changed state or closed; the cache resized; a LIST, a phase, a bookmark tick, a freshness wait,
// a blocked dispatch, a refused WATCH, an injected fault), counted per distinct instant while the run is folded, so
// that a face never walks 100,000 watcher tracks to draw the timeline.
import type { EngineEvent } from '../engine';
import type { ScenarioInput } from './trace/trace-format';
import type { VirtualMs } from './run-model';

const eventTypes = new Set<string>([
  'watcher/created',
  'watcher/state',
  'watcher/closed',
  'watchcache/capacity',
  'serialization/encode',
  'cacher/bookmark-tick',
  'watchcache/wait',
]);

/** Distinct instants, ascending, and how many things happened at each. */
export interface TimelineMoments {
  at: VirtualMs[];
  count: number[];
}

export class MomentLog {
  private readonly at: number[] = [];
  private readonly count: number[] = [];

  noteEvent(e: EngineEvent): void {
    if (eventTypes.has(e.type) || (e.type === 'cacher/dispatch' && e.blocked > 0)) this.note(e.at);
  }

  noteInput(at: VirtualMs, input: ScenarioInput): void {
    if (
      input.action === 'phase' ||
      input.action === 'fault' ||
      input.action === 'list' ||
      input.action === 'watch-closed' ||
      (input.action === 'watch-opened' && input.error !== undefined)
    )
      this.note(at);
  }

  /** Records arrive in time order: a moment is new when it differs from the last one. */
  private note(at: VirtualMs): void {
    const last = this.at.length - 1;
    if (last >= 0 && this.at[last] === at) this.count[last]++;
    else {
      this.at.push(at);
      this.count.push(1);
    }
  }

  moments(): TimelineMoments {
    return { at: this.at, count: this.count };
  }
}
