// The live run in the real extension host: an ApiServer started here (as the extension's local
// server would), its live run opened in the inspector, real kubectl against it (`get pods -w`,
// `get --chunk-size=2`), the panel's model checked for their LISTs and watchers with the client
// names kubectl sends, then the run saved as a trace and reopened through "Open Trace…".
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { StoredRun } from '../../../src/extension/runs/run-store';
import type { PanelModel, ToWebview } from '../../../src/protocol';
import { ApiServer } from '../../../src/server/api-server';
import {
  findKubectls,
  kubectl,
  startKubectl,
  type KubectlProcess,
  type KubectlTarget,
} from '../../server/harness/kubectl';
import { activeApi, delay } from './extension-api';

async function eventually<T>(what: string, check: () => T | undefined): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = check();
    if (value !== undefined) return value;
    await delay(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The newest panel model the host posted for the run (run/loaded or run/update). */
function latestPanelModel(posted: ToWebview[], runId: string): PanelModel | undefined {
  for (let i = posted.length - 1; i >= 0; i--) {
    const m = posted[i];
    if (m.type === 'run/update' && m.runId === runId) return m.model;
    if (m.type === 'run/loaded' && m.run.id === runId) return m.model;
  }
  return undefined;
}

describe('live run', function () {
  this.timeout(180_000);
  const kubectlBin = findKubectls().at(-1);
  let server: ApiServer;
  let dir: string;
  let target: KubectlTarget;
  const changed = new vscode.EventEmitter<void>();
  let attached: vscode.Disposable | undefined;
  let watch: KubectlProcess | undefined;

  before(async () => {
    assert.ok(kubectlBin, 'no kubectl found (npm run test:setup unpacks one)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-live-run-'));
    server = await ApiServer.start({
      port: 0,
      seed: { pods: 5 },
      kubeconfigPath: path.join(dir, 'kubeconfig'),
    });
    target = { kubeconfig: server.kubeconfigPath, dir };
    const api = await activeApi();
    const source = { server: server as ApiServer | undefined, onDidChange: changed.event };
    attached = await api.liveRuns.attach(source);
  });
  after(async () => {
    await watch?.kill();
    attached?.dispose();
    await server?.stop();
    changed.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens the live run; kubectl get -w and get --chunk-size show up with their client names', async () => {
    const api = await activeApi();
    api.inspector.clearTraffic();
    const run = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.openLiveRun',
    );
    assert.ok(run, 'a live run');
    assert.strictEqual(run.source, 'live');
    await api.inspector.whenReady();
    const loaded = api.inspector.posted().find((m) => m.type === 'run/loaded');
    assert.ok(loaded && loaded.type === 'run/loaded' && loaded.run.source === 'live');
    assert.ok(
      api
        .runsViewRows()
        .some((r) => r.label.startsWith('Live: ') && /live, up /.test(r.description)),
      JSON.stringify(api.runsViewRows()),
    );

    const k = kubectlBin!;
    watch = startKubectl(k, target, ['get', 'pods', '-w']);
    await watch.until((p) => /pod-4/.test(p.stdout), 'the watch printed the pods');
    const chunked = await kubectl(k, target, ['get', 'pods', '--chunk-size=2']);
    assert.strictEqual(chunked.code, 0, chunked.stderr);
    // client-go's default User-Agent: the binary's name, its version, the platform, the commit.
    const client = `${path.basename(k.path)}/${k.gitVersion}`;

    const model = await eventually('the chunked LIST and the watcher in the panel', () => {
      const m = latestPanelModel(api.inspector.posted(), run.id);
      const pages = m?.lists.filter((l) => /limit=2/.test(l.request)) ?? [];
      return m && m.watcherCount >= 1 && pages.length === 3 ? m : undefined;
    });
    const pages = model.lists.filter((l) => /limit=2/.test(l.request));
    assert.deepStrictEqual(
      pages.map((l) => [l.returned, l.continue !== '']),
      [
        [2, true],
        [2, true],
        [1, false],
      ],
      'three pages of the 5 pods',
    );
    assert.ok(
      pages.every((l) => l.client?.startsWith(client)),
      pages.map((l) => l.client).join(', '),
    );
    const live = api.liveRuns.model(run.id);
    assert.ok(live);
    const watcher = live.watchers.find((w) => w.closedAt === undefined);
    assert.ok(watcher, 'the open watcher of get -w');
    assert.ok(watcher.client?.startsWith(client), watcher.client);
    const request = live.watchRequests?.find((q) => q.watcherId === watcher.id);
    assert.ok(request && request.outcome === 'started', JSON.stringify(request));
    assert.match(request.request, /watch=true/);
    // The panel's timeline follows: a batch came after the LISTs, its end is the run's end.
    assert.ok(model.durationMs > 0);
  });

  it('saves the run as a trace and reopens it with the same lists and watchers', async () => {
    const api = await activeApi();
    const [run] = api.liveRuns.list();
    const file = path.join(dir, 'live.jsonl');
    const saved = await vscode.commands.executeCommand<string | undefined>(
      'listwatch.saveRunAsTrace',
      run.id,
      file,
    );
    assert.strictEqual(saved, file);
    const live = api.liveRuns.model(run.id);
    assert.ok(live);
    const reopened = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.openTrace',
      file,
    );
    assert.ok(reopened, 'the trace opens');
    const open = api.currentRun();
    assert.ok(open && open.run.id === reopened.id);
    assert.strictEqual(open.model.rejected.count, 0, JSON.stringify(open.model.rejected));
    assert.deepStrictEqual(
      open.model.lists.map((l) => [l.request, l.client, l.returned]),
      live.lists.map((l) => [l.request, l.client, l.returned]),
    );
    assert.deepStrictEqual(
      open.model.watchers.map((w) => [w.id, w.client]),
      live.watchers.map((w) => [w.id, w.client]),
    );
  });
});
