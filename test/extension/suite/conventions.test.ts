// VS Code's conventions, in the real extension host: the Get Started walkthrough and what its
// steps open, Export commands only with a run open, confirmations before Delete Run and an Undo
// after Clear Tokens (answered through the injectable confirmations: a modal cannot be answered
// here), the List/Watch output channel's lines, "Open in List/Watch Inspector" on a trace file in
// the Explorer, and the warning for a truncated trace.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { StoredRun } from '../../../src/extension/runs/run-store';
import type { RunsViewNode } from '../../../src/extension/runs/runs-view';
import { activeApi, delay, extensionId } from './extension-api';
import { continueTokenHovers, hoverMarkdown, hoversAt } from './hover-text';
import { continueVectors } from './upstream-vectors';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-conventions-test-'));

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { svg?: string; markdown?: string; image?: string; altText?: string };
  completionEvents: string[];
}

function manifest() {
  const extension = vscode.extensions.getExtension(extensionId);
  assert.ok(extension);
  return { extension, json: extension.packageJSON };
}

async function smallRun(seed = 5): Promise<StoredRun> {
  const run = await vscode.commands.executeCommand<StoredRun | undefined>(
    'listwatch.runScenario',
    'bookmark-heartbeats',
    { watchers: 4, minutes: 1 },
    { seed },
  );
  assert.ok(run, 'no run');
  return run;
}

/** Waits (bounded) until `check` holds; the Undo of Clear Tokens completes after its command. */
async function eventually(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await delay(50);
  assert.ok(check(), what);
}

