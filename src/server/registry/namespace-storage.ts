// Mirrors kubernetes pkg/registry/core/namespace/storage/storage.go (release-1.36) REST.Delete:
// the first delete of a namespace only marks it (deletionTimestamp, status.phase Terminating,
// the orphan/foregroundDeletion finalizers the options ask for) and answers it; the namespace
// controller (namespace-controller.ts) then empties it and removes the `kubernetes` finalizer
// through the finalize subresource, whose update deletes it (ShouldDeleteNamespaceDuringUpdate).
// A later delete answers the namespace while spec.finalizers remain, else is Store.Delete.
import type { KubeObject } from '../../engine';
import { deletePreconditions } from './delete-preconditions';
import { propagationForeground, propagationOrphan, type DeleteOptions } from '../delete-options';
import { isDryRun } from './dry-run';
import { admitNamespaceDelete } from '../namespace-lifecycle';
import { formatTime } from '../object-meta';
import type { ServedResource } from '../served-resource';
import {
  finalizerDeleteDependents,
  finalizerOrphanDependents,
  storeDelete,
  type DeleteResult,
  type DeleteStorage,
} from './store-delete';

type Loose = Record<string, unknown>;

function shouldHaveOrphanFinalizer(options: DeleteOptions, have: boolean): boolean {
  if (typeof options.orphanDependents === 'boolean') return options.orphanDependents;
  if (typeof options.propagationPolicy === 'string')
    return options.propagationPolicy === propagationOrphan;
  return have;
}

function shouldHaveDeleteDependentsFinalizer(options: DeleteOptions, have: boolean): boolean {
  if (typeof options.orphanDependents === 'boolean') return !options.orphanDependents;
  if (typeof options.propagationPolicy === 'string')
    return options.propagationPolicy === propagationForeground;
  return have;
}

/** spec.finalizers of a namespace. */
export function specFinalizers(ns: KubeObject): string[] {
  const f = ((ns as unknown as Loose).spec as Loose | undefined)?.finalizers;
  return Array.isArray(f) ? (f as string[]) : [];
}

/**
 * REST.Delete of a namespace. Deliberate difference: the finalizers the options add or remove keep
 * the order they had, orphan before foregroundDeletion (upstream rebuilds them from a Go map).
 */
export async function namespaceDelete(
  served: Omit<ServedResource, 'store'>,
  storage: DeleteStorage,
  options: DeleteOptions,
  now: () => number,
): Promise<DeleteResult> {
  const ns = await storage.get();
  const meta = ns.metadata ?? {};
  const gr = { group: '', resource: 'namespaces' };
  const preconditions = deletePreconditions(gr, meta, options, 'Precondition');
  if (!meta.deletionTimestamp) {
    const out = await storage.guaranteedUpdate((existing) => {
      admitNamespaceDelete(existing.metadata?.name ?? '');
      const m = existing.metadata as unknown as Loose;
      if (!m.deletionTimestamp) m.deletionTimestamp = formatTime(now());
      const o = existing as unknown as Loose;
      const status = (o.status && typeof o.status === 'object' ? o.status : {}) as Loose;
      status.phase = 'Terminating';
      o.status = status;
      const current = Array.isArray(m.finalizers) ? (m.finalizers as string[]) : [];
      const want: Array<[string, boolean]> = [
        [
          finalizerOrphanDependents,
          shouldHaveOrphanFinalizer(options, current.includes(finalizerOrphanDependents)),
        ],
        [
          finalizerDeleteDependents,
          shouldHaveDeleteDependentsFinalizer(options, current.includes(finalizerDeleteDependents)),
        ],
      ];
      if (want.some(([f, should]) => current.includes(f) !== should)) {
        const next = current.filter((f) => want.every(([w]) => w !== f));
        for (const [f, should] of want) if (should) next.push(f);
        if (next.length > 0) m.finalizers = next;
        else delete m.finalizers;
      }
      return existing;
    }, preconditions);
    return { object: out, deleted: false };
  }
  // Prior to the final deletion, spec.finalizers must be empty.
  if (specFinalizers(ns).length !== 0) return { object: ns, deleted: false };
  admitNamespaceDelete(meta.name ?? '');
  return storeDelete(served, { kind: served.kind }, storage, options, now, isDryRun(options));
}
