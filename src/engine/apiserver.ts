// The composition root: one resource of a kube-apiserver as k8s.io/apiserver release-1.36 builds it
// (pkg/registry/generic/registry/storage_factory.go StorageWithCacher: etcd3 store + Cacher +
// CacheDelegator), over an in-memory etcd, plus what the HTTP layer adds to a request
// (pkg/endpoints/handlers/get.go: the watch timeout, WatchList defaulting; the request context
// every request carries) and modelled clients. No upstream counterpart as one file. Everything runs
// on the injected Clock and seeded randomness.
import type { GroupResource } from './storage/group-resource';
import { FakeClock, settle, type Clock } from './clock';
import { MemoryEtcd, type MemoryEtcdOptions } from './etcd/memory-etcd';
import type { EtcdMember } from './etcd/etcd-member';
import { RequestRecorder } from './etcd/request-recorder';
import {
  EtcdStore,
  type GuaranteedUpdateOptions,
  type ListResult,
  type Preconditions,
  type StorageCodec,
} from './etcd3/store';
import type { EventSink } from './inspect/events';
import { MetricsRegistry } from './metrics/registry';
import { SeededRandom } from './rand';
import {
  defaultClient,
  RequestContexts,
  type HttpMethod,
  type RequestContext,
} from './request/request-context';
import { collectionPath, objectPath, requestPath } from './request/request-path';
import { isPathSegmentName } from './storage/keys';
import { watchResultChan } from './etcd3/watch-result-chan';
import {
  newListOptions,
  toStorageListOptions,
  type GetListOptions,
  type ListOptions,
} from './storage/list-options';
import {
  makePod,
  PodGenerator,
  type KubeObject,
  type Pod,
  type PodOptions,
} from './storage/objects';
import { SelectionPredicate } from './storage/selection-predicate';
import { CacheDelegator } from './cacher/delegator';
import {
  Cacher,
  watchRequestTimeout,
  type CacherConfig,
  type IndexedTrigger,
} from './cacher/cacher';
import type { WatchInterface } from './cacher/watch';
import { CacheWatcher } from './cacher/cache-watcher';
import { WatcherIds } from './cacher/watcher-ids';
import { profile136, withGates, type FeatureGates, type SemanticsProfile } from './features';
import {
  WatchClient,
  WatchRequestContext,
  type ClientWatchEvent,
  type ReadRate,
  type WatchClientCloseReason,
  type WatchContentType,
} from './clients/watch-client';
import type { WatchCache } from './cacher/watch-cache';
import type { Indexers } from './cacher/watch-cache-store';

/** kube-apiserver's --min-request-timeout default (seconds): watches last 30–60 min without timeoutSeconds. */
export const defaultMinRequestTimeoutSeconds = 1800;

export interface CacheOptions {
  /** EventsHistoryWindow (ms, >= 75s). */
  eventFreshDuration?: number;
  /** How often watchers get a periodic bookmark (ms, default 1 minute). */
  bookmarkFrequency?: number;
  /** The dispatch trigger (pods: spec.nodeName); null for none. */
  indexedTrigger?: IndexedTrigger | null;
  /** List indexes (pods: f:spec.nodeName); {} for none. */
  indexers?: Indexers<KubeObject>;
  /** etcd answers progress requests (consistent reads from cache need it); default true. */
  requestWatchProgressSupported?: boolean;
  /** The reflector's page size (10000). */
  listPageSize?: number;
  /**
   * The cacher's optimisations beside upstream's dispatch (in-place delivery, watcher runs); off,
   * every event takes upstream's path. Default true; either way every count is the same.
   */
  fastPaths?: boolean;
}

