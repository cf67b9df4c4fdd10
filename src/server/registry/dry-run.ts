// Mirrors k8s.io/apiserver pkg/registry/generic/registry/dryrun.go (release-1.36) DryRunnableStorage
// and pkg/util/dryrun IsDryRun: the one place that knows a dry run does not write. Create, update,
// patch and delete all reach the engine through it with the request's dryRun (store.go passes
// dryrun.IsDryRun(options.DryRun) for every verb). A dry run reads the current object as upstream
// does (Storage.Get, a read of etcd) and answers what would be stored: no write, so no new
// revision, no watch event.
import type { RequestSender, Preconditions, KubeObject } from '../../engine';
import { newAlreadyExists, newInvalidObjError } from '../../engine/http-face';
import { canonicalObject } from '../canonical-object';
import type { ServedResource } from '../served-resource';

/** dryrun.IsDryRun: any dryRun value (validation has made each one "All"). */
export function isDryRun(options: { dryRun?: readonly string[] | null }): boolean {
  return (options.dryRun ?? []).length > 0;
}

/** The storage of one object the registry writes through (its key fixed). */
export interface ObjectStorage {
  get(): Promise<KubeObject>;
  /** Storage.Create: KeyExists when the key is taken; the object as stored. */
  create(obj: KubeObject): Promise<KubeObject>;
  /**
   * GuaranteedUpdate; with ignoreNotFound a missing object reaches tryUpdate as an empty one (no
   * resourceVersion), for create on update.
   */
  guaranteedUpdate(
    tryUpdate: (existing: KubeObject) => KubeObject,
    preconditions: Preconditions,
    ignoreNotFound?: boolean,
  ): Promise<KubeObject>;
  delete(preconditions: Preconditions): Promise<KubeObject>;
}

/**
 * The served resource's engine as the storage of one object (what it writes in Go's field order,
 * canonicalObject), or, for a dry run, DryRunnableStorage's reads that stand in for each write.
 */
export function dryRunnableStorage(
  served: Omit<ServedResource, 'store'>,
  namespace: string,
  name: string,
  by: RequestSender,
  dryRun: boolean,
): ObjectStorage {
  const engine = served.engine;
  const key = engine.objectKey(namespace, name);
  // What is stored is in the storage version (a custom resource's other versions convert).
  const stored = served.storageVersion ? { ...served, version: served.storageVersion } : served;
  const get = async (): Promise<KubeObject> =>
    (await engine.get(namespace, name, '', false, by)) as KubeObject;
  if (!dryRun)
    return {
      get,
      create: (obj) => engine.create(canonicalObject(stored, obj), by),
      guaranteedUpdate: (tryUpdate, p, ignoreNotFound = false) =>
        engine.update(namespace, name, (o) => canonicalObject(stored, tryUpdate(o)), by, {
          preconditions: p,
          ignoreNotFound,
        }),
      delete: (p) => engine.delete(namespace, name, by, p),
    };
  return {
    get,
    async create(obj) {
      // Any failure to read (not found, or anything else) lets the dry run answer, as upstream.
      let existing: KubeObject | undefined;
      try {
        existing = await get();
      } catch {
        existing = undefined;
      }
      // KeyExists as the registry interprets it (storeerr.InterpretCreateError), as the engine's
      // own Create answers it.
      if (existing !== undefined)
        throw newAlreadyExists({ group: served.group, resource: served.resource }, name);
      // copyInto: the answer shares nothing with the request's object.
      return canonicalObject(stored, structuredClone(obj));
    },
    async guaranteedUpdate(tryUpdate, p, ignoreNotFound = false) {
      const current = ignoreNotFound
        ? ((await engine.get(namespace, name, '', true, by)) ?? { metadata: {} })
        : await get();
      checkPreconditions(key, current, p);
      return canonicalObject(stored, tryUpdate(structuredClone(current)));
    },
    async delete(p) {
      const current = await get();
      checkPreconditions(key, current, p);
      return current;
    },
  };
}

/** storage.Preconditions.Check. */
function checkPreconditions(key: string, obj: KubeObject, p: Preconditions): void {
  const uid = obj.metadata?.uid ?? '';
  const rv = obj.metadata?.resourceVersion ?? '';
  if (p.uid !== undefined && p.uid !== uid)
    throw newInvalidObjError(
      key,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${uid}`,
    );
  if (p.resourceVersion !== undefined && p.resourceVersion !== rv)
    throw newInvalidObjError(
      key,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${rv}`,
    );
}
