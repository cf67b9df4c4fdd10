// `listwatch decode`: explains continue tokens given as arguments or found in log text on stdin,
// each against the key prefix of the LIST it belongs to (read from its context: the URL, an audit
// event's objectRef, the request a kubectl Response Body answers, the list object), else --prefix.
import { explainContinueToken, type ContinueTokenExplanation } from '../engine';
import { renderExplanationText } from '../format/explanation';
import {
  ContinueTokenContextScanner,
  scanWithContext,
  type ContextualToken,
  type KeyPrefixContext,
} from '../scan/continue-token-context';
import { lineScanTruncated, maxScanLineLength } from '../scan/continue-token-scan';
import { defaultEtcdPrefix } from '../request/storage-key-prefix';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';
import { plural } from '../format/count-text';

export const defaultKeyPrefix = '/registry/pods/';

const help = `Usage: listwatch decode [--prefix P] [--etcd-prefix E] [--json] <token>...
       listwatch decode [--prefix P] [--etcd-prefix E] [--json] -   (read log text from stdin)

Explains Kubernetes list continue tokens exactly as the apiserver (k8s.io/apiserver
release-1.36, pkg/storage/continue.go) decodes them: strict base64 (RawURLEncoding),
Go JSON rules, the version/rv/start-key checks and the path-traversal defence.

Each token is decoded against the key prefix of the LIST it belongs to, read from
its context by kube-apiserver's storage rules (/registry/<resource>/[<namespace>/],
nodes under /registry/minions/, services under /registry/services/specs/, CRDs under
/registry/<group>/<resource>/, ...):
  url        the request URL the token is in, or a LIST URL on the same line
  objectRef  the audit event's objectRef (resource, apiGroup, namespace)
  request    for a kubectl -v=8 Response Body, the request line it answers
  list       the list object (kind, apiVersion, the items' namespace) it is in
  setting    nothing says: --prefix is assumed

Arguments:
  <token>        a token; an argument holding a URL or JSON ("?continue=…",
                 "\\"continue\\": \\"…\\"") has its token(s) extracted first
  -              read stdin line by line and decode every token found in it
                 (kubectl -v=8 logs, audit logs, JSON/YAML lists, bare tokens)

Options:
  --prefix P       the key prefix to assume when nothing names the LIST (default
                   ${defaultKeyPrefix}), e.g. /registry/pods/default/ for
                   /api/v1/namespaces/default/pods
  --etcd-prefix E  kube-apiserver's --etcd-prefix (default ${defaultEtcdPrefix})
  --json           one JSON object per token (JSON Lines) instead of text; each has
                   keyPrefix and keyPrefixSource (url, objectRef, request, list, setting)
  -h, --help       show this help

Exit status: 0 every token is valid, 1 a token is invalid (or stdin had none),
2 usage error.`;

interface Located {
  /** 1-based line and column in stdin, or the argument's 1-based position. */
  line?: number;
  column?: number;
  argument?: number;
  kind?: string;
}

function contextFields(t: KeyPrefixContext & { truncated?: number }): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    keyPrefixSource: t.keyPrefixSource,
    keyPrefixDetail: t.detail,
  };
  if (t.scope) {
    const { group, resource, namespace } = t.scope;
    fields.keyPrefixScope =
      namespace === undefined ? { group, resource } : { group, resource, namespace };
  }
  if (t.fromLine !== undefined) fields.keyPrefixLine = t.fromLine;
  if (t.truncated !== undefined) fields.truncated = t.truncated;
  return fields;
}

function writeOne(
  io: CliIo,
  json: boolean,
  where: Located,
  found: KeyPrefixContext & { truncated?: number },
  e: ContinueTokenExplanation,
  first: boolean,
): void {
  if (json) {
    const source: Record<string, unknown> = {};
    if (where.line !== undefined)
      Object.assign(source, { line: where.line, column: where.column, kind: where.kind });
    if (where.argument !== undefined)
      Object.assign(source, { argument: where.argument }, where.kind ? { kind: where.kind } : {});
    const { token, keyPrefix, ...rest } = e;
    io.out(JSON.stringify({ source, token, keyPrefix, ...contextFields(found), ...rest }) + '\n');
    return;
  }
  if (!first) io.out('\n');
  const label =
    where.line !== undefined
      ? `line ${where.line}, column ${where.column} (${where.kind})`
      : `argument ${where.argument}${where.kind ? ` (${where.kind})` : ''}`;
  io.out(`${label}:\n`);
  const text = renderExplanationText(e, {
    keyPrefixSource: found.keyPrefixSource,
    keyPrefixDetail: found.detail,
    truncated: found.truncated,
  });
  io.out(
    text
      .split('\n')
      .map((l) => '  ' + l)
      .join('\n') + '\n',
  );
}

