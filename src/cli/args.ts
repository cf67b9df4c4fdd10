// No upstream counterpart: every subcommand's argv through node:util's parseArgs (tokens, and
// `multiple: true` for a repeatable option), held to one strict grammar with our own messages:
// `--name value`, `--name=value`, boolean flags, `--` ends options, and a lone `-` is a positional
// (stdin). Unknown options, an option given twice (unless repeatable), a flag with a value and a
// missing value are usage errors, the first in argv order.
import { parseArgs as parseArgv } from 'node:util';
import { UsageError } from './command';

export interface OptionSpec {
  /** Long name without dashes. */
  name: string;
  /** True when the option takes a value. */
  value: boolean;
  /** Optional one-letter alias of a flag (e.g. 'h'). */
  short?: string;
  /** True when the option may be given again: each value is kept, in order (ParsedArgs.repeated). */
  multiple?: boolean;
  /** What the value looks like, named when it is missing: `option --set needs a value name=value`. */
  valueName?: string;
}

export interface ParsedArgs {
  /** Each option given, in argv order: its value, or true for a flag. Repeatable ones are not here. */
  options: Map<string, string | true>;
  /** Each repeatable option given, with its values in argv order. */
  repeated: Map<string, string[]>;
  positionals: string[];
}

export function parseArgs(argv: string[], specs: OptionSpec[]): ParsedArgs {
  // Not strict: node would refuse a value that starts with '-' (`--prefix -x`), which is ours to
  // take, and its messages are not ours. The checks below are done on its tokens instead.
  const { values, positionals, tokens } = parseArgv({
    args: argv,
    options: Object.fromEntries(
      specs.map((s) => [
        s.name,
        {
          type: s.value ? ('string' as const) : ('boolean' as const),
          ...(s.short !== undefined ? { short: s.short } : {}),
          ...(s.multiple ? { multiple: true } : {}),
        },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const given = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    // The argument as written: node splits `-hx` into -h and -x, which is one unknown option here.
    const arg = argv[token.index];
    const eq = arg.indexOf('=');
    const written = eq >= 0 ? arg.slice(0, eq) : arg;
    const spec = written.startsWith('--')
      ? specs.find((s) => s.name === written.slice(2))
      : specs.find((s) => s.short !== undefined && s.short === written.slice(1));
    if (!spec) throw new UsageError(`unknown option ${JSON.stringify(written)}`);
    if (given.has(spec.name) && !spec.multiple)
      throw new UsageError(`option --${spec.name} given more than once`);
    given.add(spec.name);
    if (!spec.value && eq >= 0)
      throw new UsageError(`option --${spec.name} takes no value (got ${JSON.stringify(arg)})`);
    if (spec.value && token.value === undefined)
      throw new UsageError(
        `option --${spec.name} needs a value${spec.valueName ? ` ${spec.valueName}` : ''}`,
      );
  }
  const options = new Map<string, string | true>();
  const repeated = new Map<string, string[]>();
  // In the order node first stored each: argv order.
  for (const [name, value] of Object.entries(values)) {
    if (Array.isArray(value)) repeated.set(name, value as string[]);
    else if (value !== undefined) options.set(name, value === true ? true : (value as string));
  }
  return { options, positionals, repeated };
}
