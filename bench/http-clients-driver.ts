// The benchmark side of bench/http-clients.ts: forks it and sends it requests over IPC; and the
// bare Node HTTP server the server benchmarks measure `listwatch serve` against (the same bytes,
// no apiserver: what Node's http module costs alone).
import { fork, type ChildProcess } from 'child_process';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import type { ClientOp, GetResult, OpenResult, WriteResult } from './http-clients';

/** The client process: watch connections, one write awaited on all of them, timed GETs. */
export class HttpClients {
  private readonly child: ChildProcess;
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();

  constructor() {
    this.child = fork(path.join(__dirname, 'http-clients.js'), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result);
    });
    this.child.on('exit', (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`http-clients exited (${code})`));
      this.pending.clear();
    });
  }

  private call<T>(op: ClientOp): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, op });
    });
  }

  open(url: string, watchPath: string, n: number, token?: string): Promise<OpenResult> {
    return this.call({ op: 'open', url, path: watchPath, n, token });
  }

  write(
    url: string,
    p: string,
    body: string,
    marker: string,
    token?: string,
  ): Promise<WriteResult> {
    return this.call({ op: 'write', url, path: p, body, marker, token });
  }

  get(url: string, p: string, token?: string): Promise<GetResult> {
    return this.call({ op: 'get', url, path: p, token });
  }

  close(): Promise<{ closed: number }> {
    return this.call({ op: 'close' });
  }

  stop(): void {
    this.child.disconnect();
  }
}

/**
 * The baseline: a bare Node HTTP server. GET /watch holds a chunked response open (headers
 * flushed, as the watch handler does); POST /write writes its body, a pre-encoded event line, to
 * every open /watch response; GET /list answers the bytes set with `setList`.
 */
export class BareHttpServer {
  readonly watchers = new Set<http.ServerResponse>();
  private list: { body: Buffer; contentType: string } = {
    body: Buffer.alloc(0),
    contentType: 'application/json',
  };
  private readonly server: http.Server;
  url = '';

  constructor() {
    this.server = http.createServer((req, res) => {
      if (req.url === '/watch') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
        res.flushHeaders();
        this.watchers.add(res);
        res.on('close', () => this.watchers.delete(res));
      } else if (req.url === '/write' && req.method === 'POST') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const line = Buffer.concat(chunks);
          for (const w of this.watchers) w.write(line);
          res.writeHead(201, { 'Content-Type': 'application/json' });
          res.end('{}');
        });
      } else if (req.url === '/list') {
        res.writeHead(200, { 'Content-Type': this.list.contentType });
        res.end(this.list.body);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  }

  setList(body: Buffer, contentType: string): void {
    this.list = { body, contentType };
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const w of this.watchers) w.end();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
