// Mirrors k8s.io/apiserver pkg/endpoints/handlers/update.go (release-1.36) UpdateResource and the
// generic registry's Store.Update (pkg/registry/generic/registry/store.go, rest.BeforeUpdate): the
// UpdateOptions checked (write-options.ts), then a GuaranteedUpdate through dry-run.ts's storage
// whose update function applies object-meta.ts's checkUpdateResourceVersion (409 Conflict with
// OptimisticLockErrorMsg, 422 where the strategy needs one) and beforeUpdate; an update that
// empties the finalizers of an object being deleted deletes it instead (ShouldDeleteDuringUpdate,
// errEmptiedFinalizers, deleteWithoutFinalizers: the answer is the updated object). Also the
// namespace finalize subresource (FinalizeREST.Update). Deliberate difference: no
// create-on-update (no built-in served here allows it, nor do custom resources).
import type { KubeObject } from '../../engine';
import { newBadRequest, APIObjectVersioner } from '../../engine/http-face';
import { canonicalObject } from '../canonical-object';
import {
  beforeUpdate,
  checkUpdateResourceVersion,
  namespaceFinalizeStrategy,
  type ObjectStrategy,
} from '../object-meta';
import { isNotFound, shouldDeleteDuringUpdate } from '../store-delete';
import { dryRunnableStorage, isDryRun } from '../dry-run';
import { canonicalize, decodeObject, objectStrategy, writeOptionsBeforeDecode } from './create';
import type { RequestScope } from './request-scope';
import { writeResult } from './response';

const versioner = new APIObjectVersioner();

/** PUT of an object: replace it with the body. */
export async function updateResource(scope: RequestScope): Promise<void> {
  const options = await writeOptionsBeforeDecode(scope, 'UpdateOptions');
  const obj = await decodeObject(scope);
  checkName(obj, scope.info.name, scope.info.namespace);
  const updated = await guaranteedUpdateObject(scope, () => obj, isDryRun(options));
  writeResult(scope, 200, updated);
}

/** PUT of /api/v1/namespaces/<name>/finalize: spec.finalizers from the body, status kept. */
export async function finalizeNamespace(scope: RequestScope): Promise<void> {
  const options = await writeOptionsBeforeDecode(scope, 'UpdateOptions');
  const obj = await decodeObject(scope);
  checkName(obj, scope.info.name, '');
  const updated = await guaranteedUpdateObject(
    scope,
    () => obj,
    isDryRun(options),
    namespaceFinalizeStrategy,
  );
  writeResult(scope, 200, updated);
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

// Store.Update's errEmptiedFinalizers, carrying the object the update would have written.
class EmptiedFinalizers extends Error {
  constructor(readonly obj: KubeObject) {
    super('emptied finalizers');
  }
}

/**
 * Store.Update's GuaranteedUpdate: `newObject(existing)` is the object the client wants (its
 * resourceVersion the precondition; none means unconditional where the strategy allows it).
 * Also the path of PATCH, whose new object is the patched existing one. A dry run answers what
 * would be stored (dry-run.ts).
 */
export async function guaranteedUpdateObject(
  scope: RequestScope,
  newObject: (existing: KubeObject) => KubeObject,
  dryRun: boolean,
  strategy: ObjectStrategy = objectStrategy(scope.served),
): Promise<KubeObject> {
  const { served, info } = scope;
  const gr = { group: served.group, resource: served.resource };
  const namespace = served.namespaced ? info.namespace : '';
  const storage = dryRunnableStorage(served, namespace, info.name, scope.context, dryRun);
  try {
    return await storage.guaranteedUpdate((existing) => {
      const obj = structuredClone(newObject(existing));
      if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
      const existingRV = versioner.objectResourceVersion(existing);
      const mode = checkUpdateResourceVersion(
        strategy,
        gr,
        info.name,
        versioner.objectResourceVersion(obj),
        existingRV,
      );
      if (mode === 'unconditional') versioner.updateObject(obj, existingRV);
      beforeUpdate(strategy, obj, existing, namespace);
      canonicalize(served, obj);
      if (shouldDeleteDuringUpdate(served, obj, existing))
        throw new EmptiedFinalizers(canonicalObject(served, obj));
      // The storage clears the resourceVersion it writes (PrepareObjectForStorage); a dry run
      // answers with the one it read, as upstream.
      return obj;
    }, {});
  } catch (e) {
    if (!(e instanceof EmptiedFinalizers)) throw e;
    // deleteWithoutFinalizers: racing updates may have deleted it already; either way the client
    // expects the updated object.
    try {
      await storage.delete({});
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return e.obj;
  }
}
