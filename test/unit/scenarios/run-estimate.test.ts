// Tests for src/scenarios/run-estimate.ts, run-eta.ts and the runner's trace cap: every scenario
// declares an estimate; each default run's estimate is within a stated factor of what the run
// really did (events and trace size, never times); the guard's limits; the time left; a run
// stopped at its trace cap is kept, marked truncated, and reads back so.
import * as assert from 'assert';
import { findScenario, scenarioCatalogue } from '../../../src/scenarios/catalogue';
import {
  defaultGuardLimits,
  estimateLines,
  estimateWorkload,
  guardReasons,
  traceCapPercent,
  wallText,
  type RunEstimate,
} from '../../../src/scenarios/run-estimate';
import { etaText, remainingMs } from '../../../src/scenarios/run-eta';
import {
  estimateRun,
  resolveParams,
  runScenario,
  truncatedPhase,
  truncationOf,
} from '../../../src/scenarios/runner';
import { loadRun } from '../../../src/run/load-run';
import { TraceWriter } from '../../../src/run/trace/trace-writer';
import { measureRun } from '../../../bench/run-measure';
import { formatBytesRoughly } from '../../../src/format/byte-size-text';

/**
 * How far a default run's estimate may be from the run: within this factor either way. The trace
 * constants were measured on these runs (most land within 1.2×); the factor leaves room for
 * trace-format changes that add a field or two to each line.
 */
const defaultRunFactor = 1.5;

function within(what: string, estimated: number, measured: number, factor: number): void {
  if (measured === 0) {
    assert.strictEqual(estimated, 0, `${what}: estimated ${estimated}, the run did none`);
    return;
  }
  const ratio = estimated / measured;
  assert.ok(
    ratio <= factor && ratio >= 1 / factor,
    `${what}: estimated ${estimated}, measured ${measured} (ratio ${ratio.toFixed(2)}, allowed 1/${factor}…${factor})`,
  );
}

const big = { burstEventsPerSecond: 20000, burstSeconds: 3600 };

