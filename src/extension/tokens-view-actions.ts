// The Tokens view's actions: copy a token, re-validate it against the current key prefix, clear
// the list. Each accepts the view's node (context menu) or a plain (token, keyPrefix) pair (tests).
import * as vscode from 'vscode';
import { explainContinueToken, type ContinueTokenExplanation } from '../engine';
import { showExplanation } from './explanation-document';
import { readKeyPrefix } from './key-prefix-setting';
import type { RecentToken, RecentTokens } from './recent-tokens';
import type { TokensViewNode } from './tokens-view';

export const copyTokenCommandId = 'listwatch.copyToken';
export const revalidateTokenCommandId = 'listwatch.revalidateToken';
export const clearTokensCommandId = 'listwatch.clearTokens';

/** The token a command was invoked on: a view node, or (token[, keyPrefix]) arguments. */
export function targetToken(arg: unknown, keyPrefixArg?: unknown): RecentToken | undefined {
  if (typeof arg === 'string') {
    return {
      token: arg,
      keyPrefix: typeof keyPrefixArg === 'string' ? keyPrefixArg : readKeyPrefix().keyPrefix,
    };
  }
  const node = arg as TokensViewNode | undefined;
  if (node && typeof node === 'object') {
    if (node.kind === 'token') return node.entry;
    if (node.kind === 'field') return node.parent;
  }
  return undefined;
}

export async function copyToken(arg: unknown): Promise<string | undefined> {
  const target = targetToken(arg);
  if (!target) return undefined;
  await vscode.env.clipboard.writeText(target.token);
  vscode.window.setStatusBarMessage('List/Watch: continue token copied', 3000);
  return target.token;
}

/**
 * Explains the token again with the key prefix configured now (it may have changed since it was
 * decoded) and shows the result; the view's entry moves to the new prefix.
 */
export async function revalidateToken(
  recent: RecentTokens,
  arg: unknown,
): Promise<ContinueTokenExplanation | undefined> {
  const target = targetToken(arg);
  if (!target) return undefined;
  const keyPrefix = readKeyPrefix().keyPrefix;
  const explanation = explainContinueToken(target.token, keyPrefix);
  await recent.replace(target, { token: target.token, keyPrefix });
  await showExplanation(explanation);
  return explanation;
}

export async function clearTokens(recent: RecentTokens): Promise<void> {
  await recent.clear();
}
