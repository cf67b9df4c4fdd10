// Tests for src/scenarios/read-your-writes.ts: consistent reads from a lagging watch cache, checked
// against the release-1.36 delegator and watch cache rules (reference notes §4.2, §4.4): a read waits
// for the cache up to blockTimeout (3 s), then falls back to etcd (or answers 429 with the 1.37
// ConsistentListFromCacheSkipTimeoutFallback gate); the read-wait histogram observes every wait.
import * as assert from 'assert';
import { runScenario } from '../../../src/scenarios/runner';
import { histogramBuckets, metric } from '../../../src/scenarios/summary-format';

const writes = 10;
const blockTimeoutMs = 3000;
const buckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3];

/** The histogram bucket (its `le`) a wait of `ms` lands in. */
function bucketOf(ms: number): string {
  const s = ms / 1000;
  const b = buckets.find((le) => s <= le);
  return b === undefined ? '+Inf' : String(b);
}

describe('scenario read-your-writes', () => {
  const cases: Array<{ name: string; lag: number; readers: number; skip: boolean }> = [
    {
      name: 'a 500 ms lag: every read waits 500 ms and is served by the cache',
      lag: 500,
      readers: 1,
      skip: false,
    },
    { name: 'a 1700 ms lag, two readers', lag: 1700, readers: 2, skip: false },
    {
      name: 'a 4 s lag: every read times out and falls back to etcd',
      lag: 4000,
      readers: 1,
      skip: false,
    },
    {
      name: 'a 4 s lag with skipTimeoutFallback: 429 instead of etcd',
      lag: 4000,
      readers: 2,
      skip: true,
    },
    {
      name: 'a 2 s lag with skipTimeoutFallback: nothing times out, nothing is skipped',
      lag: 2000,
      readers: 1,
      skip: true,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      // No etcd latency: each wait is then exactly the lag (the test below has the measured one).
      const { model, summary } = await runScenario('read-your-writes', {
        cacheLagMs: c.lag,
        readers: c.readers,
        skipTimeoutFallback: c.skip,
        etcdLatency: 'zero',
      });
      const reads = writes * c.readers;
      const timesOut = c.lag >= blockTimeoutMs;
      const waited = timesOut ? blockTimeoutMs : c.lag;
      assert.strictEqual(model.lists.length, reads, c.name);
      for (const l of model.lists) {
        assert.strictEqual(l.waits.length, 1, `${c.name}: ${l.id} waited once`);
        assert.strictEqual(l.waits[0].waitedMs, waited, `${c.name}: ${l.id} wait`);
        assert.strictEqual(
          l.waits[0].outcome,
          timesOut ? 'timeout' : 'caught-up',
          `${c.name}: ${l.id}`,
        );
        if (!timesOut) assert.strictEqual(l.servedBy, 'cache', `${c.name}: ${l.id}`);
        else if (c.skip)
          assert.deepStrictEqual([l.servedBy, l.error?.code], ['error', 429], `${c.name}: ${l.id}`);
        else assert.strictEqual(l.servedBy, 'etcd', `${c.name}: ${l.id}: the fallback read etcd`);
      }
      assert.strictEqual(summary.facts.timeouts, timesOut ? reads : 0, c.name);
      assert.strictEqual(summary.facts.fallbackToEtcd, timesOut && !c.skip ? reads : 0, c.name);
      assert.strictEqual(summary.facts.tooManyRequests, timesOut && c.skip ? reads : 0, c.name);
      const gr = { group: '', resource: 'pods' };
      const counted = (fallback: string, success: string): number =>
        metric(model, 'apiserver_watch_cache_consistent_read_total', { fallback, success });
      assert.strictEqual(
        counted(
          timesOut ? (c.skip ? 'skipped' : 'true') : 'false',
          timesOut && c.skip ? 'false' : 'true',
        ),
        reads,
        `${c.name}: consistent_read_total`,
      );
      // release-1.36 observes every rv>0 wait: one observation per read, in the bucket of its wait.
      assert.strictEqual(
        metric(model, 'apiserver_watch_cache_read_wait_seconds_count', gr),
        reads,
        c.name,
      );
      assert.ok(
        Math.abs(
          metric(model, 'apiserver_watch_cache_read_wait_seconds_sum', gr) -
            (reads * waited) / 1000,
        ) < 1e-9,
        `${c.name}: sum`,
      );
      const hist = histogramBuckets(model, 'apiserver_watch_cache_read_wait_seconds');
      for (const b of hist)
        assert.strictEqual(
          b.count,
          b.le === bucketOf(waited) ? reads : 0,
          `${c.name}: bucket le=${b.le}`,
        );
    });
  }

  it("with the measured etcd latency a read waits the lag less its write's and its revision read's etcd time", async () => {
    const lag = 500;
    const { model } = await runScenario('read-your-writes', { cacheLagMs: lag });
    assert.strictEqual(model.lists.length, writes);
    for (const l of model.lists) {
      const rvRead = l.etcdRequests.find(
        (q) => q.operation === 'getCurrentResourceVersion' || q.operation === 'get',
      );
      assert.ok(rvRead && rvRead.latencyMs > 0, `${l.id}: the revision read took etcd time`);
      // The write is applied when etcd gets it; its answer, then the read, come later.
      const writeMs = lag - l.waits[0].waitedMs - rvRead.latencyMs;
      assert.ok(writeMs > 0.5 && writeMs < 2, `${l.id}: the write's answer took ${writeMs} ms`);
      assert.strictEqual(l.waits[0].outcome, 'caught-up', l.id);
    }
  });

  it("every read sees its write: each list RV is newer than the last, read after etcd's revision", async () => {
    const { model } = await runScenario('read-your-writes', { cacheLagMs: 900, readers: 1 });
    let last = 0;
    for (const l of model.lists) {
      const rv = Number(l.resourceVersion);
      assert.ok(rv > last, `${l.id}: RV ${rv} moves forward`);
      assert.ok(
        l.etcdRequests.some(
          (q) => q.operation === 'getCurrentResourceVersion' || q.operation === 'get',
        ),
        `${l.id}: asked etcd for its revision`,
      );
      last = rv;
    }
  });
});
