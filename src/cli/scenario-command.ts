// `listwatch scenario list|run`: the built-in scenarios, run on the engine in virtual time, with a
// report for a person (or --json for a program) and an optional trace file.
import { closeSync, openSync, writeSync } from 'node:fs';
import {
  defaultGuardLimits,
  defaultMaxTraceMiB,
  estimateLines,
  guardReasons,
  traceCapPercent,
  type RunEstimate,
} from '../scenarios/run-estimate';
import { etaText } from '../scenarios/run-eta';
import {
  defaultSeed,
  estimateRun,
  jsonSections,
  listScenarios,
  resolveParams,
  runScenario,
} from '../scenarios/runner';
import { TraceWriter } from '../run/trace/trace-writer';
import { parseArgs, type OptionSpec } from './args';
import { type CliCommand, type CliIo, UsageError, exitInvalid, exitOk, exitUsage } from './command';
import { renderReport, runJson, wrap } from './run-report';
import { formatBytesRoughly } from '../format/byte-size-text';

const help = `Usage: listwatch scenario list [--json]
       listwatch scenario estimate <name> [--set name=value]... [--trace FILE] [--json]
       listwatch scenario run <name> [--set name=value]... [--seed N] [--json] [--trace FILE]
                              [--fast-paths on|off]
                              [--max-trace-mb N] [--yes]

Runs a built-in scenario on the simulated apiserver storage layer (k8s.io/apiserver
release-1.36; some scenarios offer the 1.37 preview) in virtual time: etcd, the etcd3
store, the watch cache and its cacher, the delegator and modelled clients. The same
name, parameters and seed always give the same result.

Commands:
  list                  the scenarios, their parameters, defaults and meaning
  estimate <name>       what a run would cost, from its parameters, without running it
  run <name>            run one and print a report

Options (run):
  --set name=value      set a parameter (repeatable); see 'listwatch scenario list'
  --seed N              the random seed (default ${defaultSeed}; 0 to 4294967295)
  --json                print one JSON object (scenario, seed, params, metrics, summary
                        and the scenario's sections) instead of the report
  --trace FILE          also write the run's trace (JSON lines) to FILE; replay it
                        with 'listwatch replay FILE', report on it with 'listwatch report FILE'
  --fast-paths on|off   the cacher's optimisations beside upstream's dispatch (in-place
                        delivery, watcher runs; default on). Off, every event takes
                        upstream's path: the same run, report and trace, only slower; not
                        recorded in the trace
  --max-trace-mb N      the trace's cap in MiB (default ${defaultMaxTraceMiB}; 0: none). A run whose
                        trace reaches it stops there; the trace and the report are kept,
                        marked truncated (a last 'truncated' phase), and the exit status is 1
  --yes                 run even a big run: one whose estimate passes a limit below
  -h, --help            show this help

Before it starts, every run is estimated from its parameters (etcd writes, deliveries,
virtual time, wall time, trace size, memory). A run expected to take more than
${defaultGuardLimits.wallSeconds} s, to write more than ${defaultGuardLimits.traceMiB} MiB of trace (with --trace) or to need more than
${defaultGuardLimits.memoryMiB} MiB of memory is not started without --yes: the estimate is printed (as JSON
with --json) and the exit status is 2.

Progress, with the time left, goes to stderr when it is a terminal.
Exit status: 0 done, 1 stopped at the trace cap, 2 usage error (unknown scenario, bad
--set, bad --seed, bad --fast-paths) or a big run without --yes.`;

/** `--set name=value`, repeatable (its values in order, duplicates checked by the caller). */
const setOption: OptionSpec = { name: 'set', value: true, multiple: true, valueName: 'name=value' };

