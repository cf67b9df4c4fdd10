// No upstream counterpart: one stateful reader for what a Go client logs about its requests through
// klog, shared by the kubectl and client-go formats (a kubectl log holds reflector lines, a
// controller's log round-tripper lines). It reads k8s.io/client-go transport/round_trippers.go
// (printf up to 0.32: `GET <url> 200 OK in 12 milliseconds`, `Request Headers:`, `Response
// Status:`, `Response Headers:`, `curl -v -XGET …`; structured 0.33+: `"Request" verb= url=
// headers=<…>`, `"Response" status= headers=<…> milliseconds=`), rest/request.go's response bodies,
// kubectl's `Error from server (Reason): message` and tools/cache/reflector.go's lines
// (client-go-reflector-log-calls.ts, read as events by reflector-line.ts).
//
// Joins: a process (klog's pid) is one stream; its requests are numbered (`pid 17122 #3`) and a
// response without a URL answers the oldest unanswered one (kubectl sends one at a time, but for
// its parallel discovery GETs). A
// request's fragments are held until its response headers are read, so each carries the Audit-Id
// the merger joins an audit log by. Reflector lines name no request: a watch's end attaches to the
// stream's latest watch, and so does the end of a WatchList watch's initial events (its list); a
// process that logs no requests (below -v=6) gets the LIST and WATCH its reflector lines imply, or
// the one WatchList WATCH when the reflector logs that end, with an empty requestURI (the URL is
// not in the log).
import type { ImportFormat, ImportedObjectRef, SourcePosition } from '../run/imported-request';
import { isStructuredMessage, parseKlogLine, readQuoted, readStructured } from './klog-entry';
import type { KlogLine, KlogStructured } from './klog-entry';
import type {
  LineContext,
  LineParser,
  ParseResult,
  RequestFields,
  RequestFragment,
} from './line-parser';
import {
  codeOf,
  printfReflectorEvent,
  resourceOfType,
  structuredReflectorEvent,
  type ReflectorEvent,
} from './reflector-line';
import { responseBodyFacts } from './response-body';
import { RequestInfoFactory } from '../request/request-info';
import { visibleText } from '../format/visible-text';

const requestInfoFactory = new RequestInfoFactory();
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One request of a process, while its fragments may still be held. */
interface ClientRequest {
  key: string;
  /** The URL as logged (scheme and host included), when a line named it. */
  url?: string;
  verb?: string;
  auditID?: string;
  code?: number;
  answered: boolean;
  /** Fragments waiting for the response headers (undefined once released). */
  held?: RequestFragment[];
}

/** A reflector's LIST announced by `Listing and watching`, in a process that logs no requests. */
interface PendingList {
  source: SourcePosition;
  time: number;
  type: string;
  reflector: string;
}

/** What the parser knows of one process. */
interface ClientProcess {
  stream: string;
  seq: number;
  /** The process logs its requests (-v=6 or more): reflector lines imply none. */
  logsRequests: boolean;
  requests: ClientRequest[];
  /**
   * The request the last request or response line was about: header, body and error lines that
   * follow are its (a process's concurrent requests, kubectl's parallel discovery GETs, are
   * paired oldest first, as a -v=7/8 printf log cannot tell them apart).
   */
  current?: ClientRequest;
  /** What the process's latest logged watch watches (its URL's resource and group). */
  lastWatch?: ImportedObjectRef;
  /**
   * The resources ('' when unknown) of the process's watches its log has not yet shown ended: a
   * reflector's stop ends the one of its resource.
   */
  openWatches: Set<string>;
  /** Printf `Request Headers:` / `Response Headers:` lines follow. */
  headers?: 'request' | 'response';
  pendingLists: Map<string, PendingList>;
  /** The last list failure read: 0.27–0.32 log one twice (a warning, then HandleError). */
  lastListFailure?: string;
}

/** A structured entry whose `key=<` block goes on over the next lines. */
interface OpenBlock {
  line: number;
  header: KlogLine;
  text: string;
}

export class ClientLogParser implements LineParser {
  private readonly processes = new Map<string, ClientProcess>();
  private lastPid?: string;
  private block?: OpenBlock;

  constructor(readonly format: ImportFormat) {}

