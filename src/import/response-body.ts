// No upstream counterpart: what a client's logged response body (client-go rest/request.go's
// `Response Body: …`, cut by truncateBody to 1024 characters at -v=8 and 10240 at -v=9 with
// ` [truncated N chars]`) says about a LIST (its ListMeta, and its items when the body is whole)
// or about a failure (a metav1.Status).
import type { ImportedListResponse } from '../run/imported-request';

/** What a response body says. */
export interface ResponseBodyFacts {
  response?: ImportedListResponse;
  status?: { reason?: string; message?: string };
  code?: number;
}

const truncatedRe = / \[truncated \d+ chars\]$/;
// A list's metadata comes right after kind and apiVersion in every body the apiserver encodes
// (ListMeta has no nested objects), so its fields are readable from a cut body too.
const listHeadRe = /^\s*\{"kind":"([^"\\]*)","apiVersion":"[^"\\]*","metadata":(\{[^{}]*\})/;

export function responseBodyFacts(body: string): ResponseBodyFacts {
  const text = body.replace(truncatedRe, '');
  const whole = text === body ? parseObject(text) : undefined;
  if (whole) return factsOfObject(whole);
  const head = listHeadRe.exec(text);
  if (!head || !isListKind(head[1])) return {};
  const meta = parseObject(head[2]);
  return meta ? { response: listMeta(meta) } : {};
}

function factsOfObject(o: Record<string, unknown>): ResponseBodyFacts {
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const meta = isRecord(o.metadata) ? o.metadata : {};
  if (kind === 'Status') {
    const facts: ResponseBodyFacts = { status: {} };
    if (typeof o.reason === 'string' && o.reason !== '') facts.status!.reason = o.reason;
    if (typeof o.message === 'string') facts.status!.message = o.message;
    if (typeof o.code === 'number') facts.code = o.code;
    return facts;
  }
  if (!isListKind(kind)) return {};
  const response = listMeta(meta);
  // A Table (kubectl get) carries its objects as rows.
  const items = kind === 'Table' ? o.rows : o.items;
  if (Array.isArray(items)) response.items = items.length;
  return { response };
}

function listMeta(meta: Record<string, unknown>): ImportedListResponse {
  const r: ImportedListResponse = {};
  if (typeof meta.resourceVersion === 'string') r.resourceVersion = meta.resourceVersion;
  if (typeof meta.continue === 'string' && meta.continue !== '') r.continue = meta.continue;
  if (typeof meta.remainingItemCount === 'number') r.remainingItemCount = meta.remainingItemCount;
  return r;
}

function isListKind(kind: string): boolean {
  return kind.endsWith('List') || kind === 'Table';
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
