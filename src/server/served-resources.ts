// The resources a live server serves: every built-in of the API table (builtin-api-resources.ts)
// and a custom resource per CRD, each one engine Resource (etcd3 store + watch cache + cacher +
// delegator) over one shared MemoryEtcd on the RealClock, with upstream's key prefixes
// (/registry/pods/, /registry/<group>/<resource>/ for CRs). No single upstream counterpart: the
// built-ins' API facts are the table's (read from pkg/registry/*/*/storage), a CR's come from its
// CRD as apiextensions-apiserver's crdHandler serves it; the set as a whole is what
// kube-apiserver's APIGroupInfos install (one per group there, one flat list here), hence the name
// ServedResources rather than a registry: the registry is each resource's Store (registry/store.ts).
// A CRD from a `--crd` file and one created through the API become served resources (one per
// served version, over one engine of the storage version) by the same method (serveCustomResource), as apiextensions-apiserver's crdHandler builds a crdInfo for each;
// stopServing is its removeStorage (the resource's watches end, its objects stay in etcd).
import {
  type EtcdMember,
  type Resource,
  createResource,
  RealClock,
  type Clock,
  MemoryEtcd,
  profile136,
  profile137Preview,
  type SemanticsProfile,
  type EventSink,
  MetricsRegistry,
  SeededRandom,
  RequestContexts,
  WatcherIds,
  type KubeObject,
} from '../engine';
import { allVerbs, builtinAPIResources } from '../request/builtin-api-resources';
import { resourceStorage } from '../request/resource-storage';
import type { CustomResourceDefinition } from './crd';
import { ListItemJSON } from './list-item-json';
import type { ServedResource } from './served-resource';
import type { RandomSource } from './object-meta';
import { eventsV1StorageCodec } from './event-conversion';
import { ServiceAllocators } from './registry/service-allocators';
import { Store, type StoreOptions, type StoreResource } from './registry/store';

export type ProfileName = '1.36' | '1.37';

export interface ServedResourcesOptions {
  profile?: ProfileName;
  /** The server's one source of time, wall time included (default: the RealClock). */
  clock?: Clock;
  crds?: readonly CustomResourceDefinition[];
  /** A real etcd's client (src/etcd-client); default: an in-memory etcd of the profile's version. */
  etcd?: EtcdMember;
  /** The key prefix in etcd (apiserver --etcd-prefix); default /registry. */
  etcdPrefix?: string;
  /**
   * Whether etcd's progress notifications can be trusted (the storage feature checker's answer for
   * a real etcd's versions); default true, as the in-memory etcd of the profile's version.
   */
  requestWatchProgressSupported?: boolean;
  /** The root of the engine's random choices (bookmark jitter, watch deadlines); default random. */
  seed?: number;
  /**
   * The request id sequence and the watcher ids, shared by the replicas of one `serve --replicas`
   * so that an id names one request (one watcher) whichever replica took it; default: its own.
   */
  requests?: RequestContexts;
  watcherIds?: WatcherIds;
  /**
   * The Services' ClusterIPs and NodePorts (default: this server's own). Replicas over one etcd
   * share replica 1's, as upstream's apiservers share the allocators' bitmaps in etcd.
   */
  serviceAllocators?: ServiceAllocators;
  /** The Stores' uids and generated names (default: Node's CSPRNG). */
  rand?: RandomSource;
  eventSink?: EventSink;
  log?: (message: string) => void;
}

/** Every served resource over one etcd, one metrics registry and one request id sequence. */
export class ServedResources {
  readonly clock: Clock;
  readonly profile: SemanticsProfile;
  readonly etcd: EtcdMember;
  readonly metrics = new MetricsRegistry();
  readonly requests: RequestContexts;
  /** The watcher ids: every cacher (and a restart's) shares them, so an id names one watcher. */
  readonly watcherIds: WatcherIds;
  /** The JSON of every object a LIST answered, by identity (the watch cache's are immutable). */
  readonly listItemJSON = new ListItemJSON();
  private served: ServedResource[];
  readonly namespaces: ServedResource;
  private readonly engineOf: (
    group: string,
    resource: string,
    namespaced: boolean,
    newFunc: () => KubeObject,
  ) => Resource<EtcdMember>;
  private readonly storeOptions: StoreOptions;
  /**
   * The Services' ClusterIPs and NodePorts: this server's, not the process's (another server in
   * the same process is another cluster). Upstream keeps them in etcd, shared by every apiserver
   * over it: `serve --replicas` gives every replica replica 1's.
   */
  readonly serviceAllocators: ServiceAllocators;
  /** The emulated namespace controller, when one runs (namespace-controller.ts). */
  namespaceController?: { enqueue(name: string): void; stop(): Promise<void> };
  /** The CRD controllers (customresourcedefinition-controller.ts), once started. */
  crdController?: { stop(): Promise<void> };