function prefixOption(options: Map<string, string | true>, name: string, dflt: string): string {
  const value = (options.get(name) as string | undefined) ?? dflt;
  if (!value.startsWith('/'))
    throw new UsageError(
      `--${name} ${JSON.stringify(value)} is not an etcd key path: it must start with '/'`,
    );
  return value;
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [
    { name: 'prefix', value: true },
    { name: 'etcd-prefix', value: true },
    { name: 'json', value: false },
    { name: 'help', value: false, short: 'h' },
  ]);
  if (options.has('help')) {
    io.out(help + '\n');
    return exitOk;
  }
  const contextOptions = {
    fallbackPrefix: prefixOption(options, 'prefix', defaultKeyPrefix),
    fallbackName: options.has('prefix') ? '--prefix' : `the default --prefix ${defaultKeyPrefix}`,
    etcdPrefix: prefixOption(options, 'etcd-prefix', defaultEtcdPrefix),
  };
  const json = options.has('json');
  if (positionals.length === 0)
    throw new UsageError(
      'no token given: pass one or more tokens, or - to read log text from stdin',
    );
  if (positionals.filter((p) => p === '-').length > 1)
    throw new UsageError('"-" (stdin) given more than once');

  let count = 0;
  let invalid = 0;
  const emit = (
    where: Located,
    found: ContextualToken | (KeyPrefixContext & { token: string }),
  ): void => {
    const e = explainContinueToken(found.token, found.keyPrefix);
    if (!e.valid) invalid++;
    writeOne(io, json, where, found, e, count === 0);
    count++;
  };
  const closed = (): boolean => io.outputClosed?.() ?? false;

  for (const [i, arg] of positionals.entries()) {
    if (closed()) break;
    if (arg === '-') {
      let lineNo = 0;
      let foundHere = 0;
      const scanner = new ContinueTokenContextScanner(contextOptions);
      const report = (tokens: ContextualToken[]): void => {
        for (const t of tokens) {
          foundHere++;
          emit({ line: t.line + 1, column: t.start + 1, kind: t.kind }, t);
        }
      };
      for await (const line of io.stdinLines()) {
        if (closed()) break;
        lineNo++;
        if (lineScanTruncated(line)) {
          io.err(
            `listwatch decode: stdin line ${lineNo} is ${line.length} characters long; only the first ${maxScanLineLength} were scanned\n`,
          );
        }
        report(scanner.push(line));
      }
      report(scanner.end());
      if (foundHere === 0 && !closed()) {
        io.err(
          `listwatch decode: no continue token found in stdin (${plural(lineNo, 'line', { plain: true })} scanned)\n`,
        );
        invalid++;
      }
      continue;
    }
    // An argument that is a URL, query string or JSON snippet: decode the token(s) inside it.
    const inside = scanWithContext([arg], contextOptions).filter(
      (t) => t.kind !== 'bare' && !(t.start === 0 && t.end === arg.length),
    );
    if (inside.length > 0) {
      for (const t of inside) emit({ argument: i + 1, kind: t.kind }, t);
    } else {
      emit(
        { argument: i + 1 },
        {
          token: arg,
          keyPrefix: contextOptions.fallbackPrefix,
          keyPrefixSource: 'setting',
          detail: `assumed: ${contextOptions.fallbackName}`,
        },
      );
    }
  }
  if (!json && count > 1)
    io.out(
      `\n${plural(count, 'token', { plain: true })}, ${invalid === 0 ? 'all valid' : `${invalid} invalid`}\n`,
    );
  return invalid > 0 ? exitInvalid : exitOk;
}

export const decodeCommand: CliCommand = {
  name: 'decode',
  summary: 'explain continue tokens (arguments, or every token in log text with -)',
  help,
  run,
};
