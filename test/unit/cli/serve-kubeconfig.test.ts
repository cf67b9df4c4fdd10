// Tests for `listwatch serve`'s kubeconfig (src/cli/serve-command.ts, src/server/kubeconfig.ts) as
// a user meets it: the bundled dist/cli.js in a child process, stopped by signal.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cli, root, runCli } from './run-cli';

/** Starts `serve --json`, returns its first line, then sends `signal` and waits for the exit. */
function serveUntil(
  signal: NodeJS.Signals,
  args: string[] = [],
): Promise<{ first: { kubeconfig: string }; code: number | null }> {
  const child = spawn(process.execPath, [cli, 'serve', '--json', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let first: { kubeconfig: string } | undefined;
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (first || !out.includes('\n')) return;
      first = JSON.parse(out.slice(0, out.indexOf('\n'))) as { kubeconfig: string };
      assert.ok(fs.existsSync(first.kubeconfig), `${first.kubeconfig} exists while it serves`);
      process.kill(child.pid!, signal);
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      first
        ? resolve({ first, code })
        : reject(new Error(`serve exited (${code}) before serving: ${err}`)),
    );
  });
}

describe('listwatch serve: the kubeconfig', () => {
  before(() => assert.ok(fs.existsSync(cli), 'dist/cli.js is missing: run `node esbuild.js`'));

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`removes the temporary kubeconfig and its folder on ${signal}`, async () => {
      const { first, code } = await serveUntil(signal);
      assert.strictEqual(code, 0);
      const folder = path.dirname(first.kubeconfig);
      assert.ok(!fs.existsSync(folder), `${folder} (with the token) is left behind`);
    });
  }

  it('keeps a kubeconfig written where --kubeconfig asked', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-serve-kubeconfig-test-'));
    try {
      const file = path.join(dir, 'kubeconfig');
      const { code } = await serveUntil('SIGTERM', ['--kubeconfig', file]);
      assert.strictEqual(code, 0);
      assert.ok(fs.existsSync(file));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a --kubeconfig that is a symbolic link, naming it, and writes nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-serve-kubeconfig-test-'));
    try {
      const link = path.join(dir, 'kubeconfig');
      fs.symlinkSync(path.join(dir, 'target'), link);
      const r = runCli(['serve', '--kubeconfig', link]);
      assert.strictEqual(r.code, 1, r.err);
      assert.strictEqual(
        r.err,
        `listwatch serve: cannot start: kubeconfig ${link} is a symbolic link: not following it (name the file itself, or a new path)\n`,
      );
      assert.ok(!fs.existsSync(path.join(dir, 'target')), 'nothing written through the link');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
