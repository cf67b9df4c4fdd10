// Hover over a continue token in a log, JSON or YAML document: how the apiserver reads it, with a
// link to open it in the decoder. Only the hovered line is read (document.lineAt), so hovering in a
// 100 MB log costs the same as in a short one.
import * as vscode from 'vscode';
import { explainContinueToken } from '../engine';
import { renderExplanationMarkdown } from '../format/explanation';
import { readKeyPrefix } from './key-prefix-setting';
import { tokenAtInWindow } from './line-window';

export const openInDecoderCommandId = 'listwatch.openInDecoder';

/**
 * Where tokens appear: kubectl -v=6/8 and audit logs, `kubectl get -o json|yaml` output. `.log` is
 * listed by pattern too, for hosts without the built-in Log language.
 */
export const continueTokenDocuments: vscode.DocumentSelector = [
  { language: 'log' },
  { language: 'plaintext' },
  { language: 'json' },
  { language: 'jsonc' },
  { language: 'yaml' },
  { pattern: '**/*.log' },
];

export function commandLink(
  title: string,
  command: string,
  args: readonly unknown[],
  tooltip: string,
): string {
  return `[${title}](command:${command}?${encodeURIComponent(JSON.stringify(args))} "${tooltip}")`;
}

export class ContinueTokenHoverProvider implements vscode.HoverProvider {
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const found = tokenAtInWindow(document.lineAt(position.line).text, position.character);
    if (!found) return undefined;
    const keyPrefix = readKeyPrefix(document.uri).keyPrefix;
    const explanation = explainContinueToken(found.token, keyPrefix);
    const markdown = new vscode.MarkdownString(renderExplanationMarkdown(explanation));
    markdown.appendMarkdown(
      `\n\n${commandLink('Open in decoder', openInDecoderCommandId, [found.token, keyPrefix], 'Show the full explanation and keep the token in the Tokens view')}`,
    );
    // Trust exactly the one command the link runs; no HTML.
    markdown.isTrusted = { enabledCommands: [openInDecoderCommandId] };
    markdown.supportHtml = false;
    return new vscode.Hover(
      markdown,
      new vscode.Range(position.line, found.start, position.line, found.end),
    );
  }
}
