// `listwatch explain-log`: every client-go reflector line of a log explained (what happened, the
// server behaviour that causes it, the client-go versions that print it, what to run), from the
// catalogue src/import/client-go-log-explanations.ts that the extension's hover reads too.
import { accessSync, constants, createReadStream, statSync } from 'fs';
import { createInterface } from 'readline';
import { explainClientGoLogLine } from '../import/client-go-log-explanations';
import {
  clientGoLogExplanationJSON,
  clientGoLogExplanationText,
  type ClientGoLogExplanationJSON,
} from '../import/client-go-log-explanation-text';
import { visibleText } from '../format/visible-text';
import { plural } from '../format/count-text';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';

const help = `Usage: listwatch explain-log [--json] FILE
       listwatch explain-log [--json] -      (read the log from stdin)

Explains the lines client-go's reflector prints (k8s.io/client-go tools/cache/reflector.go,
read at release-1.27 … release-1.36; klog text as client-go writes it, printf-style up to
0.32 and structured from 0.33, with or without the klog header, or klog's JSON format):
for each line it recognises, the line number, the line, what happened, the server
behaviour that causes it, the client-go versions that print it, the listwatch conform
command that checks the server and the listwatch serve fault that reproduces it.

Lines it knows include: "event bookmark expired" / "awaiting required bookmark event",
"Exiting watch because received the bookmark that marks the end of initial events stream",
"watch of *v1.Pod ended with: too old resource version", "Failed to watch … the server
could not find the requested resource", "The watchlist request ended with an error,
falling back to the standard LIST semantics", "Timeout: Too large resource version",
"failed to list", "Warning: watch ended with error", "Watch close".

Options:
  --json      one JSON object: {file, linesRead, recognised, lines:[{line, text, id, title,
              healthy, call, reflector, type, err, happened, cause, versions, conform,
              reproduce, reproduceNote}]}
  -h, --help  show this help

Exit status: 0 a line was recognised, 1 none was, 2 usage error or unreadable file.`;

/** A missing or unreadable file, or a directory, is a usage error naming it (import's rule). */
function checkReadable(file: string): void {
  try {
    if (statSync(file).isDirectory())
      throw new UsageError(`${file} is a directory, not a log file`);
    accessSync(file, constants.R_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `no such file: ${file}`
        : `cannot read ${file}: ${code ?? (e instanceof Error ? e.message : String(e))}`,
    );
  }
}

async function* fileLines(file: string): AsyncIterable<string> {
  const input = createReadStream(file, { encoding: 'utf8' });
  // A read error after the open (EIO, a file gone) is a usage error too: it names the file.
  const failed = new Promise<never>((_, reject) =>
    input.once('error', (e: NodeJS.ErrnoException) =>
      reject(new UsageError(`cannot read ${file}: ${e.code ?? e.message}`)),
    ),
  );
  failed.catch(() => undefined);
  const lines = createInterface({ input, crlfDelay: Infinity });
  const it = lines[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([it.next(), failed]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

/** Longest part of a line the text output repeats (the explanation does not need the rest). */
const shownLineLength = 400;

function shownLine(text: string): string {
  const cut = text.length > shownLineLength;
  return visibleText(cut ? text.slice(0, shownLineLength) : text) + (cut ? ' …' : '');
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [
    { name: 'json', value: false },
    { name: 'help', value: false, short: 'h' },
  ]);
  if (options.has('help')) {
    io.out(help + '\n');
    return exitOk;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? 'no log given: pass a file, or - to read the log from stdin'
        : `one log at a time: got ${positionals.length} arguments`,
    );
  const [file] = positionals;
  if (file !== '-') checkReadable(file);
  const json = options.has('json');
  const lines = file === '-' ? io.stdinLines() : fileLines(file);
  const closed = (): boolean => io.outputClosed?.() ?? false;

  let read = 0;
  let recognised = 0;
  let healthy = 0;
  const found: Array<{ line: number; text: string } & ClientGoLogExplanationJSON> = [];
  for await (const text of lines) {
    if (closed()) break;
    read++;
    const e = explainClientGoLogLine(text);
    if (!e) continue;
    recognised++;
    if (e.explanation.healthy) healthy++;
    if (json) {
      found.push({ line: read, text, ...clientGoLogExplanationJSON(e) });
      continue;
    }
    const body = clientGoLogExplanationText(e)
      .split('\n')
      .map((l) => '  ' + l)
      .join('\n');
    io.out(`${recognised > 1 ? '\n' : ''}line ${read}: ${shownLine(text)}\n${body}\n`);
  }
  const source = file === '-' ? 'stdin' : file;
  if (json) {
    io.out(JSON.stringify({ file: source, linesRead: read, recognised, lines: found }) + '\n');
  } else {
    io.out(
      `${recognised ? '\n' : ''}${plural(read, 'line', { plain: true })} read, ${recognised} recognised` +
        (recognised
          ? ` (${plural(recognised - healthy, 'problem', { plain: true })}, ${healthy} healthy)`
          : '') +
        '\n',
    );
  }
  if (recognised === 0 && !json)
    io.err(`listwatch explain-log: no client-go reflector line found in ${visibleText(source)}\n`);
  return recognised > 0 ? exitOk : exitInvalid;
}

export const explainLogCommand: CliCommand = {
  name: 'explain-log',
  summary: "explain a log's client-go reflector lines (stuck informers, WatchList, relists)",
  help,
  run,
};
