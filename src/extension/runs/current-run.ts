// The run the inspector shows now, and the panel's view state (scrubber time, selection) as the
// webview last reported it: the Watchers view and the export commands read both from here.
// No upstream counterpart.
import * as vscode from 'vscode';
import { defaultViewState, type InspectorViewState } from '../../protocol';
import type { RunModel } from '../../run/run-model';
import type { StoredRun } from './run-store';

export interface OpenRun {
  run: StoredRun;
  model: RunModel;
}

export class CurrentRun implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<OpenRun | undefined>();
  /** A different run is open (or none). */
  readonly onDidChange = this.changed.event;
  private readonly updated = new vscode.EventEmitter<OpenRun>();
  /** The open run's model grew (a live run's batch); the run itself is the same. */
  readonly onDidUpdate = this.updated.event;
  private readonly ticked = new vscode.EventEmitter<{ runId: string; at: number }>();
  /** The open live run's now moved on with nothing new (its end is `at`, ms since its start). */
  readonly onDidTick = this.ticked.event;
  private readonly viewStateChanged = new vscode.EventEmitter<InspectorViewState>();
  /** The panel reported a new view state (time moved, a watcher was selected…). */
  readonly onDidChangeViewState = this.viewStateChanged.event;
  private open: OpenRun | undefined;
  private state: InspectorViewState = defaultViewState;

  get(): OpenRun | undefined {
    return this.open;
  }

  set(open: OpenRun | undefined): void {
    this.open = open;
    this.changed.fire(open);
  }

  /** The open run (a live one) grew: its model so far replaces the one open, nothing else changes. */
  update(runId: string, model: RunModel): void {
    if (this.open?.run.id !== runId) return;
    this.open = { run: this.open.run, model };
    this.updated.fire(this.open);
  }

  /** The open run (a live one) is at `at` now; its model holds until then. */
  tick(runId: string, at: number): void {
    if (this.open?.run.id === runId) this.ticked.fire({ runId, at });
  }

  viewState(): InspectorViewState {
    return this.state;
  }

  setViewState(state: InspectorViewState): void {
    this.state = state;
    this.viewStateChanged.fire(state);
  }

  dispose(): void {
    this.changed.dispose();
    this.updated.dispose();
    this.ticked.dispose();
    this.viewStateChanged.dispose();
  }
}
