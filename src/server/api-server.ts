// The live apiserver: the engine's resources served over HTTP/1.1 on 127.0.0.1 to real clients.
// No single upstream counterpart: the filter chain is a slice of k8s.io/apiserver
// pkg/server/config.go DefaultBuildHandlerChain (the Host check first, for DNS rebinding, then
// authentication, request info, the routes), and start/stop follow GenericAPIServer's
// PrepareRun/Run (serve once the watch caches are ready; on shutdown every watch ends first).
// `replicas` (serve --replicas) runs several of these apiservers over one etcd behind the one
// listener, each request given to one by the load balancer of replicas.ts.
// No process or signal handling here: the CLI and the VS Code extension host both use it.
import {
  memoryEtcdCheck,
  openEtcd,
  requestWatchProgressLine,
  type EtcdCheck,
  type EtcdChoice,
  type OpenedEtcd,
} from './etcd-choice';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import {
  type HttpMethod,
  type RequestContext,
  StatusError,
  type KubeObject,
  EventHub,
  type EngineEvent,
} from '../engine';
import {
  newBadRequest,
  newGenericNotFound,
  newGenericServerResponse,
  newMethodNotSupported,
  newServiceUnavailable,
  StatusReason,
} from '../engine/http-face';
import { parseCrdManifest, type CustomResourceDefinition } from './crd';
import {
  getAuthMethods,
  isAuthenticated,
  servedUser,
  unauthorizedStatus,
} from './filters/authentication';
import {
  responseHeaders as apfResponseHeaders,
  setResponseHeaders as setAPFResponseHeaders,
} from './filters/priority-and-fairness';
import { HeldHeadersResponse } from './held-headers-response';
import { limitedReadBody } from './filters/body-limit';
import { isOwnHost, misdirectedRequest } from './filters/host-check';
import {
  applyFaultSpec,
  handleFaultRequest,
  resourceName,
  type AppliedFault,
  type FaultResponse,
} from './faults';
import { ActiveFaults, maxHeldRequestsFor, type ActiveFaultJSON } from './active-faults';
import { applyRequestFaults } from './request-faults';
import { CutObserved } from './watch-stream-faults';
import { isExemptPath, type MatchedRequest } from './fault-matcher';
import { checkFaultSchedule, FaultScheduleError, type FaultSchedule } from './fault-schedule';
import { DebugState } from './debug-state';
import { ClientsRecording } from './clients-endpoint';
import type { ClientsReport } from '../run/clients-report';
import { admitCreate } from './namespace-lifecycle';
import { NamespaceController } from './namespace-controller';
import { CustomResourceDefinitionController } from './customresourcedefinition-controller';
import type { RequestScope } from './handlers/request-scope';
import type { WatchHooks, WatchStreamFault, WrittenWatchEvent } from './handlers/watch';
import { writeError, writeErrorBody } from './handlers/response';
import { writeKubeconfig, type WrittenKubeconfig } from './kubeconfig';
import {
  AuditLogWriter,
  authorizationAllowAnnotations,
  type AuditEventHandle,
  type AuditRequest,
} from './audit-log';
import { kubeApiserverHealthChecks, type HealthChecker, type HealthEndpoint } from './health';
import { ServedResources, type ProfileName } from './served-resources';
import { generateSelfSignedCertKey } from './self-signed-certificate';
import {
  applyServingLimits,
  defaultServingLimits,
  httpServerOptions,
  tooManyConnectionsMessage,
  type ServingLimits,
} from './secure-serving';
import { goPlatform, versionInfo, type VersionInfo } from './version';
import { parseQuery, type QueryValues } from '../request/list-query';
import { negotiateEncoding, type NegotiatedEncoding } from './negotiation';
import { newCreateWhileTerminating, statusBody, statusCode, type StorageOperation } from './status';
import { auditStatusOf } from './response-status';
import { onResponseEnd } from './response-end';
import { RequestInfoFactory, type RequestInfo } from '../request/request-info';
import { createReview } from './handlers/create-review';
import { findReviewResource, type ReviewResource } from './review-resources';
import { nonResourceRoutes, subresourceOf, verbHandlers, type NonResourceScope } from './routes';
import type { ServedResource } from './served-resource';
import type { SeedCounts } from './seed-counts';
import type { ReplicaWorld } from './faults';
import { ReplicaPicker, replicaAnnotation, replicasProblem, spreadText } from './replicas';

export interface ApiServerOptions {
  /** 0 (default): a free port. */
  port?: number;
  profile?: ProfileName;
  seed?: SeedCounts;
  /** CustomResourceDefinition manifests (YAML or JSON). */
  crdFiles?: readonly string[];
  /**
   * Where to write the kubeconfig, never through a symbolic link (default: a new temporary
   * directory, removed with it when the server stops or the process exits).
   */
  kubeconfigPath?: string;
  /** audit.k8s.io/v1 events at Metadata level, one JSON line each. */
  auditLogPath?: string;
  /** Emulate kube-controller-manager's namespace controller (default true). */
  namespaceController?: boolean;
  /** Where the objects live (default: the in-memory etcd); see etcd-choice.ts. */
  etcd?: EtcdChoice;
  /** The key prefix in etcd (apiserver --etcd-prefix; default /registry). */
  etcdPrefix?: string;
  /** Hears etcd-server's own log lines when the server spawns one. */
  etcdLog?: (line: string) => void;
  /** Told after each seed object is created (and once before the first, with 0). */
  seedProgress?: (created: number, total: number) => void;
  /** Aborts the start while it seeds: the etcd it started stops, and start rejects. */
  signal?: AbortSignal;
  /** Overrides of kube-apiserver's connection settings (tests; see secure-serving.ts). */
  servingLimits?: Partial<ServingLimits>;
  /**
   * `serve --faults FILE`: checked against the served resources before anything is applied, then
   * applied (and armed) just before the server listens.
   */
  faultSchedule?: FaultSchedule;
  /** Hears each fault's log line (the schedule's, as they are applied and fire). */
  faultLog?: (message: string) => void;
  /**
   * `serve --replicas N` (default 1): N apiservers over the one etcd (not the in-memory one), each
   * with its own watch caches and etcd watch, behind the one URL (replicas.ts).
   */
  replicas?: number;
  /** `--sticky`: a TCP connection stays on the replica its first request went to. */
  sticky?: boolean;
  /**
   * Fold every request for `GET /debug/listwatch/v1/clients` (`serve --clients-report`;
   * clients-endpoint.ts). Off by default, as upstream's audit log is: the fold keeps every request
   * for the server's life (bench/server-memory.ts with it on: about 4 KB more heap per idle watch,
   * 9 KB per watch request kept after it closed), which a test wants and a long-running server does
   * not. Off, the endpoint answers 404 saying how to turn it on.
   */
  clientsReport?: boolean;
}

