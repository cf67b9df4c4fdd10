// `listwatch decode`: explains continue tokens given as arguments or found in log text on stdin.
import {
  explainContinueToken,
  type ContinueTokenExplanation,
} from '../engine/storage/explain-continue';
import { renderExplanationText } from '../format/explanation';
import {
  findContinueTokens,
  lineScanTruncated,
  maxScanLineLength,
} from '../scan/continue-token-scan';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';

export const defaultKeyPrefix = '/registry/pods/';

const help = `Usage: listwatch decode [--prefix P] [--json] <token>...
       listwatch decode [--prefix P] [--json] -        (read log text from stdin)

Explains Kubernetes list continue tokens exactly as the apiserver (k8s.io/apiserver
release-1.36, pkg/storage/continue.go) decodes them: strict base64 (RawURLEncoding),
Go JSON rules, the version/rv/start-key checks and the path-traversal defence.

Arguments:
  <token>        a token; an argument holding a URL or JSON ("?continue=…",
                 "\\"continue\\": \\"…\\"") has its token(s) extracted first
  -              read stdin line by line and decode every token found in it
                 (kubectl -v=8 logs, audit logs, JSON/YAML lists, bare tokens)

Options:
  --prefix P     the request's storage key prefix (default ${defaultKeyPrefix});
                 tokens are relative to it, e.g. /registry/pods/default/ for
                 /api/v1/namespaces/default/pods
  --json         one JSON object per token (JSON Lines) instead of text
  -h, --help     show this help

Exit status: 0 every token is valid, 1 a token is invalid (or stdin had none),
2 usage error.`;

interface Located {
  token: string;
  /** 1-based line and column in stdin, or the argument's 1-based position. */
  line?: number;
  column?: number;
  argument?: number;
  kind?: string;
}

function writeOne(
  io: CliIo,
  json: boolean,
  where: Located,
  e: ContinueTokenExplanation,
  first: boolean,
): void {
  if (json) {
    const source: Record<string, unknown> = {};
    if (where.line !== undefined)
      Object.assign(source, { line: where.line, column: where.column, kind: where.kind });
    if (where.argument !== undefined)
      Object.assign(source, { argument: where.argument }, where.kind ? { kind: where.kind } : {});
    io.out(JSON.stringify({ source, ...e }) + '\n');
    return;
  }
  if (!first) io.out('\n');
  const label =
    where.line !== undefined
      ? `line ${where.line}, column ${where.column} (${where.kind})`
      : `argument ${where.argument}${where.kind ? ` (${where.kind})` : ''}`;
  io.out(`${label}:\n`);
  io.out(
    renderExplanationText(e)
      .split('\n')
      .map((l) => '  ' + l)
      .join('\n') + '\n',
  );
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [
    { name: 'prefix', value: true },
    { name: 'json', value: false },
    { name: 'help', value: false, short: 'h' },
  ]);
  if (options.has('help')) {
    io.out(help + '\n');
    return exitOk;
  }
  const prefix = (options.get('prefix') as string | undefined) ?? defaultKeyPrefix;
  const json = options.has('json');
  if (positionals.length === 0)
    throw new UsageError(
      'no token given: pass one or more tokens, or - to read log text from stdin',
    );
  if (positionals.filter((p) => p === '-').length > 1)
    throw new UsageError('"-" (stdin) given more than once');

  let count = 0;
  let invalid = 0;
  const emit = (where: Located): void => {
    const e = explainContinueToken(where.token, prefix);
    if (!e.valid) invalid++;
    writeOne(io, json, where, e, count === 0);
    count++;
  };

  for (const [i, arg] of positionals.entries()) {
    if (arg === '-') {
      let lineNo = 0;
      let foundHere = 0;
      for await (const line of io.stdinLines()) {
        lineNo++;
        if (lineScanTruncated(line)) {
          io.err(
            `listwatch decode: stdin line ${lineNo} is ${line.length} characters long; only the first ${maxScanLineLength} were scanned\n`,
          );
        }
        for (const t of findContinueTokens(line)) {
          foundHere++;
          emit({ token: t.token, line: lineNo, column: t.start + 1, kind: t.kind });
        }
      }
      if (foundHere === 0) {
        io.err(
          `listwatch decode: no continue token found in stdin (${lineNo} line${lineNo === 1 ? '' : 's'} scanned)\n`,
        );
        invalid++;
      }
      continue;
    }
    // An argument that is a URL, query string or JSON snippet: decode the token(s) inside it.
    const inside = findContinueTokens(arg).filter(
      (t) => t.kind !== 'bare' && !(t.start === 0 && t.end === arg.length),
    );
    if (inside.length > 0) {
      for (const t of inside) emit({ token: t.token, argument: i + 1, kind: t.kind });
    } else {
      emit({ token: arg, argument: i + 1 });
    }
  }
  if (!json && count > 1)
    io.out(
      `\n${count} token${count === 1 ? '' : 's'}, ${invalid === 0 ? 'all valid' : `${invalid} invalid`}\n`,
    );
  return invalid > 0 ? exitInvalid : exitOk;
}

export const decodeCommand: CliCommand = {
  name: 'decode',
  summary: 'explain continue tokens (arguments, or every token in log text with -)',
  help,
  run,
};
