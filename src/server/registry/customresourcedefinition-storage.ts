// Mirrors apiextensions-apiserver pkg/registry/customresourcedefinition/etcd.go (release-1.36)
// REST.Delete: the first delete of a CRD only marks it (deletionTimestamp, the
// customresourcecleanup finalizer, a Terminating condition) and answers it; the CRD controller
// (customresourcedefinition-controller.ts) then deletes its custom objects and removes the
// finalizer through /status, whose update deletes the CRD. A later delete is Store.Delete.
import { deletePreconditions } from './delete-preconditions';
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
  const gr = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };
  const preconditions = deletePreconditions(gr, meta, options, 'precondition');
  // Upon first request to delete, add the finalizer and then delegate.
  if (!meta.deletionTimestamp) {
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
