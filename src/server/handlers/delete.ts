// Mirrors k8s.io/apiserver pkg/endpoints/handlers/delete.go (release-1.36) DeleteResource and
// DeleteCollection over the generic registry's Store.Delete (store-delete.ts: finalizers, graceful
// deletion, the orphan and foregroundDeletion finalizers; no garbage collector runs here) and the
// namespace REST.Delete (namespace-storage.ts). 200, or 202 when an object that stays was deleted
// with orphanDependents=false. Deliberate difference: the registry always returns an object, so
// the handler's Status for a nil result is never built.
import type { RequestSender, KubeObject } from '../../engine';
import { decodeDeleteOptions, type DeleteOptions } from '../delete-options';
import { dryRunnableStorage, isDryRun } from '../dry-run';
import { deleteStrategyOf } from '../delete-strategy';
import { namespaceDelete } from '../namespace-storage';
import type { ServedResources } from '../served-resources';
import type { ServedResource } from '../served-resource';
import { isNotFound, storeDelete, type DeleteResult } from '../store-delete';
import { writeList } from './get';
import { listOpts, toResourceListRequest } from '../../request/list-query';
import { listOptsScope, type RequestScope } from './request-scope';
import { writeResult } from './response';

/** DELETE of one object (body: an optional DeleteOptions, else the query's). */
export async function deleteResource(scope: RequestScope): Promise<void> {
  const options = decodeDeleteOptions(await scope.body(), scope.query);
  const { served, info } = scope;
  const result = await deleteObject(
    scope.resources,
    served,
    served.namespaced ? info.namespace : '',
    info.name,
    options,
    scope.context,
  );
  const accepted = !result.deleted && options.orphanDependents === false;
  writeResult(scope, accepted ? 202 : 200, result.object);
  if (!result.deleted && !isDryRun(options) && served === scope.resources.namespaces)
    scope.resources.namespaceController?.enqueue(info.name);
}

/** The registry's Delete of one object: the namespace REST for namespaces, else Store.Delete. */
export function deleteObject(
  resources: ServedResources,
  served: ServedResource,
  namespace: string,
  name: string,
  options: DeleteOptions,
  by: RequestSender,
): Promise<DeleteResult> {
  const storage = dryRunnableStorage(served, namespace, name, by, isDryRun(options));
  const now = (): number => resources.clock.now();
  if (served === resources.namespaces) return namespaceDelete(served, storage, options, now);
  return storeDelete(served, deleteStrategyOf(served), storage, options, now);
}

/**
 * DELETE of a collection: Store.DeleteCollection, every object the list options select deleted
 * with its own copy of the options (NotFound ignored), the list as the answer.
 */
export async function deleteCollection(scope: RequestScope): Promise<void> {
  const options = decodeDeleteOptions(await scope.body(), scope.query);
  const { served, info } = scope;
  const opts = listOpts(scope.query, listOptsScope(scope));
  const list = await served.engine.list(
    toResourceListRequest(opts, info.namespace || undefined),
    scope.context,
  );
  await deleteItems(scope.resources, served, list.items, options, scope.context);
  writeList(scope, list);
}

/** DeleteCollection's workers, one at a time: each item deleted, NotFound ignored. */
export async function deleteItems(
  resources: ServedResources,
  served: ServedResource,
  items: readonly KubeObject[],
  options: DeleteOptions,
  by: RequestSender,
): Promise<void> {
  for (const item of items) {
    try {
      await deleteObject(
        resources,
        served,
        item.metadata.namespace ?? '',
        item.metadata.name ?? '',
        structuredClone(options),
        by,
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
