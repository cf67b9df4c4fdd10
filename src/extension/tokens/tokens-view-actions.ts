// The Tokens view's actions: copy a token, re-validate it against the key prefix configured now,
// clear the view. Each accepts the view's node (context menu) or plain (token[, keyPrefix[,
// origin]]) arguments (hover links, the decoder document's links, tests).
import type { KeyPrefixSource } from '../../format/explanation';
import * as vscode from 'vscode';
import type { ContinueTokenExplanation } from '../../engine';
import { assumedRequest } from './decode-command';
import type { Decoder } from './decoder';
import { recentToken, type RecentToken } from './recent-tokens';
import type { ScannedFiles } from './scanned-files';
import type { TokensViewNode } from './tokens-view';

export { copyTokenCommandId } from '../ids';

/** Where a hover link's key prefix came from (its third argument). */
export interface TokenOrigin {
  keyPrefixSource?: KeyPrefixSource;
  keyPrefixDetail?: string;
  truncated?: number;
}

function originOf(value: unknown): TokenOrigin {
  const o = (value ?? {}) as TokenOrigin;
  const out: TokenOrigin = {};
  if (typeof o.keyPrefixSource === 'string') out.keyPrefixSource = o.keyPrefixSource;
  if (typeof o.keyPrefixDetail === 'string') out.keyPrefixDetail = o.keyPrefixDetail;
  if (typeof o.truncated === 'number') out.truncated = o.truncated;
  return out;
}

/** The token a command was invoked on: a view node, or (token[, keyPrefix[, origin]]) arguments. */
export function targetToken(
  arg: unknown,
  keyPrefixArg?: unknown,
  originArg?: unknown,
): RecentToken | undefined {
  if (typeof arg === 'string') {
    if (typeof keyPrefixArg !== 'string') return assumedRequest(arg);
    return recentToken({ token: arg, keyPrefix: keyPrefixArg, ...originOf(originArg) });
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
  decoder: Decoder,
  arg: unknown,
): Promise<ContinueTokenExplanation | undefined> {
  const target = targetToken(arg);
  if (!target) return undefined;
  const again = assumedRequest(target.token);
  await decoder.recent.replace(target, again);
  return decoder.open(again, false);
}

export async function clearTokens(decoder: Decoder, files: ScannedFiles): Promise<void> {
  files.clear();
  await decoder.recent.clear();
}
