// Tests for src/scenarios/runner.ts and catalogue.ts: the catalogue and its parameters, parameter
// checking, determinism for a seed, cancellation, progress, and that a model folded from the trace
// equals the live one (the report command reads traces).
import * as assert from 'assert';
import {
  checkSeed,
  listScenarios,
  resolveParams,
  runScenario,
} from '../../../src/scenarios/runner';
import { loadRun } from '../../../src/run/load-run';
import { TraceWriter } from '../../../src/run/trace/trace-writer';
import { runJson } from '../../../src/cli/run-report';
import { jsonSections, summarizeModel } from '../../../src/scenarios/runner';

/** The etcd latency parameters every scenario ends with, and their defaults. */
const latency = ['etcdLatency', 'etcdLatencyScale'];
const latencyDefaults = { etcdLatency: 'measured', etcdLatencyScale: 1 };

const catalogue: Array<[string, string[]]> = [
  ['selector-death-spiral', ['objects', 'matchEvery', 'limit', 'pages', 'profile', ...latency]],
  ['read-your-writes', ['cacheLagMs', 'skipTimeoutFallback', 'readers', ...latency]],
  ['bookmark-heartbeats', ['watchers', 'minutes', 'timeoutSeconds', 'writesPerSecond', ...latency]],
  ['watchlist-starvation', ['watchers', 'stuckSeconds', ...latency]],
  ['serialization-fanout', ['watchers', 'contentTypes', 'events', ...latency]],
  [
    'watch-cache-resize',
    [
      'burstEventsPerSecond',
      'burstSeconds',
      'quietEventsPerSecond',
      'quietSeconds',
      'lateWatcherDelaySeconds',
      ...latency,
    ],
  ],
  [
    'rangestream-fallback',
    ['etcdSupportsRangeStream', 'lists', 'intervalSeconds', 'profile', ...latency],
  ],
  ['slow-watcher-termination', ['fastWatchers', 'slowWatchers', 'eventsPerSecond', ...latency]],
];

/** Small parameter sets: every scenario, quick. */
const small: Record<string, Record<string, string | number | boolean>> = {
  'selector-death-spiral': { objects: 3000, matchEvery: 50, limit: 10 },
  'read-your-writes': { cacheLagMs: 3500, readers: 2 },
  'bookmark-heartbeats': { watchers: 20, minutes: 2, timeoutSeconds: 90 },
  'watchlist-starvation': { watchers: 3, stuckSeconds: 6 },
  'serialization-fanout': { watchers: 9, events: 7 },
  'watch-cache-resize': {
    burstEventsPerSecond: 20,
    burstSeconds: 100,
    quietEventsPerSecond: 1,
    quietSeconds: 60,
    lateWatcherDelaySeconds: 100,
  },
  'rangestream-fallback': { lists: 4, intervalSeconds: 300 },
  'slow-watcher-termination': { fastWatchers: 3, slowWatchers: 2, eventsPerSecond: 100 },
};

