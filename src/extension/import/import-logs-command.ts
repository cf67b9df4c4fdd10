// "List/Watch: Import Logs as Run…": log files the user picks (audit, kubectl, client-go,
// httplog) read into ImportedRequests, replayed through the engine in virtual time
// (src/replay/replay-import.ts), the run's trace written to our storage, listed in the Runs view
// and opened in the inspector; "Replay Import with What-If…" replays an import run again under
// another profile, watch cache size or WatchList, and opens the what-if beside its baseline (the
// Replay tab compares them). No upstream counterpart.
import type { ImportReport } from '../../run/import-report';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { explainRequest } from '../../explain/explain-request';
import { compareRuns } from '../../run/compare-runs';
import { importFiles } from '../../import/import-files';
import { ImportReportBuilder, explainShapes } from '../../import/import-report';
import type { ImportedRequest } from '../../run/imported-request';
import { replayToModel } from '../../replay/replay-import';
import { ReplaySpanError } from '../../replay/replay-span';
import {
  replaySummaryText,
  type ReplayOptions,
  type ReplaySummary,
} from '../../replay/replay-options';
import type { RunModel } from '../../run/run-model';
import { formatBytesRoughly } from '../../format/byte-size-text';
import { withCancellableProgress } from '../shared/cancellable-progress';
import type { CurrentRun } from '../runs/current-run';
import type { ExtensionLog } from '../shared/output-log';
import type { RunStore, StoredRun } from '../runs/run-store';
import {
  importLogsCommandId,
  importLogsFromExplorerCommandId,
  replayWhatIfCommandId,
} from '../ids';
import type { CommandHandlers } from '../lazy-feature';

/**
 * Reads log files into imported requests and their analysis (the Import tab); `onProgress` gets
 * the bytes read so far.
 */
export type ImportedRequestsReader = (
  files: readonly string[],
  o: { signal: AbortSignal; onProgress: (bytesRead: number) => void },
) => Promise<{ requests: readonly ImportedRequest[]; report?: ImportReport }>;

/** The reader the command uses: src/import's streaming importFiles into the report builder. */
export const readImportedLogs: ImportedRequestsReader = async (files, o) => {
  const builder = new ImportReportBuilder('1.36');
  const requests: ImportedRequest[] = [];
  const totals = await importFiles(
    files.map((f) => ({ path: f, name: path.basename(f) })),
    { signal: o.signal, onProgress: o.onProgress },
    {
      request: (r) => {
        builder.request(r);
        requests.push(r);
      },
      reject: (r) => builder.reject(r),
    },
  );
  const report = builder.finish(totals);
  await explainShapes(report, (url, options) =>
    explainRequest(url, { ...options, possibleErrors: false }),
  );
  return { requests, report };
};

export interface ImportLogsDeps {
  store: RunStore;
  current: CurrentRun;
  inspector: { show(preserveFocus?: boolean): void };
  log: ExtensionLog;
  /** The reader the command uses unless one is passed as its second argument (default readImportedLogs). */
  readRequests?: ImportedRequestsReader;
}

/** The imported requests of the runs imported in this session (a what-if replays them again). */
interface Imported {
  files: string[];
  requests: readonly ImportedRequest[];
  model: RunModel;
}

/** Both commands' handlers (the entry registers the ids; import-feature.ts loads this once). */
export function importLogsCommands(deps: ImportLogsDeps): CommandHandlers {
  const imported = new Map<string, Imported>();
  return {
    [importLogsCommandId]: (files?: unknown, reader?: unknown) =>
      importLogsCommand(deps, imported, files, reader),
    // The Explorer passes the clicked file and every selected one: all the selected are imported.
    [importLogsFromExplorerCommandId]: (clicked?: unknown, selected?: unknown) =>
      importLogsCommand(
        deps,
        imported,
        Array.isArray(selected) && selected.length > 0 ? selected : clicked,
      ),
    [replayWhatIfCommandId]: (arg?: unknown, whatIf?: unknown) =>
      replayWhatIfCommand(deps, imported, arg, whatIf),
  };
}

function filesOf(arg: unknown): string[] | undefined {
  const list = Array.isArray(arg) ? arg : arg === undefined ? undefined : [arg];
  if (!list) return undefined;
  const out = list.map((f) =>
    f instanceof vscode.Uri ? f.fsPath : typeof f === 'string' ? f : '',
  );
  return out.every((f) => f !== '') ? out : undefined;
}