export interface CreateResourceOptions {
  clock: Clock;
  /** The root of every random choice (bookmark jitter, watch deadlines, generated pods). */
  rand: SeededRandom;
  /** Semantics (default release-1.36). */
  profile?: SemanticsProfile;
  /** Gate overrides on top of the profile. */
  gates?: Partial<FeatureGates>;
  /** Allow changing locked gates (as upstream tests do with an emulated older version). */
  allowLockedGateOverride?: boolean;
  /** Default: core pods. */
  groupResource?: GroupResource;
  /**
   * The resource has a watch cache (default true). False: its watch cache size is 0, as
   * kube-apiserver's DefaultWatchCacheSizes sets for events, so its registry storage is
   * UndecoratedStorage: no cacher, no delegator, every LIST, GET and WATCH goes to the etcd3 store.
   */
  watchCache?: boolean;
  /**
   * The resource lives in namespaces (the registry's KeyFunc is NamespaceKeyFunc; false:
   * NoNamespaceKeyFunc, as for namespaces and nodes). Default true.
   */
  namespaced?: boolean;
  /** An etcd to share between resources, or options for a new one. */
  etcd?: EtcdMember | Omit<MemoryEtcdOptions, 'clock'>;
  /** apiserver --etcd-prefix (default /registry). */
  pathPrefix?: string;
  /** The resource's keys under pathPrefix (default `/<resource>`; custom resources `/<group>/<resource>`). */
  resourcePrefix?: string;
  /** The resource's empty object (NewFunc): what bookmark events carry (default: by groupResource). */
  newFunc?: () => KubeObject;
  /** The storage codec's conversion, for a resource stored in another version than served. */
  codec?: StorageCodec;
  cache?: CacheOptions;
  /** --min-request-timeout (seconds, default 1800): watches without timeoutSeconds end after [1×, 2×) of it. */
  minRequestTimeoutSeconds?: number;
  eventSink?: EventSink;
  metrics?: MetricsRegistry;
  /** The apiserver's request ids: one sequence for all its resources (default: a new one). */
  requests?: RequestContexts;
  /** The run's watcher ids: one sequence for all its resources and restarts (default: a new one). */
  watcherIds?: WatcherIds;
  /** Keep every etcd request in `recorder` (default false: it grows without bound). */
  recordEtcdRequests?: boolean;
  /** klog sink. */
  log?: (message: string) => void;
}

/** A list request as a client sends it (query parameters). */
export interface ResourceListRequest {
  /** Namespace of the request path; absent = all namespaces. */
  namespace?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

/** A watch request as a client sends it, and the client that reads it. */
export interface ResourceWatchRequest {
  namespace?: string;
  /** A single object's name: a metadata.name field selector, on the object's key when `namespace` is given. */
  name?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  labelSelector?: string;
  fieldSelector?: string;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
  /** SetListOptionsDefaults (WatchList on): RV ""/"0" watches become watch-lists. Default true. */
  applyDefaults?: boolean;
  readRate?: ReadRate;
  contentType?: WatchContentType;
  /** Keep every received event in client.events (default true). */
  keepEvents?: boolean;
  onEvent?: (event: ClientWatchEvent) => void;
  onClose?: (reason: WatchClientCloseReason, at: number) => void;
}

/** An open watch: the server-side watcher and the modelled client reading it. */
export interface OpenedWatch {
  client: WatchClient;
  watcher: WatchInterface;
  /** The cacher's watcher id; undefined for an error or immediately closed watch. */
  watcherId: number | undefined;
  /** The watch request's context (its id is the watcher's creating request). */
  request: RequestContext;
  ctx: WatchRequestContext;
  timeoutMs: number;
  /** The storage options after defaulting. */
  options: ListOptions;
}

/** A watch as openWatch opens it: the cacher's watcher and the request's deadline. */
export interface ServedWatch {
  watcher: WatchInterface;
  request: RequestContext;
  ctx: WatchRequestContext;
  timeoutMs: number;
  /** The storage options after defaulting. */
  options: ListOptions;
}

/**
 * Who sends a request: a client name (the User-Agent; a context with the request line the call
 * implies is made for it), or the request's own context (an HTTP face makes it from the request).
 */
export type RequestSender = string | RequestContext;

/**
 * One resource of an apiserver: etcd, the etcd3 store, the watch cache and its cacher, and the
 * delegator in front of them, sharing one metrics registry and one event sink. Every request
 * entering it carries a RequestContext whose id tags the engine events it causes.
 */
export class Resource<E extends EtcdMember = MemoryEtcd> {
  readonly clock: Clock;
  readonly profile: SemanticsProfile;
  readonly gates: FeatureGates;
  readonly groupResource: GroupResource;
  /** Namespace-scoped (NamespaceKeyFunc) or cluster-scoped (NoNamespaceKeyFunc). */
  readonly namespaced: boolean;
  /**
   * The registry's storage is the cacher (StorageWithCacher); false: the etcd3 store itself
   * (UndecoratedStorage). The cacher is then built but never started, and no request reaches it.
   */
  readonly watchCacheEnabled: boolean;
  /** e.g. `/pods`. */
  readonly resourcePrefix: string;
  readonly etcd: E;
  readonly store: EtcdStore;
  readonly metrics: MetricsRegistry;
  readonly eventSink: EventSink | undefined;
  readonly requests: RequestContexts;
  readonly recorder: RequestRecorder | undefined;
  /** Deterministic pods (own random stream). */
  readonly pods: PodGenerator;
  readonly minRequestTimeoutMs: number;
  private readonly watchRand: SeededRandom;
  private readonly ownsEtcd: boolean;
  /** What every cacher of this resource is built from (a restart builds another). */
  private readonly cacherConfig: CacherConfig;
  /** The cacher's random streams; a restart draws the next cacher's from them. */
  private cacherRand: SeededRandom;
  private dispatchOrderRand: SeededRandom;
  private consistencyCheckRand: SeededRandom;
  private currentCacher: Cacher;
  private currentDelegator: CacheDelegator;
  private readonly watches: OpenedWatch[] = [];
  private readonly predicates = new Map<string, SelectionPredicate>();

