// What the Get Started walkthrough (package.json contributes.walkthroughs) needs beyond the
// commands it links to: the sample kubectl -v=8 log shipped in the extension, opened read-only
// with its first continue token selected and in view (in a -v=8 log tokens sit far right), and a
// way to show one tab of the inspector. No upstream counterpart.
import * as vscode from 'vscode';
import { inspectorViews, type InspectorView } from '../protocol';
import { findContinueTokens } from '../scan/continue-token-scan';
import type { ExtensionLog } from './output-log';
import type { Inspector } from './panel/inspector-panel';

export const walkthroughId = 'listwatch.gettingStarted';
export const openSampleLogCommandId = 'listwatch.openSampleLog';
export const showInspectorViewCommandId = 'listwatch.showInspectorView';

/** The sample's path inside the extension (listed in .vscodeignore's allow-list). */
export const sampleLogPath = ['samples', 'kubectl-v8.log'] as const;

/** The first continue token of a document, as a range. */
export function firstTokenRange(document: vscode.TextDocument): vscode.Range | undefined {
  for (let line = 0; line < document.lineCount; line++) {
    const [found] = findContinueTokens(document.lineAt(line).text);
    if (found) return new vscode.Range(line, found.start, line, found.end);
  }
  return undefined;
}

export async function openSampleLogCommand(
  extensionUri: vscode.Uri,
  log: ExtensionLog,
): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.joinPath(extensionUri, ...sampleLogPath);
  const document = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  // The sample belongs to the installed extension: keep it from being edited by accident.
  await vscode.commands.executeCommand('workbench.action.files.setActiveEditorReadonlyInSession');
  const token = firstTokenRange(document);
  if (token) {
    editor.selection = new vscode.Selection(token.start, token.end);
    editor.revealRange(token, vscode.TextEditorRevealType.InCenter);
  }
  log.info(
    `sample opened: ${uri.scheme === 'file' ? uri.fsPath : uri.toString()}${token ? `, token at line ${token.start.line + 1}, column ${token.start.character + 1} selected` : ''}`,
  );
  return editor;
}

function isInspectorView(value: unknown): value is InspectorView {
  return typeof value === 'string' && (inspectorViews as readonly string[]).includes(value);
}

/** Shows the inspector on one of its tabs (the walkthrough's "Show the Lists view"). */
export async function showInspectorViewCommand(
  inspector: Inspector,
  view: unknown,
): Promise<InspectorView> {
  if (!isInspectorView(view))
    throw new Error(
      `${showInspectorViewCommandId}: expected one of ${inspectorViews.join(', ')}, got ${JSON.stringify(view)}`,
    );
  inspector.show(true);
  await inspector.whenReady();
  inspector.post({ type: 'view/show', view });
  return view;
}
