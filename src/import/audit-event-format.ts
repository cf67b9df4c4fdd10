// Reads what kube-apiserver writes with --audit-log-path (release-1.36, log format json): one
// audit.k8s.io/v1 Event per line (k8s.io/apiserver pkg/apis/audit/v1/types.go), at every level
// (None is never written; Metadata; Request adds requestObject; RequestResponse adds
// responseObject) and every stage (RequestReceived, ResponseStarted for long-running requests,
// ResponseComplete, Panic). Also an audit.k8s.io/v1 EventList on one line (what the webhook
// backend batches), each item a fragment. A LIST's responseObject gives its ListMeta and item
// count and is not kept; a write keeps its object for the replay.
import { visibleText } from '../format/visible-text';
import type { ImportedListResponse, ImportedObjectRef } from '../run/imported-request';
import type {
  LineContext,
  LineFormat,
  LineParser,
  ParseResult,
  RequestFields,
  RequestFragment,
} from './line-parser';

// The value checks below are switches, not Sets: a Set hashes every line's fresh string first.

/** audit.k8s.io/v1 Stage values (types.go). */
function isStage(s: string): boolean {
  switch (s) {
    case 'ResponseComplete':
    case 'RequestReceived':
    case 'ResponseStarted':
    case 'Panic':
      return true;
  }
  return false;
}

/** Levels a log holds: LevelNone events are never written (policy checker drops them). */
function isLoggedLevel(v: unknown): boolean {
  switch (v) {
    case 'Metadata':
    case 'Request':
    case 'RequestResponse':
      return true;
  }
  return false;
}

/** RequestInfo verbs whose object the replay rebuilds. */
function isWriteVerb(verb: string): boolean {
  switch (verb) {
    case 'update':
    case 'patch':
    case 'create':
    case 'delete':
    case 'deletecollection':
      return true;
  }
  return false;
}
const requiredFields = ['auditID', 'stage', 'requestURI', 'verb', 'stageTimestamp'] as const;
const objectRefFields = [
  'resource',
  'namespace',
  'name',
  'apiGroup',
  'apiVersion',
  'subresource',
  'resourceVersion',
] as const;

const sniffRe = /^\s*\{.*"(?:apiVersion"\s*:\s*"audit\.k8s\.io\/|auditID"\s*:)/;

export const auditEventFormat: LineFormat = {
  format: 'audit',
  sniff: (text) => sniffRe.test(text),
  create: () => new AuditEventParser(),
};

type Json = Record<string, unknown>;

class AuditEventParser implements LineParser {
  readonly format = 'audit' as const;
  // Two caches: a watch's requestReceivedTimestamp is minutes older than its stageTimestamp.
  private readonly stageTimes = new MicroTimeParser();
  private readonly receivedTimes = new MicroTimeParser();
  /** The file's first event's stageTimestamp. */
  private firstAt = Infinity;

