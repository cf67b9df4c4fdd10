// Tests for src/scenarios/etcd-latency.ts and the scenarios' use of it: the parameters choose the
// model, the default run's etcd_request_duration_seconds observes the modelled times in the right
// buckets while virtual time passes, zero takes none, the summary says what the figures are, and
// selector-death-spiral's counterfactual is priced with the same model.
import * as assert from 'assert';
import {
  measuredEtcd34Latency,
  scaledLatency,
  zeroLatency,
  type LatencyModel,
} from '../../../src/engine/etcd/latency-model';
import type { EtcdRequestRecord } from '../../../src/run/run-model';
import { etcdLatencyOf } from '../../../src/scenarios/etcd-latency';
import { runScenario } from '../../../src/scenarios/runner';
import { fixedPageTimeMs } from '../../../src/scenarios/selector-death-spiral';
import { histogramBuckets, metric } from '../../../src/scenarios/summary-format';

const listOp = { operation: 'list', group: '', resource: 'pods' };

describe('scenario etcd latency', () => {
  it('the parameters choose the model; a run recorded without them had none', () => {
    const cases: Array<[string, Record<string, string | number>, LatencyModel]> = [
      ['measured', { etcdLatency: 'measured', etcdLatencyScale: 1 }, measuredEtcd34Latency],
      [
        'measured, scaled',
        { etcdLatency: 'measured', etcdLatencyScale: 10 },
        scaledLatency(measuredEtcd34Latency, 10),
      ],
      ['zero', { etcdLatency: 'zero', etcdLatencyScale: 10 }, zeroLatency],
      ['an old trace', {}, zeroLatency],
    ];
    for (const [name, params, want] of cases)
      assert.deepStrictEqual(etcdLatencyOf(params), want, name);
  });

  it('by default etcd_request_duration_seconds observes the modelled time of every call, in its bucket, as virtual time passes', async () => {
    const { model, summary } = await runScenario('selector-death-spiral', {});
    const l = model.lists[0];
    const calls = l.etcdRequests;
    assert.strictEqual(calls.length, 7);
    // Every page counts the rest of the 100,000 keys: 15-25 ms a call.
    for (const q of calls)
      assert.ok(q.latencyMs > 5 && q.latencyMs <= 25, `${q.limit}: ${q.latencyMs} ms`);
    const total = calls.reduce((s, q) => s + q.latencyMs, 0);
    assert.strictEqual(
      (l.endedAt ?? 0) - l.at,
      total,
      'the LIST took its etcd calls, one after another',
    );
    assert.strictEqual(model.durationMs, total, 'virtual time passed');
    assert.strictEqual(metric(model, 'etcd_request_duration_seconds_count', listOp), 7);
    assert.ok(
      Math.abs(metric(model, 'etcd_request_duration_seconds_sum', listOp) - total / 1000) < 1e-9,
    );
    const buckets = histogramBuckets(model, 'etcd_request_duration_seconds');
    for (const b of buckets)
      assert.strictEqual(b.count, b.le === '0.025' ? 7 : 0, `bucket le=${b.le}`);
    assert.strictEqual(summary.facts.etcdLatency, 'measured');
    // Facts are rounded to the microsecond.
    assert.ok(Math.abs(Number(summary.facts.etcdRequestMs) - total) < 1e-3);
    assert.ok(Math.abs(Number(summary.facts.listLatencyMs) - total) < 1e-3);
    assert.match(
      summary.story[summary.story.length - 1],
      /^etcd times are modelled, not measured on a cluster: a fit to etcd 3\.4\.23 on loopback \(0\.49 ms a request/,
    );
    assert.ok(
      Number(summary.facts.naiveEtcdTimeMs) > 5 * total,
      `fixed pages (${summary.facts.naiveEtcdTimeMs} ms) cost far more than doubling (${total} ms)`,
    );
  });

  it('with etcdLatency=zero etcd takes no virtual time and the summary says so', async () => {
    const { model, summary } = await runScenario('selector-death-spiral', {
      objects: 3000,
      matchEvery: 50,
      limit: 10,
      etcdLatency: 'zero',
    });
    assert.strictEqual(model.durationMs, 0);
    assert.ok(model.lists[0].etcdRequests.every((q) => q.latencyMs === 0));
    assert.strictEqual(metric(model, 'etcd_request_duration_seconds_sum', listOp), 0);
    const buckets = histogramBuckets(model, 'etcd_request_duration_seconds');
    const calls = model.lists[0].etcdRequests.length;
    for (const b of buckets)
      assert.strictEqual(b.count, b.le === '0.005' ? calls : 0, `bucket le=${b.le}`);
    assert.strictEqual(summary.facts.etcdLatency, 'zero');
    assert.strictEqual(
      summary.story[summary.story.length - 1],
      'etcd took no virtual time (etcdLatency=zero): every etcd duration here is 0.',
    );
  });

  it('a scaled model scales the times', async () => {
    const set = { objects: 3000, matchEvery: 50, limit: 10 };
    const one = await runScenario('selector-death-spiral', set);
    const ten = await runScenario('selector-death-spiral', { ...set, etcdLatencyScale: 10 });
    const t1 = Number(one.summary.facts.etcdRequestMs);
    const t10 = Number(ten.summary.facts.etcdRequestMs);
    assert.ok(Math.abs(t10 / t1 - 10) < 0.05, `${t10} ms is about 10 × ${t1} ms`);
    assert.strictEqual(ten.summary.facts.etcdLatency, 'measured×10');
  });

  it('fixedPageTimeMs prices each fixed page at the rest of the range plus what a returned key cost', () => {
    const m: LatencyModel = { ...zeroLatency, perRequestMs: 1, perCountedKeyMs: 0.01 };
    // Two real calls: 100 keys counted, 10 and then 20 returned, 0.1 ms a returned key.
    const calls = [
      { count: 100, kvs: 10, latencyMs: 1 + 1 + 1 },
      { count: 90, kvs: 20, latencyMs: 1 + 0.9 + 2 },
    ] as EtcdRequestRecord[];
    // Fixed pages of 40 over 100 keys: count 100, 60, 20; return 40, 40, 20.
    const want = 3 * 1 + (100 + 60 + 20) * 0.01 + (40 + 40 + 20) * 0.1;
    assert.ok(Math.abs(fixedPageTimeMs(m, calls, 3, 40, 100) - want) < 1e-9);
    assert.strictEqual(
      fixedPageTimeMs(
        zeroLatency,
        calls.map((q) => ({ ...q, latencyMs: 0 })),
        3,
        40,
        100,
      ),
      0,
    );
  });
});
