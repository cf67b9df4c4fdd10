// The "List/Watch Inspector" panel on the host side: owns its WebviewPanel, feeds it the open run
// through the typed protocol (src/protocol.ts), answers its requests, disposes what it registered,
// and is revived after a window reload by the panel serializer with the view state the webview saved.
import * as vscode from 'vscode';
import {
  isFromWebview,
  normalizeViewState,
  protocolVersion,
  unhandledMessage,
  type ContinueTokenExplanation,
  type FromWebview,
  type InspectorView,
  type InspectorViewState,
  type RunIdentity,
  type ToWebview,
} from '../../protocol';
import type { CurrentRun, OpenRun } from '../runs/current-run';
import { inspectorHtml, inspectorWebviewOptions } from './inspector-html';
import { panelModel } from './panel-model';
import { clientRows } from './client-rows';
import { watcherRowsOf, type WatcherRows } from './watcher-rows';
import { inspectorViewType } from '../ids';
import { listTokenRequest } from './list-token-request';
import { readEtcdPrefix } from '../tokens/key-prefix-setting';
import type { RecentToken } from '../tokens/recent-tokens';

const inspectorTitle = 'List/Watch Inspector';

/** What the panel asks of the rest of the extension. */
export interface InspectorHost {
  /** `fromList`: the token's key prefix read from the LIST that returned it; absent: assumed. */
  explainToken(
    token: string,
    fromList?: RecentToken,
  ): ContinueTokenExplanation | Promise<ContinueTokenExplanation>;
  copyMetrics(): Promise<{ ok: boolean; message: string }>;
  runCommand(command: 'runScenario' | 'openTrace' | 'exportMetrics'): void;
  /** After a reload: open the run the webview was showing (it may be gone). */
  reopenRun(runId: string): Promise<void>;
  /** The tab that tells a scenario's story (its definition's storyView), if it names one. */
  storyView(scenario: string): InspectorView | undefined;
  log(message: string): void;
}

/** Kept for the extension-host tests: what crossed the boundary, in order. */
export interface InspectorTraffic {
  posted: ToWebview[];
  received: FromWebview[];
  /** Every problem the webview reported (errors, CSP violations), never cleared. */
  problems: string[];
}

// The traffic log is for tests and diagnosis; older entries are dropped.
const trafficLimit = 500;

function identity(open: OpenRun, storyView: InspectorView | undefined): RunIdentity {
  const id: RunIdentity = { id: open.run.id, title: open.run.title, source: open.run.source };
  if (open.run.source === 'trace') id.file = open.run.traceFile;
  if (storyView) id.storyView = storyView;
  return id;
}

