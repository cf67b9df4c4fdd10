// Mirrors k8s.io/apiserver pkg/endpoints/handlers/patch.go (release-1.36) PatchResource: the
// content type checked before the body is read (415), the PatchOptions (422), then the registry's
// Store.Update with the patch as its UpdatedObjectInfo: inside the Store's GuaranteedUpdate, the
// patch applied to the stored object (applyPatch, src/server/patch.ts) and the result written as
// an update. 200 with the patched object.
import { applyPatch, checkPatchContentType, type PatchResource } from '../patch';
import { isDryRun } from '../registry/dry-run';
import { writeOptionsOf } from '../write-options';
import { addWarning } from './create';
import type { RequestScope } from './request-scope';
import { writeResult } from './response';

export async function patchResource(scope: RequestScope): Promise<void> {
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
  const options = writeOptionsOf(scope.query, 'PatchOptions');
  const { object } = await served.store.update(
    scope.info.namespace,
    scope.info.name,
    (existing) => applyPatch(contentType, existing, body, resource).object,
    { context: scope.context, dryRun: isDryRun(options), warn: (w) => addWarning(scope, w) },
  );
  writeResult(scope, 200, object);
}
