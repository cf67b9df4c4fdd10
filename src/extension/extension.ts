// The extension's entry point: registers the continue-token faces (commands, hover, Tokens view)
// over the engine. Returns a small API so the extension-host tests can read what the view shows.
import * as vscode from 'vscode';
import type { ContinueTokenExplanation } from '../engine';
import { ContinueTokenHoverProvider, continueTokenDocuments, openInDecoderCommandId } from './continue-token-hover';
import { decodeCommandId, decodeContinueTokenCommand } from './decode-command';
import { openInDecoder } from './decoder';
import { encodeCommandId, encodeContinueTokenCommand } from './encode-command';
import { ExplanationDocumentProvider, explanationScheme } from './explanation-document';
import { readKeyPrefix, watchKeyPrefixSetting, type KeyPrefixSetting } from './key-prefix-setting';
import { RecentTokens, type RecentToken } from './recent-tokens';
import { TokensViewProvider, tokensViewId, type TokensViewNode, type TokensViewRow } from './tokens-view';
import { clearTokens, clearTokensCommandId, copyToken, copyTokenCommandId, revalidateToken, revalidateTokenCommandId, targetToken } from './tokens-view-actions';
import { validateCommandId, validateContinueTokenCommand } from './validate-command';

/** What `vscode.extensions.getExtension(...).exports` offers (used by the extension-host tests). */
export interface ListwatchApi {
  /** The Tokens view as shown, every row expanded. */
  tokensViewRows(): TokensViewRow[];
  /** The view's top-level nodes, as its context-menu commands receive them. */
  tokensViewNodes(): TokensViewNode[];
  recentTokens(): RecentToken[];
  keyPrefixSetting(): KeyPrefixSetting;
}

export function activate(context: vscode.ExtensionContext): ListwatchApi {
  const recent = new RecentTokens(context.workspaceState);
  const tokensView = new TokensViewProvider(recent);
  context.subscriptions.push(
    recent,
    tokensView,
    watchKeyPrefixSetting(),
    vscode.workspace.registerTextDocumentContentProvider(explanationScheme, new ExplanationDocumentProvider()),
    vscode.languages.registerHoverProvider(continueTokenDocuments, new ContinueTokenHoverProvider()),
    vscode.window.createTreeView(tokensViewId, { treeDataProvider: tokensView, showCollapseAll: true }),
    vscode.commands.registerCommand(decodeCommandId, (token?: unknown) => decodeContinueTokenCommand(recent, token)),
    vscode.commands.registerCommand(validateCommandId, (token?: unknown, keyPrefix?: unknown) =>
      validateContinueTokenCommand(recent, token, keyPrefix)),
    vscode.commands.registerCommand(encodeCommandId, (key?: unknown, keyPrefix?: unknown, rv?: unknown) =>
      encodeContinueTokenCommand(recent, key, keyPrefix, rv)),
    vscode.commands.registerCommand(openInDecoderCommandId, (arg?: unknown, keyPrefix?: unknown): Promise<ContinueTokenExplanation> | undefined => {
      const target = targetToken(arg, keyPrefix);
      return target && openInDecoder(target.token, target.keyPrefix, recent);
    }),
    vscode.commands.registerCommand(copyTokenCommandId, (arg?: unknown) => copyToken(arg)),
    vscode.commands.registerCommand(revalidateTokenCommandId, (arg?: unknown) => revalidateToken(recent, arg)),
    vscode.commands.registerCommand(clearTokensCommandId, () => clearTokens(recent)),
  );
  return {
    tokensViewRows: () => tokensView.rows(),
    tokensViewNodes: () => tokensView.getChildren(),
    recentTokens: () => recent.list(),
    keyPrefixSetting: () => readKeyPrefix(),
  };
}

export function deactivate(): void {
  // Everything registered is in context.subscriptions and disposed by VS Code.
}
