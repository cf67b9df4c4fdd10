// Tests for src/server/clients-endpoint.ts (GET /debug/listwatch/v1/clients) and the live trace it
// rests on: a LIST answered 429 by a fault and sent again is in the report, and the same run
// saved as a trace gives `listwatch report` the same figures. No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiServer } from '../../../src/server/api-server';
import { LiveRecorder } from '../../../src/server/live-recorder';
import { clientsPath, clientsReportOff } from '../../../src/server/clients-endpoint';
import type { ClientsReport } from '../../../src/run/clients-report';
import { reportCommand } from '../../../src/cli/replay-command';

const pods = '/api/v1/namespaces/default/pods';

describe('GET /debug/listwatch/v1/clients', function () {
  let server: ApiServer;
  let recorder: LiveRecorder;
  let dir: string;
  before(async () => {
    server = await ApiServer.start({ port: 0, clientsReport: true });
    recorder = new LiveRecorder(server, { scrape: false });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-clients-'));
  });
  after(async () => {
    recorder?.dispose();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const call = async (method: string, url: string, userAgent = 'test-client/1') => {
    const r = await fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, 'user-agent': userAgent },
    });
    return { status: r.status, text: await r.text() };
  };

  it('a LIST answered 429 by a fault, then sent again: the 429, the retry, the recovery; a saved trace reports it too', async () => {
    const fault = await server.injectFault('http-error', {
      code: 429,
      match: { verb: 'list', userAgent: 'test-client' },
      trigger: { nth: 1 },
    });
    const id = (fault.body as { id: number }).id;
    assert.deepStrictEqual(
      [(await call('GET', pods)).status, (await call('GET', pods)).status],
      [429, 200],
    );
    const r = await call('GET', clientsPath);
    assert.strictEqual(r.status, 200, r.text);
    const report = JSON.parse(r.text) as ClientsReport;
    assert.deepStrictEqual([report.kind, report.apiVersion], ['ClientsReport', 'listwatch/v1']);
    assert.deepStrictEqual(
      report.faults.map((f) => [f.id, f.name, f.hits]),
      [[id, 'http-error', 1]],
    );
    const mine = report.clients.filter((c) => c.userAgent === 'test-client/1');
    assert.deepStrictEqual(
      mine.flatMap((c) => c.requests.map((q) => [q.verb, q.status, q.faults, q.retryOf])),
      [
        ['list', 429, [id], undefined],
        ['list', 200, undefined, 0],
      ],
      JSON.stringify(mine),
    );
    assert.deepStrictEqual(
      mine.flatMap((c) => c.faults.map((f) => [f.id, f.recovered, f.recoveredBy])),
      [[id, true, 'retry']],
    );
    assert.strictEqual(mine[0].answers['429'], 1);
    // Only GET.
    const post = await call('POST', clientsPath);
    assert.strictEqual(post.status, 405, post.text);

    // The recorder's trace, saved: `listwatch report` prints the fault and its recovery.
    const file = path.join(dir, 'live.jsonl');
    fs.writeFileSync(file, recorder.traceLines(recorder.metricsRecord()).join('\n') + '\n');
    let out = '';
    const io = {
      out: (t: string) => (out += t),
      err: (t: string) => assert.fail(t),
      stdinLines: () => (async function* () {})(),
    };
    assert.strictEqual(await reportCommand.run([file], io), 0);
    assert.match(
      out,
      new RegExp(
        `#${id} http-error → test-client/1 · [c0-9, ]+: 1 hit, recovered in \\d+ ms \\(retry\\)`,
      ),
    );
    out = '';
    assert.strictEqual(await reportCommand.run([file, '--json'], io), 0);
    const json = JSON.parse(out) as { clientsReport?: ClientsReport };
    assert.deepStrictEqual(
      json.clientsReport?.clients
        .filter((c) => c.userAgent === 'test-client/1')
        .flatMap((c) => c.faults.map((f) => [f.id, f.recoveredBy])),
      [[id, 'retry']],
    );
  });
});

describe('GET /debug/listwatch/v1/clients on a server started without --clients-report', function () {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0 });
  });
  after(async () => {
    await server?.stop();
  });

  it('answers 404 with a Status saying how to turn the report on, and folds nothing', async () => {
    const r = await fetch(`${server.url}${clientsPath}`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    const body = (await r.json()) as { kind: string; code: number; message: string };
    assert.deepStrictEqual(
      [r.status, body.kind, body.code, body.message],
      [404, 'Status', 404, clientsReportOff],
    );
    assert.match(clientsReportOff, /--clients-report/);
    assert.strictEqual(server.clientsReport(), undefined);
  });
});
