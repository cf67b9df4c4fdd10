// Mirrors k8s.io/apiserver pkg/endpoints/handlers/response.go asPartialObjectMetadata and
// asPartialObjectMetadataList, with k8s.io/apimachinery pkg/api/meta meta.AsPartialObjectMetadata
// and the metav1 PartialObjectMetadata(List) JSON shapes (release-1.36): what metadata informers
// ask for (`as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1`).
import { StatusError, type KubeList, type KubeObject } from '../engine';
import { failure, StatusReason, type ListMeta, objectMetaFieldOrder } from '../engine/http-face';
import type { ServedResource } from './served-resource';

/** meta.k8s.io versions with the meta kinds. */
export type MetaVersion = 'v1' | 'v1beta1';

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: string;
  metadata: Record<string, unknown>;
}

export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: string;
  metadata: ListMeta;
  /** Go's nil slice for an empty list: the field has no omitempty, so it is written as null. */
  items: PartialObjectMetadata[] | null;
}

/** ObjectMeta fields that are pointers upstream: present even when zero. */
const pointerMetaFields = new Set(['deletionTimestamp', 'deletionGracePeriodSeconds']);

/**
 * The object's ObjectMeta as a typed ObjectMeta marshals it: Go's field order, omitempty fields
 * that are empty left out, fields ObjectMeta does not have dropped.
 */
export function objectMetaOf(object: KubeObject): Record<string, unknown> {
  const meta = (object.metadata ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of objectMetaFieldOrder) {
    const v = meta[field];
    if (v === undefined || v === null) continue;
    if (!pointerMetaFields.has(field)) {
      if (v === '' || v === 0) continue;
      if (typeof v === 'object' && Object.keys(v as object).length === 0) continue;
    }
    out[field] = v;
  }
  return out;
}

/** meta.AsPartialObjectMetadata with its GVK set to meta.k8s.io/<version> PartialObjectMetadata. */
export function toPartialObjectMetadata(
  object: KubeObject,
  version: MetaVersion,
): PartialObjectMetadata {
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: objectMetaOf(object),
  };
}

/** newNotAcceptableError(message): response.go's own errNotAcceptable (a message, no type list). */
export function notAcceptable(message: string): StatusError {
  return failure(406, StatusReason.NotAcceptable, message);
}

/**
 * The Go type a handler holds for a resource (what upstream's `%T` prints): the internal type of a
 * built-in (`*core.PodList`), unstructured for a custom resource.
 */
export function goTypeName(
  served: Pick<ServedResource, 'kind' | 'jsonOnly'>,
  list: boolean,
): string {
  if (served.jsonOnly)
    return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  return `*core.${served.kind}${list ? 'List' : ''}`;
}

/** asPartialObjectMetadata: a single object only (a list is 406). */
export function asPartialObjectMetadata(
  result: KubeObject | KubeList,
  version: MetaVersion,
  served: Pick<ServedResource, 'kind' | 'jsonOnly'>,
): PartialObjectMetadata {
  if (isList(result)) {
    throw notAcceptable(
      `you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(served, true)})`,
    );
  }
  return toPartialObjectMetadata(result, version);
}

/** asPartialObjectMetadataList: a list only; its ListMeta carried over. */
export function asPartialObjectMetadataList(
  result: KubeObject | KubeList,
  version: MetaVersion,
  served: Pick<ServedResource, 'kind' | 'jsonOnly'>,
): PartialObjectMetadataList {
  if (!isList(result)) {
    throw notAcceptable(
      `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(served, false)})`,
    );
  }
  const items = result.items.map((o) => toPartialObjectMetadata(o, version));
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: listMetaOf(result.metadata),
    items: items.length > 0 ? items : null,
  };
}

/** A list object (has items), as meta.IsListType decides. */
export function isList(o: KubeObject | KubeList): o is KubeList {
  return Array.isArray((o as KubeList).items);
}

/** metav1.ListMeta with its omitempty fields (resourceVersion, continue, remainingItemCount). */
export function listMetaOf(m: ListMeta | undefined): ListMeta {
  const out: ListMeta = {};
  if (m?.resourceVersion) out.resourceVersion = m.resourceVersion;
  if (m?.continue) out.continue = m.continue;
  if (m?.remainingItemCount !== undefined && m.remainingItemCount !== null)
    out.remainingItemCount = m.remainingItemCount;
  return out;
}
