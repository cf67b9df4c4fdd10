// Tests for src/server/held-headers-response.ts: held headers go out first in writeHead, whoever
// writes the head (writeHead, an implicit head, headers set one by one before), in the order they
// would have had if set one by one first; and a response that writes its head with writeHead alone
// keeps none of them set (what Node would hold for the response's life); a stream it carries hears
// it through listeners every response shares.
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { HeldHeadersResponse } from '../../../src/server/held-headers-response';

const held = { 'Cache-Control': 'no-cache, private', 'X-Held': 'h' };

type Handler = (res: HeldHeadersResponse) => void;

/**
 * The headers the client read, as `Name: value` in their order, but those Node adds itself (Date,
 * Connection, Keep-Alive, Transfer-Encoding).
 */
async function rawHeaders(handler: Handler): Promise<{ raw: string[]; kept: string[] }> {
  let kept: string[] = [];
  const server = http.createServer({ ServerResponse: HeldHeadersResponse }, (_req, res) => {
    handler(res);
    kept = res.getHeaderNames();
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const raw = await new Promise<string[]>((resolve, reject) =>
      http
        .get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
          res.resume();
          resolve(res.rawHeaders);
        })
        .on('error', reject),
    );
    const skip = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
    const pairs: string[] = [];
    for (let i = 0; i < raw.length; i += 2)
      if (!skip.has(raw[i].toLowerCase())) pairs.push(`${raw[i]}: ${raw[i + 1]}`);
    return { raw: pairs, kept };
  } finally {
    server.close();
  }
}

describe('HeldHeadersResponse', () => {
  const cases: Array<[string, Handler, string[], string[]]> = [
    [
      "held, then writeHead with the handler's headers: held first, none kept",
      (res) => {
        res.holdHeaders(held);
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Own': 'o' });
      },
      [
        'Cache-Control: no-cache, private',
        'X-Held: h',
        'Content-Type: application/json',
        'X-Own: o',
      ],
      [],
    ],
    [
      'held, writeHead with a reason',
      (res) => {
        res.holdHeaders(held);
        res.writeHead(200, 'Fine', { 'Content-Type': 'text/plain' });
      },
      ['Cache-Control: no-cache, private', 'X-Held: h', 'Content-Type: text/plain'],
      [],
    ],
    [
      'held, the handler overrides one of them: its value, in the held place',
      (res) => {
        res.holdHeaders(held);
        res.writeHead(200, { 'Cache-Control': 'public', 'Content-Type': 'text/plain' });
      },
      ['Cache-Control: public', 'X-Held: h', 'Content-Type: text/plain'],
      [],
    ],
    [
      'held, a header set one by one first: held ones before it, its name as set',
      (res) => {
        res.holdHeaders(held);
        res.setHeader('Retry-After', '1');
        res.writeHead(429, { 'Content-Type': 'application/json' });
      },
      [
        'Cache-Control: no-cache, private',
        'X-Held: h',
        'Retry-After: 1',
        'Content-Type: application/json',
      ],
      ['cache-control', 'x-held', 'retry-after', 'content-type'],
    ],
    [
      'held, no writeHead (end writes the head): held ones there',
      (res) => res.holdHeaders(held),
      ['Cache-Control: no-cache, private', 'X-Held: h', 'Content-Length: 0'],
      [],
    ],
    [
      'nothing held: as Node writes it',
      (res) => {
        res.setHeader('Cache-Control', 'no-cache, private');
        res.writeHead(200, { 'Content-Type': 'text/plain' });
      },
      ['Cache-Control: no-cache, private', 'Content-Type: text/plain'],
      ['cache-control', 'content-type'],
    ],
  ];
  for (const [name, handler, want, kept] of cases) {
    it(name, async () => {
      const got = await rawHeaders(handler);
      assert.deepStrictEqual(got.raw, want, `${name}: headers`);
      assert.deepStrictEqual(got.kept, kept, `${name}: headers Node keeps`);
    });
  }
});

