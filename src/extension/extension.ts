// The extension's entry point, loaded in every window: registers the continue-token faces
// (commands, hover, Tokens view), the run faces (Scenarios, Runs and Watchers views, the List/Watch
// Inspector panel, run commands), the local API server's commands, status bar item and Server view,
// and the commands of import and replay (and the hover on client-go's log lines), probe, explain
// and export, every command logged to the List/Watch output channel. The heavy code of each
// feature (the server and the engine, the scenario runner, import, probe, explain, export) is a
// chunk of its own, loaded when one of its commands, views or hovers is first used
// (lazy-feature.ts). Returns a small API so the extension-host tests can read what the views show
// and what crossed the panel's protocol.
import * as vscode from 'vscode';
import { explainContinueToken, type ContinueTokenExplanation } from '../engine';
import type { FromWebview, InspectorViewState, ToWebview } from '../protocol';
import type { RunModel } from '../run/run-model';
import { ExplainDocument, explainDocumentScheme } from './explain/explain-document';
import { requestUrlAt } from './explain/request-url-at';
import { clientGoLogDocumentSelector, clientGoLogLineAt } from './import/client-go-log-line-at';
import {
  clearTokensCommandId,
  copyTokenCommandId,
  decodeAllCommandId,
  decodeCommandId,
  encodeCommandId,
  explainRequestCommandId,
  exportPerfettoCommandId,
  hoverLanguagesSettingId,
  importLogsCommandId,
  importLogsFromExplorerCommandId,
  openInDecoderCommandId,
  openLiveRunCommandId,
  openSampleLogCommandId,
  openTraceInInspectorCommandId,
  probeClusterCommandId,
  checkConformanceCommandId,
  replayWhatIfCommandId,
  revalidateTokenCommandId,
  runCommandIds,
  runInProgressContextKey,
  runOpenContextKey,
  saveRunAsTraceCommandId,
  scenariosViewId,
  scrapeClusterMetricsCommandId,
  serverRunningContextKey,
  serverViewId,
  showInspectorViewCommandId,
  tokensViewId,
  validateCommandId,
  runsViewId,
  watchersViewId,
  copyKubeconfigPathCommandId,
  expireHistoryCommandId,
  clearFaultCommandId,
  injectFaultCommandId,
  openServerTerminalCommandId,
  serverMenuCommandId,
  startServerCommandId,
  stopServerCommandId,
  terminateWatcherCommandId,
} from './ids';
import { LazyFeature, lazyCommands, type CommandHandlers } from './lazy-feature';
import type { InspectorHost, InspectorPanel, InspectorTraffic } from './panel/inspector-panel';
import { InspectorPanelSlot } from './panel/inspector-panel-slot';
import { SampleLog, showInspectorViewCommand } from './panel/walkthrough';
import { CurrentRun } from './runs/current-run';
import { RunStore, type StoredRun } from './runs/run-store';
import type { RunsFeature } from './runs/runs-feature';
import { RunsViewProvider } from './runs/runs-view';
import { ScenariosViewProvider } from './runs/scenarios-view';
import { WatchersViewProvider } from './runs/watchers-view';
import type { RunInProgress } from './runs/workspace-runs';
import {
  LiveRuns,
  openLiveRunCommand,
  saveRunAsTraceCommand,
  type LocalServerSource,
} from './server/live-runs';
import type { LiveServerState } from './server/live-server-state';
import { LocalServerSlot } from './server/local-server-slot';
import type { ServerFeature } from './server/server-feature';
import { ServerPromptsInUse, type ServerPrompts } from './server/server-prompts';
import { readServerSettings, warnAboutServerSettings } from './server/server-settings';
import { ServerStatusBar } from './server/server-status-bar';
import { ServerViewProvider, type ServerViewNode } from './server/server-view';
import {
  ConfirmationsInUse,
  clearTokensWithUndo,
  type Confirmations,
} from './shared/confirmations';
import { createExtensionLog } from './shared/output-log';
import type { ViewRow } from './shared/view-rows';
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
import { clearTokens, copyToken, revalidateToken, targetToken } from './tokens/tokens-view-actions';
import { validateContinueTokenCommand } from './tokens/validate-command';

