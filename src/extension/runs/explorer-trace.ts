// "Open in List/Watch Inspector" on a file in the Explorer: the menu offers it for every *.jsonl
// (a `when` can only see the name); the command reads the file's header before anything else and
// says plainly when the file is not a List/Watch trace. No upstream counterpart.
import * as vscode from 'vscode';
import { traceFormat, validateHeader } from '../../run/trace/trace-format';
import { fileLines } from './run-engine';
import { openTraceCommand, type RunCommandDeps } from './run-commands';
import type { StoredRun } from './run-store';

/** Why the file is not a trace ("line N: …"), or undefined when its header is one. */
export async function traceHeaderProblem(file: string): Promise<string | undefined> {
  let line = 0;
  for await (const text of fileLines(file)) {
    line++;
    if (text.trim() === '') continue;
    try {
      validateHeader(JSON.parse(text), line);
      return undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return error instanceof SyntaxError ? `line ${line}: not JSON (${message})` : message;
    }
  }
  return 'the file is empty';
}

export async function openTraceInInspectorCommand(
  deps: RunCommandDeps,
  arg?: unknown,
): Promise<StoredRun | undefined> {
  // From the palette (no file), it is Open Trace… with its dialog.
  if (!(arg instanceof vscode.Uri) || arg.scheme !== 'file') return openTraceCommand(deps, arg);
  const problem = await traceHeaderProblem(arg.fsPath).catch((error: unknown) =>
    error instanceof Error ? error.message : String(error),
  );
  if (problem) {
    const message = `${vscode.workspace.asRelativePath(arg)} is not a List/Watch trace (${problem}); a trace starts with a header line {"format":"${traceFormat}",…}.`;
    deps.log.warn(`open in inspector: ${arg.fsPath}: ${problem}`);
    void vscode.window.showWarningMessage(`List/Watch: ${message}`);
    return undefined;
  }
  return openTraceCommand(deps, arg);
}
