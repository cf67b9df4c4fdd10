// Mirrors k8s.io/apiserver pkg/endpoints/handlers/get.go (release-1.36): GetResource (an object,
// read through the delegator's Get) and ListResource (a collection, through the delegator's
// GetList with the request's list options), answered as JSON.
import { goJsonMarshal, type GoJsonValue } from '../../engine/encoding/go-json';
import { newBadRequest } from '../../engine/storage/errors';
import type { ListResult } from '../../engine/etcd3/store';
import type { KubeObject } from '../../engine/storage/objects';
import { groupVersionOf, type ServedResource } from '../served-resource';
import type { RequestScope } from './request-scope';
import { writeObject, writeRawJSON } from './response';

/** GET of one object: resourceVersion "" reads etcd, anything else the watch cache. */
export async function getResource(scope: RequestScope): Promise<void> {
  const { served, info, query } = scope;
  const obj = await served.engine.get(
    info.namespace,
    info.name,
    query.get('resourceVersion') ?? '',
    false,
    scope.context,
  );
  writeObject(scope.res, 200, obj);
}

/** LIST of a collection (all namespaces when the URL names none). */
export async function listResource(scope: RequestScope): Promise<void> {
  const { served, info, query } = scope;
  const limit = query.get('limit');
  const list = await served.engine.list(
    {
      namespace: info.namespace || undefined,
      resourceVersion: query.get('resourceVersion') ?? undefined,
      resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
      labelSelector: query.get('labelSelector') ?? undefined,
      fieldSelector: query.get('fieldSelector') ?? undefined,
      limit: limit === null || limit === '' ? undefined : parseLimit(limit),
      continue: query.get('continue') ?? undefined,
    },
    scope.context,
  );
  writeRawJSON(scope.res, 200, listJSON(served, list));
}

function parseLimit(v: string): number {
  if (!/^[+-]?[0-9]+$/.test(v))
    throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

/**
 * The list as the apiserver serialises it: `{"kind":"PodList","apiVersion":"v1","metadata":{…},
 * "items":[…]}`. A built-in's items are typed structs whose TypeMeta the encoder leaves empty (no
 * kind/apiVersion); a custom resource's items are unstructured objects and keep theirs.
 */
export function listJSON(served: ServedResource, list: ListResult): string {
  const meta: string[] = [];
  if (list.resourceVersion) meta.push(`"resourceVersion":${JSON.stringify(list.resourceVersion)}`);
  if (list.continue) meta.push(`"continue":${JSON.stringify(list.continue)}`);
  if (list.remainingItemCount !== undefined)
    meta.push(`"remainingItemCount":${list.remainingItemCount}`);
  const items = list.items.map((item) =>
    goJsonMarshal((served.jsonOnly ? item : withoutTypeMeta(item)) as unknown as GoJsonValue),
  );
  return (
    `{"kind":${JSON.stringify(served.listKind)},"apiVersion":${JSON.stringify(groupVersionOf(served))},` +
    `"metadata":{${meta.join(',')}},"items":[${items.join(',')}]}`
  );
}

function withoutTypeMeta(obj: KubeObject): Omit<KubeObject, 'kind' | 'apiVersion'> {
  if (obj.kind === undefined && obj.apiVersion === undefined) return obj;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { kind, apiVersion, ...rest } = obj;
  return rest;
}