/** What `vscode.extensions.getExtension(...).exports` offers (used by the extension-host tests). */
export interface ListwatchApi {
  /** The Tokens view as shown, every row expanded. */
  tokensViewRows(): TokensViewRow[];
  /** The view's top-level nodes, as its context-menu commands receive them. */
  tokensViewNodes(): TokensViewNode[];
  recentTokens(): RecentToken[];
  keyPrefixSetting(): KeyPrefixSetting;
  /** The Scenarios, Runs and Watchers views as shown (expanded). */
  /** The Scenarios view loads the runs chunk to list them (as when the view is first shown). */
  scenariosViewRows(): Promise<ViewRow[]>;
  runsViewRows(): ViewRow[];
  watchersViewRows(): ViewRow[];
  /** The runs of this workspace, newest first, and the one open now. */
  runs(): StoredRun[];
  currentRun(): { run: StoredRun; model: RunModel } | undefined;
  /** The scenario run in progress (its estimate and latest progress), if any (loads nothing). */
  runInProgress(): RunInProgress | undefined;
  /** The List/Watch Inspector panel, observed from the host (the webview is the real one). */
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
  /**
   * The live runs: attach a local server (the extension's LocalApiServer, or a test's ApiServer);
   * attaching loads the server chunk, which records live runs.
   */
  liveRuns: {
    attach(source: LocalServerSource): Promise<vscode.Disposable>;
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
  /** The features whose chunks are loaded (dist/extension-<name>.js), in the order they loaded. */
  loadedFeatures(): string[];
  /** How long activate() took, in milliseconds (performance.now() around its body). */
  activationMs(): number;
}

/**
 * The local API server, for deactivate(): VS Code awaits the promise deactivate returns, not the
 * disposal of context.subscriptions, and stopping a server (closing its watches) is asynchronous.
 */
let localServer: LocalServerSlot | undefined;

/** The hover, registered for the languages listwatch.hover.languages names (again when it changes). */
function registerHover(provider: vscode.HoverProvider): vscode.Disposable {
  let registration = vscode.languages.registerHoverProvider(hoverDocumentSelector(), provider);
  const watch = vscode.workspace.onDidChangeConfiguration((event) => {
    if (!event.affectsConfiguration(hoverLanguagesSettingId)) return;
    registration.dispose();
    registration = vscode.languages.registerHoverProvider(hoverDocumentSelector(), provider);
  });
  return { dispose: () => (watch.dispose(), registration.dispose()) };
}

export function activate(context: vscode.ExtensionContext): ListwatchApi {
  const activationStart = performance.now();
  const loadedFeatures: string[] = [];
  /** A feature chunk, loaded once; the order of loading is kept for the API. */
  const feature = <T>(name: string, load: () => Promise<T>) =>
    new LazyFeature(name, () => load().then((f) => (loadedFeatures.push(name), f)));
  const storageUri = context.storageUri ?? context.globalStorageUri;
  const log = createExtensionLog();
  const confirmations = new ConfirmationsInUse();
  const store = new RunStore(context.workspaceState, storageUri);
  const current = new CurrentRun();

  const recent = new RecentTokens(context.workspaceState);
  const documentTokens = new DocumentTokens();
  const scannedFiles = new ScannedFiles();
  const explanationDocument = new ExplanationDocument(context.workspaceState);
  const decoder = new Decoder(recent, explanationDocument);
  const tokensView = new TokensViewProvider(recent, scannedFiles);

  // Explain: the command and the hover on LIST/WATCH URLs, whose code loads on first use.
  const explainDocument = new ExplainDocument();
  const explain = feature('explain', () =>
    import('./explain/explain-feature').then((m) => m.activateExplain(explainDocument)),
  );
  const requestUrlHover: vscode.HoverProvider = {
    provideHover: async (document, position) => {
      // Only a URL under the cursor loads the explain chunk.
      if (!requestUrlAt(document.lineAt(position.line).text, position.character)) return undefined;
      return (await explain.get()).hover.provideHover(document, position);
    },
  };

  // The local API server: its code loads with its first command (or autoStart).
  const serverPrompts = new ServerPromptsInUse();
  const server = new LocalServerSlot();
  localServer = server;
  const serverFeature = feature('server', async (): Promise<ServerFeature> => {
    const f = (await import('./server/server-feature')).activateServer({
      storageDir: storageUri.fsPath,
      log,
      prompts: serverPrompts,
    });
    server.fill(f.server);
    return f;
  });
  const serverStatusBar = new ServerStatusBar(server);
  const serverView = new ServerViewProvider(server);
  const serverTree = vscode.window.createTreeView(serverViewId, { treeDataProvider: serverView });
  serverView.attach(serverTree);

  // Scenario runs: the runner, the engine and the trace reader load with the first run command.
  const runs: LazyFeature<RunsFeature> = feature('runs', async () => {
    const f = (await import('./runs/runs-feature')).activateRuns({
      store,
      current,
      inspector: await panel.get(),
      log,
      confirmations,
      workerScript: vscode.Uri.joinPath(context.extensionUri, 'dist', 'run-worker.js').fsPath,
    });
    context.subscriptions.push(
      f.runs,
      // Cancel Run is offered while a scenario runs.
      f.runs.onDidChangeRunInProgress(
        (running) =>
          void vscode.commands.executeCommand('setContext', runInProgressContextKey, running),
      ),
    );
    return f;
  });
  const runsCommands = async () => (await runs.get()).commands;

  // The List/Watch Inspector panel: its code loads when it is first shown, or with a feature that
  // opens runs in it (runs, import, probe).
  const panelHost: InspectorHost = {
    explainToken: (token, fromList) => {
      // A LIST's token is decoded against that LIST's key prefix; a token of no LIST against the
      // setting's, labelled assumed. Decoded tokens join the Tokens view, as from any other face.
      const request = fromList ?? assumedRequest(token);
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
    runCommand: (command) => void vscode.commands.executeCommand(runCommandIds[command]),
    reopenRun: async (runId) => {
      if (liveRuns.get(runId)) liveRuns.open(runId);
      else await (await runs.get()).runs.open(runId);
    },
    // A scenario's run was opened by the runs chunk, which is loaded then.
    storyView: (scenario) =>
      runs.loaded?.listScenarios().find((d) => d.name === scenario)?.storyView,
    log: (message) => log.info(message),
  };
  const traffic: InspectorTraffic = { posted: [], received: [], problems: [] };
  const panel: LazyFeature<InspectorPanel> = feature('panel', async () =>
    (await import('./panel/panel-feature')).activatePanel(
      context.extensionUri,
      current,
      panelHost,
      traffic,
    ),
  );
  const inspector = new InspectorPanelSlot(panel, traffic);

  const sampleLog = new SampleLog(context.extensionUri, log);
  const scenariosView = new ScenariosViewProvider({
    loaded: () => runs.loaded?.listScenarios(),
    load: async () => (await runs.get()).listScenarios(),
  });
  const liveRuns = new LiveRuns(current, inspector, log, () => serverFeature.loaded?.recordLive);
  const runsView = new RunsViewProvider(store, current, liveRuns);
  const runsTree = vscode.window.createTreeView(runsViewId, { treeDataProvider: runsView });
  runsView.attach(runsTree);
  const watchersView = new WatchersViewProvider(current);
  const watchersTree = vscode.window.createTreeView(watchersViewId, {
    treeDataProvider: watchersView,
  });
  watchersView.attach(watchersTree);

  // Import and replay, probe and export: their code loads with their first command.
  const importFeature = feature('import', () => import('./import/import-feature'));
  const probe = feature('probe', () => import('./probe/probe-feature'));
  const exportFeature = feature('export', () => import('./export/export-feature'));
  const importCommands = memo(async () =>
    (await importFeature.get()).importLogsCommands({
      store,
      current,
      inspector: await panel.get(),
      log,
    }),
  );
  // What Probe Cluster and Check Conformance share: the run store, the pickers and the memory.
  const probeDeps = async () => ({
    store,
    current,
    inspector: await panel.get(),
    log,
    confirmations,
    describeRun: (await runs.get()).describeRun,
    prompts: serverPrompts,
    memory: context.workspaceState,
    localServerKubeconfig: () => server.state()?.kubeconfigPath,
  });
  const probeCommands = memo(async () => (await probe.get()).probeCommands(await probeDeps()));
  // The hover on client-go's reflector lines: only such a line loads the import chunk.
  const clientGoLogHover: vscode.HoverProvider = {
    provideHover: async (document, position) => {
      if (!clientGoLogLineAt(document.lineAt(position.line).text)) return undefined;
      return (await importFeature.get()).provideClientGoLogHover(document, position);
    },
  };
  const conformCommands = memo(async () => (await probe.get()).conformCommands(await probeDeps()));
  const exportCommands = memo(async () =>
    (await exportFeature.get()).exportPerfettoCommands({ current, log }),
  );

  context.subscriptions.push(
    log,
    server,
    serverStatusBar,
    serverView,
    serverTree,
    ...lazyCommands(
      [
        startServerCommandId,
        stopServerCommandId,
        copyKubeconfigPathCommandId,
        openServerTerminalCommandId,
        injectFaultCommandId,
        terminateWatcherCommandId,
        expireHistoryCommandId,
        clearFaultCommandId,
        serverMenuCommandId,
      ],
      async () => (await serverFeature.get()).commands,
      log,
    ),
    server.onDidChange(
      (state) =>
        void vscode.commands.executeCommand('setContext', serverRunningContextKey, !!state),
    ),
    store,
    current,
    inspector,
    runsView,
    watchersView,
    watchersTree,
    inspector.registerSerializer(),
    vscode.window.createTreeView(scenariosViewId, {
      treeDataProvider: scenariosView,
      showCollapseAll: true,
    }),
    runsTree,
    ...lazyCommands(
      [...Object.values(runCommandIds), openTraceInInspectorCommandId],
      runsCommands,
      log,
    ),
    ...lazyCommands([probeClusterCommandId, scrapeClusterMetricsCommandId], probeCommands, log),
    ...lazyCommands([checkConformanceCommandId], conformCommands, log),
    ...lazyCommands(
      [importLogsCommandId, importLogsFromExplorerCommandId, replayWhatIfCommandId],
      importCommands,
      log,
    ),
    ...lazyCommands([exportPerfettoCommandId], exportCommands, log),
    vscode.languages.registerHoverProvider(clientGoLogDocumentSelector, clientGoLogHover),
    explainDocument,
    vscode.workspace.registerTextDocumentContentProvider(explainDocumentScheme, explainDocument),
    ...lazyCommands([explainRequestCommandId], async () => (await explain.get()).commands),
    vscode.languages.registerHoverProvider(hoverDocumentSelector(), requestUrlHover),
    liveRuns,
    // The local server's requests and events are recorded from its start (its live run).
    liveRuns.attach(server),
    // The panel's code first: the live run shows in it at once.
    log.registerCommand(openLiveRunCommandId, async (arg?: unknown) => {
      await panel.get();
      return openLiveRunCommand(liveRuns, arg);
    }),
    log.registerCommand(saveRunAsTraceCommandId, (arg?: unknown, destination?: unknown) =>
      saveRunAsTraceCommand(
        liveRuns,
        current,
        async (to) => (await runs.get()).exportTrace(to),
        arg,
        destination,
      ),
    ),
    log.registerCommand(openSampleLogCommandId, () => sampleLog.open()),
    log.registerCommand(showInspectorViewCommandId, (view?: unknown) =>
      showInspectorViewCommand(inspector, view),
    ),
    // Menus that need an open run (e.g. Export Metrics on the Watchers view) read this key.
    current.onDidChange(
      (open) => void vscode.commands.executeCommand('setContext', runOpenContextKey, !!open),
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
    registerHover(new ContinueTokenHoverProvider(documentTokens)),
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
  // listwatch.server.autoStart: the settings are checked here; the server loads only to start.
  const serverSettings = readServerSettings();
  warnAboutServerSettings(serverSettings, log);
  if (serverSettings.autoStart) void serverFeature.get().then((f) => f.autoStart(serverSettings));
  const activationMs = performance.now() - activationStart;
  return {
    tokensViewRows: () => tokensView.rows(),
    tokensViewNodes: () => tokensView.getChildren(),
    recentTokens: () => recent.list(),
    keyPrefixSetting: () => readKeyPrefix(),
    scenariosViewRows: async () => (await runs.get(), scenariosView.rows()),
    runsViewRows: () => runsView.rows(),
    watchersViewRows: () => watchersView.rows(),
    runs: () => store.list(),
    currentRun: () => current.get(),
    runInProgress: () => runs.loaded?.runs.runInProgress(),
    inspector: {
      isOpen: () => inspector.isOpen(),
      whenReady: () => inspector.whenReady(),
      posted: () => [...traffic.posted],
      received: () => [...traffic.received],
      clearTraffic: () => {
        traffic.posted.length = 0;
        traffic.received.length = 0;
      },
      viewState: () => current.viewState(),
      post: (message) => inspector.post(message),
      receive: (message) => inspector.receive(message),
      problems: () => [...traffic.problems],
    },
    liveRuns: {
      attach: async (source) => (await serverFeature.get(), liveRuns.attach(source)),
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
    loadedFeatures: () => [...loadedFeatures],
    activationMs: () => activationMs,
  };
}

/** A feature's handlers, made once (the first command of the feature makes them). */
function memo(make: () => Promise<CommandHandlers>): () => Promise<CommandHandlers> {
  let made: Promise<CommandHandlers> | undefined;
  return () => (made ??= make());
}

/** Stops the local API server (every watch closed); the rest is in context.subscriptions. */
export async function deactivate(): Promise<void> {
  await localServer?.stop();
}