  push(text: string, ctx: LineContext): ParseResult[] {
    const out: ParseResult[] = [];
    if (this.block) {
      if (text.startsWith('\t') || text.startsWith(' >')) {
        this.block.text += `\n${text}`;
        if (text.startsWith(' >')) this.readBlock(ctx, out);
        return out;
      }
      const b = this.block;
      this.block = undefined;
      out.push({
        reject: `expected a tab-indented line or " >" to go on with the "key=<" block begun on line ${b.line}, got ${quoteStart(text)}`,
        line: b.line,
      });
    }
    const k = parseKlogLine(text, ctx.year);
    if (typeof k === 'string') {
      out.push({ reject: `${k}, got ${quoteStart(text)}` });
      return out;
    }
    if (k === undefined) {
      // Not klog's: kubectl's own output, a stack trace, a pretty-printed Status. Only kubectl's
      // error line says something about a request.
      if (this.lastPid !== undefined)
        this.serverError(text, this.process(ctx, this.lastPid), ctx, undefined, out);
      return out;
    }
    this.lastPid = k.pid;
    if (!isStructuredMessage(k.message)) {
      this.printf(k, ctx, this.source(ctx), out);
      return out;
    }
    this.block = { line: ctx.line, header: k, text: k.message };
    this.readBlock(ctx, out, ctx.line);
    return out;
  }

  end(): ParseResult[] {
    const out: ParseResult[] = [];
    if (this.block) {
      out.push({
        reject: `expected " >" closing the "key=<" block begun on line ${this.block.line} before the end of the file`,
        line: this.block.line,
      });
      this.block = undefined;
    }
    for (const p of this.processes.values()) {
      for (const r of p.requests) release(r, out);
      for (const pending of p.pendingLists.values()) this.syntheticList(p, pending, out, false);
      p.pendingLists.clear();
    }
    return out;
  }

  /** Reads the open structured entry; leaves it open while a block is not closed yet. */
  private readBlock(ctx: LineContext, out: ParseResult[], line = this.block!.line): void {
    const b = this.block!;
    const r = readStructured(b.text);
    if (r.kind === 'open') return;
    this.block = undefined;
    if (r.kind === 'error') {
      out.push({
        reject: `expected a klog structured message: ${r.reason}, got ${quoteStart(b.text)}`,
        ...lineOf(line, ctx),
      });
      return;
    }
    this.structured(
      b.header,
      r.entry,
      ctx,
      { file: ctx.file, line: b.line, format: this.format },
      out,
    );
  }

  private source(ctx: LineContext): SourcePosition {
    return { file: ctx.file, line: ctx.line, format: this.format };
  }

  private process(ctx: LineContext, pid: string): ClientProcess {
    let p = this.processes.get(pid);
    if (!p) {
      p = {
        stream: `${ctx.file} pid ${pid}`,
        seq: 0,
        logsRequests: false,
        requests: [],
        pendingLists: new Map(),
        openWatches: new Set(),
      };
      this.processes.set(pid, p);
    }
    return p;
  }

  // ---- printf (client-go up to 0.32, kubectl up to 1.32) ----

  private printf(k: KlogLine, ctx: LineContext, source: SourcePosition, out: ParseResult[]): void {
    const p = this.process(ctx, k.pid);
    const msg = k.message;
    const header = p.headers && /^ {4}([^:]+): (.*)$/s.exec(msg);
    if (header) {
      const r = p.current;
      if (r && p.headers === 'request' && header[1] === 'User-Agent')
        this.addFields(r, source, k.time, { userAgent: header[2] }, out, false, p.stream);
      if (r && p.headers === 'response' && header[1].toLowerCase() === 'audit-id')
        r.auditID = header[2];
      return;
    }
    p.headers = undefined;
    if (msg === 'Request Headers:' || msg === 'Response Headers:') {
      if (p.current) p.headers = msg === 'Request Headers:' ? 'request' : 'response';
      return;
    }
    // A printf response's headers are over: its fragments go out with the Audit-Id.
    for (const r of p.requests) if (r.answered) release(r, out);
    let m = /^Response Status: (.*) in (\d+) milliseconds$/.exec(msg);
    if (m) {
      this.respond(p, undefined, undefined, m[1], Number(m[2]), k.time, source, out, ctx);
      return;
    }
    m = /^([A-Z]+) (\S+) (.*?) ?in (\d+) milliseconds$/.exec(msg);
    if (m && methods.has(m[1])) {
      // At -v=6 this line is the whole request: no headers follow it (at -v=9 a curl line
      // opened the request, and its response headers follow).
      const opened = p.requests.some((r) => !r.answered && r.url === m![2]);
      const r = this.respond(p, m[1], m[2], m[3], Number(m[4]), k.time, source, out, ctx);
      if (r && !opened) release(r, out);
      return;
    }
    m = /^([A-Z]+) (\S+)$/.exec(msg);
    if (m && methods.has(m[1])) {
      this.request(p, m[1], m[2], undefined, k.time, source, out);
      return;
    }
    if (msg.startsWith('curl ')) {
      const curl = parseCurl(msg);
      if (typeof curl === 'string') out.push({ reject: curl });
      else this.request(p, curl.method, curl.url, curl.userAgent, k.time, source, out);
      return;
    }
    m = /^Response Body: (.*)$/s.exec(msg);
    if (m) {
      this.body(p, m[1], k.time, source, out);
      return;
    }
    if (this.serverError(msg, p, ctx, k.time, out)) return;
    const e = printfReflectorEvent(msg);
    if (e) this.reflector(p, e, k.time, source, out);
  }

