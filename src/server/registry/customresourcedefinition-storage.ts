// Mirrors apiextensions-apiserver pkg/registry/customresourcedefinition/etcd.go (release-1.36)
// REST.Delete: the first delete of a CRD only marks it (deletionTimestamp, the
// customresourcecleanup finalizer, a Terminating condition) and answers it; the CRD controller
// (customresourcedefinition-controller.ts) then deletes its custom objects and removes the
// finalizer through /status, whose update deletes the CRD. A later delete is Store.Delete.
import { newConflict } from '../../engine/http-face';
import type { DeleteOptions } from '../delete-options';
import { formatTime } from '../object-meta';
import type { ServedResource } from '../served-resource';
import { customResourceCleanupFinalizer } from './customresourcedefinition-strategy';
import { crdHasFinalizer, setCRDCondition } from './customresourcedefinition-conditions';
import { isDryRun } from './dry-run';
import { storeDelete, type DeleteResult, type DeleteStorage } from './store-delete';

type Loose = Record<string, unknown>;

/** REST.Delete of a CustomResourceDefinition. */
export async function customResourceDefinitionDelete(
  served: Omit<ServedResource, 'store'>,
  storage: DeleteStorage,
  options: DeleteOptions,
  now: () => number,
): Promise<DeleteResult> {
  const crd = await storage.get();
  const meta = crd.metadata ?? {};
  const name = meta.name ?? '';
  const uid = meta.uid ?? '';
  const gr = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };
  const p = (options.preconditions ??= {});
  if (p.uid === undefined || p.uid === null) p.uid = uid;
  else if (p.uid !== uid)
    throw newConflict(
      gr,
      name,
      new Error(`precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${uid}`),
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
        `precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
      ),
    );
  // Upon first request to delete, add the finalizer and then delegate.
  if (!meta.deletionTimestamp) {
    const preconditions: { uid?: string; resourceVersion?: string } = { uid: p.uid };
    if (typeof p.resourceVersion === 'string') preconditions.resourceVersion = p.resourceVersion;
    const out = await storage.guaranteedUpdate((existing) => {
      const m = existing.metadata as unknown as Loose;
      if (!m.deletionTimestamp) m.deletionTimestamp = formatTime(now());
      if (!crdHasFinalizer(existing, customResourceCleanupFinalizer))
        m.finalizers = [
          ...(Array.isArray(m.finalizers) ? (m.finalizers as string[]) : []),
          customResourceCleanupFinalizer,
        ];
      setCRDCondition(
        existing,
        {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionPending',
          message:
            'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        },
        now(),
      );
      return existing;
    }, preconditions);
    return { object: out, deleted: false };
  }
  return storeDelete(served, { kind: served.kind }, storage, options, now, isDryRun(options));
}