  constructor(o: ServedResourcesOptions = {}) {
    this.clock = o.clock ?? new RealClock();
    this.requests = o.requests ?? new RequestContexts();
    this.watcherIds = o.watcherIds ?? new WatcherIds();
    this.serviceAllocators = o.serviceAllocators ?? new ServiceAllocators();
    this.profile = o.profile === '1.37' ? profile137Preview : profile136;
    this.etcd =
      o.etcd ??
      new MemoryEtcd({
        clock: this.clock,
        // master pairs with etcd 3.7, which has RangeStream; release-1.36 with etcd 3.6.
        rangeStream: o.profile === '1.37' ? 'supported' : 'unimplemented',
      });
    const rand = new SeededRandom(o.seed ?? Math.floor(Math.random() * 4294967296));
    // The key prefix and the watch cache are the storage table's (resource-storage.ts); a custom
    // resource's scope is its CRD's.
    const engineOf = (this.engineOf = (
      group: string,
      resource: string,
      namespaced: boolean,
      newFunc: () => KubeObject,
    ): Resource<EtcdMember> => {
      const storage = resourceStorage({ group, resource });
      return createResource({
        clock: this.clock,
        rand: new SeededRandom(rand.intn(4294967296)),
        profile: this.profile,
        groupResource: { group, resource },
        namespaced,
        watchCache: storage.watchCache,
        etcd: this.etcd,
        pathPrefix: o.etcdPrefix,
        resourcePrefix: `/${storage.prefix}`,
        cache: { requestWatchProgressSupported: o.requestWatchProgressSupported },
        newFunc,
        // events.k8s.io/v1 Events are stored as core/v1 Events (one storage, two views).
        ...(group === 'events.k8s.io' && resource === 'events'
          ? { codec: eventsV1StorageCodec }
          : {}),
        metrics: this.metrics,
        requests: this.requests,
        watcherIds: this.watcherIds,
        eventSink: o.eventSink,
        log: o.log,
      });
    });
    // Every built-in of the API table (builtin-api-resources.ts), each with its kind's empty object.
    const served: StoreResource[] = builtinAPIResources.map((b) => ({
      group: b.group,
      version: b.version,
      resource: b.resource,
      singularName: b.singularName,
      kind: b.kind,
      listKind: b.listKind,
      namespaced: b.namespaced,
      shortNames: b.shortNames,
      categories: b.categories,
      verbs: b.verbs,
      returnDeletedObject: b.returnDeletedObject,
      jsonOnly: false,
      builtin: b,
      engine: engineOf(b.group, b.resource, b.namespaced, b.newObject),
    }));
    this.storeOptions = {
      clock: this.clock,
      rand: o.rand,
      serviceAllocators: this.serviceAllocators,
    };
    // Each resource's registry Store, over its engine resource (the object keeps its identity).
    this.served = served.map((s) => Object.assign(s, { store: new Store(s, this.storeOptions) }));
    for (const crd of o.crds ?? []) {
      if (this.served.some((s) => s.group === crd.group && s.resource === crd.plural))
        throw new Error(`two CustomResourceDefinitions named ${crd.name}`);
      if (crd.served !== false) this.served.push(...this.customResources(crd));
    }
    this.namespaces = this.all.find((r) => r.group === '' && r.resource === 'namespaces')!;
  }

  /** Every resource served now (built-ins first, then custom resources as their CRDs came). */
  get all(): readonly ServedResource[] {
    return this.served;
  }

