// Reads kube-apiserver's httplog lines (k8s.io/apiserver pkg/server/httplog/httplog.go, logged at
// -v=3 when a request ends): release-1.22..1.36 `"HTTP" verb="LIST" URI=… latency="2.31ms"
// userAgent=… audit-ID=… srcIP=… [apf_pl=… apf_fs=… …] resp=200 [statusStack=…] [addedInfo=…]`
// or `hijacked=true` (verb is metrics.NormalizedVerb: LIST, WATCH, GET, POST, PUT, PATCH, APPLY,
// DELETE, CONNECT); release-1.20..1.21 the same with the HTTP method as verb and no audit-ID;
// release-1.18..1.19 printf `verb="GET" URI=… latency=2.31ms resp=200 UserAgent=… srcIP=…: …`;
// and the JSON logging format (`--logging-format=json`: `{"ts":…,"msg":"HTTP","verb":…}`).
import { RequestInfoFactory } from '../request/request-info';
import type { ImportedObjectRef } from '../run/imported-request';
import { klogTimeIn, parseKlogLine } from './klog-entry';
import { parseGoDuration, parseKlogKeyValues } from './klog-key-values';
import type {
  LineContext,
  LineFormat,
  LineParser,
  ParseResult,
  RequestFields,
} from './line-parser';

/** `2023-08-23T08:55:54.331196195Z stderr F ` (CRI logging format: time, stream, full or partial). */
const criPrefixRe = /^(\d{4})-\d\d-\d\dT\S+ (?:stdout|stderr) [FP] /;

const sniffRe =
  /^(?:\S+ std(?:out|err) [FP] )?[IWEF]\d{4} [\d:.]+\s+\d+ httplog\.go:\d+\] |"HTTP" verb=|^verb="[A-Z]+" URI="|"msg":"HTTP"/;

export const httplogFormat: LineFormat = {
  format: 'httplog',
  sniff: (text) => sniffRe.test(text),
  // A CRI header's time and the JSON format's ts carry their year; a bare klog header does not.
  yearlessTime: (text, year) => (criPrefixRe.test(text) ? undefined : klogTimeIn(text, year)),
  create: () => new HttplogParser(),
};

/** NormalizedVerb (or, before 1.22, the method) to the HTTP method RequestInfo reads. */
const methodOf: Record<string, string | undefined> = {
  LIST: 'GET',
  WATCH: 'GET',
  GET: 'GET',
  HEAD: 'HEAD',
  POST: 'POST',
  PUT: 'PUT',
  PATCH: 'PATCH',
  APPLY: 'PATCH',
  DELETE: 'DELETE',
  OPTIONS: 'OPTIONS',
};

const expectedLine =
  'expected a kube-apiserver log line (`I1201 10:00:00.000000       1 httplog.go:134] "HTTP" verb="LIST" URI=…`)';

class HttplogParser implements LineParser {
  readonly format = 'httplog' as const;
  private readonly requestInfo = new RequestInfoFactory();
  /** A `key=<` block being read: the line it began on and the pairs before it. */
  private block: { line: number; time: number; values: Map<string, string> } | undefined;

  push(text: string, ctx: LineContext): ParseResult[] {
    const out: ParseResult[] = [];
    if (this.block) {
      if (text.startsWith('\t')) return [];
      const b = this.block;
      this.block = undefined;
      if (text.startsWith(' >')) {
        // More pairs may follow the block on its closing line, another block among them.
        const kv = parseKlogKeyValues(text, 2);
        for (const [key, value] of kv.values) if (!b.values.has(key)) b.values.set(key, value);
        if (kv.block !== undefined) {
          this.block = b;
          return [];
        }
        return [this.request(b.values, b.time, { ...ctx, line: b.line })];
      }
      out.push({ reject: 'a klog value block (`key=<`) did not end with ` >`', line: b.line });
    }
    if (text.trim() === '') return out;
    if (text.startsWith('{')) {
      out.push(this.jsonLine(text, ctx));
      return out;
    }
    // A container log file (/var/log/pods/…) puts the CRI runtime's own header first; its
    // timestamp has the year klog leaves out.
    const cri = criPrefixRe.exec(text);
    const line = cri ? text.slice(cri[0].length) : text;
    const k = parseKlogLine(line, cri ? Number(cri[1]) : ctx.year);
    if (typeof k === 'string') {
      out.push({ reject: k });
      return out;
    }
    if (!k) {
      // Before klog structured logging (1.18–1.19) the message was the line's only content when
      // the log was collected without its header.
      if (line.startsWith('verb="')) out.push(this.legacy(line, undefined, ctx));
      else out.push({ reject: expectedLine });
      return out;
    }
    if (k.message.startsWith('verb="')) {
      out.push(this.legacy(k.message, k.time, ctx));
      return out;
    }
    if (!k.message.startsWith('"HTTP" ')) return out;
    const kv = parseKlogKeyValues(k.message, 7);
    if (kv.block !== undefined) {
      this.block = { line: ctx.line, time: k.time, values: kv.values };
      return out;
    }
    out.push(this.request(kv.values, k.time, ctx));
    return out;
  }