/** Each `--set` value split at its first `=` into [name, value]. */
function setPairs(values: readonly string[] = []): Array<[string, string]> {
  return values.map((value) => {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set expects name=value, got ${JSON.stringify(value)}`);
    return [value.slice(0, eq), value.slice(eq + 1)];
  });
}

/** Writes lines to a file synchronously in 1 MiB batches (a run does not yield to the event loop). */
export class FileLineSink {
  private fd: number;
  private buf: string[] = [];
  private size = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  line = (l: string): void => {
    this.buf.push(l, '\n');
    this.size += l.length + 1;
    if (this.size >= 1 << 20) this.flush();
  };

  flush(): void {
    if (this.buf.length === 0) return;
    writeSync(this.fd, this.buf.join(''));
    this.buf = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

function listText(io: CliIo): void {
  const defs = listScenarios();
  io.out(
    `${defs.length} scenarios. Run one with: listwatch scenario run <name> [--set name=value]...\n`,
  );
  for (const d of defs) {
    io.out(`\n${d.name} — ${d.title}\n`);
    io.out(wrap(d.description, 96, '  ').join('\n') + '\n');
    const nw = Math.max(...d.params.map((p) => p.name.length));
    const dw = Math.max(...d.params.map((p) => String(p.default).length));
    for (const p of d.params) {
      const range = p.choices
        ? ` (${p.choices.join(' | ')})`
        : p.min !== undefined || p.max !== undefined
          ? ` (${p.min ?? ''}…${p.max ?? ''})`
          : '';
      const first = `    ${p.name.padEnd(nw)}  ${String(p.default).padEnd(dw)}  `;
      const lines = wrap(`${p.description}${range}`, 96 - first.length);
      io.out(first + lines[0] + '\n');
      for (const l of lines.slice(1)) io.out(' '.repeat(first.length) + l + '\n');
    }
  }
}

/** A one-line progress display on stderr with the time left (only when it is a terminal). */
function progressReporter(
  io: CliIo,
  estimate: RunEstimate,
): ((fraction: number, message: string) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  const started = Date.now();
  let last = '';
  return (fraction, message) => {
    const eta = fraction < 1 ? ` · ${etaText(fraction, Date.now() - started, estimate)}` : '';
    const line = `${Math.round(fraction * 100)
      .toString()
      .padStart(3)}%  ${message}${eta}`.slice(0, Math.max(20, (process.stderr.columns || 80) - 1));
    if (line === last) return;
    last = line;
    io.err(`\r\x1b[2K${line}`);
    if (fraction >= 1) io.err('\r\x1b[2K');
  };
}

/** `--max-trace-mb`: a whole number of MiB >= 0 (0: no cap), in bytes (undefined: no cap). */
function maxTraceBytes(text: string | true | undefined): number | undefined {
  if (text === undefined) return defaultMaxTraceMiB * 1024 * 1024;
  if (typeof text !== 'string' || !/^\d+$/.test(text))
    throw new UsageError(
      `--max-trace-mb expects a whole number of MiB (0: no cap), got ${JSON.stringify(text)}`,
    );
  const mib = Number(text);
  return mib === 0 ? undefined : mib * 1024 * 1024;
}

/** The estimate of a big run and how to go on, for a person (stderr) or a program (--json). */
function refuse(
  io: CliIo,
  name: string,
  estimate: RunEstimate,
  reasons: string[],
  json: boolean,
  writesTrace: boolean,
  cap: number | undefined,
): number {
  const capped =
    writesTrace && cap !== undefined && estimate.traceBytes > cap
      ? `Its trace would reach the cap of ${formatBytesRoughly(cap)} (--max-trace-mb) about ${traceCapPercent(estimate, cap)}% of the way through: the run would stop there.`
      : undefined;
  const hint = `add --yes to run it anyway${writesTrace ? ' (--max-trace-mb sets the trace cap)' : ''}, or choose smaller parameters`;
  if (json) {
    io.out(
      JSON.stringify({
        refused: true,
        reasons,
        estimate,
        limits: defaultGuardLimits,
        ...(cap !== undefined ? { maxTraceBytes: cap } : {}),
        hint,
      }) + '\n',
    );
  } else {
    io.err(
      [
        `listwatch scenario run: not started: ${name} with these parameters is a big run (${reasons.join('; ')}).`,
        'Estimate, from its parameters:',
        ...estimateLines(estimate, writesTrace).map((l) => `  ${l}`),
        ...(capped ? [capped] : []),
        `To go on, ${hint}.`,
        '',
      ].join('\n'),
    );
  }
  return exitUsage;
}

async function runOne(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals, repeated } = parseArgs(argv, [
    setOption,
    { name: 'seed', value: true },
    { name: 'json', value: false },
    { name: 'trace', value: true },
    { name: 'fast-paths', value: true },
    { name: 'max-trace-mb', value: true },
    { name: 'yes', value: false },
    { name: 'help', value: false, short: 'h' },
  ]);
  const sets = setPairs(repeated.get('set'));
  if (options.has('help')) {
    io.out(help + '\n');
    return exitOk;
  }
  const fastPathsText = options.get('fast-paths');
  if (fastPathsText !== undefined && fastPathsText !== 'on' && fastPathsText !== 'off')
    throw new UsageError(`--fast-paths expects on or off, got ${JSON.stringify(fastPathsText)}`);
  if (positionals.length === 0)
    throw new UsageError("scenario run: name a scenario (see 'listwatch scenario list')");
  if (positionals.length > 1)
    throw new UsageError(
      `scenario run: one scenario at a time, got ${positionals.map((p) => JSON.stringify(p)).join(', ')}`,
    );
  const name = positionals[0];
  const set: Record<string, string> = {};
  for (const [k, v] of sets) {
    if (k in set) throw new UsageError(`--set ${k} given more than once`);
    set[k] = v;
  }
  let seed = defaultSeed;
  const seedText = options.get('seed');
  if (seedText !== undefined) {
    if (typeof seedText !== 'string' || !/^\d+$/.test(seedText) || Number(seedText) > 0xffffffff) {
      throw new UsageError(
        `--seed expects a whole number from 0 to 4294967295, got ${JSON.stringify(seedText)}`,
      );
    }
    seed = Number(seedText);
  }
  try {
    resolveParams(name, set);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const tracePath = options.get('trace') as string | undefined;
  const cap = maxTraceBytes(options.get('max-trace-mb'));
  const estimate = estimateRun(name, set);
  const reasons = guardReasons(estimate, defaultGuardLimits, tracePath !== undefined);
  if (reasons.length > 0 && !options.has('yes'))
    return refuse(io, name, estimate, reasons, options.has('json'), tracePath !== undefined, cap);
  let sink: FileLineSink | undefined;
  if (tracePath !== undefined) {
    try {
      sink = new FileLineSink(tracePath);
    } catch (e) {
      throw new UsageError(
        `--trace: cannot write ${JSON.stringify(tracePath)}: ${(e as Error).message}`,
      );
    }
  }
  let result;
  try {
    result = await runScenario(name, set, {
      seed,
      trace: sink ? new TraceWriter(sink.line) : undefined,
      maxTraceBytes: cap,
      onProgress: progressReporter(io, estimate),
      fastPaths: fastPathsText !== 'off',
    });
  } finally {
    sink?.close();
  }
  const { model, summary, truncated } = result;
  if (options.has('json'))
    io.out(
      JSON.stringify({
        ...runJson(model, summary, jsonSections(name)),
        ...(truncated ? { traceCap: truncated } : {}),
      }) + '\n',
    );
  else {
    io.out(renderReport(model, summary) + '\n');
    if (tracePath !== undefined)
      io.out(`Trace written to ${tracePath}${truncated ? ' (truncated)' : ''}.\n`);
  }
  if (!truncated) return exitOk;
  io.err(
    `listwatch scenario run: ${truncated.message}. Raise --max-trace-mb (now ${formatBytesRoughly(truncated.capBytes)}; 0: no cap) to record the whole run.\n`,
  );
  return exitInvalid;
}

async function estimateOne(argv: string[], io: CliIo): Promise<number> {
  const { options, positionals, repeated } = parseArgs(argv, [
    setOption,
    { name: 'json', value: false },
    { name: 'trace', value: true },
    { name: 'help', value: false, short: 'h' },
  ]);
  const sets = setPairs(repeated.get('set'));
  if (options.has('help')) {
    io.out(help + '\n');
    return exitOk;
  }
  if (positionals.length !== 1)
    throw new UsageError("scenario estimate: name one scenario (see 'listwatch scenario list')");
  const set: Record<string, string> = {};
  for (const [k, v] of sets) {
    if (k in set) throw new UsageError(`--set ${k} given more than once`);
    set[k] = v;
  }
  let estimate: RunEstimate;
  try {
    estimate = estimateRun(positionals[0], set);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const writesTrace = options.has('trace');
  const reasons = guardReasons(estimate, defaultGuardLimits, writesTrace);
  if (options.has('json')) {
    io.out(JSON.stringify({ estimate, needsYes: reasons.length > 0, reasons }) + '\n');
    return exitOk;
  }
  io.out(
    [
      `${estimate.scenario}, estimated from its parameters:`,
      ...estimateLines(estimate, writesTrace).map((l) => `  ${l}`),
      reasons.length > 0
        ? `A big run (${reasons.join('; ')}): 'scenario run' needs --yes.`
        : 'Within the limits: it runs without --yes.',
      '',
    ].join('\n'),
  );
  return exitOk;
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    if (sub === undefined)
      throw new UsageError('scenario: expected a subcommand, list, estimate or run');
    io.out(help + '\n');
    return exitOk;
  }
  if (sub === 'list') {
    const { options, positionals } = parseArgs(rest, [
      { name: 'json', value: false },
      { name: 'help', value: false, short: 'h' },
    ]);
    if (options.has('help')) {
      io.out(help + '\n');
      return exitOk;
    }
    if (positionals.length)
      throw new UsageError(
        `scenario list takes no arguments, got ${JSON.stringify(positionals[0])}`,
      );
    if (options.has('json')) io.out(JSON.stringify(listScenarios()) + '\n');
    else listText(io);
    return exitOk;
  }
  if (sub === 'run') return runOne(rest, io);
  if (sub === 'estimate') return estimateOne(rest, io);
  throw new UsageError(
    `scenario: unknown subcommand ${JSON.stringify(sub)}; expected list, estimate or run`,
  );
}

export const scenarioCommand: CliCommand = {
  name: 'scenario',
  summary: 'list the built-in scenarios, or run one in virtual time and report',
  help,
  run,
};
