// No upstream counterpart: "what each client did" (issue 26), the JSON a user's test asserts on.
// `GET /debug/listwatch/v1/clients`, `listwatch clients`, the Clients view's fault markers and
// `listwatch report` of a saved live trace all read it from the run model, through this one pure
// function: per client (User-Agent and connection, as client-records.ts groups them) its LISTs by
// how they were served, its WATCHes, WatchList syncs, restarts and relists, the answers it got by
// HTTP code and the bytes sent to it, and for each fault that touched it the time from the fault
// to its first successful retry, re-watch or relist. Field names are stable: a new field may be
// added, none is renamed or removed.
import type {
  ClientListRequest,
  ClientRecord,
  ClientWatchRequest,
  FaultMark,
  ListRecord,
  RunModel,
  VirtualMs,
  WatchRequestRecord,
} from './run-model';
import { endsEarly } from './client-records';
import { isWatchListRequest } from './relist-rule';
import { liveScenario } from './views/run-clock';

export const clientsReportKind = 'ClientsReport';
export const clientsReportApiVersion = 'listwatch/v1';

/** The body of `GET /debug/listwatch/v1/clients` and of `listwatch clients --json`. */
export interface ClientsReport {
  kind: 'ClientsReport';
  apiVersion: 'listwatch/v1';
  /** Ms since the server started when the report was made (a saved trace: its end). */
  at: VirtualMs;
  /** Every fault injected so far, in order. */
  faults: ReportedFault[];
  /** The clients, in the order they first sent a LIST or WATCH; then those that sent neither. */
  clients: ClientReport[];
}

/** A fault as the report lists it (the active-faults registry's id and name). */
export interface ReportedFault {
  /** Its id (null in traces recorded before faults had ids). */
  id: number | null;
  name: string;
  /** When it was injected (ms since the server started). */
  at: VirtualMs;
  text: string;
  /** Requests it hit (a server fault hits none: it acts on the engine). */
  hits: number;
}

/**
 * One client: a User-Agent on one TCP connection (connections one after another that one
 * Kubectl-Session proves one process's, or that are inferred one program's: `grouping` says which).
 */
export interface ClientReport {
  /** `<userAgent> · <connection>`: unique in the report, the Clients view's row. */
  id: string;
  userAgent: string;
  /** `c7`, or `c7, c9` for connections one after another; null in a scenario run. */
  connection: string | null;
  /**
   * When `connection` names several: what taking them as one client rests on (one
   * Kubectl-Session, or an inference and its grounds); null for one connection.
   */
  grouping: string | null;
  /** Its first request (ms since the server started). */
  firstAt: VirtualMs;
  lists: {
    /** LIST requests sent (pages and retries each count). */
    total: number;
    /** Served from the watch cache. */
    cache: number;
    /** Delegated to etcd. */
    etcd: number;
    /** Answered with an error (its code is in `answers`). */
    error: number;
    /** Pages of a chunked LIST: sent with a continue token, or answered with one. */
    paged: number;
    /** The same request sent again after a 429 or 5xx (client-go's retry). */
    retries: number;
  };
  watches: {
    /** WATCH requests sent (WatchList requests included). */
    total: number;
    /** With sendInitialEvents=true (WatchList). */
    watchList: number;
    /** Still open when the report was made. */
    open: number;
  };
  /** Each WatchList request, and whether it got the k8s.io/initial-events-end bookmark. */
  watchListSyncs: WatchListSync[];
  /** WATCHes sent again after the previous one ended, with no LIST between. */
  restarts: {
    total: number;
    /** From the resourceVersion of the last event it had read (no events lost, no relist). */
    fromLastRv: number;
  };
  /** LISTs from scratch (or WatchList WATCHes) after a watch ended early or with a 410. */
  relists: number;
  /** Responses by HTTP status code, every request of this client (discovery and writes too). */
  answers: Record<string, number>;
  /** Bytes of the response bodies written to it. */
  bytesSent: number;
  /** Each fault that touched it, with its recovery. */
  faults: ClientFaultRecovery[];
  /** Its LISTs and WATCHes in the order sent. */
  requests: ClientReportRequest[];
}

export interface WatchListSync {
  requestId: number;
  at: VirtualMs;
  /** The k8s.io/initial-events-end bookmark reached the client: its informer synced. */
  ended: boolean;
  endedAt: VirtualMs | null;
}

