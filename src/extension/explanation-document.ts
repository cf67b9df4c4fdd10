// The decoder's result view: a read-only virtual document (scheme `listwatch-token`) showing
// renderExplanationText for a token and key prefix. Everything from the token is plain text.
import * as vscode from 'vscode';
import { explainContinueToken, type ContinueTokenExplanation } from '../engine';
import { renderExplanationText } from '../format/explanation';
import { tokenTitle } from './token-title';

export const explanationScheme = 'listwatch-token';

interface ExplanationRequest {
  token: string;
  keyPrefix: string;
}

// The request travels in the URI so that the document can be recomputed after a reload. base64url
// keeps arbitrary token text (which may hold '%', '+', '#', '?') out of URI escaping entirely.
function encodeRequest(request: ExplanationRequest): string {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeRequest(query: string): ExplanationRequest | undefined {
  try {
    const binary = atob(query.replace(/-/g, '+').replace(/_/g, '/'));
    const parsed: unknown = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    );
    if (
      parsed &&
      typeof parsed === 'object' &&
      typeof (parsed as ExplanationRequest).token === 'string' &&
      typeof (parsed as ExplanationRequest).keyPrefix === 'string'
    ) {
      return parsed as ExplanationRequest;
    }
  } catch {
    /* fall through: not one of ours */
  }
  return undefined;
}

export function explanationUri(token: string, keyPrefix: string): vscode.Uri {
  // The path only names the tab (a '/' in it would make folders: use the look-alike U+2215); the
  // query carries the request.
  const title = `Continue token ${tokenTitle(explainContinueToken(token, keyPrefix))}`.replace(
    /[/\\]/g,
    '\u2215',
  );
  return vscode.Uri.from({
    scheme: explanationScheme,
    path: `/${title}.txt`,
    query: encodeRequest({ token, keyPrefix }),
  });
}

export class ExplanationDocumentProvider implements vscode.TextDocumentContentProvider {
  provideTextDocumentContent(uri: vscode.Uri): string {
    const request = decodeRequest(uri.query);
    if (!request)
      return `This ${explanationScheme} document's address does not hold a token: ${uri.toString()}\n`;
    return renderExplanationText(explainContinueToken(request.token, request.keyPrefix));
  }
}

/** Opens (or reveals) the explanation document beside the current editor. */
export async function showExplanation(
  explanation: ContinueTokenExplanation,
): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(
    explanationUri(explanation.token, explanation.keyPrefix),
  );
  return vscode.window.showTextDocument(document, {
    viewColumn: vscode.window.activeTextEditor
      ? vscode.ViewColumn.Beside
      : vscode.ViewColumn.Active,
    preview: true,
    preserveFocus: false,
  });
}
