// No upstream counterpart: the listwatch trace format, versioned JSON lines. Line 1 is the header
// (which scenario, profile, seed and parameters); every later line is one record with a `kind`:
// an `input` (what the scenario did: writes, lists, watches, time phases), an `event` (a typed
// engine event the engine emitted) or `metrics` (the final metric samples and per-watcher
// gauges). Records appear in virtual-time order, exactly as they happened. Version 2: requests
// (list and watch inputs) and the events they cause carry the request's id; version 1 traces,
// which lack them, are refused with the command that records them again (see validateHeader).
import type { ImportReport } from '../import-report';
import { visibleText } from '../../format/visible-text';
import type { EngineEvent } from '../../engine';
import type { LoggedAnswer, RunHeader } from '../run-model';

export const traceFormat = 'listwatch-trace';
export const traceVersion = 2;

/** The version before request ids: its events cannot be tied to their requests. */
const preRequestIdVersion = 1;

/** The header line: the run's identity (the same shape as RunModel.header). */
export type TraceHeader = RunHeader;

/** A request's outcome as its client saw it (200 or the Kubernetes Status code). */
export interface ClientError {
  code: number;
  reason: string;
  message: string;
}

/**
 * What a scenario did, one action per record. Writes are aggregated per virtual instant so a burst
 * of thousands of writes costs a line per step, not per write.
 */
export type ScenarioInput =
  /** A narrative marker: a phase of the scenario begins. */
  | { action: 'phase'; name: string; text: string }
  /** Objects written straight into etcd before the apiserver serves anything. */
  | { action: 'seed'; objects: number; keyPrefix: string; revision: number; text: string }
  /** Writes at this instant: `count` creates/updates/deletes, the last at `revision`. */
  | {
      action: 'writes';
      count: number;
      verb: 'create' | 'update' | 'delete' | 'mixed';
      keyPrefix: string;
      revision: number;
      /** A replayed write: what it wrote and where its object came from (the log's, or synthesised). */
      text?: string;
    }
  /**
   * A LIST request (the client's view: path and query), sent through the delegator or to the etcd3
   * store. `requestId` is its request context's id: the events it causes carry it.
   */
  | {
      action: 'list';
      id: string;
      requestId: number;
      request: string;
      via: 'delegator' | 'store' | 'cluster';
      client: string;
      /** A stable id of the client's TCP connection (live runs: e.g. `c7`). */
      connection?: string;
      /** Its Kubectl-Session header (live runs): kubectl sends one value per process (KEP 859). */
      session?: string;
      /** `serve --replicas N`: the replica (1..N) that served it (live runs). */
      replica?: number;
    }
  /** The LIST returned (status 200) or failed (the Status code). */
  | {
      action: 'list-end';
      id: string;
      requestId: number;
      status: number;
      items: number;
      resourceVersion: string;
      continue: string;
      remainingItemCount?: number;
      error?: ClientError;
      /** An imported request: what the log says the real server answered. */
      logged?: LoggedAnswer;
      /** What differs between `logged` and the engine's answer: 'status', 'items', 'continue', 'remainingItemCount'. */
      disagrees?: string[];
    }
  /** A WATCH request by a modelled client (`requestId`: its request context's id). */
  | {
      action: 'watch';
      client: string;
      /** A stable id of the client's TCP connection (live runs: e.g. `c7`). */
      connection?: string;
      /** Its Kubectl-Session header (live runs): kubectl sends one value per process (KEP 859). */
      session?: string;
      /** `serve --replicas N`: the replica (1..N) that served it (live runs). */
      replica?: number;
      requestId: number;
      request: string;
      contentType?: string;
      readRate?: string;
    }
  /** The WATCH was answered: a registered watcher (its id) or an error (HTTP error or a single ERROR event). */
  | {
      action: 'watch-opened';
      client: string;
      requestId: number;
      watcherId?: number;
      /**
       * What the server writes to this watch's client follows in `watchers` records (live runs,
       * reads only): its watcher's Read and Last RV are folded from those alone.
       */
      readsRecorded?: true;
      error?: ClientError;
      /** The error came as the stream's single ERROR event, its HTTP status 200 (errWatcher). */
      inStream?: true;
      /** An imported request: what the log says the real server answered. */
      logged?: LoggedAnswer;
      /** What differs between `logged` and the engine's answer ('status'). */
      disagrees?: string[];
    }
  /** The client's handler returned: its timeout, the server closed the stream, or the client went away. */
  | {
      action: 'watch-closed';
      client: string;
      requestId: number;
      watcherId?: number;
      reason: string;
      received: number;
      /** An imported watch: how long it lasted in the log. */
      logged?: LoggedAnswer;
      /** What differs from the log ('duration': the engine ended it earlier). */
      disagrees?: string[];
    }
  /**
   * A live server wrote the k8s.io/initial-events-end bookmark to WatchList request `requestId`:
   * its client's sync ended (a fault may have kept it from being written: then no such input).
   */
  | { action: 'initial-events-end'; client: string; requestId: number }
  /** The client of the watch `requestId` changes how fast it reads. */
  | { action: 'read-rate'; client: string; requestId: number; readRate: string }
  /**
   * A fault was injected into the live server (faults.ts): its name, the parameters it was given
   * and what it did, in the words of its log line.
   */
  | {
      action: 'fault';
      name: string;
      params: Record<string, unknown>;
      text: string;
      /** Its id in the server's active-faults registry (absent in traces recorded before ids). */
      id?: number;
      /** A request fault (it hits requests as they come; absent for a server fault). */
      request?: true;
    }
  /**
   * A request fault (active-faults.ts) hit request `requestId` of `client` on `connection`: the
   * clients report ties the fault to the client, and measures its recovery from here.
   */
  | {
      action: 'fault-hit';
      id: number;
      name: string;
      requestId: number;
      client: string;
      connection?: string;
      verb: string;
      request: string;
    }
  /**
   * A live server answered request `requestId` (any verb, discovery too): its HTTP status and the
   * bytes of its body, when its response ended (a watch's when it closed).
   */
  | {
      action: 'response';
      requestId: number;
      client: string;
      connection?: string;
      verb: string;
      request: string;
      status: number;
      bytes: number;
    }
  /** The run was imported from logs (`listwatch import --trace`): their analysis, once, first. */
  | { action: 'imported'; report: ImportReport };

