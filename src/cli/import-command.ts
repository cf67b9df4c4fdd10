// `listwatch import FILE…`: reads audit, kubectl, client-go and httplog files (import-files.ts),
// folds every request into an ImportReport (import-report.ts), asks the explainer how each request
// shape would be served under the profile, and prints the report (text, or one JSON object with
// --json). Rejected lines are counted and shown, not a failure. The reader and the explainer are
// passed in (importCommandWith), so the command's parsing, checks and output stand on their own.
import type { ImportProfile, ImportReport } from '../run/import-report';
import { accessSync, constants, statSync } from 'node:fs';
import { visibleText } from '../format/visible-text';
import type { ImportFormat, ImportedRequest } from '../run/imported-request';
import {
  ImportReportBuilder,
  explainShapes,
  type ExplainRequest,
  type ImportTotals,
} from '../import/import-report';
import { explainRequest } from '../explain/explain-request';
import {
  defaultMaxLineBytes,
  importFiles as readFiles,
  type ImportSink,
} from '../import/import-files';
import { parseArgs, type OptionSpec } from './args';
import { ReplaySpanError, maxReplaySpanMs, spanText } from '../replay/replay-span';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';
import { renderImportReport } from './import-report-text';
import {
  importReplayHelp,
  importReplayOptionSpecs,
  parseImportReplayFlags,
  runImportReplay,
  type ImportReplayFlags,
} from './import-replay-options';
import { formatBytes } from '../format/byte-size-text';
import { plural } from '../format/count-text';

/** What import-files.ts's importFiles is handed besides the files. */
export interface ImportFilesOptions {
  /** The year klog timestamps are read in (--year). */
  year?: number;
  /** Read every file as this format instead of detecting it (--format). */
  format?: ImportFormat;
  /** Bytes read so far of all files, for progress on big inputs. */
  onProgress?: (bytesRead: number) => void;
  /** Stops the read (Ctrl-C). */
  signal?: AbortSignal;
}

export type ImportFiles = (
  files: string[],
  options: ImportFilesOptions,
  sink: ImportSink,
) => Promise<ImportTotals>;

export interface ImportCommandDeps {
  importFiles?: ImportFiles;
  explainRequest?: ExplainRequest;
}

const formats: readonly ImportFormat[] = ['audit', 'kubectl', 'client-go', 'httplog'];
const profiles: readonly ImportProfile[] = ['1.36', '1.37'];

/** Inputs this big get progress lines on stderr. */
export const progressThresholdBytes = 64 * 1024 * 1024;

const help = `Usage: listwatch import FILE… [--json] [--profile 1.36|1.37] [--year N] [--format F]
                        [--trace OUT.jsonl [--what-if K=V,… [--compare]]]

Imports the logs a cluster already has and tells the storage-level story of its
clients: audit.k8s.io/v1 events (kube-apiserver --audit-log-path, any level and
stage), kubectl -v=6..9 logs, client-go reflector and round-tripper lines, and
apiserver httplog lines. Several files are merged into one timeline (by audit ID
where lines carry it).

Per client (user agent): its requests by verb and code, 410/429/504 counts, its
LIST pagination chains (continue tokens decoded with storage.DecodeContinue and
linked page to page, the 410 Expired and the restart), its watches (how long, how
they ended; watches that began before the log or were open at its end are counted,
never given a length), its relists, and latency from the stage timestamps. Then
relist storms (one client again and again, or many clients at once) and how each
request shape would be served under the profile.

Options:
  --json          print one ImportReport object instead of text
  --profile P     the semantics to explain requests under: 1.36 (default) or 1.37
  --year N        the year klog timestamps (I0312 10:15:07: no year) are read in, UTC;
                  default: the year nearest the first date of an audit log (or dated
                  httplog) imported with them, else each file's modification year
  --format F      read every file as F (${formats.join(', ')}) instead of detecting it
  -h, --help      show this help

Replaying the requests through the engine (the log's answer beside the engine's):
${importReplayHelp}

Rejected lines are counted and shown with their file and line; they do not fail
the import. A file with no line end in its first ${formatBytes(defaultMaxLineBytes, 'GiB')} (the longest line read) is
refused; an input with no size (a FIFO, /dev/stdin) shows how much was read every
${formatBytes(progressThresholdBytes, 'GiB')}, and Ctrl-C stops it. Exit status: 0 imported, 2 usage error (a bad option, a
file that cannot be read), 1 reading failed part-way or a file refused, or a --trace
replay refused because the requests span more than ${spanText(maxReplaySpanMs)} of log time (the
report is printed; the message names each file's times), 130 Ctrl-C.`;

