// Mirrors k8s.io/apiserver pkg/endpoints/handlers/patch.go (release-1.36) PatchResource: the
// content type checked before the body is read (415), the PatchOptions (422), then, inside the registry's
// GuaranteedUpdate, the patch applied to the stored object (applyPatch, src/server/patch.ts) and
// the result written as an update. 200 with the patched object.
import { applyPatch, checkPatchContentType, type PatchResource } from '../patch';
import { isDryRun } from '../dry-run';
import { writeOptionsOf } from '../write-options';
import type { RequestScope } from './request-scope';
import { writeResult } from './response';
import { guaranteedUpdateObject } from './update';

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
  const patched = await guaranteedUpdateObject(
    scope,
    (existing) => applyPatch(contentType, existing, body, resource).object,
    isDryRun(options),
  );
  writeResult(scope, 200, patched);
}
