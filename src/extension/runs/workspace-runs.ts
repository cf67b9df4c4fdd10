// Making, opening and deleting the runs of this workspace: a scenario run streamed to a trace in
// storage, a trace file read back, a past run re-opened from its trace. Each becomes the current
// run the inspector and the Watchers view show. No upstream counterpart.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { formatVirtualTime } from '../../run/views/watcher-states';
import type { RunModel } from '../../run/run-model';
import type { TraceReadStats } from '../../run/trace/trace-reader';
import { withCancellableProgress, type ProgressReporter } from '../shared/cancellable-progress';
import type { CurrentRun } from './current-run';
import type { ExtensionLog } from '../shared/output-log';
import type { InspectorPanel } from '../panel/inspector-panel';
import { estimateRun, truncationOf } from '../../scenarios/runner';
import { wallText, type RunEstimate } from '../../scenarios/run-estimate';
import { formatBytesRoughly } from '../../format/byte-size-text';
import { etaText } from '../../scenarios/run-eta';
import { listScenarios, readTraceFile } from './run-engine';
import { runScenarioInWorker } from './run-in-worker';
import { confirmRun, readRunGuard } from './run-guard';
import type { RunStore, StoredRun } from './run-store';
import { runGuardSettingIds } from '../ids';
import { formatCount, plural } from '../../format/count-text';

/** The scenario run in progress, as the Cancel Run command and the tests see it. */
export interface RunInProgress {
  title: string;
  estimate: RunEstimate;
  fraction: number;
  message: string;
}

/** How a trace's rejected lines are told: the count, then the first reasons (each names its line). */
export function rejectedLinesMessage(file: string, rejected: number, samples: string[]): string {
  const first = samples.slice(0, 3).join('; ');
  return `${path.basename(file)}: ${plural(rejected, 'trace line')} rejected (${first}${samples.length > 3 || rejected > 3 ? '; …' : ''})`;
}

/**
 * What the user is told when a trace opens with problems: that it looks truncated and where
 * (what was read before that point is shown), and its rejected lines; undefined when it has none.
 */
export function traceProblemsMessage(file: string, stats: TraceReadStats): string | undefined {
  const rejected =
    stats.rejected > 0
      ? rejectedLinesMessage(file, stats.rejected, stats.rejectedSamples)
      : undefined;
  if (stats.truncated) {
    const read = formatCount(stats.linesRead);
    return `${path.basename(file)} looks truncated: ${stats.truncated}. The inspector shows what was read (${read} lines).${rejected ? ` ${rejected}` : ''}`;
  }
  return rejected && `opened with problems: ${rejected}`;
}

function sizeOf(file: string): string {
  try {
    return formatBytesRoughly(fs.statSync(file).size);
  } catch {
    return 'size unknown';
  }
}

function modelSize(model: RunModel): string {
  return `${plural(model.watchers.length, 'watcher')}, ${plural(model.lists.length, 'list')}, ${formatVirtualTime(model.durationMs)} of virtual time`;
}

// Traces smaller than this read in well under a second: their progress shows in the status bar.
const quickTraceBytes = 4 * 1024 * 1024;

async function isQuickToRead(file: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(file)).size < quickTraceBytes;
  } catch {
    return true; // the read itself reports what is wrong with the file
  }
}

function paramsSummary(
  params: Record<string, number | string | boolean>,
  defaults: Record<string, number | string | boolean>,
): string {
  return Object.entries(params)
    .filter(([k, v]) => defaults[k] !== v)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
}

export function describeRun(
  base: Omit<
    StoredRun,
    | 'durationMs'
    | 'watchers'
    | 'lists'
    | 'rejected'
    | 'profile'
    | 'seed'
    | 'params'
    | 'scenario'
    | 'truncated'
  >,
  model: RunModel,
): StoredRun {
  const truncated = truncationOf(model);
  return {
    ...(truncated !== undefined ? { truncated } : {}),
    ...base,
    scenario: model.header.scenario,
    profile: model.header.profile,
    seed: model.header.seed,
    params: model.header.params,
    durationMs: model.durationMs,
    watchers: model.watchers.length,
    lists: model.lists.length,
    rejected: model.rejected.count,
  };
}