/** A `watch-closed` reason: a fault cut the watch's connection (the client reconnects). */
export const faultCutReason = 'connection cut by a fault';

export type TraceInputRecord = { kind: 'input'; at: number } & ScenarioInput;

export interface TraceEventRecord {
  kind: 'event';
  event: EngineEvent;
}

/** A watcher's state at the end of the run, as its client and the cacher see it. */
export interface WatcherFinal {
  id: string;
  client: string;
  /** Events the client read (bookmarks included). */
  received: number;
  /** metadata.resourceVersion of the last event the client read (0: none). */
  lastRv: number;
  /** Events waiting in the watcher's input and result buffers. */
  bufferFill: number;
  bufferCapacity: number;
  /** The bookmark bucket (virtual second) the watcher sits in, if any. */
  nextBookmarkSecond?: number;
}

/**
 * Watchers whose figures changed at one instant in the same way: `received` is what each read since
 * its previous sample (events and bookmarks), the rest are the new values.
 */
export interface WatcherSampleGroup {
  /** Watcher ids, single or as inclusive [first, last] ranges. */
  ids: Array<number | [number, number]>;
  /** Event lines read since the watcher's previous sample (bookmarks included). */
  received: number;
  /** metadata.resourceVersion of the last event the client read (0: none). */
  lastRv: number;
  /** Live runs: how many of the lines read were BOOKMARKs (absent: kinds not recorded). */
  bookmarksRead?: number;
  /** Live runs: the RV of the last non-BOOKMARK line read here that carried one (absent: none). */
  lastEventRv?: number;
  /** Absent: not recorded (a live run records what its clients read, not the buffers). */
  bufferFill?: number;
  /** The bookmark bucket's virtual second; null: in none; absent: not recorded (live runs). */
  nextBookmarkSecond?: number | null;
}

