// No upstream counterpart: `GET /debug/listwatch/v1/state`, the live engine as JSON. Resources and
// watchers are read from the engine objects at the moment of the request; clients come from the
// requests the server reports (requestStarted); recent lists are folded from the engine's
// engine events by request id, as src/run/build-run-model.ts folds a trace, and end with their
// response (responseEnded: its status, and the latency the client saw). Memory is bounded:
// the last maxLists lists with up to maxEtcdCallsPerList etcd requests each, up to maxClients
// user agents, up to maxWatchersShown watchers in an answer.
import { type EtcdMember, MemoryEtcd, type EngineEvent, type RequestContext } from '../engine';
import { failure as statusFailure } from '../engine/http-face';
import type { EtcdCheck } from './etcd-choice';
import type { FaultResponse, FaultWorld } from './faults';
import { resourceName } from './faults';
import type { EtcdRequestRecord } from '../run/run-model';
import type { WrittenWatchEvent } from './handlers/watch';
import type { AuditResponseStatus } from './audit-log';

/** What the state reads: the same world as the faults. */
export type DebugWorld = Pick<FaultWorld, 'resources' | 'etcd'> & {
  /**
   * A real etcd's members as checked at start (versions, the RequestWatchProgress answer), or the
   * in-memory etcd's given version (`--etcd-version`).
   */
  etcdMembers?: EtcdCheck;
};

export const debugStatePath = '/debug/listwatch/v1/state';

/** The request kinds counted per user agent (RequestInfo verbs, grouped). */
export type RequestKind = 'lists' | 'gets' | 'watches' | 'writes' | 'other';

/** Requests of each kind. */
export type RequestCounts = Record<RequestKind, number>;

export interface ClientCounts extends RequestCounts {
  userAgent: string;
  /** The same by resource, as kubectl names it (`configmaps`, `leases.coordination.k8s.io`). */
  resources: Record<string, RequestCounts>;
}

const noRequests = (): RequestCounts => ({ lists: 0, gets: 0, watches: 0, writes: 0, other: 0 });

/** One etcd request of a list (an `etcd/request` event), as the run model records it. */
export type ListEtcdCall = EtcdRequestRecord;

/** One recent LIST: what served it and what it asked etcd. */
export interface RecentList {
  requestId: number;
  at: number;
  resource: string;
  userAgent?: string;
  requestLine?: string;
  key?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  /**
   * What served it: the delegator's choice (cache, etcd, or rejected), then etcd when the cache
   * fell back to it (`fallback` "true").
   */
  servedBy?: string;
  rule?: string;
  /** The delegator's fallback: "true" (etcd was asked), "skipped" (429 instead). */
  fallback?: string;
  fromCache?: { fetched: number; returned: number; index: string };
  pages: number;
  returned?: number;
  /** The response's HTTP status code, once it ended. */
  status?: number;
  /**
   * From the request reaching its handler to its response's last byte: what the client waited
   * (a consistent read's wait for the cache and a fallback included), less the network.
   */
  latencyMs?: number;
  /** The Status the response answered with (code ≥ 400), or the engine's error. */
  error?: { code: number; reason?: string; message: string };
  etcdCalls: ListEtcdCall[];
  /** etcd requests beyond maxEtcdCallsPerList, counted. */
  etcdCallsOmitted: number;
}

export interface DebugStateOptions {
  maxLists?: number;
  maxEtcdCallsPerList?: number;
  maxClients?: number;
  maxWatchersShown?: number;
}

/** How many user agents are counted one by one; later ones share this name. */
export const otherClients = '(other clients)';

/**
 * The live view's memory: clients by user agent and the recent lists. Feed it the server's
 * requests (requestStarted) and the engine's engine events (observe, e.g. from an EventHub
 * subscription); `view()` adds the engine's live state.
 */
export class DebugState {
  private readonly world: DebugWorld;
  private readonly maxLists: number;
  private readonly maxEtcdCalls: number;
  private readonly maxClients: number;
  private readonly maxWatchersShown: number;
  private readonly clients = new Map<string, ClientCounts>();
  /** Request id -> its context and start, for the recent requests only (the lists' owners). */
  private readonly requests = new Map<number, { ctx: RequestContext; at?: number }>();
  /** By request id, oldest first (Map insertion order). */
  private readonly lists = new Map<number, RecentList>();
  /** What each open HTTP watch wrote to its client, by request id (dropped when it ends). */
  private readonly reads = new Map<number, ClientRead>();

