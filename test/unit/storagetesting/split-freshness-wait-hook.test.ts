// The watch cache reports the start of a freshness wait through its onFreshnessWaitStart hook
// (src/engine/cacher/watch-cache.ts waitUntilFreshAndBlock); the cacher turns it into the
// watchcache/wait-start engine event without replacing the method (no upstream counterpart).
import * as assert from 'assert';
import { RecordingSink } from '../../../src/engine/inspect/events';
import { MockStorage, newTestCacher } from '../cacher/cacher-testing';
import { makeTestPod, newTestWatchCache } from '../cacher/watch-cache-testing';

describe('split: the freshness-wait start hook', () => {
  it('is called once per wait, before the wait, and not when the cache is fresh', async () => {
    const starts: [number, number][] = [];
    const t = newTestWatchCache(
      10,
      undefined,
      {},
      {
        onFreshnessWaitStart: (rv, cacheRv) => starts.push([rv, cacheRv]),
      },
    );
    t.wc.add(makeTestPod('a', 2));
    const cases: { rv: number; wantStart: boolean }[] = [
      { rv: 0, wantStart: false },
      { rv: 1, wantStart: false },
      { rv: 2, wantStart: false },
      { rv: 5, wantStart: true },
    ];
    for (const c of cases) {
      starts.length = 0;
      const wait = t.wc.waitUntilFreshAndBlock(c.rv);
      assert.deepStrictEqual(starts, c.wantStart ? [[c.rv, 2]] : [], `rv ${c.rv}`);
      if (c.wantStart) t.wc.add(makeTestPod('b', c.rv));
      await wait;
    }
  });

  it('the cacher emits watchcache/wait-start through it; the method stays the class method', async () => {
    const eventSink = new RecordingSink();
    const storage = new MockStorage();
    const t = await newTestCacher(storage, { eventSink: eventSink });
    try {
      const wc = t.cacher.watchCache;
      assert.strictEqual(Object.prototype.hasOwnProperty.call(wc, 'waitUntilFreshAndBlock'), false);
      const wait = wc.waitUntilFreshAndBlock(wc.resourceVersion + 1);
      assert.deepStrictEqual(
        eventSink.ofType('watchcache/wait-start').map((e) => [e.resourceVersion, e.at]),
        [[wc.resourceVersion + 1, t.clock.now()]],
      );
      await t.clock.stepAsync(3000);
      await assert.rejects(wait, /Too large resource version/);
    } finally {
      t.cacher.stop();
    }
  });
});