  /**
   * One served resource per engine (a CRD's first served version stands for its others): what
   * acts on storage once per resource (the namespace controller's deletes, faults).
   */
  get perStorage(): readonly ServedResource[] {
    const seen = new Set<Resource<EtcdMember>>();
    return this.served.filter((r) => !seen.has(r.engine) && seen.add(r.engine) !== undefined);
  }

  /**
   * A CRD's served resources, one per served version, each with that version's facts and its own
   * Store, all over one engine (not started) of the storage version: one key prefix, one watch
   * cache, as apiextensions-apiserver's one storage per CRD.
   */
  private customResources(crd: CustomResourceDefinition): ServedResource[] {
    const apiVersion = `${crd.group}/${crd.version}`;
    // An unstructured object marshals its keys sorted: apiVersion before kind.
    const engine = this.engineOf(crd.group, crd.plural, crd.namespaced, () => ({
      apiVersion,
      kind: crd.kind,
      metadata: {},
    }));
    const versions = crd.servedVersions ?? [
      {
        name: crd.version,
        printerColumns: crd.printerColumns,
        openAPIV3Schema: crd.openAPIV3Schema,
        subresources: crd.subresources,
      },
    ];
    return versions.map((v) => {
      const s: StoreResource = {
        group: crd.group,
        version: v.name,
        resource: crd.plural,
        singularName: crd.singular,
        kind: crd.kind,
        listKind: crd.listKind,
        namespaced: crd.namespaced,
        shortNames: crd.shortNames,
        categories: crd.categories,
        verbs: [...allVerbs],
        printerColumns: v.printerColumns,
        openAPIV3Schema: v.openAPIV3Schema,
        ...(v.subresources ? { crdSubresources: v.subresources } : {}),
        storageVersion: crd.version,
        ...(crd.openAPIV3Schema ? { storageSchema: crd.openAPIV3Schema } : {}),
        jsonOnly: true,
        engine,
      };
      return Object.assign(s, { store: new Store(s, this.storeOptions) });
    });
  }

  /**
   * Serves `crd` (a CRD created through the API, or changed): its engine started and its watch
   * cache ready, then it replaces what served the same group and plural before (whose watches end,
   * as upstream tears down a CRD's old storage).
   */
  async serveCustomResource(crd: CustomResourceDefinition): Promise<ServedResource> {
    const next = this.customResources(crd);
    const engine = next[0].engine;
    engine.start();
    await engine.waitReady();
    const mine = (s: ServedResource): boolean =>
      s.jsonOnly && s.group === crd.group && s.resource === crd.plural;
    const old = this.served.find(mine);
    this.served = [...this.served.filter((s) => !mine(s)), ...next];
    if (old && old.engine !== engine) old.engine.stop();
    return next.find((s) => s.version === crd.version) ?? next[0];
  }

  /**
   * Stops serving a CRD's resource: gone from discovery and routing. Its engine keeps running (the
   * CRD finalizer still deletes through its Store) until the caller stops it, which ends its watches.
   */
  stopServing(group: string, plural: string): ServedResource | undefined {
    const mine = (s: ServedResource): boolean =>
      s.jsonOnly && s.group === group && s.resource === plural;
    const old = this.served.find(mine);
    if (old) this.served = this.served.filter((s) => !mine(s));
    return old;
  }

  /**
   * Marks a CRD's resource terminating (its CRD is being deleted): still served for reads, updates
   * and deletes, creates refused, until stopServing.
   */
  markTerminating(group: string, plural: string): void {
    for (const s of this.served)
      if (s.jsonOnly && s.group === group && s.resource === plural) s.terminating = true;
  }

  /** The resource a request's group, version and resource name address. */
  find(group: string, version: string, resource: string): ServedResource | undefined {
    return this.all.find(
      (r) => r.group === group && r.version === version && r.resource === resource,
    );
  }

  /** Starts every cacher and resolves once every watch cache is initialised. */
  async start(): Promise<void> {
    for (const r of this.all) r.engine.start();
    await Promise.all(this.all.map((r) => r.engine.waitReady()));
  }

  /** Stops every cacher (each watch ends as on apiserver shutdown), then etcd. */
  stop(): void {
    for (const r of this.all) r.engine.stop();
    this.etcd.close();
  }
}
