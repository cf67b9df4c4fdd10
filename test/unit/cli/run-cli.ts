// Test helper for the CLI tests: runs the bundled dist/cli.js (built by `node esbuild.js`) in a
// child process from the project root and returns its exit code, stdout and stderr.
import { spawnSync } from 'child_process';
import * as path from 'path';

export const root = path.resolve(__dirname, '../../../..');
export const cli = path.join(root, 'dist/cli.js');

export function runCli(
  args: string[],
  input = '',
): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], {
    input,
    encoding: 'utf8',
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
