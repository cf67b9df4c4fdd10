// The extension's entry point: registers the continue-token faces (commands, hover, Tokens view),
// the run faces (Scenarios, Runs and Watchers views, the inspector panel, run commands) and the
// local API server (its commands, status bar item and Server view) over the engine, every command
// logged to the List/Watch output channel. Returns a small API so the extension-host tests can read what the views show and
// what crossed the inspector's protocol.
import * as vscode from 'vscode';
import { explainContinueToken, type ContinueTokenExplanation } from '../engine';
import type { FromWebview, InspectorViewState, ToWebview } from '../protocol';
import type { RunModel } from '../run/run-model';
import {
  ConfirmationsInUse,
  clearTokensWithUndo,
  type Confirmations,
} from './shared/confirmations';
import { CurrentRun } from './runs/current-run';
import {
  LiveRuns,
  openLiveRunCommand,
  saveRunAsTraceCommand,
  type LocalServerSource,
} from './server/live-runs';
import { openTraceInInspectorCommand } from './runs/explorer-trace';
import { registerImportLogs } from './import/import-logs-command';
import { createExtensionLog } from './shared/output-log';
import { Inspector, registerInspectorSerializer } from './panel/inspector-panel';
import { exportTraceCommand, registerRunCommands } from './runs/run-commands';
import { registerExportPerfettoCommand } from './export/export-perfetto-command';
import { registerProbeCommands } from './probe/probe-commands';
import { listScenarios } from './runs/run-engine';
import { RunStore, type StoredRun } from './runs/run-store';
import { RunsViewProvider } from './runs/runs-view';
import { ScenariosViewProvider } from './runs/scenarios-view';
import type { ViewRow } from './shared/view-rows';
import { WatchersViewProvider } from './runs/watchers-view';
import { WorkspaceRuns, type RunInProgress } from './runs/workspace-runs';
import {
  serverViewId,
  openLiveRunCommandId,
  saveRunAsTraceCommandId,
  openTraceInInspectorCommandId,
  runsViewId,
  scenariosViewId,
  watchersViewId,
  hoverLanguagesSettingId,
  openInDecoderCommandId,
  decodeAllCommandId,
  decodeCommandId,
  encodeCommandId,
  tokensViewId,
  clearTokensCommandId,
  revalidateTokenCommandId,
  validateCommandId,
  openSampleLogCommandId,
  showInspectorViewCommandId,
} from './ids';
import { LocalApiServer, type LiveServerState } from './server/live-server';
import { autoStartServer, registerServerCommands } from './server/server-commands';
import { ServerPromptsInUse, type ServerPrompts } from './server/server-prompts';
import { ServerStatusBar } from './server/server-status-bar';
import { ServerViewProvider, type ServerViewNode } from './server/server-view';
import { ContinueTokenHoverProvider, hoverDocumentSelector } from './tokens/continue-token-hover';
import { decodeAllTokensCommand } from './tokens/decode-all-command';
import { assumedRequest, decodeContinueTokenCommand } from './tokens/decode-command';
import { Decoder } from './tokens/decoder';
import { DocumentTokens } from './tokens/document-tokens';
import { encodeContinueTokenCommand } from './tokens/encode-command';
import { ExplanationDocument, explanationScheme } from './tokens/explanation-document';
import {
  readKeyPrefix,
  watchKeyPrefixSetting,
  type KeyPrefixSetting,
} from './tokens/key-prefix-setting';
import { RecentTokens, type RecentToken } from './tokens/recent-tokens';
import { ScannedFiles } from './tokens/scanned-files';
import { TokensViewProvider, type TokensViewNode, type TokensViewRow } from './tokens/tokens-view';
import {
  clearTokens,
  copyToken,
  copyTokenCommandId,
  revalidateToken,
  targetToken,
} from './tokens/tokens-view-actions';
import { validateContinueTokenCommand } from './tokens/validate-command';
import { SampleLog, showInspectorViewCommand } from './panel/walkthrough';
import { registerExplainRequest } from './explain/explain-request-command';

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
  /** The live runs: attach a local server (the extension's LocalApiServer, or a test's ApiServer). */
  liveRuns: {
    attach(source: LocalServerSource): vscode.Disposable;
    list(): StoredRun[];
    model(id: string): RunModel | undefined;
  };
  /** The latest lines of the List/Watch output channel, `[level] message`, oldest first. */
  logLines(): string[];
  /** Answers the confirmations instead of the workbench's dialogs (tests); undefined restores them. */
  useConfirmations(replacement: Partial<Confirmations> | undefined): void;
  /** The local API server running in this extension host, its status bar item and Server view. */
  localServer: {
    state(): LiveServerState | undefined;
    onDidChange: vscode.Event<LiveServerState | undefined>;
    statusBarText(): string | undefined;
    serverViewRows(): ViewRow[];
    serverViewNodes(): ServerViewNode[];
    /** Answers the server commands' prompts instead of the workbench's (tests); undefined restores them. */
    usePrompts(replacement: Partial<ServerPrompts> | undefined): void;
  };
}

