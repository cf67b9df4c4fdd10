// No upstream counterpart: the battery's HTTP to the server graded, with the kubeconfig's
// credential and TLS agent as src/probe applies them (the CLI hands them in: a room on this floor
// does not import another). Unlike the probe it may write (POST, PUT, DELETE) unless read-only,
// where anything but GET is refused here, before a byte is sent. Every answer is recorded as it
// came, never thrown: a strange answer is what a check reports. Watches are GETs read line by line.
import * as http from 'node:http';
import * as https from 'node:https';

/** The User-Agent of every request (the server's audit log and clients report name it). */
export const conformUserAgent = 'listwatch-conform';

/** Where and how to connect: the server URL, the credential headers and the TLS agent. */
export interface ConformEndpoint {
  /** The server URL, without a trailing slash. */
  server: string;
  /** Headers carrying the credential (Authorization), if any. */
  headers: Record<string, string>;
  agent?: http.Agent;
}

/** An answer as it came: status 0 and `error` when none came (the connection failed, a time limit). */
export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** From sending to the whole body read. */
  ms: number;
  error?: string;
}

/** One watch event line as it arrived, parsed when it is JSON. */
export interface SeenEvent {
  type: string;
  object: Record<string, unknown>;
  /** Ms since the request was sent. */
  ms: number;
}

export interface WatchAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: SeenEvent[];
  /** Lines that were not a JSON watch event (or a non-200 body, whole). */
  strange: string[];
  /** `server`: the server ended it; `client`: `until` was met; `limit`: the time limit passed. */
  endedBy: 'server' | 'client' | 'limit';
  /** Ms from sending to the end. */
  ms: number;
  error?: string;
}

/** The requests sent, method and path (what `--read-only` promises, checked by the tests). */
export interface SentRequest {
  method: string;
  path: string;
}

/** How long any one non-watch request may take before it is recorded as unanswered. */
const requestLimitMs = 20_000;

export class ConformHttp {
  readonly sent: SentRequest[] = [];

  constructor(
    private readonly endpoint: ConformEndpoint,
    readonly readOnly: boolean,
    /** Aborts every request in flight (Ctrl-C); cleanup runs through `uninterrupted()`. */
    private readonly signal?: AbortSignal,
  ) {}

  /** The same connection without the abort signal: cleanup after an interruption. */
  uninterrupted(): ConformHttp {
    const h = new ConformHttp(this.endpoint, this.readOnly);
    (h as { sent: SentRequest[] }).sent = this.sent;
    return h;
  }

  /** The run was interrupted. */
  get aborted(): boolean {
    return this.signal?.aborted === true;
  }

  get server(): string {
    return this.endpoint.server;
  }

  private open(
    method: string,
    path: string,
    accept: string,
    contentType?: string,
  ): { req: http.ClientRequest; started: number } {
    if (this.readOnly && method !== 'GET')
      throw new Error(`read-only: refusing to send ${method} ${path}`);
    this.sent.push({ method, path });
    const url = new URL(this.endpoint.server + path);
    const mod = url.protocol === 'http:' ? http : https;
    const headers: Record<string, string> = {
      ...this.endpoint.headers,
      Accept: accept,
      'User-Agent': conformUserAgent,
      ...(contentType ? { 'Content-Type': contentType } : {}),
    };
    const req = mod.request(url, { method, headers, agent: this.endpoint.agent });
    return { req, started: performance.now() };
  }

  /** One request, its whole answer read (never rejects). */
  request(
    method: string,
    path: string,
    o: { accept?: string; body?: unknown; contentType?: string } = {},
  ): Promise<HttpAnswer> {
    const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
    const { req, started } = this.open(
      method,
      path,
      o.accept ?? 'application/json',
      payload === undefined ? undefined : (o.contentType ?? 'application/json'),
    );
    return new Promise((resolve) => {
      let done = false;
      const finish = (a: Omit<HttpAnswer, 'ms'>): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
        resolve({ ...a, ms: performance.now() - started });
      };
      const fail = (error: string): void => {
        finish({ status: 0, headers: {}, body: '', error });
        req.destroy();
      };
      const timer = setTimeout(
        () => fail(`no answer in ${requestLimitMs / 1000} s`),
        requestLimitMs,
      );
      const onAbort = (): void => fail('interrupted');
      if (this.signal?.aborted) return onAbort();
      this.signal?.addEventListener('abort', onAbort);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', (e) => fail(e.message));
        res.on('end', () =>
          finish({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      req.on('error', (e) => fail(e.message));
      req.end(payload);
    });
  }

  /**
   * A watch (GET `path`), its events collected until the server ends it, `until` says enough (the
   * connection is then closed), or `limitMs` passes (a server that never ends it).
   */
  watch(
    path: string,
    o: { accept?: string; limitMs: number; until?: (events: readonly SeenEvent[]) => boolean },
  ): Promise<WatchAnswer> {
    const { req, started } = this.open('GET', path, o.accept ?? 'application/json');
    return new Promise((resolve) => {
      const answer: WatchAnswer = {
        status: 0,
        headers: {},
        events: [],
        strange: [],
        endedBy: 'server',
        ms: 0,
      };
      let done = false;
      const finish = (endedBy: WatchAnswer['endedBy'], error?: string): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
        answer.endedBy = endedBy;
        answer.ms = performance.now() - started;
        if (error !== undefined) answer.error = error;
        req.destroy();
        resolve(answer);
      };
      const timer = setTimeout(() => finish('limit'), o.limitMs);
      const onAbort = (): void => finish('client', 'interrupted');
      if (this.signal?.aborted) return onAbort();
      this.signal?.addEventListener('abort', onAbort);
      req.on('response', (res) => {
        answer.status = res.statusCode ?? 0;
        answer.headers = res.headers;
        res.setEncoding('utf8');
        let buffered = '';
        const line = (text: string): void => {
          if (text.trim() === '') return;
          if (answer.status !== 200) {
            answer.strange.push(text);
            return;
          }
          const e = parseEvent(text, performance.now() - started);
          if (e) answer.events.push(e);
          else answer.strange.push(text);
        };
        res.on('data', (d: string) => {
          buffered += d;
          if (answer.status !== 200) return;
          for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
            line(buffered.slice(0, nl));
            buffered = buffered.slice(nl + 1);
          }
          if (o.until?.(answer.events)) finish('client');
        });
        const end = (): void => {
          line(buffered);
          buffered = '';
          finish('server');
        };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
      });
      req.on('error', (e) => finish('server', e.message));
      req.end();
    });
  }
}

/** A watch event line: `{"type":…,"object":{…}}`, or undefined for anything else. */
function parseEvent(text: string, ms: number): SeenEvent | undefined {
  try {
    const v = JSON.parse(text) as { type?: unknown; object?: unknown };
    if (typeof v?.type !== 'string' || typeof v.object !== 'object' || v.object === null)
      return undefined;
    return { type: v.type, object: v.object as Record<string, unknown>, ms };
  } catch {
    return undefined;
  }
}