export class WorkspaceRuns implements vscode.Disposable {
  private readonly store: RunStore;
  private readonly current: CurrentRun;
  private readonly inspector: InspectorPanel;
  private readonly log: ExtensionLog;
  private active: { progress: RunInProgress; controller: AbortController } | undefined;
  private readonly activeChanged = new vscode.EventEmitter<boolean>();
  /** A scenario run started (true) or ended (false). */
  readonly onDidChangeRunInProgress = this.activeChanged.event;

  /** The bundled worker scenario runs run on (dist/run-worker.js). */
  private readonly workerScript: string;

  constructor(
    store: RunStore,
    current: CurrentRun,
    inspector: InspectorPanel,
    log: ExtensionLog,
    workerScript: string,
  ) {
    this.store = store;
    this.current = current;
    this.inspector = inspector;
    this.log = log;
    this.workerScript = workerScript;
  }

  /** Warns (and logs) when a trace just read looks truncated or had lines rejected. */
  private reportProblems(file: string, stats: TraceReadStats): void {
    const problems = traceProblemsMessage(file, stats);
    if (!problems) return;
    this.log.warn(`trace ${file}: ${problems}`);
    void vscode.window.showWarningMessage(`List/Watch: ${problems}`);
  }

  /** Progress shown in the inspector too, when it is open. */
  private mirror(): ProgressReporter & { done(): void } {
    const report = ((fraction: number, message: string) =>
      this.inspector.post({
        type: 'run/progress',
        fraction,
        message,
        done: false,
      })) as ProgressReporter & { done(): void };
    report.done = () =>
      this.inspector.post({ type: 'run/progress', fraction: 1, message: '', done: true });
    return report;
  }

  /** The scenario run in progress, if any. */
  runInProgress(): RunInProgress | undefined {
    return this.active && { ...this.active.progress };
  }

  /** Cancels the scenario run in progress, as its notification's Cancel does; false when none. */
  cancelRun(): boolean {
    if (!this.active) return false;
    this.active.controller.abort();
    return true;
  }

