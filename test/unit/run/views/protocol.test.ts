// src/protocol.ts: what the host accepts from the webview, how a stored view state is read back,
// and what the panel is sent (src/extension/panel/panel-model.ts, watcher-rows.ts): the model
// without its watchers, and the Watchers tab's rows a page at a time, at the asked time. What
// webview code may import is eslint.config.mjs's rule (test/unit/lint/boundaries.test.ts).
import * as assert from 'assert';
import { panelModel } from '../../../../src/extension/panel/panel-model';
import { WatcherRows } from '../../../../src/extension/panel/watcher-rows';
import {
  defaultViewState,
  isFromWebview,
  maxMoments,
  maxWatcherRows,
  normalizeViewState,
} from '../../../../src/protocol';
import type { RunModel } from '../../../../src/run/run-model';
import { runScenario } from '../../../../src/scenarios/runner';

describe('isFromWebview', () => {
  const cases: Array<[string, unknown, boolean]> = [
    ['ready', { type: 'ready', protocolVersion: 1 }, true],
    ['a decode request', { type: 'token/decode', requestId: 1, token: 'x' }, true],
    ['a host message sent back', { type: 'run/loaded' }, false],
    ['no type', { protocolVersion: 1 }, false],
    ['a type that is not a string', { type: 7 }, false],
    ['a string', 'ready', false],
    ['null', null, false],
  ];
  for (const [name, value, want] of cases)
    it(name, () => assert.strictEqual(isFromWebview(value), want, name));
});

describe('normalizeViewState', () => {
  const cases: Array<[string, unknown, Partial<ReturnType<typeof normalizeViewState>>]> = [
    ['nothing stored', undefined, defaultViewState],
    [
      'a whole state',
      {
        runId: 'r',
        view: 'lists',
        at: 1500,
        speed: 50,
        selectedWatcherId: '7',
        watcherSearch: 'app',
        watcherStateFilter: 'closed',
        metricsSearch: 'etcd',
      },
      {
        runId: 'r',
        view: 'lists',
        at: 1500,
        speed: 50,
        selectedWatcherId: '7',
        watcherSearch: 'app',
        watcherStateFilter: 'closed',
        metricsSearch: 'etcd',
      },
    ],
    ['an unknown view', { view: 'nope' }, { view: 'watchers' }],
    ['a negative time', { at: -5 }, { at: 0 }],
    ['a time that is not a number', { at: '12' }, { at: 0 }],
    [
      'a speed of another run (the timeline takes the nearest it offers)',
      { speed: 3 },
      { speed: 3 },
    ],
    ['a speed that is no speed', { speed: -1 }, { speed: 10 }],
    [
      'a selection that is not a string',
      { selectedWatcherId: 7 },
      { selectedWatcherId: undefined },
    ],
  ];
  for (const [name, stored, want] of cases) {
    it(name, () => {
      const got = normalizeViewState(stored);
      for (const [k, v] of Object.entries(want))
        assert.deepStrictEqual(got[k as keyof typeof got], v, `${name}: ${k}`);
    });
  }
});

describe('panelModel', () => {
  let small: RunModel;
  let big: RunModel;
  before(async function () {
    this.timeout(60_000);
    ({ model: small } = await runScenario('bookmark-heartbeats', { watchers: 10, minutes: 1 }));
    ({ model: big } = await runScenario('bookmark-heartbeats', { watchers: 2000, minutes: 1 }));
  });

  it('leaves the watchers and the watch requests out; counts them and summarises the timeline', () => {
    const slim = panelModel(big);
    assert.ok(!('watchers' in slim) && !('watchRequests' in slim));
    assert.strictEqual(slim.watcherCount, 2000);
    assert.strictEqual(slim.failedWatchCount, 0);
    assert.ok(slim.timeline.moments.length > 0 && slim.timeline.moments.length <= maxMoments);
    assert.deepStrictEqual(
      slim.timeline.moments,
      [...slim.timeline.moments].sort((a, b) => a - b),
      'moments ascend',
    );
    assert.strictEqual(big.watchers.length, 2000, "the run's own model is left alone");
  });

  it('costs about the same for 200 times the watchers', () => {
    const a = JSON.stringify(panelModel(small)).length;
    const b = JSON.stringify(panelModel(big)).length;
    assert.ok(b < a * 1.5, `run/loaded grew from ${a} to ${b} characters`);
  });
});