  // ---- structured (client-go 0.33+, kubectl 1.33+) ----

  private structured(
    k: KlogLine,
    e: KlogStructured,
    ctx: LineContext,
    source: SourcePosition,
    out: ParseResult[],
  ): void {
    const p = this.process(ctx, k.pid);
    p.headers = undefined;
    for (const r of p.requests) if (r.answered) release(r, out);
    const v = e.values;
    switch (e.msg) {
      case 'Request': {
        const curlCommand = v.get('curlCommand');
        if (curlCommand !== undefined) {
          const curl = parseCurl(curlCommand.trim());
          if (typeof curl === 'string') out.push({ reject: curl, line: source.line });
          else this.request(p, curl.method, curl.url, curl.userAgent, k.time, source, out);
          return;
        }
        const url = v.get('url');
        const verb = v.get('verb');
        if (url === undefined || verb === undefined) {
          out.push({ reject: 'expected verb="…" url="…" in a "Request" line', line: source.line });
          return;
        }
        const ua = headerValue(v.get('headers'), 'User-Agent');
        this.request(p, verb, url, ua, k.time, source, out);
        return;
      }
      case 'Response': {
        const status = v.get('status');
        const ms = Number(v.get('milliseconds'));
        if (status === undefined || !Number.isInteger(ms)) {
          out.push({
            reject: 'expected status="…" and milliseconds=N in a "Response" line',
            line: source.line,
          });
          return;
        }
        const r = this.respond(
          p,
          v.get('verb'),
          v.get('url'),
          status,
          ms,
          k.time,
          source,
          out,
          ctx,
        );
        if (r) {
          const auditID = headerValue(v.get('headers'), 'Audit-Id');
          if (auditID !== undefined) r.auditID = auditID;
          release(r, out);
        }
        return;
      }
      case 'Response Body': {
        const body = v.get('body');
        if (body !== undefined) this.body(p, body, k.time, source, out);
        return;
      }
    }
    const ev = structuredReflectorEvent(e);
    if (ev) this.reflector(p, ev, k.time, source, out);
  }

  // ---- requests ----

  private request(
    p: ClientProcess,
    method: string,
    url: string,
    userAgent: string | undefined,
    time: number,
    source: SourcePosition,
    out: ParseResult[],
  ): ClientRequest {
    this.logsRequests(p);
    for (const r of p.requests) if (r.answered) release(r, out);
    p.requests = p.requests.filter((r) => !r.answered || r.held);
    const r: ClientRequest = { key: `pid ${pid(p)} #${++p.seq}`, url, answered: false, held: [] };
    p.requests.push(r);
    p.current = r;
    const fields: RequestFields = { ...requestFields(method, url), receivedAt: time };
    if (userAgent !== undefined) fields.userAgent = userAgent;
    r.verb = fields.verb;
    if (r.verb === 'watch' && fields.objectRef) {
      const { resource, apiGroup } = fields.objectRef;
      p.lastWatch = apiGroup === undefined ? { resource } : { resource, apiGroup };
    }
    if (r.verb === 'watch') p.openWatches.add(fields.objectRef?.resource ?? '');
    this.addFields(r, source, time, fields, out, false, p.stream);
    return r;
  }