describe('run estimates', () => {
  it('every scenario declares an estimate, with finite, non-negative figures for its defaults', () => {
    for (const m of scenarioCatalogue) {
      const name = m.definition.name;
      assert.strictEqual(typeof m.estimate, 'function', `${name} has no estimate`);
      const e = estimateRun(name, {});
      for (const [k, v] of Object.entries(e)) {
        if (k === 'scenario') continue;
        assert.ok(Number.isFinite(v) && v >= 0, `${name}: ${k} = ${v}`);
      }
      assert.ok(e.traceBytes > 0 && e.traceLines > 0 && e.wallMs > 0, name);
    }
  });

  it('every parameter of every scenario moves or keeps the estimate, never breaks it (its minimum and maximum)', () => {
    for (const m of scenarioCatalogue) {
      for (const p of m.definition.params) {
        const values =
          p.type === 'number'
            ? [p.min, p.max]
            : p.type === 'boolean'
              ? [true, false]
              : (p.choices ?? []);
        for (const v of values) {
          if (v === undefined) continue;
          const e = estimateRun(m.definition.name, { [p.name]: v });
          for (const [k, x] of Object.entries(e))
            if (k !== 'scenario')
              assert.ok(
                Number.isFinite(x) && x >= 0,
                `${m.definition.name} ${p.name}=${v}: ${k} = ${x}`,
              );
        }
      }
    }
  });

  for (const m of scenarioCatalogue) {
    const name = m.definition.name;
    it(`${name}: the default run's estimate is within ${defaultRunFactor}× of its etcd writes, deliveries, watch requests, virtual time and trace`, async () => {
      const e = estimateRun(name, {});
      const got = await measureRun(name, {});
      within('etcd writes', e.etcdWrites, got.etcdWrites, defaultRunFactor);
      within('deliveries', e.deliveries, got.deliveries, defaultRunFactor);
      within('watch requests', e.watches, got.watches, defaultRunFactor);
      within('virtual ms', e.virtualMs, got.virtualMs, defaultRunFactor);
      within('trace lines', e.traceLines, got.traceLines, defaultRunFactor);
      within('trace bytes', e.traceBytes, got.traceBytes, defaultRunFactor);
    });
  }

  // etcd's modelled time, from the run's own latency parameters, in the estimate's virtual time.
  const latencyCases: Array<[string, Record<string, string | number>]> = [
    ['selector-death-spiral', { etcdLatency: 'zero' }],
    ['selector-death-spiral', { etcdLatencyScale: 10 }],
    ['serialization-fanout', { etcdLatencyScale: 100 }],
  ];
  for (const [name, set] of latencyCases) {
    const what = Object.entries(set)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    it(`${name} ${what}: the estimate's virtual time is within ${defaultRunFactor}× of the run's`, async () => {
      const got = await measureRun(name, set);
      within('virtual ms', estimateRun(name, set).virtualMs, got.virtualMs, defaultRunFactor);
    });
  }

  it('counts by the formulas the scenario runs: watch-cache-resize at 20000/s for an hour', () => {
    const e = estimateRun('watch-cache-resize', big);
    // 100 pods seeded, 20000 × 3600 updates in the burst, 1 × 600 in the quiet phase.
    assert.strictEqual(e.etcdWrites, 100 + 20000 * 3600 + 600);
    assert.strictEqual(e.virtualMs, 1000 + (3600 + 600) * 1000);
    assert.ok(e.traceBytes > 10 * 1024 ** 3, formatBytesRoughly(e.traceBytes));
    assert.deepStrictEqual(
      guardReasons(e, defaultGuardLimits, true).map((r) => r.split(' ')[0]),
      ['expected', 'trace', 'memory'],
    );
  });

  it('every default run is within the guard limits, trace included', () => {
    for (const m of scenarioCatalogue) {
      const e = estimateRun(m.definition.name, {});
      assert.deepStrictEqual(guardReasons(e, defaultGuardLimits, true), [], m.definition.name);
    }
  });

  const base: RunEstimate = estimateWorkload('t', {
    virtualMs: 1000,
    etcdWrites: 0,
    cachedWrites: 0,
    storeWrites: 0,
    deliveries: 0,
    watches: 0,
    listedKeys: 0,
    trace: {},
  });
  const mib = 1024 * 1024;
  const guardCases: Array<[string, Partial<RunEstimate>, boolean, string[]]> = [
    ['small', {}, true, []],
    ['long', { wallMs: 61_000 }, true, ['expected wall time 1 min 01 s is over 60 s']],
    ['at the limit', { wallMs: 60_000, traceBytes: 256 * mib }, true, []],
    ['big trace, written', { traceBytes: 300 * mib }, true, ['trace 300.0 MiB is over 256 MiB']],
    ['big trace, not written', { traceBytes: 300 * mib }, false, []],
    ['memory', { memoryBytes: 2048 * mib }, false, ['memory 2.0 GiB is over 1024 MiB']],
  ];
  for (const [what, change, writesTrace, reasons] of guardCases) {
    it(`guardReasons: ${what}`, () => {
      assert.deepStrictEqual(
        guardReasons({ ...base, ...change }, defaultGuardLimits, writesTrace),
        reasons,
      );
    });
  }

  it('reads as lines naming every figure', () => {
    const text = estimateLines(estimateRun('watch-cache-resize', big), false).join('\n');
    for (const word of [
      'etcd writes      72,000,700',
      'deliveries',
      'virtual time     1:10:01',
      'wall time',
      'trace',
      'not written',
      'memory',
    ])
      assert.ok(text.includes(word), `${word} in\n${text}`);
  });

  const wallCases: Array<[number, string]> = [
    [400, '0.4 s'],
    [12_300, '12 s'],
    [200_000, '3 min 20 s'],
    [7_500_000, '2 h 05 min'],
  ];
  for (const [ms, text] of wallCases)
    it(`wallText(${ms}) = ${text}`, () => assert.strictEqual(wallText(ms), text));

  const capCases: Array<[number, number]> = [
    // [cap in bytes, expected %] for a trace of 1000 bytes
    [500, 50],
    [994, 99],
    [1, 1],
  ];
  for (const [cap, percent] of capCases)
    it(`traceCapPercent: a 1000-byte trace reaches a ${cap}-byte cap ${percent}% through`, () =>
      assert.strictEqual(traceCapPercent({ ...base, traceBytes: 1000 }, cap), percent));

  const etaCases: Array<[string, number, number, number]> = [
    // [case, fraction, elapsed ms, expected remaining ms] with an estimate of 30 s
    ['at the start: the estimate', 0, 0, 30_000],
    ['too early to tell: the estimate less what passed', 0.01, 1000, 29_000],
    ['past the estimate, too early: nothing left to say', 0.02, 40_000, 0],
    ["far enough: the run's own rate", 0.25, 10_000, 30_000],
    ['done', 1, 12_000, 0],
  ];
  for (const [what, fraction, elapsed, left] of etaCases) {
    it(`remainingMs: ${what}`, () => {
      assert.strictEqual(remainingMs(fraction, elapsed, { ...base, wallMs: 30_000 }), left);
    });
  }

  it('etaText names the time so far, the total and the time left', () => {
    assert.strictEqual(
      etaText(0.25, 10_000, { ...base, wallMs: 30_000 }),
      '10 s of about 40 s, 30 s left',
    );
  });
});