/**
 * The local API server, for deactivate(): VS Code awaits the promise deactivate returns, not the
 * disposal of context.subscriptions, and stopping a server (closing its watches) is asynchronous.
 */
let localServer: LocalApiServer | undefined;

/** The hover, registered for the languages listwatch.hover.languages names (again when it changes). */
function registerHover(tokens: DocumentTokens): vscode.Disposable {
  const provider = new ContinueTokenHoverProvider(tokens);
  let registration = vscode.languages.registerHoverProvider(hoverDocumentSelector(), provider);
  const watch = vscode.workspace.onDidChangeConfiguration((event) => {
    if (!event.affectsConfiguration(hoverLanguagesSettingId)) return;
    registration.dispose();
    registration = vscode.languages.registerHoverProvider(hoverDocumentSelector(), provider);
  });
  return { dispose: () => (watch.dispose(), registration.dispose()) };
}

export function activate(context: vscode.ExtensionContext): ListwatchApi {
  registerExplainRequest(context);
  const recent = new RecentTokens(context.workspaceState);
  const documentTokens = new DocumentTokens();
  const scannedFiles = new ScannedFiles();
  const explanationDocument = new ExplanationDocument(context.workspaceState);
  const decoder = new Decoder(recent, explanationDocument);
  const tokensView = new TokensViewProvider(recent, scannedFiles);
  const log = createExtensionLog();
  const confirmations = new ConfirmationsInUse();
  const store = new RunStore(
    context.workspaceState,
    context.storageUri ?? context.globalStorageUri,
  );
  const current = new CurrentRun();
  const inspector = new Inspector(context.extensionUri, current, {
    explainToken: (token) => {
      // The panel sends the token alone: its key prefix is the setting's, labelled assumed. Decoded
      // tokens join the Tokens view, as from any other face.
      const request = assumedRequest(token);
      void recent.remember(request);
      return explainContinueToken(token, request.keyPrefix);
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
      if (liveRuns.get(runId)) liveRuns.open(runId);
      else await runs.open(runId);
    },
    storyView: (scenario) => listScenarios().find((d) => d.name === scenario)?.storyView,
    log: (message) => log.info(message),
  });
  const runs = new WorkspaceRuns(
    store,
    current,
    inspector,
    log,
    vscode.Uri.joinPath(context.extensionUri, 'dist', 'run-worker.js').fsPath,
  );
  const runDeps = { runs, store, current, inspector, log, confirmations };
  registerExportPerfettoCommand(context, { current, log });
  const server = new LocalApiServer((context.storageUri ?? context.globalStorageUri).fsPath, log);
  localServer = server;
  const serverPrompts = new ServerPromptsInUse();
  const serverDeps = { server, prompts: serverPrompts, log };
  const serverStatusBar = new ServerStatusBar(server);
  const serverView = new ServerViewProvider(server);
  const serverTree = vscode.window.createTreeView(serverViewId, { treeDataProvider: serverView });
  serverView.attach(serverTree);
  const sampleLog = new SampleLog(context.extensionUri, log);
  const scenariosView = new ScenariosViewProvider(listScenarios);
  const liveRuns = new LiveRuns(current, inspector, log);
  const runsView = new RunsViewProvider(store, current, liveRuns);
  const runsTree = vscode.window.createTreeView(runsViewId, { treeDataProvider: runsView });
  runsView.attach(runsTree);
  const watchersView = new WatchersViewProvider(current);
  const watchersTree = vscode.window.createTreeView(watchersViewId, {
    treeDataProvider: watchersView,
  });
  watchersView.attach(watchersTree);
  context.subscriptions.push(
    log,
    server,
    serverStatusBar,
    serverView,
    serverTree,
    ...registerServerCommands(serverDeps),
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
    runsTree,
    ...registerRunCommands(runDeps),
    ...registerProbeCommands(runDeps),
    liveRuns,
    // The local server's requests and events are recorded from its start (its live run).
    liveRuns.attach(server),
    log.registerCommand(openLiveRunCommandId, (arg?: unknown) => openLiveRunCommand(liveRuns, arg)),
    log.registerCommand(saveRunAsTraceCommandId, (arg?: unknown, destination?: unknown) =>
      saveRunAsTraceCommand(
        liveRuns,
        current,
        (to) => exportTraceCommand(runDeps, undefined, to),
        arg,
        destination,
      ),
    ),
    log.registerCommand(openTraceInInspectorCommandId, (uri?: unknown) =>
      openTraceInInspectorCommand(runDeps, uri),
    ),
    log.registerCommand(openSampleLogCommandId, () => sampleLog.open()),
    log.registerCommand(showInspectorViewCommandId, (view?: unknown) =>
      showInspectorViewCommand(inspector, view),
    ),
    // Menus that need an open run (e.g. Export Metrics on the Watchers view) read this key.
    current.onDidChange(
      (open) => void vscode.commands.executeCommand('setContext', 'listwatch.runOpen', !!open),
    ),
  );
  context.subscriptions.push(
    recent,
    tokensView,
    scannedFiles,
    explanationDocument,
    watchKeyPrefixSetting(),
    vscode.workspace.registerTextDocumentContentProvider(explanationScheme, explanationDocument),
    vscode.languages.registerDocumentLinkProvider(
      { scheme: explanationScheme },
      explanationDocument,
    ),
    registerHover(documentTokens),
    vscode.window.createTreeView(tokensViewId, {
      treeDataProvider: tokensView,
      showCollapseAll: true,
    }),
    log.registerCommand(decodeCommandId, (token?: unknown) =>
      decodeContinueTokenCommand(decoder, documentTokens, token),
    ),
    log.registerCommand(validateCommandId, (token?: unknown, keyPrefix?: unknown) =>
      validateContinueTokenCommand(decoder, documentTokens, token, keyPrefix),
    ),
    log.registerCommand(encodeCommandId, (key?: unknown, keyPrefix?: unknown, rv?: unknown) =>
      encodeContinueTokenCommand(decoder, key, keyPrefix, rv),
    ),
    log.registerCommand(
      openInDecoderCommandId,
      (
        arg?: unknown,
        keyPrefix?: unknown,
        origin?: unknown,
      ): Promise<ContinueTokenExplanation> | undefined => {
        const target = targetToken(arg, keyPrefix, origin);
        return target && decoder.open(target);
      },
    ),
    log.registerCommand(decodeAllCommandId, (uri?: unknown) =>
      decodeAllTokensCommand(scannedFiles, documentTokens, uri),
    ),
    log.registerCommand(copyTokenCommandId, (arg?: unknown) => copyToken(arg)),
    log.registerCommand(revalidateTokenCommandId, (arg?: unknown) => revalidateToken(decoder, arg)),
    log.registerCommand(clearTokensCommandId, () =>
      clearTokensWithUndo(
        recent,
        () => clearTokens(decoder, scannedFiles),
        confirmations,
        log,
        scannedFiles.list().length,
      ),
    ),
  );
  void autoStartServer(serverDeps);
  registerImportLogs(context, { store, current, inspector, log });
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
    liveRuns: {
      attach: (source) => liveRuns.attach(source),
      list: () => liveRuns.list(),
      model: (id) => liveRuns.model(id),
    },
    logLines: () => log.lines(),
    useConfirmations: (replacement) => confirmations.use(replacement),
    localServer: {
      state: () => server.state(),
      onDidChange: server.onDidChange,
      statusBarText: () => serverStatusBar.shownText,
      serverViewRows: () => serverView.rows(),
      serverViewNodes: () =>
        serverView.getChildren().flatMap((n) => [n, ...serverView.getChildren(n)]),
      usePrompts: (replacement) => serverPrompts.use(replacement),
    },
  };
}

/** Stops the local API server (every watch closed); the rest is in context.subscriptions. */
export async function deactivate(): Promise<void> {
  await localServer?.stop();
}
