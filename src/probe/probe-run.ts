// No upstream counterpart: one probe of a real cluster, as a listwatch run. The paged LIST the
// user asked for (each page's continue token decoded with storage.DecodeContinue against the
// resource's key prefix, its metadata.resourceVersion, remainingItemCount, items, bytes, time and
// Audit-Id), then optionally a watch with bookmarks for a few seconds (each event's type, RV and
// time, the k8s.io/initial-events-end bookmark), then optionally a scrape of GET /metrics. Every
// request is a GET. The run is a trace whose header scenario is `probe`: `list`/`list-end` inputs
// for the pages, `watch`/`watch-opened`/`watch-closed` for the watch, `phase` markers with what
// each answer weighed and what each watch event was, and the scrape as `metrics` records.
import { RealClock, inspectContinue, type Clock } from '../engine';
import { visibleText } from '../format/visible-text';
import type { RunHeader } from '../run/run-model';
import {
  traceFormat,
  traceVersion,
  type ClientError,
  type ScenarioInput,
  type TraceRecord,
} from '../run/trace/trace-format';
import {
  clusterGet,
  clusterWatch,
  connect,
  probeUserAgent,
  shownHeaders,
  baseHeaders,
  type ClusterConnection,
} from './cluster-connection';
import { errorMessage, statusOfBody } from './cluster-status';
import type { ClusterTarget } from './kubeconfig-target';
import { ProbeError } from './probe-error';
import { filterScrape } from './probe-metrics';
import { pageUrl, watchUrl, type ProbeUrl } from './probe-url';
import { redactAuthorization } from './redact';
import { formatBytes } from '../format/byte-size-text';
import { plural } from '../format/count-text';

/** The header scenario of a probe run (one name, in run-clock.ts). */
import { probeScenario } from '../run/views/run-clock';
export { probeScenario };

/** Pages read at most (a small limit over a large cluster): the plan says so. */
export const defaultMaxPages = 100;

/** Watch events kept in the report and as markers; the rest are counted. */
const maxWatchEvents = 500;

const jsonAccept = 'application/json';
const metricsAccept = 'text/plain;version=0.0.4';

export interface ProbeOptions {
  /** The LIST (absent: a metrics scrape only). */
  url?: ProbeUrl;
  /** Watch for this many seconds after the LIST (0: no watch). */
  watchSeconds?: number;
  /** The watch is a watch-list: sendInitialEvents=true&resourceVersionMatch=NotOlderThan. */
  sendInitialEvents?: boolean;
  /** Scrape GET /metrics at the end. */
  metrics?: boolean;
  maxPages?: number;
  /** The probe's one source of time: its trace's times, its timestamps, the watch's end (default: the RealClock). */
  clock?: Clock;
}

export interface DecodedContinue {
  /** The key the next page starts from (the key prefix joined with the token's start), raw. */
  startKey?: string;
  resourceVersion?: string;
  error?: string;
}

export interface ProbePage {
  page: number;
  request: string;
  status: number;
  auditId?: string;
  items: number;
  bytes: number;
  ms: number;
  firstByteMs: number;
  resourceVersion: string;
  remainingItemCount?: number;
  continue: string;
  continueDecoded?: DecodedContinue;
  error?: ClientError;
}

export interface ProbeWatchEvent {
  /** Ms since the watch was sent. */
  ms: number;
  type: string;
  resourceVersion: string;
  /** namespace/name of the object (events other than BOOKMARK and ERROR). */
  object?: string;
  /** A BOOKMARK with the k8s.io/initial-events-end annotation. */
  initialEventsEnd?: boolean;
  error?: ClientError;
}

export interface ProbeWatch {
  request: string;
  status: number;
  auditId?: string;
  seconds: number;
  byType: Record<string, number>;
  events: ProbeWatchEvent[];
  eventsDropped: number;
  /** closed: the probe closed it when its time was up; server: the server ended it first. */
  ended: 'closed' | 'server';
  error?: ClientError;
}

export interface ProbeMetrics {
  request: string;
  status: number;
  scrapedAt: string;
  ms: number;
  bytes: number;
  /** The kept samples (probe-metrics.ts families). */
  samples: Record<string, number>;
  totalSamples: number;
  nonFinite: string[];
  error?: ClientError;
}