  constructor(o: CreateResourceOptions) {
    if (!o || !o.clock)
      throw new TypeError('createResource: options.clock (e.g. new FakeClock()) is required');
    if (!(o.rand instanceof SeededRandom))
      throw new TypeError('createResource: options.rand must be a SeededRandom');
    this.clock = o.clock;
    const base = o.profile ?? profile136;
    const overrides = Object.fromEntries(
      Object.entries(o.gates ?? {}).filter(([, v]) => v !== undefined),
    ) as Record<keyof FeatureGates, boolean>;
    this.profile = Object.keys(overrides).length
      ? withGates(base, overrides, { allowLockedOverride: o.allowLockedGateOverride })
      : base;
    this.gates = this.profile.gates;
    this.groupResource = o.groupResource ?? { group: '', resource: 'pods' };
    this.namespaced = o.namespaced ?? true;
    this.watchCacheEnabled = o.watchCache ?? true;
    this.resourcePrefix = o.resourcePrefix ?? `/${this.groupResource.resource}`;
    this.metrics = o.metrics ?? new MetricsRegistry();
    this.eventSink = o.eventSink;
    this.requests = o.requests ?? new RequestContexts();
    this.minRequestTimeoutMs =
      (o.minRequestTimeoutSeconds ?? defaultMinRequestTimeoutSeconds) * 1000;
    // Independent streams, drawn in a fixed order: adding a watch does not shift bookmark jitter.
    const derive = (): SeededRandom => new SeededRandom(o.rand.intn(4294967296));
    this.cacherRand = derive();
    this.watchRand = derive();
    const podRand = derive();
    const storeRand = derive();
    this.dispatchOrderRand = derive();
    this.consistencyCheckRand = derive();

    if (isEtcdMember(o.etcd)) {
      this.etcd = o.etcd as E;
      this.ownsEtcd = false;
    } else {
      // Without a member of its own the resource makes an in-memory one: E is MemoryEtcd then.
      this.etcd = new MemoryEtcd({ ...(o.etcd ?? {}), clock: this.clock }) as unknown as E;
      this.ownsEtcd = true;
    }
    if (o.recordEtcdRequests) {
      this.recorder = new RequestRecorder();
      this.etcd.addRequestListener(this.recorder.record);
    }
    this.store = new EtcdStore({
      etcd: this.etcd,
      clock: this.clock,
      groupResource: this.groupResource,
      pathPrefix: o.pathPrefix,
      // The registry's prefix (a CRD's is group/resource): GetCurrentResourceVersion lists it.
      resourcePrefix: this.resourcePrefix,
      metrics: this.metrics,
      kubernetesVersion: this.profile.kubernetesVersion,
      features: { EtcdRangeStream: this.gates.EtcdRangeStream, WatchList: this.gates.WatchList },
      eventSink: this.eventSink,
      random: storeRand,
      newFunc: o.newFunc,
      codec: o.codec,
    });
    const pods = this.groupResource.group === '' && this.groupResource.resource === 'pods';
    const c = o.cache ?? {};
    const trigger =
      c.indexedTrigger === null
        ? undefined
        : (c.indexedTrigger ?? (pods ? nodeNameTrigger : undefined));
    const indexers = c.indexers ?? (pods ? nodeNameIndexers : {});
    this.cacherConfig = {
      storage: this.store,
      groupResource: this.groupResource,
      eventsHistoryWindow: c.eventFreshDuration,
      resourcePrefix: this.resourcePrefix,
      indexedTrigger: trigger,
      indexers,
      clock: this.clock,
      rand: this.cacherRand,
      dispatchOrderRand: this.dispatchOrderRand,
      gates: this.gates,
      requestWatchProgressSupported: c.requestWatchProgressSupported,
      compactRevision: () => this.etcd.compactRevision(),
      // Without a watch cache there is no cacher upstream: none of its series (watch_cache_capacity…).
      metrics: this.watchCacheEnabled ? this.metrics : undefined,
      kubernetesVersion: this.profile.kubernetesVersion,
      eventSink: this.eventSink,
      bookmarkFrequency: c.bookmarkFrequency,
      listPageSize: c.listPageSize,
      fastPaths: c.fastPaths,
      newFunc: o.newFunc,
      requests: this.requests,
      // A restart's new cacher takes the same config: its watchers do not reuse the old ids.
      watcherIds: o.watcherIds ?? new WatcherIds(),
      log: o.log,
    };
    this.currentCacher = new Cacher(this.cacherConfig);
    this.currentDelegator = this.newDelegator(this.currentCacher);
    this.pods = new PodGenerator(podRand, this.clock);
  }

