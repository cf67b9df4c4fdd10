// Mirrors apiextensions-apiserver pkg/apiserver/conversion/nop_converter.go and converter.go's
// safeConverterWrapper with the schemaCoercingConverter of customresource_handler.go
// (release-1.36), for conversion.strategy None: a custom object changes version by its apiVersion
// alone, then is pruned by the target version's structural schema. One storage holds a CRD's
// objects in its storage version; every served version reads and writes them through these two.
// Deliberate difference: a CRD whose conversion.strategy is Webhook converts as None would (no
// webhook is called).
import type { KubeObject } from '../engine';
import type { ServedResource } from './served-resource';
import { pruneCustomResource } from './structural-pruning';

type Versioned = Pick<ServedResource, 'group' | 'version' | 'openAPIV3Schema'> & {
  storageVersion?: string;
  storageSchema?: Readonly<Record<string, unknown>>;
};

/**
 * A stored object as `served`'s version answers it. The object itself when it already has that
 * apiVersion (the storage version's reads: the watch cache's objects keep their identity, and
 * with it their cached encodings); else a copy with the apiVersion rewritten, pruned.
 */
export function toServedVersion(obj: KubeObject, served: Versioned): KubeObject {
  return convertCustomResource(obj, `${served.group}/${served.version}`, served.openAPIV3Schema);
}

/** An object written through `served`'s version as it is stored (its CRD's storage version). */
export function toStorageVersion(obj: KubeObject, served: Versioned): KubeObject {
  if (served.storageVersion === undefined) return obj;
  return convertCustomResource(
    obj,
    `${served.group}/${served.storageVersion}`,
    served.storageSchema,
  );
}

/** nopConverter.Convert plus the schema coercion: `obj` with `apiVersion`, pruned by `schema`. */
export function convertCustomResource(
  obj: KubeObject,
  apiVersion: string,
  schema: Readonly<Record<string, unknown>> | undefined,
): KubeObject {
  if (obj.apiVersion === undefined || obj.apiVersion === apiVersion) return obj;
  // The key keeps its place: an unstructured object encodes its keys in order.
  const out = { ...structuredClone(obj), apiVersion } as KubeObject;
  if (schema) pruneCustomResource(out as unknown as Record<string, unknown>, schema as never);
  return out;
}
