// Mirrors k8s.io/apiserver pkg/endpoints/handlers/patch.go (release-1.36) PatchResource: the
// content type checked before the body is read (415), the PatchOptions (422: `force` only for
// apply, apply needs a fieldManager), an apply body decoded (400; master: validateAndTranscodePatch),
// then the registry's Store.Update with the patch as its UpdatedObjectInfo. Inside the Store's
// GuaranteedUpdate: for json/merge/strategic patches the patch applied to the stored object
// (applyPatch, src/server/patch.ts) and the field manager's Update entry (jsonPatcher /
// smpPatcher's UpdateNoErrors); for apply (applyPatcher) the field manager's Apply onto the
// stored object or, when there is none, an empty one (forceAllowCreate: apply creates). 200, or
// 201 when the apply created the object.
import type { KubeObject, KubernetesVersion } from '../../engine';
import { fieldManagerScope } from '../field-manager';
import {
  PatchType,
  applyPatch,
  applyStrictDecoding,
  checkNameAndNamespace,
  checkPatchContentType,
  decodeApplyPatch,
  patchTypeOf,
  type ApplyPatchBody,
  type PatchResource,
  type PatchValidation,
} from '../patch';
import { quote } from '../../engine/http-face';
import { fieldValidation } from '../json-body';
import { dropUnknownFields, strictDecodingErrors } from '../strict-field-validation';
import { unknownFieldPaths } from '../structural-pruning';
import { admitCreate } from '../namespace-lifecycle';
import { isDryRun } from '../registry/dry-run';
import { schemeDefault } from '../defaults/scheme-defaults';
import { isNotFound } from '../registry/store-delete';
import type { Store, UpdatedObjectInfo } from '../registry/store';
import { apply, type JsonObject } from '../structured-merge-diff';
import { writeOptionsOf, type WriteOptions } from '../write-options';
import { addWarning, withManagedFields } from './create';
import type { RequestScope } from './request-scope';
import { writeResult } from './response';

export async function patchResource(scope: RequestScope): Promise<void> {
  await patchThrough(scope, scope.served.store, true);
}

/**
 * The beats of a PATCH to `store` (the resource's, or a subresource's). `applyCreates`: an apply
 * of a missing object creates it (the main resource; a StatusREST's Update passes
 * forceAllowCreate false, so there it is NotFound).
 */
export async function patchThrough(
  scope: RequestScope,
  store: Store,
  applyCreates: boolean,
): Promise<void> {
  const { served } = scope;
  const resource: PatchResource = {
    group: served.group,
    version: served.version,
    kind: served.kind,
    resource: served.resource,
  };
  const contentType = scope.req.headers['content-type'] ?? '';
  const rejected = checkPatchContentType(contentType, resource);
  if (rejected) throw rejected;
  const body = await scope.body();
  const patchType = patchTypeOf(contentType);
  const options = writeOptionsOf(scope.query, 'PatchOptions', patchType);
  const isApply = patchType === PatchType.ApplyYAML;
  const version = scope.resources.profile.kubernetesVersion;
  const applied = isApply ? decodeApplyPatch(body, version) : undefined;
  if (applied && applyCreates) await admitApplyCreate(scope, applied.object);
  const validation = patchValidation(scope, options);
  const objInfo: UpdatedObjectInfo = applied
    ? applyPatcher(scope, resource, applied, options, version)
    : (existing) => {
        const { object, warnings } = applyPatch(contentType, existing, body, resource, validation);
        // addStrictDecodingWarnings.
        for (const w of warnings) addWarning(scope, w);
        return withManagedFields(scope, existing, defaulted(scope, object), options.fieldManager);
      };
  const { object, created } = await store.update(scope.info.namespace, scope.info.name, objInfo, {
    context: scope.context,
    dryRun: isDryRun(options),
    warn: (w) => addWarning(scope, w),
    forceAllowCreate: isApply && applyCreates,
  });
  writeResult(scope, created ? 201 : 200, object);
}

/**
 * applyPatcher.applyPatchToCurrentObject (createNewObject when nothing is stored: the Store hands
 * over an object without a uid): FieldManager.Apply as the request's fieldManager, with `force`.
 */
function applyPatcher(
  scope: RequestScope,
  resource: PatchResource,
  patch: ApplyPatchBody,
  options: WriteOptions,
  version: KubernetesVersion,
): UpdatedObjectInfo {
  return (existing: KubeObject): KubeObject => {
    const stored = typeof existing.metadata?.uid === 'string' && existing.metadata.uid !== '';
    const { object } = apply(
      stored ? (existing as unknown as JsonObject) : undefined,
      patch.object,
      options.fieldManager ?? '',
      options.force ?? false,
      fieldManagerScope(scope.served, scope.info.subresource ?? ''),
      scope.served.store.now(),
    );
    const directive = fieldValidation(options.fieldValidation);
    for (const w of applyStrictDecoding(patch, directive, version)) addWarning(scope, w);
    checkNameAndNamespace(object, scope.info.name, scope.info.namespace, resource);
    return defaulted(scope, object as unknown as KubeObject);
  };
}

/**
 * The fieldValidation of the PATCH and its strict decoding of the patched object: a built-in's
 * codec (its OpenAPI definition), or a custom resource's (the fields its schema would prune).
 */
function patchValidation(scope: RequestScope, options: WriteOptions): PatchValidation {
  const { served } = scope;
  return {
    directive: fieldValidation(options.fieldValidation),
    decodeErrors: (patchedJSON, patched) =>
      served.jsonOnly
        ? served.openAPIV3Schema
          ? unknownFieldPaths(patched, served.openAPIV3Schema as JsonObject).map(
              (p) => `unknown field ${quote(p)}`,
            )
          : []
        : (strictDecodingErrors(patchedJSON, served) ?? []),
  };
}

/**
 * The patched object decoded as the codec does: without the fields its kind's Go type lacks
 * (whatever fieldValidation said of them), with its kind's defaults (Scheme.Default).
 */
function defaulted(scope: RequestScope, obj: KubeObject): KubeObject {
  return scope.served.jsonOnly
    ? obj
    : schemeDefault(scope.served, dropUnknownFields(obj, scope.served));
}

/**
 * applyAdmission's Create (NamespaceLifecycle) for an apply that will create: upstream admits
 * inside GuaranteedUpdate; here the stored object is looked up first (admission is async).
 */
async function admitApplyCreate(scope: RequestScope, patch: JsonObject): Promise<void> {
  const { served, info, context } = scope;
  if (!served.namespaced) return;
  try {
    await served.store.get(info.namespace, info.name, '', context);
  } catch (e) {
    if (!isNotFound(e)) throw e;
    await admitCreate(
      scope.resources,
      served,
      info.namespace,
      patch as unknown as KubeObject,
      context,
    );
  }
}
