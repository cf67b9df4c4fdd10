// `listwatch conform` (the real CLI) against `listwatch serve` in memory: every check passes with
// the exact --json shape; each fault that breaks a check makes that check fail with its reason
// and exit 1 (ignore-send-initial-events names the WatchList failure and its impact in the text);
// --read-only sends GETs only (the audit log of the server says so); an unreadable kubeconfig and
// an unreachable server exit 2 with the message. No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { ServeProcess } from './harness/serve-process';
import { allCheckIds, conformCli, notPassed, reportOf } from './harness/conform-cli';

describe('listwatch conform against listwatch serve (in memory)', function () {
  let server: ServeProcess;
  let dir: string;
  let audit: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-conform-'));
    audit = path.join(dir, 'audit.log');
    server = await ServeProcess.start(['--audit-log', audit]);
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await server.json('DELETE', '/debug/listwatch/v1/faults/active', 200);
  });

  it('passes every check, exits 0, and prints exactly the --json shape', async () => {
    const run = await conformCli(['--kubeconfig', server.info.kubeconfig, '--json']);
    const r = reportOf(run);
    assert.strictEqual(run.code, 0, notPassed(r));
    assert.deepStrictEqual(Object.keys(r), ['server', 'checks', 'passed', 'failed', 'skipped']);
    const kubeconfig = yaml.load(fs.readFileSync(server.info.kubeconfig, 'utf8')) as {
      clusters: { cluster: { server: string } }[];
    };
    assert.strictEqual(r.server, kubeconfig.clusters[0].cluster.server);
    assert.deepStrictEqual(
      r.checks.map((c) => c.id),
      allCheckIds,
    );
    for (const c of r.checks) {
      assert.deepStrictEqual(
        Object.keys(c),
        ['id', 'title', 'status', 'rule', 'expected', 'got', 'impact'],
        c.id,
      );
      assert.strictEqual(c.status, 'pass', `${c.id}: ${c.got}`);
      assert.match(c.rule, /^staging\/src\/k8s\.io\//, c.id);
    }
    assert.deepStrictEqual([r.passed, r.failed, r.skipped], [allCheckIds.length, 0, 0]);
    // resourceVersionMatch with continue, and sendInitialEvents on a LIST, are refused too.
    const rvMatch = r.checks.find((c) => c.id === 'list.resource-version-match');
    assert.match(
      rvMatch?.expected ?? '',
      /forbidden when continue is provided.*forbidden for list/,
    );
    assert.strictEqual(rvMatch?.got, 'all 7 answered as upstream');
    // What it created is gone: its namespace is deleted.
    const ns = /created namespace (\S+)/.exec(run.stderr)?.[1];
    assert.ok(ns, run.stderr);
    const left = await server.request('GET', `/api/v1/namespaces/${ns}`);
    assert.ok(
      left.status === 404 || /"phase":"Terminating"/.test(left.body),
      `${ns}: ${left.status} ${left.body}`,
    );
  });

  // [fault, its body, the check it breaks, what that check's got says]
  const faults: [string, Record<string, unknown>, string, RegExp][] = [
    [
      'omit-end-bookmark',
      {},
      'watchlist.initial-events',
      /ADDED\) and no BOOKMARK with k8s\.io\/initial-events-end/,
    ],
    [
      'ignore-send-initial-events',
      {},
      'watchlist.initial-events',
      /^200, 0 event\(s\) and no BOOKMARK with k8s\.io\/initial-events-end .*neither the initial events nor a refusal/,
    ],
    ['stall-watch', { seconds: 60 }, 'watch.bookmarks', /^no BOOKMARK in /],
    [
      'http-error',
      { code: 500, match: { verb: 'list' } },
      'list.paging',
      /^LIST .*: 500 InternalError: /,
    ],
    [
      'http-error',
      { code: 504, match: { verb: 'watch' } },
      'watch.from-list-rv',
      /^the watch: 504: .*Timeout/,
    ],
  ];
  for (const [fault, body, id, got] of faults)
    it(`with ${fault} ${JSON.stringify(body)}: ${id} fails with its reason, exit 1`, async () => {
      await server.fault(fault, body);
      const run = await conformCli(['--kubeconfig', server.info.kubeconfig, '--json']);
      const r = reportOf(run);
      assert.strictEqual(run.code, 1, notPassed(r));
      const c = r.checks.find((x) => x.id === id);
      assert.strictEqual(c?.status, 'fail', notPassed(r));
      assert.match(c.got, got);
      assert.strictEqual(r.failed, r.checks.filter((x) => x.status === 'fail').length);
    });

  it('with ignore-send-initial-events, the text names the WatchList failure and its impact', async () => {
    await server.fault('ignore-send-initial-events', { match: { resource: 'configmaps' } });
    const run = await conformCli(['--kubeconfig', server.info.kubeconfig]);
    assert.strictEqual(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /^ {2}fail {2}watchlist\.initial-events +WatchList: /m);
    const failures = run.stdout.slice(run.stdout.indexOf('\nFailures\n'));
    assert.match(failures, /watchlist\.initial-events: WatchList/);
    assert.match(failures, /impact: +client-go ≥ 1\.35 informers .*never syncs/);
    assert.match(run.stdout, /\n\d+ passed, 1 failed, 0 skipped\n/);
  });

  it('--read-only sends GETs only: the audit log has no other verb from it', async () => {
    const auditLines = (): string[] =>
      fs
        .readFileSync(audit, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
    const before = auditLines().length;
    const run = await conformCli(['--kubeconfig', server.info.kubeconfig, '--read-only', '--json']);
    const r = reportOf(run);
    assert.strictEqual(run.code, 0, notPassed(r));
    const skipped = r.checks.filter((c) => c.status === 'skip');
    for (const id of ['watch.from-list-rv', 'watch.ordered', 'list.expired-continue'])
      assert.match(skipped.find((c) => c.id === id)?.got ?? 'not skipped', /read-only/, id);
    const fromRun = auditLines()
      .slice(before)
      .map((l) => JSON.parse(l) as { userAgent?: string; verb: string; requestURI: string })
      .filter((e) => e.userAgent === 'listwatch-conform');
    assert.ok(fromRun.length > 10, `${fromRun.length} requests`);
    assert.deepStrictEqual(
      [...new Set(fromRun.map((e) => e.verb))].sort(),
      ['get', 'list', 'watch'],
      fromRun.map((e) => `${e.verb} ${e.requestURI}`).join('\n'),
    );
  });

  it('exits 2 with the message for an unreadable kubeconfig and an unreachable server', async () => {
    const missing = path.join(dir, 'no-such-kubeconfig');
    const a = await conformCli(['--kubeconfig', missing]);
    assert.strictEqual(a.code, 2);
    assert.strictEqual(a.stderr, `listwatch conform: kubeconfig ${missing}: no such file\n`);
    const doc = yaml.load(fs.readFileSync(server.info.kubeconfig, 'utf8')) as {
      clusters: { cluster: { server: string } }[];
    };
    doc.clusters[0].cluster.server = 'https://127.0.0.1:1';
    const closed = path.join(dir, 'closed-port');
    fs.writeFileSync(closed, yaml.dump(doc));
    const b = await conformCli(['--kubeconfig', closed]);
    assert.strictEqual(b.code, 2);
    assert.match(
      b.stderr,
      /^listwatch conform: cannot reach https:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/,
    );
    const c = await conformCli(['--kubeconfig', closed, '--resource', 'a/b']);
    assert.strictEqual(c.code, 2);
    assert.match(c.stderr, /--resource: "a\/b" is not a resource/);
  });
});