/**
 * How a client got past a fault: a retry, a re-watch or a relist, or `answered`: every request
 * the fault hit was itself answered (a latency added, a stalled watch's events delivered), so there
 * was nothing to recover from, and the time is until the last of them was answered; a server
 * fault that did not end the client's open watch, 0 ms.
 */
export type RecoveredBy = 'retry' | 'rewatch' | 'relist' | 'answered';

export interface ClientFaultRecovery {
  id: number | null;
  name: string;
  /** When it touched this client: its first hit on it, or the fault's time (a server fault). */
  at: VirtualMs;
  /** Requests of this client it hit (0: a server fault, which ended its watch or found it open). */
  hits: number;
  recovered: boolean;
  /**
   * From `at` to the first successful retry, re-watch or relist after it (or, `answered`, until
   * the last hit request was answered); null: not recovered.
   */
  recoveryMs: number | null;
  recoveredBy: RecoveredBy | null;
  /**
   * `recovered in 812 ms (rewatch)`, `its requests were answered in 210 ms (nothing to recover)`,
   * `its watch was not cut (nothing to recover)` (a server fault), or `not recovered`.
   */
  recovery: string;
}

export interface ClientReportRequest {
  at: VirtualMs;
  requestId: number;
  verb: 'list' | 'watch';
  /** Path and query as sent. */
  request: string;
  /** The HTTP status (a watch: of its response head); null while unanswered. */
  status: number | null;
  /** A LIST: what served it. */
  servedBy?: ListRecord['servedBy'];
  /** A LIST sent again after a failed attempt (the index of that attempt in `requests`). */
  retryOf?: number;
  /** A WATCH sent again after the previous one ended. */
  restart?: { fromLastRv: boolean };
  relist?: true;
  /** A WatchList WATCH: whether its sync ended (the initial-events-end bookmark). */
  synced?: boolean;
  /** The ids of the faults that hit it. */
  faults?: number[];
  /** Which apiserver replica served it (`serve --replicas N`); absent with one. */
  replica?: number;
}

/** What the Clients view shows of a client's report beside its own figures (by client id). */
export type ClientReported = Pick<
  ClientReport,
  'answers' | 'bytesSent' | 'faults' | 'watchListSyncs'
>;

/** The report's figures the Clients view adds, by client id (clients with nothing to add left out). */
export function clientsReported(report: ClientsReport): Record<string, ClientReported> {
  const out: Record<string, ClientReported> = {};
  for (const c of report.clients)
    if (c.faults.length || Object.keys(c.answers).length || c.watchListSyncs.length)
      out[c.id] = {
        answers: c.answers,
        bytesSent: c.bytesSent,
        faults: c.faults,
        watchListSyncs: c.watchListSyncs,
      };
  return out;
}

/** `a · c7`, as client-records.ts names a client. */
function clientId(userAgent: string, connection: string | undefined): string {
  return connection === undefined ? userAgent : `${userAgent} · ${connection}`;
}

/** Whether the run's connection `connection` is one of `record`'s (`c7, c9`). */
function ownsConnection(record: ClientRecord, client: string, connection?: string): boolean {
  if (record.client !== client) return false;
  if (record.connection === undefined || connection === undefined)
    return record.connection === connection;
  return record.connection.split(', ').includes(connection);
}

interface Recovery {
  at: VirtualMs;
  by: RecoveredBy;
}

/** When each of the client's successful retries, re-watches and relists succeeded, in order. */
function recoveries(
  c: ClientRecord,
  reqs: ClientReportRequest[],
  watchOf: (requestId: number) => WatchRequestRecord | undefined,
): Array<Recovery & { sentAt: VirtualMs; requestId: number }> {
  const out: Array<Recovery & { sentAt: VirtualMs; requestId: number }> = [];
  c.requests.forEach((r, i) => {
    const q = reqs[i];
    if (r.kind === 'list') {
      if (r.error || r.endedAt === undefined) return;
      const chain = c.chains[r.chain];
      if (r.retryOf !== undefined) {
        out.push({ at: r.endedAt, by: 'retry', sentAt: r.at, requestId: q.requestId });
        return;
      }
      // A chain from scratch that completed: its last page is when the client had its state again.
      if (r.page !== 0 || chain.outcome !== 'complete' || chain.orphan) return;
      const last = c.requests[chain.pages[chain.pages.length - 1]] as ClientListRequest;
      out.push({
        at: last.endedAt ?? r.endedAt,
        by: 'relist',
        sentAt: r.at,
        requestId: q.requestId,
      });
      return;
    }
    if (q.status !== 200) return;
    if (q.synced !== undefined) {
      // A WatchList WATCH lists: it succeeded when its initial events ended.
      const w = watchOf(q.requestId);
      if (q.synced && w?.initialEventsEndAt !== undefined)
        out.push({ at: w.initialEventsEndAt, by: 'relist', sentAt: r.at, requestId: q.requestId });
      else if (q.synced) out.push({ at: r.at, by: 'relist', sentAt: r.at, requestId: q.requestId });
      return;
    }
    if (r.restart)
      out.push({
        at: watchOf(q.requestId)?.answeredAt ?? r.at,
        by: 'rewatch',
        sentAt: r.at,
        requestId: q.requestId,
      });
  });
  return out;
}

