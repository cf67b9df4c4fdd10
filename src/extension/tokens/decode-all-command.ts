// "List/Watch: Decode All Tokens in File": every continue token of the active document (or of a
// file chosen in the Explorer), each against its LIST's key prefix, listed in the Tokens view as
// file:line links, with the invalid ones in the Problems panel.
import * as vscode from 'vscode';
import type { DocumentTokens } from './document-tokens';
import { tokenContextOptions } from './key-prefix-setting';
import type { ScannedFiles } from './scanned-files';
import { tokensViewId } from '../ids';
import { plural } from '../../format/count-text';

export interface DecodeAllResult {
  uri: string;
  tokens: number;
  invalid: number;
}

export async function decodeAllTokensCommand(
  files: ScannedFiles,
  tokens: DocumentTokens,
  arg?: unknown,
): Promise<DecodeAllResult | undefined> {
  const document =
    arg instanceof vscode.Uri
      ? await vscode.workspace.openTextDocument(arg)
      : vscode.window.activeTextEditor?.document;
  if (!document) {
    void vscode.window.showInformationMessage(
      'Decode All Tokens in File: open a log, JSON or YAML file first.',
    );
    return undefined;
  }
  const found = tokens.all(document, tokenContextOptions(document.uri));
  const file = files.set(document.uri, found);
  const count = plural(found.length, 'continue token', { plain: true });
  if (found.length === 0) {
    void vscode.window.showInformationMessage(`No continue tokens in ${file.name}.`);
  } else {
    // Show the list the command filled.
    await vscode.commands.executeCommand(`${tokensViewId}.focus`);
    void vscode.window.showInformationMessage(
      file.invalid === 0
        ? `${file.name}: ${count}, all valid (listed in the Tokens view).`
        : `${file.name}: ${count}, ${file.invalid} invalid (listed in the Tokens view and in Problems).`,
    );
  }
  return { uri: document.uri.toString(), tokens: found.length, invalid: file.invalid };
}