export interface ProbeReport {
  kubeconfig: string;
  context: string;
  cluster: string;
  server: string;
  user: string;
  startedAt: string;
  /** The Authorization header as sent, redacted (known once an exec plugin has run). */
  authorization?: string;
  pages: ProbePage[];
  items: number;
  /** The last page still had a continue token when maxPages was reached. */
  pagesCapped?: boolean;
  watch?: ProbeWatch;
  metrics?: ProbeMetrics;
}

export interface ProbeRun {
  report: ProbeReport;
  /** The trace: the header line, then one record per line. */
  traceLines: string[];
}

/** Plain text of each step as it happens (the CLI prints it; VS Code shows it as progress). */
export type ProbeProgress = (line: string) => void;

/**
 * What the probe will send, line by line, before anything is sent or run: every request's method
 * and URL, the headers with the credential redacted, TLS, the client certificate's subject, and
 * the exec plugin that will run.
 */
export function describeProbe(t: ClusterTarget, o: ProbeOptions): string[] {
  const lines = [
    `The probe will read (GET only, never write) from cluster "${t.cluster}" at ${t.server}`,
    `  kubeconfig ${t.kubeconfig}, context "${t.context}", user "${t.user}"`,
  ];
  const max = o.maxPages ?? defaultMaxPages;
  if (o.url) {
    lines.push(`GET ${t.server}${pageUrl(o.url)}`);
    // The placeholders stand where the values go, unencoded so that they read as placeholders.
    if (o.url.limit > 0)
      lines.push(
        `GET ${t.server}${pageUrl(o.url)}&continue=<the previous page's continue token>  (while a page has one; at most ${max} pages)`,
      );
    if (o.watchSeconds)
      lines.push(
        `GET ${t.server}${watchUrl(o.url, { sendInitialEvents: o.sendInitialEvents })}${o.sendInitialEvents ? '' : "&resourceVersion=<the first page's resourceVersion>"}  (read for ${o.watchSeconds} s, then closed)`,
      );
  }
  if (o.metrics) lines.push(`GET ${t.server}/metrics  (Accept: ${metricsAccept})`);
  lines.push('Headers:');
  const headers = shownHeaders(baseHeaders(o.url ? jsonAccept : metricsAccept));
  headers.push(
    `Authorization: ${t.credential.authorization ?? (t.credential.exec ? "<from the exec plugin's ExecCredential, redacted>" : '(none)')}`,
  );
  lines.push(...headers.map((h) => `  ${h}`));
  lines.push(`TLS: ${t.tls}`);
  lines.push('Credential:', ...t.credential.lines.map((l) => `  ${l}`));
  return lines.map((l) => visibleText(l));
}

