// A minimal HTTP client for the server's unit tests: one request with the server's token, and a
// watch whose events are collected as they arrive.
import { request as httpRequest, type Agent, type ClientRequest } from 'node:http';
import type { ApiServer } from '../../../src/server/api-server';

export interface Reply {
  status: number;
  text: string;
  json: Record<string, unknown>;
  /** The texts of the Warning headers (`299 - "<text>"`), in order. */
  warnings: string[];
}

/** One request; a body other than a string is sent as JSON. `o.headers` add to or replace ours. */
export function call(
  server: ApiServer,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
  o: { headers?: Record<string, string>; agent?: Agent } = {},
): Promise<Reply> {
  const data =
    body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': contentType,
    authorization: `Bearer ${server.token}`,
    ...o.headers,
  };
  if (data !== undefined) headers['content-length'] = String(Buffer.byteLength(data));
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { method, headers, agent: o.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // not JSON
        }
        const warnings: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (res.rawHeaders[i].toLowerCase() === 'warning')
            warnings.push(JSON.parse(res.rawHeaders[i + 1].replace(/^299 - /, '')) as string);
        resolve({ status: res.statusCode ?? 0, text, json, warnings });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

export interface WatchEvent {
  type: string;
  object: Record<string, unknown>;
}

/** A watch whose events are collected; `next()` resolves with the next event not yet taken. */
export function openWatch(
  server: ApiServer,
  path: string,
): Promise<{ events: WatchEvent[]; next(): Promise<WatchEvent>; req: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    let taken = 0;
    let waiter: (() => void) | undefined;
    const next = async (): Promise<WatchEvent> => {
      while (events.length <= taken) await new Promise<void>((r) => (waiter = r));
      return events[taken++];
    };
    const req = httpRequest(
      `${server.url}${path}`,
      { headers: { authorization: `Bearer ${server.token}` } },
      (res) => {
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString('utf8');
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (line.trim()) events.push(JSON.parse(line) as WatchEvent);
          }
          waiter?.();
        });
        res.on('error', () => {});
        resolve({ events, next, req });
      },
    );
    req.on('error', (e) => (events.length ? undefined : reject(e)));
    req.end();
  });
}
