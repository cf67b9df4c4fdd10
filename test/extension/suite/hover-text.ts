// Test helpers: what VS Code's hover shows for a position, as text a test can search.
import * as vscode from 'vscode';

/** CommonMark backslash escapes removed and control pictures kept, so plain values can be searched. */
export function unescapeMarkdown(markdown: string): string {
  return markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

export async function hoversAt(
  uri: vscode.Uri,
  position: vscode.Position,
): Promise<vscode.Hover[]> {
  return (
    (await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      uri,
      position,
    )) ?? []
  );
}

export function hoverMarkdown(hovers: readonly vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

/** Our hovers only: the ones that talk about a continue token. */
export function continueTokenHovers(hovers: readonly vscode.Hover[]): vscode.Hover[] {
  // The token's own hover (renderExplanationMarkdown), not the request-URL hover of the LIST it is in.
  return hovers.filter((h) => /Kubernetes continue token/.test(hoverMarkdown([h])));
}
