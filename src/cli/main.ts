// The `listwatch` command: a table of subcommands, the top-level help and the dispatch (the
// process entry is listwatch.ts; this is its chunk dist/cli-commands.js).
import { decodeCommand } from './decode-command';
import { explainLogCommand } from './explain-log-command';
import { encodeCommand } from './encode-command';
import { explainCommand } from './explain-command';
import { exportCommand } from './export-command';
import { faultCommand } from './fault-command';
import { clientsCommand } from './clients-command';
import { importCommand } from './import-command';
import { replayCommand, reportCommand } from './replay-command';
import { scenarioCommand } from './scenario-command';
import { serveCommand } from './serve-command';
import { probeCommand, probeMetricsCommand } from './probe-command';
import { conformCommand } from './conform-command';
import { type CliCommand, type CliIo, exitOk, exitUsage, runCommand } from './command';

/** Every subcommand, in the order `listwatch --help` lists them. */
export const commands: CliCommand[] = [
  decodeCommand,
  encodeCommand,
  scenarioCommand,
  replayCommand,
  reportCommand,
  serveCommand,
  faultCommand,
  clientsCommand,
  importCommand,
  explainCommand,
  explainLogCommand,
  exportCommand,
  probeCommand,
  probeMetricsCommand,
  conformCommand,
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
  return runCommand(command, rest, io);
}
