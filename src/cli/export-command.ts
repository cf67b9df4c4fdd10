// `listwatch export --format perfetto RUN out.json`: a recorded run (a trace file) as a file
// another tool opens. No upstream counterpart. Perfetto is the one format so far: the Chrome Trace
// Event JSON that ui.perfetto.dev and chrome://tracing read (src/export/perfetto-trace.ts).
import { createWriteStream, existsSync, statSync, type WriteStream } from 'node:fs';
import { visibleText } from '../format/visible-text';
import { perfettoTraceSize, writePerfettoTrace } from '../export/perfetto-trace';
import { loadRun } from '../run/load-run';
import { TraceFormatError } from '../run/trace/trace-format';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';
import { traceFileLines } from './trace-file-lines';

/** The formats `--format` accepts. */
export const exportFormats = ['perfetto'] as const;

const exportHelp = `Usage: listwatch export --format perfetto <trace.jsonl> <out.json>
       listwatch export --format perfetto - <out.json>     (read the trace from stdin)

Writes a recorded run (a trace written by 'listwatch scenario run --trace FILE', or saved
from a live run) as a file for another tool.

Formats:
  perfetto   Chrome Trace Event JSON: open it at https://ui.perfetto.dev (Open trace file)
             or in chrome://tracing. A track per watcher (its cacheWatcher states, what its
             client read), a track per client (its LISTs with their etcd calls nested, its
             WATCHes), etcd's revision steps, counters (cache RV, etcd RV, watch cache
             capacity, the watchers' buffer fill), and arrows from a write to the reads of
             its event.

Options:
  --format F     the output format (${exportFormats.join(', ')})
  -h, --help     show this help

Exit status: 0 written, 1 the output could not be written, 2 usage error (no such file, not a trace, unknown format).`;

/** Writes to a file stream, waiting for it to drain when its buffer is full. */
function streamWriter(out: WriteStream): (chunk: string) => Promise<void> | void {
  return (chunk) => {
    if (out.write(chunk)) return;
    return new Promise((resolve) => out.once('drain', resolve));
  };
}

function closed(out: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    out.once('error', reject);
    out.end((e?: Error | null) => (e ? reject(e) : resolve()));
  });
}

function sizeText(bytes: number): string {
  return bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

async function exportRun(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [
    { name: 'format', value: true },
    { name: 'help', value: false, short: 'h' },
  ]);
  if (options.has('help')) {
    io.out(exportHelp + '\n');
    return exitOk;
  }
  const format = options.get('format');
  if (format === undefined || format === true)
    throw new UsageError(
      `name the output format with --format (one of: ${exportFormats.join(', ')})`,
    );
  if (!(exportFormats as readonly string[]).includes(format))
    throw new UsageError(
      `unknown format ${JSON.stringify(format)}; supported formats: ${exportFormats.join(', ')}`,
    );
  if (positionals.length !== 2)
    throw new UsageError(
      `expected a trace file (or - for stdin) and an output file, got ${positionals.length} argument(s)`,
    );
  const [input, output] = positionals;
  if (existsSync(output) && statSync(output).isDirectory())
    throw new UsageError(`${output} is a directory; name the file to write`);
  let model;
  try {
    ({ model } = await loadRun(traceFileLines(input, io)));
  } catch (e) {
    if (e instanceof TraceFormatError) throw new UsageError(`${input}: ${e.message}`);
    throw e;
  }
  if (model.rejected.count > 0)
    io.err(
      `listwatch export: ${model.rejected.count} line(s) of ${input} rejected; first: ${model.rejected.samples[0] ?? ''}\n`,
    );
  const size = perfettoTraceSize(model);
  io.out(
    `writing ${size.events} trace events (${size.watchers} watchers, ${size.clients} clients, ${size.lists} LISTs, ${size.flows} write→read arrows) to ${output}\n`,
  );
  const out = createWriteStream(output, { encoding: 'utf8' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  try {
    await Promise.race([writePerfettoTrace(model, streamWriter(out)), failed]);
    await closed(out);
  } catch (e) {
    out.destroy();
    io.err(`listwatch export: cannot write ${output}: ${visibleText((e as Error).message)}\n`);
    return exitInvalid;
  }
  io.out(
    `wrote ${output} (${sizeText(out.bytesWritten)}): open it at https://ui.perfetto.dev (Open trace file) or in chrome://tracing\n`,
  );
  return exitOk;
}

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'write a recorded run for another tool (--format perfetto: ui.perfetto.dev)',
  help: exportHelp,
  run: exportRun,
};