/**
 * When the last of the hit requests was answered, when every one of them was (a LIST completed
 * without an error, a WATCH opened with 200 and not cut: still open, timed out or closed by its
 * client, and a WatchList one synced); undefined if none was hit or one failed.
 */
function answeredAt(
  c: ClientRecord,
  reqs: ClientReportRequest[],
  hitIds: ReadonlySet<number>,
  watchOf: (requestId: number) => WatchRequestRecord | undefined,
): VirtualMs | undefined {
  if (hitIds.size === 0) return undefined;
  let last: VirtualMs | undefined;
  let seen = 0;
  for (let i = 0; i < c.requests.length; i++) {
    if (!hitIds.has(reqs[i].requestId)) continue;
    seen++;
    const r = c.requests[i];
    let at: VirtualMs | undefined;
    if (r.kind === 'list') at = r.error ? undefined : r.endedAt;
    else if (
      reqs[i].status === 200 &&
      reqs[i].synced !== false &&
      (r.end === undefined || !endsEarly(r.end.how))
    )
      // A WatchList WATCH is answered when its initial events ended.
      at = watchOf(r.requestId)?.initialEventsEndAt ?? watchOf(r.requestId)?.answeredAt ?? r.at;
    if (at === undefined) return undefined;
    last = last === undefined ? at : Math.max(last, at);
  }
  return seen === hitIds.size ? last : undefined;
}

/** Whether watch `r` was open at `at`. */
function openAt(r: ClientWatchRequest, at: VirtualMs): boolean {
  return r.at <= at && (r.end === undefined || r.end.at >= at);
}

/** The watch's end names the terminate-watcher fault (watcher-track.ts closeReason). */
const terminatedByFault = 'terminated by the terminate-watcher fault';
/** Server faults that drop the watch cache's history: what a later 410 comes from. */
const historyFaults = new Set(['expire-history', 'compact']);

/**
 * The server fault (of `serverMarks`, in time order) that ended watch `w` early, if one did: the
 * terminate-watcher fault that names it (recorded just after it acted, so the first one at or
 * after the end), for a 410 the last fault that dropped the history before it, else the last
 * server fault while it was open (a restart, etcd unavailable). Undefined: it was not cut, or
 * nothing the run injected explains it.
 */
function cutBy(w: ClientWatchRequest, serverMarks: readonly FaultMark[]): FaultMark | undefined {
  const end = w.end;
  if (end === undefined || !endsEarly(end.how)) return undefined;
  if (end.text.startsWith(terminatedByFault))
    return serverMarks.find((m) => m.name === 'terminate-watcher' && m.at >= end.at);
  const before = serverMarks.filter((m) => m.at <= end.at);
  if (end.how === 'expired') {
    const dropped = before.filter((m) => historyFaults.has(m.name)).at(-1);
    if (dropped) return dropped;
  }
  return before.filter((m) => m.name !== 'terminate-watcher' && m.at >= w.at).at(-1);
}

function recoveryText(ms: number | null, by: RecoveredBy | null, hits: number): string {
  if (ms === null) return 'not recovered';
  if (by === 'answered' && hits === 0) return 'its watch was not cut (nothing to recover)';
  if (by === 'answered')
    return `its requests were answered in ${Math.round(ms)} ms (nothing to recover)`;
  return `recovered in ${Math.round(ms)} ms (${by})`;
}

