// Mirrors k8s.io/apiserver pkg/registry/generic/registry/store.go (release-1.36) Store: one per
// served resource, over its engine resource (etcd3 store + watch cache + cacher + delegator). Get,
// List and Watch read through the engine's delegator; Create runs rest.BeforeCreate
// (rest-create.ts) and Storage.Create; Update runs a GuaranteedUpdate whose update function asks
// the caller for the new object (rest.UpdatedObjectInfo: the request's body for PUT, the patch
// applied to the stored object for PATCH), creates it when the strategy allows create on update
// (or the caller forces it, as apply will), checks the resourceVersion, runs rest.BeforeUpdate
// (rest-update.ts) and deletes an object whose update empties its finalizers; Delete and
// DeleteCollection are store-delete.ts's (the namespace REST's Delete for namespaces,
// namespace-storage.ts). Every write goes through dry-run.ts's DryRunnableStorage, so a dry run is
// one flag for every verb (a delete's from its DeleteOptions, as upstream reads it there). Deliberate differences: admission runs in the handler before the
// Store (NamespaceLifecycle is the only plugin, a mutating one, as upstream orders it); the
// storage errors are interpreted by the handler (status.ts), not here; UpdatedObjectInfo's UID
// precondition is not taken from the body; a custom resource's other served versions convert at
// the Store's edge to storage (custom-resource-conversion.ts), where upstream's storage codec does.
import type {
  Clock,
  GroupResource,
  KubeObject,
  ListResult,
  RequestContext,
  RequestSender,
  ResourceListRequest,
  ResourceWatchRequest,
} from '../../engine';
import { APIObjectVersioner, invalid, newInvalid, newNotFound } from '../../engine/http-face';
import { canonicalObject } from '../canonical-object';
import { toServedVersion, toStorageVersion } from '../custom-resource-conversion';
import type { DeleteOptions } from '../delete-options';
import { metadataPath, type RandomSource } from '../object-meta';
import type { ServedResource } from '../served-resource';
import { newOptimisticLockConflict } from '../status';
import { dryRunnableStorage, isDryRun, type ObjectStorage } from './dry-run';
import { namespaceDelete } from './namespace-storage';
import { customResourceDefinitionDelete } from './customresourcedefinition-storage';
import { beforeCreate, cryptoRandom } from './rest-create';
import { ignoreManagedFieldsTimestamps } from './managed-fields-timestamps';
import { beforeUpdate } from './rest-update';
import {
  isNotFound,
  shouldDeleteDuringUpdate,
  storeDelete,
  type DeleteResult,
  type DeleteStrategy,
} from './store-delete';
import { ServiceAllocators } from './service-allocators';
import { deleteStrategyOf, strategyFor } from './strategy-for';
import type { ObjectStrategy } from './strategy';

/** What the Store knows of its resource: everything served but the Store itself. */
export type StoreResource = Omit<ServedResource, 'store'>;

/** The REST whose Delete replaces Store.Delete (the namespace REST's, the CRD REST's), by name. */
export type RESTDelete = 'store' | 'namespace' | 'customresourcedefinition';

export interface StoreOptions {
  /** The server's wall clock: creationTimestamp, deletionTimestamp. */
  clock: Clock;
  /** uids and generated names (default: Node's CSPRNG; seeded in tests). */
  rand?: RandomSource;
  /** CreateStrategy and UpdateStrategy (default: strategy-for.ts's for the resource). */
  strategy?: ObjectStrategy;
  /**
   * The server's Service ClusterIPs and NodePorts, shared by its Stores (ServedResources owns
   * them); default: this Store's own.
   */
  serviceAllocators?: ServiceAllocators;
  /** Store.Delete, or the namespace REST's Delete (default: 'namespace' for core namespaces). */
  restDelete?: RESTDelete;
}