  /**
   * Runs a scenario (parameters already checked by the caller or checked by the runner), stores
   * its trace and makes it the current run. A run whose estimate passes the
   * listwatch.run.confirmAbove… limits asks first, unless `confirmed`. Undefined when declined or
   * cancelled. One run at a time: the engine runs on the extension host's one thread.
   */
  async runScenario(
    name: string,
    set: Record<string, string | number | boolean>,
    seed?: number,
    options: { confirmed?: boolean } = {},
  ): Promise<StoredRun | undefined> {
    if (this.active)
      throw new Error(
        `${this.active.progress.title} is still running: wait for it, or cancel it (List/Watch: Cancel Run)`,
      );
    const definition = listScenarios().find((s) => s.name === name);
    const title = definition?.title ?? name;
    const estimate = estimateRun(name, set);
    const guard = readRunGuard();
    if (!options.confirmed && !(await confirmRun(title, estimate, guard))) return undefined;
    const { id, traceFile } = await this.store.allocate();
    const controller = new AbortController();
    const progress: RunInProgress = { title, estimate, fraction: 0, message: '' };
    this.active = { progress, controller };
    this.activeChanged.fire(true);
    const asked = `${name}${Object.entries(set)
      .map(([k, v]) => ` ${k}=${String(v)}`)
      .join('')}${seed === undefined ? '' : ` seed=${seed}`}`;
    this.log.info(`run started: ${asked}, trace ${traceFile}`);
    const started = Date.now();
    let result: Awaited<ReturnType<typeof runScenarioInWorker>> | undefined;
    try {
      result = await withCancellableProgress(
        `List/Watch: running ${title} (about ${wallText(estimate.wallMs)}, ${formatCount(estimate.etcdWrites)} etcd writes)`,
        (signal, report) =>
          runScenarioInWorker(
            this.workerScript,
            { name, set, seed, traceFile, maxTraceBytes: guard.maxTraceBytes },
            {
              signal,
              onProgress: (fraction, message) => {
                progress.fraction = fraction;
                progress.message = message;
                report(
                  fraction,
                  `${message} · ${etaText(fraction, Date.now() - started, estimate)}`,
                );
              },
            },
          ),
        this.mirror(),
        { signal: controller.signal },
      );
    } catch (error: unknown) {
      this.log.error(
        `run failed: ${asked} after ${Date.now() - started} ms: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw error;
    } finally {
      this.active = undefined;
      this.activeChanged.fire(false);
    }
    if (!result) {
      this.log.info(`run cancelled: ${asked} after ${Date.now() - started} ms (trace removed)`);
      void vscode.window.showInformationMessage(`List/Watch: the run of ${title} was cancelled.`);
      return undefined;
    }
    this.log.info(
      `run finished: ${asked} in ${Date.now() - started} ms: ${modelSize(result.model)}; trace ${formatCount(result.traceLines)} lines, ${sizeOf(traceFile)}`,
    );
    const defaults = Object.fromEntries((definition?.params ?? []).map((p) => [p.name, p.default]));
    const changed = paramsSummary(result.model.header.params, defaults);
    const run = describeRun(
      {
        id,
        title: `${title}${changed ? ` (${changed})` : ''}`,
        label: `${definition?.label ?? name}${changed ? ` (${changed})` : ''}`,
        source: 'scenario',
        createdAt: new Date().toISOString(),
        traceFile,
        ownsTrace: true,
      },
      result.model,
    );
    await this.store.add(run, result.model);
    this.current.set({ run, model: result.model });
    if (result.truncated) {
      const open = 'Open Settings';
      void vscode.window
        .showWarningMessage(
          `List/Watch: ${title}: ${result.truncated.message}. The run is kept, marked truncated; raise ${runGuardSettingIds.maxTraceMiB} (now ${formatBytesRoughly(result.truncated.capBytes)}; 0: no cap) to record all of it.`,
          open,
        )
        .then((answer) => {
          if (answer === open)
            void vscode.commands.executeCommand(
              'workbench.action.openSettings',
              runGuardSettingIds.maxTraceMiB,
            );
        });
    }
    return run;
  }

  /** Reads a trace file and makes it the current run. Undefined when cancelled. */
  async openTrace(file: string): Promise<StoredRun | undefined> {
    const loaded = await withCancellableProgress(
      `List/Watch: reading ${path.basename(file)}`,
      (signal, report) => readTraceFile(file, { signal, onProgress: report }),
      this.mirror(),
      { quick: await isQuickToRead(file) },
    );
    if (!loaded) return undefined;
    const { id } = await this.store.allocate();
    const run = describeRun(
      {
        id,
        title: path.basename(file),
        source: 'trace',
        createdAt: new Date().toISOString(),
        traceFile: file,
        ownsTrace: false,
      },
      loaded.model,
    );
    await this.store.add(run, loaded.model);
    this.current.set({ run, model: loaded.model });
    this.log.info(
      `trace opened: ${file}: ${formatCount(loaded.stats.linesRead)} lines, ${sizeOf(file)}; ${modelSize(loaded.model)}`,
    );
    this.reportProblems(file, loaded.stats);
    return run;
  }

  /** Makes a stored run current (re-reading its trace unless its model is still in memory). */
  async open(id: string): Promise<StoredRun | undefined> {
    const run = this.store.get(id);
    if (!run)
      throw new Error(`There is no run ${id} in this workspace (it may have been deleted).`);
    if (this.current.get()?.run.id === id) return run;
    let model = this.store.cachedModel(id);
    if (!model) {
      const loaded = await withCancellableProgress(
        `List/Watch: opening ${run.title}`,
        (signal, report) => readTraceFile(run.traceFile, { signal, onProgress: report }),
        this.mirror(),
        { quick: await isQuickToRead(run.traceFile) },
      );
      if (!loaded) return undefined;
      model = loaded.model;
      this.store.remember(id, model);
      this.log.info(`run re-read: ${run.title} from ${run.traceFile}`);
      this.reportProblems(run.traceFile, loaded.stats);
    }
    this.current.set({ run, model });
    this.log.info(`run opened: ${run.title}`);
    return run;
  }

  dispose(): void {
    this.active?.controller.abort();
    this.activeChanged.dispose();
  }

  async delete(id: string): Promise<StoredRun | undefined> {
    const removed = await this.store.remove(id);
    if (removed && this.current.get()?.run.id === id) this.current.set(undefined);
    if (removed)
      this.log.info(
        `run deleted: ${removed.title}${removed.ownsTrace ? `, its trace ${removed.traceFile} removed` : ''}`,
      );
    return removed;
  }
}