  /** A response line: it answers the oldest unanswered request (of its URL, when it names one). */
  private respond(
    p: ClientProcess,
    method: string | undefined,
    url: string | undefined,
    status: string,
    ms: number,
    time: number,
    source: SourcePosition,
    out: ParseResult[],
    ctx: LineContext,
  ): ClientRequest | undefined {
    // The oldest first: of concurrent requests, the one sent first most often answers first.
    let r = p.requests.find((q) => !q.answered && (url === undefined || q.url === url));
    if (!r) {
      if (url === undefined || method === undefined) {
        out.push({
          reject: `expected a request line before this response (${visibleText(status)} in ${ms} ms): the log may begin mid-request`,
          ...lineOf(source.line, ctx),
        });
        return undefined;
      }
      r = this.request(p, method, url, undefined, time - ms, source, out);
    }
    r.answered = true;
    p.current = r;
    const code = /^(\d{3})\b/.exec(status);
    const fields: RequestFields = { latencyMs: ms, receivedAt: time - ms };
    if (code) fields.code = r.code = Number(code[1]);
    const watch = r.verb === 'watch';
    if (watch) fields.responseStartedAt = time;
    else fields.completedAt = time;
    // A transport error prints no status (`GET <url>  in 3 milliseconds`): no code, but it ended.
    this.addFields(r, source, time, fields, out, !watch, p.stream);
    return r;
  }

  private body(
    p: ClientProcess,
    body: string,
    time: number,
    source: SourcePosition,
    out: ParseResult[],
  ): void {
    const r = p.current;
    if (!r) return;
    const facts = responseBodyFacts(body);
    const fields: RequestFields = {};
    if (facts.response) fields.response = facts.response;
    if (facts.status) fields.status = facts.status;
    if (facts.code !== undefined) fields.code = facts.code;
    if (Object.keys(fields).length === 0) return;
    release(r, out);
    this.addFields(r, source, time, fields, out, r.verb !== 'watch', p.stream);
  }

  /**
   * kubectl's `Error from server (Expired): The provided continue parameter is too old…` (also as
   * a klog F line in 1.20): the Status of the process's latest request, when that one failed.
   * kubectl's other `error: …` lines are its own (a timed-out wait), about no request: skipped.
   */
  private serverError(
    text: string,
    p: ClientProcess,
    ctx: LineContext,
    time: number | undefined,
    out: ParseResult[],
  ): boolean {
    const m = /^Error from server(?: \(([A-Za-z]+)\))?: (.*)$/s.exec(text);
    if (!m) return false;
    const r = p.current;
    if (!r || (r.code !== undefined && r.code < 400)) return true;
    const status: { reason?: string; message?: string } = { message: m[2] };
    if (m[1] !== undefined) status.reason = m[1];
    release(r, out);
    this.addFields(r, this.source(ctx), time, { status }, out, true, p.stream);
    return true;
  }

  private addFields(
    r: ClientRequest,
    source: SourcePosition,
    time: number | undefined,
    fields: RequestFields,
    out: ParseResult[],
    complete: boolean,
    stream?: string,
  ): void {
    const f: RequestFragment = { source, key: r.key, complete, fields };
    if (time !== undefined) f.time = time;
    if (stream !== undefined) f.stream = stream;
    if (r.held) r.held.push(f);
    else {
      if (r.auditID !== undefined) f.fields.auditID = r.auditID;
      out.push(f);
    }
  }

  private logsRequests(p: ClientProcess): void {
    p.logsRequests = true;
    p.pendingLists.clear();
  }

  // ---- reflectors ----

