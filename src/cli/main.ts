// The `listwatch` command: a table of subcommands, the top-level help and the dispatch.
import { createInterface } from 'node:readline';
import { decodeCommand } from './decode-command';
import { encodeCommand } from './encode-command';
import { replayCommand, reportCommand } from './replay-command';
import { scenarioCommand } from './scenario-command';
import { type CliCommand, type CliIo, UsageError, exitOk, exitUsage } from './command';

/** Every subcommand, in the order `listwatch --help` lists them. */
export const commands: CliCommand[] = [
  decodeCommand,
  encodeCommand,
  scenarioCommand,
  replayCommand,
  reportCommand,
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
      io.err(`listwatch ${command.name}: ${e.message}\n`);
      io.err(`Run 'listwatch ${command.name} --help' for usage.\n`);
      return exitUsage;
    }
    throw e;
  }
}

/** The process-bound io: stdout/stderr writes and stdin read line by line as it arrives. */
const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  stdinLines: () => createInterface({ input: process.stdin, crlfDelay: Infinity }),
};

if (require.main === module) {
  runCli(process.argv.slice(2), processIo).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(
        `listwatch: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      process.exitCode = 70;
    },
  );
}
