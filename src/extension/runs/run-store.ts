// The runs of this workspace: an index in workspaceState, trace files (JSON lines) in the
// extension's workspace storage folder, and the few most recently used models kept in memory.
// No upstream counterpart.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { RunModel } from '../../run/run-model';
import { runIndexStateKey } from '../ids';

/** One run as the Runs view lists it; plain data (kept in workspaceState). */
export interface StoredRun {
  id: string;
  title: string;
  /** A short title that fits the side bar (absent for traces and runs stored before it: the title). */
  label?: string;
  /**
   * 'scenario': run here, its trace written to our storage; 'trace': read from a user's file;
   * 'live': a running local API server's (live-runs.ts; never in the store's index); 'import':
   * logs replayed through the engine (import-logs-command.ts), its trace written to our storage.
   */
  source: 'scenario' | 'trace' | 'live' | 'import';
  scenario: string;
  profile: string;
  seed: number;
  params: Record<string, number | string | boolean>;
  /** ISO time the run was made or opened. */
  createdAt: string;
  durationMs: number;
  watchers: number;
  lists: number;
  rejected: number;
  /** Absolute path of the trace. */
  traceFile: string;
  /** Whether the trace is ours (in storage, deleted with the run) or the user's file (left alone). */
  ownsTrace: boolean;
  /** Set when the run stopped at its trace cap: the trace's `truncated` phase text. */
  truncated?: string;
}

const indexKey = runIndexStateKey;
// Newest first; older entries (and their own trace files) are dropped beyond this.
const maxRuns = 50;
// Models kept in memory so re-opening a recent run does not re-read its trace.
const cachedModels = 3;

export class RunStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly memento: vscode.Memento;
  private readonly storageDir: string;
  private readonly models = new Map<string, RunModel>();

  /** `storage`: the extension's storage folder (workspace storage, or global storage without a workspace). */
  constructor(memento: vscode.Memento, storage: vscode.Uri) {
    this.memento = memento;
    this.storageDir = path.join(storage.fsPath, 'runs');
  }

  list(): StoredRun[] {
    const runs = this.memento.get<unknown>(indexKey);
    return Array.isArray(runs)
      ? runs.filter(
          (r): r is StoredRun =>
            !!r && typeof r === 'object' && typeof (r as StoredRun).id === 'string',
        )
      : [];
  }

  get(id: string): StoredRun | undefined {
    return this.list().find((r) => r.id === id);
  }

  /** A fresh id and the path its trace should be written to (the folder exists afterwards). */
  async allocate(): Promise<{ id: string; traceFile: string }> {
    await fs.promises.mkdir(this.storageDir, { recursive: true });
    const id = `${new Date()
      .toISOString()
      .replace(/[-:.TZ]/g, '')
      .slice(0, 14)}-${Math.random().toString(36).slice(2, 8)}`;
    return { id, traceFile: path.join(this.storageDir, `${id}.jsonl`) };
  }

  async add(run: StoredRun, model?: RunModel): Promise<void> {
    const runs = [run, ...this.list().filter((r) => r.id !== run.id)];
    const dropped = runs.splice(maxRuns);
    await this.memento.update(indexKey, runs);
    for (const old of dropped) await this.removeFiles(old);
    if (model) this.remember(run.id, model);
    this.changed.fire();
  }

  async remove(id: string): Promise<StoredRun | undefined> {
    const run = this.get(id);
    if (!run) return undefined;
    await this.memento.update(
      indexKey,
      this.list().filter((r) => r.id !== id),
    );
    this.models.delete(id);
    await this.removeFiles(run);
    this.changed.fire();
    return run;
  }

  cachedModel(id: string): RunModel | undefined {
    const model = this.models.get(id);
    if (model) this.remember(id, model);
    return model;
  }

  remember(id: string, model: RunModel): void {
    this.models.delete(id);
    this.models.set(id, model);
    while (this.models.size > cachedModels)
      this.models.delete(this.models.keys().next().value as string);
  }

  /** Our own trace files only: a trace the user opened stays where it is. */
  private async removeFiles(run: StoredRun): Promise<void> {
    if (!run.ownsTrace || path.dirname(run.traceFile) !== this.storageDir) return;
    await fs.promises.rm(run.traceFile, { force: true });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
