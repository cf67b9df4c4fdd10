// The `listwatch` CLI's subcommand contract: each subcommand is one entry in main.ts's table.
import { visibleText } from '../format/visible-text';

/** Where a subcommand reads and writes; main.ts binds it to the process, tests may bind it to buffers. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, one line at a time (without the line break), read lazily. */
  stdinLines(): AsyncIterable<string>;
  /**
   * True once the reader of stdout has gone (`listwatch decode - < log | head`): writes are
   * dropped from then on, and a command that is still reading input may stop.
   */
  outputClosed?(): boolean;
}

export interface CliCommand {
  name: string;
  /** One line for `listwatch --help`. */
  summary: string;
  /** The full `listwatch <name> --help` text. */
  help: string;
  /** Returns the exit code: 0 success/all valid, 1 something invalid, 2 usage error (throw UsageError). */
  run(args: string[], io: CliIo): Promise<number>;
}

/** A bad command line: main.ts prints the message and the subcommand's usage hint, and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Exit codes shared by every subcommand. */
export const exitOk = 0;
export const exitInvalid = 1;
export const exitUsage = 2;

/**
 * Runs one subcommand: a UsageError becomes its message and the usage hint on stderr, exit 2.
 * Each CLI chunk (esbuild.js lazyCliChunks) runs its commands through its own copy of this, so
 * the UsageError a command throws is the one this copy catches.
 */
export async function runCommand(command: CliCommand, argv: string[], io: CliIo): Promise<number> {
  try {
    return await command.run(argv, io);
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