export type TraceMetricsRecord =
  /** The watchers whose figures changed at this instant (run-sampler.ts). */
  | { kind: 'metrics'; scope: 'watchers'; at: number; changes: WatcherSampleGroup[] }
  /** The metric series that changed since the previous scrape (the last instant of a virtual second). */
  | { kind: 'metrics'; scope: 'scrape'; at: number; samples: Record<string, number> }
  | {
      kind: 'metrics';
      scope: 'resource';
      at: number;
      samples: Record<string, number>;
      text: string;
    }
  | { kind: 'metrics'; scope: 'watcher'; at: number; watcher: WatcherFinal };

/** Every line after the header. */
export type TraceRecord = TraceInputRecord | TraceEventRecord | TraceMetricsRecord;

/** A line that breaks the format: the message names the line and what was expected. */
export class TraceFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    // The message may quote the rejected line: its control characters (a NUL) shown, not echoed.
    super(`line ${line}: ${visibleText(message)}`);
    this.name = 'TraceFormatError';
  }
}

/** A short, single-line rendering of a rejected value for error messages. */
export function describeValue(v: unknown, max = 60): string {
  let s: string;
  if (v === undefined) s = 'undefined';
  else if (typeof v === 'string') s = JSON.stringify(v);
  else {
    try {
      s = JSON.stringify(v) ?? String(v);
    } catch {
      s = String(v);
    }
  }
  return s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks the header line's object; throws a TraceFormatError naming what is wrong. */
export function validateHeader(value: unknown, line: number): TraceHeader {
  if (!isObject(value))
    throw new TraceFormatError(
      line,
      `expected the trace header, a JSON object, got ${describeValue(value)}`,
    );
  if (value.format !== traceFormat) {
    throw new TraceFormatError(
      line,
      `not a listwatch trace: expected "format":"${traceFormat}" in the header, got ${describeValue(value.format)}`,
    );
  }
  if (value.version === preRequestIdVersion) {
    throw new TraceFormatError(
      line,
      `trace version 1 is not read any more: its events do not say which request caused them, and this listwatch (trace version ${traceVersion}) ties etcd requests, waits and pages to their request by that id. ${rerecordHint(value)}`,
    );
  }
  if (value.version !== traceVersion) {
    throw new TraceFormatError(
      line,
      `unsupported trace version ${describeValue(value.version)}: this listwatch reads version ${traceVersion}`,
    );
  }
  if (typeof value.scenario !== 'string' || value.scenario === '') {
    throw new TraceFormatError(
      line,
      `header: expected "scenario" to be a scenario name, got ${describeValue(value.scenario)}`,
    );
  }
  if (typeof value.profile !== 'string')
    throw new TraceFormatError(
      line,
      `header: expected "profile" to be a string, got ${describeValue(value.profile)}`,
    );
  if (typeof value.seed !== 'number' || !Number.isSafeInteger(value.seed) || value.seed < 0) {
    throw new TraceFormatError(
      line,
      `header: expected "seed" to be a non-negative integer, got ${describeValue(value.seed)}`,
    );
  }
  if (!isObject(value.params))
    throw new TraceFormatError(
      line,
      `header: expected "params" to be an object, got ${describeValue(value.params)}`,
    );
  for (const [k, v] of Object.entries(value.params)) {
    if (typeof v !== 'number' && typeof v !== 'string' && typeof v !== 'boolean') {
      throw new TraceFormatError(
        line,
        `header: parameter "${k}" must be a number, string or boolean, got ${describeValue(v)}`,
      );
    }
  }
  return {
    format: traceFormat,
    version: traceVersion,
    scenario: value.scenario,
    profile: value.profile,
    seed: value.seed,
    params: value.params as Record<string, number | string | boolean>,
  };
}

/** How to record a version-1 trace again: the scenario command its header describes. */
function rerecordHint(header: Record<string, unknown>): string {
  const { scenario, seed, params } = header;
  const validSeed = typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0;
  if (typeof scenario !== 'string' || scenario === '' || !validSeed || !isObject(params))
    return 'Record the run again with `listwatch scenario run`.';
  const sets = Object.entries(params)
    .filter(([, v]) => ['number', 'string', 'boolean'].includes(typeof v))
    .map(([k, v]) => ` --set ${k}=${String(v)}`)
    .join('');
  // Version 1 predates the etcd latency model: its etcd requests took no virtual time.
  const latency = 'etcdLatency' in params ? '' : ' --set etcdLatency=zero';
  return `Record it again with: listwatch scenario run ${scenario} --seed ${String(seed)}${sets}${latency} --trace <file>`;
}

/** The parts of an import report (import-report.ts) the Import tab reads before anything else. */
function isImportReportShape(r: unknown): boolean {
  return (
    isObject(r) &&
    r.format === 'listwatch-import-report' &&
    Array.isArray(r.clients) &&
    r.clients.every((c) => isObject(c) && typeof c.userAgent === 'string') &&
    isObject(r.requests) &&
    isObject(r.rejected)
  );
}

/**
 * Checks one record line's object; returns the record or a reason it is rejected (the reader counts
 * it and goes on: one damaged line does not lose the rest of a trace).
 */
export function validateRecord(value: unknown): TraceRecord | string {
  if (!isObject(value) || typeof value.kind !== 'string') {
    return `expected a JSON object with "kind", got ${describeValue(value)}`;
  }
  switch (value.kind) {
    case 'input':
      if (typeof value.action !== 'string')
        return `input: expected "action" to be a string, got ${describeValue(value.action)}`;
      if (typeof value.at !== 'number' || !Number.isFinite(value.at))
        return `input: expected "at" (virtual ms) to be a number, got ${describeValue(value.at)}`;
      if (value.action === 'imported' && !isImportReportShape(value.report))
        return `input imported: expected "report" to be a listwatch-import-report object with clients, requests and rejected, got ${describeValue(value.report)}`;
      return value as TraceInputRecord;
    case 'event': {
      const e = value.event;
      if (!isObject(e)) return `event: expected "event" to be an object, got ${describeValue(e)}`;
      if (typeof e.type !== 'string')
        return `event: expected "event.type" to be a string, got ${describeValue(e.type)}`;
      if (typeof e.at !== 'number' || !Number.isFinite(e.at))
        return `event: expected "event.at" (virtual ms) to be a number, got ${describeValue(e.at)}`;
      return value as unknown as TraceEventRecord;
    }
    case 'metrics':
      if (typeof value.at !== 'number')
        return `metrics: expected "at" (virtual ms) to be a number, got ${describeValue(value.at)}`;
      if (value.scope === 'watchers') {
        if (!Array.isArray(value.changes))
          return `metrics: expected "changes" to be an array, got ${describeValue(value.changes)}`;
        return value as TraceMetricsRecord;
      }
      if (value.scope === 'resource' || value.scope === 'scrape') {
        if (!isObject(value.samples))
          return `metrics: expected "samples" to be an object, got ${describeValue(value.samples)}`;
        for (const [k, v] of Object.entries(value.samples)) {
          if (typeof v !== 'number')
            return `metrics: sample ${JSON.stringify(k)} must be a number, got ${describeValue(v)}`;
        }
        if (value.scope === 'resource' && typeof value.text !== 'string')
          return `metrics: expected "text" to be a string, got ${describeValue(value.text)}`;
        return value as TraceMetricsRecord;
      }
      if (value.scope === 'watcher') {
        const w = value.watcher;
        if (!isObject(w) || typeof w.id !== 'string')
          return `metrics: expected "watcher" with a string "id", got ${describeValue(w)}`;
        return value as TraceMetricsRecord;
      }
      return `metrics: expected "scope" to be "resource", "scrape", "watcher" or "watchers", got ${describeValue(value.scope)}`;
    default:
      return `expected "kind" to be "input", "event" or "metrics", got ${describeValue(value.kind)}`;
  }
}
