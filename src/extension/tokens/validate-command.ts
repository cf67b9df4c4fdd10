// "List/Watch: Validate Continue Token": decode against a key prefix the user confirms or changes,
// as the apiserver serving that resource would (ValidateListOptions -> DecodeContinue). The box is
// pre-filled with the prefix the token's document gives it, else the setting.
import type { ContinueTokenExplanation } from '../../engine';
import { assumedRequest } from './decode-command';
import type { Decoder } from './decoder';
import type { DocumentTokens } from './document-tokens';
import { keyPrefixProblem } from './key-prefix-setting';
import { askForKeyPrefix, askForToken, locatedGuess, tokenFromContext } from './token-input';
import { validateCommandId } from '../ids';

const title = 'Validate Continue Token';

/** Arguments (token, keyPrefix) skip the matching input boxes. Returns undefined when cancelled. */
export async function validateContinueTokenCommand(
  decoder: Decoder,
  tokens: DocumentTokens,
  tokenArg?: unknown,
  keyPrefixArg?: unknown,
): Promise<ContinueTokenExplanation | undefined> {
  const guess = typeof tokenArg === 'string' ? undefined : await tokenFromContext(tokens);
  // Typed or pasted text is trimmed; an argument is explained exactly as given (whitespace included).
  const token =
    typeof tokenArg === 'string' ? tokenArg : (await askForToken(title, guess?.token))?.trim();
  if (token === undefined) return undefined;
  const located = locatedGuess(guess, token) ?? assumedRequest(token);
  if (typeof keyPrefixArg === 'string') {
    const problem = keyPrefixProblem(keyPrefixArg);
    if (problem) throw new Error(`${validateCommandId}: key prefix argument: ${problem}`);
    return decoder.open({ token, keyPrefix: keyPrefixArg });
  }
  const keyPrefix = await askForKeyPrefix(title, located.keyPrefix);
  if (keyPrefix === undefined) return undefined;
  // A prefix the user confirmed unchanged keeps its origin; another one is simply theirs.
  return decoder.open(keyPrefix === located.keyPrefix ? located : { token, keyPrefix });
}
