// Hover over a continue token in a log, JSON, YAML, Markdown or Go document: how the apiserver
// reads it against its LIST's key prefix (from the URL, audit objectRef, the request a Response
// Body answers, or the list object; else the setting, labelled assumed), with actions on top. The
// languages come from listwatch.hover.languages; a big document is read only around the token.
import * as vscode from 'vscode';
import { explainContinueToken } from '../../engine';
import { renderExplanationMarkdown } from '../../format/explanation';
import { copyTokenCommandId } from './tokens-view-actions';
import type { DocumentTokens, TokenDocument } from './document-tokens';
import { tokenContextOptions } from './key-prefix-setting';
import { openInDecoderCommandId, hoverLanguagesSettingId } from '../ids';
import { commandLink } from '../shared/command-link';

/** Where tokens appear by default: kubectl -v=6/8 and audit logs, `kubectl get -o json|yaml`, notes and code. */
export const defaultHoverLanguages: readonly string[] = [
  'log',
  'plaintext',
  'json',
  'jsonc',
  'yaml',
  'markdown',
  'go',
];

/** The documents the hover serves: the configured languages, and `.log` files by name (hosts without the Log language). */
export function hoverDocumentSelector(): vscode.DocumentSelector {
  const configured = vscode.workspace
    .getConfiguration()
    .get<unknown>(hoverLanguagesSettingId, defaultHoverLanguages);
  const languages = Array.isArray(configured)
    ? configured.filter((l): l is string => typeof l === 'string' && l !== '')
    : [...defaultHoverLanguages];
  return [...languages.map((language) => ({ language })), { pattern: '**/*.log' }];
}

export class ContinueTokenHoverProvider implements vscode.HoverProvider {
  private readonly tokens: DocumentTokens;

  constructor(tokens: DocumentTokens) {
    this.tokens = tokens;
  }

  provideHover(document: TokenDocument, position: vscode.Position): vscode.Hover | undefined {
    const found = this.tokens.at(document, position, tokenContextOptions(document.uri));
    if (!found) return undefined;
    const explanation = explainContinueToken(found.token, found.keyPrefix);
    const origin = {
      keyPrefixSource: found.keyPrefixSource,
      keyPrefixDetail: found.detail,
      ...(found.truncated === undefined ? {} : { truncated: found.truncated }),
    };
    const actions = [
      commandLink(
        'Open in Decoder',
        openInDecoderCommandId,
        [found.token, found.keyPrefix, origin],
        'Show the whole explanation and keep the token in the Tokens view',
      ),
      commandLink('Copy Token', copyTokenCommandId, [found.token], 'Copy the token as it is'),
    ];
    if (explanation.repair?.valid) {
      actions.push(
        commandLink(
          'Copy Repaired Token',
          copyTokenCommandId,
          [explanation.repair.token],
          'Copy the token with the copy/paste damage undone',
        ),
      );
    }
    const markdown = new vscode.MarkdownString(
      renderExplanationMarkdown(explanation, origin, actions.join(' · ')),
    );
    // Trust exactly the commands the links run; no HTML.
    markdown.isTrusted = { enabledCommands: [openInDecoderCommandId, copyTokenCommandId] };
    markdown.supportHtml = false;
    return new vscode.Hover(
      markdown,
      new vscode.Range(position.line, found.start, position.line, found.end),
    );
  }
}
