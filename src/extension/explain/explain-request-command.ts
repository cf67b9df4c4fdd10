// "List/Watch: Explain List/Watch Request…": asks for a LIST or WATCH URL (checked as it is typed),
// explains it by running it on the engine in the default cluster state (src/explain) and shows the
// answer in one reused read-only document, "List-Watch Request" (explain-document.ts), which the
// hover on LIST/WATCH URLs in logs (request-url-hover.ts) links to as well.
import * as vscode from 'vscode';
import { explainRequest } from '../../explain/explain-request';
import { explanationLines } from '../../explain/explanation-text';
import { ExplainInputError, requestTarget } from '../../explain/request-target';
import { visibleText } from '../../format/visible-text';
import { explainRequestCommandId } from '../ids';
import type { CommandHandlers } from '../lazy-feature';
import { explainDocumentUri, type ExplainDocument } from './explain-document';

/** Why `url` cannot be explained, or undefined when it can (the input box's validation). */
export function validateRequestUrl(url: string): string | undefined {
  try {
    requestTarget(url);
    return undefined;
  } catch (e) {
    return e instanceof ExplainInputError ? e.message : String(e);
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

/** The command's handler (the entry registers the id and the document; explain-feature.ts loads this). */
export function explainCommands(doc: ExplainDocument): CommandHandlers {
  return { [explainRequestCommandId]: (arg?: unknown) => explainCommand(doc, arg) };
}