/** How long a seed runs before it lets the event loop turn (timers, I/O, a Cancel). */
const seedTurnEveryMs = 20;

/** Seeds this big (objects) say how big they are and how far they got, in the CLI and VS Code. */
export const bigSeed = 1000;

/**
 * The start was aborted (its signal) while seeding: how far it got. "In place" counts the objects
 * created and those a real etcd that served before already held (AlreadyExists, kept).
 */
export class SeedAbortedError extends Error {
  constructor(
    readonly created: number,
    readonly total: number,
  ) {
    super(`interrupted while seeding: ${created} of ${total} objects in place`);
    this.name = 'SeedAbortedError';
  }
}

/** The namespaces every cluster has (pkg/controlplane's system namespaces and default). */
export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** A resource request as it reaches its verb's handler (what a recorder is told). */
export interface ObservedRequest {
  context: RequestContext;
  /** The RequestInfo verb: list, watch, get, create, update, patch, delete, deletecollection. */
  verb: string;
  info: RequestInfo;
  /**
   * The negotiated response encoding (its Content-Type, the conversion asked for); absent for a
   * request a fault answered before negotiation (http-error, blackhole).
   */
  encoding?: NegotiatedEncoding;
  req: IncomingMessage;
  res: ServerResponse;
  /** `serve --replicas N`: the replica (1..N) that served it; undefined on a server of one. */
  replica?: number;
}

/** Any request past authentication, as the fault filter meets it (the clients report's answers). */
export interface StartedRequest {
  context: RequestContext;
  /** The RequestInfo verb (`get` for discovery and the other non-resource paths). */
  verb: string;
  req: IncomingMessage;
  res: ServerResponse;
  /** `serve --replicas N`: the replica (1..N) that served it; undefined on a server of one. */
  replica?: number;
}

/**
 * What ApiServer.record subscribes: the resource requests (before their handler runs), the
 * engine's engine events and the faults applied, as they happen.
 */
export interface ServerObserver {
  request(r: ObservedRequest): void;
  event(e: EngineEvent): void;
  fault(f: AppliedFault): void;
  /** A WATCH (by request id) wrote one event line to its client. */
  watchWritten?(requestId: number, e: WrittenWatchEvent): void;
  /**
   * Every request past authentication but the admin API and the health endpoints (which no fault
   * touches), before anything answers it: its status and bytes are read from `res` as it ends.
   */
  started?(r: StartedRequest): void;
  /** A fault cut the connection of WATCH `requestId` (drop-connection, stall-watch --then drop). */
  watchCut?(requestId: number): void;
  /** Request faults (by id and name) hit request `r`, before they act on it. */
  faultHit?(r: StartedRequest, faults: readonly { id: number; name: string }[]): void;
}

/** Tells the debug state and the observers of now that WATCH `requestId` wrote `e` to its client. */
function watchWritten(
  state: ServingState,
  replica: Replica,
  requestId: number,
  e: WrittenWatchEvent,
): void {
  replica.debugState.watchWritten(requestId, e);
  for (const o of state.observers) o.watchWritten?.(requestId, e);
}

/**
 * The watch handler's hooks for WATCH `requestId`: one object over these three alone (closures made
 * in `serve` would keep serve's whole context, its request info and all, as long as the watch).
 */
class ServedWatchHooks implements WatchHooks {
  constructor(
    private readonly state: ServingState,
    private readonly replica: Replica,
    private readonly requestId: number,
  ) {}

  written(e: WrittenWatchEvent): void {
    watchWritten(this.state, this.replica, this.requestId, e);
  }

  closed(): void {
    this.replica.debugState.watchEnded(this.requestId);
  }
}

/** The client name of the server's own requests (seeding), as kube-apiserver's loopback client. */
const selfClient = 'listwatch-serve';

export class ApiServer {
  /** `http://127.0.0.1:<port>`: plain HTTP (curl, fetch, client-node). */
  readonly url: string;
  /** `https://127.0.0.1:<port>`, the same port: what the kubeconfig names, as client-go sends its token only over TLS. */
  readonly httpsUrl: string;
  readonly token: string;
  readonly kubeconfigPath: string;
  readonly port: number;
  readonly auditLogPath: string | undefined;
  /** A real etcd's client URLs (spawned here, or given); undefined on the in-memory etcd. */
  readonly etcdEndpoints: readonly string[] | undefined;
  /**
   * On a real etcd, or the in-memory one given a version: what the storage feature check decided
   * at start, as one log line.
   */
  readonly etcdFeatureLine: string | undefined;
  private readonly etcd: OpenedEtcd | undefined;
  private readonly kubeconfig: WrittenKubeconfig;

  private constructor(
    readonly resources: ServedResources,
    /** The engine's engine events, for readers in the same process (the VS Code extension). */
    readonly eventSink: EventHub,
    private readonly state: ServingState,
    private readonly listener: NetServer,
    private readonly servers: readonly Server[],
    /** Every accepted connection, whichever server (if any yet) it went to. */
    private readonly sockets: ReadonlySet<Socket>,
    o: {
      port: number;
      token: string;
      kubeconfig: WrittenKubeconfig;
      auditLogPath?: string;
      etcd?: OpenedEtcd;
      etcdCheck?: EtcdCheck;
    },
  ) {
    this.etcd = o.etcd;
    this.etcdEndpoints = o.etcd?.endpoints;
    this.etcdFeatureLine = o.etcdCheck && requestWatchProgressLine(o.etcdCheck);
    this.port = o.port;
    this.url = `http://${loopbackHost}:${o.port}`;
    this.httpsUrl = `https://${loopbackHost}:${o.port}`;
    this.token = o.token;
    this.kubeconfig = o.kubeconfig;
    this.kubeconfigPath = o.kubeconfig.path;
    // A temporary kubeconfig holds the token: gone however the process ends (an error, exit()),
    // not only on stop().
    if (o.kubeconfig.temporary) process.once('exit', o.kubeconfig.remove);
    this.auditLogPath = o.auditLogPath;
  }

  /**
   * The clients connected now, as the Clients tab counts them (a User-Agent on one connection):
   * one entry per open connection that sent a request (a watch, a request in flight, or a
   * keep-alive connection between requests), its User-Agent. Sorted; a User-Agent with two
   * connections is there twice.
   */
  connectedClients(): string[] {
    return [...this.state.connectedClients.values()].sort();
  }

