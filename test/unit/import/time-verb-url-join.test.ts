// A client log without Audit-Id imported with the server's audit log of the same session: each
// request is one record, joined by time, verb and URL (request-merger.ts), the join said on it
// and counted in the report; nothing joins what the rule does not prove. The fixture pair was
// made in one session: `listwatch serve --audit-log` and real kubectl 1.27 -v=6 (its header says how).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ImportReportBuilder } from '../../../src/import/import-report';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { importFiles } from '../../../src/import/import-files';
import { jsonLines, withTempFiles, type TextFile } from './import-harness';
import { importedClientName } from '../../../src/run/views/client-name';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures/import');
const fixture = (name: string): TextFile => ({
  name,
  content: fs.readFileSync(path.join(fixtures, name)),
});

const kubectlUA = 'kubectl.1.27/v1.27.16 (linux/amd64) kubernetes/cbb86e0';

/** A Metadata-level audit event's two stages for a GET of `uri` received at `at` (ISO); ua '': none. */
function auditGet(id: string, uri: string, verb: string, at: string, ms: number, ua = kubectlUA) {
  const end = new Date(Date.parse(at) + ms).toISOString();
  const base = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: id,
    requestURI: uri,
    verb,
    user: { username: 'listwatch' },
    sourceIPs: ['127.0.0.1'],
    ...(ua === '' ? {} : { userAgent: ua }),
    requestReceivedTimestamp: at,
  };
  return [
    { ...base, stage: 'RequestReceived', stageTimestamp: at },
    {
      ...base,
      stage: 'ResponseComplete',
      responseStatus: { metadata: {}, code: 200 },
      stageTimestamp: end,
    },
  ];
}

/** A watch's audit stages: received 10:00:00.101, started .102, ended by the server at 10:00:30. */
function auditWatch(id: string, uri: string) {
  const base = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: id,
    requestURI: uri,
    verb: 'watch',
    user: { username: 'controller' },
    sourceIPs: ['10.0.0.7'],
    userAgent: 'controller/1',
    requestReceivedTimestamp: '2026-12-07T10:00:00.101Z',
  };
  return [
    { ...base, stage: 'RequestReceived', stageTimestamp: '2026-12-07T10:00:00.101Z' },
    { ...base, stage: 'ResponseStarted', stageTimestamp: '2026-12-07T10:00:00.102Z' },
    {
      ...base,
      stage: 'ResponseComplete',
      responseStatus: { metadata: {}, code: 200 },
      stageTimestamp: '2026-12-07T10:00:30.000Z',
    },
  ];
}

/** A kubectl -v=6 response line (klog time `hh:mm:ss.micro` on Dec 7, pid 100). */
function v6(time: string, url: string, ms: number): string {
  return `I1207 ${time}     100 round_trippers.go:553] GET https://127.0.0.1:6443${url} 200 OK in ${ms} milliseconds\n`;
}

/** The clients of serve-audit.log (kubectl 1.20 and 1.27 to 1.33), sorted. */
const auditClients = [
  'kubectl.1.27/v1.27.16 (linux/amd64) kubernetes/cbb86e0',
  'kubectl.1.28/v1.28.15 (linux/amd64) kubernetes/8418565',
  'kubectl.1.29/v1.29.14 (linux/amd64) kubernetes/4f359b2',
  'kubectl.1.31/v1.31.9 (linux/amd64) kubernetes/8f38003',
  'kubectl.1.32/v1.32.5 (linux/amd64) kubernetes/9894294',
  'kubectl.1.33/v1.33.1 (linux/amd64) kubernetes/8adc0f0',
  'kubectl/v1.20.2 (linux/amd64) kubernetes/faecb19',
];

interface Case {
  name: string;
  files: TextFile[];
  records: number;
  /** The clients the report finds (importedClientName: the user agent, and the process a client log names). */
  clients: string[];
  joins: { auditID: number; timeVerbURL: number };
  /** WATCHes the report counts, where the case has one. */
  watches?: number;
  /** Requests with the end a client's reflector logged (watchEnd). */
  watchEnds?: number;
}

