// No upstream counterpart: the local API server's commands: Start (profile, seed objects, CRD
// files, each with a default so Enter-Enter-Enter starts one), Stop, Copy KUBECONFIG Path, Open
// Terminal with KUBECONFIG, Inject Fault, the status bar's menu, and the Server view's Terminate
// (a watcher) and Expire history (a resource) actions. A command that needs a running server says
// so when none runs. Every command also takes its answers as arguments (tests, walkthrough links).
import { parseEtcdChoice, type EtcdChoice } from '../../server/etcd-choice';
import * as vscode from 'vscode';
import * as path from 'path';
import { bigSeed } from '../../server/api-server';
import { parseSeedCounts, type SeedCounts } from '../../server/seed-counts';
import type { FaultResponse } from '../../server/faults';
import type { ProfileName } from '../../server/served-resources';
import { askFault, faultResultText } from './fault-input';
import {
  clearFaultCommandId,
  copyKubeconfigPathCommandId,
  expireHistoryCommandId,
  injectFaultCommandId,
  openLiveRunCommandId,
  openServerTerminalCommandId,
  serverMenuCommandId,
  serverViewId,
  startServerCommandId,
  stopServerCommandId,
  terminateWatcherCommandId,
  etcdSettingId,
  etcdVersionSettingId,
  autoStartSettingId,
} from '../ids';
import { LocalServerStartError, type LocalApiServer } from './live-server';
import { etcdDescription, type LiveServerState } from './live-server-state';
import type { CommandHandlers } from '../lazy-feature';
import type { ExtensionLog } from '../shared/output-log';
import type { ServerPrompts } from './server-prompts';
import {
  readServerSettings,
  serverProfiles,
  warnAboutServerSettings,
  type ServerSettings,
} from './server-settings';
import { faultRowText, type ServerViewNode } from './server-view';
import type { ActiveFaultJSON } from '../../server/active-faults';

/** The Start command's answers (any left out are asked for). */
export interface StartAnswers {
  profile?: ProfileName;
  seed?: SeedCounts;
  crdFiles?: string[];
  /** `memory`, `spawn` or etcd client URLs (as `listwatch serve --etcd`). */
  etcd?: string;
  port?: number;
  kubeconfigPath?: string;
}

/** The seed a start uses unless told otherwise: a few objects to list and watch. */
export const defaultSeedText = 'pods=10,configmaps=3';

/** The terminal Open Terminal with KUBECONFIG creates (and reuses while it is open). */
export const serverTerminalName = 'listwatch';

export interface ServerCommandDeps {
  server: LocalApiServer;
  prompts: ServerPrompts;
  log: ExtensionLog;
}

const noServer =
  'No local API server is running. Start one with "List/Watch: Start Local API Server…".';

/** The running server's state, or undefined after saying that none runs (with a Start button). */
function requireServer(deps: ServerCommandDeps): LiveServerState | undefined {
  const state = deps.server.state();
  if (!state) {
    deps.log.warn(noServer);
    void vscode.window.showWarningMessage(noServer, 'Start…').then((b) => {
      if (b) void vscode.commands.executeCommand(startServerCommandId);
    });
  }
  return state;
}

function seedText(seed: SeedCounts): string {
  return `pods=${seed.pods ?? 0},configmaps=${seed.configmaps ?? 0}`;
}

/** Asks for what `answers` leaves out; undefined when a prompt was dismissed. */
async function askStart(
  prompts: ServerPrompts,
  answers: StartAnswers,
  settings: ServerSettings,
): Promise<
  (Required<Pick<StartAnswers, 'profile' | 'seed' | 'crdFiles'>> & { etcd: EtcdChoice }) | undefined