/** What a write is given beyond its object: the request, dryRun, and where warnings go. */
export interface WriteContext {
  /** The engine's context of the request (or the name of the client it stands for). */
  context: RequestSender;
  /** dryrun.IsDryRun(options.DryRun): nothing is written. */
  dryRun?: boolean;
  /** warning.AddWarning: a strategy's WarningsOnCreate/WarningsOnUpdate. */
  warn?: (warning: string) => void;
}

/** Update's further options (rest.Updater's forceAllowCreate). */
export interface UpdateContext extends WriteContext {
  /** Create a missing object even where the strategy does not allow it (server-side apply). */
  forceAllowCreate?: boolean;
}

/**
 * rest.UpdatedObjectInfo.UpdatedObject: the object the client wants, given the stored one (an
 * empty object with no resourceVersion when none is stored and create on update is allowed).
 */
export type UpdatedObjectInfo = (existing: KubeObject) => KubeObject;

/** Store.Update's answer: the object as stored, and whether the update created it. */
export interface UpdateResult {
  object: KubeObject;
  created: boolean;
}

const versioner = new APIObjectVersioner();

// Store.Update's errEmptiedFinalizers, carrying the object the update would have written.
class EmptiedFinalizers extends Error {
  constructor(readonly obj: KubeObject) {
    super('emptied finalizers');
  }
}

/**
 * The resourceVersion rules of Store.Update, given the new object's and the stored object's
 * resourceVersion (0n = none): 'unconditional' when the strategy allows an update without one
 * (the caller stamps the stored RV on the object); a 422 `<resource> "<name>" is invalid:
 * metadata.resourceVersion: Invalid value: 0: must be specified for an update` when it does not;
 * the optimistic-lock 409 for a stale one.
 */
export function checkUpdateResourceVersion(
  strategy: Pick<ObjectStrategy, 'allowUnconditionalUpdate'>,
  qualifiedResource: GroupResource,
  name: string,
  newResourceVersion: bigint,
  existingResourceVersion: bigint,
): 'unconditional' | 'conditional' {
  if (newResourceVersion === 0n) {
    if (strategy.allowUnconditionalUpdate) return 'unconditional';
    // Upstream's TODO: the resource stands in for the kind here.
    throw newInvalid({ group: qualifiedResource.group, kind: qualifiedResource.resource }, name, [
      invalid(metadataPath.child('resourceVersion'), 0, 'must be specified for an update'),
    ]);
  }
  if (newResourceVersion !== existingResourceVersion)
    throw newOptimisticLockConflict(qualifiedResource, name);
  return 'conditional';
}

/** generic/registry.Store for one served resource. */
export class Store {
  /** CreateStrategy: the kind's own. */
  readonly createStrategy: ObjectStrategy;
  /** UpdateStrategy: the kind's own, or a subresource's (withUpdateStrategy). */
  readonly updateStrategy: ObjectStrategy;
  readonly deleteStrategy: DeleteStrategy;
  private readonly clock: Clock;
  private readonly rand: RandomSource;
  private readonly restDelete: RESTDelete;
  /**
   * AfterCreate, AfterUpdate and AfterDelete in one: told the object's name after a write that
   * was not a dry run (the CRD controller hears its CRDs' writes this way).
   */
  afterWrite?: (name: string) => void;

  constructor(
    readonly resource: StoreResource,
    o: StoreOptions,
  ) {
    this.clock = o.clock;
    this.rand = o.rand ?? cryptoRandom;
    this.createStrategy =
      o.strategy ??
      strategyFor(resource, { serviceAllocators: o.serviceAllocators ?? new ServiceAllocators() });
    this.updateStrategy = this.createStrategy;
    this.deleteStrategy = deleteStrategyOf(resource.kind, this.createStrategy);
    this.restDelete =
      o.restDelete ??
      (resource.jsonOnly
        ? 'store'
        : resource.group === '' && resource.resource === 'namespaces'
          ? 'namespace'
          : resource.group === 'apiextensions.k8s.io' &&
              resource.resource === 'customresourcedefinitions'
            ? 'customresourcedefinition'
            : 'store');
  }

