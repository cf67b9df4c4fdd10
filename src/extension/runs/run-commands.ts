// The commands around runs: "Run Scenario…", "Cancel Run", "Open Inspector", "Open Trace…", "Export Trace…",
// "Export Metrics", and the side views' item actions (open, delete, run with defaults or with
// parameters, show a watcher). Arguments let tests and other extensions skip the dialogues.
// No upstream counterpart.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { confirmDeleteRun, type Confirmations } from '../shared/confirmations';
import type { CurrentRun } from './current-run';
import type { ExtensionLog } from '../shared/output-log';
import type { InspectorPanel } from '../panel/inspector-panel';
import { listScenarios } from './run-engine';
import type { RunStore, StoredRun } from './run-store';
import type { RunsViewNode } from './runs-view';
import { askScenarioChoice } from './scenario-input';
import type { ScenariosViewNode } from './scenarios-view';
import type { WorkspaceRuns } from './workspace-runs';
import { visibleText } from '../../format/visible-text';
import { runCommandIds } from '../ids';
import type { CommandHandlers } from '../lazy-feature';

export interface RunCommandDeps {
  runs: WorkspaceRuns;
  store: RunStore;
  current: CurrentRun;
  inspector: InspectorPanel;
  log: ExtensionLog;
  confirmations: Confirmations;
}

/** A file argument: a Uri, a path, or nothing (then a dialog asks). */
function fileArgument(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg !== '') return vscode.Uri.file(arg);
  return undefined;
}

/** The run a command is about: a Runs view node, a run id, or the open run. */
function targetRun(deps: RunCommandDeps, arg: unknown): StoredRun | undefined {
  if (typeof arg === 'string') return deps.store.get(arg);
  if (arg && typeof arg === 'object' && (arg as RunsViewNode).kind === 'run')
    return deps.store.get((arg as RunsViewNode).run.id) ?? (arg as RunsViewNode).run;
  return deps.current.get()?.run;
}

/** An error's message with control characters shown, never echoed (it may quote a rejected line). */
function errorText(error: unknown): string {
  return visibleText(error instanceof Error ? error.message : String(error));
}

/**
 * Shows a command's failure as a message naming what failed (and logs it); never lets it escape as
 * an unhandled rejection.
 */
async function reporting<T>(
  deps: RunCommandDeps,
  what: string,
  work: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    deps.log.error(`${what}: ${errorText(error)}`);
    void vscode.window.showErrorMessage(`List/Watch: ${what}: ${errorText(error)}`);
    return undefined;
  }
}

async function writeFile(target: vscode.Uri, text: string): Promise<void> {
  if (target.scheme === 'file') await fs.promises.writeFile(target.fsPath, text, 'utf8');
  else await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
}

async function copyFile(source: string, target: vscode.Uri): Promise<void> {
  if (target.scheme === 'file') await fs.promises.copyFile(source, target.fsPath);
  else await vscode.workspace.fs.copy(vscode.Uri.file(source), target, { overwrite: true });
}

