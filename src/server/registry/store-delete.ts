// Mirrors k8s.io/apiserver pkg/registry/generic/registry/store.go (release-1.36) Store.Delete,
// updateForGracefulDeletionAndFinalizers, markAsDeleting, deletionFinalizersForGarbageCollection
// (shouldOrphanDependents, shouldDeleteDependents), ShouldDeleteDuringUpdate, deleteWithoutFinalizers
// and finalizeDelete, with rest-delete.ts's BeforeDelete, over dry-run.ts's storage.
// Every served resource is such a Store with garbage collection enabled (kube-apiserver's
// default), so Orphan and Foreground add the `orphan` and `foregroundDeletion` finalizers; this server runs no garbage collector, so nothing ever removes
// them but a client. Times are the wall clock, passed in.
import { type Preconditions, StatusError, StorageError, type KubeObject } from '../../engine';
import { ErrCode } from '../../engine/http-face';
import {
  propagationBackground,
  propagationForeground,
  propagationOrphan,
  type DeleteOptions,
} from '../delete-options';
import { isDryRun, type ObjectStorage } from './dry-run';
import { formatTime } from '../object-meta';
import { beforeDelete, timeMs } from './rest-delete';
import type { ServedResource } from '../served-resource';

/** metav1.FinalizerOrphanDependents and FinalizerDeleteDependents. */
export const finalizerOrphanDependents = 'orphan';
export const finalizerDeleteDependents = 'foregroundDeletion';

/** rest.RESTDeleteStrategy: a graceful strategy has CheckGracefulDelete (pods). */
export interface DeleteStrategy {
  /** The kind BeforeDelete's precondition Conflict names. */
  kind: string;
  checkGracefulDelete?(obj: KubeObject, options: DeleteOptions): boolean;
}

/** What a delete answers: the object (or Status) and whether it left storage. */
export interface DeleteResult {
  object: KubeObject;
  deleted: boolean;
}

type Loose = Record<string, unknown>;

function metaOf(obj: KubeObject): Loose {
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  return obj.metadata as unknown as Loose;
}

function finalizersOf(obj: KubeObject): string[] {
  const f = metaOf(obj).finalizers;
  return Array.isArray(f) ? (f as string[]) : [];
}

// shouldOrphanDependents with no GarbageCollectionDeleteStrategy (no served kind has one).
function shouldOrphanDependents(finalizers: readonly string[], options: DeleteOptions): boolean {
  if (options.orphanDependents !== undefined && options.orphanDependents !== null)
    return options.orphanDependents;
  const policy = options.propagationPolicy;
  if (policy === propagationOrphan) return true;
  if (policy === propagationBackground || policy === propagationForeground) return false;
  for (const f of finalizers) {
    if (f === finalizerOrphanDependents) return true;
    if (f === finalizerDeleteDependents) return false;
  }
  return false;
}

function shouldDeleteDependents(finalizers: readonly string[], options: DeleteOptions): boolean {
  if (options.orphanDependents !== undefined && options.orphanDependents !== null) return false;
  const policy = options.propagationPolicy;
  if (policy === propagationForeground) return true;
  if (policy === propagationBackground || policy === propagationOrphan) return false;
  for (const f of finalizers) {
    if (f === finalizerDeleteDependents) return true;
    if (f === finalizerOrphanDependents) return false;
  }
  return false;
}

/**
 * deletionFinalizersForGarbageCollection: the object's finalizers with `orphan` and
 * `foregroundDeletion` as the options (or the object's own) ask, and whether that changes the set.
 */
export function deletionFinalizersForGarbageCollection(
  finalizers: readonly string[],
  options: DeleteOptions,
): { changed: boolean; finalizers: string[] } {
  const next = finalizers.filter(
    (f) => f !== finalizerOrphanDependents && f !== finalizerDeleteDependents,
  );
  if (shouldOrphanDependents(finalizers, options)) next.push(finalizerOrphanDependents);
  if (shouldDeleteDependents(finalizers, options)) next.push(finalizerDeleteDependents);
  const before = new Set(finalizers);
  const after = new Set(next);
  const same = before.size === after.size && [...before].every((f) => after.has(f));
  return same
    ? { changed: false, finalizers: [...finalizers] }
    : { changed: true, finalizers: next };
}

/**
 * markAsDeleting: deletionGracePeriodSeconds 0, deletionTimestamp now unless an earlier one is
 * set, and the generation bump of kinds without graceful deletion.
 */
export function markAsDeleting(obj: KubeObject, now: number): void {
  const meta = metaOf(obj);
  const existing = timeMs(meta.deletionTimestamp);
  const generation = meta.generation as number | undefined;
  if (existing === undefined && generation !== undefined && generation > 0)
    meta.generation = generation + 1;
  if (existing === undefined || existing > now) meta.deletionTimestamp = formatTime(now);
  meta.deletionGracePeriodSeconds = 0;
}

/**
 * ShouldDeleteDuringUpdate: the update leaves no finalizers on an object already being deleted
 * with no grace period left (a namespace also needs empty spec.finalizers:
 * ShouldDeleteNamespaceDuringUpdate).
 */
