// `listwatch serve --seed` at a size worth saying: its size before the first create, its progress,
// and Ctrl-C while it seeds into a spawned etcd-server, which stops the server and that etcd (the
// process and its port) with a message saying how far the seed got. No upstream counterpart.
import * as assert from 'assert';
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { projectRoot } from '../harness/paths';
import { eventually } from '../server/harness/eventually';
import { ServeProcess } from '../server/harness/serve-process';
import { alive } from '../harness/process-alive';

/** The etcd processes whose parent is `pid`. */
function etcdChildren(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-x', 'etcd'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('listwatch serve --seed, a big one', function () {
  it('in memory: says how big before the first create and when it is done', async () => {
    const s = await ServeProcess.start(['--seed', 'pods=1200,configmaps=300']);
    try {
      assert.ok(
        s.stderr.includes(
          'listwatch serve: seeding 1500 objects (pods=1200, configmaps=300) into the in-memory etcd, one create at a time; Ctrl-C stops\n',
        ),
        s.stderr,
      );
      assert.match(s.stderr, /listwatch serve: seeded 1500 objects in \d+\.\d s\n/);
      const pods = await s.json<{ items: unknown[] }>(
        'GET',
        '/api/v1/namespaces/default/pods',
        200,
      );
      assert.strictEqual(pods.items.length, 1200);
    } finally {
      assert.strictEqual(await s.stop(), 0);
    }
    // A small seed says nothing.
    const small = await ServeProcess.start(['--seed', 'pods=999']);
    try {
      assert.ok(!small.stderr.includes('seed'), small.stderr);
    } finally {
      assert.strictEqual(await small.stop(), 0);
    }
  });

  it('Ctrl-C while seeding into a spawned etcd-server: exit 1, how far it got, and etcd stopped', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-seed-interrupt-'));
    const child = spawn(
      process.execPath,
      [
        path.join(projectRoot(), 'dist', 'cli.js'),
        'serve',
        '--json',
        '--kubeconfig',
        path.join(dir, 'kubeconfig'),
        '--etcd',
        'spawn',
        '--seed',
        'pods=50000',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      // The size first, then a progress line (every 2 s), while etcd-server runs under it.
      await eventually(
        () =>
          assert.match(
            stderr,
            /seeding 50000 objects \(pods=50000, configmaps=0\) into the etcd-server it started, one create at a time; Ctrl-C stops\n(.|\n)*seeded \d+ of 50000 objects \(\d+%, \d+\.\d s\)\n/,
          ),
        500,
      );
      const etcds = etcdChildren(child.pid!);
      assert.strictEqual(etcds.length, 1, `etcd children of ${child.pid}: ${etcds.join(' ')}`);
      child.kill('SIGINT');
      assert.strictEqual(await exited, 1, stderr);
      const m =
        /listwatch serve: cannot start: interrupted while seeding: (\d+) of 50000 objects in place\n/.exec(
          stderr,
        );
      assert.ok(m, stderr);
      assert.ok(Number(m[1]) > 0 && Number(m[1]) < 50000, m[0]);
      assert.strictEqual(stdout, '', 'no ready line: it never served');
      assert.ok(!alive(etcds[0]), `etcd ${etcds[0]} still runs`);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
