// No upstream counterpart: a running ApiServer's HTTP requests and engine events as listwatch trace
// records (trace-format.ts), so that the run model, the inspector panel and "Save Run as Trace…"
// read a live server as they read a scenario run. Every LIST and WATCH becomes the inputs a
// scenario writes (`list`/`list-end`, `watch`/`watch-opened`/`watch-closed`, with the User-Agent as
// `client` and the TCP connection as `connection`), every successful write a `writes` input, every
// injected fault a `fault` input; the engine's engine events follow as they are emitted. What each
// watch writes to its client (lines, the RV they carried) becomes a `watchers` record per instant,
// as a scenario's sampler writes one. Times are ms since the server started, both read from the
// server's clock (registry.clock).
// Memory is bounded: the records a saved trace needs are kept as lines, the first and the last
// maxRecords/2 of them, and what was left out between is counted and said in the saved trace.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type EngineEvent, changedSamples } from '../engine';
import type { RunHeader } from '../run/run-model';
import {
  faultCutReason,
  traceFormat,
  traceVersion,
  type ClientError,
  type ScenarioInput,
  type TraceMetricsRecord,
  type TraceRecord,
  type WatcherSampleGroup,
} from '../run/trace/trace-format';
import { idRanges } from '../sim/run-sampler';
import type { ApiServer, ObservedRequest, ServerObserver, StartedRequest } from './api-server';
import type { AppliedFault } from './faults';
import { observeWatchCaches } from './live-watch-cache';
import { watchCacheResourceParam } from '../run/fold/watch-cache';
import type { WrittenWatchEvent } from './handlers/watch';
import type { NegotiatedEncoding } from './negotiation';
import { onResponseEnd } from './response-end';

/** The scenario name a live run's header carries (one name, in run-clock.ts). */
import { liveScenario } from '../run/views/run-clock';
export { liveScenario };

/** Records kept for a saved trace by default (the first and the last half of them). */
export const defaultMaxRecords = 100_000;

/** A Status body larger than this is not read back (an error body is a few hundred bytes). */
const maxErrorBody = 64 * 1024;

/** How often the metric series that changed are scraped into the run (as scenario runs do per second). */
const scrapeIntervalMs = 1000;

/** What a recorder needs of the server (an ApiServer; tests may pass a stand-in). */
export type RecordedServer = Pick<ApiServer, 'startedAt' | 'record' | 'url' | 'httpsUrl'> & {
  resources: Pick<ApiServer['resources'], 'metrics' | 'profile' | 'clock'> &
    Partial<Pick<ApiServer['resources'], 'perStorage'>>;
};

export interface LiveRecorderOptions {
  /** Records kept for a saved trace (default defaultMaxRecords). */
  maxRecords?: number;
  /** Scrape the metrics every second (default true; tests that count records turn it off). */
  scrape?: boolean;
  /** Keep the lines a saved trace needs (default true; the clients report only folds). */
  keepLines?: boolean;
}

/** Verbs whose etcd writes become a `writes` input, and the verb the input names. */
const writeVerbs: Readonly<Record<string, 'create' | 'update' | 'delete'>> = {
  create: 'create',
  update: 'update',
  patch: 'update',
  delete: 'delete',
  deletecollection: 'delete',
};

/** The Kubernetes reason of a watch's ERROR event code, when its Status was not read back. */
const reasonOfCode: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  410: 'Expired',
  429: 'TooManyRequests',
  500: 'InternalError',
  504: 'Timeout',
};

interface PendingList {
  kind: 'list';
  id: string;
  requestId: number;
  /** The last storage answer folded for it (cacher/list or list/done). */
  answer?: { returned: number; resourceVersion: string; continue: string; remaining?: number };
  errorBody?: string;
}