  constructor(world: DebugWorld, o: DebugStateOptions = {}) {
    this.world = world;
    this.maxLists = o.maxLists ?? 50;
    this.maxEtcdCalls = o.maxEtcdCallsPerList ?? 20;
    this.maxClients = o.maxClients ?? 500;
    this.maxWatchersShown = o.maxWatchersShown ?? 1000;
  }

  /**
   * A request reached a handler: `verb` is its RequestInfo verb (list, watch, get, create, …).
   * `served`: the clock's now() then and the resource, from the server: a LIST is a recent list
   * from now on (one refused before storage too), its latency running to responseEnded.
   */
  requestStarted(
    ctx: RequestContext,
    verb: string,
    served?: { at: number; groupResource: { group: string; resource: string } },
  ): void {
    const kind = requestKind(verb);
    let c = this.clients.get(ctx.client);
    if (c === undefined) {
      const name = this.clients.size >= this.maxClients ? otherClients : ctx.client;
      c = this.clients.get(name);
      if (c === undefined) {
        c = { userAgent: name, ...noRequests(), resources: {} };
        this.clients.set(name, c);
      }
    }
    c[kind]++;
    if (served) {
      const { group, resource } = served.groupResource;
      (c.resources[group ? `${resource}.${group}` : resource] ??= noRequests())[kind]++;
    }
    if (kind !== 'lists') return;
    this.requests.set(ctx.requestId, served === undefined ? { ctx } : { ctx, at: served.at });
    // Twice the lists kept: a list's context may arrive before or after its first event.
    if (this.requests.size > this.maxLists * 2) {
      const oldest = this.requests.keys().next().value as number;
      this.requests.delete(oldest);
    }
    const l = served
      ? this.listOf(ctx.requestId, served.at, served.groupResource)
      : this.lists.get(ctx.requestId);
    if (l) {
      l.userAgent = ctx.client;
      l.requestLine = ctx.requestLine;
    }
  }

  /**
   * LIST `requestId`'s response ended at `at` (its last byte written) with `status`: the Status
   * it wrote (auditStatusOf), or its code alone.
   */
  responseEnded(requestId: number, at: number, status: AuditResponseStatus | number): void {
    const l = this.lists.get(requestId);
    if (!l) return;
    const code = typeof status === 'number' ? status : status.code;
    l.status = code;
    const started = this.requests.get(requestId)?.at;
    if (started !== undefined) l.latencyMs = at - started;
    if (code >= 400)
      l.error =
        typeof status === 'number'
          ? (l.error ?? { code, message: '' })
          : { code, reason: status.reason ?? '', message: status.message ?? '' };
  }

  /** WATCH `requestId` wrote one event line to its client (the handler tells each). */
  watchWritten(requestId: number, e: WrittenWatchEvent): void {
    let r = this.reads.get(requestId);
    if (r === undefined) {
      r = { events: 0, lastResourceVersion: 0 };
      this.reads.set(requestId, r);
    }
    r.events++;
    if (e.resourceVersion > 0) r.lastResourceVersion = e.resourceVersion;
  }

  /** WATCH `requestId`'s response ended: its reads are no longer kept. */
  watchEnded(requestId: number): void {
    this.reads.delete(requestId);
  }