  end(): ParseResult[] {
    const b = this.block;
    this.block = undefined;
    return b
      ? [{ reject: 'the file ended inside a klog value block (`key=<`)', line: b.line }]
      : [];
  }

  private jsonLine(text: string, ctx: LineContext): ParseResult {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      return {
        reject: `expected a JSON log line (--logging-format=json): ${(e as Error).message}`,
      };
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return { reject: 'expected a JSON log line (--logging-format=json)' };
    const o = v as Record<string, unknown>;
    if (o.msg !== 'HTTP') return { reject: 'expected a JSON httplog line ("msg":"HTTP")' };
    const values = new Map<string, string>();
    for (const [key, value] of Object.entries(o))
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        values.set(key, String(value));
    // component-base's JSON logger writes ts as epoch milliseconds; older ones wrote seconds.
    const ts = typeof o.ts === 'number' ? (o.ts > 1e11 ? o.ts : o.ts * 1000) : undefined;
    return this.request(values, ts, ctx);
  }

  /** 1.18–1.19: `verb="GET" URI="…" latency=2.31ms resp=200 UserAgent="…" srcIP="…": …`. */
  private legacy(message: string, time: number | undefined, ctx: LineContext): ParseResult {
    const kv = parseKlogKeyValues(message, 0);
    const rest = message.slice(kv.end);
    if (!kv.values.has('verb') || !kv.values.has('URI'))
      return { reject: 'expected httplog\'s `verb="GET" URI="…" latency=… resp=…`' };
    if (!kv.values.has('userAgent') && kv.values.has('UserAgent'))
      kv.values.set('userAgent', kv.values.get('UserAgent') ?? '');
    if (/^:\s*hijacked/.test(rest)) kv.values.set('hijacked', 'true');
    return this.request(kv.values, time, ctx);
  }

  private request(
    values: Map<string, string>,
    time: number | undefined,
    ctx: LineContext,
  ): ParseResult {
    const logged = values.get('verb');
    const uri = values.get('URI');
    if (logged === undefined || uri === undefined)
      return { reject: 'expected an httplog "HTTP" line with verb= and URI=' };
    const latency = values.get('latency');
    const latencyMs = latency === undefined ? undefined : parseGoDuration(latency);
    if (latency !== undefined && latencyMs === undefined)
      return {
        reject: `expected latency as a Go duration (2.31ms, 5m0s), got ${JSON.stringify(latency).slice(0, 60)}`,
      };
    const upper = logged.toUpperCase();
    const method = methodOf[upper];
    const fields: RequestFields = { requestURI: uri, startInFile: true };
    if (method !== undefined) fields.method = method;
    let verb = method?.toLowerCase() ?? logged.toLowerCase();
    try {
      // CONNECT (exec, attach, portforward, proxy) came as a POST or GET: RequestInfo from POST.
      const info = this.requestInfo.newRequestInfo(method ?? 'POST', uri);
      verb = upper === 'WATCH' ? 'watch' : upper === 'LIST' ? 'list' : info.verb;
      if (info.isResourceRequest) fields.objectRef = objectRefOf(info);
    } catch {
      // A URI Go's server would refuse: keep the method's verb, without an objectRef.
    }
    fields.verb = verb;
    const ua = values.get('userAgent');
    if (ua) fields.userAgent = ua;
    const auditID = values.get('audit-ID');
    if (auditID) fields.auditID = auditID;
    const src = values.get('srcIP');
    if (src) fields.sourceIP = hostOf(src);
    const resp = values.get('resp');
    if (resp !== undefined && /^\d+$/.test(resp) && resp !== '0') fields.code = Number(resp);
    if (latencyMs !== undefined) fields.latencyMs = latencyMs;
    if (time !== undefined) {
      // Logged when the request ends (httplog's deferred Log()).
      fields.completedAt = time;
      if (latencyMs !== undefined) fields.receivedAt = time - latencyMs;
    }
    return {
      source: { file: ctx.file, line: ctx.line, format: 'httplog' },
      time,
      complete: true,
      fields,
    };
  }
}

function objectRefOf(info: {
  resource: string;
  namespace: string;
  name: string;
  apiGroup: string;
  apiVersion: string;
  subresource: string;
}): ImportedObjectRef {
  const ref: ImportedObjectRef = { resource: info.resource };
  if (info.namespace) ref.namespace = info.namespace;
  if (info.name) ref.name = info.name;
  if (info.apiGroup) ref.apiGroup = info.apiGroup;
  if (info.apiVersion) ref.apiVersion = info.apiVersion;
  if (info.subresource) ref.subresource = info.subresource;
  return ref;
}

/** `127.0.0.1:53211` -> `127.0.0.1`, `[::1]:53211` -> `::1` (req.RemoteAddr is host:port). */
function hostOf(addr: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(addr);
  if (v6) return v6[1];
  const m = /^([^:]+):\d+$/.exec(addr);
  return m ? m[1] : addr;
}