const specs: OptionSpec[] = [
  { name: 'json', value: false },
  { name: 'profile', value: true },
  { name: 'year', value: true },
  { name: 'format', value: true },
  { name: 'help', value: false, short: 'h' },
  // --profile is the import's own: the replay runs under the same one.
  ...importReplayOptionSpecs.filter((o) => o.name !== 'profile'),
];

/**
 * The files' sizes (undefined: a FIFO or a device, which has none); a missing, unreadable file or
 * a directory is a usage error naming it.
 */
function inputSizes(files: string[]): Array<number | undefined> {
  return files.map((f) => {
    let size: number | undefined;
    try {
      const st = statSync(f);
      if (st.isDirectory()) throw new UsageError(`${f} is a directory, not a log file`);
      size = st.isFile() ? st.size : undefined;
      accessSync(f, constants.R_OK);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'ENOENT'
          ? `no such file: ${f}`
          : `cannot read ${f}: ${code ?? (e instanceof Error ? e.message : String(e))}`,
      );
    }
    return size;
  });
}

interface ParsedImport {
  files: string[];
  json: boolean;
  profile: ImportProfile;
  year?: number;
  format?: ImportFormat;
  replay?: ImportReplayFlags;
}

function parse(args: string[]): ParsedImport | 'help' {
  const { options, positionals } = parseArgs(args, specs);
  if (options.has('help')) return 'help';
  if (positionals.length === 0) throw new UsageError('expected at least one FILE to import');
  const profile = (options.get('profile') as string | undefined) ?? '1.36';
  if (!(profiles as readonly string[]).includes(profile))
    throw new UsageError(
      `--profile must be one of ${profiles.join(', ')}, got ${JSON.stringify(profile)}`,
    );
  const parsed: ParsedImport = {
    files: positionals,
    json: options.has('json'),
    profile: profile as ImportProfile,
  };
  const replay = parseImportReplayFlags(options);
  if (replay) parsed.replay = replay;
  const year = options.get('year') as string | undefined;
  if (year !== undefined) {
    if (!/^\d{4}$/.test(year) || Number(year) < 1970)
      throw new UsageError(`--year must be a year such as 2025, got ${JSON.stringify(year)}`);
    parsed.year = Number(year);
  }
  const format = options.get('format') as string | undefined;
  if (format !== undefined) {
    if (!(formats as readonly string[]).includes(format))
      throw new UsageError(
        `--format must be one of ${formats.join(', ')}, got ${JSON.stringify(format)}`,
      );
    parsed.format = format as ImportFormat;
  }
  return parsed;
}

/** Reads the files into a report (the command's work without its output). */
export async function importReport(
  p: { files: string[]; profile: ImportProfile; year?: number; format?: ImportFormat },
  deps: Required<Pick<ImportCommandDeps, 'importFiles'>> & ImportCommandDeps,
  progress?: (bytesRead: number) => void,
  onRequest?: (r: ImportedRequest) => void,
  signal?: AbortSignal,
): Promise<ImportReport> {
  const builder = new ImportReportBuilder(p.profile);
  const sink: ImportSink = onRequest
    ? {
        request: (r) => {
          builder.request(r);
          onRequest(r);
        },
        reject: (r) => builder.reject(r),
        watchOpened: (fields) => builder.watchOpened(fields),
      }
    : builder;
  const options: ImportFilesOptions = {
    ...(p.year !== undefined ? { year: p.year } : {}),
    ...(p.format !== undefined ? { format: p.format } : {}),
    ...(progress ? { onProgress: progress } : {}),
    ...(signal ? { signal } : {}),
  };
  const totals = await deps.importFiles(p.files, options, sink);
  const report = builder.finish(totals);
  if (deps.explainRequest) await explainShapes(report, deps.explainRequest);
  return report;
}

/** The read was stopped by Ctrl-C. */
class ImportInterrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

/** 128 + SIGINT, as a shell reports a process Ctrl-C ended. */
const exitInterrupted = 130;