  /** One engine event: the list-related ones are folded by request id. */
  observe(e: EngineEvent): void {
    switch (e.type) {
      case 'delegator/decision': {
        if (e.operation !== 'list' || e.requestId === undefined) return;
        const l = this.listOf(e.requestId, e.at, e.groupResource);
        l.key = e.key;
        l.resourceVersion = e.resourceVersion;
        l.resourceVersionMatch = e.resourceVersionMatch;
        l.limit = e.limit;
        l.servedBy = e.target;
        l.rule = e.rule;
        if (e.error) l.error = e.error;
        return;
      }
      case 'delegator/fallback': {
        const l = e.requestId === undefined ? undefined : this.lists.get(e.requestId);
        if (!l) return;
        l.fallback = e.fallback;
        // The cache did not serve it: etcd did (or a 429 did, which its response says).
        if (e.fallback === 'true') l.servedBy = 'etcd';
        return;
      }
      case 'cacher/list': {
        if (e.requestId === undefined) return;
        const l = this.listOf(e.requestId, e.at, e.groupResource);
        l.fromCache = { fetched: e.fetched, returned: e.returned, index: e.index };
        l.returned = e.returned;
        if (e.error) l.error = e.error;
        return;
      }
      case 'list/page': {
        if (e.requestId === undefined) return;
        this.listOf(e.requestId, e.at, e.groupResource).pages++;
        return;
      }
      case 'list/done': {
        if (e.requestId === undefined) return;
        const l = this.listOf(e.requestId, e.at, e.groupResource);
        l.returned = e.returned;
        // Not its latency: a storage GetList's (a fallback's read is the last few ms of it).
        if (e.error) l.error = e.error;
        return;
      }
      case 'etcd/request': {
        const l = e.requestId === undefined ? undefined : this.lists.get(e.requestId);
        if (!l) return;
        if (l.etcdCalls.length >= this.maxEtcdCalls) {
          l.etcdCallsOmitted++;
          return;
        }
        l.etcdCalls.push({
          at: e.at,
          operation: e.operation,
          key: e.key,
          ...(e.rangeEnd !== undefined ? { rangeEnd: e.rangeEnd } : {}),
          limit: e.limit,
          revision: e.revision,
          kvs: e.kvs,
          count: e.count,
          latencyMs: e.latencyMs,
          ...(e.error !== undefined ? { error: e.error } : {}),
        });
        return;
      }
      default:
        return;
    }
  }

  private listOf(
    requestId: number,
    at: number,
    gr: { group: string; resource: string },
  ): RecentList {
    let l = this.lists.get(requestId);
    if (l) return l;
    const started = this.requests.get(requestId);
    const ctx = started?.ctx;
    l = {
      requestId,
      at: started?.at ?? at,
      resource: resourceName(gr),
      ...(ctx ? { userAgent: ctx.client, requestLine: ctx.requestLine } : {}),
      pages: 0,
      etcdCalls: [],
      etcdCallsOmitted: 0,
    };
    this.lists.set(requestId, l);
    if (this.lists.size > this.maxLists) {
      const oldest = this.lists.keys().next().value as number;
      this.lists.delete(oldest);
    }
    return l;
  }

  /** The whole live view (the body of GET /debug/listwatch/v1/state). */
  view(): DebugStateView {
    const etcd = this.world.etcd;
    const resources = this.world.resources.map((r) => {
      const e = r.engine;
      // Upstream's cache sizes turn events' watch cache off: the etcd3 store serves them, so no
      // cache state (ready, history, cache RV) is true of them.
      if (!e.watchCacheEnabled)
        return {
          resource: resourceName(r),
          watchCache: false,
          etcdRevision: etcd.currentRevision(),
        };
      const h = e.watchCache.history;
      const ready = e.cacher.ready.check();
      return {
        resource: resourceName(r),
        watchCache: true,
        cacheResourceVersion: e.watchCache.resourceVersion,
        etcdRevision: etcd.currentRevision(),
        ready: ready.error === undefined,
        readyState: e.cacher.ready.state,
        ...(ready.error ? { notReadyReason: ready.error.message } : {}),
        history: {
          size: h.size,
          capacity: h.capacity,
          ...(h.size > 0 ? { oldestResourceVersion: h.oldestResourceVersionLocked() } : {}),
        },
        watchers: e.cacher.watcherCount(),
        reflector: {
          lastSyncResourceVersion: e.cacher.lastSyncResourceVersion(),
          pausedForMs: e.cacher.reflector.pausedFor(),
          queuedEvents: e.cacher.reflector.queuedEvents(),
        },
      };
    });
    const watchers: WatcherView[] = [];
    let watchersTotal = 0;
    for (const r of this.world.resources) {
      for (const w of r.engine.cacher.registeredWatchers()) {
        watchersTotal++;
        if (watchers.length >= this.maxWatchersShown) continue;
        const report = w.report();
        const { request } = report;
        watchers.push({
          id: report.id,
          resource: resourceName(r),
          ...(request
            ? {
                requestId: request.requestId,
                userAgent: request.client,
                requestLine: request.requestLine,
              }
            : {}),
          identifier: report.identifier,
          state: report.state,
          lastResourceVersion: report.lastResourceVersion,
          clientRead: (request && this.reads.get(request.requestId)) ?? {
            events: 0,
            lastResourceVersion: 0,
          },
          input: report.input,
          result: report.result,
          allowWatchBookmarks: report.allowWatchBookmarks,
        });
      }
    }
    return {
      kind: 'ListWatchState',
      etcd: etcdView(etcd, this.world.etcdMembers),
      resources,
      watchers,
      watchersTotal,
      clients: [...this.clients.values()].map((c) => ({
        ...c,
        resources: Object.fromEntries(
          Object.entries(c.resources).map(([resource, n]) => [resource, { ...n }]),
        ),
      })),
      recentLists: [...this.lists.values()].reverse(),
    };
  }
}

