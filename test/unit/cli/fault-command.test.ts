// Tests for `listwatch fault` (src/cli/fault-command.ts): the bundled dist/cli.js against a real
// HTTP admin server (test/unit/server/admin-server.ts), with a kubeconfig as listwatch serve
// writes it; exit codes, stdout and stderr.
import * as assert from 'assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { adminToken, startAdminServer, type AdminServer } from '../server/admin-server';
import { flagName } from '../../../src/cli/fault-command';
import { readKubeconfig } from '../../../src/cli/admin-api';

const root = path.resolve(__dirname, '../../../..');
const cli = path.join(root, 'dist/cli.js');

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [cli, ...args], { cwd: root });
    let out = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

function kubeconfig(server: string, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: other',
    '  cluster: {server: "http://127.0.0.1:1"}',
    '- name: listwatch',
    `  cluster: {server: "${server}"}`,
    'users:',
    '- name: listwatch',
    `  user: {token: "${token}"}`,
    'contexts:',
    '- name: listwatch',
    '  context: {cluster: listwatch, user: listwatch}',
    'current-context: listwatch',
    '',
  ].join('\n');
}

describe('listwatch fault', () => {
  let s: AdminServer;
  let dir: string;
  let kc: string;
  before(() =>
    assert.ok(fs.existsSync(cli), 'dist/cli.js is missing: run `node esbuild.js` first'),
  );
  beforeEach(async () => {
    s = await startAdminServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-fault-'));
    kc = path.join(dir, 'kubeconfig');
    fs.writeFileSync(kc, kubeconfig(s.url, adminToken));
  });
  afterEach(async () => {
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('POSTs a fault with its parameters from flags and prints the answer', async () => {
    const r = await run([
      'fault',
      '--kubeconfig',
      kc,
      'cache-lag',
      '--seconds',
      '2',
      '--resource',
      'pods',
    ]);
    assert.strictEqual(r.code, 0, r.err);
    const answer = JSON.parse(r.out) as { fault: string; resources: { pausedForMs: number }[] };
    assert.strictEqual(answer.fault, 'cache-lag');
    assert.strictEqual(answer.resources[0].pausedForMs, 2000);
    assert.strictEqual(s.pods.engine.cacher.reflector.pausedFor(), 2000);
  });

  it('sends matchers and a trigger; --active lists the fault with its id; --clear ID clears it, an unknown id exits 1', async () => {
    const posted = await run([
      'fault',
      '--kubeconfig',
      kc,
      'http-error',
      '--code',
      '429',
      '--verb',
      'list',
      '--resource',
      'pods',
      '--user-agent',
      'kubectl',
      '--watch-list',
      'false',
      '--nth',
      '2',
    ]);
    assert.strictEqual(posted.code, 0, posted.err);
    const { id } = JSON.parse(posted.out) as { id: number };
    const active = await run(['fault', '--kubeconfig', kc, '--active']);
    assert.strictEqual(active.code, 0, active.err);
    assert.strictEqual(
      active.out,
      `#${id} http-error {"code":429} match {"verb":"list","resource":"pods","userAgent":"kubectl","watchList":false} trigger {"nth":2}: armed, 0 hits\n`,
    );
    const cleared = await run(['fault', '--kubeconfig', kc, '--clear', String(id)]);
    assert.strictEqual(cleared.code, 0, cleared.err);
    assert.deepStrictEqual(
      (JSON.parse(cleared.out) as { cleared: { id: number }[] }).cleared.map((f) => f.id),
      [id],
    );
    const again = await run(['fault', '--kubeconfig', kc, '--clear', String(id)]);
    assert.strictEqual(again.code, 1);
    assert.strictEqual(
      again.err,
      `listwatch fault: 404 no active fault with id "${id}" (no fault is active)\n`,
    );
    const none = await run(['fault', '--kubeconfig', kc, '--active']);
    assert.strictEqual(none.out, 'no fault is active\n');
  });

  it('--clear all clears a scheduled server fault before its time', async () => {
    const posted = await run([
      'fault',
      '--kubeconfig',
      kc,
      'restart',
      '--resource',
      'pods',
      '--after-seconds',
      '30',
    ]);
    assert.strictEqual(posted.code, 0, posted.err);
    assert.match(
      (await run(['fault', '--kubeconfig', kc, '--active'])).out,
      /^#\d+ restart \{"resource":"pods"\} trigger \{"afterSeconds":30\}: pending, 0 hits$/m,
    );
    const r = await run(['fault', '--kubeconfig', kc, '--clear', 'all']);
    assert.strictEqual(r.code, 0, r.err);
    assert.strictEqual(
      (await run(['fault', '--kubeconfig', kc, '--active'])).out,
      'no fault is active\n',
    );
  });

  it('takes camelCase parameters as kebab-case flags', async () => {
    const r = await run(['fault', '--kubeconfig', kc, 'etcd-latency', '--per-request-ms=5']);
    assert.strictEqual(r.code, 0, r.err);
    assert.strictEqual(s.world.etcd.latencyModel.perRequestMs, 5);
  });

  it('--list prints every fault and its flags', async () => {
    const r = await run(['fault', '--kubeconfig', kc, '--list']);
    assert.strictEqual(r.code, 0, r.err);
    assert.match(r.out, /^compact: /m);
    assert.match(r.out, /^ {4}--user-agent string: /m);
  });

  it("--help: terminate-watcher needs exactly one of --id and --user-agent; the in-memory etcd's faults say so", async () => {
    const r = await run(['fault', '--help']);
    assert.strictEqual(r.code, 0, r.err);
    const lines = r.out.split('\n');
    const at = lines.indexOf('  terminate-watcher');
    assert.ok(at >= 0, r.out);
    assert.deepStrictEqual(
      lines.slice(at + 1, at + 5).map((l) => l.split(':')[0]),
      [
        '      exactly one of --id, --user-agent is required',
        '      --id',
        '      --user-agent',
        '      --resource (optional)',
      ],
    );
    for (const name of ['etcd-latency', 'etcd-unavailable', 'rangestream'])
      assert.ok(lines.includes(`  ${name} (in-memory etcd only)`), `${name}:\n${r.out}`);
    assert.ok(lines.includes('  compact'), r.out);
  });

  it('--list: terminate-watcher says exactly one of --id, --user-agent', async () => {
    const r = await run(['fault', '--kubeconfig', kc, '--list']);
    assert.strictEqual(r.code, 0, r.err);
    assert.match(
      r.out,
      /^terminate-watcher: .*\n {4}exactly one of --id, --user-agent is required$/m,
    );
  });

  const failures: [string, string[], number, RegExp][] = [
    [
      'the server refuses a value',
      ['compact', '--revision', '999'],
      1,
      /422 revision: etcdserver: mvcc: required revision is a future revision/,
    ],
    [
      'a flag of another fault',
      ['compact', '--seconds', '1'],
      2,
      /--seconds is not a parameter of compact; it takes --revision/,
    ],
    [
      'not a number',
      ['cache-lag', '--seconds', 'soon'],
      2,
      /--seconds: expected a number, got "soon"/,
    ],
    ['no fault', [], 2, /expected one fault name \(compact, cache-lag/],
    [
      'a matcher a server fault cannot use',
      ['compact', '--verb', 'list'],
      1,
      /422 match\.verb: compact acts on the server, not on requests: it takes only the replica matcher/,
    ],
    [
      'an unknown matcher value',
      ['blackhole', '--verb', 'lists'],
      1,
      /422 match\.verb: expected one of get, list, watch/,
    ],
    [
      'a --clear that is no id',
      ['--clear', 'first'],
      2,
      /--clear: expected a fault id \(see --active\) or all, got "first"/,
    ],
    ['--nth not a number', ['blackhole', '--nth', 'two'], 2, /--nth: expected a number, got "two"/],
    ['an unknown fault', ['crash'], 2, /unknown fault "crash"; see --list/],
  ];
  for (const [name, args, code, re] of failures) {
    it(`exits ${code} for ${name}`, async () => {
      const r = await run(['fault', '--kubeconfig', kc, ...args]);
      assert.strictEqual(r.code, code, r.out + r.err);
      assert.match(r.err, re);
    });
  }

  it('exits 1 with the status for a wrong token', async () => {
    fs.writeFileSync(kc, kubeconfig(s.url, 'wrong'));
    const r = await run(['fault', '--kubeconfig', kc, 'restart']);
    assert.strictEqual(r.code, 1);
    assert.match(r.err, /^listwatch fault: 401 /);
  });

  it('reads the current context of a kubeconfig, and says what is missing', () => {
    assert.deepStrictEqual(readKubeconfig(kubeconfig('http://127.0.0.1:8080/', 't'), 'k'), {
      server: 'http://127.0.0.1:8080',
      token: 't',
    });
    assert.throws(
      () => readKubeconfig('clusters: []\n', 'k'),
      /k: no clusters\[\]\.cluster\.server/,
    );
    assert.throws(() => readKubeconfig('a: [', 'k'), /k: not YAML/);
    assert.strictEqual(flagName('perCountedKeyMs'), 'per-counted-key-ms');
  });
});