describe('conventions', () => {
  afterEach(async () => {
    (await activeApi()).useConfirmations(undefined);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the walkthrough: five steps, media shipped, completion events on registered commands', async () => {
    await activeApi();
    const { extension, json } = manifest();
    const [walkthrough] = json.contributes.walkthroughs as Array<{
      id: string;
      steps: WalkthroughStep[];
    }>;
    assert.strictEqual(walkthrough.id, 'listwatch.gettingStarted');
    assert.deepStrictEqual(
      walkthrough.steps.map((s) => s.id),
      ['decodeToken', 'runScenario', 'readLists', 'scrubWatcher', 'liveServer'],
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = new Set(
      (json.contributes.commands as Array<{ command: string }>).map((c) => c.command),
    );
    for (const step of walkthrough.steps) {
      const media = step.media.svg ?? step.media.markdown ?? step.media.image;
      assert.ok(media, `${step.id}: no media`);
      assert.ok(fs.existsSync(path.join(extension.extensionPath, media)), `${step.id}: ${media}`);
      if (step.media.svg) assert.ok(step.media.altText, `${step.id}: the SVG has no altText`);
      assert.ok(step.completionEvents.length > 0, `${step.id}: no completion event`);
      for (const event of step.completionEvents) {
        const command = /^onCommand:(.+)$/.exec(event)?.[1];
        assert.ok(command && contributed.has(command), `${step.id}: ${event}`);
      }
      const links = [...step.description.matchAll(/\]\(command:([\w.]+)(\?[^)]*)?\)/g)];
      assert.ok(links.length > 0, `${step.id}: no command link`);
      for (const [, command, query] of links) {
        assert.ok(registered.has(command), `${step.id}: links to unknown ${command}`);
        if (query) JSON.parse(decodeURIComponent(query.slice(1))); // its arguments are JSON
      }
    }
    await vscode.commands.executeCommand(
      'workbench.action.openWalkthrough',
      `${extensionId}#listwatch.gettingStarted`,
      false,
    );
  });

  it('the walkthrough opens the sample log read-only with its first token selected; the hover explains it', async () => {
    const api = await activeApi();
    const editor =
      await vscode.commands.executeCommand<vscode.TextEditor>('listwatch.openSampleLog');
    const { extension } = manifest();
    assert.strictEqual(
      editor.document.uri.fsPath,
      path.join(extension.extensionPath, 'samples', 'kubectl-v8.log'),
    );
    const selected = editor.document.getText(editor.selection);
    assert.match(selected, /^eyJ2Ijoi/, `the selection is not a token: ${selected}`);
    const hovers = continueTokenHovers(await hoversAt(editor.document.uri, editor.selection.start));
    assert.strictEqual(hovers.length, 1, 'no continue-token hover on the selected token');
    assert.match(hoverMarkdown(hovers), /48213/);
    assert.ok(
      api
        .logLines()
        .some((l) => /^\[info\] sample opened: .*kubectl-v8\.log, token at line 20/.test(l)),
      api.logLines().slice(-5).join('\n'),
    );
  });

  it('Show Inspector View shows the tab it names and refuses one it does not know', async () => {
    const api = await activeApi();
    await smallRun();
    api.inspector.clearTraffic();
    await vscode.commands.executeCommand('listwatch.showInspectorView', 'lists');
    assert.ok(
      api.inspector.posted().some((m) => m.type === 'view/show' && m.view === 'lists'),
      JSON.stringify(api.inspector.posted().map((m) => m.type)),
    );
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('listwatch.showInspectorView', 'nope')),
      /expected one of watchers, watchCache, serialization, lists, clients, metrics, replay, import, got "nope"/,
    );
  });

  it('Export commands appear in the palette only while a run is open; internal ones never', () => {
    const { json } = manifest();
    const palette = new Map(
      (json.contributes.menus.commandPalette as Array<{ command: string; when: string }>).map(
        (m) => [m.command, m.when],
      ),
    );
    assert.strictEqual(palette.get('listwatch.exportTrace'), 'listwatch.runOpen');
    assert.strictEqual(palette.get('listwatch.exportMetrics'), 'listwatch.runOpen');
    for (const internal of [
      'listwatch.openTraceInInspector',
      'listwatch.showInspectorView',
      'listwatch.deleteRun',
      'listwatch.selectWatcher',
    ])
      assert.strictEqual(palette.get(internal), 'false', internal);
    assert.strictEqual(json.contributes.configuration.title, 'List/Watch');
    assert.ok(!json.categories.includes('Debuggers'), json.categories.join(', '));
  });

  it('Delete Run from the view asks first: declined keeps the run, accepted deletes it', async () => {
    const api = await activeApi();
    const run = await smallRun();
    const stored = api.runs().find((r) => r.id === run.id);
    assert.ok(stored);
    const node: RunsViewNode = { kind: 'run', run: stored };
    const asked: string[] = [];
    api.useConfirmations({
      confirm: async (message, detail) => {
        asked.push(`${message} | ${detail}`);
        return false;
      },
    });
    assert.strictEqual(
      await vscode.commands.executeCommand('listwatch.deleteRun', node),
      undefined,
    );
    assert.ok(
      api.runs().some((r) => r.id === run.id),
      'declined: the run stays',
    );
    assert.ok(fs.existsSync(run.traceFile), 'declined: its trace stays');
    assert.strictEqual(asked.length, 1);
    assert.match(
      asked[0],
      /^Delete the run "Bookmark heartbeats: .*"\? \| Its trace \(\d+ KiB\) is deleted with it/,
    );
    api.useConfirmations({ confirm: async () => true });
    const removed = await vscode.commands.executeCommand<StoredRun>('listwatch.deleteRun', node);
    assert.strictEqual(removed?.id, run.id);
    assert.ok(!api.runs().some((r) => r.id === run.id), 'accepted: the run is gone');
    assert.ok(!fs.existsSync(run.traceFile), 'accepted: its trace is gone');
  });

  it('Clear Tokens clears at once and offers Undo: Undo puts the tokens back in order', async () => {
    const api = await activeApi();
    const offers: string[] = [];
    api.useConfirmations({ offerUndo: async () => false });
    await vscode.commands.executeCommand('listwatch.clearTokens');
    for (const v of continueVectors.slice(0, 3))
      await vscode.commands.executeCommand('listwatch.decodeContinueToken', v.token);
    const before = api.recentTokens();
    assert.strictEqual(before.length, 3);

    api.useConfirmations({
      offerUndo: async (message) => {
        offers.push(message);
        return false;
      },
    });
    assert.strictEqual(await vscode.commands.executeCommand('listwatch.clearTokens'), 3);
    assert.deepStrictEqual(api.recentTokens(), [], 'not undone: cleared');
    assert.deepStrictEqual(offers, ['Cleared 3 continue tokens from the Tokens view.']);

    for (const v of continueVectors.slice(0, 3))
      await vscode.commands.executeCommand('listwatch.decodeContinueToken', v.token);
    assert.deepStrictEqual(api.recentTokens(), before);
    api.useConfirmations({ offerUndo: async () => true });
    assert.strictEqual(await vscode.commands.executeCommand('listwatch.clearTokens'), 3);
    // The Undo is answered after the command returned: wait for its log line, written last.
    await eventually('Undo restores the tokens', () =>
      api.logLines().includes('[info] undo: restored 3 continue tokens to the Tokens view'),
    );
    assert.deepStrictEqual(api.recentTokens(), before, 'in their order');
  });

  it('the output channel logs commands, runs with their sizes, and errors with their input', async () => {
    const api = await activeApi();
    const run = await smallRun(9);
    const lines = api.logLines();
    const tail = lines.slice(-8).join('\n');
    assert.ok(
      lines.includes(
        '[info] command listwatch.runScenario("bookmark-heartbeats", {"watchers":4,"minutes":1}, {"seed":9})',
      ),
      tail,
    );
    assert.ok(
      lines.some((l) =>
        l.startsWith(
          `[info] run started: bookmark-heartbeats watchers=4 minutes=1 seed=9, trace ${run.traceFile}`,
        ),
      ),
      tail,
    );
    assert.ok(
      lines.some((l) =>
        /^\[info\] run finished: bookmark-heartbeats watchers=4 minutes=1 seed=9 in \d+ ms: 4 watchers, 0 lists, 90\.\d+ s of virtual time; trace [\d,]+ lines, \d+ KiB$/.test(
          l,
        ),
      ),
      tail,
    );
    const missing = path.join(tmp, 'missing.jsonl');
    await vscode.commands.executeCommand('listwatch.openTrace', missing);
    assert.ok(
      api
        .logLines()
        .some((l) => l.startsWith(`[error] cannot open trace ${missing}: `) && /ENOENT/.test(l)),
      api.logLines().slice(-4).join('\n'),
    );
  });

  it('Open in List/Watch Inspector: offered for *.jsonl in the Explorer, opens a trace, refuses another file', async () => {
    const api = await activeApi();
    const { json } = manifest();
    const [menu] = json.contributes.menus['explorer/context'] as Array<{
      command: string;
      when: string;
    }>;
    assert.strictEqual(menu.command, 'listwatch.openTraceInInspector');
    assert.match(menu.when, /resourceExtname == \.jsonl/);

    const made = await smallRun(11);
    const trace = path.join(tmp, 'copy.jsonl');
    fs.copyFileSync(made.traceFile, trace);
    const opened = await vscode.commands.executeCommand<StoredRun>(
      'listwatch.openTraceInInspector',
      vscode.Uri.file(trace),
    );
    assert.strictEqual(opened?.traceFile, trace);
    assert.strictEqual(api.currentRun()?.run.id, opened.id);
    assert.strictEqual(api.currentRun()?.model.watchers.length, 4);

    const notTrace = path.join(tmp, 'events.jsonl');
    fs.writeFileSync(notTrace, '{"level":"info","msg":"hello"}\n');
    const runs = api.runs().length;
    assert.strictEqual(
      await vscode.commands.executeCommand(
        'listwatch.openTraceInInspector',
        vscode.Uri.file(notTrace),
      ),
      undefined,
    );
    assert.strictEqual(api.runs().length, runs, 'no run from a file that is not a trace');
    assert.ok(
      api
        .logLines()
        .includes(
          `[warn] open in inspector: ${notTrace}: line 1: not a listwatch trace: expected "format":"listwatch-trace" in the header, got undefined`,
        ),
      api.logLines().slice(-3).join('\n'),
    );
  });

  it('a truncated trace opens with what was read and a warning naming the line', async () => {
    const api = await activeApi();
    const made = await smallRun(13);
    const lines = fs.readFileSync(made.traceFile, 'utf8').split('\n').filter(Boolean);
    const cut = path.join(tmp, 'cut.jsonl');
    // Cut in the middle of the last line, as a killed writer leaves it.
    const last = lines[lines.length - 1];
    fs.writeFileSync(cut, [...lines.slice(0, -1), last.slice(0, last.length / 2)].join('\n'));
    const run = await vscode.commands.executeCommand<StoredRun>(
      'listwatch.openTraceInInspector',
      vscode.Uri.file(cut),
    );
    assert.ok(run, 'the truncated trace opens');
    assert.strictEqual(api.currentRun()?.model.watchers.length, 4, 'what was read is kept');
    const warning = api.logLines().find((l) => l.startsWith(`[warn] trace ${cut}: `));
    assert.ok(warning, api.logLines().slice(-3).join('\n'));
    assert.ok(
      warning.includes(
        `cut.jsonl looks truncated: line ${lines.length}, the last, is cut off mid-JSON. The inspector shows what was read (${lines.length} lines).`,
      ),
      warning,
    );
  });
});