  /** The cacher serving the resource now (a restart replaces it). */
  get cacher(): Cacher {
    return this.currentCacher;
  }

  get watchCache(): WatchCache<KubeObject> {
    return this.currentCacher.watchCache;
  }

  get delegator(): CacheDelegator {
    return this.currentDelegator;
  }

  private newDelegator(cacher: Cacher): CacheDelegator {
    return new CacheDelegator(cacher, this.store, {
      eventSink: this.eventSink,
      consistencyCheckRand: this.consistencyCheckRand,
    });
  }

  /** Starts the cacher (list, watch, dispatch); an undecorated resource has nothing to start. */
  start(): void {
    if (this.watchCacheEnabled) this.cacher.start();
  }

  /**
   * What an apiserver restart does to the resource (a fault hook): the cacher stops (every watch
   * ends, requests in flight get `apiserver cacher is stopped`) and a new one, with its own random
   * streams drawn from the old one's, starts over the same etcd: unready until it has listed.
   */
  restart(): void {
    if (!this.watchCacheEnabled) return;
    this.currentDelegator.stop();
    this.currentCacher.stop();
    this.cacherRand = new SeededRandom(this.cacherRand.intn(4294967296));
    this.dispatchOrderRand = new SeededRandom(this.dispatchOrderRand.intn(4294967296));
    this.consistencyCheckRand = new SeededRandom(this.consistencyCheckRand.intn(4294967296));
    this.currentCacher = new Cacher({
      ...this.cacherConfig,
      rand: this.cacherRand,
      dispatchOrderRand: this.dispatchOrderRand,
    });
    this.currentDelegator = this.newDelegator(this.currentCacher);
    this.currentCacher.start();
  }

  /** Stops the consistency checks and the cacher (every watch ends) and, if this resource created it, etcd. */
  stop(): void {
    this.delegator.stop();
    this.cacher.stop();
    if (this.ownsEtcd) this.etcd.close();
  }

  /** Resolves once the watch cache is initialised (rejects after stop); at once without one. */
  waitReady(): Promise<void> {
    return this.watchCacheEnabled ? this.cacher.waitReady() : Promise.resolve();
  }

  /** Lets queued work at the current virtual instant run (promise continuations). */
  async settle(): Promise<void> {
    await settle();
    await settle();
  }

  /** Moves a FakeClock forward, running everything that is due on the way. */
  async step(ms: number): Promise<void> {
    if (!(this.clock instanceof FakeClock))
      throw new TypeError('step: the resource was not created with a FakeClock');
    await this.clock.stepAsync(ms);
    await this.settle();
  }

  /** Emits the engine events aggregated at the current instant (encodes, bucket schedules). */
  flushEvents(): void {
    this.cacher.flushEvents();
  }

  // ------------------------------------------------------------ keys

  /** The storage key of an object (`/pods/ns/name`), as the registry computes it. */
  objectKey(namespace: string, name: string): string {
    return namespace
      ? `${this.resourcePrefix}/${namespace}/${name}`
      : `${this.resourcePrefix}/${name}`;
  }

  /** The key of a collection (`/pods/ns` or `/pods`). */
  collectionKey(namespace?: string): string {
    return namespace ? `${this.resourcePrefix}/${namespace}` : this.resourcePrefix;
  }

