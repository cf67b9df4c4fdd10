// Test helper: a CacheWatcher wired as the cacher wires one, on a fresh FakeClock and request
// context, with a forget that stops it and records whether it was asked to drain.
import { FakeClock } from '../../../src/engine/clock';
import { newCacheWatcher, type CacheWatcher } from '../../../src/engine/cacher/cache-watcher';
import { WatchRequestContext } from '../../../src/engine/clients/watch-client';

export function wiredWatcher(
  chanSize: number,
  timeoutMs: number,
): { clock: FakeClock; ctx: WatchRequestContext; w: CacheWatcher; forgets: boolean[] } {
  const clock = new FakeClock(0);
  const ctx = new WatchRequestContext(clock, timeoutMs);
  const forgets: boolean[] = [];
  const w: CacheWatcher = newCacheWatcher(
    chanSize,
    () => true,
    (drain) => {
      forgets.push(drain);
      w.setDrainInputBufferLocked(drain);
      w.stopLocked();
    },
    ctx.deadline,
    true,
    { group: '', resource: 'pods' },
    'test',
  );
  return { clock, ctx, w, forgets };
}
