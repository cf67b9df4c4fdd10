// Tests for src/import/audit-event-format.ts: audit.k8s.io/v1 Event lines at every level and
// stage, read through importFiles. Sources of the lines:
//  - test/fixtures/serve-audit.log: written by `listwatch serve --audit-log` (Metadata level) while
//    kubectl 1.33 ran get pods --chunk-size=10, get cm, create cm, get pods -w (4 s), delete cm,
//    get pods/nope, and a get cm -w still open when the file was copied;
//  - the RequestResponse create and update: a real kube-apiserver 1.20 audit log quoted in a
//    public CKS study note (code search), shortened (managedFields cut); its update line has the
//    note's own typo (`"name":very-crazy-sa-token-fr7sw"`), kept as a real malformed line;
//  - the Request level is that create without its responseObject; the Panic event follows
//    pkg/endpoints/filters/audit.go (release-1.36): code 500, InternalError, "APIServer panic'd: …";
//  - the RequestResponse LIST wraps the Table body our server sent kubectl 1.33 for
//    `get pods --chunk-size=10` (its -v=8 log).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { auditEventFormat, MicroTimeParser } from '../../../src/import/audit-event-format';
import { importText, jsonLines } from './import-harness';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures');

const createRequestResponse =
  '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","auditID":"1332e3c4-63d1-408e-b2d0-95b21774cd2d","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/serviceaccounts?fieldManager=kubectl-create","verb":"create","user":{"username":"kubernetes-admin","groups":["system:masters","system:authenticated"]},"sourceIPs":["192.168.211.40"],"userAgent":"kubectl/v1.20.2 (linux/amd64) kubernetes/faecb19","objectRef":{"resource":"serviceaccounts","namespace":"default","name":"very-crazy-sa","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":201},"requestObject":{"kind":"ServiceAccount","apiVersion":"v1","metadata":{"name":"very-crazy-sa","creationTimestamp":null}},"responseObject":{"kind":"ServiceAccount","apiVersion":"v1","metadata":{"name":"very-crazy-sa","namespace":"default","uid":"26cc66f7-cf7d-443a-8bb0-b1b9af6bd30a","resourceVersion":"34576","creationTimestamp":"2021-05-24T09:22:24Z"}},"requestReceivedTimestamp":"2021-05-24T09:22:24.643249Z","stageTimestamp":"2021-05-24T09:22:24.652927Z","annotations":{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":""}}';
const updateWithTypo =
  '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","auditID":"27737c46-ab58-4b5b-a12c-b3974e7ecbff","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/serviceaccounts/very-crazy-sa","verb":"update","responseObject":{"kind":"ServiceAccount","apiVersion":"v1","metadata":{"name":"very-crazy-sa","namespace":"default","resourceVersion":"34578"},"secrets":[{"name":very-crazy-sa-token-fr7sw"}]},"requestReceivedTimestamp":"2021-05-24T09:22:24.688390Z","stageTimestamp":"2021-05-24T09:22:24.691198Z"}';

function event(over: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: 'a-1',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/pods?limit=500',
    verb: 'list',
    user: { username: 'alice' },
    sourceIPs: ['10.0.0.1'],
    userAgent: 'kubectl/v1.33.1',
    objectRef: { resource: 'pods', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 },
    requestReceivedTimestamp: '2026-12-01T10:00:00.000100Z',
    stageTimestamp: '2026-12-01T10:00:00.002300Z',
    ...over,
  };
}