  /**
   * The same storage with another UpdateStrategy, as a subresource's REST is built upstream
   * (`statusStore := *store; statusStore.UpdateStrategy = statusStrategy`).
   */
  withUpdateStrategy(strategy: ObjectStrategy): Store {
    const copy = Object.create(Store.prototype) as Store;
    Object.assign(copy, this, { updateStrategy: strategy });
    return copy;
  }

  /** The server's wall clock (the field manager's timestamps). */
  now(): number {
    return this.clock.now();
  }

  private get qualifiedResource(): GroupResource {
    return { group: this.resource.group, resource: this.resource.resource };
  }

  private storage(namespace: string, name: string, w: WriteContext): ObjectStorage {
    return dryRunnableStorage(this.resource, namespace, name, w.context, !!w.dryRun);
  }

  /** Store.Get: resourceVersion "" reads etcd, anything else the watch cache. */
  async get(
    namespace: string,
    name: string,
    resourceVersion: string,
    context: RequestContext,
  ): Promise<KubeObject> {
    const ns = this.resource.namespaced ? namespace : '';
    return this.toServed(
      (await this.resource.engine.get(ns, name, resourceVersion, false, context))!,
    );
  }

  /** Store.List: the delegator decides cache or etcd. */
  async list(request: ResourceListRequest, context: RequestContext): Promise<ListResult> {
    const list = await this.resource.engine.list(request, context);
    if (!this.converts) return list;
    return { ...list, items: list.items.map((o) => this.toServed(o)) };
  }

  /**
   * A custom resource served in a version other than its storage's: the storage codec converts
   * (custom-resource-conversion.ts) what is read to this version and what is written to storage's.
   * A watch's events convert as they are encoded (handlers/watch.ts), per version as upstream's.
   */
  private get converts(): boolean {
    const r = this.resource;
    return r.storageVersion !== undefined && r.storageVersion !== r.version;
  }

  private toServed(obj: KubeObject): KubeObject {
    return this.converts ? toServedVersion(obj, this.resource) : obj;
  }

  private toStorage(obj: KubeObject): KubeObject {
    return this.converts ? toStorageVersion(obj, this.resource) : obj;
  }

  /** Store.Watch: the cacher's watcher. */
  watch(
    request: ResourceWatchRequest,
    context: RequestContext,
  ): ReturnType<StoreResource['engine']['openWatch']> {
    return this.resource.engine.openWatch(request, context);
  }

  /**
   * Store.Create: rest.BeforeCreate (system fields, generateName, namespace, PrepareForCreate,
   * validation, Canonicalize) on the wall clock, then Storage.Create (a dry run: the object as it
   * would be stored, with a uid and no resourceVersion).
   */
  async create(namespace: string, obj: KubeObject, w: WriteContext): Promise<KubeObject> {
    const requestNamespace = this.resource.namespaced ? namespace : '';
    beforeCreate(
      this.createStrategy,
      obj,
      requestNamespace,
      { now: this.clock.now(), rand: this.rand },
      w.warn,
    );
    const created = await this.storage(
      obj.metadata.namespace ?? '',
      obj.metadata.name ?? '',
      w,
    ).create(this.toStorage(obj));
    if (!w.dryRun) this.afterWrite?.(created.metadata.name ?? '');
    return this.toServed(created);
  }