/** Replays `requests` into a new stored run (its trace in our storage) and opens it. */
async function replayAsRun(
  deps: ImportLogsDeps,
  imported: Map<string, Imported>,
  files: string[],
  requests: readonly ImportedRequest[],
  options: Omit<ReplayOptions, 'files' | 'signal' | 'onProgress'>,
  signal: AbortSignal,
  report: (fraction: number, message: string) => void,
  title: string,
  baseline?: RunModel,
): Promise<{ run: StoredRun; summary: ReplaySummary }> {
  const { id, traceFile } = await deps.store.allocate();
  const fd = fs.openSync(traceFile, 'w');
  let buffer: string[] = [];
  const flush = (): void => {
    if (buffer.length) fs.writeSync(fd, buffer.join(''));
    buffer = [];
  };
  let result;
  try {
    result = await replayToModel(
      requests,
      {
        ...options,
        files: files.map((f) => path.basename(f)),
        signal,
        onProgress: report,
        yieldToHost: () => new Promise((r) => setImmediate(r)),
      },
      (line) => {
        buffer.push(JSON.stringify(line), '\n');
        if (buffer.length > 4096) flush();
      },
    );
    flush();
  } finally {
    fs.closeSync(fd);
    if (!result) await fs.promises.rm(traceFile, { force: true });
  }
  const { model, summary } = result;
  if (baseline) model.comparison = compareRuns(baseline, model);
  const run: StoredRun = {
    id,
    title,
    label: title,
    source: 'import',
    scenario: model.header.scenario,
    profile: model.header.profile,
    seed: model.header.seed,
    params: model.header.params,
    createdAt: new Date().toISOString(),
    durationMs: model.durationMs,
    watchers: model.watchers.length,
    lists: model.lists.length,
    rejected: model.rejected.count,
    traceFile,
    ownsTrace: true,
  };
  await deps.store.add(run, model);
  imported.set(id, { files, requests, model });
  deps.current.set({ run, model });
  deps.inspector.show(true);
  return { run, summary };
}

/** "List/Watch: Import Logs as Run…". Resolves to the run, or undefined when cancelled. */
export async function importLogsCommand(
  deps: ImportLogsDeps,
  imported: Map<string, Imported>,
  arg?: unknown,
  readerArg?: unknown,
): Promise<StoredRun | undefined> {
  let files = filesOf(arg);
  if (!files) {
    const picked = await vscode.window.showOpenDialog({
      title: 'List/Watch: Import Logs as Run',
      canSelectMany: true,
      openLabel: 'Import',
      filters: { Logs: ['log', 'json', 'jsonl', 'txt'], 'All files': ['*'] },
    });
    files = picked?.map((u) => u.fsPath);
  }
  if (!files || files.length === 0) return undefined;
  const read =
    typeof readerArg === 'function'
      ? (readerArg as ImportedRequestsReader)
      : (deps.readRequests ?? readImportedLogs);
  // A FIFO or a device has no size: progress then says how much was read, and Cancel stops it.
  const sizes = await Promise.all(
    files.map((f) => fs.promises.stat(f).then((s) => (s.isFile() ? s.size : undefined))),
  );
  const total = sizes.includes(undefined)
    ? undefined
    : sizes.reduce<number>((a, b) => a + (b ?? 0), 0);
  const names = files.map((f) => path.basename(f)).join(', ');
  const totalText = total === undefined ? 'size unknown' : formatBytesRoughly(total);
  deps.log.info(`import: ${files.length} file(s), ${totalText}: ${files.join(', ')}`);
  const chosen = files;
  const outcome = await withReplaySpanShown(() =>
    withCancellableProgress(
      `List/Watch: importing ${files.length} file(s), ${totalText}${total === undefined ? '' : ' in total'}`,
      async (signal, report) => {
        const { requests, report: analysis } = await read(chosen, {
          signal,
          onProgress: (bytes) =>
            total === undefined
              ? report(0, `read ${formatBytesRoughly(bytes)} (size unknown)`)
              : report(
                  total ? (0.5 * bytes) / total : 0.5,
                  `read ${formatBytesRoughly(bytes)} of ${formatBytesRoughly(total)}`,
                ),
        });
        return replayAsRun(
          deps,
          imported,
          chosen,
          requests,
          { profile: '1.36', seed: 1, ...(analysis ? { report: analysis } : {}) },
          signal,
          (f, m) => report(0.5 + 0.5 * f, `replaying: ${m}`),
          `Import: ${names}`,
        );
      },
    ),
  );
  if (!outcome) {
    deps.log.info(`import cancelled: ${names}`);
    return undefined;
  }
  deps.log.info(`import replayed: ${names}: ${replaySummaryText(outcome.summary)}`);
  vscode.window.setStatusBarMessage(
    `List/Watch: ${names}: ${replaySummaryText(outcome.summary)}`,
    8000,
  );
  return outcome.run;
}

