// No upstream counterpart: the apiserver keeps no per-client history. Groups a run's LISTs and
// WATCHes by client (the User-Agent, and in live runs the TCP connection) the way a controller
// author reads their informer's life: LIST pages chained by continue tokens (decoded with
// storage.DecodeContinue), how each page was served, the watches with their cacheWatcher states
// and how they ended, restarts, 410s and relists with what each relist cost. A pure function of
// the records the builder already folded: a live run may call it again as the run grows.
import { inspectContinue } from '../engine';
import { inferredGroupingPrefix } from './views/client-name';
import { listEtcdRequests } from './views/list-etcd-requests';
import {
  endedAfterListing,
  isListByWatch,
  isWatchListRequest,
  relistsAfter,
  type RelistVia,
} from './relist-rule';
import type {
  ClientListChain,
  ClientListCost,
  ClientListRequest,
  ClientRecord,
  ClientRequest,
  ClientWatchEnd,
  ClientWatchRequest,
  ListRecord,
  VirtualMs,
  WatchRequestRecord,
  WatcherTrack,
} from './run-model';

/** How the watch's end reads as a category. A timeout and the client's own close are not early. */
export function watchEndCategory(track: WatcherTrack): ClientWatchEnd {
  const r = track.closeReason;
  if (r === 'timeout') return 'timeout';
  if (r.startsWith('terminated')) return 'terminated';
  if (r === 'client went away') return 'client-closed';
  if (/\b410\b|too old resource version|Expired/.test(r)) return 'expired';
  return 'server-closed';
}

/** Ended early or with a 410: what makes the next LIST a relist. */
export function endsEarly(how: ClientWatchEnd): boolean {
  return how !== 'timeout' && how !== 'client-closed';
}

const continueParam = /[?&]continue=([^&]*)/;
const resourceVersionParam = /[?&]resourceVersion=([^&]*)/;

/** One query parameter of a request path ('' when absent). */
function queryParam(request: string, param: RegExp): string {
  const m = param.exec(request);
  if (!m) return '';
  try {
    return decodeURIComponent(m[1].replace(/\+/g, ' '));
  } catch {
    return m[1];
  }
}

/** The continue token as storage.DecodeContinue reads it (start key relative to the prefix). */
function decodeToken(token: string): ClientListRequest['continueFrom'] {
  const r = inspectContinue(token, '/');
  if (r.error || !r.token) return { error: r.error?.message ?? 'continue key is not valid' };
  return { startKey: r.token.start, resourceVersion: String(r.token.rv) };
}

export function listCost(l: ListRecord): ClientListCost {
  let keys = 0;
  for (const e of l.etcdRequests) keys += e.kvs;
  return {
    pages: 1,
    items: l.returned,
    etcdRequests: listEtcdRequests(l),
    keysFetched: keys,
    ms: l.endedAt !== undefined ? l.endedAt - l.at : 0,
  };
}

interface Sent {
  at: VirtualMs;
  list?: ListRecord;
  watch?: WatchRequestRecord;
}

function requestIdOf(s: Sent): number {
  return (s.list ?? (s.watch as WatchRequestRecord)).requestId;
}

function clientKey(client: string, connection: string | undefined): string {
  return connection === undefined ? client : `${client} · ${connection}`;
}

