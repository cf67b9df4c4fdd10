// "List/Watch: Explain List/Watch Request…": asks for a LIST or WATCH URL (checked as it is typed),
// explains it by running it on the engine in the default cluster state (src/explain) and shows the
// answer in one reused read-only document, "List-Watch Request". Also registers the hover on
// LIST/WATCH URLs in logs (request-url-hover.ts), whose link opens the same document.
import * as vscode from 'vscode';
import { explainRequest } from '../../explain/explain-request';
import { explanationLines } from '../../explain/explanation-text';
import { ExplainInputError, requestTarget } from '../../explain/request-target';
import { visibleText } from '../../format/visible-text';
import { explainRequestCommandId } from '../ids';
import { RequestUrlHoverProvider } from './request-url-hover';
import { hoverDocumentSelector } from '../tokens/continue-token-hover';

export const explainDocumentScheme = 'listwatch-explain';
/** The one explanation document; its path is the tab's title. */
export const explainDocumentUri = vscode.Uri.from({
  scheme: explainDocumentScheme,
  path: '/List-Watch Request',
});

/** Why `url` cannot be explained, or undefined when it can (the input box's validation). */
export function validateRequestUrl(url: string): string | undefined {
  try {
    requestTarget(url);
    return undefined;
  } catch (e) {
    return e instanceof ExplainInputError ? e.message : String(e);
  }
}

class ExplainDocument implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private text = 'No request explained yet: run List/Watch: Explain List/Watch Request….\n';

  provideTextDocumentContent(): string {
    return this.text;
  }

  show(text: string): void {
    this.text = text;
    this.changed.fire(explainDocumentUri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

async function explainCommand(doc: ExplainDocument, arg: unknown): Promise<void> {
  let url = typeof arg === 'string' ? arg : undefined;
  if (url === undefined) {
    url = await vscode.window.showInputBox({
      title: 'Explain List/Watch Request',
      prompt: 'A LIST or WATCH URL or path, e.g. /api/v1/namespaces/default/pods?limit=500',
      placeHolder: '/api/v1/namespaces/default/pods?watch=true&resourceVersion=5',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? undefined : validateRequestUrl(value)),
    });
    if (url === undefined || url.trim() === '') return;
  }
  const invalid = validateRequestUrl(url);
  if (invalid !== undefined) {
    void vscode.window.showErrorMessage(`Explain List/Watch Request: ${visibleText(invalid)}`);
    return;
  }
  const explanation = await explainRequest(url);
  // Everything from the URL is shown as plain, visible text.
  doc.show(
    explanationLines(explanation)
      .map((l) => visibleText(l))
      .join('\n') + '\n',
  );
  const document = await vscode.workspace.openTextDocument(explainDocumentUri);
  await vscode.window.showTextDocument(document, { preview: true });
}

/** Registers the command, its document and the hover on LIST/WATCH URLs. */
export function registerExplainRequest(context: vscode.ExtensionContext): void {
  const doc = new ExplainDocument();
  context.subscriptions.push(
    doc,
    vscode.workspace.registerTextDocumentContentProvider(explainDocumentScheme, doc),
    vscode.commands.registerCommand(explainRequestCommandId, (arg?: unknown) =>
      explainCommand(doc, arg),
    ),
    vscode.languages.registerHoverProvider(hoverDocumentSelector(), new RequestUrlHoverProvider()),
  );
}
