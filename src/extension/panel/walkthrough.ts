// What the Get Started walkthrough (package.json contributes.walkthroughs) needs beyond the
// commands it links to: the sample kubectl -v=8 log shipped in the extension, opened read-only and
// wrapped with its first continue token selected and in view (in a -v=8 log tokens sit far right),
// and a way to show one tab of the inspector. No upstream counterpart.
import * as vscode from 'vscode';
import { inspectorViews, type InspectorView } from '../../protocol';
import { findContinueTokens } from '../../scan/continue-token-scan';
import type { ExtensionLog } from '../shared/output-log';
import type { InspectorPanel } from './inspector-panel';

/** What Show Inspector View needs of the panel (the entry's InspectorPanelSlot). */
export type ShownPanel = Pick<InspectorPanel, 'show' | 'whenReady' | 'post'>;
import { showInspectorViewCommandId } from '../ids';

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

/** The sample log, opened for the walkthrough's first step. */
export class SampleLog {
  private readonly extensionUri: vscode.Uri;
  private readonly log: ExtensionLog;
  /** Documents wrapped here: the toggle is per editor and lasts while the document is open. */
  private readonly wrapped = new WeakSet<vscode.TextDocument>();

  constructor(extensionUri: vscode.Uri, log: ExtensionLog) {
    this.extensionUri = extensionUri;
    this.log = log;
  }

  async open(): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.joinPath(this.extensionUri, ...sampleLogPath);
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    // The sample belongs to the installed extension: keep it from being edited by accident.
    await vscode.commands.executeCommand('workbench.action.files.setActiveEditorReadonlyInSession');
    // A -v=8 line is long and its token sits far right: wrapped, the token shows with its line.
    const wrap = vscode.workspace.getConfiguration('editor', document).get<string>('wordWrap');
    if (wrap === 'off' && !this.wrapped.has(document)) {
      await vscode.commands.executeCommand('editor.action.toggleWordWrap');
      this.wrapped.add(document);
    }
    const token = firstTokenRange(document);
    if (token) {
      editor.selection = new vscode.Selection(token.start, token.end);
      editor.revealRange(token, vscode.TextEditorRevealType.InCenter);
    }
    const where = token
      ? `, token at line ${token.start.line + 1}, column ${token.start.character + 1} selected`
      : '';
    this.log.info(`sample opened: ${uri.scheme === 'file' ? uri.fsPath : uri.toString()}${where}`);
    return editor;
  }
}

function isInspectorView(value: unknown): value is InspectorView {
  return typeof value === 'string' && (inspectorViews as readonly string[]).includes(value);
}

/** Shows the inspector on one of its tabs (the walkthrough's "Show the Lists view"). */
export async function showInspectorViewCommand(
  inspector: ShownPanel,
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