/** What a watch's client read: event lines written to it, and the RV the last one carried (0: none). */
export interface ClientRead {
  events: number;
  lastResourceVersion: number;
}

export interface WatcherView {
  id: number | string;
  resource: string;
  requestId?: number;
  userAgent?: string;
  requestLine?: string;
  identifier: string;
  state: string;
  /**
   * The watcher's own RV, not the client's: cache_watcher.go's `resourceVersion` in
   * processInterval, the RV the watch started from, raised only by the initial events it sent
   * (not by the events that follow). `clientRead.lastResourceVersion` is what the client read.
   * The README's "A live apiserver" section says both.
   */
  lastResourceVersion: number;
  /** What the server wrote to the watch's client: event lines (bookmarks too), the last one's RV. */
  clientRead: ClientRead;
  input: { len: number; cap: number };
  result: { len: number; cap: number };
  allowWatchBookmarks: boolean;
}

export interface DebugStateView {
  kind: 'ListWatchState';
  etcd: Record<string, unknown>;
  resources: Record<string, unknown>[];
  watchers: WatcherView[];
  watchersTotal: number;
  clients: ClientCounts[];
  /** Newest first. */
  recentLists: RecentList[];
}

/** The RequestInfo verb's group for the per-client counts. */
export function requestKind(verb: string): RequestKind {
  switch (verb) {
    case 'list':
      return 'lists';
    case 'get':
      return 'gets';
    case 'watch':
      return 'watches';
    case 'create':
    case 'update':
    case 'patch':
    case 'delete':
    case 'deletecollection':
      return 'writes';
    default:
      return 'other';
  }
}

/**
 * GET /debug/listwatch/v1/state: replica 1's, or with `?replica=N` (`serve --replicas`) that
 * replica's own engine (its watch caches lag on their own); a server of several says which it is.
 */
export function handleDebugStateRequest(
  method: string,
  states: readonly DebugState[],
  replicaParam: string | null = null,
): FaultResponse {
  if (method !== 'GET')
    return {
      status: 405,
      body: statusFailure(405, 'MethodNotAllowed', `${method} is not supported here; use GET`)
        .status,
    };
  let n = 1;
  if (replicaParam !== null) {
    n = /^[1-9][0-9]*$/.test(replicaParam) ? Number(replicaParam) : NaN;
    if (!(n <= states.length))
      return {
        status: 400,
        body: statusFailure(
          400,
          'BadRequest',
          `replica: ${JSON.stringify(replicaParam)}: this server runs ${states.length === 1 ? '1 replica (listwatch serve --replicas N runs more)' : `${states.length} replicas; expected 1..${states.length}`}`,
        ).status,
      };
  }
  const view = states[n - 1].view();
  return {
    status: 200,
    body: states.length > 1 ? { replica: n, replicas: states.length, ...view } : view,
  };
}

/**
 * The etcd part of the state. The in-memory member's figures are its own; a real cluster's are
 * what this server's client has seen (the highest revision in any answer, the last compaction it
 * made or was told of), so they are named for that: other writers can be ahead.
 */
function etcdView(etcd: EtcdMember, checked: DebugWorld['etcdMembers']): Record<string, unknown> {
  if (etcd instanceof MemoryEtcd)
    return {
      kind: 'memory',
      revision: etcd.currentRevision(),
      compactRevision: etcd.compactRevision(),
      rangeStream: etcd.rangeStreamSupport,
      latency: { ...etcd.latencyModel },
      latencySimulated: etcd.simulatesLatency,
      unavailableForMs: etcd.unreachableFor(),
      ...(checked ?? {}),
    };
  return {
    kind: etcd.kind,
    endpoints: 'endpoints' in etcd ? etcd.endpoints : [],
    revisionSeen: etcd.currentRevision(),
    compactRevisionSeen: etcd.compactRevision(),
    ...(checked ?? {}),
  };
}