describe('the trace cap', () => {
  const cap = 200_000;
  for (const m of scenarioCatalogue) {
    const name = m.definition.name;
    const e = estimateRun(name, {});
    if (e.traceBytes < 2 * cap) continue;
    it(`${name}: stops once the trace reaches its cap, keeps the run, marks it truncated`, async () => {
      const lines: string[] = [];
      const trace = new TraceWriter((l) => lines.push(l));
      const result = await runScenario(name, {}, { trace, maxTraceBytes: cap });
      assert.ok(result.truncated, 'truncated');
      assert.strictEqual(result.truncated.capBytes, cap);
      assert.ok(result.truncated.writtenBytes >= cap, String(result.truncated.writtenBytes));
      assert.match(result.truncated.message, /cap of 195 KiB \(\d+ KiB written\) at virtual/);
      // The run stopped at its next step: far short of the whole trace.
      assert.ok(trace.chars < e.traceBytes / 2, `${trace.chars} of about ${e.traceBytes}`);
      const records = lines.map(
        (l) => JSON.parse(l) as { kind?: string; name?: string; scope?: string },
      );
      const phase = records.findIndex((r) => r.kind === 'input' && r.name === truncatedPhase);
      assert.ok(phase > 0, 'the truncated phase is in the trace');
      assert.ok(
        records.slice(phase + 1).every((r) => r.kind !== 'input'),
        'the scenario did nothing after it (what follows is what finish() emits: aggregated events, the final metrics)',
      );
      assert.strictEqual(truncationOf(result.model), result.truncated.message);
      const { model } = await loadRun(lines);
      assert.strictEqual(truncationOf(model), result.truncated.message, 'read back from the trace');
    });
  }

  it('a run within its cap, or without a trace, runs to its end unmarked', async () => {
    const name = 'read-your-writes';
    const trace = new TraceWriter(() => undefined);
    const capped = await runScenario(name, {}, { trace, maxTraceBytes: 10 * 1024 * 1024 });
    assert.strictEqual(capped.truncated, undefined);
    assert.strictEqual(truncationOf(capped.model), undefined);
    const untraced = await runScenario(
      'watch-cache-resize',
      { burstSeconds: 5, quietSeconds: 5, lateWatcherDelaySeconds: 1 },
      { maxTraceBytes: 1 },
    );
    assert.strictEqual(untraced.truncated, undefined, 'no trace, no cap');
  });

  it('estimateRun checks the parameters as runScenario does', () => {
    assert.throws(() => estimateRun('watch-cache-resize', { burstSeconds: 3601 }), /burstSeconds/);
    assert.throws(() => estimateRun('no-such-scenario', {}), /unknown scenario/);
    const m = findScenario('watch-cache-resize');
    assert.deepStrictEqual(
      m?.estimate(resolveParams('watch-cache-resize', {})).etcdWrites,
      estimateRun('watch-cache-resize', {}).etcdWrites,
    );
  });
});
