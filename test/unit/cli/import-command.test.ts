// Tests for `listwatch import` (src/cli/import-command.ts, import-report-text.ts): the command's
// options and checks in the built CLI (dist/cli.js), and its output with a reader that hands the
// builder known requests (the real readers, import-files.ts, are tested by their own suite; the
// end-to-end run on test/fixtures/audit.log is import-cli.test.ts, once they are merged).
import type { ImportReport } from '../../../src/run/import-report';
import * as assert from 'assert';
import * as path from 'path';
import { encodeContinue } from '../../../src/engine/storage/continue';
import {
  importCommandWith,
  type ImportFiles,
  type ImportFilesOptions,
} from '../../../src/cli/import-command';
import type { CliIo } from '../../../src/cli/command';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { root, runCli } from './run-cli';

const fixture = path.join(root, 'test/fixtures/audit.log');
const t0 = Date.UTC(2025, 2, 12, 10, 15, 0);
let seq = 0;

function req(
  verb: string,
  uri: string,
  ua: string,
  at: number,
  end: number | undefined,
  code = 200,
): ImportedRequest {
  seq++;
  const r: ImportedRequest = {
    id: `a${seq}`,
    auditID: `a${seq}`,
    sources: [{ file: 'audit.log', line: seq, format: 'audit' }],
    verb,
    requestURI: uri,
    userAgent: ua,
    user: 'system:serviceaccount:ops:backup',
    receivedAt: t0 + at * 1000,
    startInFile: true,
    endInFile: end !== undefined,
  };
  if (end !== undefined) {
    r.completedAt = t0 + end * 1000;
    r.code = code;
  }
  if (code === 410)
    r.status = { reason: 'Expired', message: 'The provided continue parameter is too old' };
  return r;
}

const token = (last: string, rv: number) =>
  encodeContinue(`/registry/pods/${last}\u0000`, '/registry/pods/', rv);

/** A reader that hands over a backup chain broken by a 410, an informer's relist and two rejects. */
const fakeImport: ImportFiles = (files, options, sink) => {
  // The Ctrl-C signal is the command's own, not an option the user gave.
  const { signal, ...given } = options;
  assert.ok(signal instanceof AbortSignal);
  seen.push({ files, options: given });
  const backup = 'backup-agent/1.7.0';
  const evil = 'evil/1.0 \u001b[31m<script>alert(1)</script>';
  for (const r of [
    req('list', '/api/v1/pods?limit=500', backup, 0, 0.2),
    req('list', `/api/v1/pods?limit=500&continue=${token('default/web-1', 41007)}`, backup, 1, 1.2),
    req(
      'list',
      `/api/v1/pods?limit=500&continue=${token('default/web-9', 41007)}`,
      backup,
      400,
      400.1,
      410,
    ),
    req('list', '/api/v1/pods?limit=500', backup, 402, 402.3),
    req('watch', '/api/v1/pods?watch=true&timeoutSeconds=300', evil, 0, 30),
    req('list', '/api/v1/pods?limit=500', evil, 31, 31.1),
  ])
    sink.request(r);
  sink.reject({
    file: 'audit.log',
    line: 7,
    format: 'audit',
    reason: 'expected an audit.k8s.io/v1 Event: unexpected end of JSON input',
    text: '{"kind":"Event","apiVers',
  });
  sink.reject({
    file: 'audit.log',
    line: 9,
    format: 'audit',
    reason: 'expected an audit.k8s.io/v1 Event: not JSON',
    text: '\u0007bell',
  });
  return Promise.resolve({
    records: 6,
    lines: 8,
    skipped: 0,
    rejected: 2,
    files: [{ file: 'audit.log', format: 'audit' }],
    assumptions: { timeZone: 'UTC' },
  });
};
const seen: Array<{ files: string[]; options: ImportFilesOptions }> = [];

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    stdinLines: () => [] as unknown as AsyncIterable<string>,
  };
  const command = importCommandWith({
    importFiles: fakeImport,
    explainRequest: (url) =>
      Promise.resolve({
        kind: url.includes('watch=true') ? 'watch' : 'list',
        servedBy: 'etcd',
        rule: 'limit with no resourceVersion: a consistent read, delegated to etcd',
        limitHonoured: true,
        consistentRead: true,
        mayWait: false,
      }),
  });
  const code = await command.run(args, io);
  return { code, out, err };
}