/** Runs `work`; a replay refused for its span is shown as an error (its text says how to narrow it). */
async function withReplaySpanShown<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (e) {
    if (!(e instanceof ReplaySpanError)) throw e;
    void vscode.window.showErrorMessage(`List/Watch: ${e.message}`);
    return undefined;
  }
}

interface WhatIf {
  profile: '1.36' | '1.37';
  watchCacheSize?: number;
  watchList?: boolean;
}

async function askWhatIf(base: StoredRun): Promise<WhatIf | undefined> {
  const profile = await vscode.window.showQuickPick(
    [
      { label: '1.36', description: 'release-1.36 semantics' },
      { label: '1.37', description: 'the 1.37 preview (master): RangeStream, …' },
    ],
    { title: `Replay ${base.title} with what-if: profile` },
  );
  if (!profile) return undefined;
  const size = await vscode.window.showInputBox({
    title: 'Watch cache size (events in its history; empty: sized dynamically, as upstream)',
    validateInput: (v) =>
      v === '' || /^[1-9]\d*$/.test(v) ? undefined : 'a whole number ≥ 1, or empty',
  });
  if (size === undefined) return undefined;
  const watchList = await vscode.window.showQuickPick(
    [
      { label: 'WatchList off', description: 'clients LIST then WATCH, as logged' },
      {
        label: 'WatchList on',
        description: 'each LIST+WATCH becomes one watch with sendInitialEvents=true',
      },
    ],
    { title: 'WatchList' },
  );
  if (!watchList) return undefined;
  return {
    profile: profile.label as WhatIf['profile'],
    ...(size ? { watchCacheSize: Number(size) } : {}),
    ...(watchList.label === 'WatchList on' ? { watchList: true } : {}),
  };
}

function whatIfOf(arg: unknown): WhatIf | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const o = arg as Record<string, unknown>;
  if (o.profile !== '1.36' && o.profile !== '1.37') return undefined;
  return {
    profile: o.profile,
    ...(typeof o.watchCacheSize === 'number' ? { watchCacheSize: o.watchCacheSize } : {}),
    ...(o.watchList === true ? { watchList: true } : {}),
  };
}

/** "Replay Import with What-If…" on an import run (the open one, or a Runs view node). */
export async function replayWhatIfCommand(
  deps: ImportLogsDeps,
  imported: Map<string, Imported>,
  arg?: unknown,
  whatIfArg?: unknown,
): Promise<StoredRun | undefined> {
  const id =
    typeof arg === 'string'
      ? arg
      : arg && typeof arg === 'object' && 'run' in arg
        ? (arg as { run?: { id?: string } }).run?.id
        : deps.current.get()?.run.id;
  const base = id ? deps.store.get(id) : undefined;
  const source = id ? imported.get(id) : undefined;
  if (!base || base.source !== 'import' || !source) {
    void vscode.window.showInformationMessage(
      'List/Watch: open a run imported in this session ("Import Logs as Run…") to replay it with a what-if.',
    );
    return undefined;
  }
  const whatIf = whatIfOf(whatIfArg) ?? (await askWhatIf(base));
  if (!whatIf) return undefined;
  const label = [
    whatIf.profile,
    ...(whatIf.watchCacheSize !== undefined ? [`watchCacheSize=${whatIf.watchCacheSize}`] : []),
    ...(whatIf.watchList ? ['watchList=true'] : []),
  ].join(' ');
  const outcome = await withCancellableProgress(
    `List/Watch: replaying ${base.title} with what-if ${label}`,
    (signal, report) =>
      replayAsRun(
        deps,
        imported,
        source.files,
        source.requests,
        {
          ...whatIf,
          whatIf: true,
          seed: base.seed,
          ...(source.model.imported ? { report: source.model.imported } : {}),
        },
        signal,
        report,
        `${base.title} (what-if ${label})`,
        source.model,
      ),
  );
  if (!outcome) return undefined;
  deps.log.info(`what-if replayed: ${outcome.run.title}: ${replaySummaryText(outcome.summary)}`);
  return outcome.run;
}
