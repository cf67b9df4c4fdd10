// Tests for src/engine/cacher/indexed-watchers.ts: watchers by scope and trigger value (cacher.go
// indexedWatchers), each map in the order of positions drawn from a seeded stream at registration
// (Go's random map order, seeded): the same for a seed, another for another seed, kept across
// additions and deletions; and runs of alike watchers still form in that order.
import * as assert from 'assert';
import { SeededRandom } from '../../../src/engine/rand';
import { FakeClock } from '../../../src/engine/clock';
import {
  emptyFunc,
  newCacheWatcher,
  type CacheWatcher,
} from '../../../src/engine/cacher/cache-watcher';
import {
  IndexedWatchers,
  WatcherRegistration,
  type DispatchEntry,
  type WatcherCollector,
} from '../../../src/engine/cacher/indexed-watchers';
import { WatcherRun } from '../../../src/engine/cacher/watcher-run';
import { createResource } from '../../../src/engine/apiserver';

const pods = { group: '', resource: 'pods' };

function watcher(id: number): CacheWatcher {
  return newCacheWatcher(1, () => true, emptyFunc, 0, false, pods, `w${id}`, { id });
}

/** The ids of the watchers a dispatch to the scope ('', '') would offer an event, in order. */
function order(index: IndexedWatchers): Array<number | string> {
  const c: WatcherCollector = { buf: [], n: 0, watchers: 0 };
  index.collectScopedWatchers('', '', c);
  return c.buf
    .slice(0, c.n)
    .map((e: DispatchEntry) => (e instanceof WatcherRegistration ? e.watcher.id : 'run'));
}

function registered(
  seed: number,
  n: number,
): { index: IndexedWatchers; regs: WatcherRegistration[] } {
  const index = new IndexedWatchers(() => undefined, new SeededRandom(seed));
  const regs: WatcherRegistration[] = [];
  for (let i = 0; i < n; i++)
    regs.push(index.addWatcher(watcher(i), i, { namespace: '', name: '' }, '', false, undefined));
  return { index, regs };
}

describe('indexedWatchers: dispatch order', () => {
  it('is the order of the seeded positions: the same for a seed, another for another', () => {
    const a = order(registered(1, 20).index);
    assert.deepStrictEqual(order(registered(1, 20).index), a, 'same seed, same order');
    assert.notDeepStrictEqual(order(registered(2, 20).index), a, 'another seed, another order');
    assert.notDeepStrictEqual(a, [...Array(20).keys()], 'not the order of registration');
    assert.deepStrictEqual(
      [...a].sort((x, y) => Number(x) - Number(y)),
      [...Array(20).keys()],
    );
  });

  it('keeps each watcher where its position puts it across additions and deletions', () => {
    const { index, regs } = registered(3, 10);
    const positions = new Map(regs.map((r) => [r.watcher.id, r.position]));
    const byPosition = (ids: Array<number | string>): Array<number | string> =>
      [...ids].sort((x, y) => (positions.get(x) as number) - (positions.get(y) as number));
    order(index); // merged
    for (const i of [2, 5, 7]) index.deleteWatcher(regs[i]);
    for (let i = 10; i < 15; i++) {
      const r = index.addWatcher(watcher(i), i, { namespace: '', name: '' }, '', false, undefined);
      positions.set(i, r.position);
      regs.push(r);
    }
    index.deleteWatcher(regs[11]); // deleted before it was ever merged
    const got = order(index);
    const want = byPosition([0, 1, 3, 4, 6, 8, 9, 10, 12, 13, 14]);
    assert.deepStrictEqual(got, want);
    assert.strictEqual(index.size, 11);
  });

  it('runs of alike watchers still form in that order', async () => {
    const clock = new FakeClock(0);
    const r = createResource({ clock, rand: new SeededRandom(1) });
    r.start();
    await r.waitReady();
    await r.step(20);
    const rv = String(r.etcd.currentRevision());
    for (let i = 0; i < 8; i++) await r.watch({ resourceVersion: rv, keepEvents: false });
    // One with a selector of its own, somewhere among them.
    await r.watch({ resourceVersion: rv, keepEvents: false, labelSelector: 'app=web' });
    await r.createPod({ name: 'p', namespace: 'default', labels: { app: 'web' } });
    await r.settle();
    const c: WatcherCollector = { buf: [], n: 0, watchers: 0 };
    r.cacher.watchers.collectScopedWatchers('', '', c);
    const runs = c.buf.slice(0, c.n).filter((e) => e instanceof WatcherRun) as WatcherRun[];
    assert.ok(runs.length >= 1, 'at least one run');
    assert.strictEqual(
      runs.reduce((n, run) => n + run.members.length, 0) + (c.n - runs.length),
      9,
      'every watcher in one entry',
    );
    assert.deepStrictEqual(
      r.openedWatches().map((w) => w.client.received),
      [1, 1, 1, 1, 1, 1, 1, 1, 1],
    );
    r.stop();
  });
});
