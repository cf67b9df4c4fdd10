// No upstream counterpart: every id src/extension names (commands, views, context keys, settings,
// and the keys of what it stores), written once here as GitLens keeps its constants; package.json
// declares the same ids (test/unit/extension/ids.test.ts checks that both agree). A leaf module:
// naming an id never makes an import cycle, and the entry bundle can name a feature's commands
// without loading the feature.

// The continue-token commands (Tokens view, hovers, the decoder document).
export const decodeCommandId = 'listwatch.decodeContinueToken';
export const validateCommandId = 'listwatch.validateContinueToken';
export const encodeCommandId = 'listwatch.encodeContinueToken';
export const decodeAllCommandId = 'listwatch.decodeAllTokens';
export const openInDecoderCommandId = 'listwatch.openInDecoder';
export const copyTokenCommandId = 'listwatch.copyToken';
export const revalidateTokenCommandId = 'listwatch.revalidateToken';
export const clearTokensCommandId = 'listwatch.clearTokens';

// The scenario runs and the inspector panel's commands.
export const runCommandIds = {
  runScenario: 'listwatch.runScenario',
  runScenarioWithDefaults: 'listwatch.runScenarioWithDefaults',
  runScenarioWithParameters: 'listwatch.runScenarioWithParameters',
  cancelRun: 'listwatch.cancelRun',
  openInspector: 'listwatch.openInspector',
  openTrace: 'listwatch.openTrace',
  exportTrace: 'listwatch.exportTrace',
  exportMetrics: 'listwatch.exportMetrics',
  openRun: 'listwatch.openRun',
  deleteRun: 'listwatch.deleteRun',
  selectWatcher: 'listwatch.selectWatcher',
} as const;
export const openRunCommandId = runCommandIds.openRun;
export const selectWatcherCommandId = runCommandIds.selectWatcher;
export const openTraceInInspectorCommandId = 'listwatch.openTraceInInspector';
export const exportPerfettoCommandId = 'listwatch.exportPerfetto';
export const openSampleLogCommandId = 'listwatch.openSampleLog';
export const showInspectorViewCommandId = 'listwatch.showInspectorView';

// The local API server's commands (the status bar's menu, the Server view's actions and the
// walkthrough name them).
export const startServerCommandId = 'listwatch.startLocalApiServer';
export const stopServerCommandId = 'listwatch.stopLocalApiServer';
export const copyKubeconfigPathCommandId = 'listwatch.copyKubeconfigPath';
export const openServerTerminalCommandId = 'listwatch.openTerminalWithKubeconfig';
export const injectFaultCommandId = 'listwatch.injectFault';
export const serverMenuCommandId = 'listwatch.serverMenu';
export const terminateWatcherCommandId = 'listwatch.terminateWatcher';
export const expireHistoryCommandId = 'listwatch.expireHistory';
export const clearFaultCommandId = 'listwatch.clearFault';
/** The live run's inspector; listed in the server menu when it exists. */
export const openLiveRunCommandId = 'listwatch.openLiveRun';
export const saveRunAsTraceCommandId = 'listwatch.saveRunAsTrace';

// Import and replay, probe, explain.
export const importLogsCommandId = 'listwatch.importLogs';
/** The Explorer's "Import into List/Watch Inspector" on .log files (every selected one). */
export const importLogsFromExplorerCommandId = 'listwatch.importLogsFromExplorer';
export const replayWhatIfCommandId = 'listwatch.replayImportWhatIf';
export const probeClusterCommandId = 'listwatch.probeCluster';
export const scrapeClusterMetricsCommandId = 'listwatch.scrapeClusterMetrics';
export const checkConformanceCommandId = 'listwatch.checkConformance';
/** List/Watch: Explain List/Watch Request… (the request-URL hover links to it). */
export const explainRequestCommandId = 'listwatch.explainRequest';

// Views, the webview panel, the walkthrough.
export const tokensViewId = 'listwatch.tokens';
export const scenariosViewId = 'listwatch.scenarios';
export const runsViewId = 'listwatch.runs';
export const watchersViewId = 'listwatch.watchers';
export const serverViewId = 'listwatch.server';
/** The List/Watch Inspector panel's webview type (its serializer revives it after a reload). */
export const inspectorViewType = 'listwatch.inspector';
export const walkthroughId = 'listwatch.gettingStarted';
/** The status bar item is named after the view it stands for. */
export const serverStatusBarItemId = serverViewId;

// Context keys that menus' `when` clauses read.
export const serverRunningContextKey = 'listwatch.serverRunning';
export const runInProgressContextKey = 'listwatch.runInProgress';
export const runOpenContextKey = 'listwatch.runOpen';

// Settings.
export const keyPrefixSettingId = 'listwatch.keyPrefix';
export const etcdPrefixSettingId = 'listwatch.etcdPrefix';
export const hoverLanguagesSettingId = 'listwatch.hover.languages';
export const portSettingId = 'listwatch.server.port';
export const profileSettingId = 'listwatch.server.profile';
export const autoStartSettingId = 'listwatch.server.autoStart';
export const etcdSettingId = 'listwatch.server.etcd';
export const etcdVersionSettingId = 'listwatch.server.etcdVersion';
export const faultsSettingId = 'listwatch.server.faults';
/** The scenario-run guard's settings (confirm above, cap the trace at). */
export const runGuardSettingIds = {
  confirmAboveSeconds: 'listwatch.run.confirmAboveSeconds',
  confirmAboveTraceMiB: 'listwatch.run.confirmAboveTraceMiB',
  confirmAboveMemoryMiB: 'listwatch.run.confirmAboveMemoryMiB',
  maxTraceMiB: 'listwatch.run.maxTraceMiB',
} as const;

// Keys of what the extension keeps in the workspace state (not declared in package.json).
/** The stored runs' index, kept under the Runs view's id (the key it has always had). */
export const runIndexStateKey = runsViewId;
export const recentTokensStateKey = 'listwatch.recentTokens';
export const decoderDocumentStateKey = 'listwatch.decoderDocument';
/** The kubeconfig and context Probe and Scrape used last (offered first next time). */
export const probeTargetStateKey = 'listwatch.probeTarget';
