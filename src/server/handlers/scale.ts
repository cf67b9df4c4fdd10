// Mirrors the ScaleREST of kubernetes pkg/registry/apps/{deployment,replicaset,statefulset}/
// storage/storage.go and apiextensions-apiserver pkg/registry/customresource/etcd.go
// (release-1.36), with k8s.io/apiserver's update.go and patch.go around them: `<resource>/scale`
// answers an autoscaling/v1 Scale; a PUT or a PATCH (json, merge, strategic: applied to the
// stored object's Scale) writes the Scale's replicas through the resource's own Store (its main
// strategy) and answers the Scale of what was stored. Deliberate difference: no apply patch on
// /scale (415), and no managedFields entry for the write.
import type { KubeObject } from '../../engine';
import { newBadRequest } from '../../engine/http-face';
import { decodeBody } from '../json-body';
import { applyPatch, checkPatchContentType, PatchType, patchTypeOf } from '../patch';
import { isDryRun } from '../registry/dry-run';
import { appsScalePaths, objectWithScale, scaleOf, type ScalePaths } from '../registry/scale';
import { newUnsupportedMediaTypeError } from '../status';
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
  await writeScale(scope, () => scale, isDryRun(options));
}

/** PATCH of `/scale`: the patch applied to the stored object's Scale. */
export async function patchScale(scope: RequestScope): Promise<void> {
  const contentType = scope.req.headers['content-type'] ?? '';
  const resource = { ...scaleKind, resource: scope.served.resource };
  const rejected = checkPatchContentType(contentType, resource);
  if (rejected) throw rejected;
  if (patchTypeOf(contentType) === PatchType.ApplyYAML)
    throw newUnsupportedMediaTypeError([
      PatchType.JSONPatch,
      PatchType.MergePatch,
      PatchType.StrategicMergePatch,
    ]);
  const body = await scope.body();
  const options = writeOptionsOf(scope.query, 'PatchOptions', patchTypeOf(contentType));
  await writeScale(
    scope,
    (current) => applyPatch(contentType, current, body, resource).object,
    isDryRun(options),
  );
}

// scaleUpdatedObjectInfo through the resource's Store: the stored object's Scale, the new Scale,
// its replicas written into the object.
async function writeScale(
  scope: RequestScope,
  newScale: (current: KubeObject) => KubeObject,
  dryRun: boolean,
): Promise<void> {
  const { paths, apps } = pathsOf(scope);
  const { object } = await scope.served.store.update(
    scope.info.namespace,
    scope.info.name,
    (existing) => objectWithScale(existing, newScale(scaleOf(existing, paths, apps)), paths),
    { context: scope.context, dryRun, warn: (w) => addWarning(scope, w) },
  );
  writeResult(scope, 200, scaleOf(object, paths, apps));
}
