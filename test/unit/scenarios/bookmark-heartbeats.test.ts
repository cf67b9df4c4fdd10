// Tests for src/scenarios/bookmark-heartbeats.ts against the release-1.36 bookmark rules
// (reference notes §5.1–5.3, §8.4): one heartbeat per watcher per minute, one 2 s before a deadline
// (nextBookmarkTime), none after; bookmarks whose RV did not move are dispatched but not sent.
import * as assert from 'assert';
import { runScenario } from '../../../src/scenarios/runner';

const frequencyMs = 60_000;
const preTimeoutMs = 2000;

/**
 * Bookmarks a watcher opened at ~0 gets over the run by nextBookmarkTime: heartbeats every minute,
 * the last one moved to deadline-2s; none once the deadline is within 2 s. `endMs` is when the run
 * stops (minutes plus the 30 s tail).
 */
function expectedBookmarks(
  timeoutSeconds: number,
  endMs: number,
): { heartbeats: number; preDeadline: number } {
  const deadline = timeoutSeconds > 0 ? timeoutSeconds * 1000 : Number.POSITIVE_INFINITY;
  let now = 0;
  let heartbeats = 0;
  let pre = 0;
  for (;;) {
    let next = now + frequencyMs;
    const pretimeout = deadline - preTimeoutMs;
    const isPre = pretimeout < next;
    if (isPre) next = pretimeout;
    if (next < now || next > endMs) break;
    heartbeats++;
    if (isPre) {
      pre++;
      break;
    }
    now = next;
  }
  return { heartbeats, preDeadline: pre };
}

describe('scenario bookmark-heartbeats', () => {
  const cases: Array<{
    name: string;
    watchers: number;
    minutes: number;
    timeoutSeconds: number;
    writesPerSecond: number;
  }> = [
    {
      name: '3 minutes, random 30–60 min deadlines: one heartbeat a minute',
      watchers: 200,
      minutes: 3,
      timeoutSeconds: 0,
      writesPerSecond: 1,
    },
    {
      name: '5 minutes, 2 writes per second',
      watchers: 50,
      minutes: 5,
      timeoutSeconds: 0,
      writesPerSecond: 2,
    },
    {
      name: 'timeoutSeconds=70: a heartbeat at 1 min, the pre-deadline one at 68 s, then the watch ends',
      watchers: 50,
      minutes: 3,
      timeoutSeconds: 70,
      writesPerSecond: 1,
    },
    {
      name: 'timeoutSeconds=150: two heartbeats and the pre-deadline one',
      watchers: 50,
      minutes: 3,
      timeoutSeconds: 150,
      writesPerSecond: 1,
    },
    {
      name: 'a writer every 5 s is enough: progress notifications come every 5 s',
      watchers: 20,
      minutes: 2,
      timeoutSeconds: 0,
      writesPerSecond: 0.2,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { model, summary } = await runScenario('bookmark-heartbeats', {
        watchers: c.watchers,
        minutes: c.minutes,
        timeoutSeconds: c.timeoutSeconds,
        writesPerSecond: c.writesPerSecond,
      });
      const want = expectedBookmarks(c.timeoutSeconds, c.minutes * 60_000 + 30_000);
      assert.strictEqual(model.watchers.length, c.watchers, c.name);
      for (const w of model.watchers) {
        assert.strictEqual(
          w.bookmarksReceived,
          want.heartbeats,
          `${c.name}: watcher ${w.id} bookmarks`,
        );
        assert.strictEqual(
          w.preDeadlineBookmarks,
          want.preDeadline,
          `${c.name}: watcher ${w.id} pre-deadline`,
        );
        assert.deepStrictEqual(
          w.states.map((s) => s.state),
          ['WaitingForBookmark', 'BookmarkSent'],
          `${c.name}: a plain watch starts in BookmarkSent`,
        );
        assert.strictEqual(
          w.closeReason,
          c.timeoutSeconds > 0 ? 'timeout' : '',
          `${c.name}: watcher ${w.id}`,
        );
        const times = w.bookmarkTimes ?? [];
        for (let i = 1; i < times.length; i++) {
          const gap = times[i] - times[i - 1];
          if (i < want.heartbeats - want.preDeadline)
            assert.ok(
              gap >= frequencyMs - 1000 && gap < frequencyMs + 2250,
              `${c.name}: heartbeat gap ${gap} ms is a minute within the bucket precision`,
            );
        }
      }
      assert.strictEqual(summary.facts.bookmarksSent, want.heartbeats * c.watchers, c.name);
      // One timer pops every due watcher at once: they were all opened in the same second.
      for (const t of model.bookmarkTicks ?? [])
        assert.ok(t.watchers === c.watchers, `${c.name}: tick at ${t.at} popped ${t.watchers}`);
    });
  }

  it('writesPerSecond=0: the RV stands still, bookmarks are dispatched but never sent', async () => {
    const { model, summary } = await runScenario('bookmark-heartbeats', {
      watchers: 30,
      minutes: 3,
      writesPerSecond: 0,
    });
    for (const w of model.watchers) {
      assert.strictEqual(w.bookmarksReceived, 0, `watcher ${w.id}`);
      assert.deepStrictEqual(
        w.bookmarksDropped,
        { notNewer: 3 },
        `watcher ${w.id}: one a minute, dropped by process()`,
      );
    }
    assert.strictEqual(summary.facts.bookmarksDispatched, 90);
    assert.strictEqual(summary.facts.bookmarksDroppedNotNewer, 90);
  });

  it("the bookmark carries etcd's revision, learned from progress notifications", async () => {
    const { model } = await runScenario('bookmark-heartbeats', {
      watchers: 5,
      minutes: 2,
      writesPerSecond: 1,
    });
    const ticks = model.bookmarkTicks ?? [];
    assert.strictEqual(ticks.length, 2);
    for (const t of ticks) {
      const etcd = model.resourceVersions.filter((p) => p.at <= t.at).pop();
      assert.ok(
        etcd !== undefined &&
          t.resourceVersion <= etcd.etcdRv &&
          t.resourceVersion >= etcd.etcdRv - 5,
        `bookmark RV ${t.resourceVersion} is etcd's within the 5 s notify interval`,
      );
    }
  });
});