interface PendingWatch {
  kind: 'watch';
  requestId: number;
  client: string;
  watcherId?: number;
  opened: boolean;
  /** The cacher answered with a single ERROR event: its code and message (the line says the rest). */
  eventError?: { code: number; message: string };
  errorBody?: string;
  /** Event lines written to the client (the handler tells each: ServerObserver.watchWritten). */
  written: number;
  /** metadata.resourceVersion of the last line written that carried one (0: none yet). */
  lastRv: number;
  /** The watch's deadline (clock ms; null: none), from its watcher's creation. */
  deadline?: number | null;
  /** A fault cut its connection. */
  cut?: true;
}

interface PendingWrite {
  kind: 'write';
  requestId: number;
  verb: 'create' | 'update' | 'delete';
  count: number;
  revision: number;
  keyPrefix: string;
}

type Pending = PendingList | PendingWatch | PendingWrite;

/** The ms fields of an event that are clock times (beside `at`), by event type. */
const clockFields: Readonly<Record<string, readonly string[]>> = {
  'watcher/created': ['deadline'],
  'cacher/watch': ['deadline'],
  'list/stream-decision': ['recheckAt'],
  'list/stream-fallback': ['recheckAt'],
  'bookmarks/bucket-popped': ['bucketTime'],
};

/** The event with its clock times counted from `t0` (a copy; the engine's object is left alone). */
export function relativeEvent(e: EngineEvent, t0: number): EngineEvent {
  const copy = { ...e, at: e.at - t0 } as Record<string, unknown>;
  for (const f of clockFields[e.type] ?? []) {
    const v = copy[f];
    if (typeof v === 'number') copy[f] = v - t0;
  }
  // The buckets a watcher was put into: their times too (its Next bookmark second).
  if (e.type === 'bookmarks/scheduled')
    copy.buckets = e.buckets.map((b) =>
      b.bucketTime === undefined ? b : { ...b, bucketTime: b.bucketTime - t0 },
    );
  return copy as unknown as EngineEvent;
}

/** `application/json`, or `application/json;as=Table;v=v1;g=meta.k8s.io` for a conversion. */
function contentTypeOf(encoding: NegotiatedEncoding): string {
  const c = encoding.convert;
  return c
    ? `${encoding.contentType};as=${c.kind};v=${c.version};g=${c.group}`
    : encoding.contentType;
}

function statusOf(body: string | undefined, code: number): ClientError {
  if (body !== undefined) {
    try {
      const s = JSON.parse(body) as { code?: unknown; reason?: unknown; message?: unknown };
      return {
        code: typeof s.code === 'number' ? s.code : code,
        reason: typeof s.reason === 'string' ? s.reason : (reasonOfCode[code] ?? ''),
        message: typeof s.message === 'string' ? s.message : '',
      };
    } catch {
      // Not a Status (APF's 429 is net/http's text/plain): the text is what its client read.
      return { code, reason: reasonOfCode[code] ?? '', message: body.trim() };
    }
  }
  return { code, reason: reasonOfCode[code] ?? '', message: '' };
}

function chunkText(chunk: unknown): string | undefined {
  if (typeof chunk === 'string') return chunk.slice(0, maxErrorBody);
  if (chunk instanceof Uint8Array)
    return Buffer.from(
      chunk.buffer,
      chunk.byteOffset,
      Math.min(chunk.length, maxErrorBody),
    ).toString('utf8');
  return undefined;
}

/**
 * Records one ApiServer. `subscribe` hears every record as it is made; `traceLines` gives what a
 * saved trace holds. `dispose` stops recording (the server goes on serving).
 */
/**
 * kubectl's Kubectl-Session header (KEP 859: one random value per kubectl process, unless
 * KUBECTL_COMMAND_HEADERS=false): the clients report tells kubectl processes apart by it.
 */
function sessionOf(req: IncomingMessage): { session?: string } {
  const v = req.headers?.['kubectl-session'];
  return typeof v === 'string' && v !== '' ? { session: v } : {};
}