describe('HeldHeadersResponse.forgetSentHeader', () => {
  // Once flushed, the header block is let go; the response still says its headers were sent.
  const cases: Array<[string, (res: HeldHeadersResponse) => void, string]> = [
    ['then writes and ends', (res) => res.end('body'), 'body'],
    ['then writes in chunks', (res) => (res.write('a'), res.write('b'), res.end()), 'ab'],
  ];
  for (const [name, rest, body] of cases) {
    it(`a chunked response whose flushed header is forgotten ${name}`, async () => {
      const seen: { headersSent?: boolean; writeHead?: string; held?: boolean } = {};
      const server = http.createServer({ ServerResponse: HeldHeadersResponse }, (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
        res.flushHeaders();
        res.forgetSentHeader();
        seen.held = String((res as unknown as { _header: unknown })._header).includes('200 OK');
        seen.headersSent = res.headersSent;
        try {
          res.writeHead(500);
        } catch (e) {
          seen.writeHead = (e as { code?: string }).code;
        }
        rest(res);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const got = await new Promise<{ status?: number; body: string }>((resolve, reject) =>
          http
            .get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
              let text = '';
              res.on('data', (d: Buffer) => (text += d.toString()));
              res.on('end', () => resolve({ status: res.statusCode, body: text }));
            })
            .on('error', reject),
        );
        assert.deepStrictEqual(
          { ...got, ...seen },
          { status: 200, body, held: false, headersSent: true, writeHead: 'ERR_HTTP_HEADERS_SENT' },
        );
      } finally {
        server.close();
      }
    });
  }
});

describe('HeldHeadersResponse.carry', () => {
  // A stream carried by responses hears them through listeners they all share (no closure per
  // response), 'drain' once it asks, and nothing once released.
  /** Whether the two responses share a listener of each event, and what each stream heard. */
  interface Seen {
    close: boolean;
    error: boolean;
    drain: boolean;
    heard: string[];
  }
  const cases: Array<[string, (res: HeldHeadersResponse) => void, Seen]> = [
    [
      'the client goes away',
      () => undefined,
      { close: true, error: true, drain: false, heard: ['closed'] },
    ],
    [
      'asks for drain, then the client goes away',
      (res) => res.listenDrain(),
      { close: true, error: true, drain: true, heard: ['closed'] },
    ],
    [
      'released before the client goes away',
      (res) => res.release(),
      { close: false, error: false, drain: false, heard: [] },
    ],
  ];
  for (const [name, then, want] of cases) {
    it(name, async () => {
      const responses: HeldHeadersResponse[] = [];
      const calls: string[][] = [];
      const server = http.createServer({ ServerResponse: HeldHeadersResponse }, (_req, res) => {
        const mine: string[] = [];
        calls.push(mine);
        res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
        res.flushHeaders();
        res.carry({
          responseClosed: () => mine.push('closed'),
          responseDrained: () => mine.push('drained'),
        });
        then(res);
        responses.push(res);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const open = (): Promise<http.ClientRequest> =>
          new Promise((resolve, reject) => {
            const req = http
              .get({ host: '127.0.0.1', port, path: '/', agent: false }, () => resolve(req))
              .on('error', () => undefined);
            req.on('error', reject);
          });
        const reqs = [await open(), await open()];
        const shared = (event: string): boolean => {
          const [a, b] = responses.map((res) => res.listeners(event));
          return a.some((f) => b.includes(f));
        };
        const seen = {
          close: shared('close'),
          error: shared('error'),
          drain: shared('drain'),
        };
        const closed = responses.map(
          (res) => new Promise<void>((resolve) => res.on('close', () => resolve())),
        );
        for (const req of reqs) req.destroy();
        await Promise.all(closed);
        assert.deepStrictEqual(
          calls.map((heard) => ({ ...seen, heard })),
          [want, want],
        );
      } finally {
        server.close();
      }
    });
  }
});
