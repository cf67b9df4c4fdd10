// The `listwatch` CLI's subcommand contract: each subcommand is one entry in main.ts's table.

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