export function shouldDeleteDuringUpdate(
  served: Pick<ServedResource, 'jsonOnly' | 'resource'>,
  obj: KubeObject,
  existing: KubeObject,
): boolean {
  if (finalizersOf(obj).length > 0) return false;
  const old = metaOf(existing);
  if (old.deletionTimestamp === undefined || old.deletionTimestamp === null) return false;
  const grace = old.deletionGracePeriodSeconds;
  if (!(grace === undefined || grace === null || grace === 0)) return false;
  if (!served.jsonOnly && served.resource === 'namespaces') {
    const spec = (obj as unknown as Loose).spec as Loose | undefined;
    const f = spec?.finalizers;
    return !Array.isArray(f) || f.length === 0;
  }
  return true;
}

/**
 * finalizeDelete: the deleted object for stores with ReturnDeletedObject (pods, namespaces),
 * otherwise a Success Status naming it (configmaps, custom resources).
 */
export function finalizeDelete(served: Omit<ServedResource, 'store'>, obj: KubeObject): KubeObject {
  if (served.returnDeletedObject) return obj;
  const details: Record<string, string> = { name: obj.metadata?.name ?? '' };
  if (served.group) details.group = served.group;
  details.kind = served.resource;
  if (obj.metadata?.uid) details.uid = obj.metadata.uid;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details,
  } as KubeObject;
}

/** The storage a delete writes through (dry-run.ts: a dry run reads and never writes). */
export type DeleteStorage = Pick<ObjectStorage, 'get' | 'guaranteedUpdate' | 'delete'>;

// The update function's early exits (errDeleteNow, errAlreadyDeleting).
const errDeleteNow = new Error('delete now');
const errAlreadyDeleting = new Error('abort delete');

/** storage.IsNotFound, or an apierrors NotFound. */
export function isNotFound(e: unknown): boolean {
  if (e instanceof StorageError) return e.code === ErrCode.KeyNotFound;
  return e instanceof StatusError && e.status.code === 404;
}

function toPreconditions(options: DeleteOptions): Preconditions {
  const p: Preconditions = {};
  const o = options.preconditions;
  if (o?.uid !== undefined && o.uid !== null) p.uid = o.uid;
  if (o?.resourceVersion !== undefined && o.resourceVersion !== null)
    p.resourceVersion = o.resourceVersion;
  return p;
}

/**
 * Store.Delete: BeforeDelete on the current object; a pending graceful deletion answers it as is;
 * finalizers (present, or added for Orphan/Foreground) and graceful periods become an update that
 * marks the object as deleting and leaves it; everything else is deleted from storage.
 * `options` may be mutated (BeforeDelete's defaults), as upstream's are.
 */
export async function storeDelete(
  served: Omit<ServedResource, 'store'>,
  strategy: DeleteStrategy,
  storage: DeleteStorage,
  options: DeleteOptions,
  now: () => number,
  dryRun = isDryRun(options),
): Promise<DeleteResult> {
  const obj = await storage.get();
  const preconditions = toPreconditions(options);
  const { graceful, gracefulPending } = beforeDelete(strategy, obj, options, now());
  // Finalizers cannot be changed through DeleteOptions once a deletion is pending.
  if (gracefulPending) return { object: finalizeDelete(served, obj), deleted: false };
  const pendingFinalizers = finalizersOf(obj).length !== 0;
  const { changed: shouldUpdateFinalizers } = deletionFinalizersForGarbageCollection(
    finalizersOf(obj),
    options,
  );
  let ignoreNotFound = false;
  let deleteImmediately = true;
  let lastExisting: KubeObject | undefined;
  let out: KubeObject | undefined;
  if (graceful || pendingFinalizers || shouldUpdateFinalizers) {
    // updateForGracefulDeletionAndFinalizers.
    let lastGraceful = 0;
    let pending = false;
    try {
      out = await storage.guaranteedUpdate((existing) => {
        const g = beforeDelete(strategy, existing, options, now());
        if (g.gracefulPending) throw errAlreadyDeleting;
        const gc = deletionFinalizersForGarbageCollection(finalizersOf(existing), options);
        if (gc.changed) {
          if (gc.finalizers.length > 0) metaOf(existing).finalizers = gc.finalizers;
          else delete metaOf(existing).finalizers;
        }
        pending = finalizersOf(existing).length !== 0;
        if (!g.graceful) {
          if (!pending) throw errDeleteNow;
          markAsDeleting(existing, now());
          return existing;
        }
        lastGraceful = options.gracePeriodSeconds ?? 0;
        lastExisting = existing;
        return existing;
      }, preconditions);
      if (pending || lastGraceful > 0) deleteImmediately = false;
      // Deleting gracelessly races other components (kubernetes#19403): tolerate NotFound.
      else ignoreNotFound = true;
    } catch (e) {
      if (e === errAlreadyDeleting) return { object: finalizeDelete(served, obj), deleted: false };
      if (e !== errDeleteNow) throw e;
    }
    if (deleteImmediately && preconditions.resourceVersion !== undefined && out)
      preconditions.resourceVersion = out.metadata?.resourceVersion ?? '';
  }
  if (!deleteImmediately) return { object: out!, deleted: false };
  if (dryRun && out) return { object: out, deleted: true };
  try {
    const deleted = await storage.delete(preconditions);
    return { object: finalizeDelete(served, deleted), deleted: true };
  } catch (e) {
    if (isNotFound(e) && ignoreNotFound && lastExisting)
      return { object: finalizeDelete(served, lastExisting), deleted: true };
    throw e;
  }
}
