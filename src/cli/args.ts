// A small, strict argv parser: `--name value`, `--name=value`, boolean flags, `--` ends options,
// and a lone `-` is a positional (stdin). Unknown or repeated options are usage errors.
import { UsageError } from './command';

export interface OptionSpec {
  /** Long name without dashes. */
  name: string;
  /** True when the option takes a value. */
  value: boolean;
  /** Optional one-letter alias (e.g. 'h'). */
  short?: string;
}

export interface ParsedArgs {
  options: Map<string, string | true>;
  positionals: string[];
}

export function parseArgs(argv: string[], specs: OptionSpec[]): ParsedArgs {
  const options = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a === '-' || !a.startsWith('-')) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const nameText = a.startsWith('--')
      ? a.slice(2, eq >= 0 ? eq : undefined)
      : a.slice(1, eq >= 0 ? eq : undefined);
    const spec = a.startsWith('--')
      ? specs.find((s) => s.name === nameText)
      : specs.find((s) => s.short === nameText);
    if (!spec)
      throw new UsageError(`unknown option ${JSON.stringify(eq >= 0 ? a.slice(0, eq) : a)}`);
    if (options.has(spec.name)) throw new UsageError(`option --${spec.name} given more than once`);
    if (!spec.value) {
      if (eq >= 0)
        throw new UsageError(`option --${spec.name} takes no value (got ${JSON.stringify(a)})`);
      options.set(spec.name, true);
      continue;
    }
    if (eq >= 0) {
      options.set(spec.name, a.slice(eq + 1));
    } else {
      if (i + 1 >= argv.length) throw new UsageError(`option --${spec.name} needs a value`);
      options.set(spec.name, argv[++i]);
    }
  }
  return { options, positionals };
}
