// "List/Watch: Decode Continue Token": decode against the configured key prefix.
import type { ContinueTokenExplanation } from '../engine';
import { openInDecoder } from './decoder';
import { readKeyPrefix } from './key-prefix-setting';
import type { RecentTokens } from './recent-tokens';
import { askForToken, tokenFromContext } from './token-input';

export const decodeCommandId = 'listwatch.decodeContinueToken';

/**
 * With a string argument (tests, other extensions, keybindings with args) no input box is shown.
 * Returns the explanation, or undefined when the user cancelled.
 */
export async function decodeContinueTokenCommand(
  recent: RecentTokens,
  tokenArg?: unknown,
): Promise<ContinueTokenExplanation | undefined> {
  // Typed or pasted text is trimmed; an argument is explained exactly as given (whitespace included).
  const token =
    typeof tokenArg === 'string'
      ? tokenArg
      : (await askForToken('Decode Continue Token', await tokenFromContext()))?.trim();
  if (token === undefined) return undefined;
  return openInDecoder(token, readKeyPrefix().keyPrefix, recent);
}