  /** Every connection open now (accepted sockets, a held or refused one too): the handles it holds. */
  openConnections(): number {
    return this.sockets.size;
  }

  /** The clients (User-Agent + connection, as connectedClients) seen since the server started. */
  clientsSeen(): number {
    return this.state.connectionsSeen;
  }

  /** Calls `listener` when connectedClients() may have changed; the returned function ends it. */
  onConnectionsChanged(listener: () => void): () => void {
    this.state.connectionsChanged.add(listener);
    return () => void this.state.connectionsChanged.delete(listener);
  }

  /** registry.clock.now() when the server was built: what a live run's times count from. */
  get startedAt(): number {
    return this.state.startedAt;
  }

  /**
   * Subscribes `observer` to the requests, the engine events and the faults; the returned
   * disposable ends it. Started on demand: a server nobody records pays one empty-array check.
   */
  record(observer: ServerObserver): { dispose(): void } {
    const state = this.state;
    if (state.observers.length === 0) {
      // Every replica's events: request ids are shared, so each event finds its request.
      const unsubscribes = state.replicas.map((r) =>
        r.eventSink.subscribe((e) => {
          for (const o of state.observers) o.event(e);
        }),
      );
      state.unsubscribeEvents = () => unsubscribes.forEach((u) => u());
      state.faultApplied = (f) => {
        for (const o of state.observers) o.fault(f);
      };
    }
    state.observers = [...state.observers, observer];
    return {
      dispose: () => {
        state.observers = state.observers.filter((o) => o !== observer);
        if (state.observers.length > 0) return;
        state.unsubscribeEvents?.();
        state.unsubscribeEvents = undefined;
        state.faultApplied = undefined;
      },
    };
  }

  /**
   * Applies a fault in-process as `POST /debug/listwatch/v1/faults/<name>` does (the same
   * validation and messages; recorders are told); `log` hears the fault's log line.
   */
  injectFault(
    name: string,
    params: Record<string, unknown> = {},
    log?: (message: string) => void,
  ): Promise<FaultResponse> {
    return handleFaultRequest('POST', name, JSON.stringify(params), {
      resources: this.resources.perStorage,
      etcd: this.resources.etcd,
      log,
      onApplied: this.state.faultApplied,
      active: this.state.faults,
      replicas: this.state.faultReplicas,
    });
  }

  /** What each client did so far (GET /debug/listwatch/v1/clients); undefined when turned off. */
  clientsReport(): ClientsReport | undefined {
    return this.state.clients?.report();
  }

  /** The faults in force (what GET /debug/listwatch/v1/faults/active lists). */
  activeFaults(): ActiveFaultJSON[] {
    return this.state.faults.list();
  }

  /** Clears a fault by id, or every one; undefined for an id that is not active. */
  clearFault(id: number | 'all'): ActiveFaultJSON[] | undefined {
    return this.state.faults.clear(id);
  }

  /** The live state (what GET /debug/listwatch/v1/state answers), for readers in the same process. */
  get debugState(): DebugState {
    return this.state.debugState;
  }

  /** `serve --replicas`: how many apiservers serve behind the URL (1: a server of one). */
  get replicas(): number {
    return this.state.replicas.length;
  }

  /** How requests are spread across the replicas, in the ready line's words. */
  get spread(): string {
    return spreadText(this.state.replicas.length, this.state.picker.sticky);
  }

  /** The address the listener is bound to, read from its socket (loopback only). */
  get boundAddress(): string {
    return (this.listener.address() as AddressInfo).address;
  }

