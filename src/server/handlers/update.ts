// Mirrors k8s.io/apiserver pkg/endpoints/handlers/update.go (release-1.36) UpdateResource and the
// generic registry's Store.Update (pkg/registry/generic/registry/store.go, rest.BeforeUpdate): a
// GuaranteedUpdate whose update function enforces the object's resourceVersion as a precondition
// (409 Conflict with OptimisticLockErrorMsg), keeps uid, creationTimestamp and generation, and
// bumps generation where the strategy does. Deliberate difference: no create-on-update (no
// built-in served here allows it, nor do custom resources).
import { newBadRequest, newInvalid } from '../../engine/storage/errors';
import { FieldPath, invalid } from '../../engine/storage/field-errors';
import type { KubeObject } from '../../engine/storage/objects';
import { canonicalObject } from '../canonical-object';
import type { ServedResource } from '../served-resource';
import {
  decodeObject,
  ensureObjectNamespaceMatchesRequestNamespace,
  tracksGeneration,
} from './create';
import { newOptimisticLockConflict } from '../status';
import type { RequestScope } from './request-scope';
import { writeResult } from './response';

/** PUT of an object: replace it with the body. */
export async function updateResource(scope: RequestScope): Promise<void> {
  const obj = await decodeObject(scope);
  checkName(obj, scope.info.name, scope.info.namespace);
  ensureObjectNamespaceMatchesRequestNamespace(
    scope.served.namespaced ? scope.info.namespace : '',
    obj,
  );
  const updated = await guaranteedUpdateObject(scope, () => obj);
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

/**
 * Store.Update's GuaranteedUpdate: `newObject(existing)` is the object the client wants (its
 * resourceVersion the precondition; none means unconditional where the strategy allows it).
 * Also the path of PATCH, whose new object is the patched existing one.
 */
export function guaranteedUpdateObject(
  scope: RequestScope,
  newObject: (existing: KubeObject) => KubeObject,
): Promise<KubeObject> {
  const { served, info } = scope;
  const gr = { group: served.group, resource: served.resource };
  return served.engine.update(
    served.namespaced ? info.namespace : '',
    info.name,
    (existing) => {
      const obj = structuredClone(newObject(existing));
      const newRV = obj.metadata.resourceVersion ?? '';
      const existingRV = existing.metadata.resourceVersion ?? '';
      if (newRV === '' || newRV === '0') {
        if (!allowUnconditionalUpdate(served))
          throw newInvalid({ group: served.group, kind: served.resource }, info.name, [
            invalid(
              FieldPath.of('metadata', 'resourceVersion'),
              0,
              'must be specified for an update',
            ),
          ]);
      } else if (newRV !== existingRV) {
        throw newOptimisticLockConflict(gr, info.name);
      }
      beforeUpdate(served, obj, existing);
      return canonicalObject(served, obj);
    },
    scope.context,
  );
}

/** Whether an update without a resourceVersion overwrites (built-ins yes, custom resources no). */
function allowUnconditionalUpdate(served: ServedResource): boolean {
  return !served.jsonOnly;
}

/**
 * rest.BeforeUpdate and the strategies' PrepareForUpdate: system fields from the stored object;
 * generation + 1 when what it tracks changed (a pod's spec; a custom resource's everything but
 * metadata and status).
 */
function beforeUpdate(served: ServedResource, obj: KubeObject, old: KubeObject): void {
  const m = obj.metadata as Record<string, unknown>;
  const o = old.metadata as Record<string, unknown>;
  for (const f of ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'])
    if (o[f] !== undefined && (f !== 'uid' || !m.uid)) m[f] = o[f];
  delete m.resourceVersion;
  if (!tracksGeneration(served)) {
    delete m.generation;
    return;
  }
  const generation = typeof o.generation === 'number' ? o.generation : 1;
  m.generation = generationSource(obj) === generationSource(old) ? generation : generation + 1;
}

function generationSource(obj: KubeObject): string {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { metadata, status, kind, apiVersion, ...rest } = obj as KubeObject & { status?: unknown };
  return JSON.stringify(rest);
}
