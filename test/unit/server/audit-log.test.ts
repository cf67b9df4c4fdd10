// Tests for src/server/audit-log.ts: the exact audit.k8s.io/v1 lines kube-apiserver writes at
// level Metadata (field order, omitempty, MicroTime, Go's HTML escaping), the stages of a plain
// request and of a watch, and the bounded buffer in front of a slow sink (a real file and a real
// Writable that holds its writes).
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import {
  AuditLogWriter,
  authorizationAllowAnnotations,
  microTime,
  type AuditRequest,
} from '../../../src/server/audit-log';
import { ApiServer } from '../../../src/server/api-server';
import { call } from './http-client';

/** µs clock: 2026-12-01T13:00:00.000001Z, then +250 µs per reading. */
function ticking(): () => number {
  let t = Date.UTC(2026, 11, 1, 13, 0, 0) * 1000 + 1;
  return () => {
    const now = t;
    t += 250;
    return now;
  };
}

const admin = { username: 'listwatch', groups: ['system:masters', 'system:authenticated'] };

function request(o: Partial<AuditRequest> = {}): AuditRequest {
  return {
    auditID: '7d0a2f5c-1',
    requestURI: '/api/v1/namespaces/default/pods/a',
    verb: 'get',
    user: admin,
    sourceIPs: ['127.0.0.1'],
    userAgent: 'kubectl/v1.33.0 (linux/amd64) kubernetes/abcdef',
    objectRef: { resource: 'pods', namespace: 'default', name: 'a', apiVersion: 'v1' },
    longRunning: false,
    ...o,
  };
}

function collect(): { lines: string[]; sink: { write(c: string): boolean; once(): void } } {
  const lines: string[] = [];
  return {
    lines,
    sink: {
      write: (c: string) => {
        lines.push(...c.split('\n').filter(Boolean));
        return true;
      },
      once: () => undefined,
    },
  };
}

