// Hover over a LIST or WATCH URL in a log (found as src/scan/log-line-context.ts finds them): how
// the apiserver serves it in the default cluster state, said to be an assumption, with a link to
// the full explanation (the Explain List/Watch Request command).
import * as vscode from 'vscode';
import { explainRequest } from '../../explain/explain-request';
import { requestUrlAt } from './request-url-at';
import { requestUrlHoverMarkdown } from './request-url-hover-markdown';
import { explainRequestCommandId } from '../ids';

/**
 * The URL at [start, end), with the rest of its query when Go's JSON encoder wrote '&' as \u0026
 * (audit logs): the URL scan stops at the backslash.
 */
export function withJsonEscapedQuery(
  line: string,
  start: number,
  end: number,
): { url: string; end: number } {
  if (!line.startsWith('\\u0026', end)) return { url: line.slice(start, end), end };
  const rest = /^[^\s"'<>]*/.exec(line.slice(end))?.[0] ?? '';
  return {
    url: (line.slice(start, end) + rest).replace(/\\u0026/g, '&'),
    end: end + rest.length,
  };
}

export class RequestUrlHoverProvider implements vscode.HoverProvider {
  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
  ): Promise<vscode.Hover | undefined> {
    const line = document.lineAt(position.line).text;
    const found = requestUrlAt(line, position.character);
    if (!found) return undefined;
    const { url, end } = withJsonEscapedQuery(line, found.start, found.end);
    let e;
    try {
      e = await explainRequest(url, { possibleErrors: false });
    } catch {
      return undefined;
    }
    const md = requestUrlHoverMarkdown(e, url);
    const markdown = new vscode.MarkdownString(md);
    markdown.isTrusted = { enabledCommands: [explainRequestCommandId] };
    markdown.supportHtml = false;
    return new vscode.Hover(
      markdown,
      new vscode.Range(position.line, found.start, position.line, end),
    );
  }
}
