// The extension loads in a real VS Code extension host and contributes what its manifest says.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activeApi, extensionId } from './extension-api';

describe('activation', () => {
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
