// Tests for src/scenarios/slow-watcher-termination.ts against release-1.36 dispatchEvent, the time
// budget and cacheWatcher.add (reference notes §5.2, §5.3): only watchers whose buffer is full when
// an event is dispatched are terminated (apiserver_terminated_watchers_total), gracefully only when
// the watcher holds its awaited bookmark (BookmarkReceived).
import * as assert from 'assert';
import { runScenario } from '../../../src/scenarios/runner';

describe('scenario slow-watcher-termination', () => {
  const cases: Array<{
    name: string;
    fastWatchers: number;
    slowWatchers: number;
    eventsPerSecond: number;
    terminated: number;
  }> = [
    {
      name: 'slow readers behind 200 events/s are all terminated, fast ones never',
      fastWatchers: 10,
      slowWatchers: 4,
      eventsPerSecond: 200,
      terminated: 4,
    },
    {
      name: 'the default mix',
      fastWatchers: 50,
      slowWatchers: 5,
      eventsPerSecond: 200,
      terminated: 5,
    },
    // Only the WatchList one blocks: reading its 50 initial events at 10/s takes 5 s while 5 live events/s fill its buffer of 10.
    {
      name: 'events slower than the slow readers: only the WatchList watcher, still in its initial events, blocks',
      fastWatchers: 5,
      slowWatchers: 3,
      eventsPerSecond: 5,
      terminated: 1,
    },
    {
      name: 'events slow enough for the WatchList watcher to finish its initial events: nobody blocks',
      fastWatchers: 5,
      slowWatchers: 1,
      eventsPerSecond: 2,
      terminated: 0,
    },
    {
      name: 'no slow watchers: no terminations',
      fastWatchers: 20,
      slowWatchers: 0,
      eventsPerSecond: 500,
      terminated: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { model, summary } = await runScenario('slow-watcher-termination', {
        fastWatchers: c.fastWatchers,
        slowWatchers: c.slowWatchers,
        eventsPerSecond: c.eventsPerSecond,
      });
      const clientOf = new Map<string, string>();
      for (const q of model.watchRequests ?? [])
        if (q.watcherId !== undefined) clientOf.set(q.watcherId, q.client);
      const terminated = model.watchers.filter((w) => w.terminated);
      assert.strictEqual(terminated.length, c.terminated, c.name);
      for (const w of terminated)
        assert.ok(
          clientOf.get(w.id)?.startsWith('slow'),
          `${c.name}: ${clientOf.get(w.id)} is a slow watcher`,
        );
      assert.strictEqual(summary.facts.terminatedFast, 0, c.name);
      assert.strictEqual(
        model.metrics['apiserver_terminated_watchers_total{group="",resource="pods"}'] ?? 0,
        c.terminated,
        `${c.name}: metric`,
      );
      const d = model.dispatch;
      const blockedTerminations = (d?.blocked ?? []).reduce((a, b) => a + b.terminated, 0);
      assert.strictEqual(
        blockedTerminations,
        c.terminated,
        `${c.name}: each termination happened in a dispatch that met blocked watchers`,
      );
      for (const b of d?.blocked ?? []) {
        assert.ok(b.budgetMs <= 100, `${c.name}: the budget is at most 100 ms (${b.budgetMs})`);
        assert.ok(
          b.waitedMs <= b.budgetMs,
          `${c.name}: waited ${b.waitedMs} within the budget ${b.budgetMs}`,
        );
      }
      for (const w of model.watchers.filter((x) => clientOf.get(x.id)?.startsWith('fast'))) {
        assert.strictEqual(
          w.eventsReceived,
          c.eventsPerSecond * 10,
          `${c.name}: fast watcher ${w.id} got every event`,
        );
      }
    });
  }

  it('the WatchList watcher holding its awaited bookmark is closed gracefully and drains its buffer', async () => {
    const { model, summary } = await runScenario('slow-watcher-termination', {
      fastWatchers: 2,
      slowWatchers: 2,
      eventsPerSecond: 200,
    });
    const req = (model.watchRequests ?? []).find((q) => q.client.startsWith('slow-watchlist'));
    const w = model.watchers.find((x) => x.id === req?.watcherId);
    assert.ok(w, 'the WatchList watcher exists');
    assert.deepStrictEqual(
      w.states.map((s) => s.state),
      ['WaitingForBookmark', 'BookmarkReceived', 'BookmarkSent'],
    );
    assert.strictEqual(w.closeReason, 'terminated (blocked dispatch, graceful drain)');
    assert.strictEqual(
      w.initialEventsEndBookmarks,
      1,
      'its client still got the initial-events-end bookmark',
    );
    assert.ok(
      w.eventsReceived > 50 + 1,
      'the initial events, the bookmark and the buffered events were drained',
    );
    assert.strictEqual(summary.facts.gracefulTerminations, 1);
    const plain = model.watchers.find(
      (x) => x.id === (model.watchRequests ?? []).find((q) => q.client === 'slow-0001')?.watcherId,
    );
    assert.strictEqual(
      plain?.closeReason,
      'terminated (blocked dispatch)',
      'a plain watcher is closed at once',
    );
  });
});
