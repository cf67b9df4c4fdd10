// No upstream counterpart: the lines of the trace a command reads (`replay`, `report`, `export`):
// a file, or stdin for `-`; a missing file or a directory is a usage error naming it.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type CliIo, UsageError } from './command';

export function traceFileLines(path: string, io: CliIo): AsyncIterable<string> {
  if (path === '-') return io.stdinLines();
  if (!existsSync(path)) throw new UsageError(`no such file: ${path}`);
  if (statSync(path).isDirectory())
    throw new UsageError(`${path} is a directory, not a trace file`);
  return createInterface({
    input: createReadStream(path, { encoding: 'utf8' }),
    crlfDelay: Infinity,
  });
}