describe('audit log (src/server/audit-log.ts)', () => {
  it('writes RequestReceived and ResponseComplete for a GET, byte for byte', () => {
    const { lines, sink } = collect();
    const w = new AuditLogWriter({ sink, nowMicros: ticking() });
    const h = w.requestReceived(request());
    h.annotate(authorizationAllowAnnotations);
    h.responseComplete(200);
    const head =
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"7d0a2f5c-1",';
    const who =
      '"requestURI":"/api/v1/namespaces/default/pods/a","verb":"get","user":{"username":"listwatch","groups":["system:masters","system:authenticated"]},"sourceIPs":["127.0.0.1"],"userAgent":"kubectl/v1.33.0 (linux/amd64) kubernetes/abcdef","objectRef":{"resource":"pods","namespace":"default","name":"a","apiVersion":"v1"},';
    assert.deepStrictEqual(lines, [
      head +
        '"stage":"RequestReceived",' +
        who +
        '"requestReceivedTimestamp":"2026-12-01T13:00:00.000001Z","stageTimestamp":"2026-12-01T13:00:00.000001Z"}',
      head +
        '"stage":"ResponseComplete",' +
        who +
        '"responseStatus":{"metadata":{},"code":200},"requestReceivedTimestamp":"2026-12-01T13:00:00.000001Z","stageTimestamp":"2026-12-01T13:00:00.000251Z","annotations":{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":""}}',
    ]);
  });

  it('gives a watch a ResponseStarted stage, once, when its header is written', () => {
    const { lines, sink } = collect();
    const w = new AuditLogWriter({ sink, nowMicros: ticking() });
    const h = w.requestReceived(
      request({ verb: 'watch', requestURI: '/api/v1/pods?watch=true', longRunning: true }),
    );
    h.responseStarted(200);
    h.responseStarted(200);
    h.responseComplete(200);
    h.responseComplete(500);
    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepStrictEqual(
      events.map((e) => [e.stage, JSON.stringify(e.responseStatus)]),
      [
        ['RequestReceived', undefined],
        ['ResponseStarted', '{"metadata":{},"code":200}'],
        ['ResponseComplete', '{"metadata":{},"code":200}'],
      ],
    );
  });

  it("keeps a failure's Status fields and escapes as Go's encoder does", () => {
    const { lines, sink } = collect();
    const w = new AuditLogWriter({ sink, nowMicros: ticking() });
    const h = w.requestReceived(
      request({ requestURI: '/api/v1/namespaces/default/pods/<script>', sourceIPs: [] }),
    );
    h.responseComplete({
      status: 'Failure',
      message: 'pods "<script>" not found',
      reason: 'NotFound',
      details: { name: '<script>', kind: 'pods' },
      code: 404,
    });
    assert.ok(!lines.join('\n').includes('<'), 'no raw < in the log');
    assert.ok(
      lines[0].includes('"requestURI":"/api/v1/namespaces/default/pods/\\u003cscript\\u003e"'),
    );
    assert.ok(!lines[0].includes('sourceIPs'), 'an empty sourceIPs is omitted');
    assert.ok(
      lines[1].includes(
        '"responseStatus":{"metadata":{},"status":"Failure","message":"pods \\"\\u003cscript\\u003e\\" not found","reason":"NotFound","details":{"name":"\\u003cscript\\u003e","kind":"pods"},"code":404}',
      ),
      lines[1],
    );
  });

  it('writes to a real file in the field order of types.go', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-audit-'));
    const file = path.join(dir, 'audit.log');
    const stream = fs.createWriteStream(file);
    const w = new AuditLogWriter({ sink: stream, nowMicros: ticking() });
    w.requestReceived(request()).responseComplete(200);
    await new Promise<void>((resolve) => stream.end(resolve));
    const [first, second] = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepStrictEqual(Object.keys(second as object), [
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
      'sourceIPs',
      'userAgent',
      'objectRef',
      'responseStatus',
      'requestReceivedTimestamp',
      'stageTimestamp',
    ]);
    assert.match(
      (first as { stageTimestamp: string }).stageTimestamp,
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/,
    );
    fs.rmSync(dir, { recursive: true });
  });

  it('buffers while the sink is full, up to the bound, and drops (counted) beyond it', async () => {
    const written: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 1,
      decodeStrings: false,
      write(chunk: string, _enc, done) {
        written.push(...chunk.split('\n').filter(Boolean));
        release = done;
      },
    });
    const w = new AuditLogWriter({ sink: slow, maxBufferedBytes: 1500, nowMicros: ticking() });
    for (let i = 0; i < 10; i++) w.requestReceived(request({ auditID: `id-${i}` }));
    assert.strictEqual(written.length, 1, 'the sink took the first line');
    assert.ok(w.pendingBytes <= 1500);
    assert.ok(w.dropped > 0, 'lines beyond the bound are dropped');
    const kept = 10 - w.dropped;
    while (release) {
      const r = release;
      release = undefined;
      r();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.strictEqual(written.length, kept);
    assert.deepStrictEqual(
      written.map((l) => (JSON.parse(l) as { auditID: string }).auditID),
      Array.from({ length: kept }, (_, i) => `id-${i}`),
      'in order, none twice',
    );
    assert.strictEqual(w.pendingBytes, 0);
  });

  it('formats MicroTime in UTC with six fractional digits', () => {
    const table: [number, string][] = [
      [0, '1970-01-01T00:00:00.000000Z'],
      [1_764_594_000_123_456, '2025-12-01T13:00:00.123456Z'],
      [999_999, '1970-01-01T00:00:00.999999Z'],
    ];
    for (const [micros, want] of table) assert.strictEqual(microTime(micros), want, String(micros));
  });

  describe('LogRequestObject fills what the objectRef lacks (pkg/audit/request.go)', () => {
    const cms = { group: '', version: 'v1', resource: 'configmaps' };
    // [case, the request's objectRef, the decoded metadata, the objectRef of ResponseComplete]
    const cases: Array<[string, AuditRequest['objectRef'], Record<string, unknown>, string]> = [
      [
        'a create: name, uid and resourceVersion from the body',
        { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' },
        { name: 'x', namespace: 'other', uid: 'u-1', resourceVersion: '7' },
        '{"resource":"configmaps","namespace":"default","name":"x","uid":"u-1","apiVersion":"v1","resourceVersion":"7"}',
      ],
      [
        'an update: the URL name is kept',
        { resource: 'configmaps', namespace: 'default', name: 'x', apiVersion: 'v1' },
        { name: 'y', resourceVersion: '9' },
        '{"resource":"configmaps","namespace":"default","name":"x","apiVersion":"v1","resourceVersion":"9"}',
      ],
      [
        'a cluster-scoped create with generateName: no name yet',
        { resource: 'namespaces', apiVersion: 'v1' },
        { generateName: 'ns-' },
        '{"resource":"namespaces","apiVersion":"v1"}',
      ],
      [
        'no objectRef: one from the endpoint',
        undefined,
        { name: 'x' },
        '{"resource":"configmaps","name":"x","apiVersion":"v1"}',
      ],
    ];
    for (const [name, ref, metadata, want] of cases)
      it(name, () => {
        const { lines, sink } = collect();
        const w = new AuditLogWriter({ sink, nowMicros: ticking() });
        const h = w.requestReceived(request({ verb: 'create', objectRef: ref }));
        h.logRequestObject(metadata, cms, '');
        h.responseComplete(201);
        const objectRefOf = (line: string): string => {
          const o = (JSON.parse(line) as { objectRef?: unknown }).objectRef;
          return o === undefined ? '' : JSON.stringify(o);
        };
        // RequestReceived was written before the body was decoded.
        assert.strictEqual(objectRefOf(lines[0]), ref ? JSON.stringify(ref) : '');
        assert.strictEqual(objectRefOf(lines[1]), want);
      });
  });

  it('serve --audit-log: a create and an update carry the object name at level Metadata', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-audit-'));
    const file = path.join(dir, 'audit.log');
    const server = await ApiServer.start({ port: 0, auditLogPath: file });
    try {
      const cms = '/api/v1/namespaces/default/configmaps';
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'audited' } };
      const c = await call(server, 'POST', cms, body);
      assert.strictEqual(c.status, 201, c.text);
      const rv = (c.json.metadata as { resourceVersion: string }).resourceVersion;
      const u = await call(server, 'PUT', `${cms}/audited`, {
        ...body,
        metadata: { name: 'audited', resourceVersion: rv },
        data: { a: 'b' },
      });
      assert.strictEqual(u.status, 200, u.text);
      const completed = async (): Promise<Array<Record<string, unknown>>> =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((e) => e.stage === 'ResponseComplete' && e.verb !== 'get');
      // The events are written when each response closes: wait for both (bounded).
      let events = await completed();
      for (let i = 0; i < 200 && events.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 10));
        events = await completed();
      }
      assert.deepStrictEqual(
        events.map((e) => [e.verb, e.level, e.objectRef]),
        [
          [
            'create',
            'Metadata',
            { resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' },
          ],
          [
            'update',
            'Metadata',
            {
              resource: 'configmaps',
              namespace: 'default',
              name: 'audited',
              apiVersion: 'v1',
              resourceVersion: rv,
            },
          ],
        ],
      );
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true });
    }
  });
});
