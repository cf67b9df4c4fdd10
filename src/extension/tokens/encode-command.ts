// "List/Watch: Encode Continue Token": build the token the apiserver would hand out for a key,
// key prefix and resourceVersion (EncodeContinue), copy it, then show how it decodes and say what
// was copied.
import * as vscode from 'vscode';
import { encodeContinue, type ContinueTokenExplanation } from '../../engine';
import { visibleText } from '../../format/visible-text';
import type { Decoder } from './decoder';
import { keyPrefixProblem, readKeyPrefix } from './key-prefix-setting';
import { shortToken } from './token-title';
import {
  askForKey,
  askForKeyPrefix,
  askForResourceVersion,
  resourceVersionProblem,
  unescapeKey,
} from './token-input';
import { encodeCommandId } from '../ids';

const title = 'Encode Continue Token';

/**
 * Arguments (key, keyPrefix, resourceVersion) skip the matching input boxes; a key given as an
 * argument is taken literally (no \x00 escapes). Returns the new token's explanation, or undefined
 * when cancelled or when upstream refuses to encode (the user is told why).
 */
export async function encodeContinueTokenCommand(
  decoder: Decoder,
  keyArg?: unknown,
  keyPrefixArg?: unknown,
  rvArg?: unknown,
): Promise<ContinueTokenExplanation | undefined> {
  let keyPrefix: string | undefined;
  if (typeof keyPrefixArg === 'string') {
    const problem = keyPrefixProblem(keyPrefixArg);
    if (problem) throw new Error(`${encodeCommandId}: key prefix argument: ${problem}`);
    keyPrefix = keyPrefixArg;
  } else {
    keyPrefix = await askForKeyPrefix(
      title,
      readKeyPrefix(vscode.window.activeTextEditor?.document.uri).keyPrefix,
    );
  }
  if (keyPrefix === undefined) return undefined;
  let key: string | undefined;
  if (typeof keyArg === 'string') {
    key = keyArg;
  } else {
    const typed = await askForKey(title, keyPrefix);
    key = typed === undefined ? undefined : unescapeKey(typed);
  }
  if (key === undefined) return undefined;
  let rvText: string | undefined;
  if (typeof rvArg === 'number' || typeof rvArg === 'bigint' || typeof rvArg === 'string') {
    rvText = String(rvArg);
    const problem = resourceVersionProblem(rvText);
    if (problem) throw new Error(`${encodeCommandId}: resourceVersion argument: ${problem}`);
  } else {
    rvText = await askForResourceVersion(title);
  }
  if (rvText === undefined) return undefined;
  let token: string;
  try {
    token = encodeContinue(key, keyPrefix, BigInt(rvText.trim()));
  } catch (error) {
    void vscode.window.showErrorMessage(
      visibleText(
        `Cannot encode a continue token for key ${JSON.stringify(key)} and prefix ${keyPrefix}: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
    return undefined;
  }
  // Handy for pasting into a request; a browser may refuse clipboard access, which is harmless.
  let copied = true;
  try {
    await vscode.env.clipboard.writeText(token);
  } catch {
    copied = false;
  }
  const what = `the continue token for key ${JSON.stringify(key)} at resourceVersion ${rvText.trim()}`;
  const note = copied
    ? `Encoded ${what} and copied it to the clipboard:`
    : `Encoded ${what} (the clipboard refused it: copy it from the token line below):`;
  void vscode.window.showInformationMessage(
    visibleText(copied ? `Copied ${shortToken(token)} to the clipboard: ${what}.` : note),
  );
  return decoder.open({ token, keyPrefix, note });
}
