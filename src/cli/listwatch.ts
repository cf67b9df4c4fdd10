// The `listwatch` process (dist/cli.js): binds the CLI to the process's stdio and exits with its
// code. It is small on purpose: `serve` requires only its own chunk (dist/cli-serve.js, the server
// without the other commands), every other command the CLI's (dist/cli-commands.js, main.ts), so a
// server's start compiles only the code it runs (esbuild.js cliChunks), and that from V8's code cache
// (compile-cache.ts). No upstream counterpart.
import { visibleMessage, visibleText } from '../format/visible-text';
import type { CliIo } from './command';
import { requireWithCompileCache, saveCompileCache } from './compile-cache';
import { join } from 'node:path';

/**
 * The process-bound io: stdout/stderr writes and stdin read line by line as it arrives. When the
 * reader of stdout goes away (EPIPE, e.g. `| head`), output stops quietly instead of throwing.
 */
function processIo(): CliIo & { closed: () => boolean } {
  let closed = false;
  let started = false;
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
    out: (text) => {
      if (!closed) process.stdout.write(text);
      // The first output (serve's ready line, a command's first result): the code that starts the
      // command is compiled now, what its chunk's code cache should hold.
      if (!started) {
        started = true;
        setImmediate(saveCompileCache);
      }
    },
    err: (text) => void process.stderr.write(text),
    // Required when read: `serve` never reads stdin, and readline is a dozen modules to load.
    stdinLines: () =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('node:readline') as typeof import('node:readline')).createInterface({
        input: process.stdin,
        crlfDelay: Infinity,
      }),
    outputClosed: () => closed,
    closed: () => closed,
  };
}

/**
 * `listwatch serve …` runs the serve command alone; anything else goes through main.ts's table.
 * Each chunk is dist/<name> beside this file (esbuild.js cliChunks), run from V8's code cache.
 */
function run(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'serve') {
    const serve = requireWithCompileCache(
      join(__dirname, 'cli-serve.js'),
    ) as typeof import('./serve-command');
    return serve.runServeCommand(argv.slice(1), io);
  }
  const main = requireWithCompileCache(
    join(__dirname, 'cli-commands.js'),
  ) as typeof import('./main');
  return main.runCli(argv, io);
}

const io = processIo();
run(process.argv.slice(2), io).then(
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
