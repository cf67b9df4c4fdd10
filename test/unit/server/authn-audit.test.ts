// Tests for the failed-authentication audit (k8s.io/apiserver pkg/endpoints/filters/authn_audit.go,
// release-1.36, in src/server/filters/authentication.ts getAuthMethods and audit-log.ts
// failedAuthentication): one ResponseStarted event, no user, the attempted methods as the message.
import * as assert from 'assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiServer } from '../../../src/server/api-server';
import { AuditLogWriter } from '../../../src/server/audit-log';
import { getAuthMethods } from '../../../src/server/filters/authentication';

describe('failed authentication audit (authn_audit.go)', () => {
  describe('getAuthMethods', () => {
    const basic = (s: string): string => 'Basic ' + Buffer.from(s).toString('base64');
    // [name, Authorization header, URL, message]
    const cases: Array<[string, string | undefined, string, string]> = [
      ['no credentials', undefined, '/api', 'Authentication failed, no credentials provided'],
      ['a bearer token', 'Bearer nope', '/api', 'Authentication failed, attempted: bearer'],
      ['bearer in any case', 'bEaReR nope', '/api', 'Authentication failed, attempted: bearer'],
      [
        'an empty bearer token',
        'Bearer ',
        '/api',
        'Authentication failed, no credentials provided',
      ],
      ['a scheme alone', 'Bearer', '/api', 'Authentication failed, no credentials provided'],
      ['basic', basic('u:p'), '/api', 'Authentication failed, attempted: basic'],
      [
        'basic without a colon',
        basic('up'),
        '/api',
        'Authentication failed, no credentials provided',
      ],
      ['basic not base64', 'Basic !!!', '/api', 'Authentication failed, no credentials provided'],
      [
        'an access_token parameter',
        undefined,
        '/api/v1/pods?access_token=x',
        'Authentication failed, attempted: access_token',
      ],
      [
        'bearer and access_token',
        'Bearer nope',
        '/api?access_token=x',
        'Authentication failed, attempted: bearer, access_token',
      ],
      [
        'an empty access_token',
        undefined,
        '/api?access_token=',
        'Authentication failed, no credentials provided',
      ],
      ['another scheme', 'Negotiate abc', '/api', 'Authentication failed, no credentials provided'],
    ];
    for (const [name, authorization, url, message] of cases) {
      it(name, () => {
        const req = { url, headers: authorization === undefined ? {} : { authorization } };
        assert.strictEqual(getAuthMethods(req as IncomingMessage), message);
      });
    }
  });

  it('writes one ResponseStarted event with no user and the message, byte for byte', () => {
    const lines: string[] = [];
    const sink = { write: (c: string) => lines.push(c) > 0, once: () => undefined };
    let t = Date.UTC(2026, 11, 1, 13, 0, 0) * 1000 + 1;
    const w = new AuditLogWriter({ sink, nowMicros: () => (t += 250) });
    w.failedAuthentication(
      {
        auditID: 'a-1',
        requestURI: '/api/v1/namespaces/default/pods?limit=500',
        verb: 'list',
        sourceIPs: ['127.0.0.1'],
        userAgent: 'kubectl/v1.33.0',
        objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
      },
      'Authentication failed, attempted: bearer',
      401,
    );
    assert.deepStrictEqual(lines, [
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a-1","stage":"ResponseStarted","requestURI":"/api/v1/namespaces/default/pods?limit=500","verb":"list","user":{},"sourceIPs":["127.0.0.1"],"userAgent":"kubectl/v1.33.0","objectRef":{"resource":"pods","namespace":"default","apiVersion":"v1"},"responseStatus":{"metadata":{},"message":"Authentication failed, attempted: bearer","code":401},"requestReceivedTimestamp":"2026-12-01T13:00:00.000251Z","stageTimestamp":"2026-12-01T13:00:00.000501Z"}\n',
    ]);
  });

  describe('listwatch serve --audit-log', () => {
    let dir: string;
    let server: ApiServer;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'listwatch-authn-audit-test-'));
      server = await ApiServer.start({ port: 0, auditLogPath: join(dir, 'audit.log') });
    });
    after(async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    function get(path: string, token: string): Promise<{ status: number; auditID: string }> {
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          `${server.url}${path}`,
          { headers: { authorization: `Bearer ${token}`, 'user-agent': 'authn-audit-test' } },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, auditID: String(res.headers['audit-id']) }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    }

    it('audits a wrong token as kube-apiserver does, and names the event in Audit-Id', async () => {
      const r = await get('/api/v1/namespaces/default/configmaps/x', 'wrong');
      assert.strictEqual(r.status, 401);
      // The log is written asynchronously: a later request's line follows the 401's once it is
      // on disk (turns of the event loop, no wall-clock wait).
      const later = await get('/version', server.token);
      const log = join(dir, 'audit.log');
      for (let i = 0; i < 100_000 && !readFileSync(log, 'utf8').includes(later.auditID); i++)
        await new Promise((resolve) => setImmediate(resolve));
      const events = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((e) => e.auditID === r.auditID);
      assert.strictEqual(events.length, 1, JSON.stringify(events));
      const { requestReceivedTimestamp, stageTimestamp, ...rest } = events[0];
      assert.ok(typeof requestReceivedTimestamp === 'string' && typeof stageTimestamp === 'string');
      assert.deepStrictEqual(rest, {
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'Metadata',
        auditID: r.auditID,
        stage: 'ResponseStarted',
        requestURI: '/api/v1/namespaces/default/configmaps/x',
        verb: 'get',
        user: {},
        sourceIPs: ['127.0.0.1'],
        userAgent: 'authn-audit-test',
        objectRef: { resource: 'configmaps', namespace: 'default', name: 'x', apiVersion: 'v1' },
        responseStatus: {
          metadata: {},
          message: 'Authentication failed, attempted: bearer',
          code: 401,
        },
      });
    });
  });
});
