// Mirrors k8s.io/apiserver pkg/endpoints/handlers/update.go (release-1.36) UpdateResource: the
// UpdateOptions checked (write-options.ts), the body decoded and its name checked against the URL,
// then the resource's registry Store.Update (registry/store.ts: the GuaranteedUpdate with the
// resourceVersion rules, BeforeUpdate, create on update where the strategy allows it, the delete
// of an object whose finalizers the update empties). 200, or 201 when the update created the
// object. Also the namespace finalize subresource (FinalizeREST.Update: the Store with
// namespaceFinalizeStrategy).
import type { KubeObject } from '../../engine';
import { newBadRequest } from '../../engine/http-face';
import { isDryRun } from '../registry/dry-run';
import { namespaceFinalizeStrategy } from '../registry/namespace-strategy';
import type { Store } from '../registry/store';
import { addWarning, decodeObject, withManagedFields, writeOptionsBeforeDecode } from './create';
import type { RequestScope } from './request-scope';
import { writeResult } from './response';

/** PUT of an object: replace it with the body. */
export async function updateResource(scope: RequestScope): Promise<void> {
  await updateThrough(scope, scope.served.store, scope.info.namespace);
}

/** PUT of /api/v1/namespaces/<name>/finalize: spec.finalizers from the body, status kept. */
export async function finalizeNamespace(scope: RequestScope): Promise<void> {
  await updateThrough(scope, scope.served.store.withUpdateStrategy(namespaceFinalizeStrategy), '');
}

/** The beats of a PUT to `store` (the resource's, or a subresource's). */
export async function updateThrough(
  scope: RequestScope,
  store: Store,
  namespace: string,
): Promise<void> {
  const options = await writeOptionsBeforeDecode(scope, 'UpdateOptions');
  const obj = await decodeObject(scope);
  checkName(obj, scope.info.name, namespace);
  // update.go's transformer: the field manager sees the stored object each try.
  const objInfo = (existing: KubeObject): KubeObject =>
    withManagedFields(scope, existing, obj, options.fieldManager);
  const { object, created } = await store.update(scope.info.namespace, scope.info.name, objInfo, {
    context: scope.context,
    dryRun: isDryRun(options),
    warn: (w) => addWarning(scope, w),
  });
  writeResult(scope, created ? 201 : 200, object);
}

/** checkName: the body names the object of the URL. */
function checkName(obj: KubeObject, name: string, namespace: string): void {
  const objName = obj.metadata.name ?? '';
  if (objName !== name)
    throw newBadRequest(
      `the name of the object (${objName}) does not match the name on the URL (${name})`,
    );
  const objNamespace = obj.metadata.namespace ?? '';
  if (namespace !== '' && objNamespace !== '' && objNamespace !== namespace)
    throw newBadRequest(
      `the namespace of the object (${objNamespace}) does not match the namespace on the request (${namespace})`,
    );
}
