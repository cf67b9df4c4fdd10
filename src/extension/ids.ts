// No upstream counterpart: command ids that modules on both sides of an import need (a leaf module,
// so that naming a command never makes an import cycle).

export const copyTokenCommandId = 'listwatch.copyToken';

// The local API server's commands, view and context key (the status bar's menu, the Server view's
// actions and the walkthrough name them).
export const startServerCommandId = 'listwatch.startLocalApiServer';
export const stopServerCommandId = 'listwatch.stopLocalApiServer';
export const copyKubeconfigPathCommandId = 'listwatch.copyKubeconfigPath';
export const openServerTerminalCommandId = 'listwatch.openTerminalWithKubeconfig';
export const injectFaultCommandId = 'listwatch.injectFault';
export const serverMenuCommandId = 'listwatch.serverMenu';
export const terminateWatcherCommandId = 'listwatch.terminateWatcher';
export const expireHistoryCommandId = 'listwatch.expireHistory';
/** The live run's inspector (the live-run work registers it); listed in the menu when it exists. */
export const openLiveRunCommandId = 'listwatch.openLiveRun';
export const serverViewId = 'listwatch.server';
export const serverRunningContextKey = 'listwatch.serverRunning';

/** List/Watch: Explain List/Watch Request… (the request-URL hover links to it). */
export const explainRequestCommandId = 'listwatch.explainRequest';