  private reflector(
    p: ClientProcess,
    e: ReflectorEvent,
    time: number,
    source: SourcePosition,
    out: ParseResult[],
  ): void {
    const pending = p.pendingLists.get(e.reflector);
    switch (e.kind) {
      case 'list-start':
        if (p.logsRequests) return;
        if (pending) this.syntheticList(p, pending, out, false);
        p.pendingLists.set(e.reflector, { source, time, type: e.type, reflector: e.reflector });
        return;
      case 'list-done':
        if (pending) this.listSucceeded(p, pending, time, source, out);
        return;
      case 'list-failed': {
        if (p.lastListFailure === `${e.reflector} ${e.err}`) return;
        p.lastListFailure = `${e.reflector} ${e.err}`;
        const code = codeOf(e.err);
        const status = { ...(code === 410 ? { reason: 'Expired' } : {}), message: e.err };
        if (pending) {
          p.pendingLists.delete(e.reflector);
          this.syntheticList(p, pending, out, true, {
            status,
            completedAt: time,
            ...(code ? { code } : {}),
          });
          return;
        }
        // The failed LIST was logged as a request: its Status is this error.
        const r = [...p.requests].reverse().find((q) => q.verb === 'list');
        if (r && (r.code === undefined || r.code >= 400)) {
          release(r, out);
          this.addFields(r, source, time, { status }, out, true, p.stream);
        }
        return;
      }
      case 'initial-events-end': {
        const initialEventsEnd: NonNullable<RequestFields['initialEventsEnd']> = {
          at: time,
          source,
        };
        if (e.totalItems !== undefined) initialEventsEnd.items = e.totalItems;
        if (e.durationMs !== undefined) initialEventsEnd.durationMs = e.durationMs;
        if (pending) {
          // Below -v=6: the list `Listing and watching` announced was this WatchList watch, which
          // goes on watching (reflector.go watchList): one request, not a LIST and a WATCH.
          p.pendingLists.delete(e.reflector);
          this.syntheticRequest(p, 'watch', pending, pending.time, pending.source, out, false, {
            initialEventsEnd,
          });
          return;
        }
        // The stream's latest watch is the WatchList watch whose initial events ended here.
        const typed = resourceOfType('', e.reflector);
        const objectRef = typed.resource !== undefined ? typed : p.lastWatch;
        const fields: RequestFields = { initialEventsEnd };
        if (objectRef?.resource !== undefined) fields.objectRef = objectRef;
        out.push({ source, time, stream: p.stream, attach: 'last-watch', complete: false, fields });
        return;
      }
      case 'watch-list-fallback': {
        p.openWatches.delete(p.lastWatch?.resource ?? '');
        // The WatchList watch the process logged last ended here, before its initial events.
        const fields: RequestFields = {
          completedAt: time,
          watchEnd: { message: e.err, at: time, source, beforeInitialEvents: true },
        };
        if (p.lastWatch?.resource !== undefined) fields.objectRef = p.lastWatch;
        out.push({ source, time, stream: p.stream, attach: 'last-watch', complete: true, fields });
        return;
      }
      case 'stop':
        this.reflectorStopped(p, e, time, source, out);
        return;
      case 'bookmark-expired':
        // A warning while the initial events go on: it ends nothing.
        return;
      case 'watch-end': {
        if (pending) this.listSucceeded(p, pending, time, source, out);
        const fields: RequestFields = {
          completedAt: time,
          watchEnd: { message: e.message, at: time, source },
        };
        // An unstructured informer's type names no resource (kubectl wait's): the watch it ends
        // is the one the process logged last.
        const typed = resourceOfType(e.type, e.reflector);
        const objectRef = typed.resource !== undefined ? typed : p.lastWatch;
        if (objectRef?.resource !== undefined) fields.objectRef = objectRef;
        p.openWatches.delete(objectRef?.resource ?? '');
        if (e.code !== undefined) fields.code = e.code;
        if (e.code === 410 && e.err !== undefined)
          fields.status = { reason: 'Expired', message: e.err };
        out.push({ source, time, stream: p.stream, attach: 'last-watch', complete: true, fields });
        // Below -v=6 the reflector's next watch is not logged: a plain close or a retried error
        // resumes at once, a 410 or a 429 relists or backs off first (reflector.go's watch loop).
        if (!p.logsRequests && e.code === undefined)
          this.syntheticRequest(p, 'watch', e, time, source, out);
        return;
      }
    }
  }

  /**
   * `Stopping reflector`: the client closed the reflector's watch, if the log shows one still
   * open (a watch the log showed ended, by `Watch close` or an error, ended there). The stop line
   * proves the end, and its time is the watch's end.
   */
  private reflectorStopped(
    p: ClientProcess,
    e: { type: string; reflector: string },
    time: number,
    source: SourcePosition,
    out: ParseResult[],
  ): void {
    const typed = resourceOfType(e.type, e.reflector);
    const objectRef = typed.resource !== undefined ? typed : p.lastWatch;
    if (!p.openWatches.delete(objectRef?.resource ?? '')) return;
    const fields: RequestFields = {
      completedAt: time,
      watchEnd: {
        message: `Stopping reflector (${source.file}:${source.line}): its client stopped the reflector, and the watch with it`,
        at: time,
        source,
        clientClosed: true,
      },
    };
    if (objectRef?.resource !== undefined) fields.objectRef = objectRef;
    out.push({ source, time, stream: p.stream, attach: 'last-watch', complete: true, fields });
  }

