// src/protocol.ts: what the host accepts from the webview, how a stored view state is read back,
// and the model the panel is sent. What webview code may import is eslint.config.mjs's rule
// (test/unit/lint/boundaries.test.ts).
import * as assert from 'assert';
import {
  defaultViewState,
  isFromWebview,
  normalizeViewState,
  panelModel,
} from '../../../src/protocol';
import type { RunModel } from '../../../src/run/run-model';

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
    ['a speed not offered', { speed: 3 }, { speed: 10 }],
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
  it("leaves the watchers' logs and the watch requests out, counting the log as dropped", () => {
    const model = {
      watchers: [
        {
          id: '1',
          log: [
            { at: 0, kind: 'created', text: 'created' },
            { at: 5, kind: 'closed', text: 'closed' },
          ],
          logDropped: 3,
          bookmarkTimes: [1, 2],
        },
      ],
      watchRequests: [{ at: 0 }],
      lists: [],
    } as unknown as RunModel;
    const slim = panelModel(model);
    assert.deepStrictEqual(slim.watchers[0].log, []);
    assert.strictEqual(slim.watchers[0].logDropped, 5);
    assert.strictEqual(slim.watchers[0].bookmarkTimes, undefined);
    assert.ok(!('watchRequests' in slim));
    assert.strictEqual(model.watchers[0].log.length, 2, "the run's own model is left alone");
  });
});