function decoded(token: string, keyPrefix: string): DecodedContinue {
  const r = inspectContinue(token, keyPrefix);
  if (r.error) return { error: r.error.message };
  return {
    startKey: r.result!.fromKey,
    resourceVersion: String(r.result!.resourceVersion),
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Records the trace as the probe goes; times are ms since it started. */
class ProbeTrace {
  readonly records: TraceRecord[] = [];
  private readonly t0: number;
  private seq = 0;

  constructor(readonly clock: Clock) {
    this.t0 = clock.now();
  }

  now(): number {
    return Math.round(this.clock.now() - this.t0);
  }

  nextRequestId(): number {
    return ++this.seq;
  }

  input(input: ScenarioInput, at = this.now()): void {
    this.records.push({ kind: 'input', at, ...input } as TraceRecord);
  }

  phase(name: string, text: string, at = this.now()): void {
    this.input({ action: 'phase', name, text: visibleText(text) }, at);
  }
}

/** Runs the probe (the caller has shown describeProbe and been told to go on). */
export async function runProbe(
  t: ClusterTarget,
  o: ProbeOptions,
  progress: ProbeProgress = () => {},
  signal?: AbortSignal,
): Promise<ProbeRun> {
  const clock = o.clock ?? new RealClock();
  const startedAt = new Date(clock.now()).toISOString();
  const trace = new ProbeTrace(clock);
  const report: ProbeReport = {
    kubeconfig: t.kubeconfig,
    context: t.context,
    cluster: t.cluster,
    server: t.server,
    user: t.user,
    startedAt,
    pages: [],
    items: 0,
  };
  if (t.credential.exec)
    progress(
      `running the exec plugin ${[t.credential.exec.command, ...t.credential.exec.args].join(' ')}`,
    );
  const conn = await connect(t, o.url ? jsonAccept : metricsAccept);
  const auth = conn.headers.Authorization;
  if (auth !== undefined) report.authorization = redactAuthorization(auth);
  if (t.credential.exec)
    progress(
      `the exec plugin gave a credential: Authorization: ${report.authorization ?? '(none)'}`,
    );
  if (o.url) await listPages(conn, o, report, trace, progress, signal);
  if (o.url && o.watchSeconds && !signal?.aborted)
    await watch(conn, o, report, trace, progress, signal);
  if (o.metrics && !signal?.aborted)
    await scrape(
      { ...conn, headers: { ...conn.headers, Accept: metricsAccept } },
      report,
      trace,
      progress,
      signal,
    );
  const runHeader: RunHeader = {
    format: traceFormat,
    version: traceVersion,
    scenario: probeScenario,
    profile: 'cluster',
    seed: 0,
    params: {
      server: t.server,
      kubeconfig: t.kubeconfig,
      context: t.context,
      ...(o.url ? { request: pageUrl(o.url) } : {}),
      ...(o.watchSeconds ? { watchSeconds: o.watchSeconds } : {}),
      ...(report.metrics ? { metricsScrapedAt: report.metrics.scrapedAt } : {}),
      startedAt,
    },
  };
  return {
    report,
    traceLines: [JSON.stringify(runHeader), ...trace.records.map((r) => JSON.stringify(r))],
  };
}

async function listPages(
  conn: ClusterConnection,
  o: ProbeOptions,
  report: ProbeReport,
  trace: ProbeTrace,
  progress: ProbeProgress,
  signal?: AbortSignal,
): Promise<void> {
  const u = o.url!;
  const t = conn.target;
  const max = o.maxPages ?? defaultMaxPages;
  let token: string | undefined;
  for (let page = 1; page <= max && !signal?.aborted; page++) {
    const request = pageUrl(u, token);
    const requestId = trace.nextRequestId();
    const id = `page-${page}`;
    trace.input({
      action: 'list',
      id,
      requestId,
      request,
      // A real cluster serves it: how (cache or etcd) is not seen from outside.
      via: 'cluster',
      client: probeUserAgent,
    });
    const res = await clusterGet(conn, request, signal);
    const text = res.body.toString('utf8');
    const p: ProbePage = {
      page,
      request,
      status: res.status,
      items: 0,
      bytes: res.body.length,
      ms: Math.round(res.ms * 10) / 10,
      firstByteMs: Math.round(res.firstByteMs * 10) / 10,
      resourceVersion: '',
      continue: '',
    };
    const auditId = header(res.headers['audit-id']);
    if (auditId) p.auditId = auditId;
    if (res.status !== 200) {
      p.error = statusOfBody(text, res.status);
      report.pages.push(p);
      trace.input({
        action: 'list-end',
        id,
        requestId,
        status: res.status,
        items: 0,
        resourceVersion: '',
        continue: '',
        error: p.error,
      });
      throw new ProbeError(errorMessage(t, request, p.error), res.status);
    }
    let list: { items?: unknown[]; metadata?: Record<string, unknown> };
    try {
      list = JSON.parse(text) as typeof list;
    } catch {
      throw new ProbeError(
        `GET ${request}: the answer is not JSON (${formatBytes(p.bytes, 'KiB')})`,
      );
    }
    const meta = list.metadata ?? {};
    p.items = Array.isArray(list.items) ? list.items.length : 0;
    p.resourceVersion = typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '';
    p.continue = typeof meta.continue === 'string' ? meta.continue : '';
    if (typeof meta.remainingItemCount === 'number') p.remainingItemCount = meta.remainingItemCount;
    if (p.continue) p.continueDecoded = decoded(p.continue, u.keyPrefix);
    report.pages.push(p);
    report.items += p.items;
    trace.input({
      action: 'list-end',
      id,
      requestId,
      status: 200,
      items: p.items,
      resourceVersion: p.resourceVersion,
      continue: p.continue,
      ...(p.remainingItemCount !== undefined ? { remainingItemCount: p.remainingItemCount } : {}),
    });
    const line = pageLine(p);
    trace.phase(`page ${page}`, line);
    progress(line);
    if (!p.continue) return;
    token = p.continue;
  }
  if (token && !signal?.aborted) report.pagesCapped = true;
}

/** One page in one line: what it carried, what it weighed, where the next one starts. */
export function pageLine(p: ProbePage): string {
  const parts = [
    `page ${p.page}: ${p.status}`,
    plural(p.items, 'item', { plain: true }),
    `${formatBytes(p.bytes, 'KiB')} in ${p.ms} ms (first byte ${p.firstByteMs} ms)`,
    `resourceVersion ${p.resourceVersion || '""'}`,
  ];
  if (p.remainingItemCount !== undefined) parts.push(`remainingItemCount ${p.remainingItemCount}`);
  if (p.auditId) parts.push(`Audit-Id ${p.auditId}`);
  const d = p.continueDecoded;
  parts.push(
    !p.continue
      ? 'no continue (last page)'
      : d?.error
        ? `continue token does not decode: ${d.error}`
        : `continue → start key ${d?.startKey}, resourceVersion ${d?.resourceVersion}`,
  );
  return visibleText(parts.join(', '));
}

async function watch(
  conn: ClusterConnection,
  o: ProbeOptions,
  report: ProbeReport,
  trace: ProbeTrace,
  progress: ProbeProgress,
  signal?: AbortSignal,
): Promise<void> {
  const seconds = o.watchSeconds!;
  const request = watchUrl(o.url!, {
    resourceVersion: report.pages[0]?.resourceVersion,
    sendInitialEvents: o.sendInitialEvents,
  });
  const requestId = trace.nextRequestId();
  const client = probeUserAgent;
  trace.input({ action: 'watch', client, requestId, request, contentType: jsonAccept });
  const w: ProbeWatch = {
    request,
    status: 0,
    seconds,
    byType: {},
    events: [],
    eventsDropped: 0,
    ended: 'closed',
  };
  report.watch = w;
  const t0 = trace.now();
  let opened = false;
  let errorBody = '';
  /** `inStream`: the error is the stream's first event (a 200 answer). */
  const open = (error?: ClientError, inStream = false): void => {
    if (opened) return;
    opened = true;
    trace.input({
      action: 'watch-opened',
      client,
      requestId,
      ...(error ? { error } : {}),
      ...(error && inStream ? { inStream: true as const } : {}),
    });
  };
  const stream = await clusterWatch(conn, request, (line, ms) => {
    if (w.status !== 200) {
      errorBody += line;
      return;
    }
    const e = watchEvent(line, ms);
    if (!opened) open(e.type === 'ERROR' ? e.error : undefined, true);
    w.byType[e.type] = (w.byType[e.type] ?? 0) + 1;
    if (e.type === 'ERROR' && !w.error) w.error = e.error;
    if (w.events.length >= maxWatchEvents) {
      w.eventsDropped++;
      return;
    }
    w.events.push(e);
    const text = watchEventLine(e);
    trace.phase(`watch ${e.type}`, text, t0 + Math.round(ms));
    progress(text);
  });
  w.status = stream.status;
  const auditId = header(stream.headers['audit-id']);
  if (auditId) w.auditId = auditId;
  // The clock, not setTimeout: the RealClock arms a watch longer than 2^31-1 ms in steps (setTimeout
  // would close it at once).
  const timer = trace.clock.afterFunc(seconds * 1000, () => stream.close());
  const onAbort = (): void => stream.close();
  signal?.addEventListener('abort', onAbort);
  w.ended = await stream.ended;
  timer.stop();
  signal?.removeEventListener('abort', onAbort);
  if (stream.status !== 200) {
    w.error = statusOfBody(errorBody, stream.status);
    open(w.error);
  } else open();
  const received = Object.values(w.byType).reduce((a, b) => a + b, 0);
  trace.input({
    action: 'watch-closed',
    client,
    requestId,
    reason:
      w.ended === 'closed'
        ? `the probe closed it after ${seconds} s`
        : 'the server ended the watch',
    received,
  });
  if (w.error && stream.status !== 200)
    throw new ProbeError(errorMessage(conn.target, request, w.error), stream.status);
}

function watchEvent(line: string, ms: number): ProbeWatchEvent {
  const at = Math.round(ms * 10) / 10;
  let e: { type?: unknown; object?: Record<string, unknown> };
  try {
    e = JSON.parse(line) as typeof e;
  } catch {
    return { ms: at, type: 'UNREADABLE', resourceVersion: '' };
  }
  const type = typeof e.type === 'string' ? e.type : '?';
  const obj = e.object ?? {};
  const meta = (obj.metadata ?? {}) as {
    resourceVersion?: string;
    name?: string;
    namespace?: string;
    annotations?: Record<string, string>;
  };
  const out: ProbeWatchEvent = { ms: at, type, resourceVersion: meta.resourceVersion ?? '' };
  if (type === 'ERROR') out.error = statusOfBody(JSON.stringify(obj), 0);
  else if (type === 'BOOKMARK') {
    if (meta.annotations?.['k8s.io/initial-events-end'] === 'true') out.initialEventsEnd = true;
  } else if (meta.name !== undefined)
    out.object = meta.namespace ? `${meta.namespace}/${meta.name}` : meta.name;
  return out;
}

/** One watch event in one line. */
export function watchEventLine(e: ProbeWatchEvent): string {
  const what =
    e.type === 'ERROR'
      ? `ERROR ${e.error?.code ?? ''} ${e.error?.reason ?? ''}: ${e.error?.message ?? ''}`
      : e.type === 'BOOKMARK'
        ? `BOOKMARK resourceVersion ${e.resourceVersion}${e.initialEventsEnd ? ' (k8s.io/initial-events-end: the initial events are all sent)' : ''}`
        : `${e.type} ${e.object ?? ''} resourceVersion ${e.resourceVersion}`;
  return visibleText(`watch +${e.ms} ms: ${what}`);
}

async function scrape(
  conn: ClusterConnection,
  report: ProbeReport,
  trace: ProbeTrace,
  progress: ProbeProgress,
  signal?: AbortSignal,
): Promise<void> {
  const request = '/metrics';
  const scrapedAt = new Date(trace.clock.now()).toISOString();
  const res = await clusterGet(conn, request, signal);
  const at = trace.now();
  const text = res.body.toString('utf8');
  const m: ProbeMetrics = {
    request,
    status: res.status,
    scrapedAt,
    ms: Math.round(res.ms * 10) / 10,
    bytes: res.body.length,
    samples: {},
    totalSamples: 0,
    nonFinite: [],
  };
  report.metrics = m;
  if (res.status !== 200) {
    m.error = statusOfBody(text, res.status);
    throw new ProbeError(errorMessage(conn.target, request, m.error), res.status);
  }
  let kept: ReturnType<typeof filterScrape>;
  try {
    kept = filterScrape(text);
  } catch (e) {
    throw new ProbeError(`GET ${request}: not the Prometheus text format: ${(e as Error).message}`);
  }
  m.samples = kept.samples;
  m.totalSamples = kept.totalSamples;
  m.nonFinite = kept.nonFinite;
  const n = Object.keys(kept.samples).length;
  const line = `GET /metrics: ${formatBytes(m.bytes, 'KiB')} in ${m.ms} ms, ${n} of ${m.totalSamples} samples kept (the cluster's figures at ${scrapedAt})`;
  trace.phase('metrics scrape', line, at);
  trace.records.push({ kind: 'metrics', scope: 'scrape', at, samples: kept.samples });
  trace.records.push({
    kind: 'metrics',
    scope: 'resource',
    at,
    samples: kept.samples,
    text: kept.text,
  });
  progress(line);
}
