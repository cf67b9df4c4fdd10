// The extension's entry point: registers the continue-token faces (commands, hover, Tokens view)
// and the run faces (Scenarios, Runs and Watchers views, the inspector panel, run commands) over
// the engine. Returns a small API so the extension-host tests can read what the views show and
// what crossed the inspector's protocol.
import * as vscode from 'vscode';
import { explainContinueToken, type ContinueTokenExplanation } from '../engine';
import type { FromWebview, InspectorViewState, ToWebview } from '../protocol';
import type { RunModel } from '../run/run-model';
import { CurrentRun } from './current-run';
import { Inspector, registerInspectorSerializer } from './panel/inspector-panel';
import { registerRunCommands } from './run-commands';
import { listScenarios } from './run-engine';
import { RunStore, type StoredRun } from './run-store';
import { RunsViewProvider, runsViewId } from './runs-view';
import { ScenariosViewProvider, scenariosViewId, type ViewRow } from './scenarios-view';
import { WatchersViewProvider, watchersViewId } from './watchers-view';
import { WorkspaceRuns, type RunInProgress } from './workspace-runs';
import {
  ContinueTokenHoverProvider,
  continueTokenDocuments,
  openInDecoderCommandId,
} from './continue-token-hover';
import { decodeCommandId, decodeContinueTokenCommand } from './decode-command';
import { openInDecoder } from './decoder';
import { encodeCommandId, encodeContinueTokenCommand } from './encode-command';
import { ExplanationDocumentProvider, explanationScheme } from './explanation-document';
import { readKeyPrefix, watchKeyPrefixSetting, type KeyPrefixSetting } from './key-prefix-setting';
import { RecentTokens, type RecentToken } from './recent-tokens';
import {
  TokensViewProvider,
  tokensViewId,
  type TokensViewNode,
  type TokensViewRow,
} from './tokens-view';
import {
  clearTokens,
  clearTokensCommandId,
  copyToken,
  copyTokenCommandId,
  revalidateToken,
  revalidateTokenCommandId,
  targetToken,
} from './tokens-view-actions';
import { validateCommandId, validateContinueTokenCommand } from './validate-command';

/** What `vscode.extensions.getExtension(...).exports` offers (used by the extension-host tests). */
export interface ListwatchApi {
  /** The Tokens view as shown, every row expanded. */
  tokensViewRows(): TokensViewRow[];
  /** The view's top-level nodes, as its context-menu commands receive them. */
  tokensViewNodes(): TokensViewNode[];
  recentTokens(): RecentToken[];
  keyPrefixSetting(): KeyPrefixSetting;
  /** The Scenarios, Runs and Watchers views as shown (expanded). */
  scenariosViewRows(): ViewRow[];
  runsViewRows(): ViewRow[];
  watchersViewRows(): ViewRow[];
  /** The runs of this workspace, newest first, and the one open now. */
  runs(): StoredRun[];
  currentRun(): { run: StoredRun; model: RunModel } | undefined;
  /** The scenario run in progress (its estimate and latest progress), if any. */
  runInProgress(): RunInProgress | undefined;
  /** The inspector panel, observed from the host (the webview is the real one). */
  inspector: {
    isOpen(): boolean;
    whenReady(): Promise<void>;
    /** Messages posted to the webview and received from it, oldest first. */
    posted(): ToWebview[];
    received(): FromWebview[];
    clearTraffic(): void;
    /** Errors and Content-Security-Policy violations the webview reported since activation. */
    problems(): string[];
    /** The view state the webview last reported. */
    viewState(): InspectorViewState;
    /** Posts as the host does (e.g. a seek), for tests. */
    post(message: ToWebview): void;
    /** Handles a message as if the webview had posted it (e.g. a decode request), for tests. */
    receive(message: FromWebview): void;
  };
}