  /**
   * Store.Update: GuaranteedUpdate with `objInfo` asked for the new object each try (its
   * resourceVersion the precondition; none means unconditional where the strategy allows it). A
   * missing object is created when the strategy allows create on update (or `forceAllowCreate`),
   * else NotFound. An update that empties the finalizers of an object being deleted deletes it
   * (deleteWithoutFinalizers: the answer is the updated object). A dry run answers what would be
   * stored.
   */
  async update(
    namespace: string,
    name: string,
    objInfo: UpdatedObjectInfo,
    w: UpdateContext,
  ): Promise<UpdateResult> {
    const strategy = this.updateStrategy;
    const gr = this.qualifiedResource;
    const ns = this.resource.namespaced ? namespace : '';
    const storage = this.storage(ns, name, w);
    const ignoreNotFound = strategy.allowCreateOnUpdate || !!w.forceAllowCreate;
    let created = false;
    try {
      const object = await storage.guaranteedUpdate(
        (stored) => {
          // The update works in the request's version; what it stores is the storage version.
          const existing = this.toServed(stored);
          const existingRV = versioner.objectResourceVersion(existing);
          if (existingRV === 0n && !ignoreNotFound) throw newNotFound(gr, name);
          const obj = structuredClone(objInfo(existing));
          if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
          if (existingRV === 0n) {
            // Create on update: BeforeCreate wipes and fills the system fields as a create does.
            created = true;
            beforeCreate(
              this.createStrategy,
              obj,
              ns,
              { now: this.clock.now(), rand: this.rand },
              w.warn,
            );
            return this.toStorage(obj);
          }
          created = false;
          const mode = checkUpdateResourceVersion(
            strategy,
            gr,
            name,
            versioner.objectResourceVersion(obj),
            existingRV,
          );
          if (mode === 'unconditional') versioner.updateObject(obj, existingRV);
          beforeUpdate(strategy, obj, existing, ns, w.warn);
          // A change of managedFields' timestamps alone is no change.
          ignoreManagedFieldsTimestamps(obj, existing);
          if (shouldDeleteDuringUpdate(this.resource, obj, existing))
            throw new EmptiedFinalizers(canonicalObject(this.resource, obj));
          // The storage clears the resourceVersion it writes (PrepareObjectForStorage); a dry run
          // answers with the one it read, as upstream.
          return this.toStorage(obj);
        },
        {},
        ignoreNotFound,
      );
      if (!w.dryRun) this.afterWrite?.(name);
      return { object: this.toServed(object), created };
    } catch (e) {
      if (!(e instanceof EmptiedFinalizers)) throw e;
      // deleteWithoutFinalizers: racing updates may have deleted it already; either way the client
      // expects the updated object.
      try {
        await storage.delete({});
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (!w.dryRun) this.afterWrite?.(name);
      return { object: e.obj, created: false };
    }
  }

  /**
   * Store.Delete (the namespace REST's Delete for namespaces): finalizers, graceful deletion, the
   * orphan and foregroundDeletion finalizers. `options` may be mutated (BeforeDelete's defaults).
   */
  async delete(
    namespace: string,
    name: string,
    options: DeleteOptions,
    context: RequestSender,
  ): Promise<DeleteResult> {
    const ns = this.resource.namespaced ? namespace : '';
    const dryRun = isDryRun(options);
    const storage = dryRunnableStorage(this.resource, ns, name, context, dryRun);
    const now = (): number => this.clock.now();
    const result =
      this.restDelete === 'namespace'
        ? await namespaceDelete(this.resource, storage, options, now)
        : this.restDelete === 'customresourcedefinition'
          ? await customResourceDefinitionDelete(this.resource, storage, options, now)
          : await storeDelete(this.resource, this.deleteStrategy, storage, options, now, dryRun);
    if (!dryRun) this.afterWrite?.(name);
    return { ...result, object: this.toServed(result.object) };
  }

  /**
   * Store.DeleteCollection: every object the list request selects deleted with its own copy of the
   * options (NotFound ignored); the list as the answer.
   */
  async deleteCollection(
    request: ResourceListRequest,
    options: DeleteOptions,
    context: RequestContext,
  ): Promise<ListResult> {
    const list = await this.list(request, context);
    await this.deleteItems(list.items, options, context);
    return list;
  }

  /** DeleteCollection's workers, one at a time: each item deleted, NotFound ignored. */
  async deleteItems(
    items: readonly KubeObject[],
    options: DeleteOptions,
    context: RequestSender,
  ): Promise<void> {
    for (const item of items) {
      try {
        await this.delete(
          item.metadata.namespace ?? '',
          item.metadata.name ?? '',
          structuredClone(options),
          context,
        );
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }
}