export class LiveRecorder {
  readonly header: RunHeader;
  private readonly t0: number;
  private readonly listeners = new Set<(r: TraceRecord) => void>();
  /** The records the run opens with, which every subscriber hears first (live-watch-cache.ts). */
  private readonly opening: readonly TraceRecord[];
  private readonly pending = new Map<number, Pending>();
  private readonly connections = new WeakMap<Socket, string>();
  private connectionSeq = 0;
  private listSeq = 0;
  /** The saved trace's lines: the first maxRecords/2 and a ring of the last maxRecords/2. */
  private readonly head: string[] = [];
  private readonly tail: string[] = [];
  /** The time of each tail line (what a dropped line covered). */
  private readonly tailAt: number[] = [];
  private tailStart = 0;
  private readonly headMax: number;
  private readonly tailMax: number;
  private readonly keepLines: boolean;
  /** Records left out between head and tail, and the time span they covered. */
  private dropped = 0;
  private droppedFrom = 0;
  private droppedTo = 0;
  private lastScrape: Record<string, number> = {};
  /** Lines read since the last `watchers` record, by watcher id, and the instant they were read. */
  /** Per watcher, the lines read this instant: how many, how many were BOOKMARKs, their RVs. */
  private readonly reads = new Map<
    number,
    { received: number; lastRv: number; bookmarksRead: number; lastEventRv: number }
  >();
  private readsAt = 0;
  private flushQueued = false;
  private readonly subscription: { dispose(): void };
  private readonly scrapeTimer: ReturnType<typeof setInterval> | undefined;
  private disposed = false;
  /** The clock's now() when recording stopped: the run ends then (a later save does not lengthen it). */
  private stoppedAt: number | undefined;

  constructor(
    private readonly server: RecordedServer,
    o: LiveRecorderOptions = {},
  ) {
    this.t0 = server.startedAt;
    // The watch caches started before recording did: their state now opens the run (one report
    // per cache: a CRD's served versions share one).
    const caches = observeWatchCaches(server.resources.perStorage ?? []);
    const max = Math.max(2, o.maxRecords ?? defaultMaxRecords);
    this.headMax = Math.ceil(max / 2);
    this.tailMax = max - this.headMax;
    this.keepLines = o.keepLines !== false;
    this.header = {
      format: traceFormat,
      version: traceVersion,
      scenario: liveScenario,
      profile: server.resources.profile.kubernetesVersion,
      seed: 0,
      params: {
        server: server.httpsUrl,
        startedAt: new Date(this.t0).toISOString(),
        ...(caches.resource !== undefined ? { [watchCacheResourceParam]: caches.resource } : {}),
      },
    };
    const observer: ServerObserver = {
      request: (r) => this.request(r),
      event: (e) => this.event(e),
      fault: (f) => this.fault(f),
      watchWritten: (requestId, e) => this.watchWritten(requestId, e),
      started: (r) => this.started(r),
      faultHit: (r, faults) => this.faultHit(r, faults),
      watchCut: (requestId) => {
        const p = this.pending.get(requestId);
        if (p?.kind === 'watch') p.cut = true;
      },
    };
    this.subscription = server.record(observer);
    this.opening = caches.events.map((e) => ({ kind: 'event', event: relativeEvent(e, this.t0) }));
    for (const r of this.opening) this.keep(r);
    if (o.scrape !== false) {
      this.scrapeTimer = setInterval(() => this.scrape(), scrapeIntervalMs);
      this.scrapeTimer.unref();
    }
  }

  /** Ms since the server started (until recording stopped). */
  now(): number {
    return (this.stoppedAt ?? this.server.resources.clock.now()) - this.t0;
  }

