// No upstream counterpart as one function: the field order an object has once the apiserver has
// decoded it into its Go type and encoded it again. A built-in is a struct: kind, apiVersion, then
// its fields in the order k8s.io/api core/v1 types.go declares them (Namespace: metadata, spec,
// status; ConfigMap: metadata, immutable, data, binaryData; Pod: metadata, spec, status), with
// ObjectMeta's field order and map-typed fields (labels, annotations, ConfigMap data and
// binaryData, a pod's nodeSelector, overhead and container resources) marshalled with sorted keys
// as encoding/json does. Deliberate difference: below the top level a built-in keeps the order it
// was sent in (no schema for PodSpec's struct order); fields the Go type lacks are kept, last.
// A custom resource is unstructured: a map, whose keys Go marshals sorted at every level.
import type { KubeObject } from '../engine';
import { setOwn, objectMetaFieldOrder, compareStrings } from '../engine/http-face';
import { groupVersionOf, type ServedResource } from './served-resource';

type Loose = Record<string, unknown>;

/** The top-level fields of each built-in after TypeMeta, in Go's declaration order. */
const topLevelFieldOrder: Readonly<Record<string, readonly string[]>> = {
  pods: ['metadata', 'spec', 'status'],
  configmaps: ['metadata', 'immutable', 'data', 'binaryData'],
  namespaces: ['metadata', 'spec', 'status'],
};

/** `obj` with the resource's kind and apiVersion, its fields in the order Go encodes them. */
export function canonicalObject(
  served: Omit<ServedResource, 'store'>,
  obj: KubeObject,
): KubeObject {
  const typed: Loose = { ...obj, kind: served.kind, apiVersion: groupVersionOf(served) };
  if (served.jsonOnly) return sortedDeep(typed) as KubeObject;
  const out: Loose = { kind: typed.kind, apiVersion: typed.apiVersion };
  for (const k of topLevelFieldOrder[served.resource] ?? ['metadata'])
    if (typed[k] !== undefined) out[k] = typed[k];
  for (const k of Object.keys(typed))
    if (!Object.hasOwn(out, k) && typed[k] !== undefined) setOwn(out, k, typed[k]);
  out.metadata = orderedMeta(out.metadata);
  if (served.resource === 'configmaps') {
    if (out.data !== undefined) out.data = sortedMap(out.data);
    if (out.binaryData !== undefined) out.binaryData = sortedMap(out.binaryData);
  }
  if (served.resource === 'pods' && isObject(out.spec)) out.spec = podSpecMaps(out.spec);
  return out as unknown as KubeObject;
}

function isObject(v: unknown): v is Loose {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A map-typed field's value as encoding/json writes a Go map: keys sorted (a non-map as is). */
function sortedMap(v: unknown): unknown {
  if (!isObject(v)) return v;
  const out: Loose = {};
  for (const k of Object.keys(v).sort(compareStrings)) setOwn(out, k, v[k]);
  return out;
}

function orderedMeta(meta: unknown): Loose {
  const m = (meta ?? {}) as Loose;
  const out: Loose = {};
  for (const k of objectMetaFieldOrder)
    if (Object.hasOwn(m, k) && m[k] !== undefined) out[k] = m[k];
  for (const k of Object.keys(m))
    if (!Object.hasOwn(out, k) && m[k] !== undefined) setOwn(out, k, m[k]);
  if (out.labels !== undefined) out.labels = sortedMap(out.labels);
  if (out.annotations !== undefined) out.annotations = sortedMap(out.annotations);
  return out;
}

// PodSpec's maps: nodeSelector, overhead, and each container's resources limits and requests.
function podSpecMaps(spec: Loose): Loose {
  const out: Loose = { ...spec };
  for (const k of ['nodeSelector', 'overhead'])
    if (out[k] !== undefined) out[k] = sortedMap(out[k]);
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    const containers = out[list];
    if (!Array.isArray(containers)) continue;
    out[list] = containers.map((c: unknown) => {
      if (!isObject(c) || !isObject(c.resources)) return c;
      const resources: Loose = { ...c.resources };
      for (const k of ['limits', 'requests'])
        if (resources[k] !== undefined) resources[k] = sortedMap(resources[k]);
      return { ...c, resources };
    });
  }
  return out;
}

function sortedDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedDeep);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Loose;
  const out: Loose = {};
  for (const k of Object.keys(o).sort(compareStrings)) setOwn(out, k, sortedDeep(o[k]));
  return out;
}
