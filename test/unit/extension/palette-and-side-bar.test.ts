// package.json's palette `when` clauses and side bar panes, as a newcomer meets them: the local
// server's commands are offered only while a server runs (listwatch.serverRunning; Start always);
// the Explorer offers .log files to the importer; the side bar opens with the two panes a newcomer
// starts from and the rest folded. No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const root = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    menus: Record<string, Array<{ command: string; when?: string; group?: string }>>;
    views: Record<string, Array<{ id: string; visibility?: string }>>;
  };
};
const menus = manifest.contributes.menus;

/** The palette's `when` of a command (undefined: always offered). */
const paletteWhen = (command: string): string | undefined =>
  menus.commandPalette.find((m) => m.command === command)?.when;

describe('palette: the server commands need a running server', () => {
  const table: Array<[string, string | undefined]> = [
    ['listwatch.startLocalApiServer', undefined],
    ['listwatch.stopLocalApiServer', 'listwatch.serverRunning'],
    ['listwatch.copyKubeconfigPath', 'listwatch.serverRunning'],
    ['listwatch.openTerminalWithKubeconfig', 'listwatch.serverRunning'],
    ['listwatch.injectFault', 'listwatch.serverRunning'],
    ['listwatch.clearFault', 'listwatch.serverRunning'],
    // Reached from the status bar and the Server view only.
    ['listwatch.serverMenu', 'false'],
    ['listwatch.terminateWatcher', 'false'],
    ['listwatch.expireHistory', 'false'],
  ];
  for (const [command, when] of table) {
    it(`${command}: ${when === undefined ? 'always offered' : `when ${when}`}`, () => {
      assert.strictEqual(paletteWhen(command), when);
    });
  }
});

describe('Explorer: .log files import into the inspector', () => {
  it('Import into List/Watch Inspector on a .log file (not a folder), hidden from the palette', () => {
    const entry = menus['explorer/context'].find(
      (m) => m.command === 'listwatch.importLogsFromExplorer',
    );
    assert.ok(entry, JSON.stringify(menus['explorer/context']));
    assert.strictEqual(entry.when, 'resourceExtname == .log && !explorerResourceIsFolder');
    assert.strictEqual(paletteWhen('listwatch.importLogsFromExplorer'), 'false');
  });
});

describe('side bar: what a newcomer needs first is open, the rest folded', () => {
  it('Scenarios and Runs open first; Watchers, Tokens and Server folded', () => {
    assert.deepStrictEqual(
      manifest.contributes.views.listwatch.map((v) => [v.id, v.visibility ?? 'visible']),
      [
        ['listwatch.scenarios', 'visible'],
        ['listwatch.runs', 'visible'],
        ['listwatch.watchers', 'collapsed'],
        ['listwatch.tokens', 'collapsed'],
        ['listwatch.server', 'collapsed'],
      ],
    );
  });
});
