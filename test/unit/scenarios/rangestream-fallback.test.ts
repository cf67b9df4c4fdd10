// Tests for src/scenarios/rangestream-fallback.ts against master's (1.37-pre) etcd3 store and
// feature support checker (reference notes §3.2): an unfiltered list streams when RangeStream is
// believed supported; Unimplemented marks it unsupported for 10 minutes (the recheck), the list
// pages instead; a filtered, paged list never streams; release-1.36 has no RangeStream.
import * as assert from 'assert';
import { runScenario } from '../../../src/scenarios/runner';

const recheckMs = 10 * 60 * 1000;

/** Round times (ms) at which an unfiltered list probes RangeStream: the first, then once 10 min have passed since the last probe. */
function expectedProbes(lists: number, intervalSeconds: number): number[] {
  const probes: number[] = [];
  for (let i = 0; i < lists; i++) {
    const t = i * intervalSeconds * 1000;
    if (probes.length === 0 || t - probes[probes.length - 1] >= recheckMs) probes.push(t);
  }
  return probes;
}

describe('scenario rangestream-fallback', () => {
  const unsupported: Array<{ lists: number; intervalSeconds: number }> = [
    { lists: 30, intervalSeconds: 60 },
    { lists: 7, intervalSeconds: 120 },
    { lists: 12, intervalSeconds: 250 },
    { lists: 4, intervalSeconds: 1 },
  ];
  for (const c of unsupported) {
    it(`etcd without RangeStream, ${c.lists} rounds every ${c.intervalSeconds} s: probes every 10 minutes, pages otherwise`, async () => {
      const { model, summary } = await runScenario('rangestream-fallback', {
        etcdSupportsRangeStream: false,
        lists: c.lists,
        intervalSeconds: c.intervalSeconds,
      });
      const probes = expectedProbes(c.lists, c.intervalSeconds);
      const t0 = model.lists[0].at;
      const unfiltered = model.lists.filter((l) => l.client === 'unfiltered');
      const probed = unfiltered.filter((l) =>
        l.etcdRequests.some((q) => q.operation === 'listStream'),
      );
      assert.deepStrictEqual(
        probed.map((l) => l.at - t0),
        probes,
        'probe times',
      );
      for (const l of probed) {
        assert.deepStrictEqual(
          l.etcdRequests.map((q) => q.operation),
          ['listStream', 'list'],
          `${l.id}: the probe, then a paged list`,
        );
        assert.match(l.etcdRequests[0].error ?? '', /Unimplemented/, l.id);
        assert.strictEqual(l.streamed, false, l.id);
        assert.strictEqual(l.fallbacks.length, 1, l.id);
      }
      for (const l of unfiltered.filter((x) => !probed.includes(x)))
        assert.deepStrictEqual(l.stream?.reason, 'marked-unsupported', l.id);
      assert.strictEqual(summary.facts.fallbacks, probes.length);
      assert.strictEqual(summary.facts.filteredStreamed, 0);
    });
  }

  it('etcd with RangeStream: every unfiltered list is one RangeStream request, filtered ones page', async () => {
    const { model, summary } = await runScenario('rangestream-fallback', {
      etcdSupportsRangeStream: true,
      lists: 5,
      intervalSeconds: 60,
    });
    for (const l of model.lists) {
      if (l.client === 'unfiltered') {
        assert.deepStrictEqual(
          [l.streamed, l.etcdRequests.map((q) => q.operation)],
          [true, ['listStream']],
          l.id,
        );
        assert.strictEqual(l.returned, 500, l.id);
      } else {
        assert.deepStrictEqual([l.streamed, l.stream?.reason], [false, 'filtered-page'], l.id);
        assert.ok(
          l.etcdRequests.every((q) => q.operation === 'list'),
          l.id,
        );
      }
    }
    assert.deepStrictEqual([summary.facts.streamedLists, summary.facts.fallbacks], [5, 0]);
  });

  it('release-1.36: no RangeStream at all', async () => {
    const { model, summary } = await runScenario('rangestream-fallback', {
      profile: '1.36',
      lists: 3,
      intervalSeconds: 700,
    });
    assert.ok(model.lists.every((l) => l.etcdRequests.every((q) => q.operation === 'list')));
    assert.deepStrictEqual(
      [summary.facts.rangeStreamRequests, summary.facts.streamedLists, summary.facts.fallbacks],
      [0, 0, 0],
    );
  });
});