describe('listwatch import: output', () => {
  it('text: sizes first, then clients, the broken chain and its restart, the relist, rejects with positions', async () => {
    const r = await run([fixture, '--year', '2025', '--format', 'audit']);
    assert.strictEqual(r.code, 0, r.err);
    assert.match(r.err, /^listwatch import: reading 1 file, [\d.]+ KiB\n$/);
    assert.deepStrictEqual(seen[seen.length - 1], {
      files: [fixture],
      options: { year: 2025, format: 'audit' },
    });
    for (const want of [
      /USER AGENT +MODE +REQ +LIST +WATCH +410 +429 +504 +RELISTS/,
      /backup-agent\/1\.7\.0 +list-only +4 +4 +0 +1 +0 +0 +0/,
      /chain 1 · backup-agent\/1\.7\.0 \(system:serviceaccount:ops:backup\) · \/api\/v1\/pods/,
      /3 pages of limit 500 · codes 200 200 410 · rv 41007 · broken by 410 Expired at page 3, restarted as chain 2/,
      /page 2: continue at rv 41007 from key "\/registry\/pods\/default\/web-1␀" \(DecodeContinue; linked by first-page\)/,
      /restarts chain 1 from scratch \(no continue\)/,
      /LIST of pods 1 s after its watch ended early \(audit\.log:5\) · audit\.log:6/,
      /Rejected lines: 2\n {2}audit\.log:7: expected an audit\.k8s\.io\/v1 Event: unexpected end of JSON input/,
      /audit\.log:9: expected an audit\.k8s\.io\/v1 Event: not JSON: ␇bell/,
      /LIST \/api\/v1\/pods\?limit=… ×3: etcd · limit with no resourceVersion/,
    ])
      assert.match(r.out, want);
    // The user agent's escape sequence is shown, never sent to the terminal.
    assert.ok(!r.out.includes('\u001b'), 'raw ESC in the output');
    assert.match(r.out, /evil\/1\.0 ␛\[31m<script>/);
  });

  it('--json: one ImportReport object with the fields the issue names', async () => {
    const r = await run([fixture, '--json', '--profile', '1.37']);
    assert.strictEqual(r.code, 0, r.err);
    assert.strictEqual(r.out.trim().split('\n').length, 1);
    const rep = JSON.parse(r.out) as ImportReport;
    assert.strictEqual(rep.profile, '1.37');
    assert.deepStrictEqual(
      [rep.records, rep.rejected.count, rep.requests.total, rep.requests.byCode],
      [6, 2, 6, { '200': 5, '410': 1 }],
    );
    const c = rep.clients.find((x) => x.userAgent === 'backup-agent/1.7.0');
    assert.ok(c);
    for (const k of [
      'userAgent',
      'users',
      'requests',
      'lists',
      'watches',
      'http410',
      'http429',
      'http504',
      'watchDurationsSeconds',
      'paginationChains',
      'relists',
    ])
      assert.ok(k in c, `client has ${k}`);
    assert.deepStrictEqual(
      c.paginationChains.map((x) => [x.path, x.pages, x.codes, x.complete]),
      [
        ['/api/v1/pods', 3, [200, 200, 410], false],
        ['/api/v1/pods', 1, [200], true],
      ],
    );
    assert.ok(Array.isArray(rep.storms));
    assert.strictEqual(rep.servedAs[0].explained?.servedBy, 'etcd');
  });
});

describe('listwatch import: a client log without Audit-Id with its audit log (built CLI)', () => {
  it('one request each, one client, and how many were joined by what', () => {
    const dir = 'test/fixtures/import';
    const r = runCli([
      'import',
      '--year',
      '2026',
      `${dir}/session-kubectl-1.27-v6.log`,
      `${dir}/session-v6-audit.log`,
    ]);
    assert.strictEqual(r.code, 0, r.err);
    for (const want of [
      /^Imported 12 requests \(12 records\)/m,
      /^Joined across files: 0 by Audit-Id, 12 by time\+verb\+URL \(the joins rule\), 0 from one file only \(not joined\)$/m,
      // Six kubectl runs (klog pids) of one User-Agent: six clients.
      /^Clients \(6\):$/m,
      /^ {2}kubectl\.1\.27\/v1\.27\.16 \(linux\/amd64\) kubernetes\/… {2}test\/fixtures\/import\/session-kubectl-1\.27-v6\.log pid 17542 {2}list-watch /m,
      /^ {2}joins: a client log's request without Audit-Id joins the audit event of the same verb and URL/m,
    ])
      assert.match(r.out, want);
  });
});

describe('listwatch import: a WatchList client (built CLI)', () => {
  it('its lists end at the bookmark its reflector logged, and its relist says it is a WatchList WATCH', () => {
    const file = 'test/fixtures/import/kubectl-1.33-v6-wait-watchlist.log';
    const r = runCli(['import', '--year', '2026', file]);
    assert.strictEqual(r.code, 0, r.err);
    for (const want of [
      /^WatchList lists \(to the bookmark that ends the initial events; the watch goes on\): n=2 min 0\.007 s median 0\.007 s p99 0\.046 s max 0\.046 s$/m,
      /^Relists \(1\):\n {2}2026-12-01T19:10:25\.671Z test\/fixtures\/import\/kubectl-1\.33-v6-wait-watchlist\.log pid 9453 WatchList WATCH \(sendInitialEvents=true\) of pods in default 1\.525 s after its watch ended expired \(test\/fixtures\/import\/kubectl-1\.33-v6-wait-watchlist\.log:17\) · test\/fixtures\/import\/kubectl-1\.33-v6-wait-watchlist\.log:20 · same process \(test\/fixtures\/import\/kubectl-1\.33-v6-wait-watchlist\.log pid 9453\)$/m,
      /relists: a relist is a LIST from scratch \(no continue\), or for a WatchList client a WATCH with sendInitialEvents=true/,
    ])
      assert.match(r.out, want);
  });
});

describe('listwatch import: options and files (built CLI)', () => {
  const cases: Array<{ name: string; args: string[]; code: number; err: RegExp }> = [
    { name: 'no file', args: ['import'], code: 2, err: /expected at least one FILE to import/ },
    {
      name: 'a missing file',
      args: ['import', 'no-such.log'],
      code: 2,
      err: /listwatch import: no such file: no-such\.log/,
    },
    {
      name: 'a directory',
      args: ['import', 'test/fixtures'],
      code: 2,
      err: /test\/fixtures is a directory, not a log file/,
    },
    {
      name: 'a bad profile',
      args: ['import', fixture, '--profile', '1.35'],
      code: 2,
      err: /--profile must be one of 1\.36, 1\.37, got "1\.35"/,
    },
    {
      name: 'a bad year',
      args: ['import', fixture, '--year', '25'],
      code: 2,
      err: /--year must be a year such as 2025, got "25"/,
    },
    {
      name: 'a bad format',
      args: ['import', fixture, '--format', 'csv'],
      code: 2,
      err: /--format must be one of audit, kubectl, client-go, httplog, got "csv"/,
    },
    {
      name: 'an unknown option',
      args: ['import', fixture, '--trace2'],
      code: 2,
      err: /unknown option "--trace2"/,
    },
  ];
  for (const c of cases)
    it(`${c.name}: exit ${c.code} and says what was wrong`, () => {
      const r = runCli(c.args);
      assert.strictEqual(r.code, c.code, r.err);
      assert.match(r.err, c.err);
      assert.strictEqual(r.out, '');
    });

  it('--help prints the usage and exits 0; the command is listed', () => {
    const r = runCli(['import', '--help']);
    assert.strictEqual(r.code, 0);
    assert.match(r.out, /^Usage: listwatch import FILE… \[--json\]/);
    assert.match(runCli(['--help']).out, /\n {2}import +import audit, kubectl/);
  });
});
