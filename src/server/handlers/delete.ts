// Mirrors k8s.io/apiserver pkg/endpoints/handlers/delete.go (release-1.36) DeleteResource and
// DeleteCollection, with the generic registry's Store.Delete (rest.BeforeDelete's early
// precondition check, the etcd3 store's Delete, finalizeDelete's answer: the deleted object where
// the store returns it, else a Success Status) and Store.DeleteCollection (list, then delete each;
// the list is the answer). Deliberate difference: deletion is always immediate (no graceful pod
// deletion, no namespace finalization or content cleanup).
import { newBadRequest, newConflict, type Status } from '../../engine/storage/errors';
import type { Preconditions } from '../../engine/etcd3/store';
import type { KubeObject } from '../../engine/storage/objects';
import type { ServedResource } from '../served-resource';
import { writeList } from './get';
import { listOpts, toResourceListRequest } from '../list-query';
import { listOptsScope, type RequestScope } from './request-scope';
import { writeResult } from './response';

/** The fields of metav1.DeleteOptions the handlers read. */
interface DeleteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** DELETE of one object (body: an optional DeleteOptions). */
export async function deleteResource(scope: RequestScope): Promise<void> {
  const options = await decodeDeleteOptions(scope);
  const deleted = await deleteObject(scope, scope.info.name, options.preconditions);
  writeResult(scope, 200, finalizeDelete(scope.served, deleted));
}

/** DELETE of a collection: every object the list options select, the list as the answer. */
export async function deleteCollection(scope: RequestScope): Promise<void> {
  const options = await decodeDeleteOptions(scope);
  const { served, info } = scope;
  const opts = listOpts(scope.query, listOptsScope(scope));
  const list = await served.engine.list(
    toResourceListRequest(opts, info.namespace || undefined),
    scope.context,
  );
  for (const item of list.items) {
    try {
      await deleteObject(scope, item.metadata.name ?? '', options.preconditions, item);
    } catch (e) {
      // Deleted meanwhile: DeleteCollection ignores NotFound.
      if ((e as { status?: Status }).status?.code !== 404) throw e;
    }
  }
  writeList(scope, list);
}

async function decodeDeleteOptions(scope: RequestScope): Promise<DeleteOptions> {
  const body = await scope.body();
  if (body.length === 0) return {};
  try {
    const o = JSON.parse(body.toString('utf8')) as unknown;
    if (o === null || typeof o !== 'object' || Array.isArray(o))
      throw new Error('decoded object cannot be converted to DeleteOptions');
    return o as DeleteOptions;
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
}

/** Store.Delete: BeforeDelete's precondition check on the current object, then the store's Delete. */
async function deleteObject(
  scope: RequestScope,
  name: string,
  preconditions: DeleteOptions['preconditions'],
  current?: KubeObject,
): Promise<KubeObject> {
  const { served, info } = scope;
  const namespace = served.namespaced ? info.namespace || (current?.metadata.namespace ?? '') : '';
  const p: Preconditions = {};
  if (preconditions?.uid !== undefined && preconditions.uid !== null) p.uid = preconditions.uid;
  if (preconditions?.resourceVersion !== undefined && preconditions.resourceVersion !== null)
    p.resourceVersion = preconditions.resourceVersion;
  if (p.uid !== undefined || p.resourceVersion !== undefined) {
    const obj = current ?? (await served.engine.get(namespace, name, '', false, scope.context))!;
    checkDeletePreconditions(served, obj, p);
  }
  return served.engine.delete(namespace, name, scope.context, p);
}

/** rest.BeforeDelete's early check: a Conflict naming the kind, as upstream words it. */
function checkDeletePreconditions(served: ServedResource, obj: KubeObject, p: Preconditions): void {
  const gr = { group: served.group, resource: served.kind };
  const name = obj.metadata.name ?? '';
  const uid = obj.metadata.uid ?? '';
  const rv = obj.metadata.resourceVersion ?? '';
  if (p.uid !== undefined && p.uid !== uid)
    throw newConflict(
      gr,
      name,
      new Error(
        `the UID in the precondition (${p.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
      ),
    );
  if (p.resourceVersion !== undefined && p.resourceVersion !== rv)
    throw newConflict(
      gr,
      name,
      new Error(
        `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
      ),
    );
}

/**
 * finalizeDelete: the deleted object for stores with ReturnDeletedObject (pods, namespaces),
 * otherwise a Success Status naming it (configmaps, custom resources).
 */
function finalizeDelete(served: ServedResource, obj: KubeObject): KubeObject {
  if (served.returnDeletedObject) return obj;
  const details: Record<string, string> = { name: obj.metadata.name ?? '' };
  if (served.group) details.group = served.group;
  details.kind = served.resource;
  if (obj.metadata.uid) details.uid = obj.metadata.uid;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details,
  } as KubeObject;
}