const cases: Case[] = [
  {
    // Before the join: 24 records (each request twice) and 2 clients, one of them '' ("(none)").
    // Joined, each of the six kubectl runs (klog pids) is a client of its own.
    name: 'the session pair: kubectl 1.27 -v=6 and the audit log',
    files: [fixture('session-kubectl-1.27-v6.log'), fixture('session-v6-audit.log')],
    records: 12,
    clients: [17300, 17333, 17367, 17392, 17415, 17542].map(
      (pid) => `${kubectlUA} · session-kubectl-1.27-v6.log pid ${pid}`,
    ),
    joins: { auditID: 0, timeVerbURL: 12 },
    watches: 1,
  },
  {
    // kubectl -v=8 prints each response's Audit-Id: its records join by it, none by time.
    name: 'kubectl 1.33 -v=8 and the audit log: joined by Audit-Id',
    files: [fixture('kubectl-1.33-v8.log'), fixture('serve-audit.log')],
    records: 54,
    // The 1.33 requests the client log has are its processes'; the audit log's others keep the UA.
    clients: [
      ...auditClients.slice(0, 6),
      ...[10223, 18094, 18099, 7563, 7579].map(
        (pid) => `${auditClients[5]} · kubectl-1.33-v8.log pid ${pid}`,
      ),
      auditClients[6],
    ],
    joins: { auditID: 11, timeVerbURL: 0 },
  },
  {
    // The same commands, run at -v=6 about 280 ms before the -v=8 run the audit log holds: not
    // the same requests, and nothing joins them (the 60 requests are the truth here).
    name: 'kubectl 1.33 -v=6 of another run and the audit log: nothing joins',
    files: [fixture('kubectl-1.33-v6.log'), fixture('serve-audit.log')],
    records: 60,
    // -v=6 shows no User-Agent: each unjoined process is named by its file and pid.
    clients: [
      ...[10228, 7549, 7653].map((pid) => `kubectl-1.33-v6.log pid ${pid}`),
      ...auditClients,
    ],
    joins: { auditID: 0, timeVerbURL: 0 },
  },
  {
    name: "inside the client's interval, another URL, or 4 s away: only the first joins",
    files: [
      {
        name: 'kubectl.log',
        content:
          v6('10:00:00.105000', '/api/v1/pods?limit=500', 5) +
          v6('10:00:01.105000', '/api/v1/configmaps?limit=500', 5) +
          v6('10:00:09.105000', '/api/v1/secrets?limit=500', 5),
      },
      {
        name: 'audit.log',
        content: jsonLines([
          ...auditGet('a1', '/api/v1/pods?limit=500', 'list', '2026-12-07T10:00:00.101Z', 3),
          ...auditGet('a2', '/api/v1/configmaps?limit=5', 'list', '2026-12-07T10:00:01.101Z', 3),
          ...auditGet('a3', '/api/v1/secrets?limit=500', 'list', '2026-12-07T10:00:05.101Z', 3),
        ]),
      },
    ],
    records: 5,
    // The process (its unjoined requests too: one client) takes the UA of its joined request;
    // the audit events nothing joined keep theirs.
    clients: [kubectlUA, `${kubectlUA} · kubectl.log pid 100`],
    joins: { auditID: 0, timeVerbURL: 1 },
  },
  {
    name: 'two identical requests each join one audit event, the nearest in time',
    files: [
      {
        name: 'kubectl.log',
        content:
          v6('10:00:00.105000', '/api/v1/pods?limit=500', 5) +
          v6('10:00:00.305000', '/api/v1/pods?limit=500', 5),
      },
      {
        name: 'audit.log',
        content: jsonLines([
          ...auditGet('a1', '/api/v1/pods?limit=500', 'list', '2026-12-07T10:00:00.101Z', 3),
          ...auditGet('a2', '/api/v1/pods?limit=500', 'list', '2026-12-07T10:00:00.301Z', 3),
        ]),
      },
    ],
    records: 2,
    clients: [`${kubectlUA} · kubectl.log pid 100`],
    joins: { auditID: 0, timeVerbURL: 2 },
  },
  {
    name: 'a user agent both name and that differs is another client: no join',
    files: [
      {
        name: 'kubectl.log',
        content:
          'I1207 10:00:00.100000     100 round_trippers.go:466] curl -v -XGET  -H "User-Agent: kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0" \'https://127.0.0.1:6443/api/v1/pods?limit=500\'\n' +
          v6('10:00:00.105000', '/api/v1/pods?limit=500', 5),
      },
      {
        name: 'audit.log',
        content: jsonLines(
          auditGet(
            'a1',
            '/api/v1/pods?limit=500',
            'list',
            '2026-12-07T10:00:00.101Z',
            3,
            'other/1',
          ),
        ),
      },
    ],
    records: 2,
    clients: ['kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0 · kubectl.log pid 100', 'other/1'],
    joins: { auditID: 0, timeVerbURL: 0 },
  },
  {
    name: "an audit event without a user agent takes the client line's once joined",
    files: [
      {
        name: 'kubectl.log',
        content:
          'I1207 10:00:00.100000     100 round_trippers.go:466] curl -v -XGET  -H "User-Agent: kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0" \'https://127.0.0.1:6443/api/v1/pods?limit=500\'\n' +
          v6('10:00:00.105000', '/api/v1/pods?limit=500', 5),
      },
      {
        name: 'audit.log',
        content: jsonLines(
          auditGet('a1', '/api/v1/pods?limit=500', 'list', '2026-12-07T10:00:00.101Z', 3, ''),
        ),
      },
    ],
    records: 1,
    clients: ['kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0 · kubectl.log pid 100'],
    joins: { auditID: 0, timeVerbURL: 1 },
  },
  {
    // The audit event's window ends (60 s after it completed) before the client's reflector says
    // how the watch ended: the joined watch stays its stream's latest, and that line joins it.
    name: "a reflector's watch joined before its end line: the line still joins it",
    files: [
      {
        name: 'controller.log',
        content:
          v6('10:00:00.103000', '/api/v1/pods?resourceVersion=5&watch=true', 3) +
          'I1207 10:02:00.000000     100 reflector.go:338] pkg/mod/k8s.io/client-go@v0.27.0/tools/cache/reflector.go:108: watch of *v1.Pod ended with: too old resource version: 5 (7)\n',
      },
      {
        name: 'audit.log',
        content: jsonLines(auditWatch('w1', '/api/v1/pods?resourceVersion=5&watch=true')),
      },
    ],
    records: 1,
    clients: ['controller/1 · controller.log pid 100'],
    joins: { auditID: 0, timeVerbURL: 1 },
    watches: 1,
    watchEnds: 1,
  },
];

