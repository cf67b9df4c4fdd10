// Mirrors k8s.io/apiserver pkg/endpoints/handlers/delete.go (release-1.36) DeleteResource and
// DeleteCollection over the registry's Store.Delete and Store.DeleteCollection (registry/store.ts:
// finalizers, graceful deletion, the orphan and foregroundDeletion finalizers, no garbage collector
// runs here; the namespace REST's Delete for namespaces). 200, or 202 when an object that stays
// was deleted with orphanDependents=false. Deliberate difference: the registry always returns an
// object, so the handler's Status for a nil result is never built.
import { decodeDeleteOptions } from '../delete-options';
import { isDryRun } from '../registry/dry-run';
import { writeList } from './get';
import { listOpts, toResourceListRequest } from '../../request/list-query';
import { listOptsScope, type RequestScope } from './request-scope';
import { writeResult } from './response';

/** DELETE of one object (body: an optional DeleteOptions, else the query's). */
export async function deleteResource(scope: RequestScope): Promise<void> {
  const options = decodeDeleteOptions(
    await scope.body(),
    scope.query,
    scope.req.headers['content-type'],
  );
  const { served, info } = scope;
  const result = await served.store.delete(info.namespace, info.name, options, scope.context);
  const accepted = !result.deleted && options.orphanDependents === false;
  writeResult(scope, accepted ? 202 : 200, result.object);
  // The namespace controller's informer: a namespace marked for deletion is queued.
  if (!result.deleted && !isDryRun(options) && served === scope.resources.namespaces)
    scope.resources.namespaceController?.enqueue(info.name);
}

/** DELETE of a collection: the list options' objects deleted, the list as the answer. */
export async function deleteCollection(scope: RequestScope): Promise<void> {
  const options = decodeDeleteOptions(
    await scope.body(),
    scope.query,
    scope.req.headers['content-type'],
  );
  const { served, info } = scope;
  const opts = listOpts(scope.query, listOptsScope(scope));
  const list = await served.store.deleteCollection(
    toResourceListRequest(opts, info.namespace || undefined),
    options,
    scope.context,
  );
  writeList(scope, list);
}
