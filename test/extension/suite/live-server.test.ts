// The local API server in the real extension host: started from its command (the quick inputs
// accepted with Enter, or answered through the injectable prompts), its kubeconfig, real kubectl
// (`get -w`, `wait` with and without WatchList; found as test/server finds them) and a
// client-node 1.4.0 informer against it, the live state naming each client and watcher, every
// fault injected through the command with what it changes, the status bar and the Server view,
// and the server stopping on Stop and on deactivate. Without a kubectl on the machine the
// client-node parts still run. No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { load } from 'js-yaml';
import { CoreV1Api, KubeConfig, makeInformer, type V1Pod } from '@kubernetes/client-node';
import type { LiveServerState } from '../../../src/extension/server/live-server-state';
import type { ServerPrompts } from '../../../src/extension/server/server-prompts';
import type { ServerViewNode } from '../../../src/extension/server/server-view';
import { checkServerSettings } from '../../../src/extension/server/server-settings';
import type { DebugStateView } from '../../../src/server/debug-state';
import type { FaultResponse } from '../../../src/server/faults';
import { eventually } from '../../server/harness/eventually';
import {
  findKubectls,
  listThenWatchEnv,
  startKubectl,
  watchListEnv,
  type KubectlProcess,
} from '../../server/harness/kubectl';
import { acceptPrefilledInputBoxes, activeApi, extensionId } from './extension-api';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-live-server-test-'));
const testAgent = 'listwatch-extension-test/1.0';
/** A second client, whose watch the status bar counts while it is connected. */
const watchAgent = 'listwatch-status-bar-test/1.0';
/** client-node 1.4.0 sends node-fetch's User-Agent. */
const clientNodeAgent = 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)';

const start = 'listwatch.startLocalApiServer';
const stop = 'listwatch.stopLocalApiServer';
const inject = 'listwatch.injectFault';

type Api = Awaited<ReturnType<typeof activeApi>>;

/** The kubeconfig's server and token, read as a client reads them. */
function kubeconfigOf(state: LiveServerState): {
  server: string;
  token: string;
  context: string;
  doc: Record<string, unknown>;
} {
  const doc = load(fs.readFileSync(state.kubeconfigPath, 'utf8')) as {
    clusters: { name: string; cluster: { server: string } }[];
    users: { name: string; user: { token: string } }[];
    'current-context': string;
  };
  return {
    server: doc.clusters[0].cluster.server,
    token: doc.users[0].user.token,
    context: doc['current-context'],
    doc: doc as unknown as Record<string, unknown>,
  };
}

/** An HTTP request to the running server with its bearer token. */
async function call(
  state: LiveServerState,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${state.url}${urlPath}`, {
    method,
    headers: {
      Authorization: `Bearer ${kubeconfigOf(state).token}`,
      'User-Agent': testAgent,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A watch held open by `userAgent` on a connection of its own (destroy() ends it). */
function openWatch(state: LiveServerState, userAgent: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${state.url}/api/v1/namespaces/default/pods?watch=true`,
      {
        agent: false,
        headers: { Authorization: `Bearer ${kubeconfigOf(state).token}`, 'User-Agent': userAgent },
      },
      (res) => (res.statusCode === 200 ? resolve(req) : reject(new Error(`${res.statusCode}`))),
    );
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
  });
}

const debugState = async (state: LiveServerState): Promise<DebugStateView> =>
  (await call(state, 'GET', '/debug/listwatch/v1/state')).json as unknown as DebugStateView;

function createPod(state: LiveServerState, name: string, app: string) {
  return call(state, 'POST', '/api/v1/namespaces/default/pods', {
    metadata: { name, labels: { app } },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
  });
}

const podNames = (list: Record<string, unknown>): string[] =>
  (list.items as { metadata: { name: string } }[]).map((p) => p.metadata.name);

/** Resolves once nothing accepts connections on the port. */
function refused(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      reject(new Error(`port ${port} still accepts connections`));
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

function queryOf(requestLine: string | undefined): URLSearchParams {
  return new URL(requestLine?.split(' ')[1] ?? '', 'http://request.line').searchParams;
}

/** Prompts that answer by title: a pick with the label `picks` names, an input with `inputs`. */
function answering(
  picks: (title: string) => string | undefined,
  inputs: (title: string, options: vscode.InputBoxOptions) => string | undefined,
  files: readonly string[] = [],
): Partial<ServerPrompts> {
  return {
    pick: (items, options) => {
      const label = picks(options.title);
      const item = items.find((i) => i.label === label);
      assert.ok(
        item,
        `${options.title}: no item ${label} in ${items.map((i) => i.label).join(', ')}`,
      );
      return Promise.resolve(item);
    },
    input: (options) => Promise.resolve(inputs(options.title, options)),
    openFiles: () => Promise.resolve(files.map((f) => vscode.Uri.file(f))),
  };
}

/**
 * Injects a fault through its quick inputs: the fault's row, then each parameter's answer, then
 * (unless answered) every request, at once.
 */
async function injectThroughPrompts(
  api: Api,
  name: string,
  answers: Record<string, string>,
  check?: (param: string, options: vscode.InputBoxOptions) => Promise<void>,
): Promise<FaultResponse> {
  const checks: Promise<void>[] = [];
  const param = (title: string) => /: (\w+) \(\d+\/\d+\)$/.exec(title)?.[1] ?? '';
  api.localServer.usePrompts(
    answering(
      (title) =>
        title.startsWith('Inject Fault')
          ? name
          : (answers[param(title)] ??
            (param(title) === 'resource'
              ? '(every resource)'
              : param(title) === 'when'
                ? 'At once'
                : '(none)')),
      (title, options) => {
        const p = param(title);
        if (check) checks.push(check(p, options));
        const answer = answers[p] ?? options.value ?? '';
        assert.strictEqual(options.validateInput?.(answer), undefined, `${title}: ${answer}`);
        return answer;
      },
    ),
  );
  try {
    const r = await vscode.commands.executeCommand<FaultResponse | undefined>(inject);
    await Promise.all(checks);
    assert.ok(r, `${name}: no answer`);
    return r;
  } finally {
    api.localServer.usePrompts(undefined);
  }
}

/** A client-node makeInformer on pods with a label selector, and how many LISTs it made. */
class Informer {
  lists = 0;
  readonly names = new Set<string>();
  readonly errors: unknown[] = [];
  private readonly informer: ReturnType<typeof makeInformer<V1Pod>>;

  constructor(kubeconfigPath: string, labelSelector: string) {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigPath);
    const core = kc.makeApiClient(CoreV1Api);
    this.informer = makeInformer<V1Pod>(
      kc,
      '/api/v1/namespaces/default/pods',
      () => {
        this.lists++;
        return core.listNamespacedPod({ namespace: 'default', labelSelector });
      },
      labelSelector,
    );
    this.informer.on('add', (p) => this.names.add(p.metadata?.name ?? ''));
    this.informer.on('delete', (p) => this.names.delete(p.metadata?.name ?? ''));
    this.informer.on('error', (e) => this.errors.push(e));
  }

  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): Promise<void> {
    return this.informer.stop();
  }
}

