// Runs watch-cacher-cases.ts over the in-memory etcd (test/etcd/ported-watch.test.ts runs them over
// a real one), and cacher_whitebox_test.go's TestWatchListSemanticsSimple and cache_watcher_test.go's
// TestCacheWatcherStoppedOnDestroy, which need no etcd.
import { memoryEtcd } from '../../harness/etcd-under-test';
import * as assert from 'assert';
import { settle } from '../../../src/engine/clock';
import { profile136, profile137Preview } from '../../../src/engine/features';
import { newListOptions } from '../../../src/engine/storage/list-options';
import { MockStorage, newTestCacher, newTestCacherWithoutSyncing } from '../cacher/cacher-testing';
import { CacheWatchReader, watchCacherCases } from './watch-cacher-cases';
import { foreverTestTimeout, receive } from './watch-testing';

watchCacherCases(memoryEtcd);

// The whitebox cases run over MockStorage, no etcd: they are the unit suite's only.
for (const profile of [profile136, profile137Preview]) {
  describe(`storagetesting watch: cacher whitebox (${profile.name})`, () => {
    /**
     * TestWatchListSemanticsSimple: with WatchList on, a cacher over a storage without watch-list
     * semantics (MockStorage) still becomes ready. Deliberate difference: client-go's
     * WatchListClient is not modelled; the engine's reflector always lists and watches, which is
     * what upstream's reflector falls back to when the storage reports
     * IsWatchListSemanticsUnSupported, as MockStorage does.
     */
    it('TestWatchListSemanticsSimple', async () => {
      assert.strictEqual(profile.gates.WatchList, true, 'the WatchList gate is on');
      const { cacher, clock } = newTestCacherWithoutSyncing(new MockStorage(), {
        gates: profile.gates,
      });
      try {
        let ready = false;
        let failed: unknown;
        cacher.waitReady().then(
          () => (ready = true),
          (e) => (failed = e),
        );
        // context.WithTimeout(5s) around cacher.ready.wait.
        const deadline = clock.now() + 5000;
        while (!ready && failed === undefined && clock.now() < deadline) {
          await settle();
          if (!ready) await clock.stepAsync(10);
        }
        assert.ok(ready, `error waiting for the cache to be ready, err: ${String(failed)}`);
      } finally {
        cacher.stop();
      }
    });

    /** TestCacheWatcherStoppedOnDestroy: Stop on the cacher closes an open watch. */
    it('TestCacheWatcherStoppedOnDestroy', async () => {
      const { cacher, clock } = await newTestCacher(new MockStorage(), { gates: profile.gates });
      try {
        const w = new CacheWatchReader(
          await cacher.watch('/pods/ns', newListOptions({ resourceVersion: '0' })),
        );
        cacher.stop();
        for (;;) {
          const r = await receive(clock, w, foreverTestTimeout);
          if (r === undefined) assert.fail('timed out waiting for watch to close');
          if ('closed' in r) break;
          assert.ok(
            ['ADDED', 'MODIFIED', 'DELETED'].includes(r.event.type),
            `unexpected event ${r.event.type}`,
          );
        }
      } finally {
        cacher.stop();
      }
    });
  });
}