describe('import: audit.k8s.io/v1 Event lines', () => {
  it('reads a real Metadata-level log (every stage our server writes, an open watch at EOF)', async () => {
    const { result, requests, rejects } = await importText([
      { name: 'serve-audit.log', content: fs.readFileSync(path.join(fixtures, 'serve-audit.log')) },
    ]);
    assert.deepStrictEqual(rejects, []);
    assert.strictEqual(result.files[0].format, 'audit');
    assert.strictEqual(result.lines, 29);
    assert.strictEqual(result.records, 14);
    const byVerb = (verb: string) => requests.filter((r) => r.verb === verb);
    assert.deepStrictEqual(
      ['get', 'list', 'watch', 'create', 'delete'].map((v) => byVerb(v).length),
      [4, 6, 2, 1, 1],
    );
    for (const r of requests) {
      assert.ok(r.startInFile, r.id);
      assert.strictEqual(r.userAgent, 'kubectl.1.33/v1.33.1 (linux/amd64) kubernetes/8adc0f0');
      assert.strictEqual(r.user, 'listwatch');
      assert.strictEqual(r.sourceIP, '127.0.0.1');
      assert.strictEqual(r.id, r.auditID);
    }
    const [podsWatch, cmWatch] = byVerb('watch');
    assert.deepStrictEqual(
      podsWatch.sources.map((s) => s.line),
      [17, 18, 19],
    );
    assert.ok(podsWatch.endInFile && podsWatch.completedAt! > podsWatch.responseStartedAt!);
    assert.ok(podsWatch.responseStartedAt! >= podsWatch.receivedAt!);
    assert.strictEqual(cmWatch.endInFile, false, 'the watch open when the file was copied');
    assert.strictEqual(cmWatch.completedAt, undefined);
    assert.strictEqual(cmWatch.code, 200);
    assert.deepStrictEqual(cmWatch.objectRef, {
      resource: 'configmaps',
      namespace: 'default',
      apiVersion: 'v1',
    });
    assert.strictEqual(requests[requests.length - 1], cmWatch, 'open requests come last');
    // Our server's Metadata-level 404 carries the code only (kube-apiserver adds the Status).
    const notFound = requests.find((r) => r.requestURI === '/api/v1/namespaces/default/pods/nope');
    assert.deepStrictEqual([notFound?.code, notFound?.status], [404, undefined]);
    assert.strictEqual(byVerb('create')[0].code, 201);
    // Go's encoder writes & as \u0026: requestURI is the decoded string.
    assert.ok(cmWatch.requestURI.endsWith('?resourceVersion=42&watch=true'));
  });

  it('keeps what each level adds: a write keeps its object, a LIST its ListMeta and count only', async () => {
    const table = {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: {
        resourceVersion: '40',
        continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDAsInN0YXJ0IjoiL3BvZC0wOVx1MDAwMCJ9',
        remainingItemCount: 20,
      },
      columnDefinitions: [{ name: 'Name', type: 'string' }],
      rows: Array.from({ length: 10 }, (_, i) => ({ cells: [`pod-0${i}`] })),
    };
    const created = JSON.parse(createRequestResponse) as Record<string, unknown>;
    const requestLevel = {
      ...created,
      level: 'Request',
      auditID: 'r-1',
      responseObject: undefined,
    };
    const list = event({ level: 'RequestResponse', auditID: 'l-1', responseObject: table });
    const { requests, rejects } = await importText(
      createRequestResponse + '\n' + jsonLines([requestLevel, list]),
    );
    assert.deepStrictEqual(rejects, []);
    const [create, requestOnly, listed] = requests;
    assert.deepStrictEqual(
      (create.object as { metadata: { resourceVersion: string } }).metadata.resourceVersion,
      '34576',
      'RequestResponse: the object the server stored',
    );
    assert.deepStrictEqual(create.objectRef?.name, 'very-crazy-sa');
    assert.deepStrictEqual(requestOnly.object, {
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      metadata: { name: 'very-crazy-sa', creationTimestamp: null },
    });
    assert.deepStrictEqual(listed.response, {
      resourceVersion: '40',
      continue: table.metadata.continue,
      remainingItemCount: 20,
      items: 10,
    });
    assert.strictEqual(listed.object, undefined, 'a LIST body is not kept');
  });

  it('reads every stage, a Panic included, and knows where the request began', async () => {
    const t = (s: number) => `2026-12-01T10:00:${String(s).padStart(2, '0')}.000000Z`;
    const w = {
      verb: 'watch',
      requestURI: '/api/v1/pods?watch=true',
      requestReceivedTimestamp: t(1),
    };
    const { requests } = await importText(
      jsonLines([
        // A watch received before the file's first line: only its ResponseStarted is here.
        event({
          ...w,
          auditID: 'w-old',
          stage: 'ResponseStarted',
          requestReceivedTimestamp: t(0),
          stageTimestamp: t(2),
        }),
        event({
          ...w,
          auditID: 'w-1',
          stage: 'RequestReceived',
          stageTimestamp: t(3),
          requestReceivedTimestamp: t(3),
          responseStatus: undefined,
        }),
        event({
          ...w,
          auditID: 'w-1',
          stage: 'ResponseStarted',
          stageTimestamp: t(4),
          requestReceivedTimestamp: t(3),
        }),
        event({
          ...w,
          auditID: 'w-1',
          stage: 'Panic',
          stageTimestamp: t(9),
          requestReceivedTimestamp: t(3),
          responseStatus: {
            metadata: {},
            status: 'Failure',
            message: "APIServer panic'd: runtime error: invalid memory address",
            reason: 'InternalError',
            code: 500,
          },
        }),
        // omitStages: [RequestReceived]: a request received after the first line began in the file.
        event({ auditID: 'l-2', requestReceivedTimestamp: t(5), stageTimestamp: t(6) }),
      ]),
    );
    const got = requests.map((r) => [r.id, r.startInFile, r.endInFile, r.code, r.status?.reason]);
    assert.deepStrictEqual(got, [
      ['w-1', true, true, 200, 'InternalError'],
      ['l-2', true, true, 200, undefined],
      ['w-old', false, false, 200, undefined],
    ]);
    const panicked = requests[0];
    assert.strictEqual(panicked.receivedAt, Date.parse(t(3)));
    assert.strictEqual(panicked.responseStartedAt, Date.parse(t(4)));
    assert.strictEqual(panicked.completedAt, Date.parse(t(9)));
    assert.ok(panicked.status?.message?.startsWith("APIServer panic'd"));
  });

  it('reads an EventList on one line, one request per item', async () => {
    const list = {
      kind: 'EventList',
      apiVersion: 'audit.k8s.io/v1',
      metadata: {},
      items: [
        event({ auditID: 'e-1' }),
        event({ auditID: 'e-2', verb: 'get' }),
        { auditID: 'e-3' },
      ],
    };
    const { requests, rejects } = await importText(jsonLines([list]));
    assert.deepStrictEqual(
      requests.map((r) => r.id),
      ['e-1', 'e-2'],
    );
    assert.strictEqual(rejects.length, 1);
    assert.match(
      rejects[0].reason,
      /^EventList items\[2\]: expected an audit\.k8s\.io\/v1 Event with/,
    );
  });

  it('keeps hostile text verbatim as data and shows control characters in messages', async () => {
    const hostile = '<script>alert(1)</script>\u001b[31m\u0007';
    // A raw ESC and BEL inside a JSON string: not JSON, so rejected, and shown visibly.
    const raw = JSON.stringify(event({ auditID: 'raw' })).replace('"raw"', '"r\u001ba\u0007w"');
    const { requests, rejects } = await importText(
      jsonLines([
        event({ userAgent: hostile, user: { username: '<img src=x onerror=alert(1)>' } }),
      ]) +
        raw +
        '\n' +
        jsonLines([event({ kind: 'Ev\u001bent' })]),
    );
    assert.strictEqual(requests.length, 1);
    assert.strictEqual(requests[0].userAgent, hostile);
    assert.strictEqual(requests[0].user, '<img src=x onerror=alert(1)>');
    assert.deepStrictEqual(
      rejects.map((r) => r.line),
      [2, 3],
    );
    for (const r of rejects)
      for (const s of [r.reason, r.text])
        assert.ok(![...s].some((c) => c < ' ' || c === '\x7f'), JSON.stringify(s));
    assert.match(rejects[0].reason, /Bad control character/);
    assert.match(rejects[0].text, /"auditID":"r␛a␇w"/);
    assert.match(rejects[1].reason, /got "Ev\\u001bent"$/);
  });

  const rejectCases: Array<{ name: string; line: string; reason: RegExp }> = [
    {
      name: 'truncated',
      line: createRequestResponse.slice(0, 300),
      reason: /^expected an audit\.k8s\.io\/v1 Event \(one JSON object per line\): /,
    },
    {
      name: 'real malformed line',
      line: updateWithTypo,
      reason:
        /^expected an audit\.k8s\.io\/v1 Event \(one JSON object per line\): Unexpected token/,
    },
    { name: 'not an object', line: '["Event"]', reason: /JSON object, got an array$/ },
    {
      name: 'wrong kind',
      line: JSON.stringify(event({ kind: 'Pod' })),
      reason: /^expected kind Event or EventList \(audit\.k8s\.io\/v1\), got "Pod"$/,
    },
    {
      name: 'v1beta1',
      line: JSON.stringify(event({ apiVersion: 'audit.k8s.io/v1beta1' })),
      reason: /^expected apiVersion audit\.k8s\.io\/v1, got "audit\.k8s\.io\/v1beta1"$/,
    },
    {
      name: 'no auditID',
      line: JSON.stringify(event({ auditID: undefined })),
      reason: /; no auditID$/,
    },
    {
      name: 'no stage or requestURI',
      line: JSON.stringify(event({ stage: '', requestURI: undefined })),
      reason: /; no stage, requestURI$/,
    },
    {
      name: 'unknown stage',
      line: JSON.stringify(event({ stage: 'ResponseDone' })),
      reason: /got "ResponseDone"$/,
    },
    {
      name: 'level None',
      line: JSON.stringify(event({ level: 'None' })),
      reason: /^expected level Metadata, Request or RequestResponse, got "None"$/,
    },
    {
      name: 'bad time',
      line: JSON.stringify(event({ stageTimestamp: '2026-13-01T10:00:00Z' })),
      reason: /^expected stageTimestamp in RFC 3339/,
    },
    {
      name: 'bad received time',
      line: JSON.stringify(event({ requestReceivedTimestamp: 'yesterday' })),
      reason: /^expected requestReceivedTimestamp/,
    },
  ];
  it('rejects broken lines with what was expected, at their line, and reads the rest', async () => {
    const good = JSON.stringify(event({ auditID: 'ok' }));
    const text = [good, ...rejectCases.map((c) => c.line), good.replace('"ok"', '"ok-2"')].join(
      '\r\n',
    );
    const { result, requests, rejects } = await importText(text);
    assert.deepStrictEqual(
      requests.map((r) => r.id),
      ['ok', 'ok-2'],
    );
    assert.strictEqual(result.rejected, rejectCases.length);
    rejectCases.forEach((c, i) => {
      const r = rejects[i];
      assert.strictEqual(r.line, i + 2, c.name);
      assert.strictEqual(r.file, 'test.log', c.name);
      assert.strictEqual(r.format, 'audit', c.name);
      assert.match(r.reason, c.reason, c.name);
      assert.strictEqual(r.text, c.line.slice(0, 200), c.name);
    });
    assert.strictEqual(result.files[0].rejected, rejectCases.length);
    assert.deepStrictEqual(result.rejectedSamples, rejects);
  });

  it('sniffs audit lines and nothing else', () => {
    const cases: Array<[string, boolean]> = [
      [createRequestResponse, true],
      [' {"auditID":"x","stage":"ResponseComplete"}', true],
      ['I1201 10:00:00.000000       1 httplog.go:134] "HTTP" verb="LIST"', false],
      ['{"ts":1,"msg":"HTTP"}', false],
    ];
    for (const [line, want] of cases) assert.strictEqual(auditEventFormat.sniff(line), want, line);
  });

  it('parses metav1.MicroTime to the microsecond', () => {
    const p = new MicroTimeParser();
    const base = Date.parse('2026-12-01T13:54:42Z');
    const cases: Array<[string, number | undefined]> = [
      ['2026-12-01T13:54:42.123456Z', base + 123.456],
      ['2026-12-01T13:54:42.123457Z', base + 123.457],
      ['2026-12-01T13:54:42Z', base],
      ['2026-12-01T13:54:42.5Z', base + 500],
      ['2026-12-01T14:54:42.5+01:00', base + 500],
      ['2026-12-01T13:54:42.Z', undefined],
      ['2026-12-01 13:54:42Z', undefined],
      ['yesterday', undefined],
    ];
    for (const [s, want] of cases) {
      const got = p.parse(s);
      if (want === undefined) assert.strictEqual(got, undefined, s);
      else assert.ok(got !== undefined && Math.abs(got - want) < 1e-6, `${s}: ${got}`);
    }
  });
});
