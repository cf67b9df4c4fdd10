// Why the Watch cache tab has nothing to draw, for the run it names: a scenario that never starts a
// watch cache, or a live recording that holds no cache event. No upstream counterpart.
import { liveScenario } from './run-clock';

/** The Watch cache tab's sentence when the run has no watch cache to draw. */
export function watchCacheAbsentText(scenario: string, lists: number): string {
  if (scenario === liveScenario) {
    // A live server always runs its watch caches; a recording made before the recorder observed
    // them at its start holds no cache event to draw from.
    return "This recording holds no watch cache event (it was recorded before listwatch recorded the server's watch caches at a live run's start), so there is no cache history, capacity or cache resourceVersion to show.";
  }
  return `This scenario does not start the watch cache: ${lists ? 'its LISTs go straight to the etcd3 store (store.GetList), so' : ''} there is no cache history, capacity or cache resourceVersion to show.`;
}