describe('WatcherRows', () => {
  let model: RunModel;
  let resize: RunModel;
  before(async function () {
    this.timeout(120_000);
    ({ model } = await runScenario('bookmark-heartbeats', { watchers: 500, minutes: 2 }));
    ({ model: resize } = await runScenario('watch-cache-resize', {}));
  });
  const all = { search: '', state: '' };

  it('answers the asked range only, never more than maxWatcherRows', () => {
    const rows = new WatcherRows(model);
    const page = rows.query(all, model.durationMs, 100, 40);
    assert.deepStrictEqual(
      [page.total, page.matching, page.from, page.rows.length],
      [500, 500, 100, 40],
    );
    assert.strictEqual(rows.query(all, 0, 0, 10_000).rows.length, maxWatcherRows);
    assert.strictEqual(rows.query(all, 0, 490, 40).rows.length, 10, 'the end of the rows');
  });

  it("gives each row's figures at the asked time", () => {
    const rows = new WatcherRows(model);
    const tick = (model.bookmarkTicks ?? [])[0];
    const cases: Array<[string, number, Partial<Record<string, unknown>>]> = [
      // Nothing is true of a watch before it opens: its figures are blank, not 0.
      [
        'before the watches open',
        0,
        { phase: 'notStarted', received: undefined, lastRv: undefined, bookmarks: undefined },
      ],
      ['just before the first heartbeat', tick.at - 1, { received: 0, bookmarks: 0 }],
      [
        'at the first heartbeat',
        tick.at,
        { received: 1, bookmarks: 1, lastRv: tick.resourceVersion },
      ],
    ];
    for (const [name, at, want] of cases) {
      const [row] = rows.query(all, at, 0, 1).rows;
      for (const [k, v] of Object.entries(want))
        assert.deepStrictEqual(row[k as keyof typeof row], v, `${name}: ${k}`);
    }
  });

  it('filters by the state at the asked time, and sorts there', () => {
    const rows = new WatcherRows(model);
    assert.strictEqual(rows.query({ search: '', state: 'notStarted' }, 0, 0, 10).matching, 500);
    assert.strictEqual(
      rows.query({ search: '', state: 'notStarted' }, model.durationMs, 0, 10).matching,
      0,
    );
    const sorted = rows.query(
      { search: '', state: '', sort: { column: 'id', descending: true } },
      0,
      0,
      3,
    );
    assert.deepStrictEqual(
      sorted.rows.map((r) => r.id),
      [...model.watchers]
        .map((w) => w.id)
        .sort((a, b) => Number(b) - Number(a))
        .slice(0, 3),
    );
    const found = rows.query(
      { search: 'watcher-000042', state: '' },
      0,
      0,
      10,
      model.watchers[41].id,
    );
    assert.strictEqual(found.matching, 1);
    assert.strictEqual(found.revealIndex, 0);
  });

  it('a WATCH refused with 410 is a row with its outcome (watch-cache-resize)', () => {
    const rows = new WatcherRows(resize);
    const failed = (resize.watchRequests ?? []).filter((q) => q.outcome === 'error');
    assert.strictEqual(failed.length, 1);
    const answer = rows.query({ search: '', state: 'failed' }, resize.durationMs, 0, 10);
    assert.strictEqual(answer.matching, 1);
    const [row] = answer.rows;
    assert.strictEqual(row.failed, true);
    assert.strictEqual(row.client, 'late-watcher');
    assert.match(row.outcome, /^410 Expired: too old resource version: \d+ \(\d+\)$/);
    const before = rows.row(row.id, (failed[0].answeredAt ?? 0) - 1);
    assert.strictEqual(before?.phase, 'notStarted', 'before its answer it is not failed yet');
    assert.deepStrictEqual(rows.source(row.id)?.request, failed[0]);
  });
});
