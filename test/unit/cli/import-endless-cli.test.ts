// Tests for `listwatch import` on input that never ends or has no lines (src/cli/import-command.ts
// over src/import/import-files.ts): the bundled dist/cli.js in a child process, as a user runs it.
import * as assert from 'assert';
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cli, root, runCli } from './run-cli';

describe('listwatch import: endless and line-less input', () => {
  before(() => assert.ok(fs.existsSync(cli), 'dist/cli.js is missing: run `node esbuild.js`'));

  it('refuses /dev/zero on its own: no line end in its first 64 MiB, exit 1', () => {
    const r = runCli(['import', '/dev/zero']);
    assert.strictEqual(r.code, 1, r.err);
    assert.strictEqual(r.out, '');
    assert.match(
      r.err,
      /^listwatch import: reading 1 file, size unknown \(\/dev\/zero has none\)\nlistwatch import: read 64\.\d MiB \(size unknown\); Ctrl-C stops\nlistwatch import: reading failed: \/dev\/zero: no line end in its first 64 MiB \(line 1 still open at byte \d+\): not a log of lines; the longest line the import reads is 64 MiB\n$/,
    );
  });

  it('shows progress on an endless pipe, and Ctrl-C stops it (exit 130)', async () => {
    // `yes` writes the same line for ever into a FIFO: lines, so nothing is refused; only
    // Ctrl-C ends it. (A FIFO, as Node's own stdin pipes are sockets /dev/stdin cannot open.)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-import-endless-test-'));
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const yes = spawn('sh', ['-c', 'exec yes "$0" > "$1"', 'x'.repeat(1000), fifo], {
      stdio: 'ignore',
    });
    const child = spawn(process.execPath, [cli, 'import', fifo], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let interrupted = false;
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (!interrupted && err.includes('(size unknown); Ctrl-C stops\n')) {
        interrupted = true;
        process.kill(child.pid!, 'SIGINT');
      }
    });
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    // yes ends by SIGPIPE once the import closes the FIFO; else it is stopped here.
    if (yes.exitCode === null && yes.signalCode === null) yes.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    assert.strictEqual(code, 130, err);
    assert.match(
      err,
      /^listwatch import: reading 1 file, size unknown \(.*\/fifo has none\)\nlistwatch import: read 64\.\d MiB \(size unknown\); Ctrl-C stops\n(listwatch import: read \d+\.\d MiB \(size unknown\); Ctrl-C stops\n)*listwatch import: stopped \(Ctrl-C\); no report\n$/,
    );
  });
});