  push(text: string, ctx: LineContext): ParseResult[] {
    if (isBlank(text)) return [];
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      return [
        {
          reject: `expected an audit.k8s.io/v1 Event (one JSON object per line): ${(e as Error).message}`,
        },
      ];
    }
    if (!isObject(v))
      return [{ reject: `expected an audit.k8s.io/v1 Event JSON object, got ${jsonKind(v)}` }];
    if (v.apiVersion !== 'audit.k8s.io/v1')
      return [{ reject: `expected apiVersion audit.k8s.io/v1, got ${shown(v.apiVersion)}` }];
    if (v.kind === 'EventList') {
      if (!Array.isArray(v.items))
        return [{ reject: 'expected an audit.k8s.io/v1 EventList with items' }];
      return v.items.map((item, i) => {
        const r = isObject(item)
          ? this.event(item, ctx, true)
          : { reject: `got ${jsonKind(item)}` };
        return 'reject' in r ? { reject: `EventList items[${i}]: ${r.reject}` } : r;
      });
    }
    if (v.kind !== 'Event')
      return [
        { reject: `expected kind Event or EventList (audit.k8s.io/v1), got ${shown(v.kind)}` },
      ];
    return [this.event(v, ctx, false)];
  }

  end(): ParseResult[] {
    return [];
  }

  private event(e: Json, ctx: LineContext, inList: boolean): ParseResult {
    if (inList && e.kind !== undefined && e.kind !== 'Event')
      return { reject: `expected kind Event, got ${shown(e.kind)}` };
    if (
      !isSet(e.auditID) ||
      !isSet(e.stage) ||
      !isSet(e.requestURI) ||
      !isSet(e.verb) ||
      !isSet(e.stageTimestamp)
    ) {
      const missing = requiredFields.filter((k) => !isSet(e[k]));
      return {
        reject: `expected an audit.k8s.io/v1 Event with auditID, stage, requestURI, verb and stageTimestamp; no ${missing.join(', ')}`,
      };
    }
    const stage = e.stage as string;
    if (!isStage(stage))
      return {
        reject: `expected stage RequestReceived, ResponseStarted, ResponseComplete or Panic, got ${shown(stage)}`,
      };
    if (!isLoggedLevel(e.level))
      return {
        reject: `expected level Metadata, Request or RequestResponse, got ${shown(e.level)}`,
      };
    const stageAt = this.stageTimes.parse(e.stageTimestamp as string);
    if (stageAt === undefined)
      return {
        reject: `expected stageTimestamp in RFC 3339 (metav1.MicroTime), got ${shown(e.stageTimestamp)}`,
      };
    let receivedAt: number | undefined;
    if (e.requestReceivedTimestamp !== undefined) {
      receivedAt =
        typeof e.requestReceivedTimestamp === 'string'
          ? this.receivedTimes.parse(e.requestReceivedTimestamp)
          : undefined;
      if (receivedAt === undefined)
        return {
          reject: `expected requestReceivedTimestamp in RFC 3339 (metav1.MicroTime), got ${shown(e.requestReceivedTimestamp)}`,
        };
    }

    if (this.firstAt === Infinity) this.firstAt = stageAt;
    const verb = e.verb as string;
    const fields: RequestFields = {
      auditID: e.auditID as string,
      verb,
      requestURI: e.requestURI as string,
      // With omitStages: [RequestReceived] (common) no event says so, but a request received
      // after the file's first event began in the file all the same.
      startInFile:
        stage === 'RequestReceived' || (receivedAt !== undefined && receivedAt >= this.firstAt),
    };
    if (typeof e.userAgent === 'string' && e.userAgent !== '') fields.userAgent = e.userAgent;
    if (isObject(e.user) && typeof e.user.username === 'string' && e.user.username !== '')
      fields.user = e.user.username;
    if (Array.isArray(e.sourceIPs) && typeof e.sourceIPs[0] === 'string')
      fields.sourceIP = e.sourceIPs[0];
    if (isObject(e.objectRef)) fields.objectRef = objectRef(e.objectRef);
    if (receivedAt !== undefined) fields.receivedAt = receivedAt;
    if (stage === 'ResponseStarted') fields.responseStartedAt = stageAt;
    const complete = stage === 'ResponseComplete' || stage === 'Panic';
    if (complete) fields.completedAt = stageAt;
    if (complete && receivedAt !== undefined)
      fields.stageLatencyMs = Math.max(0, stageAt - receivedAt);
    if (isObject(e.responseStatus)) {
      const s = e.responseStatus;
      if (typeof s.code === 'number' && s.code !== 0) fields.code = s.code;
      const reason = typeof s.reason === 'string' && s.reason !== '' ? s.reason : undefined;
      const message = typeof s.message === 'string' && s.message !== '' ? s.message : undefined;
      if (reason !== undefined || message !== undefined) fields.status = { reason, message };
    }
    if (verb === 'list' && isObject(e.responseObject)) {
      const response = listResponse(e.responseObject);
      if (response) fields.response = response;
    } else if (isWriteVerb(verb)) {
      const object =
        writeObject(e.responseObject) ?? (isObject(e.requestObject) ? e.requestObject : undefined);
      if (object !== undefined) fields.object = object;
    }
    const fragment: RequestFragment = {
      source: { file: ctx.file, line: ctx.line, format: 'audit' },
      time: stageAt,
      complete,
      fields,
    };
    return fragment;
  }
}

