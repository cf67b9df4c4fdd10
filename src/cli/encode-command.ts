// `listwatch encode`: builds the continue token the apiserver would issue (EncodeContinue).
import { encodeContinue } from '../engine';
import { visibleText } from '../format/explanation';
import { parseArgs } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk } from './command';
import { defaultKeyPrefix } from './decode-command';

const help = `Usage: listwatch encode --key K --rv N [--prefix P] [--after] [--json]

Builds a continue token exactly as the apiserver does (EncodeContinue in
k8s.io/apiserver pkg/storage/continue.go): Go JSON {"v":"meta.k8s.io/v1","rv":N,
"start":<key without prefix>}, base64 RawURLEncoding. Prints the token.

Options:
  --key K        absolute storage key to resume at, e.g. /registry/pods/default/pod-b;
                 it must start with the prefix
  --rv N         resource version (an int64; -1 = resume at the latest revision)
  --prefix P     storage key prefix (default ${defaultKeyPrefix})
  --after        resume just after K (appends the NUL byte, as the apiserver does
                 for the last item of a page) instead of at K inclusive
  --json         print {"token", "key", "prefix", "rv", "json"} instead of the token
  -h, --help     show this help

Exit status: 0 encoded, 1 the key is not under the prefix, 2 usage error.`;

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

function parseRv(text: string): bigint {
  if (!/^-?\d+$/.test(text))
    throw new UsageError(
      `invalid --rv ${JSON.stringify(text)}: expected an integer such as 12345 or -1`,
    );
  const n = BigInt(text);
  if (n < int64Min || n > int64Max)
    throw new UsageError(
      `invalid --rv ${text}: outside the int64 range (-9223372036854775808 to 9223372036854775807)`,
    );
  return n;
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [
    { name: 'key', value: true },
    { name: 'rv', value: true },
    { name: 'prefix', value: true },
    { name: 'after', value: false },
    { name: 'json', value: false },
    { name: 'help', value: false, short: 'h' },
  ]);
  if (options.has('help')) {
    io.out(help + '\n');
    return exitOk;
  }
  if (positionals.length > 0)
    throw new UsageError(
      `unexpected argument ${JSON.stringify(positionals[0])}: use --key, --rv and --prefix`,
    );
  const key = options.get('key');
  if (typeof key !== 'string')
    throw new UsageError('missing --key K (the storage key to resume at)');
  const rvText = options.get('rv');
  if (typeof rvText !== 'string') throw new UsageError('missing --rv N (the resource version)');
  const rv = parseRv(rvText);
  const prefix = (options.get('prefix') as string | undefined) ?? defaultKeyPrefix;
  const fullKey = options.has('after') ? key + '\x00' : key;
  let token: string;
  try {
    token = encodeContinue(fullKey, prefix, rv);
  } catch (e) {
    const why =
      prefix === ''
        ? 'an empty --prefix never matches (upstream treats "nothing trimmed" as a mismatch)'
        : `--key ${JSON.stringify(visibleText(key))} does not start with --prefix ${JSON.stringify(visibleText(prefix))}`;
    const hint =
      prefix !== '' && !key.startsWith('/')
        ? ` (did you mean --key ${JSON.stringify(visibleText(prefix + key))}?)`
        : '';
    io.err(`listwatch encode: ${(e as Error).message}: ${why}${hint}\n`);
    return exitInvalid;
  }
  if (options.has('json')) {
    const start = fullKey.slice(prefix.length);
    io.out(
      JSON.stringify({
        token,
        key: fullKey,
        prefix,
        rv: rv.toString(),
        start,
        json: Buffer.from(token, 'base64url').toString('utf8'),
      }) + '\n',
    );
  } else {
    io.out(token + '\n');
  }
  return exitOk;
}

export const encodeCommand: CliCommand = {
  name: 'encode',
  summary: 'build the continue token the apiserver would issue for a key and rv',
  help,
  run,
};
