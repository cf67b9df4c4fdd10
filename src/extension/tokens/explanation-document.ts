// The decoder's result: one read-only virtual document, "Continue Token" (scheme listwatch-token),
// reused for every decode and opened in the active editor group. It shows renderExplanationText
// for the last token decoded (kept in workspaceState, so the tab survives a reload), wraps its
// lines (language listwatch-token, editor.wordWrap on by default) and makes the token and the
// repaired token links that copy them. Everything from the token is plain text.
import * as vscode from 'vscode';
import { explainContinueToken } from '../../engine';
import { renderExplanationText } from '../../format/explanation';
import { visibleText } from '../../format/visible-text';
import { recentToken, type RecentToken } from './recent-tokens';
import { tokenTitle } from './token-title';
import { copyTokenCommandId, decoderDocumentStateKey } from '../ids';

export const explanationScheme = 'listwatch-token';
export const explanationLanguageId = 'listwatch-token';
/** The one decoder document; its path is the tab's title. */
export const explanationUri = vscode.Uri.from({
  scheme: explanationScheme,
  path: '/Continue Token',
});

/** A decode to show: the token, its key prefix and where that came from, and an optional note. */
export interface DecodeRequest extends RecentToken {
  /** A line above the explanation, e.g. what Encode built and copied. */
  note?: string;
}

const stateKey = decoderDocumentStateKey;
// VS Code applies a provider's new content asynchronously; past this the editor shows it anyway.
const contentWaitMs = 3000;

function isDecodeRequest(value: unknown): value is DecodeRequest {
  const v = value as DecodeRequest | undefined;
  return !!v && typeof v.token === 'string' && typeof v.keyPrefix === 'string';
}

export class ExplanationDocument
  implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider
{
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly memento: vscode.Memento;

  constructor(memento: vscode.Memento) {
    this.memento = memento;
  }

  /** The decode on show now, if any. */
  current(): DecodeRequest | undefined {
    const stored = this.memento.get<unknown>(stateKey);
    return isDecodeRequest(stored) ? stored : undefined;
  }

  provideTextDocumentContent(): string {
    const request = this.current();
    if (!request)
      return 'No continue token decoded yet: hover one in a log, or run List/Watch: Decode Continue Token.\n';
    const e = explainContinueToken(request.token, request.keyPrefix);
    const lines = [`Continue token ${tokenTitle(e)}`, ''];
    if (request.note) lines.push(visibleText(request.note), '');
    lines.push(
      renderExplanationText(e, {
        keyPrefixSource: request.keyPrefixSource,
        keyPrefixDetail: request.keyPrefixDetail,
        truncated: request.truncated,
      }),
    );
    return lines.join('\n') + '\n';
  }

  /** The token and the repaired token, each a link that copies it. */
  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    const request = this.current();
    if (document.uri.toString() !== explanationUri.toString() || !request) return [];
    const e = explainContinueToken(request.token, request.keyPrefix);
    const wanted: Array<[string, string, string]> = [['token:', request.token, 'Copy this token']];
    if (e.repair) wanted.push(['repaired:', e.repair.token, 'Copy the repaired token']);
    const links: vscode.DocumentLink[] = [];
    for (let line = 0; line < document.lineCount; line++) {
      const text = document.lineAt(line).text;
      for (const [label, token, tooltip] of wanted) {
        const shown = visibleText(token);
        const at = text.indexOf(shown);
        if (!text.startsWith(label) || at < 0 || shown === '') continue;
        const link = new vscode.DocumentLink(
          new vscode.Range(line, at, line, at + shown.length),
          vscode.Uri.parse(
            `command:${copyTokenCommandId}?${encodeURIComponent(JSON.stringify([token]))}`,
          ),
        );
        link.tooltip = tooltip;
        links.push(link);
      }
    }
    return links;
  }

  /** Shows `request` in the decoder document, in the active editor group. */
  async show(request: DecodeRequest): Promise<vscode.TextEditor> {
    const stored: DecodeRequest = recentToken(request);
    if (request.note !== undefined) stored.note = request.note;
    await this.memento.update(stateKey, stored);
    const expected = this.provideTextDocumentContent();
    const open = vscode.workspace.textDocuments.find(
      (d) => d.uri.toString() === explanationUri.toString(),
    );
    if (open && open.getText() !== expected) await this.refresh(open, expected);
    else this.changed.fire(explanationUri);
    let document = await vscode.workspace.openTextDocument(explanationUri);
    if (document.languageId !== explanationLanguageId)
      document = await vscode.languages.setTextDocumentLanguage(document, explanationLanguageId);
    return vscode.window.showTextDocument(document, {
      viewColumn: vscode.ViewColumn.Active,
      preview: false,
      preserveFocus: false,
    });
  }

  /** Asks VS Code for the new content and waits until the open document has it. */
  private refresh(document: vscode.TextDocument, expected: string): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      };
      const subscription = vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === document && document.getText() === expected) done();
      });
      const timer = setTimeout(done, contentWaitMs);
      this.changed.fire(explanationUri);
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