/** The clients report of a run model (a live server's so far, or a saved trace's). */
export function clientsReport(model: RunModel): ClientsReport {
  const live = model.header.scenario === liveScenario;
  const listById = new Map(model.lists.map((l) => [l.id, l]));
  const watchById = new Map((model.watchRequests ?? []).map((w) => [w.requestId, w]));
  const trackById = new Map(model.watchers.map((w) => [w.id, w]));
  const marks: FaultMark[] = model.faults ?? [];
  const serverMarks = marks.filter((m) => m.hits === undefined).sort((a, b) => a.at - b.at);
  const answers = model.answers ?? [];
  const claimed = new Set<(typeof answers)[number]>();
  const clients: ClientReport[] = (model.clients ?? []).map((c) => {
    const mine = answers.filter((a) => ownsConnection(c, a.client, a.connection));
    for (const a of mine) claimed.add(a);
    const statusOf = (requestId: number): number | undefined => {
      for (const a of mine) if (a.statusOf[requestId] !== undefined) return a.statusOf[requestId];
      return undefined;
    };
    const hitsOn = new Map<number, number[]>();
    for (const m of marks)
      for (const h of m.hits ?? [])
        if (m.id !== undefined && ownsConnection(c, h.client, h.connection))
          hitsOn.set(h.requestId, [...(hitsOn.get(h.requestId) ?? []), m.id]);
    const reqs: ClientReportRequest[] = c.requests.map((r) => {
      if (r.kind === 'list') {
        const l = listById.get(r.listId);
        const requestId = l?.requestId ?? -1;
        const status =
          r.error?.code ?? statusOf(requestId) ?? (r.endedAt !== undefined ? 200 : null);
        const q: ClientReportRequest = {
          at: r.at,
          requestId,
          verb: 'list',
          request: r.request,
          status,
          servedBy: r.servedBy,
        };
        if (r.replica !== undefined) q.replica = r.replica;
        if (r.retryOf !== undefined) q.retryOf = r.retryOf;
        const chain = c.chains[r.chain];
        if (chain.relist && chain.pages[0] === c.requests.indexOf(r)) q.relist = true;
        const f = hitsOn.get(requestId);
        if (f) q.faults = f;
        return q;
      }
      const w = watchById.get(r.requestId);
      const status =
        w?.error?.code ?? statusOf(r.requestId) ?? (w?.outcome === 'started' ? 200 : null);
      const q: ClientReportRequest = {
        at: r.at,
        requestId: r.requestId,
        verb: 'watch',
        request: r.request,
        status,
      };
      if (r.replica !== undefined) q.replica = r.replica;
      if (r.restart) q.restart = { fromLastRv: r.restart.fromLastRv };
      if (r.relist) q.relist = true;
      if (isWatchListRequest(r.request)) {
        const track = r.watcherId !== undefined ? trackById.get(r.watcherId) : undefined;
        q.synced = live
          ? w?.initialEventsEndAt !== undefined
          : (track?.initialEventsEndBookmarks ?? 0) > 0;
      }
      const f = hitsOn.get(r.requestId);
      if (f) q.faults = f;
      return q;
    });
    const lists = c.requests.filter((r): r is ClientListRequest => r.kind === 'list');
    const watches = c.requests.filter((r): r is ClientWatchRequest => r.kind === 'watch');
    const syncs: WatchListSync[] = [];
    reqs.forEach((q) => {
      if (q.synced === undefined) return;
      const endedAt = watchById.get(q.requestId)?.initialEventsEndAt;
      syncs.push({
        requestId: q.requestId,
        at: q.at,
        ended: q.synced,
        endedAt: q.synced ? (endedAt ?? null) : null,
      });
    });
    const byCode: Record<string, number> = {};
    let bytes = 0;
    for (const a of mine) {
      bytes += a.bytes;
      for (const [code, n] of Object.entries(a.byCode)) byCode[code] = (byCode[code] ?? 0) + n;
    }
    const recovered = recoveries(c, reqs, (id) => watchById.get(id));
    const faults: ClientFaultRecovery[] = [];
    for (const m of marks) {
      const hits = (m.hits ?? []).filter((h) => ownsConnection(c, h.client, h.connection));
      let from: VirtualMs;
      let hitIds: Set<number>;
      if (m.hits !== undefined) {
        if (hits.length === 0) continue;
        from = hits[0].at;
        hitIds = new Set(hits.map((h) => h.requestId));
      } else {
        // A server fault touched the clients whose watch it ended, and (but terminate-watcher,
        // which acts on the watchers it names alone) those whose watch was open when it acted.
        // A watch it did not end had nothing to recover from.
        const cut = watches.some((w) => cutBy(w, serverMarks) === m);
        if (!cut && (m.name === 'terminate-watcher' || !watches.some((w) => openAt(w, m.at))))
          continue;
        if (!cut) {
          faults.push({
            id: m.id ?? null,
            name: m.name,
            at: m.at,
            hits: 0,
            recovered: true,
            recoveryMs: 0,
            recoveredBy: 'answered',
            recovery: recoveryText(0, 'answered', 0),
          });
          continue;
        }
        from = m.at;
        hitIds = new Set();
      }
      const answered = answeredAt(c, reqs, hitIds, (id) => watchById.get(id));
      // A hit request whose own answer succeeded (one the fault only delayed) may be the recovery,
      // but only one sent after the last hit request that failed.
      const failedHitAt = reqs
        .filter(
          (q) =>
            hitIds.has(q.requestId) &&
            answeredAt(c, reqs, new Set([q.requestId]), (w) => watchById.get(w)) === undefined,
        )
        .reduce<VirtualMs>((at, q) => Math.max(at, q.at), from);
      const first =
        answered !== undefined
          ? { at: answered, by: 'answered' as const }
          : recovered.find(
              (x) =>
                x.sentAt >= from &&
                (hitIds.has(x.requestId) ? x.sentAt > failedHitAt : x.sentAt >= failedHitAt),
            );
      const ms = first ? Math.max(0, first.at - from) : null;
      faults.push({
        id: m.id ?? null,
        name: m.name,
        at: from,
        hits: hits.length,
        recovered: first !== undefined,
        recoveryMs: ms,
        recoveredBy: first?.by ?? null,
        recovery: recoveryText(ms, first?.by ?? null, hits.length),
      });
    }
    return {
      id: c.id,
      userAgent: c.client,
      connection: c.connection ?? null,
      grouping: c.grouping ?? null,
      firstAt: c.firstAt,
      lists: {
        total: lists.length,
        cache: lists.filter((l) => l.servedBy === 'cache' && !l.error).length,
        etcd: lists.filter((l) => l.servedBy === 'etcd' && !l.error).length,
        error: lists.filter((l) => l.error !== undefined).length,
        paged: lists.filter((l) => l.hasMore || l.continueFrom !== undefined).length,
        retries: lists.filter((l) => l.retryOf !== undefined).length,
      },
      watches: {
        total: watches.length,
        watchList: reqs.filter((q) => q.synced !== undefined).length,
        open: watches.filter(
          (w) => w.end === undefined && watchById.get(w.requestId)?.outcome !== 'error',
        ).length,
      },
      watchListSyncs: syncs,
      restarts: {
        total: watches.filter((w) => w.restart).length,
        fromLastRv: watches.filter((w) => w.restart?.fromLastRv).length,
      },
      relists: reqs.filter((q) => q.relist).length,
      answers: byCode,
      bytesSent: bytes,
      faults,
      requests: reqs,
    };
  });
  // Connections that sent no LIST or WATCH (discovery, gets, writes): their answers still count.
  for (const a of answers) {
    if (claimed.has(a)) continue;
    const faults: ClientFaultRecovery[] = [];
    for (const m of marks) {
      const hits = (m.hits ?? []).filter(
        (h) => h.client === a.client && h.connection === a.connection,
      );
      if (hits.length === 0) continue;
      faults.push({
        id: m.id ?? null,
        name: m.name,
        at: hits[0].at,
        hits: hits.length,
        recovered: false,
        recoveryMs: null,
        recoveredBy: null,
        recovery: recoveryText(null, null, hits.length),
      });
    }
    clients.push({
      id: clientId(a.client, a.connection),
      userAgent: a.client,
      connection: a.connection ?? null,
      grouping: null,
      firstAt: a.firstAt,
      lists: { total: 0, cache: 0, etcd: 0, error: 0, paged: 0, retries: 0 },
      watches: { total: 0, watchList: 0, open: 0 },
      watchListSyncs: [],
      restarts: { total: 0, fromLastRv: 0 },
      relists: 0,
      answers: { ...a.byCode },
      bytesSent: a.bytes,
      faults,
      requests: [],
    });
  }
  return {
    kind: clientsReportKind,
    apiVersion: clientsReportApiVersion,
    at: model.durationMs,
    faults: marks.map((m) => ({
      id: m.id ?? null,
      name: m.name,
      at: m.at,
      text: m.text,
      hits: (m.hits?.length ?? 0) + (m.hitsDropped ?? 0),
    })),
    clients,
  };
}