export class InspectorPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private panelDisposables: vscode.Disposable[] = [];
  private ready = false;
  private readonly readyChanged = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[] = [];
  readonly traffic: InspectorTraffic;
  private readonly extensionUri: vscode.Uri;
  private readonly current: CurrentRun;
  private readonly host: InspectorHost;
  /** The view state VS Code handed back on revival, sent once the webview is ready. */
  private restoredState: InspectorViewState | undefined;

  constructor(
    extensionUri: vscode.Uri,
    current: CurrentRun,
    host: InspectorHost,
    /** The traffic log, kept by the entry (the API reads it before this chunk loads). */
    traffic: InspectorTraffic = { posted: [], received: [], problems: [] },
  ) {
    this.traffic = traffic;
    this.extensionUri = extensionUri;
    this.current = current;
    this.host = host;
    this.subscriptions.push(
      current.onDidChange((open) => this.sendRun(open)),
      current.onDidUpdate((open) =>
        this.post({ type: 'run/update', runId: open.run.id, model: panelModel(open.model) }),
      ),
      current.onDidTick(({ runId, at }) => this.post({ type: 'run/now', runId, at })),
    );
  }

  isOpen(): boolean {
    return !!this.panel;
  }

  isReady(): boolean {
    return !!this.panel && this.ready;
  }

  /** Resolves once the webview has said `ready` (immediately if it has), or the panel closed. */
  whenReady(): Promise<void> {
    if (this.isReady()) return Promise.resolve();
    return new Promise((resolve) => {
      const sub = this.readyChanged.event(() => {
        sub.dispose();
        resolve();
      });
    });
  }

  /** Opens the panel, or brings it forward. */
  show(preserveFocus = false): void {
    if (this.panel) {
      this.panel.reveal(undefined, preserveFocus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      inspectorViewType,
      inspectorTitle,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus },
      {
        ...inspectorWebviewOptions(this.extensionUri),
        retainContextWhenHidden: true,
        enableFindWidget: true,
      },
    );
    this.attach(panel);
  }

  /** The serializer's half: a panel from before the reload, with the state its webview saved. */
  revive(panel: vscode.WebviewPanel, state: unknown): void {
    this.panel?.dispose();
    this.restoredState = state ? normalizeViewState(state) : undefined;
    this.attach(panel);
    const runId = this.restoredState?.runId;
    if (runId && this.current.get()?.run.id !== runId) {
      void this.host
        .reopenRun(runId)
        .catch((error) => this.host.log(`reopening run ${runId}: ${String(error)}`));
    }
  }

  /** Posts to the webview once it is ready (messages before that are superseded by `ready`'s answer). */
  post(message: ToWebview): void {
    if (!this.panel || !this.ready) return;
    // A live run posts a model four times a second: the log keeps the newest one only.
    if (message.type === 'run/update' || message.type === 'run/now') {
      const previous = this.traffic.posted.findIndex((m) => m.type === message.type);
      if (previous >= 0) this.traffic.posted.splice(previous, 1);
    }
    this.record(this.traffic.posted, message);
    void this.panel.webview.postMessage(message);
  }

  /** Handles a message as if the webview had posted it (tests use this to drive the host side). */
  receive(raw: unknown): void {
    if (!isFromWebview(raw)) {
      this.host.log(
        `inspector: ignored a message of unknown shape ${JSON.stringify(raw)?.slice(0, 200)}`,
      );
      return;
    }
    this.record(this.traffic.received, raw);
    void this.handle(raw).catch((error) =>
      this.host.log(
        `inspector: handling ${raw.type}: ${error instanceof Error ? error.stack : String(error)}`,
      ),
    );
  }

  private record<T>(log: T[], message: T): void {
    log.push(message);
    if (log.length > trafficLimit) log.splice(0, log.length - trafficLimit);
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.ready = false;
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.extensionUri, 'media', 'activity.svg'),
      dark: vscode.Uri.joinPath(this.extensionUri, 'media', 'activity.svg'),
    };
    panel.webview.options = inspectorWebviewOptions(this.extensionUri);
    panel.webview.html = inspectorHtml(panel.webview, this.extensionUri);
    this.panelDisposables.push(
      panel.webview.onDidReceiveMessage((message) => this.receive(message)),
      panel.onDidDispose(() => this.detach(panel)),
    );
  }

  private detach(panel: vscode.WebviewPanel): void {
    if (this.panel !== panel) return;
    this.panel = undefined;
    this.ready = false;
    for (const d of this.panelDisposables) d.dispose();
    this.panelDisposables = [];
    this.readyChanged.fire();
  }

  private sendRun(open: OpenRun | undefined): void {
    if (open)
      this.post({
        type: 'run/loaded',
        protocolVersion,
        run: identity(open, this.host.storyView(open.model.header.scenario)),
        model: panelModel(open.model),
      });
    else this.post({ type: 'run/none', protocolVersion });
  }

  /** The rows of the run `runId` if it is the open one (a late query for another run gets none). */
  private watcherRows(runId: string): WatcherRows | undefined {
    const open = this.current.get();
    if (!open || open.run.id !== runId) return undefined;
    return watcherRowsOf(open.model);
  }

  /** The token with the key prefix of the open run's LIST that returned it, when the panel names one. */
  private listTokenRequest(
    token: string,
    list: { runId: string; id: string } | undefined,
  ): RecentToken | undefined {
    const open = this.current.get();
    if (!list || !open || open.run.id !== list.runId) return undefined;
    const record = open.model.lists.find((l) => l.id === list.id);
    return record && listTokenRequest(token, record.request, readEtcdPrefix());
  }

  private async handle(message: FromWebview): Promise<void> {
    switch (message.type) {
      case 'ready': {
        if (message.protocolVersion !== protocolVersion) {
          this.ready = true;
          this.post({
            type: 'protocol/mismatch',
            hostVersion: protocolVersion,
            webviewVersion: message.protocolVersion,
          });
          return;
        }
        this.ready = true;
        this.sendRun(this.current.get());
        if (this.restoredState) {
          this.post({ type: 'state/restore', state: this.restoredState });
          this.restoredState = undefined;
        }
        this.readyChanged.fire();
        break;
      }
      case 'timeline/seek':
        this.current.setViewState({ ...this.current.viewState(), at: message.at });
        break;
      case 'watcher/select':
        this.current.setViewState({ ...this.current.viewState(), selectedWatcherId: message.id });
        break;
      case 'state/changed':
        this.current.setViewState(normalizeViewState(message.state));
        break;
      case 'watchers/query': {
        const rows = this.watcherRows(message.runId);
        if (!rows) break;
        const answer = rows.query(
          message.query,
          message.at,
          message.from,
          message.count,
          message.reveal,
        );
        this.post({
          type: 'watchers/rows',
          runId: message.runId,
          requestId: message.requestId,
          at: message.at,
          ...answer,
        });
        break;
      }
      case 'watcher/detail': {
        const source = this.watcherRows(message.runId)?.source(message.id);
        if (!source) break;
        this.post({ type: 'watcher/detail', runId: message.runId, id: message.id, ...source });
        break;
      }
      case 'clients/query': {
        const open = this.current.get();
        if (!open || open.run.id !== message.runId) break;
        this.post({
          type: 'clients/rows',
          runId: message.runId,
          requestId: message.requestId,
          ...clientRows(open.model, message.search),
        });
        break;
      }
      case 'token/decode': {
        const explanation = await this.host.explainToken(
          message.token,
          this.listTokenRequest(message.token, message.list),
        );
        this.post({ type: 'token/explained', requestId: message.requestId, explanation });
        break;
      }
      case 'metrics/copy': {
        const result = await this.host.copyMetrics();
        this.post({ type: 'metrics/copied', ...result });
        break;
      }
      case 'command/run':
        this.host.runCommand(message.command);
        break;
      case 'webview/problem':
        this.record(this.traffic.problems, `${message.kind}: ${message.message}`);
        this.host.log(`inspector webview ${message.kind}: ${message.message}`);
        break;
      default:
        unhandledMessage(message);
    }
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.subscriptions) d.dispose();
    this.readyChanged.dispose();
  }
}