export function importCommandWith(deps: ImportCommandDeps): CliCommand {
  return {
    name: 'import',
    summary: 'import audit, kubectl, client-go and httplog files: clients, chains, relists, storms',
    help,
    async run(args: string[], io: CliIo): Promise<number> {
      const p = parse(args);
      if (p === 'help') {
        io.out(help + '\n');
        return exitOk;
      }
      const sizes = inputSizes(p.files);
      const unsized = p.files.filter((_, i) => sizes[i] === undefined);
      const total = sizes.reduce<number>((a, b) => a + (b ?? 0), 0);
      const importFiles = deps.importFiles;
      if (!importFiles) {
        io.err('listwatch import: this build has no log reader (src/import/import-files.ts)\n');
        return exitInvalid;
      }
      io.err(
        `listwatch import: reading ${plural(p.files.length, 'file', { plain: true })}, ${unsized.length ? `size unknown (${unsized.join(', ')} ${unsized.length === 1 ? 'has' : 'have'} none)` : formatBytes(total, 'GiB')}\n`,
      );
      // A line per tenth of a big input: enough to see it move, few enough to read. An input
      // with no size (a FIFO, a device) may never end: a line per progressThresholdBytes read.
      let nextTenth = 1;
      let nextUnsized = progressThresholdBytes;
      const progress = unsized.length
        ? (bytesRead: number) => {
            if (bytesRead < nextUnsized) return;
            nextUnsized =
              (Math.floor(bytesRead / progressThresholdBytes) + 1) * progressThresholdBytes;
            io.err(
              `listwatch import: read ${formatBytes(bytesRead, 'GiB')} (size unknown); Ctrl-C stops\n`,
            );
          }
        : total >= progressThresholdBytes
          ? (bytesRead: number) => {
              while (bytesRead >= (total * nextTenth) / 10 && nextTenth <= 10) {
                io.err(
                  `listwatch import: ${nextTenth * 10}% (${formatBytes(bytesRead, 'GiB')} of ${formatBytes(total, 'GiB')})\n`,
                );
                nextTenth++;
              }
            }
          : undefined;
      let report: ImportReport;
      // The replay re-issues every request, so it keeps them; the report alone does not.
      const requests: ImportedRequest[] = [];
      // Ctrl-C stops the read where it is (an endless input ends no other way); a second one
      // exits at once.
      const stop = new AbortController();
      const interrupt = (): void => {
        if (stop.signal.aborted) process.exit(exitInterrupted);
        stop.abort(new ImportInterrupted());
      };
      process.on('SIGINT', interrupt);
      try {
        report = await importReport(
          p,
          { ...deps, importFiles },
          progress,
          p.replay ? (r) => requests.push(r) : undefined,
          stop.signal,
        );
      } catch (e) {
        if (e instanceof ImportInterrupted) {
          io.err('listwatch import: stopped (Ctrl-C); no report\n');
          return exitInterrupted;
        }
        io.err(
          `listwatch import: reading failed: ${visibleText(e instanceof Error ? e.message : String(e))}\n`,
        );
        return exitInvalid;
      } finally {
        process.removeListener('SIGINT', interrupt);
      }
      io.out(p.json ? JSON.stringify(report) + '\n' : renderImportReport(report));
      if (p.replay) {
        p.replay.baseline.report = report;
        if (p.replay.whatIf) p.replay.whatIf.report = report;
        // With --json, stdout is the one report object: the replay's lines go to stderr.
        try {
          await runImportReplay(requests, p.files, p.replay, p.json ? { ...io, out: io.err } : io);
        } catch (e) {
          // The report above stands; the replay says why it did not run.
          if (!(e instanceof ReplaySpanError)) throw e;
          io.err(`listwatch import: ${visibleText(e.message)}\n`);
          return exitInvalid;
        }
      }
      return exitOk;
    },
  };
}

/** import-files.ts's streaming reader, the files named by their paths. */
export const readLogFiles: ImportFiles = (files, options, sink) =>
  readFiles(
    files.map((path) => ({ path })),
    options,
    sink,
  );

/** The command as main.ts lists it: the streaming reader and the engine's explainer. */
export const importCommand = importCommandWith({
  importFiles: readLogFiles,
  // One shape at a time; the report asks for the answer, not the errors other states would give.
  explainRequest: (url, options) => explainRequest(url, { ...options, possibleErrors: false }),
});