  /**
   * store.go ListPredicate and WatchPredicate: a predicate that names one object (MatchesSingle)
   * reads that object's key alone (Recursive: false) where KeyFunc can build the key:
   * NamespaceKeyFunc needs the request's namespace, NoNamespaceKeyFunc does not, and both refuse
   * a name that is not a path segment. Undefined: the optimisation is skipped (a recursive read).
   */
  singleObjectKey(
    namespace: string | undefined,
    predicate: SelectionPredicate,
  ): string | undefined {
    const name = predicate.matchesSingle();
    if (name === undefined || name === '' || !isPathSegmentName(name)) return undefined;
    if (!this.namespaced) return this.objectKey('', name);
    return namespace ? this.objectKey(namespace, name) : undefined;
  }

  // ------------------------------------------------------------ request contexts

  /** The context of a LIST of `req` by `client`: `GET /api/v1/namespaces/ns/pods?limit=…`. */
  listContext(req: ResourceListRequest = {}, client = defaultClient): RequestContext {
    return this.requests.newContext(
      client,
      'GET',
      requestPath(this.groupResource, req.namespace, req, false),
    );
  }

  /** The context of a WATCH of `req` by `client` (a named watch selects metadata.name, as client-go sends it). */
  watchContext(req: ResourceWatchRequest = {}, client = defaultClient): RequestContext {
    const query = req.name
      ? {
          ...req,
          fieldSelector: [req.fieldSelector, `metadata.name=${req.name}`].filter(Boolean).join(','),
        }
      : req;
    return this.requests.newContext(
      client,
      'GET',
      requestPath(this.groupResource, req.namespace, query, true),
    );
  }

  /** `sender`'s context, or a new one for the client it names with this request line. */
  private contextOf(sender: RequestSender, method: HttpMethod, path: string): RequestContext {
    return typeof sender === 'string' ? this.requests.newContext(sender, method, path) : sender;
  }

  // ------------------------------------------------------------ writes (to etcd, through the store)

  /** Creates an object (no resourceVersion); resolves with it as stored (with its RV). */
  create(obj: KubeObject, by: RequestSender = defaultClient): Promise<KubeObject> {
    const ns = obj.metadata?.namespace ?? '';
    const name = obj.metadata?.name ?? '';
    if (!name) return Promise.reject(new TypeError('create: metadata.name is required'));
    const ctx = this.contextOf(by, 'POST', collectionPath(this.groupResource, ns));
    return this.store.create(this.objectKey(ns, name), obj, ctx);
  }

  /** Creates a pod from options (or a Pod), namespace "default" unless given. */
  createPod(pod: PodOptions | Pod, by: RequestSender = defaultClient): Promise<KubeObject> {
    const p = 'metadata' in pod ? pod : makePod({ namespace: 'default', ...pod });
    return this.create(p, by);
  }

  /** GuaranteedUpdate: `mutate` gets a copy of the current object and returns (or edits) the new one. */
  update(
    namespace: string,
    name: string,
    mutate: (obj: KubeObject) => KubeObject | void,
    by: RequestSender = defaultClient,
    opts: GuaranteedUpdateOptions = {},
  ): Promise<KubeObject> {
    const ctx = this.contextOf(by, 'PUT', objectPath(this.groupResource, namespace, name));
    return this.store.guaranteedUpdate(
      this.objectKey(namespace, name),
      (cur) => {
        const next = mutate(cur);
        return next ?? cur;
      },
      opts,
      ctx,
    );
  }

  /** Sets an object's labels (replacing them); resolves with the stored object. */
  setLabels(
    namespace: string,
    name: string,
    labels: Record<string, string>,
    by: RequestSender = defaultClient,
  ): Promise<KubeObject> {
    return this.update(
      namespace,
      name,
      (obj) => {
        const sorted = Object.keys(labels).sort();
        const meta = obj.metadata as Record<string, unknown>;
        if (sorted.length === 0) delete meta.labels;
        else meta.labels = Object.fromEntries(sorted.map((k) => [k, labels[k]]));
      },
      by,
    );
  }

  /** Deletes an object; resolves with its last state at the delete's RV. */
  delete(
    namespace: string,
    name: string,
    by: RequestSender = defaultClient,
    preconditions?: Preconditions,
  ): Promise<KubeObject> {
    const ctx = this.contextOf(by, 'DELETE', objectPath(this.groupResource, namespace, name));
    return this.store.delete(this.objectKey(namespace, name), { preconditions }, ctx);
  }

