// "List/Watch: Decode Continue Token": decode against the key prefix the token's document gives it
// (its LIST's URL, audit objectRef, request or list object), else the listwatch.keyPrefix setting
// of the active document's folder.
import * as vscode from 'vscode';
import type { ContinueTokenExplanation } from '../../engine';
import type { Decoder } from './decoder';
import type { DocumentTokens } from './document-tokens';
import type { DecodeRequest } from './explanation-document';
import { readKeyPrefix } from './key-prefix-setting';
import { askForToken, locatedGuess, tokenFromContext } from './token-input';
import { keyPrefixSettingId } from '../ids';

/** A token nothing locates: the setting of the active document's folder, labelled assumed. */
export function assumedRequest(token: string): DecodeRequest {
  return {
    token,
    keyPrefix: readKeyPrefix(vscode.window.activeTextEditor?.document.uri).keyPrefix,
    keyPrefixSource: 'setting',
    keyPrefixDetail: `assumed: the ${keyPrefixSettingId} setting`,
  };
}

/**
 * With a string argument (tests, other extensions, keybindings with args) no input box is shown.
 * Returns the explanation, or undefined when the user cancelled.
 */
export async function decodeContinueTokenCommand(
  decoder: Decoder,
  tokens: DocumentTokens,
  tokenArg?: unknown,
): Promise<ContinueTokenExplanation | undefined> {
  // An argument is explained exactly as given (whitespace included).
  if (typeof tokenArg === 'string') return decoder.open(assumedRequest(tokenArg));
  const guess = await tokenFromContext(tokens);
  // Typed or pasted text is trimmed.
  const token = (await askForToken('Decode Continue Token', guess?.token))?.trim();
  if (token === undefined) return undefined;
  return decoder.open(locatedGuess(guess, token) ?? assumedRequest(token));
}
