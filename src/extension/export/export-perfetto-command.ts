// "List/Watch: Export Run to Perfetto…": the run the inspector shows (scenario, live, trace or
// import) as Chrome Trace Event JSON (src/export/perfetto-trace.ts), to a file a save dialog picks
// (or the command's argument). Streams to the file; a big run shows progress and can be cancelled.
// No upstream counterpart.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { perfettoTraceSize, writePerfettoTrace } from '../../export/perfetto-trace';
import { visibleText } from '../../format/visible-text';
import type { RunModel } from '../../run/run-model';
import { withCancellableProgress } from '../shared/cancellable-progress';
import type { CurrentRun } from '../runs/current-run';
import type { ExtensionLog } from '../shared/output-log';
import type { StoredRun } from '../runs/run-store';
import { exportPerfettoCommandId } from '../ids';
import type { CommandHandlers } from '../lazy-feature';

/** Above this many events the export shows a notification with progress and Cancel. */
const progressAboveEvents = 50_000;

export interface ExportPerfettoDeps {
  current: CurrentRun;
  log: ExtensionLog;
}

function fileStem(run: StoredRun): string {
  return run.source === 'trace'
    ? path.basename(run.traceFile).replace(/\.[^.]*$/, '')
    : `${run.scenario}-seed${run.seed}`;
}

function abortError(): Error {
  const e = new Error('the export was cancelled');
  e.name = 'AbortError';
  return e;
}

/** Streams the export to a local file, waiting for the stream to drain. */
async function writeToFile(
  model: RunModel,
  file: string,
  signal: AbortSignal,
  onEvents: (written: number) => void,
): Promise<void> {
  const out = fs.createWriteStream(file, { encoding: 'utf8' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  try {
    await Promise.race([
      writePerfettoTrace(
        model,
        (chunk) => {
          if (signal.aborted) throw abortError();
          if (out.write(chunk)) return;
          return new Promise<void>((resolve) => out.once('drain', resolve));
        },
        onEvents,
      ),
      failed,
    ]);
    await new Promise<void>((resolve, reject) =>
      out.end((e?: Error | null) => (e ? reject(e) : resolve())),
    );
  } catch (e) {
    out.destroy();
    // A cancelled or failed export leaves no half-written file behind.
    await fs.promises.rm(file, { force: true });
    throw e;
  }
}

/** Any other file system (a remote workspace): the text is gathered, then written at once. */
async function writeToUri(model: RunModel, target: vscode.Uri, signal: AbortSignal): Promise<void> {
  const chunks: string[] = [];
  await writePerfettoTrace(model, (chunk) => {
    if (signal.aborted) throw abortError();
    chunks.push(chunk);
  });
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(chunks.join('')));
}

export async function exportPerfettoCommand(
  deps: ExportPerfettoDeps,
  destination?: unknown,
): Promise<string | undefined> {
  const open = deps.current.get();
  if (!open) {
    void vscode.window.showInformationMessage(
      'List/Watch: no run is open. Run a scenario, open a trace or a live run first.',
    );
    return undefined;
  }
  const { run, model } = open;
  let target =
    destination instanceof vscode.Uri
      ? destination
      : typeof destination === 'string' && destination !== ''
        ? vscode.Uri.file(destination)
        : undefined;
  if (!target) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    target = await vscode.window.showSaveDialog({
      title: `List/Watch: Export ${run.title} to Perfetto (Chrome Trace Event JSON)`,
      defaultUri: folder
        ? vscode.Uri.joinPath(folder, `${fileStem(run)}.perfetto.json`)
        : undefined,
      filters: { 'Chrome Trace Event JSON': ['json'] },
      saveLabel: 'Export',
    });
  }
  if (!target) return undefined;
  const to = target;
  const size = perfettoTraceSize(model);
  deps.log.info(
    `exporting ${run.title} to Perfetto: ${size.events} trace events (${size.watchers} watchers, ${size.clients} clients, ${size.lists} LISTs, ${size.flows} write→read arrows) to ${to.fsPath}`,
  );
  try {
    const done = await withCancellableProgress(
      `List/Watch: exporting ${size.events} trace events to ${path.basename(to.fsPath)}`,
      async (signal, report) => {
        const onEvents = (written: number): void =>
          report(written / Math.max(1, size.events), `${written} of ${size.events} events`);
        if (to.scheme === 'file') await writeToFile(model, to.fsPath, signal, onEvents);
        else await writeToUri(model, to, signal);
        return to.fsPath;
      },
      undefined,
      { quick: size.events <= progressAboveEvents },
    );
    if (done === undefined) {
      deps.log.info(`export of ${run.title} to Perfetto cancelled`);
      return undefined;
    }
    deps.log.info(`${run.title} exported to Perfetto: ${done}`);
    void vscode.window.showInformationMessage(
      `List/Watch: exported ${size.events} trace events to ${done}. Open it at ui.perfetto.dev ("Open trace file") or in chrome://tracing.`,
    );
    return done;
  } catch (error) {
    const text = visibleText(error instanceof Error ? error.message : String(error));
    deps.log.error(`exporting ${run.title} to Perfetto: ${text}`);
    void vscode.window.showErrorMessage(
      `List/Watch: exporting ${run.title} to ${to.fsPath}: ${text}`,
    );
    return undefined;
  }
}

/** The command's handler (the entry registers the id; export-feature.ts loads this). */
export function exportPerfettoCommands(deps: ExportPerfettoDeps): CommandHandlers {
  return {
    [exportPerfettoCommandId]: (destination?: unknown) => exportPerfettoCommand(deps, destination),
  };
}