describe('import: a client log without Audit-Id joined to its audit log by time, verb and URL', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const builder = new ImportReportBuilder();
      // The builder is the sink, as the CLI and the extension have it (watchOpened included).
      const requests: ImportedRequest[] = [];
      const result = await withTempFiles(c.files, (paths) =>
        importFiles(
          paths.map((p, i) => ({ path: p, name: c.files[i].name })),
          { year: 2026 },
          {
            request: (r) => {
              requests.push(r);
              builder.request(r);
            },
            reject: (r) => builder.reject(r),
            watchOpened: (f) => builder.watchOpened(f),
          },
        ),
      );
      const report = builder.finish(result);
      assert.strictEqual(report.records, c.records, `${c.name}: records`);
      assert.deepStrictEqual(
        report.clients.map((x) => importedClientName(x)).sort(),
        c.clients,
        `${c.name}: clients`,
      );
      assert.deepStrictEqual(report.joins, { ...c.joins, rule: report.joins.rule }, c.name);
      if (c.watches !== undefined)
        assert.strictEqual(report.watches.total, c.watches, `${c.name}: watches`);
      if (c.watchEnds !== undefined)
        assert.strictEqual(
          requests.filter((r) => r.watchEnd).length,
          c.watchEnds,
          `${c.name}: watch ends`,
        );
      // Every joined record says how, and has a source in each file.
      for (const r of requests) {
        const files = new Set(r.sources.map((s) => s.file)).size;
        if (files > 1) assert.ok(r.joinedBy, `${c.name}: ${r.id} joined silently`);
        else assert.strictEqual(r.joinedBy, undefined, `${c.name}: ${r.id}`);
      }
      // Each file counts every request it has a record of, joined or not (the second review saw
      // a -v=6 file joined by time counted 0), and how many of those were joined.
      const joined = c.joins.auditID + c.joins.timeVerbURL;
      for (const f of result.files) {
        const own = requests.filter((r) => r.sources.some((s) => s.file === f.file));
        assert.deepStrictEqual(
          [f.records, f.joined],
          [own.length, own.filter((r) => r.joinedBy).length],
          `${c.name}: ${f.file}`,
        );
      }
      assert.strictEqual(
        result.files.reduce((n, f) => n + f.joined, 0),
        joined * 2,
        `${c.name}: each join counted in both its files`,
      );
    });
  }
});
