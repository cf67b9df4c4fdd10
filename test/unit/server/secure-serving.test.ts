// Tests for src/server/secure-serving.ts: kube-apiserver's http.Server settings
// (k8s.io/apiserver pkg/server/secure_serving.go, release-1.36) as Go's net/http applies them to
// HTTP/1.1, on a real ApiServer spoken to over raw sockets, with the timeouts made short
// (servingLimits) so that nothing waits 32 s. Waits are for the server to act, never sleeps.
import * as assert from 'assert';
import { createServer } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { ApiServer } from '../../../src/server/api-server';
import {
  applyServingLimits,
  defaultServingLimits,
  httpServerOptions,
  maxConnectionsFor,
  openFilesLimit,
  servingLimitsFromEnv,
} from '../../../src/server/secure-serving';

/** A raw connection to the server and everything it is sent back until the server closes it. */
interface Connection {
  socket: Socket;
  /** Resolves with what arrived, once the server has closed the connection. */
  closed: Promise<string>;
  /** Resolves once `text` has arrived. */
  received(text: string): Promise<string>;
}

function open(server: ApiServer, send?: string): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    let got = '';
    const waiters: { text: string; resolve: (s: string) => void }[] = [];
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      for (const w of waiters.splice(0)) {
        if (got.includes(w.text)) w.resolve(got);
        else waiters.push(w);
      }
    });
    const closed = new Promise<string>((r) => socket.on('close', () => r(got)));
    socket.on('error', () => undefined);
    socket.once('error', reject);
    socket.on('connect', () => {
      if (send !== undefined) socket.write(send);
      resolve({
        socket,
        closed,
        received: (text) =>
          new Promise((r) => (got.includes(text) ? r(got) : waiters.push({ text, resolve: r }))),
      });
    });
  });
}

