// Test helpers: the extension under test, activated, and the API it returns from activate().
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ListwatchApi } from '../../../src/extension/extension';

export const extensionId = 'listwatch-inspector.listwatch-inspector';

export async function activeApi(): Promise<ListwatchApi> {
  const extension = vscode.extensions.getExtension<ListwatchApi>(extensionId);
  assert.ok(extension, `${extensionId} is not loaded`);
  return extension.activate();
}

/** Sets listwatch.keyPrefix in the user settings (undefined removes it). */
export async function setKeyPrefix(value: unknown): Promise<void> {
  await vscode.workspace
    .getConfiguration('listwatch')
    .update('keyPrefix', value, vscode.ConfigurationTarget.Global);
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a command that shows input boxes and accepts each box with its pre-filled value, the way a
 * person presses Enter (typing is left to the e2e tests, which drive the real UI).
 */
export async function acceptPrefilledInputBoxes<T>(command: string): Promise<T> {
  let settled = false;
  const result = Promise.resolve(vscode.commands.executeCommand<T>(command)).finally(() => {
    settled = true;
  });
  // Accepting when no box is open does nothing, so polling is harmless; bounded at ~30 s.
  for (let attempt = 0; !settled && attempt < 100; attempt++) {
    await delay(100);
    if (!settled)
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  if (!settled) {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const editor = vscode.window.activeTextEditor;
    throw new Error(
      `${command}: an input box would not accept its pre-filled value (empty?); active editor ` +
        `${editor?.document.uri.toString()} (${editor?.document.languageId}), selection ${JSON.stringify(editor?.selection)}, text ${JSON.stringify(editor?.document.lineAt(0).text)}`,
    );
  }
  return result;
}
