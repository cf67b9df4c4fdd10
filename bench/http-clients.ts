// The HTTP clients of the server benchmarks (bench/server-fanout.ts, bench/server-memory.ts), in a
// process of their own: the server's heap and event loop then hold only the server, and the
// clients use the second core. Driven over IPC; every figure it returns is timed here, around
// requests that go to the server under test or to the bare baseline server alike.
// Not a benchmark itself (bench/main.ts does not run it).
import * as http from 'http';

/** A request from the benchmark process. */
export type ClientOp =
  | { op: 'open'; url: string; path: string; token?: string; n: number }
  | { op: 'write'; url: string; path: string; token?: string; body: string; marker: string }
  | { op: 'get'; url: string; path: string; token?: string }
  | { op: 'close' };

export interface OpenResult {
  opened: number;
  ms: number;
}
export interface WriteResult {
  /** From sending the write to the last watch connection holding the marker. */
  ms: number;
  status: number;
}
export interface GetResult {
  ms: number;
  bytes: number;
  status: number;
  body?: string;
}

interface WatchConnection {
  req: http.ClientRequest;
  /** The text since the last marker seen, up to a marker's length back. */
  tail: string;
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
let watches: WatchConnection[] = [];
/** The marker the next write waits for, and how many connections still lack it. */
let awaited: { marker: string; missing: Set<WatchConnection>; done: () => void } | undefined;

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

function headers(token: string | undefined): http.OutgoingHttpHeaders {
  return token ? { Authorization: `Bearer ${token}`, Accept: 'application/json' } : {};
}

function onWatchData(w: WatchConnection, chunk: string): void {
  const a = awaited;
  if (!a) {
    w.tail = (w.tail + chunk).slice(-256);
    return;
  }
  const text = w.tail + chunk;
  if (a.missing.has(w) && text.includes(a.marker)) {
    a.missing.delete(w);
    w.tail = '';
    if (a.missing.size === 0) a.done();
  } else w.tail = text.slice(-a.marker.length);
}

function openOne(url: string, path: string, token: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, url), { agent, headers: headers(token) }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch ${path}: ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (c: string) => onWatchData(w, c));
      res.on('error', () => undefined);
      resolve();
    });
    const w: WatchConnection = { req, tail: '' };
    req.on('error', reject);
    watches.push(w);
  });
}

async function open(o: Extract<ClientOp, { op: 'open' }>): Promise<OpenResult> {
  const t0 = now();
  // In batches: a thousand connects at once would only queue in the listen backlog.
  for (let i = 0; i < o.n; i += 200) {
    const batch: Promise<void>[] = [];
    for (let k = i; k < Math.min(o.n, i + 200); k++) batch.push(openOne(o.url, o.path, o.token));
    await Promise.all(batch);
  }
  return { opened: watches.length, ms: now() - t0 };
}

function request(
  method: string,
  url: string,
  path: string,
  token: string | undefined,
  body?: string,
): Promise<{ status: number; body: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const h = headers(token);
    if (body !== undefined) h['Content-Type'] = 'application/json';
    const req = http.request(new URL(path, url), { method, agent, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, body: all.toString(), bytes: all.length });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function write(o: Extract<ClientOp, { op: 'write' }>): Promise<WriteResult> {
  const seen = new Promise<void>((resolve) => {
    awaited = { marker: o.marker, missing: new Set(watches), done: resolve };
  });
  const t0 = now();
  const r = await request('POST', o.url, o.path, o.token, o.body);
  if (r.status >= 300) throw new Error(`write ${o.path}: ${r.status} ${r.body.slice(0, 300)}`);
  await seen;
  const ms = now() - t0;
  awaited = undefined;
  return { ms, status: r.status };
}

/**
 * A timed GET, to the last byte: the body is counted, not kept (joining and decoding megabytes
 * here would only add this process's noise to both servers' figures).
 */
function get(o: Extract<ClientOp, { op: 'get' }>): Promise<GetResult> {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const req = http.get(new URL(o.path, o.url), { agent, headers: headers(o.token) }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ ms: now() - t0, bytes, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function close(): Promise<{ closed: number }> {
  const all = watches;
  watches = [];
  await Promise.all(
    all.map(
      (w) =>
        new Promise<void>((resolve) => {
          const socket = w.req.socket;
          if (!socket || socket.destroyed) return resolve();
          socket.once('close', () => resolve());
          w.req.destroy();
        }),
    ),
  );
  return { closed: all.length };
}

async function handle(m: ClientOp): Promise<unknown> {
  switch (m.op) {
    case 'open':
      return open(m);
    case 'write':
      return write(m);
    case 'get':
      return get(m);
    case 'close':
      return close();
  }
}

if (process.send) {
  process.on('message', (msg: { id: number; op: ClientOp }) => {
    handle(msg.op).then(
      (result) => process.send?.({ id: msg.id, result }),
      (e: unknown) => process.send?.({ id: msg.id, error: String(e) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
