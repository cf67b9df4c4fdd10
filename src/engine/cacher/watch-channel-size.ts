// Mirrors k8s.io/apiserver pkg/storage/cacher/watch_cache.go `suggestedWatchChannelSize` and its
// constants (release-1.36). Upstream reads capacity and eventFreshDuration from the watch cache;
// here they are parameters (eventFreshDuration in ms).

/** Kept at 10 "for backward compatibility" until metrics show that less is safe. */
export const minWatchChanSize = 10;
/** A watcher selected through an index trigger sees few events: a small buffer is enough. */
export const maxWatchChanSizeWithIndexAndTrigger = 10;
/** Kept at 1000 "for backward compatibility". */
export const maxWatchChanSizeWithIndexWithoutTrigger = 1000;
/** Upstream TODO: maybe this should be higher. */
export const maxWatchChanSizeWithoutIndex = 100;

/**
 * The input/result channel capacity of a new cacheWatcher: roughly one second of history (cache
 * capacity / history window in seconds, rounded up), clamped to [10, max] where max depends on
 * whether the resource has an index and whether this watch uses its trigger.
 */
export function suggestedWatchChannelSize(
  capacity: number,
  eventFreshDuration: number,
  indexExists: boolean,
  triggerUsed: boolean,
): number {
  let chanSize = Math.ceil(capacity / (eventFreshDuration / 1000));
  if (!(chanSize >= minWatchChanSize)) chanSize = minWatchChanSize; // also NaN for a zero window
  let maxChanSize: number;
  if (indexExists && triggerUsed) maxChanSize = maxWatchChanSizeWithIndexAndTrigger;
  else if (indexExists) maxChanSize = maxWatchChanSizeWithIndexWithoutTrigger;
  else maxChanSize = maxWatchChanSizeWithoutIndex;
  if (chanSize > maxChanSize) chanSize = maxChanSize;
  return chanSize;
}
