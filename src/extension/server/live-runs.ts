// The extension's live runs: while a local API server runs (live-server.ts's LocalApiServer, read
// through LocalServerSource), its requests and engine events are recorded (live-recorder.ts) and
// folded into a growing run (src/run/live-run.ts). "Open Live Run in Inspector" shows it, each
// batch updates the open panel, "Save Run as Trace…" writes it as a trace file that "Open Trace…"
// reads back to the same views. The Runs view lists these runs beside the stored ones. A stopped
// server's run stays (for saving) until the next one starts or the source is detached. No
// upstream counterpart.
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { LiveRun } from '../../run/live-run';
import type { RunModel } from '../../run/run-model';
import type { LiveRecorder, RecordedServer } from '../../server/live-recorder';
import type { CurrentRun } from '../runs/current-run';
import type { ExtensionLog } from '../shared/output-log';
import type { StoredRun } from '../runs/run-store';

/**
 * What a live run needs of the extension's local server (LocalApiServer): the ApiServer while one
 * runs, and an event when it starts or stops.
 */
export interface LocalServerSource {
  readonly server: RecordedServer | undefined;
  readonly onDidChange: vscode.Event<unknown>;
}

/**
 * Starts recording a server: the server chunk's LiveRecorder and LiveRun (server-feature.ts), or
 * undefined while that chunk is not loaded (no local server has run: nothing to record).
 */
export type RecordLive = (server: RecordedServer) => { recorder: LiveRecorder; live: LiveRun };

/** What the live runs show themselves in. */
export interface LiveRunPanel {
  show(preserveFocus?: boolean): void;
}

interface LiveEntry {
  run: StoredRun;
  server: RecordedServer;
  recorder: LiveRecorder;
  live: LiveRun;
  /** Date.now() when its server stopped (undefined while it runs). */
  stoppedAt?: number;
}

// The panel hears the time now this often while a run is live: its timeline ends at now.
const nowTickMs = 1000;

export class LiveRuns implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** A live run started or stopped (the Runs view reads its moving figures on its own tick). */
  readonly onDidChange = this.changed.event;
  private entry: LiveEntry | undefined;
  private nowTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly current: CurrentRun,
    private readonly panel: LiveRunPanel,
    private readonly log: ExtensionLog,
    private readonly recordLive: () => RecordLive | undefined,
  ) {}

  /**
   * Records the source's server while it runs (a new run each time one starts). Each source stops
   * and removes only its own server's run.
   */
  attach(source: LocalServerSource): vscode.Disposable {
    let mine: RecordedServer | undefined;
    const follow = () => {
      const server = source.server;
      if (server === mine) return;
      if (mine !== undefined && this.entry?.server === mine) this.stop();
      mine = server;
      if (server) {
        this.stop();
        this.start(server);
      }
    };
    follow();
    const sub = source.onDidChange(follow);
    // Detached (the extension stops, or a test is done with its server): its run goes too.
    return {
      dispose: () => {
        sub.dispose();
        if (mine === undefined || this.entry?.server !== mine) return;
        this.stop();
        this.entry = undefined;
        this.changed.fire();
      },
    };
  }

  /** The live runs (the running one, or the last stopped one). */
  list(): StoredRun[] {
    return this.entry ? [this.entry.run] : [];
  }

  get(id: string): StoredRun | undefined {
    return this.entry?.run.id === id ? this.entry.run : undefined;
  }

  /** The run's model so far. */
  model(id: string): RunModel | undefined {
    return this.entry?.run.id === id ? this.entry.live.model() : undefined;
  }

  isRunning(id: string): boolean {
    return this.entry?.run.id === id && this.entry.stoppedAt === undefined;
  }

  /** Opens the live run in the inspector (the newest when no id is given). */
  open(id?: string): StoredRun | undefined {
    const e = this.entry;
    if (!e || (id !== undefined && e.run.id !== id)) return undefined;
    const model = e.live.flush();
    if (this.current.get()?.run.id !== e.run.id) this.current.set({ run: e.run, model });
    this.panel.show(true);
    this.log.info(`live run opened: ${e.run.title}`);
    return e.run;
  }

  /** Writes the run as a trace (the real requests as inputs) to `file`. */
  async save(id: string, file: string): Promise<{ lines: number; dropped: number }> {
    const e = this.entry;
    if (!e || e.run.id !== id) throw new Error(`There is no live run ${id} any more.`);
    const lines = e.live.save();
    await fs.promises.writeFile(file, lines.join('\n') + '\n', 'utf8');
    this.current.update(e.run.id, e.live.model());
    const dropped = e.recorder.droppedRecords;
    this.log.info(
      `live run ${e.run.title} saved to ${file}: ${lines.length} lines${dropped ? `, ${dropped} records dropped by the recorder's bound` : ''}`,
    );
    return { lines: lines.length, dropped };
  }

  dispose(): void {
    this.stop();
    this.changed.dispose();
  }

  private start(server: RecordedServer): void {
    const record = this.recordLive();
    if (!record) throw new Error('the server chunk records live runs; it is not loaded');
    const { recorder, live } = record(server);
    const startedAt = server.startedAt;
    const run: StoredRun = {
      id: `live-${startedAt}`,
      title: `Live run of ${server.httpsUrl}`,
      label: `Live: ${server.url.replace(/^https?:\/\//, '')}`,
      source: 'live',
      scenario: recorder.header.scenario,
      profile: recorder.header.profile,
      seed: 0,
      params: recorder.header.params,
      createdAt: new Date(startedAt).toISOString(),
      durationMs: 0,
      watchers: 0,
      lists: 0,
      rejected: 0,
      traceFile: '',
      ownsTrace: false,
    };
    const entry: LiveEntry = { run, server, recorder, live };
    this.entry = entry;
    live.onUpdate((model) => {
      entry.run = {
        ...entry.run,
        durationMs: model.durationMs,
        watchers: model.watchers.length,
        lists: model.lists.length,
      };
      this.current.update(entry.run.id, model);
    });
    live.onNow((at) => this.current.tick(entry.run.id, at));
    // The panel's now moves on even when nothing happens.
    this.nowTimer = setInterval(() => live.tick(), nowTickMs);
    this.log.info(`live run started: ${run.title}`);
    this.changed.fire();
  }

  /** Ends the running one's recording (its run stays, to be opened or saved). */
  private stop(): void {
    const e = this.entry;
    if (!e || e.stoppedAt !== undefined) return;
    if (this.nowTimer) clearInterval(this.nowTimer);
    this.nowTimer = undefined;
    // The recording's clock stops first: the last batch makes the run end at its stop time.
    e.recorder.dispose();
    e.live.end();
    e.stoppedAt = Date.now();
    this.log.info(`live run stopped: ${e.run.title}`);
    this.changed.fire();
  }

  /** How long the run has been (or was) live, for the Runs view. */
  uptimeMs(id: string, now = Date.now()): number {
    const e = this.entry;
    if (!e || e.run.id !== id) return 0;
    return (e.stoppedAt ?? now) - e.server.startedAt;
  }
}

