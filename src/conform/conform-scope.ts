// No upstream counterpart: what every check of one resource is given (the connection, the
// resource as discovery names it, where it lists and whether it may write), and the small readers
// of what came back (a Status, an object's metadata, a list path).
import type { ConformHttp, HttpAnswer } from './conform-http';

/** A resource as discovery names it. */
export interface ConformResource {
  /** As the user named it: `pods`, `deployments.apps`. */
  name: string;
  group: string;
  version: string;
  /** The plural, as in the URL. */
  plural: string;
  kind: string;
  namespaced: boolean;
}

export interface ConformScope {
  http: ConformHttp;
  resource: ConformResource;
  /** The namespace lists and writes go to (a namespaced resource); undefined: every namespace. */
  namespace?: string;
  /** Why objects of this resource cannot be written here (read-only, no template); undefined: they can. */
  noWrites?: string;
  /** Why history cannot be compacted or expired on cue; undefined: listwatch serve's admin API does it (never read-only). */
  noAdminApi?: string;
  /** Several resources are graded: ids carry the resource. */
  several: boolean;
  /** A label only this run's objects carry (`listwatch-conform=<run>`). */
  runLabel: string;
  /** The objects this run created and has not deleted (deleted after the run, when the namespace is not its own). */
  created: Set<string>;
}

/** The collection path of the scope's resource, with `query`. */
export function listPath(s: ConformScope, query = ''): string {
  const r = s.resource;
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const ns = r.namespaced && s.namespace !== undefined ? `/namespaces/${s.namespace}` : '';
  return `${base}${ns}/${r.plural}${query ? `?${query}` : ''}`;
}

/** The path of one object of the scope's resource in its namespace. */
export function objectPath(s: ConformScope, name: string): string {
  return `${listPath(s).replace(/\?.*$/, '')}/${encodeURIComponent(name)}`;
}

export interface SeenStatus {
  code?: number;
  reason?: string;
  message?: string;
  continue?: string;
  causes?: { reason?: string; message?: string; field?: string }[];
  retryAfterSeconds?: number;
}

/** The metav1.Status of a body, or undefined when it is not one. */
export function statusOf(body: string): SeenStatus | undefined {
  const v = parseJSON(body);
  if (!v || v.kind !== 'Status') {
    // The timeout filter writes a bare Status (no kind).
    if (!v || v.status !== 'Failure') return undefined;
  }
  const meta = (v.metadata ?? {}) as { continue?: string };
  const details = (v.details ?? {}) as SeenStatus;
  return {
    code: typeof v.code === 'number' ? v.code : undefined,
    reason: typeof v.reason === 'string' ? v.reason : undefined,
    message: typeof v.message === 'string' ? v.message : undefined,
    continue: meta.continue,
    causes: details.causes,
    retryAfterSeconds: details.retryAfterSeconds,
  };
}

/** A JSON object, or undefined. */
export function parseJSON(body: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export interface SeenList {
  kind?: string;
  apiVersion?: string;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  items: Record<string, unknown>[];
}

/** A 200 list answer read, or undefined when it is not a list. */
export function listOf(a: HttpAnswer): SeenList | undefined {
  if (a.status !== 200) return undefined;
  const v = parseJSON(a.body);
  if (!v || !Array.isArray(v.items)) return undefined;
  const meta = (v.metadata ?? {}) as Record<string, unknown>;
  return {
    kind: typeof v.kind === 'string' ? v.kind : undefined,
    apiVersion: typeof v.apiVersion === 'string' ? v.apiVersion : undefined,
    resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : undefined,
    continue: typeof meta.continue === 'string' && meta.continue !== '' ? meta.continue : undefined,
    remainingItemCount:
      typeof meta.remainingItemCount === 'number' ? meta.remainingItemCount : undefined,
    items: v.items as Record<string, unknown>[],
  };
}

/** An object's metadata (empty when it has none). */
export function metaOf(obj: unknown): Record<string, unknown> {
  const m = (obj as { metadata?: unknown } | undefined)?.metadata;
  return typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : {};
}

/** `namespace/name` (or `name`) of an object. */
export function keyOf(obj: unknown): string {
  const m = metaOf(obj);
  return m.namespace ? `${String(m.namespace)}/${String(m.name)}` : String(m.name);
}

/** An object's metadata.resourceVersion as a number, or undefined when it is not a decimal. */
export function rvOf(obj: unknown): bigint | undefined {
  return rvNumber(metaOf(obj).resourceVersion);
}

export function rvNumber(v: unknown): bigint | undefined {
  return typeof v === 'string' && /^[0-9]+$/.test(v) ? BigInt(v) : undefined;
}

/** An answer in a few words: `200`, `410 Expired: message`, `no answer: ECONNREFUSED`. */
export function answerText(a: HttpAnswer): string {
  if (a.status === 0) return `no answer: ${a.error ?? 'unknown'}`;
  if (a.status === 200) return '200';
  const s = statusOf(a.body);
  if (s) return `${a.status} ${s.reason ?? ''}: ${s.message ?? '(no message)'}`;
  return `${a.status}: ${a.body.slice(0, 160).trim() || '(empty body)'}`;
}