  /** Builds the resources, waits for their watch caches, seeds them, listens and writes the kubeconfig. */
  static async start(opts: ApiServerOptions = {}): Promise<ApiServer> {
    const crds: CustomResourceDefinition[] = (opts.crdFiles ?? []).flatMap((file) =>
      parseCrdManifest(readFileSync(file, 'utf8'), file),
    );
    const eventSink = new EventHub();
    const choice = opts.etcd ?? { kind: 'memory' };
    const replicaCount = opts.replicas ?? 1;
    const refused = replicasProblem(replicaCount, choice);
    if (refused !== undefined) throw new ReplicasError(refused);
    const etcd = await openEtcd(choice, opts.etcdLog);
    const etcdCheck: EtcdCheck | undefined =
      etcd ??
      (choice.kind === 'memory' && choice.version !== undefined
        ? memoryEtcdCheck(choice.version)
        : undefined);
    let resources: ServedResources;
    try {
      resources = new ServedResources({
        profile: opts.profile,
        crds,
        eventSink: eventSink,
        etcd: etcd?.member,
        etcdPrefix: opts.etcdPrefix,
        requestWatchProgressSupported: etcdCheck?.requestWatchProgressSupported,
      });
    } catch (e) {
      etcd?.member.close();
      await etcd?.stop();
      throw e;
    }
    const debugState = newDebugState(resources, etcdCheck);
    eventSink.subscribe((e) => debugState.observe(e));
    // Replica 1, then those built below; stopped newest first, then the etcd.
    const replicas: Replica[] = [{ number: 1, resources, eventSink, debugState }];
    const stopEtcd = async (): Promise<void> => {
      for (const r of [...replicas].reverse()) await stopReplica(r.resources);
      await etcd?.stop();
    };
    await resources.start();
    // CRDs created through the API are served from here on (and those a real etcd kept, now).
    const crdController = new CustomResourceDefinitionController(resources);
    resources.crdController = crdController;
    try {
      await crdController.start();
    } catch (e) {
      await stopEtcd();
      throw e;
    }
    if (opts.namespaceController !== false)
      resources.namespaceController = new NamespaceController(resources);
    try {
      await seed(resources, opts.seed ?? {}, opts.seedProgress, opts.signal);
      // The other replicas: each its own etcd client, watch caches and CRD controllers. The
      // namespace controller is kube-controller-manager's, leader-elected: one runs (replica 1's),
      // told of a namespace deleted through any replica as its informer would see it.
      const crdControllers = [crdController];
      for (let n = 2; n <= replicaCount && etcd !== undefined; n++) {
        const r = await startReplica(n, resources, {
          crds,
          profile: opts.profile,
          endpoints: etcd.endpoints,
          etcdPrefix: opts.etcdPrefix,
          etcdLog: opts.etcdLog,
          etcdCheck,
        });
        replicas.push(r);
        crdControllers.push(r.crdController);
        const namespaceController = resources.namespaceController;
        if (namespaceController)
          r.resources.namespaceController = {
            enqueue: (name) => namespaceController.enqueue(name),
            stop: async () => undefined,
          };
      }
      // Every replica's CRD controllers hear a CRD written through any replica, as each
      // apiserver's CRD informer does.
      if (replicas.length > 1)
        for (const r of replicas)
          r.resources.find(
            'apiextensions.k8s.io',
            'v1',
            'customresourcedefinitions',
          )!.store.afterWrite = (name) => crdControllers.forEach((c) => c.enqueue(name));
    } catch (e) {
      await stopEtcd();
      throw e;
    }
    // What a start that fails from here on must undo, newest last: the listener, the servers (whose
    // header-deadline timers applyServingLimits started), and the registry and etcd, or the
    // process would never exit.
    const started: Array<() => Promise<void>> = [stopEtcd];
    try {
      const token = randomBytes(32).toString('hex');
      const startedAt = resources.clock.now();
      const limits: ServingLimits = { ...defaultServingLimits(), ...opts.servingLimits };
      const state: ServingState = {
        resources,
        replicas: replicas.map((r) => ({
          ...r,
          healthChecks: kubeApiserverHealthChecks({
            resources: r.resources.all,
            clock: r.resources.clock,
            startedAt,
            shuttingDown: () => state.shuttingDown,
          }),
        })),
        picker: new ReplicaPicker<Socket>(replicas.length, opts.sticky ?? false),
        faultReplicas:
          replicas.length > 1
            ? replicas.map((r) => ({
                // Read at each use: a CRD created through the API adds a resource.
                get resources() {
                  return r.resources.perStorage;
                },
                etcd: r.resources.etcd,
              }))
            : undefined,
        startedAt,
        observers: [],
        factory: new RequestInfoFactory(),
        token,
        port: 0,
        version: versionInfo(
          resources.profile.kubernetesVersion,
          goPlatform(process.platform, process.arch),
        ),
        healthChecks: kubeApiserverHealthChecks({
          resources: resources.all,
          clock: resources.clock,
          startedAt,
          shuttingDown: () => state.shuttingDown,
        }),
        shuttingDown: false,
        faults: new ActiveFaults(resources.clock, maxHeldRequestsFor(limits.maxConnections)),
        debugState,
        connectedClients: new Map(),
        connectionsSeen: 0,
        connectionsChanged: new Set(),
        forgetConnectedClient(this: IncomingMessage['socket']) {
          state.connectedClients.delete(this);
          for (const listener of state.connectionsChanged) listener();
        },
        audit:
          opts.auditLogPath === undefined
            ? undefined
            : new AuditLogWriter({
                sink: createWriteStream(opts.auditLogPath, { flags: 'a' }),
                // MicroTime from the server's clock, whose resolution is a millisecond.
                nowMicros: () => resources.clock.nowMicros?.() ?? resources.clock.now() * 1000,
              }),
      };
      const handler = (req: IncomingMessage, res: ServerResponse): void => {
        // The admin API and the health endpoints answer for the whole server (replica 1's), and
        // take no replica's turn.
        const path = (req.url ?? '/').split('?')[0];
        const replica = isExemptPath(path)
          ? state.replicas[0]
          : state.replicas[state.picker.pick(req.socket) - 1];
        serve(state, replica, req, res).catch((e: unknown) => {
          if (!res.headersSent) writeError(res, e);
          else res.destroy();
        });
      };
      const certificate = generateSelfSignedCertKey(resources.clock.now());
      // Every server made, for stop() and a failed start: each joins as it is made.
      const made: Server[] = [];
      started.push(async () => made.forEach((s) => s.close()));
      const serversFor = (h: typeof handler): SchemeServers => {
        const options = { ...httpServerOptions(limits), ServerResponse: HeldHeadersResponse };
        const keep = (server: Server): Server => {
          applyServingLimits(server, limits);
          made.push(server);
          return server;
        };
        const plain = keep(createServer(options, h));
        // Made at the first TLS connection, node:https and node:tls loaded then: they and the
        // secure context (the key and certificate parsed) cost every start a few milliseconds, and
        // a client that speaks plain http never needs them.
        let tls: Server | undefined;
        return {
          plain,
          tls: () =>
            (tls ??= keep(
              // eslint-disable-next-line @typescript-eslint/no-require-imports
              (require('node:https') as typeof import('node:https')).createServer(
                { ...certificate, ...options, handshakeTimeout: limits.readHeaderTimeoutMs },
                h,
              ),
            )),
        };
      };
      const servers = serversFor(handler);
      // A connection past the cap is read only to answer it: a 503 Status, then closed. Made at the
      // first such connection: most runs never have one.
      let refusers: SchemeServers | undefined;
      const refusersNow = (): SchemeServers =>
        (refusers ??= serversFor((_req, res) => {
          res.setHeader('Connection', 'close');
          writeError(res, newServiceUnavailable(tooManyConnectionsMessage(limits.maxConnections)));
        }));
      const sockets = new Set<Socket>();
      /** The open connections past the cap (answered a 503): all the others are served. */
      const refusedSockets = new Set<Socket>();
      // Every connection's 'close' listener (the socket is `this`): one function, not a closure
      // and its context per connection (an idle watch's holds them for life). 'on', not 'once':
      // 'close' comes once, and once's wrapper is three objects per connection.
      function connectionClosed(this: Socket): void {
        sockets.delete(this);
        refusedSockets.delete(this);
      }
      const listener = createNetServer((socket) => {
        if (sockets.size >= limits.maxConnections + refusalBacklog) return void socket.destroy();
        const refused = sockets.size - refusedSockets.size >= limits.maxConnections;
        sockets.add(socket);
        if (refused) refusedSockets.add(socket);
        socket.on('close', connectionClosed);
        dispatchConnection(socket, refused ? refusersNow() : servers, limits.readHeaderTimeoutMs);
      });
      if (opts.faultSchedule) {
        // Every entry checked against what is served before the first is applied.
        const specs = checkFaultSchedule(
          opts.faultSchedule,
          resources.perStorage.map(resourceName),
          replicas.length,
        );
        const world = {
          resources: resources.perStorage,
          etcd: resources.etcd,
          log: opts.faultLog,
          active: state.faults,
          replicas: state.faultReplicas,
          get onApplied() {
            return state.faultApplied;
          },
        };
        for (const spec of specs) {
          const answer = await applyFaultSpec(spec, world);
          if (answer.status !== 200)
            throw new FaultScheduleError(
              `${opts.faultSchedule.file}: ${spec.name}: ${(answer.body as { message?: string }).message ?? answer.status}`,
            );
        }
      }
      const port = (state.port = await listen(listener, opts.port ?? 0));
      started.push(() => new Promise((resolve) => listener.close(() => resolve())));
      const kubeconfig = writeKubeconfig({
        server: `https://127.0.0.1:${port}`,
        token,
        certificateAuthority: certificate.cert,
        path: opts.kubeconfigPath,
      });
      const server = new ApiServer(resources, eventSink, state, listener, made, sockets, {
        port,
        token,
        kubeconfig,
        auditLogPath: opts.auditLogPath,
        etcd,
        etcdCheck,
      });
      if (opts.clientsReport === true) state.clients = new ClientsRecording(server);
      return server;
    } catch (e) {
      for (const undo of started.reverse()) await undo();
      throw e;
    }
  }

