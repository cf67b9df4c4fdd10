// The files Decode All Tokens in File has read: each token with its key prefix and place, shown
// in the Tokens view as file:line links, and each invalid one reported in the Problems panel (one
// DiagnosticCollection). A file's entry and problems go when it is edited (they would be stale),
// read again, or when the view is cleared.
import * as vscode from 'vscode';
import { explainContinueToken, type ContinueTokenExplanation } from '../../engine';
import { truncationNote } from '../../format/explanation';
import { visibleText } from '../../format/visible-text';
import type { ContextualToken } from '../../scan/continue-token-context';

export interface ScannedToken {
  found: ContextualToken;
  explanation: ContinueTokenExplanation;
}

export interface ScannedFile {
  uri: vscode.Uri;
  /** The file's name, as the view and messages show it. */
  name: string;
  tokens: ScannedToken[];
  invalid: number;
}

// Problems past this many per file add nothing a reader can use (the view lists every token).
export const maxProblemsPerFile = 1000;

export function fileName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() || uri.toString();
}

function problem(t: ScannedToken): vscode.Diagnostic {
  const { found, explanation: e } = t;
  const range = new vscode.Range(found.line, found.start, found.line, found.end);
  const origin =
    found.keyPrefixSource === 'setting'
      ? `key prefix ${found.keyPrefix} assumed`
      : `key prefix ${found.keyPrefix} from ${found.detail}`;
  const message =
    found.truncated !== undefined
      ? `Continue token cut short: ${truncationNote(found.truncated)}`
      : `Continue token refused (400 Bad Request): ${e.error?.message ?? 'invalid'} (${origin})`;
  const diagnostic = new vscode.Diagnostic(
    range,
    visibleText(message),
    found.truncated !== undefined
      ? vscode.DiagnosticSeverity.Warning
      : vscode.DiagnosticSeverity.Error,
  );
  diagnostic.source = 'List/Watch';
  if (e.error) diagnostic.code = e.error.reason;
  return diagnostic;
}

export class ScannedFiles {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  readonly diagnostics = vscode.languages.createDiagnosticCollection('listwatch');
  private readonly files = new Map<string, ScannedFile>();
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0) this.forget(event.document.uri);
    });
  }

  /** Newest first. */
  list(): ScannedFile[] {
    return [...this.files.values()].reverse();
  }

  /** Records what a file holds (replacing an earlier read of it) and reports its invalid tokens. */
  set(uri: vscode.Uri, found: readonly ContextualToken[]): ScannedFile {
    const tokens = found.map((t) => ({
      found: t,
      explanation: explainContinueToken(t.token, t.keyPrefix),
    }));
    const file: ScannedFile = {
      uri,
      name: fileName(uri),
      tokens,
      invalid: tokens.filter((t) => !t.explanation.valid).length,
    };
    this.files.delete(uri.toString());
    this.files.set(uri.toString(), file);
    this.diagnostics.set(
      uri,
      tokens
        .filter((t) => !t.explanation.valid)
        .slice(0, maxProblemsPerFile)
        .map(problem),
    );
    this.changed.fire();
    return file;
  }

  forget(uri: vscode.Uri): void {
    if (!this.files.delete(uri.toString())) return;
    this.diagnostics.delete(uri);
    this.changed.fire();
  }

  clear(): void {
    this.files.clear();
    this.diagnostics.clear();
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.diagnostics.dispose();
    this.changed.dispose();
  }
}
