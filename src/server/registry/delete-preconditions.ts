// Mirrors the preconditions check that kubernetes pkg/registry/core/namespace/storage/storage.go
// and apiextensions-apiserver pkg/registry/customresourcedefinition/etcd.go (release-1.36) each
// write out in REST.Delete: no UID precondition means the object's own (kept in the options for
// Store.Delete); a UID or resourceVersion that differs is a 409. Their texts differ only in the
// first letter ("Precondition failed" for a namespace, "precondition failed" for a CRD).
import type { KubeObject } from '../../engine';
import { newConflict } from '../../engine/http-face';
import type { GroupResource } from '../../engine';
import type { DeleteOptions } from '../delete-options';

/** The storage preconditions of the first delete's GuaranteedUpdate. */
export function deletePreconditions(
  gr: GroupResource,
  meta: KubeObject['metadata'],
  options: DeleteOptions,
  word: 'Precondition' | 'precondition',
): { uid?: string; resourceVersion?: string } {
  const name = meta.name ?? '';
  const uid = meta.uid ?? '';
  const p = (options.preconditions ??= {});
  if (p.uid === undefined || p.uid === null) p.uid = uid;
  else if (p.uid !== uid)
    throw newConflict(
      gr,
      name,
      new Error(`${word} failed: UID in precondition: ${p.uid}, UID in object meta: ${uid}`),
    );
  if (
    p.resourceVersion !== undefined &&
    p.resourceVersion !== null &&
    p.resourceVersion !== meta.resourceVersion
  )
    throw newConflict(
      gr,
      name,
      new Error(
        `${word} failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
      ),
    );
  const preconditions: { uid?: string; resourceVersion?: string } = { uid: p.uid };
  if (typeof p.resourceVersion === 'string') preconditions.resourceVersion = p.resourceVersion;
  return preconditions;
}