export function activate(context: vscode.ExtensionContext): ListwatchApi {
  const recent = new RecentTokens(context.workspaceState);
  const tokensView = new TokensViewProvider(recent);
  const output = vscode.window.createOutputChannel('List/Watch');
  const store = new RunStore(
    context.workspaceState,
    context.storageUri ?? context.globalStorageUri,
  );
  const current = new CurrentRun();
  const inspector = new Inspector(context.extensionUri, current, {
    explainToken: (token) => {
      const keyPrefix = readKeyPrefix().keyPrefix;
      // Decoded tokens join the Tokens view, as from any other face.
      void recent.remember({ token, keyPrefix });
      return explainContinueToken(token, keyPrefix);
    },
    copyMetrics: async () => {
      const open = current.get();
      if (!open) return { ok: false, message: 'No run is open.' };
      await vscode.env.clipboard.writeText(open.model.metricsText);
      return {
        ok: true,
        message: `Copied ${Object.keys(open.model.metrics).length} samples as Prometheus text.`,
      };
    },
    runCommand: (command) => {
      const ids = {
        runScenario: 'listwatch.runScenario',
        openTrace: 'listwatch.openTrace',
        exportMetrics: 'listwatch.exportMetrics',
      } as const;
      void vscode.commands.executeCommand(ids[command]);
    },
    reopenRun: async (runId) => {
      await runs.open(runId);
    },
    log: (message) => output.appendLine(`[${new Date().toISOString()}] ${message}`),
  });
  const runs = new WorkspaceRuns(
    store,
    current,
    inspector,
    vscode.Uri.joinPath(context.extensionUri, 'dist', 'run-worker.js').fsPath,
  );
  const scenariosView = new ScenariosViewProvider(listScenarios);
  const runsView = new RunsViewProvider(store, current);
  const watchersView = new WatchersViewProvider(current);
  const watchersTree = vscode.window.createTreeView(watchersViewId, {
    treeDataProvider: watchersView,
  });
  watchersView.attach(watchersTree);
  context.subscriptions.push(
    output,
    runs,
    // Cancel Run is offered while a scenario runs.
    runs.onDidChangeRunInProgress(
      (running) =>
        void vscode.commands.executeCommand('setContext', 'listwatch.runInProgress', running),
    ),
    store,
    current,
    inspector,
    runsView,
    watchersView,
    watchersTree,
    registerInspectorSerializer(inspector),
    vscode.window.createTreeView(scenariosViewId, {
      treeDataProvider: scenariosView,
      showCollapseAll: true,
    }),
    vscode.window.createTreeView(runsViewId, { treeDataProvider: runsView }),
    ...registerRunCommands({ runs, store, current, inspector }),
    // Menus that need an open run (e.g. Export Metrics on the Watchers view) read this key.
    current.onDidChange(
      (open) => void vscode.commands.executeCommand('setContext', 'listwatch.runOpen', !!open),
    ),
  );
  context.subscriptions.push(
    recent,
    tokensView,
    watchKeyPrefixSetting(),
    vscode.workspace.registerTextDocumentContentProvider(
      explanationScheme,
      new ExplanationDocumentProvider(),
    ),
    vscode.languages.registerHoverProvider(
      continueTokenDocuments,
      new ContinueTokenHoverProvider(),
    ),
    vscode.window.createTreeView(tokensViewId, {
      treeDataProvider: tokensView,
      showCollapseAll: true,
    }),
    vscode.commands.registerCommand(decodeCommandId, (token?: unknown) =>
      decodeContinueTokenCommand(recent, token),
    ),
    vscode.commands.registerCommand(validateCommandId, (token?: unknown, keyPrefix?: unknown) =>
      validateContinueTokenCommand(recent, token, keyPrefix),
    ),
    vscode.commands.registerCommand(
      encodeCommandId,
      (key?: unknown, keyPrefix?: unknown, rv?: unknown) =>
        encodeContinueTokenCommand(recent, key, keyPrefix, rv),
    ),
    vscode.commands.registerCommand(
      openInDecoderCommandId,
      (arg?: unknown, keyPrefix?: unknown): Promise<ContinueTokenExplanation> | undefined => {
        const target = targetToken(arg, keyPrefix);
        return target && openInDecoder(target.token, target.keyPrefix, recent);
      },
    ),
    vscode.commands.registerCommand(copyTokenCommandId, (arg?: unknown) => copyToken(arg)),
    vscode.commands.registerCommand(revalidateTokenCommandId, (arg?: unknown) =>
      revalidateToken(recent, arg),
    ),
    vscode.commands.registerCommand(clearTokensCommandId, () => clearTokens(recent)),
  );
  return {
    tokensViewRows: () => tokensView.rows(),
    tokensViewNodes: () => tokensView.getChildren(),
    recentTokens: () => recent.list(),
    keyPrefixSetting: () => readKeyPrefix(),
    scenariosViewRows: () => scenariosView.rows(),
    runsViewRows: () => runsView.rows(),
    watchersViewRows: () => watchersView.rows(),
    runs: () => store.list(),
    currentRun: () => current.get(),
    runInProgress: () => runs.runInProgress(),
    inspector: {
      isOpen: () => inspector.isOpen(),
      whenReady: () => inspector.whenReady(),
      posted: () => [...inspector.traffic.posted],
      received: () => [...inspector.traffic.received],
      clearTraffic: () => {
        inspector.traffic.posted.length = 0;
        inspector.traffic.received.length = 0;
      },
      viewState: () => current.viewState(),
      post: (message) => inspector.post(message),
      receive: (message) => inspector.receive(message),
      problems: () => [...inspector.traffic.problems],
    },
  };
}

export function deactivate(): void {
  // Everything registered is in context.subscriptions and disposed by VS Code.
}