/** "List/Watch: Open Live Run in Inspector". */
export function openLiveRunCommand(runs: LiveRuns, arg?: unknown): StoredRun | undefined {
  const id = runIdOf(arg);
  const opened = runs.open(id);
  if (!opened)
    void vscode.window.showInformationMessage(
      'List/Watch: no local API server is running. Start one with "List/Watch: Start Local API Server…", then open its live run.',
    );
  return opened;
}

/**
 * "List/Watch: Save Run as Trace…": the live run open in the inspector (or the newest one) to a
 * file the user picks (or `destination`); any other open run is exported as its trace.
 */
export async function saveRunAsTraceCommand(
  runs: LiveRuns,
  current: CurrentRun,
  exportTrace: (destination?: unknown) => Promise<string | undefined>,
  arg?: unknown,
  destination?: unknown,
): Promise<string | undefined> {
  const open = current.get()?.run;
  const id = runIdOf(arg) ?? (open?.source === 'live' ? open.id : runs.list()[0]?.id);
  const run = id === undefined ? undefined : runs.get(id);
  if (!run) {
    if (open) return exportTrace(destination);
    void vscode.window.showInformationMessage(
      'List/Watch: no run to save. Open a live run (or any run) in the inspector first.',
    );
    return undefined;
  }
  let target =
    typeof destination === 'string'
      ? vscode.Uri.file(destination)
      : destination instanceof vscode.Uri
        ? destination
        : undefined;
  if (!target) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const stem = `live-${run.createdAt.replace(/[-:]/g, '').replace(/\..*$/, '')}`;
    target = await vscode.window.showSaveDialog({
      title: `List/Watch: Save ${run.title} as Trace`,
      defaultUri: folder ? vscode.Uri.joinPath(folder, `${stem}.jsonl`) : undefined,
      filters: { 'List/Watch traces': ['jsonl'] },
      saveLabel: 'Save Trace',
    });
  }
  if (!target) return undefined;
  const { lines, dropped } = await runs.save(run.id, target.fsPath);
  vscode.window.setStatusBarMessage(
    `List/Watch: live run saved to ${target.fsPath} (${lines} lines${dropped ? `, ${dropped} records not kept` : ''})`,
    5000,
  );
  return target.fsPath;
}

/** A run id from a command argument: the id itself, or a Runs view node. */
function runIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && 'run' in arg) {
    const run = (arg as { run?: { id?: unknown } }).run;
    if (typeof run?.id === 'string') return run.id;
  }
  return undefined;
}
