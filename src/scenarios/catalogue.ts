// No upstream counterpart: the built-in scenarios, in the order `listwatch scenario list` shows them.
import { bookmarkHeartbeats } from './bookmark-heartbeats';
import { rangestreamFallback } from './rangestream-fallback';
import { readYourWrites } from './read-your-writes';
import type { ScenarioModule } from './scenario';
import { selectorDeathSpiral } from './selector-death-spiral';
import { serializationFanout } from './serialization-fanout';
import { slowWatcherTermination } from './slow-watcher-termination';
import { watchCacheResize } from './watch-cache-resize';
import { watchlistStarvation } from './watchlist-starvation';

export const scenarioCatalogue: readonly ScenarioModule[] = [
  selectorDeathSpiral,
  readYourWrites,
  bookmarkHeartbeats,
  watchlistStarvation,
  serializationFanout,
  watchCacheResize,
  rangestreamFallback,
  slowWatcherTermination,
];

/** The scenario of that name, if any. */
export function findScenario(name: string): ScenarioModule | undefined {
  return scenarioCatalogue.find((m) => m.definition.name === name);
}
