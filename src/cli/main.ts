// The `listwatch` command: a table of subcommands, the top-level help and the dispatch.
import { createInterface } from 'node:readline';
import { visibleMessage, visibleText } from '../format/visible-text';
import { decodeCommand } from './decode-command';
import { encodeCommand } from './encode-command';
import { explainCommand } from './explain-command';
import { exportCommand } from './export-command';
import { faultCommand } from './fault-command';
import { importCommand } from './import-command';
import { replayCommand, reportCommand } from './replay-command';
import { scenarioCommand } from './scenario-command';
import { serveCommand } from './serve-command';
import { probeCommand, probeMetricsCommand } from './probe-command';
import { type CliCommand, type CliIo, UsageError, exitOk, exitUsage } from './command';

/** Every subcommand, in the order `listwatch --help` lists them. */
export const commands: CliCommand[] = [
  decodeCommand,
  encodeCommand,
  scenarioCommand,
  replayCommand,
  reportCommand,
  serveCommand,
  faultCommand,
  importCommand,
  explainCommand,
  exportCommand,
  probeCommand,
  probeMetricsCommand,
];

function topHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: listwatch <command> [options]',
    '',
    'Inspect what the Kubernetes apiserver (k8s.io/apiserver release-1.36) does with LIST and WATCH.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'listwatch <command> --help' for a command's options.",
  ].join('\n');
}

/** Runs the CLI with argv (without node and script) and returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err(topHelp() + '\n');
    return exitUsage;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const sub = rest[0] !== undefined ? commands.find((c) => c.name === rest[0]) : undefined;
    io.out((sub ? sub.help : topHelp()) + '\n');
    return exitOk;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(
      `listwatch: unknown command ${JSON.stringify(name)}; expected one of: ${commands.map((c) => c.name).join(', ')}\n`,
    );
    io.err("Run 'listwatch --help' for usage.\n");
    return exitUsage;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      // The message may quote what was rejected (an argument, a trace line): never raw control characters.
      io.err(`listwatch ${command.name}: ${visibleText(e.message)}\n`);
      io.err(`Run 'listwatch ${command.name} --help' for usage.\n`);
      return exitUsage;
    }
    throw e;
  }
}

/**
 * The process-bound io: stdout/stderr writes and stdin read line by line as it arrives. When the
 * reader of stdout goes away (EPIPE, e.g. `| head`), output stops quietly instead of throwing.
 */
function processIo(): CliIo & { closed: () => boolean } {
  let closed = false;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (!closed && e.code !== 'EPIPE') {
      process.stderr.write(`listwatch: cannot write to stdout: ${visibleText(e.message)}\n`);
      process.exitCode = 74; // EX_IOERR
    }
    closed = true;
  });
  // Nothing can be reported once stderr's reader is gone either.
  process.stderr.on('error', () => undefined);
  return {
    out: (text) => void (closed || process.stdout.write(text)),
    err: (text) => void process.stderr.write(text),
    stdinLines: () => createInterface({ input: process.stdin, crlfDelay: Infinity }),
    outputClosed: () => closed,
    closed: () => closed,
  };
}

if (require.main === module) {
  const io = processIo();
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode ??= code;
      // Stdin may still be open (a producer still writing): nothing more will be read or written.
      if (io.closed()) process.exit();
    },
    (e: unknown) => {
      process.stderr.write(
        `listwatch: internal error: ${visibleMessage(e instanceof Error ? (e.stack ?? e.message) : String(e))}\n`,
      );
      process.exitCode = 70;
    },
  );
}
