// The inspector panel in the real extension host with its real webview (in Chromium): what the
// host posts (run/loaded, seeks, selections, answers) and what the webview says back (ready,
// its state), observed through the extension's API. No message is faked on the webview side
// except where noted (the host's handling of a request the UI would send).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { protocolVersion, type ToWebview } from '../../../src/protocol';
import type { StoredRun } from '../../../src/extension/runs/run-store';
import { activeApi, delay } from './extension-api';

/** Polls until `check` returns a value (or fails with what it last saw); bounded at ~30 s. */
async function eventually<T>(what: string, check: () => T | undefined): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = check();
    if (value !== undefined) return value;
    await delay(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function postedOfType<K extends ToWebview['type']>(
  posted: ToWebview[],
  type: K,
): Array<Extract<ToWebview, { type: K }>> {
  return posted.filter((m): m is Extract<ToWebview, { type: K }> => m.type === type);
}

describe('inspector panel', () => {
  let run: StoredRun;

  before(async () => {
    const made = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.runScenario',
      'slow-watcher-termination',
      { fastWatchers: 3, slowWatchers: 1, eventsPerSecond: 20 },
    );
    assert.ok(made);
    run = made;
  });
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('Open Inspector opens the panel; the webview says ready and gets the open run', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.ok(!api.inspector.isOpen());
    api.inspector.clearTraffic();
    await vscode.commands.executeCommand('listwatch.openInspector');
    assert.ok(api.inspector.isOpen());
    await api.inspector.whenReady();
    const ready = api.inspector.received().find((m) => m.type === 'ready');
    assert.deepStrictEqual(ready, { type: 'ready', protocolVersion });
    const [loaded] = postedOfType(api.inspector.posted(), 'run/loaded');
    assert.ok(loaded, 'no run/loaded posted');
    assert.strictEqual(loaded.protocolVersion, protocolVersion);
    assert.strictEqual(loaded.run.id, run.id);
    assert.strictEqual(loaded.model.header.scenario, 'slow-watcher-termination');
    assert.strictEqual(loaded.model.watcherCount, 4);
    assert.ok(!('watchers' in loaded.model), 'the watchers come by watchers/query');
    assert.strictEqual(loaded.run.storyView, 'watchers');
    // The webview asks for the rows in view; the host answers from the run model.
    const rows = await eventually('watchers/rows for the open run', () =>
      postedOfType(api.inspector.posted(), 'watchers/rows').find((m) => m.runId === run.id),
    );
    assert.strictEqual(rows.total, 4);
    assert.strictEqual(rows.rows.length, 4);
  });

  it('a new run is posted to the open panel', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('listwatch.openInspector');
    await api.inspector.whenReady();
    api.inspector.clearTraffic();
    const other = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.runScenario',
      'serialization-fanout',
      { watchers: 3, events: 5 },
    );
    const loaded = await eventually('run/loaded of the new run', () =>
      postedOfType(api.inspector.posted(), 'run/loaded').find((m) => m.run.id === other?.id),
    );
    assert.strictEqual(loaded.model.header.scenario, 'serialization-fanout');
    await vscode.commands.executeCommand('listwatch.openRun', run.id);
  });

  it('the webview follows a seek and reports its time back', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('listwatch.openRun', run.id);
    await vscode.commands.executeCommand('listwatch.openInspector');
    await api.inspector.whenReady();
    const at = 7000;
    api.inspector.post({ type: 'timeline/seek', at });
    const state = await eventually('state/changed at the seek', () => {
      const s = api.inspector.viewState();
      return s.at === at && s.runId === run.id ? s : undefined;
    });
    assert.strictEqual(state.at, at);
    // The Watchers view shows the states at the scrubber's time.
    await eventually('the Watchers view at the new time', () =>
      api.watchersViewRows().length === 4 ? true : undefined,
    );
  });

  it('selecting a watcher in the Watchers view selects it in the panel', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('listwatch.openInspector');
    await api.inspector.whenReady();
    api.inspector.clearTraffic();
    await vscode.commands.executeCommand('listwatch.selectWatcher', '2');
    assert.deepStrictEqual(postedOfType(api.inspector.posted(), 'watcher/select'), [
      { type: 'watcher/select', id: '2' },
    ]);
    const state = await eventually("the webview's selection", () =>
      api.inspector.viewState().selectedWatcherId === '2' ? api.inspector.viewState() : undefined,
    );
    assert.strictEqual(state.view, 'watchers');
  });

  it("a token/decode request is answered with the foundation's explanation", async () => {
    const api = await activeApi();
    await api.inspector.whenReady();
    api.inspector.clearTraffic();
    const token = Buffer.from(
      '{"v":"meta.k8s.io/v1","rv":301,"start":"pod-000099\\u0000"}',
    ).toString('base64url');
    api.inspector.receive({ type: 'token/decode', requestId: 41, token });
    const answer = await eventually(
      'token/explained',
      () => postedOfType(api.inspector.posted(), 'token/explained')[0],
    );
    assert.strictEqual(answer.requestId, 41);
    assert.strictEqual(answer.explanation.valid, true);
    assert.strictEqual(answer.explanation.fields?.rv, '301');
    assert.strictEqual(answer.explanation.startKey?.absolute, '/registry/pods/pod-000099\u0000');
    assert.ok(
      api.recentTokens().some((t) => t.token === token),
      'the decoded token joins the Tokens view',
    );
  });

  it('a metrics/copy request puts the Prometheus text on the clipboard', async () => {
    const api = await activeApi();
    await api.inspector.whenReady();
    api.inspector.clearTraffic();
    api.inspector.receive({ type: 'metrics/copy' });
    const answer = await eventually(
      'metrics/copied',
      () => postedOfType(api.inspector.posted(), 'metrics/copied')[0],
    );
    assert.strictEqual(answer.ok, true, answer.message);
    assert.strictEqual(await vscode.env.clipboard.readText(), api.currentRun()?.model.metricsText);
  });

  it('the webview reported no error and no Content-Security-Policy violation', async () => {
    const api = await activeApi();
    // Give the webview a moment to report anything late (fonts, styles).
    await delay(500);
    assert.deepStrictEqual(api.inspector.problems(), []);
  });
});