function defaultFolder(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

function runFileStem(run: StoredRun): string {
  return run.source === 'trace'
    ? path.basename(run.traceFile).replace(/\.[^.]*$/, '')
    : `${run.scenario}-seed${run.seed}`;
}

export async function runScenarioCommand(
  deps: RunCommandDeps,
  arg?: unknown,
  set?: unknown,
  options?: unknown,
): Promise<StoredRun | undefined> {
  const scenarios = listScenarios();
  let choice:
    | {
        name: string;
        set: Record<string, string | number | boolean>;
        seed?: number;
        confirmed?: boolean;
      }
    | undefined;
  if (typeof arg === 'string') {
    // Called with arguments: no dialogue.
    const params =
      set && typeof set === 'object' ? (set as Record<string, string | number | boolean>) : {};
    const seed =
      options &&
      typeof options === 'object' &&
      typeof (options as { seed?: unknown }).seed === 'number'
        ? (options as { seed: number }).seed
        : undefined;
    // A caller that has shown the estimate itself (or a test) skips the big-run question.
    const confirmed = (options as { confirmed?: unknown } | undefined)?.confirmed === true;
    choice = { name: arg, set: params, seed, confirmed };
  } else {
    const node = arg as ScenariosViewNode | undefined;
    choice = await askScenarioChoice(scenarios, node?.scenario);
  }
  if (!choice) return undefined;
  const picked = choice;
  const run = await reporting(deps, `running scenario ${picked.name}`, () =>
    deps.runs.runScenario(picked.name, picked.set, picked.seed, { confirmed: picked.confirmed }),
  );
  if (run) deps.inspector.show(true);
  return run;
}

async function runFromView(
  deps: RunCommandDeps,
  node: unknown,
  how: 'defaults' | 'parameters',
): Promise<StoredRun | undefined> {
  const scenario = (node as ScenariosViewNode | undefined)?.scenario;
  const choice = await askScenarioChoice(listScenarios(), scenario, how);
  if (!choice) return undefined;
  const run = await reporting(deps, `running scenario ${choice.name}`, () =>
    deps.runs.runScenario(choice.name, choice.set, choice.seed),
  );
  if (run) deps.inspector.show(true);
  return run;
}

export async function openInspectorCommand(deps: RunCommandDeps): Promise<void> {
  // Nothing open yet but runs exist: show the latest rather than an empty panel.
  const latest = deps.store.list()[0];
  deps.inspector.show();
  if (!deps.current.get() && latest)
    await reporting(deps, `opening run ${latest.title}`, () => deps.runs.open(latest.id));
}

export async function openTraceCommand(
  deps: RunCommandDeps,
  arg?: unknown,
): Promise<StoredRun | undefined> {
  let file = fileArgument(arg);
  if (!file) {
    const picked = await vscode.window.showOpenDialog({
      title: 'List/Watch: Open Trace',
      canSelectMany: false,
      defaultUri: defaultFolder(),
      filters: { 'List/Watch traces': ['jsonl', 'ndjson', 'trace', 'json'], 'All files': ['*'] },
      openLabel: 'Open Trace',
    });
    file = picked?.[0];
  }
  if (!file) return undefined;
  const target = file;
  if (target.scheme !== 'file') {
    void vscode.window.showErrorMessage(
      `List/Watch: cannot open trace ${target.toString()}: only files on the extension host's disk can be read as a stream`,
    );
    return undefined;
  }
  const run = await reporting(deps, `cannot open trace ${target.fsPath}`, () =>
    deps.runs.openTrace(target.fsPath),
  );
  if (run) deps.inspector.show(true);
  return run;
}

export async function exportTraceCommand(
  deps: RunCommandDeps,
  arg?: unknown,
  destination?: unknown,
): Promise<string | undefined> {
  const run = targetRun(deps, arg);
  if (!run) {
    void vscode.window.showInformationMessage(
      'List/Watch: no run to export. Run a scenario or open a trace first.',
    );
    return undefined;
  }
  let target = fileArgument(destination);
  if (!target) {
    const folder = defaultFolder();
    target = await vscode.window.showSaveDialog({
      title: `List/Watch: Export Trace of ${run.title}`,
      defaultUri: folder ? vscode.Uri.joinPath(folder, `${runFileStem(run)}.jsonl`) : undefined,
      filters: { 'List/Watch traces': ['jsonl'] },
      saveLabel: 'Export Trace',
    });
  }
  if (!target) return undefined;
  const to = target;
  const done = await reporting(
    deps,
    `exporting the trace of ${run.title} to ${to.fsPath}`,
    async () => {
      await fs.promises.access(run.traceFile, fs.constants.R_OK);
      await copyFile(run.traceFile, to);
      return to.fsPath;
    },
  );
  if (done) {
    deps.log.info(`trace of ${run.title} exported to ${done}`);
    vscode.window.setStatusBarMessage(`List/Watch: trace exported to ${done}`, 5000);
  }
  return done;
}

export async function exportMetricsCommand(
  deps: RunCommandDeps,
  destination?: unknown,
): Promise<string | undefined> {
  const open = deps.current.get();
  if (!open) {
    void vscode.window.showInformationMessage(
      'List/Watch: no run is open. Run a scenario or open a trace first.',
    );
    return undefined;
  }
  let target = fileArgument(destination);
  if (!target) {
    const folder = defaultFolder();
    target = await vscode.window.showSaveDialog({
      title: `List/Watch: Export Metrics of ${open.run.title} (Prometheus text)`,
      defaultUri: folder
        ? vscode.Uri.joinPath(folder, `${runFileStem(open.run)}-metrics.prom`)
        : undefined,
      filters: { 'Prometheus text': ['prom', 'txt'] },
      saveLabel: 'Export Metrics',
    });
  }
  if (!target) return undefined;
  const to = target;
  const done = await reporting(deps, `exporting metrics to ${to.fsPath}`, async () => {
    await writeFile(to, open.model.metricsText);
    return to.fsPath;
  });
  if (done) {
    deps.log.info(`metrics of ${open.run.title} exported to ${done}`);
    vscode.window.setStatusBarMessage(`List/Watch: metrics exported to ${done}`, 5000);
  }
  return done;
}

/** The run commands' handlers by id (the entry registers the ids, every call logged). */
export function runCommands(deps: RunCommandDeps): CommandHandlers {
  const ids = runCommandIds;
  return {
    [ids.runScenario]: (arg?: unknown, set?: unknown, options?: unknown) =>
      runScenarioCommand(deps, arg, set, options),
    [ids.runScenarioWithDefaults]: (node?: unknown) => runFromView(deps, node, 'defaults'),
    [ids.runScenarioWithParameters]: (node?: unknown) => runFromView(deps, node, 'parameters'),
    [ids.cancelRun]: () => {
      const cancelled = deps.runs.cancelRun();
      if (!cancelled)
        void vscode.window.showInformationMessage('List/Watch: no scenario run is in progress.');
      return cancelled;
    },
    [ids.openInspector]: () => openInspectorCommand(deps),
    [ids.openTrace]: (file?: unknown) => openTraceCommand(deps, file),
    [ids.exportTrace]: (run?: unknown, destination?: unknown) =>
      exportTraceCommand(deps, run, destination),
    [ids.exportMetrics]: (destination?: unknown) => exportMetricsCommand(deps, destination),
    [ids.openRun]: async (arg?: unknown) => {
      const run = targetRun(deps, arg);
      if (!run) return undefined;
      const opened = await reporting(deps, `opening run ${run.title}`, () =>
        deps.runs.open(run.id),
      );
      if (opened) deps.inspector.show(true);
      return opened;
    },
    [ids.deleteRun]: async (arg?: unknown) => {
      const run = targetRun(deps, arg);
      if (!run) return undefined;
      // A run id comes from a caller that chose it (tests, other extensions); a click asks first.
      if (typeof arg !== 'string' && !(await confirmDeleteRun(deps.confirmations, run))) {
        deps.log.info(`delete run ${run.title}: not confirmed, kept`);
        return undefined;
      }
      const removed = await reporting(deps, `deleting run ${run.title}`, () =>
        deps.runs.delete(run.id),
      );
      if (removed)
        vscode.window.setStatusBarMessage(`List/Watch: deleted run ${removed.title}`, 4000);
      return removed;
    },
    [ids.selectWatcher]: async (id?: unknown) => {
      if (typeof id !== 'string') return;
      deps.inspector.show(true);
      await deps.inspector.whenReady();
      deps.inspector.post({ type: 'watcher/select', id });
    },
  };
}