  /**
   * Hears the records the run opened with (the watch caches' state when recording started), then
   * every record from now on; returns the function that stops it.
   */
  subscribe(listener: (r: TraceRecord) => void): () => void {
    for (const r of this.opening) listener(r);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records left out of the saved trace so far (it keeps the first and the last ones). */
  get droppedRecords(): number {
    return this.dropped;
  }

  /** The metric samples and their exposition now, as the `resource` record a trace ends with. */
  metricsRecord(): TraceMetricsRecord {
    const m = this.server.resources.metrics;
    const samples = m.samples();
    const sorted: Record<string, number> = {};
    for (const k of Object.keys(samples).sort()) sorted[k] = samples[k];
    return { kind: 'metrics', scope: 'resource', at: this.now(), samples: sorted, text: m.text() };
  }

  /**
   * The saved trace's lines (header first), then `final` (the run's end metrics). A run that kept
   * less than it saw says so: the header's params count the records left out, and a phase marks
   * where they were.
   */
  traceLines(final: TraceMetricsRecord): string[] {
    this.flushReads();
    const header: RunHeader = this.dropped
      ? {
          ...this.header,
          params: {
            ...this.header.params,
            recordsDropped: this.dropped,
            recordsKept: this.head.length + this.tail.length,
          },
        }
      : this.header;
    const lines = [JSON.stringify(header), ...this.head];
    if (this.dropped) {
      const gap: TraceRecord = {
        kind: 'input',
        at: this.droppedTo,
        action: 'phase',
        name: 'records dropped',
        text: `${this.dropped} records from ${(this.droppedFrom / 1000).toFixed(1)} s to ${(this.droppedTo / 1000).toFixed(1)} s were not kept (the recorder keeps the first and the last ${this.tailMax})`,
      };
      lines.push(JSON.stringify(gap));
    }
    lines.push(...this.tail.slice(this.tailStart), ...this.tail.slice(0, this.tailStart));
    lines.push(JSON.stringify(final));
    return lines;
  }

  dispose(): void {
    if (this.disposed) return;
    this.flushReads();
    this.disposed = true;
    this.stoppedAt = this.server.resources.clock.now();
    this.subscription.dispose();
    if (this.scrapeTimer) clearInterval(this.scrapeTimer);
    this.listeners.clear();
  }

  // ------------------------------------------------------------ what the server reports

  private request(r: ObservedRequest): void {
    const { context, res } = r;
    const at = this.now();
    const client = context.client;
    const url = r.req.url ?? '/';
    if (r.verb === 'list') {
      const p: PendingList = {
        kind: 'list',
        id: `list-${++this.listSeq}`,
        requestId: context.requestId,
      };
      this.pending.set(p.requestId, p);
      this.input(at, {
        action: 'list',
        id: p.id,
        requestId: p.requestId,
        request: url,
        via: 'delegator',
        client,
        connection: this.connectionOf(r.req),
        ...sessionOf(r.req),
        ...(r.replica !== undefined ? { replica: r.replica } : {}),
      });
      this.captureErrorBody(res, (body) => (p.errorBody = body));
      // Answered when its last byte went out: the client's next page may come before 'close'.
      onResponseEnd(res, () => this.listEnded(p, res));
      return;
    }
    if (r.verb === 'watch') {
      const p: PendingWatch = {
        kind: 'watch',
        requestId: context.requestId,
        client,
        opened: false,
        written: 0,
        lastRv: 0,
      };
      this.pending.set(p.requestId, p);
      this.input(at, {
        action: 'watch',
        client,
        requestId: p.requestId,
        request: url,
        ...(r.encoding ? { contentType: contentTypeOf(r.encoding) } : {}),
        connection: this.connectionOf(r.req),
        ...sessionOf(r.req),
        ...(r.replica !== undefined ? { replica: r.replica } : {}),
      });
      this.captureErrorBody(res, (body) => (p.errorBody = body));
      res.once('close', () => this.watchEnded(p, res));
      return;
    }
    const verb = writeVerbs[r.verb];
    if (verb === undefined) return;
    const p: PendingWrite = {
      kind: 'write',
      requestId: context.requestId,
      verb,
      count: 0,
      revision: 0,
      keyPrefix: '',
    };
    this.pending.set(p.requestId, p);
    res.once('close', () => {
      this.pending.delete(p.requestId);
      if (p.count === 0 || res.statusCode >= 400) return;
      this.input(this.now(), {
        action: 'writes',
        count: p.count,
        verb: p.verb,
        keyPrefix: p.keyPrefix,
        revision: p.revision,
      });
    });
  }

  /** Any request: its status and body bytes become a `response` input when it ends. */
  private started(r: StartedRequest): void {
    const { res, req, context } = r;
    let bytes = 0;
    const count = (chunk: unknown): void => {
      if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk);
      else if (chunk instanceof Uint8Array) bytes += chunk.length;
    };
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      if (typeof args[0] !== 'function') count(args[0]);
      return end(...args);
    }) as ServerResponse['end'];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((...args: unknown[]) => {
      count(args[0]);
      return write(...args);
    }) as ServerResponse['write'];
    const connection = this.connectionOf(req);
    const answered = (): void =>
      this.input(this.now(), {
        action: 'response',
        requestId: context.requestId,
        client: context.client,
        connection,
        verb: r.verb,
        request: req.url ?? '/',
        status: res.statusCode,
        bytes,
      });
    // A watch's bytes are its event lines: counted until it closes.
    if (r.verb === 'watch') res.once('close', answered);
    else onResponseEnd(res, answered);
  }

  /** Request faults hit a request: one `fault-hit` input each. */
  private faultHit(r: StartedRequest, faults: readonly { id: number; name: string }[]): void {
    const at = this.now();
    for (const f of faults)
      this.input(at, {
        action: 'fault-hit',
        id: f.id,
        name: f.name,
        requestId: r.context.requestId,
        client: r.context.client,
        connection: this.connectionOf(r.req),
        verb: r.verb,
        request: r.req.url ?? '/',
      });
  }

  private event(e: EngineEvent): void {
    const requestId = 'requestId' in e ? e.requestId : undefined;
    const p = requestId === undefined ? undefined : this.pending.get(requestId);
    if (p?.kind === 'write') {
      if (
        e.type === 'etcd/request' &&
        (e.operation === 'create' || e.operation === 'update' || e.operation === 'delete') &&
        e.error === undefined
      ) {
        p.count++;
        p.revision = Math.max(p.revision, e.headerRevision);
        p.keyPrefix = e.key.slice(0, e.key.lastIndexOf('/') + 1);
      }
    } else if (p?.kind === 'list') {
      if (e.type === 'cacher/list' && e.error === undefined)
        p.answer = {
          returned: e.returned,
          resourceVersion: e.resourceVersion,
          continue: e.continue ?? '',
          remaining: e.remainingItemCount,
        };
      else if (e.type === 'list/done' && e.error === undefined)
        p.answer = {
          returned: e.returned,
          resourceVersion: e.resourceVersion ?? '',
          continue: e.continue ?? '',
          remaining: e.remainingItemCount,
        };
    }
    this.emit({ kind: 'event', event: relativeEvent(e, this.t0) });
    // The watcher's creation event first: the run model gives its track the request's client.
    if (p?.kind === 'watch' && !p.opened) {
      if (e.type === 'watcher/created') {
        p.opened = true;
        p.watcherId = typeof e.watcherId === 'number' ? e.watcherId : Number(e.watcherId);
        p.deadline = e.deadline;
        this.input(this.now(), {
          action: 'watch-opened',
          client: p.client,
          requestId: p.requestId,
          watcherId: p.watcherId,
          readsRecorded: true,
        });
      } else if (e.type === 'etcd/watch' && e.phase === 'watching') {
        // A resource without a watch cache (events): the etcd3 store's watch serves it, with no
        // cacheWatcher and so no watcher id; it is answered now, not when it closes.
        p.opened = true;
        this.input(this.now(), {
          action: 'watch-opened',
          client: p.client,
          requestId: p.requestId,
        });
      } else if (e.type === 'cacher/watch' && e.outcome === 'error' && e.error)
        p.eventError = e.error;
    }
  }

  /**
   * A watch wrote one event line to its client: counted for its close and, once its watcher is
   * known, for the next `watchers` record (what the client read, and the RV the line carried).
   */
  private watchWritten(requestId: number, e: WrittenWatchEvent): void {
    const p = this.pending.get(requestId);
    if (p?.kind !== 'watch') return;
    p.written++;
    if (e.initialEventsEnd)
      this.input(this.now(), {
        action: 'initial-events-end',
        client: p.client,
        requestId: p.requestId,
      });
    // An ERROR's Status carries no RV: the client's last RV stays.
    if (e.resourceVersion > 0) p.lastRv = e.resourceVersion;
    if (p.watcherId === undefined) return;
    const at = this.now();
    if (this.reads.size > 0 && at !== this.readsAt) this.flushReads();
    this.readsAt = at;
    let r = this.reads.get(p.watcherId);
    if (!r) {
      r = { received: 0, lastRv: 0, bookmarksRead: 0, lastEventRv: 0 };
      this.reads.set(p.watcherId, r);
    }
    r.received++;
    r.lastRv = p.lastRv;
    // The line's kind, so a face tells a bookmark read from an event read and draws an arrow
    // only from a write whose RV the client read.
    if (e.type === 'BOOKMARK') r.bookmarksRead++;
    else if (e.resourceVersion > 0) r.lastEventRv = e.resourceVersion;
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => {
        this.flushQueued = false;
        this.flushReads();
      });
    }
  }

  /**
   * The reads of this instant as one `watchers` record: watchers that read as many lines up to
   * the same RV share an entry, their ids as ranges (1,000 watchers reading a write cost a line).
   */
  private flushReads(): void {
    if (this.reads.size === 0) return;
    type Reads = typeof this.reads extends Map<number, infer R> ? R : never;
    const groups = new Map<string, { ids: number[]; reads: Reads }>();
    for (const [id, r] of this.reads) {
      const key = `${r.received}|${r.lastRv}|${r.bookmarksRead}|${r.lastEventRv}`;
      let g = groups.get(key);
      if (!g) {
        g = { ids: [], reads: r };
        groups.set(key, g);
      }
      g.ids.push(id);
    }
    this.reads.clear();
    const changes: WatcherSampleGroup[] = [...groups.values()].map(({ ids, reads: r }) => ({
      ids: idRanges(ids.sort((a, b) => a - b)),
      received: r.received,
      lastRv: r.lastRv,
      bookmarksRead: r.bookmarksRead,
      ...(r.lastEventRv > 0 ? { lastEventRv: r.lastEventRv } : {}),
    }));
    this.send({ kind: 'metrics', scope: 'watchers', at: this.readsAt, changes });
  }

  private fault(f: AppliedFault): void {
    this.input(this.now(), {
      action: 'fault',
      name: f.name,
      params: f.params,
      text: f.text,
      id: f.id,
      ...(f.request ? { request: f.request } : {}),
    });
  }

  private listEnded(p: PendingList, res: ServerResponse): void {
    this.pending.delete(p.requestId);
    const status = res.statusCode;
    const a = p.answer;
    this.input(this.now(), {
      action: 'list-end',
      id: p.id,
      requestId: p.requestId,
      status,
      items: status === 200 ? (a?.returned ?? 0) : 0,
      resourceVersion: status === 200 ? (a?.resourceVersion ?? '') : '',
      continue: status === 200 ? (a?.continue ?? '') : '',
      ...(status === 200 && a?.remaining !== undefined ? { remainingItemCount: a.remaining } : {}),
      ...(status >= 400 ? { error: statusOf(p.errorBody, status) } : {}),
    });
  }

  private watchEnded(p: PendingWatch, res: ServerResponse): void {
    this.pending.delete(p.requestId);
    const at = this.now();
    if (!p.opened) {
      // Refused: an HTTP error, or a single ERROR event in a 200 stream.
      p.opened = true;
      const error =
        res.statusCode >= 400
          ? statusOf(p.errorBody, res.statusCode)
          : p.eventError
            ? this.watchErrorEvent(p.errorBody, p.eventError)
            : undefined;
      this.input(at, {
        action: 'watch-opened',
        client: p.client,
        requestId: p.requestId,
        ...(error ? { error } : {}),
        ...(error && res.statusCode < 400 ? { inStream: true as const } : {}),
      });
    }
    this.input(at, {
      action: 'watch-closed',
      client: p.client,
      requestId: p.requestId,
      ...(p.watcherId !== undefined ? { watcherId: p.watcherId } : {}),
      reason: watchCloseReason(res, p, this.server.resources.clock.now()),
      received: p.written,
    });
  }

  /** A watch's ERROR line `{"type":"ERROR","object":{Status}}`, read back for its reason. */
  private watchErrorEvent(
    line: string | undefined,
    e: { code: number; message: string },
  ): ClientError {
    if (line !== undefined) {
      try {
        const parsed = JSON.parse(line.split('\n')[0]) as { type?: string; object?: unknown };
        if (parsed.type === 'ERROR') {
          const s = statusOf(JSON.stringify(parsed.object), e.code);
          return { ...s, message: s.message || e.message };
        }
      } catch {
        // Fall through: the event's code and message.
      }
    }
    return { code: e.code, reason: reasonOfCode[e.code] ?? '', message: e.message };
  }

  // ------------------------------------------------------------ helpers

  /** `c1`, `c2`…: one id per TCP (or TLS) connection, the same for every request on it. */
  private connectionOf(req: IncomingMessage): string {
    const socket = req.socket;
    let id = this.connections.get(socket);
    if (id === undefined) {
      id = `c${++this.connectionSeq}`;
      this.connections.set(socket, id);
    }
    return id;
  }

  /** Keeps the first chunk of an error response (a Status) or of a stream (a watch's ERROR line). */
  private captureErrorBody(res: ServerResponse, keep: (body: string) => void): void {
    let captured = false;
    const take = (chunk: unknown): void => {
      if (captured) return;
      captured = true;
      const text = chunkText(chunk);
      if (text !== undefined) keep(text);
    };
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      if (res.statusCode >= 400 && typeof args[0] !== 'function') take(args[0]);
      return end(...args);
    }) as ServerResponse['end'];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((...args: unknown[]) => {
      take(args[0]);
      return write(...args);
    }) as ServerResponse['write'];
  }

  private scrape(): void {
    const now = this.server.resources.metrics.samples();
    const changed = changedSamples(this.lastScrape, now);
    this.lastScrape = now;
    if (changed) this.emit({ kind: 'metrics', scope: 'scrape', at: this.now(), samples: changed });
  }

  private input(at: number, input: ScenarioInput): void {
    this.emit({ kind: 'input', at, ...input } as TraceRecord);
  }

  /** Every record but the reads goes out after the reads before it (the fold sees them in order). */
  private emit(r: TraceRecord): void {
    this.flushReads();
    this.send(r);
  }

  private send(r: TraceRecord): void {
    if (this.disposed) return;
    this.keep(r);
    for (const l of this.listeners) l(r);
  }

  private keep(r: TraceRecord): void {
    if (!this.keepLines) return;
    const line = JSON.stringify(r);
    if (this.head.length < this.headMax) {
      this.head.push(line);
      return;
    }
    if (this.tail.length < this.tailMax) {
      this.tail.push(line);
      this.tailAt.push(atOf(r));
      return;
    }
    // The oldest tail record leaves: counted, with the span it covered.
    const at = this.tailAt[this.tailStart];
    if (this.dropped === 0) this.droppedFrom = at;
    this.droppedTo = at;
    this.dropped++;
    this.tail[this.tailStart] = line;
    this.tailAt[this.tailStart] = atOf(r);
    this.tailStart = (this.tailStart + 1) % this.tailMax;
  }
}

/** The time of a record (an input's or metrics' `at`, an event's `event.at`). */
function atOf(r: TraceRecord): number {
  return r.kind === 'event' ? r.event.at : r.at;
}

/** A deadline this close to the response's end was what ended it (timers fire a little late). */
const deadlineSlackMs = 250;

/**
 * serveWatch's WatchCloseReason as the client saw it: it went away (the response never finished),
 * the handler's timeout ended the stream (at the watch's deadline), or the watcher closed first.
 */
function watchCloseReason(res: ServerResponse, p: PendingWatch, now: number): string {
  if (p.cut) return faultCutReason;
  if (!res.writableFinished) return 'disconnected';
  const d = p.deadline;
  if (typeof d === 'number' && now >= d - deadlineSlackMs) return 'timeout';
  return 'resultClosed';
}