  /**
   * Shutdown as GenericAPIServer does it: every watch ends first (the cachers stop, each watch
   * response finishes), then the listener closes and the remaining connections with it.
   */
  async stop(): Promise<void> {
    this.state.shuttingDown = true;
    this.state.clients?.dispose();
    // Scheduled faults' timers stop; held (blackholed) connections close.
    this.state.faults.clear('all');
    for (const r of [...this.state.replicas].reverse()) await stopReplica(r.resources);
    // Let the watch handlers see their closed channels and finish their responses.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => {
      this.listener.close(() => resolve());
      for (const s of this.servers) {
        s.closeAllConnections();
        // Never listening itself, it has no socket to close: this stops its header-deadline check.
        s.close();
      }
      // closeAllConnections knows only connections with a request parser: one still in its TLS
      // handshake or before its first byte (a client reconnecting as the watches end) would keep
      // the listener open until the client gives up.
      for (const socket of this.sockets) socket.destroy();
    });
    await this.etcd?.stop();
    process.removeListener('exit', this.kubeconfig.remove);
    this.kubeconfig.remove();
  }
}

/** A replica's live state (GET /debug/listwatch/v1/state), fed by its engine's events. */
function newDebugState(resources: ServedResources, etcdCheck: EtcdCheck | undefined): DebugState {
  return new DebugState({
    // Read at each use: a CRD created through the API adds a resource. One per storage: a CRD's
    // served versions share one watch cache and its watchers.
    get resources() {
      return resources.perStorage;
    },
    etcd: resources.etcd,
    etcdMembers: etcdCheck && {
      members: etcdCheck.members,
      requestWatchProgressSupported: etcdCheck.requestWatchProgressSupported,
    },
  });
}

/**
 * Replica `n` of `serve --replicas`: an apiserver of its own over the shared etcd (its own client,
 * so its own watch; its own watch caches and CRD controllers), sharing replica 1's request and
 * watcher id sequences so that an id names one request (one watcher) in the whole server.
 */
async function startReplica(
  n: number,
  first: ServedResources,
  o: {
    crds: readonly CustomResourceDefinition[];
    profile?: ProfileName;
    endpoints: readonly string[];
    etcdPrefix?: string;
    etcdLog?: (line: string) => void;
    etcdCheck: EtcdCheck | undefined;
  },
): Promise<Replica & { crdController: CustomResourceDefinitionController }> {
  const etcd = await openEtcd({ kind: 'servers', endpoints: [...o.endpoints] }, o.etcdLog);
  const eventSink = new EventHub();
  let resources: ServedResources;
  try {
    resources = new ServedResources({
      profile: o.profile,
      crds: o.crds,
      eventSink,
      etcd: etcd!.member,
      etcdPrefix: o.etcdPrefix,
      requestWatchProgressSupported: o.etcdCheck?.requestWatchProgressSupported,
      requests: first.requests,
      watcherIds: first.watcherIds,
      // Upstream's allocators keep their bitmaps in etcd: every apiserver over it shares them.
      serviceAllocators: first.serviceAllocators,
    });
  } catch (e) {
    etcd!.member.close();
    throw e;
  }
  const debugState = newDebugState(resources, o.etcdCheck);
  eventSink.subscribe((e) => debugState.observe(e));
  const crdController = new CustomResourceDefinitionController(resources);
  resources.crdController = crdController;
  try {
    await resources.start();
    await crdController.start();
  } catch (e) {
    await stopReplica(resources);
    throw e;
  }
  return { number: n, resources, eventSink, debugState, crdController };
}

/** A replica's controllers, then its engines and etcd client. */
async function stopReplica(resources: ServedResources): Promise<void> {
  await resources.crdController?.stop();
  await resources.namespaceController?.stop();
  resources.stop();
}

/** `--replicas` that cannot run as asked (over the in-memory etcd): the message says why. */
export class ReplicasError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplicasError';
  }
}

/**
 * One port for both schemes: a TLS ClientHello starts with 0x16 (a handshake record), an HTTP/1.1
 * request with a method's letter. kubectl and client-go need https to send the token; plain http
 * serves everything else (curl, fetch) with the same token.
 */
function dispatchConnection(
  socket: Socket,
  servers: SchemeServers,
  readHeaderTimeoutMs: number,
): void {
  // A client that sends nothing is closed as Go's ReadHeaderTimeout (or TLS handshake timeout)
  // closes it; from its first byte the server's own header deadline takes over. A timer of its
  // own, not socket.setTimeout: the socket would keep that timer for its whole life (an idle
  // watch's connection too), long after setTimeout(0) stopped it.
  const silent = setTimeout(() => socket.destroy(), readHeaderTimeoutMs);
  silent.unref();
  // Gone first: the timer goes with it (it would hold the socket until it fired).
  const gone = (): void => clearTimeout(silent);
  socket.once('close', gone);
  socket.once('data', (first: Buffer) => {
    clearTimeout(silent);
    socket.removeListener('close', gone);
    socket.pause();
    socket.unshift(first);
    (first[0] === 0x16 ? servers.tls() : servers.plain).emit('connection', socket);
    process.nextTick(() => socket.resume());
  });
  socket.on('error', destroySocket);
}

/** The servers a connection is handed to by its first byte: plain HTTP, and TLS (made when needed). */
interface SchemeServers {
  plain: Server;
  tls: () => Server;
}

/** A socket's 'error' listener: one function for every connection, not a closure each. */
function destroySocket(this: Socket): void {
  this.destroy();
}

/**
 * Connections past the cap that are still answered its 503; past these too a connection is closed
 * at once (an answer costs a descriptor until the client reads it).
 */
const refusalBacklog = 256;

/** The only address the server binds: loopback, never every interface. */
const loopbackHost = '127.0.0.1';

