// Mirrors the ScaleREST of kubernetes pkg/registry/apps/{deployment,replicaset,statefulset}/
// storage/storage.go and apiextensions-apiserver pkg/registry/customresource/etcd.go
// (release-1.36), with k8s.io/apiserver's update.go and patch.go around them: `<resource>/scale`
// answers an autoscaling/v1 Scale; a PUT or a PATCH (json, merge, strategic: applied to the
// stored object's Scale) writes the Scale's replicas through the resource's own Store (its main
// strategy) and answers the Scale of what was stored, its managedFields entry recorded on the
// object through ScaleHandler; an apply patch is applied to the Scale by the field manager.
import type { KubeObject } from '../../engine';
import { newBadRequest } from '../../engine/http-face';
import { decodeBody, fieldValidation } from '../json-body';
import {
  applyPatch,
  applyStrictDecoding,
  checkPatchContentType,
  decodeApplyPatch,
  PatchType,
  patchTypeOf,
} from '../patch';
import { isDryRun } from '../registry/dry-run';
import { appsScalePaths, objectWithScale, scaleOf, type ScalePaths } from '../registry/scale';
import { managerOrUserAgent, scaleFieldManagerScope } from '../field-manager';
import { groupVersionOf } from '../served-resource';
import {
  makePath,
  apply,
  ScaleHandler,
  update as updateManagedFields,
  type JsonObject,
  type ManagedFieldsEntry,
} from '../structured-merge-diff';
import { writeOptionsOf } from '../write-options';
import { addWarning, writeOptionsBeforeDecode } from './create';
import type { RequestScope } from './request-scope';
import { writeResult } from './response';

const scaleKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

function pathsOf(scope: RequestScope): { paths: ScalePaths; apps: boolean } {
  const scale = scope.served.crdSubresources?.scale;
  return scale ? { paths: scale, apps: false } : { paths: appsScalePaths, apps: true };
}

/** ScaleREST.Get. */
export async function getScale(scope: RequestScope): Promise<void> {
  const { paths, apps } = pathsOf(scope);
  const obj = await scope.served.store.get(
    scope.info.namespace,
    scope.info.name,
    '',
    scope.context,
  );
  writeResult(scope, 200, scaleOf(obj, paths, apps));
}

/** ScaleREST.Update for a PUT: the body is a Scale. */
export async function updateScale(scope: RequestScope): Promise<void> {
  const options = await writeOptionsBeforeDecode(scope, 'UpdateOptions');
  const scale = decodeBody(
    await scope.body(),
    { ...scaleKind, unstructured: false },
    {
      contentType: scope.req.headers['content-type'],
      fieldValidation: scope.query.get('fieldValidation')?.[0],
    },
  ).object;
  if (typeof scale.metadata !== 'object' || scale.metadata === null) scale.metadata = {};
  const objName = scale.metadata.name ?? '';
  if (objName !== scope.info.name)
    throw newBadRequest(
      `the name of the object (${objName}) does not match the name on the URL (${scope.info.name})`,
    );
  await writeScale(
    scope,
    updatedScale(scope, options.fieldManager, () => scale),
    isDryRun(options),
  );
}

/**
 * PATCH of `/scale`: the patch applied to the stored object's Scale, or (apply) the Scale applied
 * by the field manager as the request's fieldManager.
 */
export async function patchScale(scope: RequestScope): Promise<void> {
  const contentType = scope.req.headers['content-type'] ?? '';
  const resource = { ...scaleKind, resource: scope.served.resource };
  const rejected = checkPatchContentType(contentType, resource);
  if (rejected) throw rejected;
  const body = await scope.body();
  const patchType = patchTypeOf(contentType);
  const options = writeOptionsOf(scope.query, 'PatchOptions', patchType);
  if (patchType === PatchType.ApplyYAML) {
    const version = scope.resources.profile.kubernetesVersion;
    const applied = decodeApplyPatch(body, version);
    await writeScale(
      scope,
      (oldScale) => {
        const scale = apply(
          oldScale as unknown as JsonObject,
          applied.object,
          options.fieldManager ?? '',
          options.force ?? false,
          scaleFieldManagerScope(),
          scope.served.store.now(),
        ).object as unknown as KubeObject;
        const directive = fieldValidation(options.fieldValidation);
        for (const w of applyStrictDecoding(applied, directive, version)) addWarning(scope, w);
        return scale;
      },
      isDryRun(options),
    );
    return;
  }
  await writeScale(
    scope,
    updatedScale(
      scope,
      options.fieldManager,
      (current) => applyPatch(contentType, current, body, resource).object,
    ),
    isDryRun(options),
  );
}

/** The new Scale with the field manager's Update entry for the request's manager. */
function updatedScale(
  scope: RequestScope,
  fieldManager: string | undefined,
  newScale: (current: KubeObject) => KubeObject,
): (oldScale: KubeObject) => KubeObject {
  const manager = managerOrUserAgent(fieldManager, scope.req.headers['user-agent'] ?? '');
  return (oldScale) =>
    updateManagedFields(
      oldScale as unknown as JsonObject,
      newScale(oldScale) as unknown as JsonObject,
      manager,
      scaleFieldManagerScope(),
      scope.served.store.now(),
    ).object as unknown as KubeObject;
}

// scaleUpdatedObjectInfo through the resource's Store: the stored object's Scale with its
// managedFields (ScaleHandler.ToSubresource), the new Scale with the request's field manager entry,
// its replicas written into the object and its entries folded back (ToParent).
async function writeScale(
  scope: RequestScope,
  newScale: (oldScale: KubeObject) => KubeObject,
  dryRun: boolean,
): Promise<void> {
  const { paths, apps } = pathsOf(scope);
  const parentVersion = groupVersionOf(scope.served);
  const mappings = new Map([[parentVersion, makePath(...fieldsOfPath(paths.specReplicasPath))]]);
  const { object } = await scope.served.store.update(
    scope.info.namespace,
    scope.info.name,
    (existing) => {
      const handler = new ScaleHandler(managedFieldsOf(existing), parentVersion, mappings);
      const oldScale = scaleOf(existing, paths, apps);
      const entries = handler.toSubresource();
      if (entries.length > 0) metaOf(oldScale).managedFields = entries;
      const scale = newScale(oldScale);
      const updated = objectWithScale(existing, scale, paths);
      const parentEntries = handler.toParent(managedFieldsOf(scale));
      if (parentEntries.length > 0) metaOf(updated).managedFields = parentEntries;
      else delete metaOf(updated).managedFields;
      return updated;
    },
    { context: scope.context, dryRun, warn: (w) => addWarning(scope, w) },
  );
  writeResult(scope, 200, scaleOf(object, paths, apps));
}

/** An object's metadata as a plain record (managedFields is not among ObjectMeta's typed fields). */
function metaOf(obj: KubeObject): Record<string, unknown> {
  return obj.metadata as unknown as Record<string, unknown>;
}

function managedFieldsOf(obj: KubeObject): ManagedFieldsEntry[] {
  const entries = metaOf(obj).managedFields;
  return Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : [];
}

/** `.spec.replicas` → its field names. */
function fieldsOfPath(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}
