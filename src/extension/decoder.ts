// The decoder: explain a token for a key prefix, remember it in the Tokens view, show the result.
// Every face of the extension that decodes (commands, hover link, tree actions) ends here.
import { explainContinueToken, type ContinueTokenExplanation } from '../engine';
import { showExplanation } from './explanation-document';
import type { RecentTokens } from './recent-tokens';

export async function openInDecoder(
  token: string,
  keyPrefix: string,
  recent: RecentTokens,
): Promise<ContinueTokenExplanation> {
  const explanation = explainContinueToken(token, keyPrefix);
  await recent.remember({ token, keyPrefix });
  await showExplanation(explanation);
  return explanation;
}