/** Folds one client's requests (in the order they were sent) into its record. */
function foldClient(
  client: string,
  connection: string | undefined,
  sent: Sent[],
  trackOf: (watcherId: string) => WatcherTrack | undefined,
  runEnd: VirtualMs,
): ClientRecord {
  const requests: ClientRequest[] = [];
  const chains: ClientListChain[] = [];
  /** Open chains by the continue token their last page answered with. */
  const byToken = new Map<string, number>();
  /**
   * Chains whose last attempt failed otherwise than 410, by the continue token it sent: sending it
   * again is a retry of that page (client-go's request re-sends a 429 or 5xx), not a new chain.
   */
  const failedByToken = new Map<string, { chain: number; attempt: number }>();
  /**
   * Chains whose first page (no continue) failed otherwise than 410, by its request (path and
   * query): the same request again is that first page retried, as client-go re-sends it, not a
   * new chain (nor a relist).
   */
  const failedFirstByRequest = new Map<string, { chain: number; attempt: number }>();
  /** The last watch sent, and whether a LIST chain started after it. */
  let lastWatch: number | undefined;
  let listedSinceWatch = false;
  /** The last chain that expired and has not been restarted. */
  let expiredChain: number | undefined;
  /** The last watch ended after its client had listed (relist-rule.ts endedAfterListing). */
  let lastWatchListed = true;
  for (const s of sent) {
    if (s.list) {
      const l = s.list;
      const token = queryParam(l.request, continueParam);
      let chain = token !== '' ? byToken.get(token) : undefined;
      const failed =
        token !== ''
          ? chain === undefined
            ? failedByToken.get(token)
            : undefined
          : failedFirstByRequest.get(l.request);
      if (failed) chain = failed.chain;
      let orphan = false;
      if (chain !== undefined) {
        byToken.delete(token);
        failedByToken.delete(token);
        failedFirstByRequest.delete(l.request);
      } else {
        orphan = token !== '';
        chain = chains.length;
        const c: ClientListChain = { pages: [], outcome: 'open' };
        if (orphan) c.orphan = true;
        if (!orphan && expiredChain !== undefined) {
          chains[expiredChain].restartedBy = chain;
          expiredChain = undefined;
        }
        if (!orphan && lastWatch !== undefined && !listedSinceWatch) {
          const w = requests[lastWatch] as ClientWatchRequest;
          if (w.end && endsEarly(w.end.how) && lastWatchListed && relistsAfter(w.end.at, l.at))
            c.relist = { afterWatch: lastWatch, gapMs: l.at - w.end.at, because: w.end.how };
        }
        chains.push(c);
        listedSinceWatch = true;
      }
      const c = chains[chain];
      // A retry is its failed attempt's page again; any other page the one after the chain's last.
      const previous = failed
        ? failed.attempt
        : c.pages.length
          ? c.pages[c.pages.length - 1]
          : undefined;
      const previousPage =
        previous === undefined ? -1 : (requests[previous] as ClientListRequest).page;
      const r: ClientListRequest = {
        kind: 'list',
        at: l.at,
        listId: l.id,
        request: l.request,
        servedBy: l.servedBy,
        rule: l.rule,
        cost: listCost(l),
        chain,
        page: failed ? previousPage : previousPage + 1,
        hasMore: l.continue !== '',
      };
      if (failed) r.retryOf = failed.attempt;
      if (l.endedAt !== undefined) r.endedAt = l.endedAt;
      if (token !== '') r.continueFrom = decodeToken(token);
      if (l.error) r.error = l.error;
      if (l.replica !== undefined) r.replica = l.replica;
      c.pages.push(requests.length);
      requests.push(r);
      if (l.error) {
        c.outcome = l.error.code === 410 ? 'expired' : 'error';
        if (c.outcome === 'expired') expiredChain = chain;
        else if (token !== '')
          failedByToken.set(token, { chain, attempt: c.pages[c.pages.length - 1] });
        else failedFirstByRequest.set(l.request, { chain, attempt: c.pages[c.pages.length - 1] });
      } else if (l.endedAt === undefined) c.outcome = 'open';
      else if (l.continue !== '') {
        c.outcome = 'open';
        byToken.set(l.continue, chain);
      } else c.outcome = 'complete';
      continue;
    }
    const q = s.watch as WatchRequestRecord;
    // A LIST after a watch is the client's next list, not the retry of a failed first page.
    failedFirstByRequest.clear();
    const track = q.watcherId !== undefined ? trackOf(q.watcherId) : undefined;
    const w: ClientWatchRequest = {
      kind: 'watch',
      at: q.at,
      requestId: q.requestId,
      request: q.request,
      resourceVersion: queryParam(q.request, resourceVersionParam),
      states: track ? track.states.slice() : [],
      received: track?.eventsReceived ?? 0,
      lastRv: track?.lastRvSent ?? 0,
    };
    if (q.watcherId !== undefined) w.watcherId = q.watcherId;
    if (q.replica !== undefined) w.replica = q.replica;
    if (q.outcome === 'error') {
      const code = q.error?.code ?? 0;
      w.end = {
        at: q.answeredAt ?? q.at,
        how: code === 410 ? 'expired' : 'error',
        text: q.error ? `${q.error.code} ${q.error.reason}: ${q.error.message}` : 'refused',
      };
    } else if (track && (track.closedAt !== undefined || track.closeReason !== '')) {
      w.end = {
        at: track.closedAt ?? runEnd,
        how: watchEndCategory(track),
        text: track.closeReason || 'closed',
      };
    }
    const listByWatch = isListByWatch(q.request);
    if (listByWatch) w.listByWatch = {};
    if (lastWatch !== undefined && !listedSinceWatch) {
      const prev = requests[lastWatch] as ClientWatchRequest;
      // A WatchList client lists by watching: its new sendInitialEvents watch is its relist.
      if (
        prev.end &&
        endsEarly(prev.end.how) &&
        lastWatchListed &&
        relistsAfter(prev.end.at, w.at) &&
        isWatchListRequest(q.request)
      )
        w.relist = { afterWatch: lastWatch, gapMs: w.at - prev.end.at, because: prev.end.how };
      else if (prev.end && prev.end.at <= w.at && listByWatch) w.listByWatch = { after: lastWatch };
      else if (prev.end && prev.end.at <= w.at) {
        // The client's last RV: the newest it read, else the one its watch started from (a
        // reflector's lastSyncResourceVersion stays the list's until an event moves it); "0" and
        // none name no RV of the client's own.
        const lastRv = prev.lastRv > 0 ? String(prev.lastRv) : prev.resourceVersion;
        w.restart = {
          after: lastWatch,
          fromLastRv: lastRv !== '' && lastRv !== '0' && w.resourceVersion === lastRv,
        };
      }
    }
    lastWatch = requests.length;
    listedSinceWatch = false;
    lastWatchListed = endedAfterListing(
      isWatchListRequest(q.request),
      q.outcome === 'error'
        ? false
        : track?.initialEventsEndBookmarks === undefined
          ? undefined
          : track.initialEventsEndBookmarks > 0,
    );
    requests.push(w);
  }
  const record: ClientRecord = {
    id: clientKey(client, connection),
    client,
    firstAt: sent.length ? sent[0].at : 0,
    requests,
    chains,
  };
  if (connection !== undefined) record.connection = connection;
  return record;
}

