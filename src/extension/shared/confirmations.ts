// How the extension asks before it destroys something: a modal question (Delete Run: its trace
// file goes), or an Undo offered after the fact (Clear Tokens: cheap to put back). Injectable,
// because the extension-host tests cannot answer a modal dialog: they put in an answer and check
// what the command did. No upstream counterpart.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { formatBytesRoughly } from '../../format/byte-size-text';
import type { ExtensionLog } from './output-log';
import type { RecentTokens } from '../tokens/recent-tokens';
import type { StoredRun } from '../runs/run-store';
import { plural } from '../../format/count-text';

export interface Confirmations {
  /** A modal question; true only when the user picks `action`. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** A notification saying what was done, with Undo; true when the user picks Undo. */
  offerUndo(message: string): Promise<boolean>;
}

export const undoAction = 'Undo';

/** VS Code's own dialogs and notifications. */
export const workbenchConfirmations: Confirmations = {
  async confirm(message, detail, action) {
    const picked = await vscode.window.showWarningMessage(message, { modal: true, detail }, action);
    return picked === action;
  },
  async offerUndo(message) {
    return (await vscode.window.showInformationMessage(message, undoAction)) === undoAction;
  },
};

/** The confirmations in use: the workbench's, or ones a test put in. */
export class ConfirmationsInUse implements Confirmations {
  private replacement: Partial<Confirmations> | undefined;

  /** Replaces some or all answers (tests); undefined restores the workbench's. */
  use(replacement: Partial<Confirmations> | undefined): void {
    this.replacement = replacement;
  }

  confirm(message: string, detail: string, action: string): Promise<boolean> {
    return (this.replacement?.confirm ?? workbenchConfirmations.confirm)(message, detail, action);
  }

  offerUndo(message: string): Promise<boolean> {
    return (this.replacement?.offerUndo ?? workbenchConfirmations.offerUndo)(message);
  }
}

/** Asks before a run is deleted, saying what happens to its trace file. */
export async function confirmDeleteRun(
  confirmations: Confirmations,
  run: StoredRun,
): Promise<boolean> {
  let detail: string;
  if (run.ownsTrace) {
    const size = await fs.promises.stat(run.traceFile).then(
      (s) => ` (${formatBytesRoughly(s.size)})`,
      () => '',
    );
    detail = `Its trace${size} is deleted with it; export the trace first to keep it.`;
  } else {
    detail = `The trace file ${run.traceFile} stays where it is; only the run leaves this workspace's Runs.`;
  }
  return confirmations.confirm(`Delete the run "${run.title}"?`, detail, 'Delete');
}

/**
 * Clears the Tokens view at once and offers Undo, which puts the tokens back in their order.
 * Returns how many were cleared; the Undo, when picked, is handled after the command returns.
 */
export async function clearTokensWithUndo(
  recent: RecentTokens,
  clear: () => Promise<void>,
  confirmations: Confirmations,
  log: ExtensionLog,
  /** Files Decode All scanned: cleared too (their rows and problems), without undo. */
  scannedFiles = 0,
): Promise<number> {
  const saved = recent.list();
  if (saved.length === 0 && scannedFiles === 0) {
    vscode.window.setStatusBarMessage('List/Watch: the Tokens view is already empty', 3000);
    return 0;
  }
  await clear();
  if (saved.length === 0) {
    log.info(
      `cleared ${plural(scannedFiles, 'scanned file', { plain: true })} from the Tokens view`,
    );
    return 0;
  }
  const what = plural(saved.length, 'continue token', { plain: true });
  log.info(`cleared ${what} from the Tokens view`);
  void confirmations.offerUndo(`Cleared ${what} from the Tokens view.`).then(async (undo) => {
    if (!undo) return;
    // remember() puts a token first: oldest first puts them back in their order.
    for (const entry of [...saved].reverse()) await recent.remember(entry);
    log.info(`undo: restored ${what} to the Tokens view`);
  });
  return saved.length;
}
