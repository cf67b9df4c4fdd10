// Mirrors the resourceVersion precondition of k8s.io/apiserver pkg/registry/generic/registry/store.go (Store.Update, release-1.36).
// Every update (PUT, and PATCH whose patched object carries a resourceVersion) goes through it: a
// resourceVersion other than the stored one is a 409 Conflict; none at all is an unconditional
// update (AllowUnconditionalUpdate is true for pods, configmaps, namespaces and custom resources).
import type { GroupResource, KubeObject } from '../engine';
import { newConflict, APIObjectVersioner } from '../engine/http-face';

/** registry.OptimisticLockErrorMsg. */
export const OptimisticLockErrorMsg =
  'the object has been modified; please apply your changes to the latest version and try again';

const versioner = new APIObjectVersioner();

/**
 * Checks obj's resourceVersion against existing's: throws the 409 Conflict on a mismatch, and
 * gives an object without one the stored resourceVersion (doUnconditionalUpdate). A malformed
 * resourceVersion throws strconv's NumError, which the apiserver answers as a 500.
 */
export function checkResourceVersionPrecondition(
  gr: GroupResource,
  name: string,
  existing: KubeObject,
  obj: KubeObject,
): void {
  const existingResourceVersion = versioner.objectResourceVersion(existing);
  const newResourceVersion = versioner.objectResourceVersion(obj);
  if (newResourceVersion === 0n) {
    versioner.updateObject(obj, existingResourceVersion);
    return;
  }
  if (newResourceVersion !== existingResourceVersion)
    throw newConflict(gr, name, new Error(OptimisticLockErrorMsg));
}