  /** Compacts etcd's history before `revision` (default: the current revision). */
  async compact(revision?: number): Promise<number> {
    const rev = revision ?? this.etcd.currentRevision();
    await this.etcd.compaction({ revision: rev });
    return rev;
  }

  // ------------------------------------------------------------ reads (through the delegator)

  /** The storage list options of a LIST of the collection (recursive, the request's selectors). */
  listOptionsOf(req: ResourceListRequest): GetListOptions {
    return {
      resourceVersion: req.resourceVersion ?? '',
      resourceVersionMatch: req.resourceVersionMatch ?? '',
      recursive: true,
      predicate: {
        label: req.labelSelector,
        field: req.fieldSelector,
        limit: req.limit,
        continue: req.continue,
      },
    };
  }

  /**
   * A LIST as the registry makes it (ListPredicate: one object's key when the field selector names
   * it, else the collection's); the delegator decides cache or etcd.
   */
  list(req: ResourceListRequest = {}, by: RequestSender = defaultClient): Promise<ListResult> {
    const request = typeof by === 'string' ? this.listContext(req, by) : by;
    let opts: ListOptions;
    try {
      opts = toStorageListOptions(this.listOptionsOf(req), this.groupResource.resource);
    } catch (e) {
      return Promise.reject(e);
    }
    const single = this.singleObjectKey(req.namespace, opts.predicate);
    const key = single ?? this.collectionKey(req.namespace);
    const listOpts = single === undefined ? opts : { ...opts, recursive: false };
    if (!this.watchCacheEnabled) return this.store.getList(key, listOpts, request);
    return this.delegator.getList(key, listOpts, { requestNamespace: req.namespace, request });
  }

  /** A GET: resourceVersion "" reads etcd, anything else the cache. */
  get(
    namespace: string,
    name: string,
    resourceVersion = '',
    ignoreNotFound = false,
    by: RequestSender = defaultClient,
  ): Promise<KubeObject | undefined> {
    const query = resourceVersion ? `?resourceVersion=${encodeURIComponent(resourceVersion)}` : '';
    const ctx = this.contextOf(by, 'GET', objectPath(this.groupResource, namespace, name) + query);
    if (!this.watchCacheEnabled)
      return this.store.get(
        this.objectKey(namespace, name),
        { resourceVersion, ignoreNotFound },
        ctx,
      );
    return this.delegator.get(
      this.objectKey(namespace, name),
      { resourceVersion, ignoreNotFound },
      ctx,
    );
  }

  /**
   * A WATCH with a modelled client: the handler's timeout (timeoutSeconds, else random in
   * [minRequestTimeout, 2·minRequestTimeout)), WatchList defaulting, the cacher's watcher, and a
   * client reading it at `readRate`, encoding `contentType`. Rejects for what upstream returns as an
   * HTTP error (bad options, 429 while the cache is not ready); other failures arrive as an ERROR event.
   */
  async watch(
    req: ResourceWatchRequest = {},
    by: RequestSender = defaultClient,
  ): Promise<OpenedWatch> {
    const { watcher, request, ctx, timeoutMs, options } = await this.openWatch(req, by);
    const client = new WatchClient(watcher, {
      clock: this.clock,
      ctx,
      readRate: req.readRate,
      contentType: req.contentType,
      keepEvents: req.keepEvents,
      onEvent: req.onEvent,
      onClose: req.onClose,
    });
    const opened: OpenedWatch = {
      client,
      watcher,
      watcherId: watcher instanceof CacheWatcher ? (watcher.id as number) : undefined,
      request,
      ctx,
      timeoutMs,
      options,
    };
    this.watches.push(opened);
    return opened;
  }

