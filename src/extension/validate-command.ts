// "List/Watch: Validate Continue Token": decode against a key prefix the user confirms or changes,
// as the apiserver serving that resource would (ValidateListOptions -> DecodeContinue).
import type { ContinueTokenExplanation } from '../engine';
import { openInDecoder } from './decoder';
import { keyPrefixProblem, readKeyPrefix } from './key-prefix-setting';
import type { RecentTokens } from './recent-tokens';
import { askForKeyPrefix, askForToken, tokenFromContext } from './token-input';

export const validateCommandId = 'listwatch.validateContinueToken';

const title = 'Validate Continue Token';

/** Arguments (token, keyPrefix) skip the matching input boxes. Returns undefined when cancelled. */
export async function validateContinueTokenCommand(
  recent: RecentTokens,
  tokenArg?: unknown,
  keyPrefixArg?: unknown,
): Promise<ContinueTokenExplanation | undefined> {
  // Typed or pasted text is trimmed; an argument is explained exactly as given (whitespace included).
  const token =
    typeof tokenArg === 'string'
      ? tokenArg
      : (await askForToken(title, await tokenFromContext()))?.trim();
  if (token === undefined) return undefined;
  let keyPrefix: string | undefined;
  if (typeof keyPrefixArg === 'string') {
    const problem = keyPrefixProblem(keyPrefixArg);
    if (problem) throw new Error(`${validateCommandId}: key prefix argument: ${problem}`);
    keyPrefix = keyPrefixArg;
  } else {
    keyPrefix = await askForKeyPrefix(title, readKeyPrefix().keyPrefix);
  }
  if (keyPrefix === undefined) return undefined;
  return openInDecoder(token, keyPrefix, recent);
}
