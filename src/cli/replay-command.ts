// `listwatch replay` and `listwatch report`: re-run a trace and check it reproduces, or read a
// trace and print the report its run would have printed.
import { jsonSections, summarizeModel } from '../scenarios/runner';
import { loadRun } from '../run/load-run';
import { excerpt, firstDiffIndex, replayTrace } from '../scenarios/replay-trace';
import { TraceFormatError } from '../run/trace/trace-format';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';
import { renderImportReport } from './import-report-text';
import { renderReport, runJson } from './run-report';
import { traceFileLines } from './trace-file-lines';

const replayHelp = `Usage: listwatch replay <trace.jsonl>

Re-runs the scenario a trace was recorded from (its header names the scenario, the
parameters and the seed) and compares every line the replay produces with the recorded
one. Prints the first line that differs. Traces of a local API server, an import or a
probe recorded the real world, not a scenario: 'listwatch report' reads them.

Exit status: 0 reproduced exactly, 1 differs, 2 usage error (no such file, not a trace).`;

const reportHelp = `Usage: listwatch report <trace.jsonl> [--json]
       listwatch report - [--json]          (read the trace from stdin)

Reads a trace and prints the report of its run: a scenario's (written by 'listwatch
scenario run --trace FILE') as 'listwatch scenario run' would have printed it; an
import's ('listwatch import --trace') as 'listwatch import' printed it, then what the
engine answered beside the log; a local API server's or a probe's: its clients, LISTs
and WATCHes. Lines that do not parse are counted and the first few named with their
line number.

Options:
  --json         one JSON object instead of the report
  -h, --help     show this help

Exit status: 0 done (a warning names rejected lines), 2 usage error.`;

function progressReporter(io: CliIo): ((fraction: number, message: string) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (fraction, message) => {
    io.err(
      `\r\x1b[2K${Math.round(fraction * 100)
        .toString()
        .padStart(3)}%  ${message}`.slice(0, 120),
    );
    if (fraction >= 1) io.err('\r\x1b[2K');
  };
}

async function replay(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [{ name: 'help', value: false, short: 'h' }]);
  if (options.has('help')) {
    io.out(replayHelp + '\n');
    return exitOk;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? 'replay: name a trace file' : 'replay: one trace file at a time',
    );
  const path = positionals[0];
  const lines = traceFileLines(path, io);
  let result;
  try {
    result = await replayTrace(lines, { onProgress: progressReporter(io) });
  } catch (e) {
    if (e instanceof TraceFormatError) throw new UsageError(`${path}: ${e.message}`);
    if (e instanceof Error && /^(unknown scenario|scenario )/.test(e.message))
      throw new UsageError(`${path}: cannot replay: ${e.message}`);
    throw e;
  }
  const h = result.header;
  const what = `${h.scenario} (seed ${h.seed}, ${Object.entries(h.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')})`;
  if (result.reproduced) {
    io.out(`reproduced: ${what}: all ${result.matchingLines} lines identical.\n`);
    return exitOk;
  }
  const d = result.firstDifference;
  io.out(
    `differs: ${what}: ${result.matchingLines} lines identical, then line ${d?.line ?? '?'} differs.\n`,
  );
  if (d) {
    const at = firstDiffIndex(d.recorded, d.replayed);
    io.out(
      `  recorded: ${d.recorded === '' ? '(end of the recorded trace)' : excerpt(d.recorded, at)}\n`,
    );
    io.out(
      `  replayed: ${d.replayed === '' ? '(the replay ended here)' : excerpt(d.replayed, at)}\n`,
    );
    if (d.recorded !== '' && d.replayed !== '')
      io.out(`  first different character: column ${at + 1}\n`);
  }
  io.out(`  (${result.recordedLines} lines recorded, ${result.replayedLines} replayed)\n`);
  return exitInvalid;
}

async function report(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [
    { name: 'json', value: false },
    { name: 'help', value: false, short: 'h' },
  ]);
  if (options.has('help')) {
    io.out(reportHelp + '\n');
    return exitOk;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? 'report: name a trace file (or - for stdin)'
        : 'report: one trace file at a time',
    );
  const path = positionals[0];
  let loaded;
  try {
    loaded = await loadRun(traceFileLines(path, io));
  } catch (e) {
    if (e instanceof TraceFormatError) throw new UsageError(`${path}: ${e.message}`);
    throw e;
  }
  const { model } = loaded;
  let summary;
  try {
    summary = summarizeModel(model);
  } catch (e) {
    throw new UsageError(`${path}: ${(e as Error).message}`);
  }
  // An import's trace carries the analysis of its logs: the report begins with it, as
  // `listwatch import` printed it.
  const imported = model.imported;
  if (options.has('json'))
    io.out(
      JSON.stringify({
        ...runJson(model, summary, jsonSections(model.header.scenario)),
        ...(imported ? { imported } : {}),
      }) + '\n',
    );
  else
    io.out(
      (imported ? `${renderImportReport(imported)}\n\n` : '') + renderReport(model, summary) + '\n',
    );
  if (model.rejected.count > 0)
    io.err(
      `listwatch report: ${model.rejected.count} line(s) of ${path} rejected; first: ${model.rejected.samples[0] ?? ''}\n`,
    );
  return exitOk;
}

export const replayCommand: CliCommand = {
  name: 'replay',
  summary: 're-run a recorded trace and check that it reproduces exactly',
  help: replayHelp,
  run: replay,
};

export const reportCommand: CliCommand = {
  name: 'report',
  summary: 'print the report of a recorded trace (or --json)',
  help: reportHelp,
  run: report,
};