> {
  const defaultProfile = settings.profile;
  let profile = answers.profile;
  if (!profile) {
    const items = serverProfiles.map((p) => ({
      label: p,
      description: p === '1.36' ? 'k8s.io/apiserver release-1.36' : 'the 1.37 preview (master)',
      detail: p === defaultProfile ? 'the listwatch.server.profile setting' : undefined,
    }));
    const picked = await prompts.pick(items, {
      title: 'Start Local API Server: profile (1/4)',
      placeHolder: 'The semantics the engine serves with',
      active: items.find((i) => i.label === defaultProfile),
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    profile = picked.label;
  }
  let seed = answers.seed;
  if (!seed) {
    const text = await prompts.input({
      title: 'Start Local API Server: seed objects (2/4)',
      prompt: 'Objects created in namespace "default" at start: pods=N,configmaps=N (empty: none)',
      value: defaultSeedText,
      ignoreFocusOut: true,
      validateInput: (t) => {
        if (t.trim() === '') return undefined;
        try {
          parseSeedCounts(t);
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      },
    });
    if (text === undefined) return undefined;
    seed = text.trim() === '' ? {} : parseSeedCounts(text);
  }
  let crdFiles = answers.crdFiles;
  if (!crdFiles) {
    const none = {
      label: 'No CustomResourceDefinitions',
      description: 'the built-in API only (core, apps, batch, rbac, …)',
    };
    const choose = { label: 'Choose CRD files…', description: 'YAML or JSON manifests' };
    const picked = await prompts.pick([none, choose], {
      title: 'Start Local API Server: custom resources (3/4)',
      placeHolder: 'Serve a custom resource per CustomResourceDefinition manifest',
      active: none,
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    if (picked === choose) {
      const uris = await prompts.openFiles({
        title: 'CustomResourceDefinition manifests',
        canSelectMany: true,
        openLabel: 'Serve',
        filters: { 'YAML or JSON': ['yaml', 'yml', 'json'] },
      });
      if (!uris || uris.length === 0) return undefined;
      crdFiles = uris.map((u) => u.fsPath);
    } else crdFiles = [];
  }
  const chosen =
    answers.etcd !== undefined
      ? parseEtcdChoice(answers.etcd)
      : await askEtcd(prompts, settings.etcd);
  if (!chosen) return undefined;
  // The in-memory etcd reports the version its setting gives, however it was chosen.
  const etcd = chosen.kind === 'memory' && settings.etcd.kind === 'memory' ? settings.etcd : chosen;
  return { profile, seed, crdFiles, etcd };
}

/** The choice as `--etcd` spells it. */
function etcdChoiceText(c: EtcdChoice): string {
  return c.kind === 'servers' ? c.endpoints.join(',') : c.kind;
}

/** Step 4: the etcd to run on, as `listwatch serve --etcd` offers (the setting's choice first). */
async function askEtcd(
  prompts: ServerPrompts,
  setting: EtcdChoice,
): Promise<EtcdChoice | undefined> {
  const fromSetting = `the ${etcdSettingId} setting`;
  const version = setting.kind === 'memory' ? setting.version : undefined;
  const memory = {
    label: 'In-memory etcd',
    description:
      version === undefined
        ? "the engine's own MVCC model"
        : `the engine's own MVCC model, reporting etcd ${version}`,
    detail:
      setting.kind !== 'memory'
        ? undefined
        : version === undefined
          ? fromSetting
          : `${fromSetting}; the version from ${etcdVersionSettingId}`,
  };
  const spawn = {
    label: 'Start etcd-server',
    description: "Debian's etcd on a free 127.0.0.1 port, stopped with the server",
    detail: setting.kind === 'spawn' ? fromSetting : undefined,
  };
  const servers = {
    label: 'Existing etcd cluster…',
    description: 'client URLs, e.g. http://127.0.0.1:2379',
    detail:
      setting.kind === 'servers' ? `${fromSetting}: ${setting.endpoints.join(',')}` : undefined,
  };
  const items = [memory, spawn, servers];
  const picked = await prompts.pick(items, {
    title: 'Start Local API Server: etcd (4/4)',
    placeHolder: 'Where the objects live',
    active: items[['memory', 'spawn', 'servers'].indexOf(setting.kind)],
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (picked === memory) return { kind: 'memory' };
  if (picked === spawn) return { kind: 'spawn' };
  const text = await prompts.input({
    title: 'Start Local API Server: etcd client URLs',
    prompt: "Comma-separated http:// client URLs (kube-apiserver's --etcd-servers)",
    value: setting.kind === 'servers' ? setting.endpoints.join(',') : 'http://127.0.0.1:2379',
    ignoreFocusOut: true,
    validateInput: (t) => {
      try {
        parseEtcdChoice(t);
        return undefined;
      } catch (e) {
        return (e as Error).message.replace(/^--etcd: /, '');
      }
    },
  });
  return text === undefined ? undefined : parseEtcdChoice(text);
}

/** Start Local API Server…: the state it started with, or undefined (dismissed, or failed and said why). */
export async function startServerCommand(
  deps: ServerCommandDeps,
  arg?: unknown,
): Promise<LiveServerState | undefined> {
  const running = deps.server.state();
  if (running) {
    void vscode.window.showInformationMessage(
      `The local API server is already running at ${running.httpsUrl}.`,
    );
    return running;
  }
  const settings = readServerSettings();
  warnAboutServerSettings(settings, deps.log);
  const given = (typeof arg === 'object' && arg !== null ? arg : {}) as StartAnswers;
  // Called with answers (a test, another extension): the etcd left out is the setting's, not asked.
  const answers = await askStart(
    deps.prompts,
    typeof arg === 'object' && arg !== null && given.etcd === undefined
      ? { ...given, etcd: etcdChoiceText(settings.etcd) }
      : given,
    settings,
  );
  if (!answers) return undefined;
  const state = await startWith(deps, {
    ...answers,
    etcd: undefined,
    etcdChoice: answers.etcd,
    port: given.port ?? settings.port,
    kubeconfigPath: given.kubeconfigPath,
    faultsFile: settings.faults,
  });
  // The Server view starts collapsed (it would crowd the side bar while unused): show it now.
  if (state) void vscode.commands.executeCommand(`${serverViewId}.focus`, { preserveFocus: true });
  return state;
}

/** Starts with every answer given; failures are shown (naming the input), never thrown. */
export async function startWith(
  deps: ServerCommandDeps,
  o: Required<Pick<StartAnswers, 'profile' | 'seed' | 'crdFiles' | 'port'>> &
    StartAnswers & { etcdChoice?: EtcdChoice; faultsFile?: string },
): Promise<LiveServerState | undefined> {
  // A big seed (one create at a time; on a real etcd each is a written transaction) says how big
  // it is and how far it got, and can be cancelled.
  const total = (o.seed.pods ?? 0) + (o.seed.configmaps ?? 0);
  const big = total >= bigSeed;
  const cancelled = new AbortController();
  try {
    const state = await vscode.window.withProgress(
      {
        location: big ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window,
        title: big
          ? `Starting the local API server: seeding ${total} objects (${seedText(o.seed)})`
          : 'Starting the local API server',
        cancellable: big,
      },
      (progress, token) => {
        token.onCancellationRequested(() => cancelled.abort());
        let shown = 0;
        return deps.server.start({
          port: o.port,
          profile: o.profile,
          seed: o.seed,
          crdFiles: o.crdFiles,
          kubeconfigPath: o.kubeconfigPath,
          etcd: o.etcdChoice,
          faultsFile: o.faultsFile && workspacePath(o.faultsFile),
          signal: cancelled.signal,
          seedProgress: big
            ? (created) => {
                // Whole percents only: a message per object would flood the notification.
                const percent = Math.floor((100 * created) / total);
                if (percent === shown && created !== total) return;
                progress.report({
                  increment: percent - shown,
                  message: `${created} of ${total} created`,
                });
                shown = percent;
              }
            : undefined,
        });
      },
    );
    void vscode.window
      .showInformationMessage(
        `Local API server on ${state.httpsUrl} (profile ${state.profile}, ${seedText(o.seed)}, etcd ${etcdDescription(state.etcd)}).`,
        'Open Terminal',
        'Copy KUBECONFIG Path',
      )
      .then((b) => {
        if (b === 'Open Terminal') void vscode.commands.executeCommand(openServerTerminalCommandId);
        if (b === 'Copy KUBECONFIG Path')
          void vscode.commands.executeCommand(copyKubeconfigPathCommandId);
      });
    return state;
  } catch (e) {
    if (cancelled.signal.aborted) {
      // The user's Cancel: said, not an error.
      const message = `Local API server start cancelled: ${e instanceof Error ? e.message : String(e)}`;
      deps.log.info(message);
      void vscode.window.showInformationMessage(message);
      return undefined;
    }
    const message = `Cannot start the local API server: ${e instanceof LocalServerStartError ? e.message : String(e)}`;
    deps.log.error(message);
    void vscode.window.showErrorMessage(message);
    return undefined;
  }
}

export async function stopServerCommand(deps: ServerCommandDeps): Promise<boolean> {
  const state = deps.server.state();
  if (!state) {
    void vscode.window.showInformationMessage('No local API server is running.');
    return false;
  }
  await deps.server.stop();
  void vscode.window.showInformationMessage(`Local API server ${state.httpsUrl} stopped.`);
  return true;
}

export async function copyKubeconfigPathCommand(
  deps: ServerCommandDeps,
): Promise<string | undefined> {
  const state = requireServer(deps);
  if (!state) return undefined;
  await vscode.env.clipboard.writeText(state.kubeconfigPath);
  void vscode.window.showInformationMessage(`Copied ${state.kubeconfigPath}.`);
  return state.kubeconfigPath;
}

/** A terminal named "listwatch" with KUBECONFIG set (the open one for the same file is reused). */
export function openServerTerminalCommand(deps: ServerCommandDeps): vscode.Terminal | undefined {
  const state = requireServer(deps);
  if (!state) return undefined;
  const kubeconfigOf = (t: vscode.Terminal): string | undefined =>
    (t.creationOptions as vscode.TerminalOptions).env?.KUBECONFIG ?? undefined;
  let terminal = vscode.window.terminals.find(
    (t) =>
      t.name === serverTerminalName &&
      t.exitStatus === undefined &&
      kubeconfigOf(t) === state.kubeconfigPath,
  );
  terminal ??= vscode.window.createTerminal({
    name: serverTerminalName,
    env: { KUBECONFIG: state.kubeconfigPath },
    message: `KUBECONFIG=${state.kubeconfigPath}: the local API server at ${state.httpsUrl}. Try: kubectl get pods -w`,
  });
  terminal.show();
  return terminal;
}

/** Inject Fault…: `name` and `params` skip the prompts. The answer, or undefined when dismissed. */
export async function injectFaultCommand(
  deps: ServerCommandDeps,
  name?: unknown,
  params?: unknown,
): Promise<FaultResponse | undefined> {
  const state = requireServer(deps);
  if (!state) return undefined;
  let choice: { name: string; params: Record<string, unknown> } | undefined;
  if (typeof name === 'string')
    choice = {
      name,
      params:
        typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {},
    };
  else {
    const hint = state.watchers.length
      ? ` Watchers now: ${state.watchers
          .slice(0, 5)
          .map((w) => `${w.id} (${w.resource}, ${w.userAgent ?? 'no User-Agent'})`)
          .join(', ')}${state.watchers.length > 5 ? ', …' : ''}.`
      : ' No watch is open now.';
    choice = await askFault(
      deps.prompts,
      state.resources.map((r) => r.name),
      hint,
      state.etcd.kind === 'memory' ? 'memory' : 'real',
    );
  }
  if (!choice) return undefined;
  const answer = await deps.server.injectFault(choice.name, choice.params);
  const body = answer.body as Record<string, unknown>;
  if (answer.status === 200) {
    const text = `Injected ${choice.name}: ${faultResultText(choice.name, body)}.`;
    deps.log.info(`${text} ${JSON.stringify(body)}`);
    void vscode.window.showInformationMessage(text);
  } else {
    const text = `${choice.name}: ${answer.status} ${String(body.reason)}: ${String(body.message)}`;
    deps.log.warn(text);
    void vscode.window.showErrorMessage(text);
  }
  return answer;
}

/**
 * The Server view's Terminate: on a watcher row terminate-watcher by id (in its resource), on a
 * client row every watcher of that user agent.
 */
export function terminateWatcherCommand(
  deps: ServerCommandDeps,
  node?: unknown,
): Promise<FaultResponse | undefined> {
  const n = node as ServerViewNode | undefined;
  if (n?.kind === 'client')
    return injectFaultCommand(deps, 'terminate-watcher', { userAgent: n.client.userAgent });
  if (n?.kind !== 'watcher') return injectFaultCommand(deps);
  const { id, resource } = n.watcher;
  return injectFaultCommand(deps, 'terminate-watcher', { id, resource });
}

/** The Server view's Expire history on a resource row. */
export function expireHistoryCommand(
  deps: ServerCommandDeps,
  node?: unknown,
): Promise<FaultResponse | undefined> {
  const n = node as ServerViewNode | undefined;
  return injectFaultCommand(
    deps,
    'expire-history',
    n?.kind === 'resource' ? { resource: n.resource.name } : {},
  );
}

/**
 * Clear Fault: on a fault row of the Server view that fault; otherwise a pick of the faults in
 * force (or all of them). The faults cleared, or undefined when nothing was.
 */
export async function clearFaultCommand(
  deps: ServerCommandDeps,
  node?: unknown,
): Promise<ActiveFaultJSON[] | undefined> {
  const state = requireServer(deps);
  if (!state) return undefined;
  const n = node as ServerViewNode | undefined;
  let id: number | 'all' | undefined = n?.kind === 'fault' ? n.fault.id : undefined;
  if (id === undefined) {
    if (state.faults.length === 0) {
      void vscode.window.showInformationMessage('No fault is in force.');
      return undefined;
    }
    const picked = await deps.prompts.pick(
      [
        ...state.faults.map((f) => ({
          label: `#${f.id} ${f.name}`,
          description: faultRowText(f),
          id: f.id as number | 'all',
        })),
        {
          label: 'All',
          description: `the ${state.faults.length} faults in force`,
          id: 'all' as const,
        },
      ],
      { title: 'Clear Fault', placeHolder: 'The fault to clear' },
    );
    if (!picked) return undefined;
    id = picked.id;
  }
  const cleared = deps.server.clearFault(id);
  const text = cleared
    ? `Cleared ${cleared.map((f) => `#${f.id} ${f.name}`).join(', ') || 'no fault'}.`
    : `Fault #${String(id)} is no longer in force.`;
  deps.log.info(text);
  void vscode.window.showInformationMessage(text);
  return cleared;
}

/** The status bar's menu: the server commands, and the live inspector when it exists. */
export async function serverMenuCommand(deps: ServerCommandDeps): Promise<string | undefined> {
  const state = requireServer(deps);
  if (!state) return undefined;
  const commands = new Set(await vscode.commands.getCommands(true));
  const items = [
    {
      label: '$(copy) Copy KUBECONFIG Path',
      command: copyKubeconfigPathCommandId,
      detail: state.kubeconfigPath,
    },
    { label: '$(terminal) Open Terminal with KUBECONFIG', command: openServerTerminalCommandId },
    { label: '$(zap) Inject Fault…', command: injectFaultCommandId },
    ...(commands.has(openLiveRunCommandId)
      ? [{ label: '$(graph) Open Inspector', command: openLiveRunCommandId }]
      : []),
    { label: '$(debug-stop) Stop Local API Server', command: stopServerCommandId },
  ];
  const picked = await deps.prompts.pick(items, {
    title: `Local API server ${state.httpsUrl}`,
    placeHolder: `${state.clients.length} clients, ${state.watchersTotal} watchers`,
  });
  if (!picked) return undefined;
  await vscode.commands.executeCommand(picked.command);
  return picked.command;
}

/** Every server command, registered through the log (each run logged with its arguments). */
/** The server commands' handlers by id (the entry registers the ids, every call logged). */
export function serverCommands(deps: ServerCommandDeps): CommandHandlers {
  return {
    [startServerCommandId]: (arg?: unknown) => startServerCommand(deps, arg),
    [stopServerCommandId]: () => stopServerCommand(deps),
    [copyKubeconfigPathCommandId]: () => copyKubeconfigPathCommand(deps),
    [openServerTerminalCommandId]: () => openServerTerminalCommand(deps),
    [injectFaultCommandId]: (name?: unknown, params?: unknown) =>
      injectFaultCommand(deps, name, params),
    [terminateWatcherCommandId]: (node?: unknown) => terminateWatcherCommand(deps, node),
    [expireHistoryCommandId]: (node?: unknown) => expireHistoryCommand(deps, node),
    [clearFaultCommandId]: (node?: unknown) => clearFaultCommand(deps, node),
    [serverMenuCommandId]: () => serverMenuCommand(deps),
  };
}

/**
 * listwatch.server.autoStart: starts with the settings' port and profile and the default seed (the
 * entry read and checked the settings, and loads this only when autoStart is on).
 */
export async function autoStartServer(
  deps: ServerCommandDeps,
  settings: ServerSettings,
): Promise<void> {
  deps.log.info(`${autoStartSettingId}: starting the local API server`);
  await startWith(deps, {
    port: settings.port,
    profile: settings.profile,
    seed: parseSeedCounts(defaultSeedText),
    crdFiles: [],
    etcdChoice: settings.etcd,
    faultsFile: settings.faults,
  });
}

/** A path from the settings: relative ones are the first workspace folder's. */
function workspacePath(file: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return folder === undefined ? file : path.resolve(folder, file);
}
