// No upstream counterpart: the one read-only "List-Watch Request" document Explain List/Watch
// Request shows its answer in (registered at activation, filled by the explain chunk).
import * as vscode from 'vscode';

export const explainDocumentScheme = 'listwatch-explain';
/** The one explanation document; its path is the tab's title. */
export const explainDocumentUri = vscode.Uri.from({
  scheme: explainDocumentScheme,
  path: '/List-Watch Request',
});

export class ExplainDocument implements vscode.TextDocumentContentProvider {
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