  /** A LIST announced and not logged ended well (`Caches populated`, or a watch followed it). */
  private listSucceeded(
    p: ClientProcess,
    pending: PendingList,
    time: number,
    source: SourcePosition,
    out: ParseResult[],
  ): void {
    p.pendingLists.delete(pending.reflector);
    this.syntheticList(p, pending, out, true, { code: 200, completedAt: time });
    this.syntheticRequest(p, 'watch', pending, time, source, out);
  }

  private syntheticList(
    p: ClientProcess,
    pending: PendingList,
    out: ParseResult[],
    complete: boolean,
    extra: RequestFields = {},
  ): void {
    this.syntheticRequest(p, 'list', pending, pending.time, pending.source, out, complete, extra);
  }

  /** A request a reflector's lines imply in a process that logs none: its URL is unknown. */
  private syntheticRequest(
    p: ClientProcess,
    verb: 'list' | 'watch',
    of: { type: string; reflector: string },
    time: number,
    source: SourcePosition,
    out: ParseResult[],
    complete = false,
    extra: RequestFields = {},
  ): void {
    const objectRef: ImportedObjectRef = resourceOfType(of.type, of.reflector);
    if (verb === 'watch' && !complete) p.openWatches.add(objectRef.resource ?? '');
    const fields: RequestFields = {
      verb,
      method: 'GET',
      requestURI: '',
      objectRef,
      receivedAt: time,
      ...extra,
    };
    out.push({
      source,
      time,
      key: `pid ${pid(p)} #${++p.seq}`,
      stream: p.stream,
      complete,
      fields,
    });
  }
}

function pid(p: ClientProcess): string {
  return p.stream.slice(p.stream.lastIndexOf(' ') + 1);
}

/** Sends a request's held fragments, each with the Audit-Id its response headers named. */
function release(r: ClientRequest, out: ParseResult[]): void {
  if (!r.held) return;
  for (const f of r.held) {
    if (r.auditID !== undefined) f.fields.auditID = r.auditID;
    out.push(f);
  }
  r.held = undefined;
}

/** method, requestURI, verb and objectRef of a logged URL (RequestInfoFactory.NewRequestInfo). */
function requestFields(method: string, url: string): RequestFields {
  const requestURI = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
  const fields: RequestFields = { method, requestURI, verb: method.toLowerCase() };
  try {
    const info = requestInfoFactory.newRequestInfo(method, requestURI);
    fields.verb = info.verb;
    if (info.isResourceRequest) {
      const ref: ImportedObjectRef = { resource: info.resource, apiVersion: info.apiVersion };
      if (info.apiGroup !== '') ref.apiGroup = info.apiGroup;
      if (info.namespace !== '') ref.namespace = info.namespace;
      if (info.name !== '') ref.name = info.name;
      if (info.subresource !== '') ref.subresource = info.subresource;
      fields.objectRef = ref;
    }
  } catch {
    // A URL the apiserver would refuse (`/api/v1/watch`): its method's verb stands.
  }
  return fields;
}

/** The value of `name` in a `Key: Value` header block (round_trippers.go's headersMap). */
function headerValue(block: string | undefined, name: string): string | undefined {
  if (block === undefined) return undefined;
  const lower = name.toLowerCase();
  for (const line of block.split('\n')) {
    const i = line.indexOf(': ');
    if (i > 0 && line.slice(0, i).toLowerCase() === lower) return line.slice(i + 2);
  }
  return undefined;
}

/** round_trippers.go's toCurl: `curl [-k ]-v -XGET  -H "K: V" … 'URL'` (headers Go-quoted). */
function parseCurl(text: string): { method: string; url: string; userAgent?: string } | string {
  const m = /^curl (?:-k )?-v -X([A-Z]+) (.*) '([^']*)'$/s.exec(text);
  if (!m) return `expected curl -v -XMETHOD … 'URL', got ${quoteStart(text)}`;
  const result: { method: string; url: string; userAgent?: string } = { method: m[1], url: m[3] };
  let i = 0;
  const headers = m[2];
  while ((i = headers.indexOf('-H "', i)) >= 0) {
    const q = readQuoted(headers, i + 3);
    if (typeof q === 'string') return `expected curl's -H "…" header: ${q}`;
    const h = /^User-Agent: (.*)$/is.exec(q.value);
    if (h) result.userAgent = h[1];
    i = q.end;
  }
  return result;
}

function lineOf(line: number, ctx: LineContext): { line?: number } {
  return line === ctx.line ? {} : { line };
}

function quoteStart(text: string): string {
  return JSON.stringify(visibleText(text.slice(0, 80)));
}