  /**
   * A WATCH without a modelled client, for a face that reads the watcher itself (the HTTP
   * handler): the handler's timeout, WatchList defaulting and the cacher's watcher, as `watch`.
   * The caller cancels `ctx` when its client goes away.
   */
  async openWatch(
    req: ResourceWatchRequest = {},
    by: RequestSender = defaultClient,
  ): Promise<ServedWatch> {
    const request = typeof by === 'string' ? this.watchContext(req, by) : by;
    const options = this.watchOptions(req);
    const timeoutMs = watchRequestTimeout(
      req.timeoutSeconds,
      this.minRequestTimeoutMs,
      this.watchRand,
    );
    const ctx = new WatchRequestContext(this.clock, timeoutMs);
    try {
      const key =
        (options.recursive ? undefined : this.singleObjectKey(req.namespace, options.predicate)) ??
        this.collectionKey(req.namespace);
      if (!this.watchCacheEnabled) {
        // The etcd3 store's Watch; the request context's end (its deadline) ends the watch.
        const storageWatch = await this.store.watch(key, options, {
          ...request,
          signal: ctx.signal,
        });
        return { watcher: watchResultChan(storageWatch), request, ctx, timeoutMs, options };
      }
      const watcher = await this.delegator.watch(key, options, {
        requestNamespace: req.namespace,
        requestName: req.name,
        ctx,
        request,
      });
      return { watcher, request, ctx, timeoutMs, options };
    } catch (e) {
      ctx.cancel();
      throw e;
    }
  }

  /** Every watch opened through `watch`, in order. */
  openedWatches(): readonly OpenedWatch[] {
    return this.watches;
  }

  /**
   * The predicate of a watch's selectors. Watches with the same selectors share one (a predicate
   * is never changed after parsing): 100k watches do not parse and keep 100k copies of it.
   */
  private watchPredicate(
    label: string | undefined,
    field: string | undefined,
    allowWatchBookmarks: boolean,
  ): SelectionPredicate {
    const key = `${label ?? ''}\u0000${field ?? ''}\u0000${allowWatchBookmarks}`;
    let p = this.predicates.get(key);
    if (p === undefined) {
      p = SelectionPredicate.from(
        { label, field, allowWatchBookmarks },
        this.groupResource.resource,
      );
      // Bounded: selectors that vary per watch do not grow the cache forever.
      if (this.predicates.size >= maxCachedPredicates) this.predicates.clear();
      this.predicates.set(key, p);
    }
    return p;
  }

  /** The storage ListOptions of a watch request, with SetListOptionsDefaults applied. */
  watchOptions(req: ResourceWatchRequest): ListOptions {
    let sendInitialEvents = req.sendInitialEvents;
    let resourceVersionMatch = req.resourceVersionMatch ?? '';
    const rv = req.resourceVersion ?? '';
    if (
      (req.applyDefaults ?? true) &&
      this.gates.WatchList &&
      sendInitialEvents === undefined &&
      resourceVersionMatch === '' &&
      (rv === '' || rv === '0')
    ) {
      sendInitialEvents = true;
      resourceVersionMatch = 'NotOlderThan';
    }
    // A named watch is a watch with a metadata.name field selector (the handler adds it).
    const field = req.name
      ? [req.fieldSelector, `metadata.name=${req.name}`].filter(Boolean).join(',')
      : req.fieldSelector;
    const predicate = this.watchPredicate(
      req.labelSelector,
      field,
      req.allowWatchBookmarks ?? false,
    );
    return newListOptions({
      resourceVersion: rv,
      resourceVersionMatch,
      // WatchPredicate: the object's key alone when the predicate names one object.
      recursive: this.singleObjectKey(req.namespace, predicate) === undefined,
      predicate,
      sendInitialEvents,
    });
  }
}

/** How many distinct watch selectors keep their parsed predicate. */
const maxCachedPredicates = 1024;

/** pods' trigger (registry/core/pod: NodeNameTriggerFunc). */
const nodeNameTrigger: IndexedTrigger = {
  indexName: 'spec.nodeName',
  indexerFunc: (obj) => (obj as Pod).spec?.nodeName ?? '',
};

/** pods' list index (registry/core/pod: NodeNameIndexFunc). */
const nodeNameIndexers: Indexers<KubeObject> = {
  'f:spec.nodeName': (obj) => [(obj as Pod).spec?.nodeName ?? ''],
};

/** Builds one resource (not started: call start()). */
export function createResource<E extends EtcdMember>(
  o: CreateResourceOptions & { etcd: E },
): Resource<E>;
export function createResource(o: CreateResourceOptions): Resource;
export function createResource(o: CreateResourceOptions): Resource<EtcdMember> {
  return new Resource<EtcdMember>(o);
}

/** A ready etcd (MemoryEtcd or a client of a real cluster) rather than options for a new one. */
function isEtcdMember(e: CreateResourceOptions['etcd']): e is EtcdMember {
  return e instanceof MemoryEtcd || (typeof e === 'object' && e !== null && 'kind' in e);
}