function objectRef(o: Json): ImportedObjectRef {
  // Usually every field is a string: the parsed object itself is the reference (no copy).
  let plain = true;
  for (const k in o) if (typeof o[k] !== 'string') plain = false;
  if (plain) return o as ImportedObjectRef;
  const ref: ImportedObjectRef = {};
  for (const k of objectRefFields) {
    const v = o[k];
    if (typeof v === 'string' && v !== '') ref[k] = v;
  }
  return ref;
}

/** A LIST response's ListMeta and item count (the items themselves are not kept). */
function listResponse(o: Json): ImportedListResponse | undefined {
  if (o.kind === 'Status') return undefined;
  const r: ImportedListResponse = {};
  const meta = isObject(o.metadata) ? o.metadata : {};
  if (typeof meta.resourceVersion === 'string') r.resourceVersion = meta.resourceVersion;
  if (typeof meta.continue === 'string' && meta.continue !== '') r.continue = meta.continue;
  if (typeof meta.remainingItemCount === 'number') r.remainingItemCount = meta.remainingItemCount;
  // A Table (kubectl get's Accept) has rows, a list has items.
  if (Array.isArray(o.items)) r.items = o.items.length;
  else if (Array.isArray(o.rows)) r.items = o.rows.length;
  return r;
}

/** A write's resulting object; a Status (a failure, or a delete's answer) is not one. */
function writeObject(o: unknown): Json | undefined {
  return isObject(o) && o.kind !== 'Status' ? o : undefined;
}

/**
 * metav1.MicroTime (`2026-12-01T13:54:42.123456Z`, always UTC as Go marshals it) to epoch ms
 * with the microseconds as a fraction. The seconds are cached: a log's neighbouring lines share them.
 */
export class MicroTimeParser {
  private prefix = '';
  private prefixMs = 0;

  parse(s: string): number | undefined {
    const n = s.length;
    if (n >= 20 && s.charCodeAt(n - 1) === 90 /* Z */ && s.charCodeAt(10) === 84 /* T */) {
      if (!this.samePrefix(s)) {
        const prefix = s.slice(0, 19);
        const ms = Date.parse(prefix + 'Z');
        if (Number.isNaN(ms)) return undefined;
        this.prefix = prefix;
        this.prefixMs = ms;
      }
      if (n === 20) return this.prefixMs;
      if (s.charCodeAt(19) !== 46 /* . */ || n - 21 > 9 || n === 21) return undefined;
      let frac = 0;
      for (let i = 20; i < n - 1; i++) {
        const d = s.charCodeAt(i) - 48;
        if (d < 0 || d > 9) return undefined;
        frac = frac * 10 + d;
      }
      return this.prefixMs + frac / 10 ** (n - 24);
    }
    // An offset instead of Z: RFC 3339 allows it, Go's MicroTime never writes it.
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/.test(s)) return undefined;
    const ms = Date.parse(s);
    return Number.isNaN(ms) ? undefined : ms;
  }

  /** s begins with the cached prefix: compared from the seconds back, where neighbours differ. */
  private samePrefix(s: string): boolean {
    const p = this.prefix;
    if (p === '') return false;
    for (let i = 18; i >= 0; i--) if (s.charCodeAt(i) !== p.charCodeAt(i)) return false;
    return true;
  }
}

function isSet(v: unknown): v is string {
  return typeof v === 'string' && v !== '';
}

function isBlank(s: string): boolean {
  return s.length === 0 || (s.charCodeAt(0) <= 32 && s.trim() === '');
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function jsonKind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

/** A value in a message: quoted, control characters visible, at most 100 characters. */
function shown(v: unknown): string {
  if (v === undefined) return 'none';
  const s =
    typeof v === 'string'
      ? JSON.stringify(v.length > 100 ? v.slice(0, 100) + '…' : v)
      : jsonKind(v);
  return visibleText(s);
}