describe('scenario runner', () => {
  it("lists the eight scenarios with exactly the catalogue's parameter names, each documented", () => {
    const defs = listScenarios();
    assert.deepStrictEqual(
      defs.map((d) => [d.name, d.params.map((p) => p.name)]),
      catalogue,
    );
    for (const d of defs) {
      assert.ok(d.title.length > 0 && d.description.length > 40, d.name);
      for (const p of d.params) {
        assert.ok(p.description.length > 10, `${d.name}.${p.name} is documented`);
        assert.strictEqual(
          typeof p.default,
          p.type,
          `${d.name}.${p.name}: the default has the declared type`,
        );
      }
    }
  });

  it("the defaults are the catalogue's", () => {
    const p = (name: string) => resolveParams(name, {});
    assert.deepStrictEqual(p('selector-death-spiral'), {
      ...latencyDefaults,
      objects: 100000,
      matchEvery: 100,
      limit: 100,
      pages: 1,
      profile: '1.36',
    });
    assert.deepStrictEqual(p('read-your-writes'), {
      ...latencyDefaults,
      cacheLagMs: 500,
      skipTimeoutFallback: false,
      readers: 1,
    });
    assert.deepStrictEqual(p('bookmark-heartbeats'), {
      ...latencyDefaults,
      watchers: 10000,
      minutes: 3,
      timeoutSeconds: 0,
      writesPerSecond: 1,
    });
    assert.deepStrictEqual(p('watchlist-starvation'), {
      watchers: 100,
      stuckSeconds: 20,
      ...latencyDefaults,
    });
    assert.deepStrictEqual(p('serialization-fanout'), {
      ...latencyDefaults,
      watchers: 1000,
      contentTypes: 'json,protobuf',
      events: 100,
    });
    assert.deepStrictEqual(p('rangestream-fallback'), {
      ...latencyDefaults,
      etcdSupportsRangeStream: false,
      lists: 30,
      intervalSeconds: 60,
      profile: '1.37',
    });
    assert.deepStrictEqual(p('slow-watcher-termination'), {
      ...latencyDefaults,
      fastWatchers: 50,
      slowWatchers: 5,
      eventsPerSecond: 200,
    });
    assert.strictEqual(p('watch-cache-resize').burstEventsPerSecond, 500);
  });

  const bad: Array<[string, string, Record<string, string | number | boolean>, RegExp]> = [
    [
      'unknown scenario',
      'no-such',
      {},
      /unknown scenario "no-such"; expected one of: selector-death-spiral, read-your-writes/,
    ],
    [
      'unknown parameter',
      'selector-death-spiral',
      { object: 5 },
      /unknown parameter "object"; expected one of: objects, matchEvery, limit, pages, profile/,
    ],
    [
      'not a number',
      'selector-death-spiral',
      { limit: 'ten' },
      /parameter "limit" expects a whole number from 1 to 100000, got "ten"/,
    ],
    [
      'a fraction for a count',
      'selector-death-spiral',
      { limit: '2.5' },
      /parameter "limit" expects a whole number/,
    ],
    [
      'below the minimum',
      'selector-death-spiral',
      { matchEvery: 0 },
      /parameter "matchEvery" expects a whole number from 1 to 2000000, got 0/,
    ],
    [
      'above the maximum',
      'watchlist-starvation',
      { watchers: '1e9' },
      /parameter "watchers" expects a whole number from 1 to 20000, got "1e9"/,
    ],
    [
      'not a boolean',
      'read-your-writes',
      { skipTimeoutFallback: 'yes' },
      /parameter "skipTimeoutFallback" expects true or false, got "yes"/,
    ],
    [
      'not a choice',
      'rangestream-fallback',
      { profile: '1.35' },
      /parameter "profile" expects one of "1.36", "1.37", got "1.35"/,
    ],
    [
      'an empty number',
      'read-your-writes',
      { cacheLagMs: '' },
      /parameter "cacheLagMs" expects a number from 0 to 600000, got ""/,
    ],
    [
      'an etcd latency that is neither measured nor zero',
      'watchlist-starvation',
      { etcdLatency: 'fast' },
      /parameter "etcdLatency" expects one of "measured", "zero", got "fast"/,
    ],
    [
      'an etcd latency scale out of range',
      'bookmark-heartbeats',
      { etcdLatencyScale: 0 },
      /parameter "etcdLatencyScale" expects a number from 0.01 to 1000, got 0/,
    ],
  ];
  for (const [name, scenario, set, re] of bad) {
    it(`resolveParams rejects ${name}, naming the parameter and what was expected`, () => {
      assert.throws(() => resolveParams(scenario, set), re);
    });
  }

  it('resolveParams converts strings from the command line', () => {
    assert.deepStrictEqual(
      resolveParams('read-your-writes', {
        cacheLagMs: '250.5',
        skipTimeoutFallback: 'TRUE',
        readers: '3',
        etcdLatency: 'zero',
        etcdLatencyScale: '2.5',
      }),
      {
        cacheLagMs: 250.5,
        skipTimeoutFallback: true,
        readers: 3,
        etcdLatency: 'zero',
        etcdLatencyScale: 2.5,
      },
    );
  });

  it('checks seeds', () => {
    assert.strictEqual(checkSeed(0), 0);
    assert.throws(() => checkSeed(-1), /seed must be a whole number from 0 to 4294967295, got -1/);
    assert.throws(() => checkSeed(2 ** 32), /seed must be/);
  });

  for (const [name] of catalogue) {
    it(`${name}: the same seed gives the same trace, and the trace folds into the same report`, async () => {
      const lines: string[] = [];
      const a = await runScenario(name, small[name], {
        seed: 7,
        trace: new TraceWriter((l) => lines.push(l)),
      });
      const again: string[] = [];
      await runScenario(name, small[name], {
        seed: 7,
        trace: new TraceWriter((l) => again.push(l)),
      });
      assert.strictEqual(again.length, lines.length, `${name}: same number of lines`);
      for (let i = 0; i < lines.length; i++)
        if (again[i] !== lines[i])
          assert.fail(`${name}: line ${i + 1} differs:\n${lines[i]}\n${again[i]}`);
      const { model } = await loadRun(lines);
      const live = JSON.stringify(runJson(a.model, a.summary, jsonSections(name)));
      const folded = JSON.stringify(runJson(model, summarizeModel(model), jsonSections(name)));
      assert.strictEqual(folded, live, `${name}: the report from the trace equals the live one`);
    });
  }

  it('a different seed changes what is random (watch deadlines), not what is determined', async () => {
    const run = (seed: number) =>
      runScenario('bookmark-heartbeats', { watchers: 5, minutes: 1 }, { seed });
    const [a, b] = await Promise.all([run(1), run(2)]);
    assert.notDeepStrictEqual(
      a.model.watchers.map((w) => w.deadline),
      b.model.watchers.map((w) => w.deadline),
    );
    assert.deepStrictEqual(
      a.model.watchers.map((w) => w.bookmarksReceived),
      b.model.watchers.map((w) => w.bookmarksReceived),
    );
  });

  it('reports progress, ending at 1', async () => {
    const seen: number[] = [];
    await runScenario('rangestream-fallback', { lists: 3 }, { onProgress: (f) => seen.push(f) });
    assert.ok(seen.length >= 2);
    assert.strictEqual(seen[seen.length - 1], 1);
    for (let i = 1; i < seen.length; i++)
      assert.ok(seen[i] >= seen[i - 1], 'progress never goes back');
  });

  it('is cancelled by its AbortSignal between steps', async () => {
    const ctl = new AbortController();
    const p = runScenario(
      'bookmark-heartbeats',
      { watchers: 10, minutes: 60 },
      {
        signal: ctl.signal,
        onProgress: (f) => {
          if (f > 0.3) ctl.abort();
        },
      },
    );
    await assert.rejects(
      p,
      (e: unknown) =>
        e instanceof Error &&
        e.name === 'AbortError' &&
        /scenario bookmark-heartbeats cancelled at virtual \d+/.test(e.message),
    );
  });

  it('hands the host its event loop between steps: a Cancel from a macrotask lands, and yielding changes nothing', async () => {
    const params = { watchers: 10, minutes: 60 };
    const ctl = new AbortController();
    let ticks = 0;
    // What the extension passes: a real macrotask turn, where a Cancel click would be delivered.
    const yieldToHost = () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          if (++ticks === 50) ctl.abort();
          resolve();
        }),
      );
    await assert.rejects(
      runScenario('bookmark-heartbeats', params, { signal: ctl.signal, yieldToHost }),
      { name: 'AbortError' },
    );
    assert.strictEqual(ticks, 50, 'the run stopped at the first step after the abort');

    const plain: string[] = [];
    const yielding: string[] = [];
    await runScenario(
      'bookmark-heartbeats',
      { watchers: 5, minutes: 1 },
      { seed: 3, trace: new TraceWriter((l) => plain.push(l)) },
    );
    await runScenario(
      'bookmark-heartbeats',
      { watchers: 5, minutes: 1 },
      {
        seed: 3,
        trace: new TraceWriter((l) => yielding.push(l)),
        yieldToHost: () => new Promise<void>((r) => setImmediate(r)),
      },
    );
    assert.deepStrictEqual(yielding, plain, 'the same trace with and without yielding');
  });

  it('an already aborted signal stops it before anything runs', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const lines: string[] = [];
    await assert.rejects(
      runScenario(
        'selector-death-spiral',
        {},
        { signal: ctl.signal, trace: new TraceWriter((l) => lines.push(l)) },
      ),
      { name: 'AbortError' },
    );
    assert.strictEqual(lines.length, 1, 'only the header was written');
  });
});
