// Tests for src/scenarios/watchlist-starvation.ts against release-1.36 (reference notes §5.3, §8.4,
// §9.12): a WatchList watch waits for the cache to reach etcd's revision for blockTimeout (3 s),
// else gets a single 504 ERROR (retry after 1 s); a registered WatchList watcher gets its initial
// events, exactly one initial-events-end bookmark, then heartbeats.
import * as assert from 'assert';
import { runScenario } from '../../../src/scenarios/runner';

describe('scenario watchlist-starvation', () => {
  const cases: Array<{ name: string; watchers: number; stuckSeconds: number }> = [
    { name: 'stuck 10 s: 504s while stuck, then registered', watchers: 5, stuckSeconds: 10 },
    { name: 'stuck 20 s (the default)', watchers: 8, stuckSeconds: 20 },
    { name: 'stuck 21 s', watchers: 8, stuckSeconds: 21 },
    { name: 'not stuck: the first attempt is registered', watchers: 4, stuckSeconds: 0 },
    {
      name: 'stuck 2 s: shorter than blockTimeout, the first attempt waits and succeeds',
      watchers: 3,
      stuckSeconds: 2,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { model, summary } = await runScenario('watchlist-starvation', {
        watchers: c.watchers,
        stuckSeconds: c.stuckSeconds,
      });
      const reqs = model.watchRequests ?? [];
      const errors = reqs.filter((q) => q.outcome === 'error');
      assert.strictEqual(
        model.watchers.length,
        c.watchers,
        `${c.name}: every client registered once`,
      );
      assert.ok(
        errors.every(
          (e) => e.error?.code === 504 && /Too large resource version/i.test(e.error.message),
        ),
        `${c.name}: only 504 TooLargeResourceVersion`,
      );
      // Clients start 0.5 s into the stall; attempt k starts at 0.5 + 4k s (blockTimeout 3 s, then
      // the 1 s retry) and fails when its 3 s end before the stall does.
      let expectedFailures = 0;
      while (0.5 + 4 * expectedFailures + 3 < c.stuckSeconds) expectedFailures++;
      const perClient = new Map<string, number>();
      for (const e of errors) perClient.set(e.client, (perClient.get(e.client) ?? 0) + 1);
      for (const [client, n] of perClient)
        assert.strictEqual(n, expectedFailures, `${c.name}: ${client} failed attempts`);
      assert.strictEqual(errors.length, expectedFailures * c.watchers, c.name);
      for (const w of model.watchers) {
        assert.strictEqual(
          w.initialEventsEndBookmarks,
          1,
          `${c.name}: watcher ${w.id}: exactly one initial-events-end bookmark`,
        );
        assert.strictEqual(
          w.states[0].state,
          'WaitingForBookmark',
          `${c.name}: a WatchList watcher starts waiting for its bookmark`,
        );
        assert.strictEqual(w.states[w.states.length - 1].state, 'BookmarkSent', c.name);
        assert.ok(
          w.bookmarkFloorRv > 0,
          `${c.name}: bookmarkAfterResourceVersion is etcd's revision`,
        );
        assert.ok(w.bookmarksReceived - 1 >= 1, `${c.name}: heartbeats after the end bookmark`);
      }
      assert.strictEqual(
        summary.facts.freshnessTimeouts,
        errors.length,
        `${c.name}: one 3 s timeout per 504`,
      );
    });
  }
});