function listen(server: NetServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, loopbackHost, () => {
      server.removeListener('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** One apiserver of `serve --replicas` (a server of one has replica 1 only). */
interface Replica {
  /** 1..N. */
  number: number;
  resources: ServedResources;
  eventSink: EventHub;
  debugState: DebugState;
}

/** A replica as it serves: with its health checks. */
interface ServingReplica extends Replica {
  healthChecks: Record<HealthEndpoint, readonly HealthChecker[]>;
}

/** What every request is served with. */
interface ServingState {
  /** Replica 1's (the admin API's, the seed's). */
  resources: ServedResources;
  /** Every replica, replica 1 first. */
  replicas: readonly ServingReplica[];
  /** The load balancer in front of them. */
  picker: ReplicaPicker<Socket>;
  /** What a server fault acts on in each replica; undefined on a server of one. */
  faultReplicas: readonly ReplicaWorld[] | undefined;
  startedAt: number;
  /** ApiServer.record's observers (usually none). */
  observers: readonly ServerObserver[];
  unsubscribeEvents?: () => void;
  faultApplied?: (fault: AppliedFault) => void;
  factory: RequestInfoFactory;
  token: string;
  /** The listening port (0 until it listens). */
  port: number;
  version: VersionInfo;
  healthChecks: Record<HealthEndpoint, readonly HealthChecker[]>;
  /** Set once stop() began (readyz's shutdown check). */
  shuttingDown: boolean;
  /** The faults in force (the admin API's, the schedule's). */
  faults: ActiveFaults;
  /** What each client did (GET /debug/listwatch/v1/clients); absent when turned off. */
  clients?: ClientsRecording;
  debugState: DebugState;
  /** --audit-log: audit.k8s.io/v1 events at Metadata level. */
  audit: AuditLogWriter | undefined;
  /** Each open connection's client (its latest request's), until the connection closes. */
  connectedClients: Map<IncomingMessage['socket'], string>;
  /** Connections that sent a request since the start (each a client, as the Clients tab counts). */
  connectionsSeen: number;
  /** Told when a connection gets its first client or closes (ApiServer.onConnectionsChanged). */
  connectionsChanged: Set<() => void>;
  /** A connection's 'close' listener (the socket is `this`): one function, not a closure each. */
  forgetConnectedClient: (this: IncomingMessage['socket']) => void;
}

/** A connection counts as its client's until it closes (a keep-alive one between requests too). */
function rememberConnectedClient(
  state: ServingState,
  socket: IncomingMessage['socket'],
  client: string,
): void {
  const clients = state.connectedClients;
  const before = clients.get(socket);
  if (before === client) return;
  // A User-Agent on a connection is one client (a new User-Agent on it another).
  state.connectionsSeen++;
  if (before === undefined) socket.on('close', state.forgetConnectedClient);
  clients.set(socket, client);
  for (const listener of state.connectionsChanged) listener();
}

/** What a fault's matchers read of a request. */
function matchedRequestOf(
  info: RequestInfo,
  req: IncomingMessage,
  rawQuery: string,
  replica: number,
): MatchedRequest {
  const resource = !info.isResourceRequest
    ? ''
    : info.apiGroup === ''
      ? info.resource
      : `${info.resource}.${info.apiGroup}`;
  return {
    path: info.path,
    verb: info.verb,
    resource,
    namespace: info.namespace,
    userAgent: req.headers['user-agent'] ?? '',
    watchList:
      info.verb === 'watch' && new URLSearchParams(rawQuery).get('sendInitialEvents') === 'true',
    replica,
  };
}

/**
 * A request of a served resource that a request fault answers (http-error, blackhole) before any
 * handler: its client sent it, so the debug state counts it (clients, recent lists) as it counts a
 * served one. A path no resource serves is not counted (its handler would have answered 404).
 */
function debugStateFaultAnswered(
  replica: ServingReplica,
  info: RequestInfo,
  context: RequestContext,
  res: ServerResponse,
): void {
  if (!info.isResourceRequest) return;
  const served = replica.resources.find(info.apiGroup, info.apiVersion, info.resource);
  if (served) debugStateRequest(replica, served, info, context, res);
}

/** Tells the replica's debug state of a LIST or WATCH of `served`: its start, and a LIST's end. */
function debugStateRequest(
  { resources, debugState }: ServingReplica,
  served: ServedResource,
  info: RequestInfo,
  context: RequestContext,
  res: ServerResponse,
): void {
  const clock = resources.clock;
  debugState.requestStarted(context, info.verb, {
    at: clock.now(),
    groupResource: { group: served.group, resource: served.resource },
  });
  // A watch's end comes from its handler (ServedWatchHooks): no 'close' listener per watch here.
  if (info.verb === 'list')
    onResponseEnd(res, () =>
      debugState.responseEnded(context.requestId, clock.now(), auditStatusOf(res)),
    );
}

/** WithCacheControl's header (filters/cachecontrol.go): no cache keeps an API response. */
const cacheControl = 'no-cache, private';

/** What a watch's response holds back for its writeHead: the headers above, in their order. */
const watchHeldHeaders = Object.freeze({ 'Cache-Control': cacheControl, ...apfResponseHeaders });

/** The filter chain and the routes for one request. */
async function serve(
  state: ServingState,
  replica: ServingReplica,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { factory, token, port } = state;
  const { resources, debugState } = replica;
  // `serve --replicas`: which replica served it (the audit annotation, the recorded request).
  const servedBy = state.replicas.length > 1 ? replica.number : undefined;
  if (!isOwnHost(req.headers.host, port)) {
    res.setHeader('Cache-Control', cacheControl);
    return writeError(res, misdirectedRequest(req.headers.host, port));
  }
  if (!isAuthenticated(req, token)) {
    res.setHeader('Cache-Control', cacheControl);
    if (state.audit) auditFailedAuthentication(state.audit, factory, req, res);
    return writeErrorBody(res, statusCode(unauthorizedStatus), statusBody(unauthorizedStatus));
  }
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  let info: RequestInfo;
  try {
    info = factory.newRequestInfo(method, url);
  } catch (e) {
    res.setHeader('Cache-Control', cacheControl);
    // A path that does not percent-decode, or a special verb with nothing after it.
    throw e instanceof URIError ? newBadRequest(`invalid URL escape in ${JSON.stringify(url)}`) : e;
  }
  // WithCacheControl's header, then WithPriorityAndFairness's (after authentication, before
  // routing: every request it classifies). A watch (unaudited: Audit-Id is set one by one) holds
  // them back for its writeHead, whoever writes it (held-headers-response.ts).
  if (info.verb === 'watch' && state.audit === undefined && res instanceof HeldHeadersResponse)
    res.holdHeaders(watchHeldHeaders);
  else {
    res.setHeader('Cache-Control', cacheControl);
    setAPFResponseHeaders(res);
  }
  const auditEvent = state.audit && audit(state.audit, info, url, req, res);
  if (auditEvent && servedBy !== undefined)
    auditEvent.annotate({ [replicaAnnotation]: String(servedBy) });
  const q = url.indexOf('?');
  const query = parseQuery(q < 0 ? '' : url.slice(q + 1));
  const context: RequestContext = resources.requests.newContext(
    req.headers['user-agent'] ?? '',
    method as HttpMethod,
    url,
  );
  const started: StartedRequest = { context, verb: info.verb, req, res };
  const observed = state.observers.length > 0 && !isExemptPath(info.path);
  if (observed) for (const o of state.observers) o.started?.(started);
  // The request faults: here, where upstream's filters reject, delay or time out a request.
  let watchFault: WatchStreamFault | undefined;
  let ignoreSendInitialEvents = false;
  if (state.faults.hasRequestFaults) {
    const outcome = await applyRequestFaults(
      state.faults,
      matchedRequestOf(info, req, q < 0 ? '' : url.slice(q + 1), replica.number),
      res,
      resources.clock,
      (hits, answered) => {
        if (answered) debugStateFaultAnswered(replica, info, context, res);
        if (!observed) return;
        for (const o of state.observers) o.faultHit?.(started, hits);
        // A LIST or WATCH answered here is still one the client sent (its 429, then its retry).
        if (answered && info.isResourceRequest && (info.verb === 'list' || info.verb === 'watch'))
          for (const o of state.observers)
            o.request({
              context,
              verb: info.verb,
              info,
              req,
              res,
              ...(servedBy !== undefined ? { replica: servedBy } : {}),
            });
      },
    );
    if (outcome.answered) return;
    watchFault = outcome.watchFault;
    ignoreSendInitialEvents = outcome.ignoreSendInitialEvents === true;
    if (watchFault && observed)
      watchFault = new CutObserved(watchFault, () => {
        for (const o of state.observers) o.watchCut?.(context.requestId);
      });
  }
  rememberConnectedClient(state, req.socket, context.client);
  let body: Promise<Buffer> | undefined;
  const readBody = (): Promise<Buffer> => (body ??= limitedReadBody(req));
  if (!info.isResourceRequest) {
    const scope: NonResourceScope = {
      resources,
      info,
      searchParams: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
      req,
      context,
      serverAddress: `127.0.0.1:${port}`,
      version: state.version,
      healthChecks: replica.healthChecks,
      debugState,
      replicaDebugStates: state.replicas.map((r) => r.debugState),
      faultApplied: state.faultApplied,
      faults: state.faults,
      faultReplicas: state.faultReplicas,
      clients: state.clients,
      body: readBody,
    };
    for (const route of nonResourceRoutes) {
      const answer = await route(scope);
      if (answer === undefined) continue;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
      return;
    }
    throw newGenericNotFound();
  }
  const review = findReviewResource(info.apiGroup, info.apiVersion, info.resource);
  if (review) return serveReview(review, info, req, res, query, resources.clock.now(), readBody);
  const served = resources.find(info.apiGroup, info.apiVersion, info.resource);
  // A cluster-scoped resource has no route under /namespaces/<ns>/; requestinfo.go reads
  // `/api/v1/namespaces/x` as namespace x, which for the namespaces resource is the object's name.
  const subresource = served && info.subresource !== '' ? subresourceOf(served, info) : undefined;
  if (
    !served ||
    (info.subresource !== '' && !subresource) ||
    (!served.namespaced && info.namespacedPath)
  )
    throw newGenericNotFound();
  if (!served.namespaced) info.namespace = '';
  debugStateRequest(replica, served, info, context, res);
  const handler = subresource ? subresource[info.verb] : verbHandlers[info.verb];
  if (
    !handler ||
    (!subresource && !served.verbs.includes(info.verb)) ||
    !allowedScope(served, info)
  )
    throw newMethodNotSupported({ group: served.group, resource: served.resource }, info.verb);
  // crdHandler: a terminating CRD's objects are still read, updated and deleted, not created.
  if (served.terminating && info.verb === 'create' && !subresource)
    throw newCreateWhileTerminating({ group: served.group, resource: served.resource });
  const negotiated = negotiateEncoding(
    {
      accept: req.headers.accept,
      userAgent: req.headers['user-agent'],
      query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
    },
    info.verb === 'watch'
      ? 'watch'
      : info.verb === 'list' || info.verb === 'deletecollection'
        ? 'list'
        : 'object',
  );
  if (!negotiated.ok) return writeError(res, new StatusError(negotiated.status));
  for (const o of state.observers)
    o.request({
      context,
      verb: info.verb,
      info,
      encoding: negotiated.encoding,
      req,
      res,
      ...(servedBy !== undefined ? { replica: servedBy } : {}),
    });
  const scope: RequestScope = {
    resources,
    served,
    info,
    query,
    req,
    res,
    encoding: negotiated.encoding,
    context,
    body: readBody,
    audit: auditEvent,
    ...(info.verb === 'watch'
      ? { watchHooks: new ServedWatchHooks(state, replica, context.requestId) }
      : {}),
    ...(watchFault ? { watchFault } : {}),
    ...(ignoreSendInitialEvents ? { ignoreSendInitialEvents } : {}),
  };
  try {
    await handler(scope);
  } catch (e) {
    if (res.headersSent) throw e;
    if (e instanceof StatusError && e.status.code === 413) res.setHeader('Connection', 'close');
    writeError(res, e, {
      resource: { group: served.group, resource: served.resource },
      name: info.name,
      operation: operationOf[info.verb] ?? 'get',
    });
  }
}

/**
 * A review resource's request (review-resources.ts): only POST to its cluster-scoped collection
 * path, the one route the installer adds for a Creater, answered by its creater; the encoding
 * negotiated as for any object (406 for an Accept nothing serves).
 */
async function serveReview(
  review: ReviewResource,
  info: RequestInfo,
  req: IncomingMessage,
  res: ServerResponse,
  query: QueryValues,
  now: number,
  body: () => Promise<Buffer>,
): Promise<void> {
  // go-restful's router: no route for any other path (404), only POST on this one (405).
  if (info.name !== '' || info.subresource !== '' || info.namespacedPath)
    throw newGenericNotFound();
  if (req.method !== 'POST') throw newGenericServerResponse(405);
  const q = (req.url ?? '').indexOf('?');
  const negotiated = negotiateEncoding(
    {
      accept: req.headers.accept,
      userAgent: req.headers['user-agent'],
      query: new URLSearchParams(q < 0 ? '' : (req.url ?? '').slice(q + 1)),
    },
    'object',
  );
  if (!negotiated.ok) return writeError(res, new StatusError(negotiated.status));
  try {
    await createReview({ review, query, req, res, pretty: negotiated.encoding.pretty, now, body });
  } catch (e) {
    if (res.headersSent) throw e;
    if (e instanceof StatusError && e.status.code === 413) res.setHeader('Connection', 'close');
    writeError(res, e);
  }
}

/** The registry method behind each verb: how its storage errors read (storeerr.Interpret*Error). */
const operationOf: Readonly<Record<string, StorageOperation>> = {
  get: 'get',
  list: 'list',
  watch: 'watch',
  create: 'create',
  update: 'update',
  patch: 'update',
  delete: 'delete',
  deletecollection: 'delete',
};

/**
 * WithAudit at Metadata level: RequestReceived now, ResponseStarted for a watch once its headers
 * are out, ResponseComplete when the response ends; the Audit-Id header names the event.
 */
function audit(
  writer: AuditLogWriter,
  info: RequestInfo,
  url: string,
  req: IncomingMessage,
  res: ServerResponse,
): AuditEventHandle {
  const longRunning = info.verb === 'watch';
  const handle = writer.requestReceived({
    ...auditRequestMetadata(info, url, req, res),
    user: { username: servedUser.username, groups: [...servedUser.groups] },
    longRunning,
  });
  handle.annotate(authorizationAllowAnnotations);
  if (longRunning) {
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((...args: Parameters<ServerResponse['writeHead']>) => {
      const r = writeHead(...args);
      handle.responseStarted(res.statusCode);
      return r;
    }) as ServerResponse['writeHead'];
  }
  res.once('close', () => handle.responseComplete(auditStatusOf(res)));
  return handle;
}

/**
 * WithAuditInit's Audit-Id header and LogRequestMetadata's fields (all but the user, which only
 * an authenticated request has).
 */
function auditRequestMetadata(
  info: RequestInfo | undefined,
  url: string,
  req: IncomingMessage,
  res: ServerResponse,
): Omit<AuditRequest, 'user' | 'longRunning'> {
  const auditID = randomUUID();
  res.setHeader('Audit-Id', auditID);
  return {
    auditID,
    requestURI: url,
    verb: info?.verb ?? (req.method ?? 'GET').toLowerCase(),
    sourceIPs: req.socket.remoteAddress ? [req.socket.remoteAddress] : [],
    userAgent: req.headers['user-agent'],
    objectRef: info?.isResourceRequest
      ? {
          resource: info.resource,
          namespace: info.namespace || undefined,
          name: info.name || undefined,
          apiGroup: info.apiGroup || undefined,
          apiVersion: info.apiVersion,
          subresource: info.subresource || undefined,
        }
      : undefined,
  };
}

/** WithFailedAuthenticationAudit around the 401 (filters/authn_audit.go). */
function auditFailedAuthentication(
  writer: AuditLogWriter,
  factory: RequestInfoFactory,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const url = req.url ?? '/';
  let info: RequestInfo | undefined;
  try {
    info = factory.newRequestInfo(req.method ?? 'GET', url);
  } catch {
    // A URL that does not decode: upstream's WithRequestInfo would have answered first.
  }
  writer.failedAuthentication(auditRequestMetadata(info, url, req, res), getAuthMethods(req), 401);
}

/** A namespaced resource's URL without a namespace serves only list and watch (all namespaces). */
function allowedScope(served: ServedResource, info: RequestInfo): boolean {
  return (
    !served.namespaced || info.namespace !== '' || info.verb === 'list' || info.verb === 'watch'
  );
}

/** The system namespaces, then `--seed` pods and configmaps in `default`. */
async function seed(
  resources: ServedResources,
  counts: SeedCounts,
  progress?: (created: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const context = (path: string): RequestContext =>
    resources.requests.newContext(selfClient, 'POST', path);
  // On a real etcd that served before, the objects may be there already: as kube-apiserver's
  // system namespaces controller, create what is missing and keep what exists. Each goes through
  // admission and the resource's Store, as a client's create does.
  const createIfMissing = async (
    served: ServedResource,
    namespace: string,
    obj: KubeObject,
    requestContext: RequestContext,
  ): Promise<void> => {
    try {
      await admitCreate(resources, served, namespace, obj, requestContext);
      await served.store.create(namespace, obj, { context: requestContext });
    } catch (e) {
      if (!(e instanceof StatusError && e.status.reason === StatusReason.AlreadyExists)) throw e;
    }
  };
  for (const name of systemNamespaces)
    await createIfMissing(
      resources.namespaces,
      '',
      { metadata: { name } },
      context('/api/v1/namespaces'),
    );
  const pods = resources.find('', 'v1', 'pods')!;
  const configmaps = resources.find('', 'v1', 'configmaps')!;
  const width = (n: number): number => String(Math.max(0, n - 1)).length;
  const make: Array<[ServedResource, number, (i: string) => KubeObject]> = [
    [
      pods,
      counts.pods ?? 0,
      (i) =>
        ({
          metadata: { name: `pod-${i}`, labels: { app: 'seed' } },
          spec: {
            containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', resources: {} }],
          },
        }) as KubeObject,
    ],
    [
      configmaps,
      counts.configmaps ?? 0,
      (i) => ({ metadata: { name: `configmap-${i}` }, data: { key: `value-${i}` } }) as KubeObject,
    ],
  ];
  const total = make.reduce((sum, [, n]) => sum + n, 0);
  let created = 0;
  progress?.(created, total);
  // The in-memory etcd answers in microtasks: without a turn of the event loop now and then, a big
  // seed would hold the process (the extension host, its progress and its Cancel) until it ends.
  let turnAt = resources.clock.now() + seedTurnEveryMs;
  // One at a time, in name order, so that resource versions follow names as in the in-memory run.
  for (const [served, n, objectOf] of make) {
    const path = `/api/v1/namespaces/default/${served.resource}`;
    for (let i = 0; i < n; i++) {
      if (signal?.aborted) throw new SeedAbortedError(created, total);
      await createIfMissing(
        served,
        'default',
        objectOf(String(i).padStart(width(n), '0')),
        context(path),
      );
      progress?.(++created, total);
      if (resources.clock.now() >= turnAt) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        turnAt = resources.clock.now() + seedTurnEveryMs;
      }
    }
  }
}
