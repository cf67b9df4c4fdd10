// No upstream counterpart as one function: the field order an object has once the apiserver has
// decoded it into its Go type and encoded it again. A built-in is a struct: kind, apiVersion,
// metadata (ObjectMeta's field order), then the rest as sent (our objects have no schema for
// spec/status). A custom resource is unstructured: a map, whose keys Go marshals sorted at every
// level. Stored this way, what the server answers is ordered as kube-apiserver orders it.
import { objectMetaFieldOrder, type KubeObject } from '../engine/storage/objects';
import { compareStrings } from '../engine/storage/go-strings';
import { groupVersionOf, type ServedResource } from './served-resource';

/** `obj` with the resource's kind and apiVersion, its fields in the order Go encodes them. */
export function canonicalObject(served: ServedResource, obj: KubeObject): KubeObject {
  const typed: Record<string, unknown> = {
    ...obj,
    kind: served.kind,
    apiVersion: groupVersionOf(served),
  };
  if (served.jsonOnly) return sortedDeep(typed) as KubeObject;
  const { kind, apiVersion, metadata, ...rest } = typed;
  return { kind, apiVersion, metadata: orderedMeta(metadata), ...rest } as KubeObject;
}

function orderedMeta(meta: unknown): Record<string, unknown> {
  const m = (meta ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of objectMetaFieldOrder) if (m[k] !== undefined) out[k] = m[k];
  for (const k of Object.keys(m)) if (!(k in out) && m[k] !== undefined) out[k] = m[k];
  return out;
}

function sortedDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedDeep);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort(compareStrings)) out[k] = sortedDeep(o[k]);
  return out;
}