async function ensureStopped(): Promise<void> {
  await vscode.commands.executeCommand(stop);
}

describe('local API server', function () {
  this.timeout(120_000);
  let api: Api;
  const running: KubectlProcess[] = [];
  const informers: Informer[] = [];

  before(async () => {
    api = await activeApi();
    await ensureStopped();
  });
  afterEach(() => api.localServer.usePrompts(undefined));
  after(async () => {
    for (const k of running.splice(0)) await k.kill();
    for (const i of informers.splice(0)) await i.stop().catch(() => undefined);
    await ensureStopped();
    await vscode.workspace
      .getConfiguration('listwatch.server')
      .update('port', undefined, vscode.ConfigurationTarget.Global);
    for (const t of vscode.window.terminals) if (t.name === 'listwatch') t.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('Start with Enter, Enter, Enter: 1.36, 10 pods and 3 configmaps; its kubeconfig names the server, the token and context listwatch', async () => {
    const state = await acceptPrefilledInputBoxes<LiveServerState | undefined>(start);
    assert.ok(state, 'no server started');
    assert.strictEqual(state.profile, '1.36');
    assert.strictEqual(state.profileName, 'release-1.36');
    assert.ok(state.port > 0);
    // Every served built-in is listed (34 of them); the seeded ones hold their objects.
    const byName = new Map(state.resources.map((r) => [r.name, r]));
    assert.deepStrictEqual(
      ['pods', 'configmaps', 'namespaces', 'deployments.apps', 'leases.coordination.k8s.io'].map(
        (name) => [name, byName.get(name)?.objects, byName.get(name)?.ready],
      ),
      [
        ['pods', 10, true],
        ['configmaps', 3, true],
        ['namespaces', 4, true],
        ['deployments.apps', 0, true],
        ['leases.coordination.k8s.io', 0, true],
      ],
    );
    assert.strictEqual(state.resources.length, 34);
    const extension = vscode.extensions.getExtension(extensionId)!;
    assert.ok(
      state.kubeconfigPath.endsWith(`${path.sep}kubeconfig`),
      `kubeconfig at ${state.kubeconfigPath}`,
    );
    assert.ok(!state.kubeconfigPath.startsWith(extension.extensionPath), 'not in the extension');
    assert.strictEqual(fs.statSync(state.kubeconfigPath).mode & 0o777, 0o600);
    const kc = kubeconfigOf(state);
    assert.strictEqual(kc.server, `https://127.0.0.1:${state.port}`);
    assert.strictEqual(kc.server, state.httpsUrl);
    assert.strictEqual(kc.context, 'listwatch');
    assert.match(kc.token, /^[0-9a-f]{64}$/);
    // The token is the server's: with it a LIST answers, without it 401.
    const listed = await call(state, 'GET', '/api/v1/namespaces/default/pods');
    assert.strictEqual(listed.status, 200);
    assert.strictEqual(podNames(listed.json).length, 10);
    const anonymous = await fetch(`${state.url}/api/v1/namespaces/default/pods`);
    assert.strictEqual(anonymous.status, 401);
    // The status bar counts the connections open now, with every one seen beside it. The LIST
    // above is one connection, open while its keep-alive connection stays open.
    const shown = (inAll: number, watchers: string) => {
      const now = api.localServer.state()!.connectedClients;
      const n = now.length;
      return `$(server-process) 127.0.0.1:${state.port} · ${n} connection${n === 1 ? '' : 's'} open (${inAll} since the start) · ${watchers}`;
    };
    await eventually(() => {
      assert.ok(
        api.localServer.state()!.connectedClients.every((c) => c === testAgent),
        JSON.stringify(api.localServer.state()!.connectedClients),
      );
      assert.strictEqual(api.localServer.statusBarText(), shown(1, '0 watchers'));
    });
    // A second client's watch is connected while it lasts; when it ends, the total stays.
    const watching = await openWatch(state, watchAgent);
    await eventually(() => {
      assert.ok(api.localServer.state()!.connectedClients.includes(watchAgent));
      assert.strictEqual(api.localServer.statusBarText(), shown(2, '1 watcher'));
    });
    watching.destroy();
    await eventually(() => {
      assert.ok(!api.localServer.state()!.connectedClients.includes(watchAgent));
      assert.strictEqual(api.localServer.statusBarText(), shown(2, '0 watchers'));
    });
    const rows = api.localServer.serverViewRows();
    assert.deepStrictEqual(
      rows.map((r) => [r.label, r.description]),
      [
        ['Server', state.httpsUrl],
        ['Resources', '34'],
        ['User agents', '2'],
        ['Watchers', '0'],
      ],
    );
    assert.deepStrictEqual(
      rows[0].children.map((r) => r.label),
      ['URL', 'Profile', 'Uptime', 'etcd', 'etcd revision', 'KUBECONFIG'],
    );
    assert.strictEqual(rows[0].children[1].description, '1.36 (release-1.36)');
    assert.strictEqual(rows[0].children[3].description, 'in memory');
    assert.strictEqual(rows[0].children[5].description, state.kubeconfigPath);
    const podsRow = rows[1].children.find((r) => r.label === 'pods');
    assert.match(podsRow?.description ?? '', /^10 objects · 0 watchers · RV \d+$/);
    assert.deepStrictEqual(
      rows[2].children.map((r) => [r.label, r.description]),
      [
        [testAgent, '1 list · 0 watches'],
        [watchAgent, '0 lists · 1 watch'],
      ],
    );
    assert.deepStrictEqual(
      rows[3].children.map((r) => r.label),
      ['No watch is open'],
    );
    // Copy KUBECONFIG Path and the terminal with KUBECONFIG.
    assert.strictEqual(
      await vscode.commands.executeCommand('listwatch.copyKubeconfigPath'),
      state.kubeconfigPath,
    );
    assert.strictEqual(await vscode.env.clipboard.readText(), state.kubeconfigPath);
    const terminal = await vscode.commands.executeCommand<vscode.Terminal>(
      'listwatch.openTerminalWithKubeconfig',
    );
    assert.strictEqual(terminal.name, 'listwatch');
    assert.strictEqual(
      (terminal.creationOptions as vscode.TerminalOptions).env?.KUBECONFIG,
      state.kubeconfigPath,
    );
    assert.strictEqual(
      await vscode.commands.executeCommand('listwatch.openTerminalWithKubeconfig'),
      terminal,
      'the open terminal is reused',
    );
    // Stop: the port refuses connections, the status bar hides, the view empties (its welcome).
    assert.strictEqual(await vscode.commands.executeCommand(stop), true);
    assert.strictEqual(await refused(state.port), 'ECONNREFUSED');
    assert.strictEqual(api.localServer.state(), undefined);
    assert.strictEqual(api.localServer.statusBarText(), undefined);
    assert.deepStrictEqual(api.localServer.serverViewRows(), []);
  });

  it('Start answered: profile 1.37, a seed and a CRD file; a seed that does not parse, a bad CRD file and a port in use are refused naming them', async () => {
    const crd = path.join(tmp, 'crontab-crd.yaml');
    fs.writeFileSync(
      crd,
      [
        'apiVersion: apiextensions.k8s.io/v1',
        'kind: CustomResourceDefinition',
        'metadata: {name: crontabs.stable.example.com}',
        'spec:',
        '  group: stable.example.com',
        '  scope: Namespaced',
        '  names: {plural: crontabs, singular: crontab, kind: CronTab}',
        '  versions:',
        '    - {name: v1, served: true, storage: true}',
      ].join('\n'),
    );
    const seedMessages: (string | undefined)[] = [];
    api.localServer.usePrompts(
      answering(
        (title) =>
          title.includes('profile')
            ? '1.37'
            : title.includes('custom')
              ? 'Choose CRD files…'
              : title.includes('etcd (4/4)')
                ? 'In-memory etcd'
                : '',
        (_title, options) => {
          for (const t of ['pods=x', 'nodes=1', 'pods=2', ''])
            seedMessages.push(options.validateInput?.(t) as string | undefined);
          return 'pods=2';
        },
        [crd],
      ),
    );
    const state = await vscode.commands.executeCommand<LiveServerState | undefined>(start);
    assert.ok(state);
    assert.deepStrictEqual(seedMessages, [
      '--seed expects pods=N,configmaps=N, got "pods=x"',
      '--seed expects pods=N,configmaps=N, got "nodes=1"',
      undefined,
      undefined,
    ]);
    assert.strictEqual(state.profile, '1.37');
    assert.strictEqual(state.profileName, 'master-1.37-preview');
    assert.deepStrictEqual(
      state.resources
        .filter(
          (r) =>
            ['pods', 'configmaps', 'namespaces'].includes(r.name) || r.name.includes('crontabs'),
        )
        .map((r) => [r.name, r.objects]),
      [
        ['configmaps', 0],
        ['namespaces', 4],
        ['pods', 2],
        ['crontabs.stable.example.com', 0],
      ],
    );
    await ensureStopped();

    const failures = (): string[] =>
      api.logLines().filter((l) => l.startsWith('[error] Cannot start the local API server'));
    const before = failures().length;
    const bad = path.join(tmp, 'not-a-crd.yaml');
    fs.writeFileSync(bad, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
    const missing = path.join(tmp, 'missing.yaml');
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    try {
      for (const [answers, expected] of [
        [
          { profile: '1.36', seed: {}, crdFiles: [bad] },
          `CRD file ${bad}: expected apiVersion apiextensions.k8s.io/v1, kind CustomResourceDefinition, got "v1", "ConfigMap"`,
        ],
        [
          { profile: '1.36', seed: {}, crdFiles: [missing] },
          `CRD file ENOENT: no such file or directory, open '${missing}'`,
        ],
        [
          { profile: '1.36', seed: {}, crdFiles: [], port: taken },
          `port ${taken} is in use (listwatch.server.port); set another port, or 0 for a free one`,
        ],
      ] as const) {
        const r = await vscode.commands.executeCommand(start, answers);
        assert.strictEqual(r, undefined, expected);
        assert.strictEqual(api.localServer.state(), undefined);
        assert.strictEqual(
          failures().at(-1),
          `[error] Cannot start the local API server: ${expected}`,
        );
      }
    } finally {
      holder.close();
    }
    assert.strictEqual(failures().length - before, 3);
    // What needs a running server says so.
    for (const command of [
      'listwatch.copyKubeconfigPath',
      'listwatch.openTerminalWithKubeconfig',
      inject,
      'listwatch.serverMenu',
    ]) {
      assert.strictEqual(await vscode.commands.executeCommand(command), undefined, command);
      assert.match(
        api.logLines().at(-1) ?? '',
        /^\[warn\] No local API server is running\. Start one with "List\/Watch: Start Local API Server…"\.$/,
        command,
      );
    }
  });

  it('a big seed (1,500 objects: its progress reported as it goes) starts with every object', async () => {
    const state = await vscode.commands.executeCommand<LiveServerState | undefined>(start, {
      profile: '1.36',
      seed: { pods: 1200, configmaps: 300 },
      crdFiles: [],
    });
    try {
      assert.ok(state);
      // A consistent LIST of each: every seeded object (the watch cache may still be catching up).
      const counts = [];
      for (const resource of ['pods', 'configmaps']) {
        const listed = await call(state, 'GET', `/api/v1/namespaces/default/${resource}`);
        assert.strictEqual(listed.status, 200);
        counts.push((listed.json.items as unknown[]).length);
      }
      assert.deepStrictEqual(counts, [1200, 300]);
    } finally {
      await ensureStopped();
    }
  });

  it('settings: a wrong value is named, with what was expected and what is used', async () => {
    const cases: [
      Parameters<typeof checkServerSettings>[0],
      string[],
      [number, string, boolean],
    ][] = [
      [{ port: 0, profile: '1.36', autoStart: false }, [], [0, '1.36', false]],
      [{ port: 6443, profile: '1.37', autoStart: true }, [], [6443, '1.37', true]],
      [
        { port: 70000, profile: '1.35', autoStart: 'yes' },
        [
          'listwatch.server.port: expected a port number 0..65535 (0: a free port), got 70000; using 0',
          'listwatch.server.profile: expected "1.36" or "1.37", got "1.35"; using "1.36"',
          'listwatch.server.autoStart: expected true or false, got "yes"; using false',
        ],
        [0, '1.36', false],
      ],
      [
        { port: 'abc', profile: undefined, autoStart: undefined },
        [
          'listwatch.server.port: expected a port number 0..65535 (0: a free port), got "abc"; using 0',
        ],
        [0, '1.36', false],
      ],
    ];
    for (const [raw, problems, [port, profile, autoStart]] of cases) {
      const s = checkServerSettings(raw);
      assert.deepStrictEqual(s.problems, problems, JSON.stringify(raw));
      assert.deepStrictEqual([s.port, s.profile, s.autoStart], [port, profile, autoStart]);
    }
    // The etcd and the in-memory etcd's version.
    const none = { port: undefined, profile: undefined, autoStart: undefined };
    const etcdCases: [Parameters<typeof checkServerSettings>[0], string[], unknown][] = [
      [{ ...none, etcd: 'spawn' }, [], { kind: 'spawn' }],
      [{ ...none, etcdVersion: '' }, [], { kind: 'memory' }],
      [{ ...none, etcdVersion: ' 3.4.23 ' }, [], { kind: 'memory', version: '3.4.23' }],
      [
        { ...none, etcd: 'memory', etcdVersion: 'v3.6.6' },
        [],
        { kind: 'memory', version: 'v3.6.6' },
      ],
      [
        { ...none, etcd: 'https://127.0.0.1:2379' },
        [
          `listwatch.server.etcd: URL 1 "https://127.0.0.1:2379": etcd over TLS needs client certificates (kube-apiserver's --etcd-cafile, --etcd-certfile, --etcd-keyfile), which listwatch serve does not take; use an http:// client URL, got "https://127.0.0.1:2379"; using "memory"`,
        ],
        { kind: 'memory' },
      ],
      [
        { ...none, etcdVersion: 3.4 },
        [
          'listwatch.server.etcdVersion: expected an etcd version such as 3.4.23 or 3.6.6 (major.minor.patch), got 3.4; reporting no version',
        ],
        { kind: 'memory' },
      ],
      [
        { ...none, etcd: 'spawn', etcdVersion: '3.4.23' },
        [
          'listwatch.server.etcdVersion: is for the in-memory etcd, and listwatch.server.etcd is "spawn", whose members report their own versions; ignored',
        ],
        { kind: 'spawn' },
      ],
    ];
    for (const [raw, problems, etcd] of etcdCases) {
      const s = checkServerSettings(raw);
      assert.deepStrictEqual([s.problems, s.etcd], [problems, etcd], JSON.stringify(raw));
    }
    // A start on the in-memory etcd reporting 3.4.23: served as on Debian's etcd-server, and said.
    const config = vscode.workspace.getConfiguration('listwatch.server');
    await config.update('etcdVersion', '3.4.23', vscode.ConfigurationTarget.Global);
    try {
      const asOld = await vscode.commands.executeCommand<LiveServerState | undefined>(start, {
        profile: '1.36',
        seed: { pods: 3 },
        crdFiles: [],
      });
      assert.ok(asOld);
      assert.deepStrictEqual(
        [asOld.etcd.kind, asOld.etcd.version],
        ['memory', '3.4.23'],
        JSON.stringify(asOld.etcd),
      );
      const etcdRow = api.localServer
        .serverViewNodes()
        .find((n) => n.kind === 'detail' && n.id === 'etcd');
      assert.ok(etcdRow?.kind === 'detail');
      assert.strictEqual(etcdRow.description, 'in memory, reports etcd 3.4.23');
      assert.match(
        String(etcdRow.tooltip),
        /^The engine's in-memory etcd\nRequestWatchProgress feature is not supported \(memory etcd 3\.4\.23; it needs etcd >= 3\.4\.31/,
      );
      const listed = await call(asOld, 'GET', '/api/v1/namespaces/default/pods');
      assert.strictEqual(listed.status, 200);
      const view = await debugState(asOld);
      assert.deepStrictEqual(
        [view.etcd.members, view.etcd.requestWatchProgressSupported],
        [[{ endpoint: 'memory', version: '3.4.23' }], false],
      );
      const served = view.recentLists.find((l) => l.resource === 'pods');
      assert.deepStrictEqual(
        [served?.servedBy, served?.rule],
        ['etcd', 'consistent-read-unsupported'],
      );
    } finally {
      await config.update('etcdVersion', undefined, vscode.ConfigurationTarget.Global);
      await ensureStopped();
    }
    // A start reads them: a wrong port is reported and a free one used.
    await vscode.workspace
      .getConfiguration('listwatch.server')
      .update('port', 1.5, vscode.ConfigurationTarget.Global);
    const state = await vscode.commands.executeCommand<LiveServerState | undefined>(start, {
      profile: '1.36',
      seed: {},
      crdFiles: [],
    });
    assert.ok(state && state.port > 0);
    assert.ok(
      api
        .logLines()
        .includes(
          '[warn] listwatch.server.port: expected a port number 0..65535 (0: a free port), got 1.5; using 0',
        ),
      api.logLines().slice(-5).join('\n'),
    );
    await vscode.workspace
      .getConfiguration('listwatch.server')
      .update('port', undefined, vscode.ConfigurationTarget.Global);
    await ensureStopped();
    const manifest = vscode.extensions.getExtension(extensionId)!.packageJSON.contributes
      .configuration.properties as Record<string, { scope: string; default: unknown }>;
    assert.deepStrictEqual(
      ['port', 'profile', 'autoStart', 'etcd', 'etcdVersion'].map((k) => [
        manifest[`listwatch.server.${k}`].default,
        manifest[`listwatch.server.${k}`].scope,
      ]),
      [
        [0, 'window'],
        ['1.36', 'window'],
        [false, 'window'],
        ['memory', 'window'],
        ['', 'window'],
      ],
    );
  });

  describe('with clients', () => {
    let state: LiveServerState;
    const kubectls = findKubectls();
    // The newest kubectl: WatchList through its env var (1.27+), and its User-Agent.
    const k = kubectls.at(-1);
    const target = { kubeconfig: '', dir: tmp };
    const agentOf = (ua: string | undefined) => ua?.split(' ')[0];
    let informer: Informer;
    let getWatch: KubectlProcess | undefined;
    let wait: KubectlProcess | undefined;

    before(async () => {
      console.log(
        `    kubectl: ${kubectls.map((x) => `${x.gitVersion} ${x.path}`).join(', ') || 'none found; the client-node parts run alone'}`,
      );
      const started = await vscode.commands.executeCommand<LiveServerState | undefined>(start, {
        profile: '1.36',
        seed: { pods: 3 },
        crdFiles: [],
      });
      assert.ok(started);
      state = started;
      target.kubeconfig = state.kubeconfigPath;
    });
    after(async () => {
      for (const p of running.splice(0)) await p.kill();
      for (const i of informers.splice(0)) await i.stop().catch(() => undefined);
      await ensureStopped();
    });

    it('kubectl get -w, kubectl wait with and without WatchList and a client-node informer: the live state names each client and watcher, with its state', async () => {
      informer = new Informer(state.kubeconfigPath, 'app=informer');
      informers.push(informer);
      await createPod(state, 'informed-0', 'informer');
      await informer.start();
      await eventually(() => assert.ok(informer.names.has('informed-0')));
      const ofAgent = (agent: string) => (s: LiveServerState) =>
        s.watchers.filter((w) => w.userAgent === agent);
      await eventually(() => {
        const w = ofAgent(clientNodeAgent)(api.localServer.state()!);
        assert.deepStrictEqual(
          w.map((x) => [x.resource, queryOf(x.requestLine).get('labelSelector'), x.state]),
          [['pods', 'app=informer', 'BookmarkSent']],
        );
      });
      let kubectlAgent: string | undefined;
      if (k) {
        kubectlAgent = `${path.basename(k.path)}/${k.gitVersion}`;
        getWatch = startKubectl(k, target, ['get', 'pods', '-w']);
        running.push(getWatch);
        await getWatch.until((p) => /^pod-0\s/m.test(p.stdout), 'it printed pod-0');
        const listsBefore = (s: LiveServerState) =>
          s.clients.find((c) => agentOf(c.userAgent) === kubectlAgent)?.lists ?? 0;
        // wait without WatchList: a LIST, then a watch with bookmarks.
        const lists0 = listsBefore(api.localServer.state()!);
        wait = startKubectl(
          k,
          target,
          ['wait', '--for=condition=Ready', 'pod/pod-0', '--timeout=10m'],
          listThenWatchEnv(k),
        );
        running.push(wait);
        await eventually(() => {
          const s = api.localServer.state()!;
          const w = s.watchers.filter(
            (x) =>
              agentOf(x.userAgent) === kubectlAgent &&
              queryOf(x.requestLine).get('fieldSelector') === 'metadata.name=pod-0',
          );
          assert.strictEqual(w.length, 1, JSON.stringify(s.watchers));
          assert.strictEqual(w[0].allowWatchBookmarks, true);
          assert.strictEqual(queryOf(w[0].requestLine).get('sendInitialEvents'), null);
          assert.strictEqual(listsBefore(s) - lists0, 1, 'the wait LISTed first');
        });
        // wait with WatchList: no LIST; a watch that sends the initial events, then the bookmark.
        const env = watchListEnv(k);
        for (const [name, extraEnv] of [
          ['pod-1', listThenWatchEnv(k)],
          ['pod-2', env ?? {}],
        ] as const) {
          const lists1 = listsBefore(api.localServer.state()!);
          const w = startKubectl(
            k,
            target,
            ['wait', '--for=delete', `pod/${name}`, '--timeout=60s'],
            extraEnv,
          );
          running.push(w);
          const ofWait = (s: LiveServerState) =>
            s.watchers.filter(
              (x) => queryOf(x.requestLine).get('fieldSelector') === `metadata.name=${name}`,
            );
          await eventually(() => {
            const s = api.localServer.state()!;
            const seen = ofWait(s);
            assert.strictEqual(seen.length, 1, JSON.stringify(s.watchers));
            assert.strictEqual(agentOf(seen[0].userAgent), kubectlAgent);
            assert.strictEqual(seen[0].state, 'BookmarkSent');
            const watchList = env !== undefined && name === 'pod-2';
            assert.strictEqual(
              queryOf(seen[0].requestLine).get('sendInitialEvents'),
              watchList ? 'true' : null,
            );
            assert.strictEqual(listsBefore(s) - lists1, watchList ? 0 : 1, `${name}: LISTs`);
          });
          const deleted = await call(state, 'DELETE', `/api/v1/namespaces/default/pods/${name}`);
          assert.strictEqual(deleted.status, 200);
          const r = await w.exited;
          assert.strictEqual(r.code, 0, r.stderr);
          assert.strictEqual(r.stdout.trim(), `pod/${name} condition met`);
          await eventually(() => assert.deepStrictEqual(ofWait(api.localServer.state()!), []));
        }
      }
      // The clients by user agent, in the status bar and the Server view.
      const s = await eventually(() => {
        const now = api.localServer.state()!;
        const agents = now.clients.map((c) => agentOf(c.userAgent));
        assert.ok(agents.includes(agentOf(clientNodeAgent)), JSON.stringify(agents));
        if (kubectlAgent) assert.ok(agents.includes(kubectlAgent), JSON.stringify(agents));
        assert.strictEqual(now.watchersTotal, k ? 3 : 1, JSON.stringify(now.watchers));
        // kubectl and the informer hold their watches open: connected now.
        assert.ok(now.connectedClients.includes(clientNodeAgent), JSON.stringify(now));
        if (k) assert.ok(now.connectedClients.some((c) => agentOf(c) === kubectlAgent));
        const connected = now.connectedClients.length;
        // Connections are User-Agent + connection, the server's own counts (open now, and seen
        // since the start).
        assert.strictEqual(
          api.localServer.statusBarText(),
          `$(server-process) 127.0.0.1:${state.port} · ${connected} connection${connected === 1 ? '' : 's'} open (${now.clientsSeen} since the start) · ${now.watchersTotal} watchers`,
        );
        return now;
      });
      const rows = api.localServer.serverViewRows();
      const watcherRows = rows.find((r) => r.label === 'Watchers')!.children;
      assert.deepStrictEqual(
        watcherRows.map((r) => [r.label, r.description]),
        s.watchers.map((w) => [`#${w.id} pods`, `BookmarkSent · ${agentOf(w.userAgent)}`]),
      );
      const agentRows = rows.find((r) => r.label === 'User agents')!.children;
      assert.ok(
        agentRows.some(
          (r) => r.label === 'node-fetch/1.0' && /^1 list · 1 watch\b/.test(r.description),
        ),
        JSON.stringify(agentRows),
      );
      // Three faces count this live run three ways, each under its own name: the status bar's
      // connections (any request), the Server view's user agents, the Clients tab's clients (the
      // connections that sent a LIST or WATCH). Read together they agree: each client is a
      // connection the status bar saw and a user agent the Server view lists, and only the Clients
      // tab calls its figure clients.
      const run = api.liveRuns.list()[0];
      assert.ok(run, 'the live run of the server');
      await eventually(() => {
        const now = api.localServer.state()!;
        const clients = api.liveRuns.model(run.id)?.clients ?? [];
        const agents = api.localServer.serverViewRows().find((r) => r.label === 'User agents')!;
        assert.strictEqual(agents.description, String(now.clients.length));
        const agentNames = new Set(agents.children.map((r) => r.label));
        assert.ok(clients.length >= (k ? 4 : 1), JSON.stringify(clients.map((c) => c.id)));
        for (const c of clients)
          assert.ok(
            agentNames.has(agentOf(c.client)!),
            `${c.id} among ${[...agentNames].join(', ')}`,
          );
        const connections = clients.reduce(
          (n, c) => n + (c.connection === undefined ? 1 : c.connection.split(', ').length),
          0,
        );
        assert.ok(
          connections <= now.clientsSeen,
          `${connections} connections of clients, ${now.clientsSeen} seen`,
        );
        const text = api.localServer.statusBarText() ?? '';
        assert.match(
          text,
          new RegExp(` · \\d+ connections? open \\(${now.clientsSeen} since the start\\)`),
        );
        assert.doesNotMatch(text, /client/i, 'the status bar does not call connections clients');
        assert.ok(
          api.localServer.serverViewRows().every((r) => !/client/i.test(r.label)),
          'no Server view section calls user agents clients',
        );
      });
    });

    it("Inject Fault… validates each parameter with the admin API's messages", async () => {
      const typed: [string, string][] = [];
      const r = await injectThroughPrompts(
        api,
        'cache-lag',
        { seconds: '0.5', resource: 'configmaps' },
        async (param, options) => {
          if (param !== 'seconds') return;
          for (const [text, body] of [
            ['0', { seconds: 0 }],
            ['-1', { seconds: -1 }],
            ['abc', { seconds: 'abc' }],
            ['', {}],
          ] as const) {
            const shown = options.validateInput?.(text) as string | undefined;
            const admin = await call(state, 'POST', '/debug/listwatch/v1/faults/cache-lag', body);
            assert.strictEqual(admin.status, 422);
            typed.push([String(shown), String(admin.json.message)]);
          }
        },
      );
      for (const [shown, admin] of typed) assert.strictEqual(shown, admin);
      assert.deepStrictEqual(
        typed.map(([shown]) => shown),
        [
          'seconds: expected a number > 0, got 0',
          'seconds: expected a number > 0, got -1',
          'seconds: expected a number > 0, got "abc"',
          'seconds: required: expected a number > 0',
        ],
      );
      assert.strictEqual(r.status, 200);
      assert.deepStrictEqual(
        (r.body as { resources: { resource: string }[] }).resources.map((x) => x.resource),
        ['configmaps'],
      );
      // Arguments skip the prompts; a wrong value answers the admin API's 422.
      const wrong = await vscode.commands.executeCommand<FaultResponse>(inject, 'cache-lag', {
        seconds: -1,
      });
      assert.strictEqual(wrong.status, 422);
      assert.strictEqual(
        (wrong.body as { message: string }).message,
        'seconds: expected a number > 0, got -1',
      );
      const unknown = await vscode.commands.executeCommand<FaultResponse>(inject, 'nope', {});
      assert.strictEqual(unknown.status, 404);
    });

    it('cache-lag: the watch cache falls behind etcd and a consistent LIST waits for it', async () => {
      const r = await injectThroughPrompts(api, 'cache-lag', { seconds: '2', resource: 'pods' });
      assert.strictEqual(r.status, 200);
      const created = await createPod(state, 'lagged', 'lag');
      assert.strictEqual(created.status, 201);
      const rv = Number((created.json.metadata as { resourceVersion: string }).resourceVersion);
      const during = api.localServer.state()!.resources.find((x) => x.name === 'pods')!;
      assert.ok(
        during.cacheResourceVersion < rv,
        `cache at ${during.cacheResourceVersion}, etcd at ${rv}`,
      );
      const reflector = (await debugState(state)).resources.find((x) => x.resource === 'pods')!
        .reflector as { pausedForMs: number };
      assert.ok(reflector.pausedForMs > 0, JSON.stringify(reflector));
      // The consistent LIST (no resourceVersion) waits until the cache reaches etcd's revision.
      const listed = await call(
        state,
        'GET',
        '/api/v1/namespaces/default/pods?labelSelector=app%3Dlag',
      );
      assert.strictEqual(listed.status, 200);
      assert.deepStrictEqual(podNames(listed.json), ['lagged']);
      assert.ok(
        Number((listed.json.metadata as { resourceVersion: string }).resourceVersion) >= rv,
      );
      const served = (await debugState(state)).recentLists.find(
        (l) => queryOf(l.requestLine).get('labelSelector') === 'app=lag',
      );
      assert.deepStrictEqual([served?.servedBy, served?.rule], ['cache', 'consistent-read']);
    });

    it('expire-history and Terminate from the Server view: the informer resumes, gets 410 and relists', async () => {
      // A write the informer does not see moves the cache past the informer's resourceVersion.
      await createPod(state, 'unseen', 'elsewhere');
      const lists = informer.lists;
      const nodes = api.localServer.serverViewNodes();
      const pods = nodes.find(
        (n): n is Extract<ServerViewNode, { kind: 'resource' }> =>
          n.kind === 'resource' && n.resource.name === 'pods',
      );
      assert.ok(pods);
      const expired = await vscode.commands.executeCommand<FaultResponse>(
        'listwatch.expireHistory',
        pods,
      );
      assert.strictEqual(expired.status, 200);
      const dropped = (expired.body as { resources: { resource: string; droppedEvents: number }[] })
        .resources;
      assert.deepStrictEqual(
        dropped.map((x) => x.resource),
        ['pods'],
      );
      assert.ok(dropped[0].droppedEvents > 0);
      const watcher = api.localServer
        .serverViewNodes()
        .find(
          (n): n is Extract<ServerViewNode, { kind: 'watcher' }> =>
            n.kind === 'watcher' && n.watcher.userAgent === clientNodeAgent,
        );
      assert.ok(watcher, JSON.stringify(api.localServer.state()?.watchers));
      const terminated = await vscode.commands.executeCommand<FaultResponse>(
        'listwatch.terminateWatcher',
        watcher,
      );
      assert.strictEqual(terminated.status, 200);
      assert.deepStrictEqual(
        (terminated.body as { terminated: { id: number }[] }).terminated.map((t) => t.id),
        [watcher.watcher.id],
      );
      await eventually(() =>
        assert.strictEqual(informer.lists, lists + 1, 'the informer relisted'),
      );
      await eventually(() => {
        const w = api.localServer.state()!.watchers.filter((x) => x.userAgent === clientNodeAgent);
        assert.strictEqual(w.length, 1);
        assert.notStrictEqual(w[0].id, watcher.watcher.id, 'a new watch after the relist');
      });
      // The relist is the informer's second LIST in the live state.
      const relists = (await debugState(state)).recentLists.filter(
        (l) =>
          l.userAgent === clientNodeAgent &&
          queryOf(l.requestLine).get('labelSelector') === 'app=informer',
      );
      assert.strictEqual(relists.length, 2, JSON.stringify(relists));
      const later = await createPod(state, 'informed-1', 'informer');
      assert.strictEqual(later.status, 201);
      await eventually(() => assert.ok(informer.names.has('informed-1')));
    });

    it('terminate-watcher through the quick inputs closes that watch', async () => {
      const s = api.localServer.state()!;
      const victim = getWatch
        ? s.watchers.find(
            (w) =>
              w.requestLine?.includes('watch=true') &&
              !queryOf(w.requestLine).get('fieldSelector') &&
              w.userAgent !== clientNodeAgent,
          )
        : s.watchers.find((w) => w.userAgent === clientNodeAgent);
      assert.ok(victim, JSON.stringify(s.watchers));
      const r = await injectThroughPrompts(api, 'terminate-watcher', {
        id: String(victim.id),
        resource: 'pods',
      });
      assert.strictEqual(r.status, 200, JSON.stringify(r.body));
      await eventually(() =>
        assert.ok(!api.localServer.state()!.watchers.some((w) => w.id === victim.id)),
      );
      if (getWatch) {
        // kubectl get -w ends with its watch.
        const done = await getWatch.exited;
        assert.strictEqual(done.code, 0, done.stderr);
      }
    });

    it('compact, etcd-latency, etcd-unavailable, rangestream and restart change what they say', async () => {
      const compacted = await injectThroughPrompts(api, 'compact', {});
      assert.strictEqual(compacted.status, 200);
      const c = compacted.body as { revision: number; compactRevision: number };
      assert.strictEqual(c.compactRevision, c.revision);
      assert.strictEqual((await debugState(state)).etcd.compactRevision, c.revision);

      const latency = await injectThroughPrompts(api, 'etcd-latency', { perRequestMs: '20' });
      assert.strictEqual(latency.status, 200);
      let etcd = (await debugState(state)).etcd;
      assert.deepStrictEqual(
        [etcd.latencySimulated, (etcd.latency as { perRequestMs: number }).perRequestMs],
        [true, 20],
      );
      await vscode.commands.executeCommand(inject, 'etcd-latency', { perRequestMs: 0 });
      etcd = (await debugState(state)).etcd;
      assert.strictEqual(etcd.latencySimulated, false);

      const unavailable = await injectThroughPrompts(api, 'etcd-unavailable', { seconds: '1' });
      assert.strictEqual(unavailable.status, 200);
      const failed = await call(state, 'GET', '/api/v1/namespaces/default/pods');
      assert.strictEqual(failed.status, 500);
      assert.match(String(failed.json.message), /^rpc error: code = Unavailable/);
      await eventually(async () =>
        assert.strictEqual(
          (await call(state, 'GET', '/api/v1/namespaces/default/pods')).status,
          200,
        ),
      );

      const stream = await injectThroughPrompts(api, 'rangestream', { mode: 'supported' });
      assert.strictEqual(stream.status, 200);
      assert.strictEqual((await debugState(state)).etcd.rangeStream, 'supported');
      assert.ok(
        (stream.body as { gateEnabled: { EtcdRangeStream: boolean }[] }).gateEnabled.every(
          (g) => !g.EtcdRangeStream,
        ),
        'the 1.36 profile has EtcdRangeStream off',
      );

      const before = api.localServer.state()!.watchers.filter((w) => w.resource === 'pods');
      const restarted = await injectThroughPrompts(api, 'restart', { resource: 'pods' });
      assert.strictEqual(restarted.status, 200);
      assert.deepStrictEqual(
        (restarted.body as { resources: { resource: string; closedWatchers: number }[] }).resources,
        [{ resource: 'pods', closedWatchers: before.length }],
      );
      // The new watch cache lists etcd and becomes ready.
      await eventually(() =>
        assert.ok(api.localServer.state()!.resources.find((r) => r.name === 'pods')!.ready),
      );
    });

    it('Terminate on a client row terminates every watcher of its user agent', async () => {
      const clientNode = (agent: string) =>
        api.localServer
          .serverViewNodes()
          .find(
            (n): n is Extract<ServerViewNode, { kind: 'client' }> =>
              n.kind === 'client' && n.client.userAgent === agent,
          );
      const test = clientNode(testAgent);
      assert.ok(test, "the test's own requests are a client");
      const none = await vscode.commands.executeCommand<FaultResponse>(
        'listwatch.terminateWatcher',
        test,
      );
      assert.strictEqual(none.status, 404);
      assert.strictEqual(
        (none.body as { message: string }).message,
        `no watcher of user agent "${testAgent}"`,
      );
      const informerClient = await eventually(() => {
        const node = clientNode(clientNodeAgent);
        assert.ok(node);
        assert.ok(api.localServer.state()!.watchers.some((w) => w.userAgent === clientNodeAgent));
        return node;
      });
      const ended = await vscode.commands.executeCommand<FaultResponse>(
        'listwatch.terminateWatcher',
        informerClient,
      );
      assert.strictEqual(ended.status, 200, JSON.stringify(ended.body));
      const terminated = (ended.body as { terminated: { userAgent: string }[] }).terminated;
      assert.ok(terminated.length >= 1);
      assert.ok(
        terminated.every((t) => t.userAgent === clientNodeAgent),
        JSON.stringify(terminated),
      );
    });

    it('the status bar menu lists the server commands, and Open Inspector only when it exists', async () => {
      let shown: string[] = [];
      api.localServer.usePrompts({
        pick: (items) => {
          shown = items.map((i) => i.label);
          return Promise.resolve(undefined);
        },
      });
      await vscode.commands.executeCommand('listwatch.serverMenu');
      const live = (await vscode.commands.getCommands(true)).includes('listwatch.openLiveRun');
      assert.deepStrictEqual(shown, [
        '$(copy) Copy KUBECONFIG Path',
        '$(terminal) Open Terminal with KUBECONFIG',
        '$(zap) Inject Fault…',
        ...(live ? ['$(graph) Open Inspector'] : []),
        '$(debug-stop) Stop Local API Server',
      ]);
    });

    it('deactivate stops the server: every watch ends and the port refuses connections', async () => {
      const port = state.port;
      const extension = vscode.extensions.getExtension(extensionId)!;
      const main = path.join(extension.extensionPath, 'dist', 'extension.js');
      // The module the extension host loaded (require's cache holds the one instance).
      assert.ok(require.cache[require.resolve(main)], `${main} is not loaded`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const loaded = require(main) as { deactivate(): Promise<void> };
      if (wait) assert.ok(wait.running, 'kubectl wait still runs');
      await loaded.deactivate();
      assert.strictEqual(await refused(port), 'ECONNREFUSED');
      assert.strictEqual(api.localServer.state(), undefined);
      assert.strictEqual(api.localServer.statusBarText(), undefined);
      if (wait) {
        // Its watch ended with the server; the reflector's retries fail, so stop it here.
        await wait.kill();
      }
      // The extension itself still works: it starts again.
      const again = await vscode.commands.executeCommand<LiveServerState | undefined>(start, {
        profile: '1.36',
        seed: {},
        crdFiles: [],
      });
      assert.ok(again);
      await ensureStopped();
    });
  });
});
