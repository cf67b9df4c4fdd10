// The extension loads in a real VS Code extension host and contributes what its manifest says.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activeApi, extensionId } from './extension-api';

/** The feature chunks (dist/extension-<feature>.js) this extension host has loaded. */
function loadedChunks(): string[] {
  return Object.keys(require.cache)
    .map((file) => /[\\/]dist[\\/]extension-([a-z]+)\.js$/.exec(file)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();
}

describe('activation', () => {
  // First in the suite (files run in name order): nothing has used a feature yet.
  it('loads no feature chunk until a feature is used', async () => {
    const api = await activeApi();
    console.log(`      activation took ${api.activationMs().toFixed(1)} ms`);
    assert.deepStrictEqual(api.loadedFeatures(), [], 'features loaded at activation');
    assert.deepStrictEqual(loadedChunks(), [], 'chunks in require.cache after activation');
    // A command of a feature loads its chunk (Stop with no server running stops nothing).
    const stopped = await vscode.commands.executeCommand('listwatch.stopLocalApiServer');
    assert.strictEqual(stopped, false);
    assert.deepStrictEqual(api.loadedFeatures(), ['server']);
    assert.deepStrictEqual(loadedChunks(), ['server']);
  });

  it('runs in a real extension host and activates', async () => {
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    const api = await activeApi();
    assert.strictEqual(typeof api.tokensViewRows, 'function');
    assert.ok(vscode.extensions.getExtension(extensionId)?.isActive);
  });

  it('registers every contributed command', async () => {
    await activeApi();
    const all = new Set(await vscode.commands.getCommands(true));
    const contributed = vscode.extensions.getExtension(extensionId)?.packageJSON.contributes
      .commands as Array<{ command: string; category: string }>;
    assert.ok(contributed.length >= 7, `only ${contributed.length} commands contributed`);
    for (const { command, category } of contributed) {
      assert.ok(all.has(command), `${command} is contributed but not registered`);
      assert.strictEqual(category, 'List/Watch', `${command} category`);
    }
  });

  it('hides the internal commands from the command palette', () => {
    const manifest = vscode.extensions.getExtension(extensionId)?.packageJSON;
    const hidden = new Set(
      (manifest.contributes.menus.commandPalette as Array<{ command: string; when: string }>)
        .filter((m) => m.when === 'false')
        .map((m) => m.command),
    );
    for (const command of [
      'listwatch.openInDecoder',
      'listwatch.copyToken',
      'listwatch.revalidateToken',
      'listwatch.clearTokens',
    ]) {
      assert.ok(hidden.has(command), `${command} should be hidden from the palette`);
    }
    for (const command of [
      'listwatch.decodeContinueToken',
      'listwatch.validateContinueToken',
      'listwatch.encodeContinueToken',
    ]) {
      assert.ok(!hidden.has(command), `${command} should be in the palette`);
    }
  });
});
