// Mirrors the StatusREST of kubernetes pkg/registry/<group>/<kind>/storage/storage.go and
// apiextensions-apiserver pkg/registry/customresource/etcd.go (release-1.36): `<resource>/status`
// is the resource's Store with the kind's status strategy as UpdateStrategy (status from the
// request, everything else kept); Get answers the whole object; Update passes forceAllowCreate
// false, so an apply to a missing object is NotFound rather than a create.
import { statusStrategyFor } from '../registry/strategy-for';
import type { Store } from '../registry/store';
import { getResource } from './get';
import { patchThrough } from './patch';
import type { RequestScope } from './request-scope';
import { updateThrough } from './update';

/** The status store of the scope's resource (`statusStore.UpdateStrategy = statusStrategy`). */
function statusStore(scope: RequestScope): Store {
  return scope.served.store.withUpdateStrategy(
    statusStrategyFor(scope.served, scope.served.store.createStrategy),
  );
}

/** StatusREST.Get: the object, as the main resource's Get. */
export const getStatus = getResource;

/** StatusREST.Update for a PUT: status from the body. */
export async function updateStatus(scope: RequestScope): Promise<void> {
  await updateThrough(scope, statusStore(scope), scope.info.namespace);
}

/** PATCH of `/status`: the patch applied to the stored object, then StatusREST.Update. */
export async function patchStatus(scope: RequestScope): Promise<void> {
  await patchThrough(scope, statusStore(scope), false);
}
