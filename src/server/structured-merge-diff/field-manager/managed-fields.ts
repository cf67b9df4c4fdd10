// Mirrors k8s.io/apimachinery pkg/util/managedfields/internal/managedfields.go and fields.go
// (release-1.36): metadata.managedFields entries decoded into the managers' field sets (keyed by
// BuildManagerIdentifier) and their times, and encoded back in upstream's sort order.
import { goJsonMarshal, goJsonParse } from '../../../engine/http-face';
import { setFromFieldsV1, setToFieldsV1 } from '../fields-v1';
import type { ManagedFields } from '../managers';
import { compareStrings } from '../value';

/** metav1.ManagedFieldsEntry; JSON order manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export const operationApply = 'Apply';
export const operationUpdate = 'Update';

/** The managers' sets and the time each last changed its fields (metav1.Time, RFC 3339). */
export interface Managed {
  fields: ManagedFields;
  times: Map<string, string | undefined>;
}

export const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });

/**
 * BuildManagerIdentifier: the entry without its fields and time (and, for an applier, without its
 * API version: one applier owns its fields whatever version it applies) as Go marshals it.
 */
export function buildManagerIdentifier(e: ManagedFieldsEntry): string {
  const id: ManagedFieldsEntry = {};
  if (e.manager) id.manager = e.manager;
  if (e.operation) id.operation = e.operation;
  if (e.apiVersion && e.operation !== operationApply) id.apiVersion = e.apiVersion;
  if (e.subresource) id.subresource = e.subresource;
  return goJsonMarshal(id as Record<string, string>);
}

/** The entry an identifier stands for (encodeManagerVersionedSet's json.Unmarshal). */
export function parseManagerIdentifier(manager: string): ManagedFieldsEntry | undefined {
  try {
    const v = goJsonParse(new TextEncoder().encode(manager));
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    const o = v as Record<string, unknown>;
    const out: ManagedFieldsEntry = {};
    for (const k of ['manager', 'operation', 'apiVersion', 'time', 'subresource'] as const) {
      if (o[k] === undefined || o[k] === null) continue;
      if (typeof o[k] !== 'string') return undefined;
      out[k] = o[k];
    }
    return out;
  } catch {
    return undefined;
  }
}

/** DecodeManagedFields, with upstream's messages for a malformed entry. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[]): Managed {
  const managed = emptyManaged();
  entries.forEach((e, i) => {
    if (e.operation !== operationApply && e.operation !== operationUpdate)
      throw new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new Error('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '')
      throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1')
      throw new Error(
        `invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`,
      );
    const manager = buildManagerIdentifier(e);
    let set;
    try {
      set = setFromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      throw new Error(
        `error decoding versioned set from ${goJsonMarshal(e as never)}: error decoding set: ${(err as Error).message}`,
      );
    }
    managed.fields.set(manager, {
      set,
      apiVersion: e.apiVersion,
      applied: e.operation === operationApply,
    });
    managed.times.set(manager, e.time);
  });
  return managed;
}

/** encodeManagedFields: one entry per manager, sorted; undefined when nobody manages anything. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const [manager, vs] of managed.fields) {
    const id = parseManagerIdentifier(manager);
    if (!id)
      throw new Error(
        `error encoding versioned set for ${manager}: error unmarshalling manager identifier ${manager}`,
      );
    const entry: ManagedFieldsEntry = {};
    if (id.manager) entry.manager = id.manager;
    entry.operation = vs.applied ? operationApply : id.operation;
    entry.apiVersion = vs.apiVersion;
    const time = managed.times.get(manager) ?? id.time;
    if (time) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = setToFieldsV1(vs.set);
    if (id.subresource) entry.subresource = id.subresource;
    out.push(entry);
  }
  return sortEncodedManagedFields(out);
}

/** metav1.Time's Unix(): whole seconds, 0 for no time. */
export const unixSeconds = (t: string | undefined): number =>
  t ? Math.floor(Date.parse(t) / 1000) : 0;

/** sortEncodedManagedFields: by operation, time, manager, API version, subresource. */
export function sortEncodedManagedFields(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  return entries.sort(
    (p, q) =>
      compareStrings(p.operation ?? '', q.operation ?? '') ||
      unixSeconds(p.time) - unixSeconds(q.time) ||
      compareStrings(p.manager ?? '', q.manager ?? '') ||
      compareStrings(p.apiVersion ?? '', q.apiVersion ?? '') ||
      compareStrings(p.subresource ?? '', q.subresource ?? ''),
  );
}

/** metav1.Time as JSON: RFC 3339 in UTC, whole seconds. */
export const rfc3339 = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