const get = (server: ApiServer, path: string, extra = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nAuthorization: Bearer ${server.token}\r\n${extra}\r\n`;

describe('server/secure-serving', () => {
  describe('kube-apiserver’s settings', () => {
    it('are secure_serving.go’s, with net/http’s 4096 bytes for the request line', () => {
      const limits = defaultServingLimits();
      assert.deepStrictEqual(
        { ...httpServerOptions(limits), readHeaderTimeoutMs: limits.readHeaderTimeoutMs },
        {
          maxHeaderSize: (1 << 20) + 4096,
          headersTimeout: 32_000,
          requestTimeout: 0,
          connectionsCheckingInterval: 1000,
          readHeaderTimeoutMs: 32_000,
        },
      );
      const s = createServer();
      applyServingLimits(s, limits);
      assert.strictEqual(s.keepAliveTimeout, 90_000);
      s.close();
    });

    const caps: { name: string; limits?: string; cap: number }[] = [
      {
        name: '20,000 open files',
        limits: 'Max open files            20000                20000                files     \n',
        cap: 18_976,
      },
      {
        name: '1,024 open files',
        limits: 'Max open files            1024                 4096                 files     \n',
        cap: 64,
      },
      {
        name: 'unlimited',
        limits: 'Max open files            unlimited            unlimited            files     \n',
        cap: 4096,
      },
      { name: 'no /proc', cap: 4096 },
    ];
    for (const c of caps)
      it(`the connection cap with ${c.name}: ${c.cap}`, () =>
        assert.strictEqual(
          maxConnectionsFor(c.limits === undefined ? undefined : openFilesLimit(c.limits)),
          c.cap,
        ));

    it('a start that fails after the resources started stops it again (the process can exit)', async () => {
      const timers = (): number =>
        process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
      // What a clean start and stop leave behind is the baseline.
      await (await ApiServer.start({ namespaceController: false })).stop();
      const before = timers();
      // A limit Node refuses makes the HTTP servers throw as they are made.
      await assert.rejects(
        ApiServer.start({ namespaceController: false, servingLimits: { readHeaderTimeoutMs: -1 } }),
        { code: 'ERR_OUT_OF_RANGE' },
      );
      assert.strictEqual(timers(), before);
    });

    it('a start that cannot listen rejects with the listener’s error', async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as { port: number }).port;
      const timers = (): number =>
        process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
      const before = timers();
      try {
        await assert.rejects(ApiServer.start({ port, namespaceController: false }), {
          code: 'EADDRINUSE',
        });
        assert.strictEqual(timers(), before);
      } finally {
        taken.close();
      }
    });

    it('LISTWATCH_SERVING_LIMITS overrides them for tests, and refuses a typo', () => {
      assert.deepStrictEqual(
        servingLimitsFromEnv({ LISTWATCH_SERVING_LIMITS: '{"idleTimeoutMs":5}' }),
        { idleTimeoutMs: 5 },
      );
      assert.deepStrictEqual(servingLimitsFromEnv({}), {});
      assert.throws(
        () => servingLimitsFromEnv({ LISTWATCH_SERVING_LIMITS: '{"idleTimeout":5}' }),
        /LISTWATCH_SERVING_LIMITS: idleTimeout must be one of/,
      );
    });
  });

  describe('a client that breaks them', () => {
    let server: ApiServer;
    before(async () => {
      server = await ApiServer.start({
        port: 0,
        servingLimits: { readHeaderTimeoutMs: 300, idleTimeoutMs: 300 },
      });
    });
    after(() => server.stop());

    it('one that sends nothing is closed without a word', async () => {
      const c = await open(server);
      assert.strictEqual(await c.closed, '');
    });

    it('one that never finishes its headers is closed without a word (readRequest’s deadline)', async () => {
      const c = await open(server, 'GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      assert.strictEqual(await c.closed, '');
    });

    it('one that never finishes its TLS handshake is closed (the handshake’s deadline)', async () => {
      // A TLS record's first byte sends it to the https server, which waits for the rest.
      const c = await open(server, '\x16');
      assert.strictEqual(await c.closed, '');
    });

    it('an idle keep-alive connection is closed after its answer (IdleTimeout)', async () => {
      const c = await open(server, get(server, '/version'));
      await c.received('"gitVersion"');
      assert.match(await c.closed, /^HTTP\/1\.1 200 OK\r\n/);
    });

    it('headers past MaxHeaderBytes are Go’s 431', async () => {
      const c = await open(
        server,
        get(server, '/version', `X-Big: ${'a'.repeat((1 << 20) + 4096)}\r\n`),
      );
      assert.strictEqual(
        await c.closed,
        'HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large',
      );
    });

    it('headers of 100 KiB are read (Node’s own limit is 16 KiB)', async () => {
      const c = await open(server, get(server, '/version', `X-Big: ${'a'.repeat(100 << 10)}\r\n`));
      assert.match(await c.received('"gitVersion"'), /^HTTP\/1\.1 200 OK\r\n/);
      c.socket.destroy();
    });

    it('a watch outlives both deadlines', async () => {
      const watch = await open(
        server,
        get(server, '/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=false'),
      );
      await watch.received('\r\n\r\n');
      // Both deadlines pass while the watch waits: a silent client is closed meanwhile.
      await (
        await open(server)
      ).closed;
      await (
        await open(server, get(server, '/version'))
      ).closed;
      const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' } });
      const create = await open(
        server,
        `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      assert.match(await create.closed, /^HTTP\/1\.1 201 Created/);
      assert.match(await watch.received('"name":"w"'), /"type":"ADDED"/);
      watch.socket.destroy();
    });
  });

  describe('more connections than the cap', () => {
    let server: ApiServer;
    const held: Connection[] = [];
    before(async () => {
      server = await ApiServer.start({ port: 0, servingLimits: { maxConnections: 3 } });
    });
    after(async () => {
      for (const c of held) c.socket.destroy();
      await server.stop();
    });

    it('the one past the cap is answered a 503 Status and closed, until one closes', async () => {
      for (let i = 0; i < 3; i++) {
        const c = await open(server, get(server, '/version'));
        await c.received('"gitVersion"');
        held.push(c);
      }
      const refused = await (await open(server, get(server, '/version'))).closed;
      assert.match(refused, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
      assert.match(refused, /\r\nConnection: close\r\n/i);
      assert.ok(
        refused.endsWith(
          '\r\n\r\n{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server has too many open connections (limit 3); try again later","reason":"ServiceUnavailable","code":503}\n',
        ),
        refused,
      );
      // Over TLS too (the handshake is made only to answer).
      const tls = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpsRequest(
          `${server.httpsUrl}/version`,
          {
            rejectUnauthorized: false,
            agent: false,
            headers: { authorization: `Bearer ${server.token}` },
          },
          (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.strictEqual(tls.status, 503, tls.body);
      assert.match(tls.body, /"reason":"ServiceUnavailable"/);
      // One of the three goes: the next connection is served (once the server has seen it go).
      const gone = held.pop() as Connection;
      gone.socket.destroy();
      await gone.closed;
      for (let attempt = 1; ; attempt++) {
        const answer = await (
          await open(server, get(server, '/version', 'Connection: close\r\n'))
        ).closed;
        if (answer.startsWith('HTTP/1.1 200 OK')) break;
        assert.ok(attempt < 100, answer);
      }
    });
  });
});