/**
 * The run's clients, in the order they first sent a request. The cacher's own LISTs (no client)
 * belong to none. `trackOf` finds a watch's watcher.
 */
export function clientRecords(
  lists: readonly ListRecord[],
  watchRequests: readonly WatchRequestRecord[],
  trackOf: (watcherId: string) => WatcherTrack | undefined,
  runEnd: VirtualMs,
): ClientRecord[] {
  const groups = new Map<string, Group>();
  const add = (
    client: string,
    connection: string | undefined,
    session: string | undefined,
    s: Sent,
  ) => {
    const key = clientKey(client, connection);
    let g = groups.get(key);
    if (!g) {
      g = { client, connection, sent: [], sessions: [] };
      groups.set(key, g);
    }
    if (session !== undefined && !g.sessions.includes(session)) g.sessions.push(session);
    g.sent.push(s);
  };
  for (const l of lists)
    if (l.client !== undefined) add(l.client, l.connection, l.session, { at: l.at, list: l });
  for (const q of watchRequests) add(q.client, q.connection, q.session, { at: q.at, watch: q });
  const out: ClientRecord[] = [];
  for (const g of reconnectsMerged([...groups.values()], trackOf, runEnd)) {
    // In the order sent: request ids grow with each request, so they order one instant's requests.
    g.sent.sort((a, b) => a.at - b.at || requestIdOf(a) - requestIdOf(b));
    const record = foldClient(g.client, g.connection, g.sent, trackOf, runEnd);
    if (g.joined !== undefined) record.grouping = groupingText(g);
    out.push(record);
  }
  return out.sort((a, b) => a.firstAt - b.firstAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

type Group = {
  client: string;
  connection?: string;
  sent: Sent[];
  /** The Kubectl-Session values its requests carried (none: the client sends no such header). */
  sessions: string[];
  /** Set when connections were joined into it: after a fault cut one, or one after another. */
  joined?: 'after-cut' | 'one-after-another';
  /** A joined connection whose requests carried no Kubectl-Session. */
  unproven?: boolean;
};

/**
 * Whether two connections' requests may be one program's: not when both carry a Kubectl-Session
 * and they differ (kubectl makes one per process: two values are two processes).
 */
function mayBeOneProgram(a: Group, b: Group): boolean {
  if (a.sessions.length === 0 || b.sessions.length === 0) return true;
  return a.sessions.length === 1 && b.sessions.length === 1 && a.sessions[0] === b.sessions[0];
}

/** `into` takes `g`'s connection and requests (`how`: why they are taken to be one client). */
function join(into: Group, g: Group, how: NonNullable<Group['joined']>): void {
  into.sent.push(...g.sent);
  into.connection = `${into.connection}, ${g.connection}`;
  if (into.joined === undefined && into.sessions.length === 0) into.unproven = true;
  if (g.sessions.length === 0) into.unproven = true;
  for (const s of g.sessions) if (!into.sessions.includes(s)) into.sessions.push(s);
  into.joined ??= how;
}

/** What joining a client's connections rests on: a proof, or the inference and its grounds. */
function groupingText(g: Group): string {
  if (!g.unproven && g.sessions.length === 1)
    return 'one process: every request carried the same Kubectl-Session header (kubectl sends one per process)';
  if (g.joined === 'after-cut')
    return `${inferredGroupingPrefix}: taken as the same program going on because a fault cut its watch and this user agent came back on a new connection after it`;
  return `${inferredGroupingPrefix}: taken as one program because this user agent never sent two LISTs or WATCHes on one connection and these connections followed one another; separate processes with one request each look the same`;
}

/** When a request's answer ended: a LIST's last byte, a watch's close (the run's end while open). */
function endOf(
  s: Sent,
  trackOf: (watcherId: string) => WatcherTrack | undefined,
  runEnd: VirtualMs,
): VirtualMs {
  if (s.list) return s.list.endedAt ?? runEnd;
  const q = s.watch as WatchRequestRecord;
  if (q.watcherId === undefined) return q.answeredAt ?? q.at;
  return trackOf(q.watcherId)?.closedAt ?? runEnd;
}

/**
 * A user agent that never sent two requests on one TCP connection (client-node's fetch opens one
 * per request) would otherwise split its LIST, its WATCH and its relist into rows that never see
 * each other: its connections, one after the other, are one client. Its connections that overlap
 * in time stay apart (two informers at once), and a user agent that reuses connections (client-go:
 * kubectl, controllers) keeps one client per connection. Connections whose requests carry different
 * Kubectl-Session headers are never joined: they are separate kubectl processes (three `kubectl
 * get`s one after another are three clients). A joined client says what the joining rests on.
 */
function reconnectsMerged(
  groups: Group[],
  trackOf: (watcherId: string) => WatcherTrack | undefined,
  runEnd: VirtualMs,
): Group[] {
  const out: Group[] = [];
  const open = new Map<string, Array<{ group: Group; end: VirtualMs }>>();
  const spans = groups.map((g) => ({
    g,
    start: Math.min(...g.sent.map((x) => x.at)),
    end: Math.max(...g.sent.map((x) => endOf(x, trackOf, runEnd))),
  }));
  spans.sort((a, b) => a.start - b.start);
  const reuses = new Set(groups.filter((g) => g.sent.length > 1).map((g) => g.client));
  /** Per user agent, the clients whose last request was a watch a fault cut, and when it ended. */
  const cut = new Map<string, Array<{ group: Group; end: VirtualMs }>>();
  const lastCut = (sent: Sent[]): boolean => {
    const last = sent.reduce((a, b) => (b.at >= a.at ? b : a));
    return last.watch?.cut === true;
  };
  for (const { g, start, end } of spans) {
    if (g.connection !== undefined && reuses.has(g.client)) {
      // A connection a fault cut: the client that reconnects after it is the same client going
      // on (client-go's reflector re-watches on a new connection), not a new one.
      const waiting = cut.get(g.client) ?? [];
      const i = waiting.findIndex((c) => c.end <= start && mayBeOneProgram(c.group, g));
      if (i >= 0) {
        const [c] = waiting.splice(i, 1);
        join(c.group, g, 'after-cut');
        if (lastCut(g.sent)) waiting.push({ group: c.group, end });
        continue;
      }
      out.push(g);
      if (lastCut(g.sent)) cut.set(g.client, [...waiting, { group: g, end }]);
      continue;
    }
    if (g.connection === undefined || reuses.has(g.client)) {
      out.push(g);
      continue;
    }
    const chains = open.get(g.client) ?? [];
    open.set(g.client, chains);
    const chain = chains.find((c) => c.end <= start && mayBeOneProgram(c.group, g));
    if (!chain) {
      const merged: Group = { ...g, sent: [...g.sent], sessions: [...g.sessions] };
      chains.push({ group: merged, end });
      out.push(merged);
      continue;
    }
    join(chain.group, g, 'one-after-another');
    chain.end = Math.max(chain.end, end);
  }
  return out;
}

/** One relist of a client, LIST chain or WatchList watch, for the reports. */
export interface ClientRelist {
  at: VirtualMs;
  via: RelistVia;
  /** The request that relisted (a chain's first page). */
  request: string;
  gapMs: number;
  because: ClientWatchEnd;
}

/** A client's relists in the order sent: its relist chains' first pages and its WatchList relists. */
export function relistsOf(c: ClientRecord): ClientRelist[] {
  const out: ClientRelist[] = [];
  for (const chain of c.chains) {
    const first = c.requests[chain.pages[0]];
    if (chain.relist && first)
      out.push({
        at: first.at,
        via: 'list',
        request: first.request,
        gapMs: chain.relist.gapMs,
        because: chain.relist.because,
      });
  }
  for (const r of c.requests)
    if (r.kind === 'watch' && r.relist)
      out.push({
        at: r.at,
        via: 'watch-list',
        request: r.request,
        gapMs: r.relist.gapMs,
        because: r.relist.because,
      });
  return out.sort((a, b) => a.at - b.at);
}
