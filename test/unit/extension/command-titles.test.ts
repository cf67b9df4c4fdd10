// VS Code's convention for command titles, checked on package.json: a title ends with "…" exactly
// when the command asks for more input before it acts (an input box, a quick pick, an open or save
// dialog). A confirmation of something already chosen (Delete Run's modal) or an Undo offered
// afterwards (Clear Tokens) is not asking for input. Every contributed command must be in the
// table, so a new command makes its author decide.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const root = path.resolve(__dirname, '../../../..');

// Whether each command, run from the palette or a menu as contributed, asks for input first.
const asksForInput: Record<string, boolean> = {
  'listwatch.explainRequest': true, // an input box with the URL
  'listwatch.decodeContinueToken': true, // an input box with the token
  'listwatch.validateContinueToken': true, // the token, then the key prefix
  'listwatch.encodeContinueToken': true, // key prefix, key, resourceVersion
  'listwatch.decodeAllTokens': false, // the active document (or the Explorer's file)
  'listwatch.openInDecoder': false,
  'listwatch.copyToken': false,
  'listwatch.revalidateToken': false,
  'listwatch.clearTokens': false, // clears, then offers Undo
  'listwatch.runScenario': true, // quick picks: scenario, then defaults or parameters
  'listwatch.openInspector': false,
  'listwatch.openTrace': true, // an open dialog
  'listwatch.exportTrace': true, // a save dialog
  'listwatch.exportMetrics': true, // a save dialog
  'listwatch.runScenarioWithDefaults': false,
  'listwatch.runScenarioWithParameters': true, // an input per parameter, then the seed
  'listwatch.openRun': false,
  'listwatch.deleteRun': false, // a modal confirmation only
  'listwatch.selectWatcher': false,
  'listwatch.openTraceInInspector': false, // the Explorer's file
  'listwatch.openSampleLog': false,
  'listwatch.showInspectorView': false,
  'listwatch.cancelRun': false, // cancels the run in progress
  'listwatch.openLiveRun': false, // the local server's live run
  'listwatch.saveRunAsTrace': true, // a save dialog
  'listwatch.startLocalApiServer': true, // profile, seed objects, CRD files
  'listwatch.stopLocalApiServer': false,
  'listwatch.copyKubeconfigPath': false,
  'listwatch.openTerminalWithKubeconfig': false,
  'listwatch.injectFault': true, // the fault, then an input per parameter
  'listwatch.serverMenu': true, // a quick pick of the server commands
  'listwatch.terminateWatcher': false, // the Server view's watcher row
  'listwatch.expireHistory': false, // the Server view's resource row
  'listwatch.clearFault': true, // from the palette, a pick of the faults in force
  'listwatch.exportPerfetto': true, // a save dialog
  'listwatch.probeCluster': true, // kubeconfig, context, URL, watch; then a modal plan
  'listwatch.scrapeClusterMetrics': true, // kubeconfig, context; then a modal plan
  'listwatch.checkConformance': true, // kubeconfig, context; then a modal plan
  'listwatch.importLogs': true, // the file picker
  'listwatch.importLogsFromExplorer': false, // the Explorer's selected files
  'listwatch.replayImportWhatIf': true, // profile, watch cache size, WatchList
};

interface ContributedCommand {
  command: string;
  title: string;
}

describe('command titles', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    contributes: { commands: ContributedCommand[] };
  };
  const commands = manifest.contributes.commands;

  it('every contributed command says whether it asks for input', () => {
    const missing = commands.map((c) => c.command).filter((id) => !(id in asksForInput));
    assert.deepStrictEqual(missing, [], 'add these to asksForInput');
  });

  for (const { command, title } of commands) {
    const asks = asksForInput[command];
    it(`${command}: "${title}" ${asks ? 'ends' : 'does not end'} with "…"`, () => {
      assert.strictEqual(title.endsWith('…'), asks, title);
      assert.ok(!title.endsWith('...'), `${title}: the ellipsis is one character, "…"`);
    });
  }
});
