// `listwatch report` and `replay` on traces no built-in scenario made: an import's (written by
// `listwatch import --trace`) and a live server's (test/fixtures/live-clients.jsonl), through the
// built CLI. report tells their story from the model; replay says why it cannot re-run them.
import * as assert from 'assert';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importScenario } from '../../../src/replay/replay-import';
import { isRecordedRun } from '../../../src/run/recorded-run-summary';
import { probeScenario } from '../../../src/probe/probe-run';
import { liveScenario } from '../../../src/server/live-recorder';
import { runCli } from './run-cli';

const auditFixture = path.join('test', 'fixtures', 'audit.log');
const liveFixture = path.join('test', 'fixtures', 'live-clients.jsonl');

describe('listwatch report and replay on live, import and probe traces', () => {
  let dir: string;
  let trace: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'listwatch-report-recorded-'));
    trace = path.join(dir, 'import.jsonl');
    const r = runCli(['import', auditFixture, '--trace', trace]);
    assert.strictEqual(r.code, 0, r.err);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the recorded runs are exactly the live, import and probe scenarios', () => {
    for (const s of [liveScenario, importScenario, probeScenario])
      assert.ok(isRecordedRun(s), `${s} is a recorded run`);
    assert.ok(!isRecordedRun('selector-death-spiral'));
  });

  it("an import's trace: the import report as `import` printed it, then the run's story", () => {
    const imported = runCli(['import', auditFixture]);
    const r = runCli(['report', trace]);
    assert.strictEqual(r.code, 0, r.err);
    // The analysis of the logs comes first, line for line as `listwatch import` printed it.
    const firstLines = imported.out.split('\n').slice(0, 8).join('\n');
    assert.ok(r.out.startsWith(firstLines), r.out.slice(0, 400));
    assert.match(r.out, /^import — logs imported and replayed through the engine/m);
    // An import has no seed: its header names the log and the span of its times.
    const header =
      r.out.split('\n')[r.out.split('\n').findIndex((l) => l.startsWith('import — ')) + 1];
    assert.match(
      header,
      /^profile 1\.36 · import of test\/fixtures\/audit\.log · the log's \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} – [\d: .-]+ UTC · [\d.]+ (?:s|min [\d.]+ s) of virtual time \(the log's times, replayed\)$/,
    );
    assert.doesNotMatch(header, /seed/);
    assert.match(r.out, /^Per user agent \(the engine's answers\)$/m);
    assert.match(r.out, /kube-state-metrics\/v2\.12\.0/);
    assert.match(
      r.out,
      // The replay's count in replay-count.ts's one wording, as the status bar and the Replay tab say it.
      /^\d+ requests? re-issued(?: and compared with the log|, \d+ of them compared with the log): /m,
    );
  });

  it("an import's trace with --json: the summary's facts agree with the lists, and the import report rides along", () => {
    const r = runCli(['report', trace, '--json']);
    assert.strictEqual(r.code, 0, r.err);
    const j = JSON.parse(r.out) as {
      scenario: string;
      summary: { facts: Record<string, number> };
      lists: Array<{ etcdRequests: unknown[]; returned: number; error?: { code: number } }>;
      watchRequests: unknown[];
      imported: { records: number; requests: { total: number } };
    };
    assert.strictEqual(j.scenario, 'import');
    const facts = j.summary.facts;
    assert.strictEqual(facts.lists, j.lists.length);
    assert.ok(j.lists.length > 0);
    assert.strictEqual(
      facts.etcdCalls,
      j.lists.reduce((n, l) => n + l.etcdRequests.length, 0),
    );
    assert.strictEqual(
      facts.returnedItems,
      j.lists.reduce((n, l) => n + l.returned, 0),
    );
    assert.strictEqual(facts.watchRequests, j.watchRequests.length);
    assert.strictEqual(typeof facts.disagreements, 'number');
    const direct = JSON.parse(runCli(['import', auditFixture, '--json']).out) as {
      records: number;
      requests: { total: number };
    };
    assert.deepStrictEqual(
      [j.imported.records, j.imported.requests.total],
      [direct.records, direct.requests.total],
    );
  });

  it("a live server's trace: its clients and LISTs, on the server's real time", () => {
    const r = runCli(['report', liveFixture]);
    assert.strictEqual(r.code, 0, r.err);
    assert.match(r.out, /^live — a local API server's run/m);
    assert.match(r.out, /of the server's real time/);
    assert.match(r.out, /kubectl\/v1\.33\.1/);
    assert.match(r.out, /\/api\/v1\/namespaces\/default\/pods\?limit=2/);
    // Second review of #24: the story said "from 3 clients" where the Clients table below (a
    // User-Agent on one connection, as the Clients tab and the clients report count them) had 6
    // that listed: its figures are per User-Agent, and it says so.
    assert.match(r.out, /^11 LISTs from 2 user agents \(/m);
    assert.match(r.out, /^Per user agent \(the engine's answers\)$/m);
    const j = JSON.parse(runCli(['report', liveFixture, '--json']).out) as {
      summary: { facts: Record<string, number> };
    };
    assert.strictEqual(j.summary.facts.userAgents, 2);
    assert.strictEqual(j.summary.facts.clients, undefined);
  });

  it('a LIST the trace ends before answering says so, not 200', () => {
    const lines = readFileSync(liveFixture, 'utf8').split('\n').slice(0, 2).join('\n');
    const r = runCli(['report', '-'], lines + '\n');
    assert.strictEqual(r.code, 0, r.err);
    assert.match(
      r.out,
      /\/api\/v1\/namespaces\/default\/pods\?limit=2 +etcd +0 +0 +0 +no answer$/m,
    );
  });

  it('replay refuses them, saying why and what reproduces them instead (exit 2)', () => {
    const i = runCli(['replay', trace]);
    assert.strictEqual(i.code, 2);
    assert.match(
      i.err,
      /cannot replay: scenario "import" is not re-run: an import is replayed from its logs: run 'listwatch import'/,
    );
    const l = runCli(['replay', liveFixture]);
    assert.strictEqual(l.code, 2);
    assert.match(
      l.err,
      /scenario "live" is not re-run: a local API server's trace records real clients/,
    );
  });
});
