// No upstream counterpart: folds the model's `lists` and `cacherLists`: a ListRecord per LIST, a
// client's (announced by its input) or the cacher's own (known from its etcd reads), from what the
// delegator decided, the freshness waits, the cache's answer or the etcd reads, pages and stream
// decisions of its storage GetLists, to how it ended.
import type {
  CacheListEvent,
  DelegationDecisionEvent,
  DelegationFallbackEvent,
  EtcdRequestEvent,
  ListDoneEvent,
  ListPageEvent,
  ListStreamDecisionEvent,
  ListStreamFallbackEvent,
  WatchCacheFreshnessWaitEvent,
} from '../../engine';
import type { ScenarioInput } from '../trace/trace-format';
import type { EtcdRequestRecord, ListPageRecord, ListRecord, ListStep } from '../run-model';
import { delegationRuleText } from '../delegation-rule-text';
import { seconds } from './seconds';
import type { SeriesLimit } from './series-limit';

type ListInput<A extends ScenarioInput['action']> = Extract<ScenarioInput, { action: A }>;

/**
 * A LIST being folded. A request can make several storage GetLists in a row (a consistent read's
 * current-RV lookup, then a fallback read); `pages` and `stream` belong to the one in progress and
 * pass to the record when it is done.
 */
interface ListFold {
  record: ListRecord;
  /** The cacher's own LIST (not announced by an input): its record goes to `cacherLists`. */
  internal: boolean;
  pages: ListPageRecord[];
  stream: ListRecord['stream'];
  /**
   * The delegator sent it to the cache and no fallback followed yet: a storage GetList that ends
   * now is a consistent read's current-RV lookup (1.36's GetCurrentResourceVersion), no answer.
   */
  toCache?: boolean;
}

/**
 * The record's state at `at` as a step (ListRecord.steps), with the storage's answer once it came:
 * a client's LIST only (the cacher's own are not drawn at a moment).
 */
function step(l: ListFold, at: number, answered: boolean): void {
  if (l.internal) return;
  const r = l.record;
  const s: ListStep = { at, servedBy: r.servedBy, rule: r.rule, fallbacks: r.fallbacks.length };
  if (answered) s.answer = { fetched: r.fetched, evaluated: r.evaluated, returned: r.returned };
  (r.steps ??= []).push(s);
}

function newListRecord(id: string, requestId: number, at: number, request: string): ListRecord {
  return {
    id,
    requestId,
    at,
    request,
    servedBy: 'cache',
    rule: '',
    etcdRequests: [],
    fetched: 0,
    evaluated: 0,
    returned: 0,
    resourceVersion: '',
    continue: '',
    waits: [],
    fallbacks: [],
    pages: [],
  };
}

export class ListsFold {
  /** LISTs by request id, while they run (the cacher's own stay: a few per (re)list). */
  private readonly byId = new Map<number, ListFold>();
  private readonly lists: ListRecord[] = [];
  private readonly cacherLists: ListRecord[] = [];
  private cacherListSeq = 0;

  constructor(private readonly series: SeriesLimit) {}

  /** A client's LIST was sent (its `list` input). */
  sent(at: number, input: ListInput<'list'>): void {
    const record = newListRecord(input.id, input.requestId, at, input.request);
    record.client = input.client;
    if (input.connection !== undefined) record.connection = input.connection;
    if (input.session !== undefined) record.session = input.session;
    if (input.replica !== undefined) record.replica = input.replica;
    if (input.via === 'store') {
      record.servedBy = 'etcd';
      record.rule =
        'sent to the etcd3 store (store.GetList), as the delegator does for what the cache cannot serve';
    } else if (input.via === 'cluster') {
      record.servedBy = 'cluster';
      record.rule =
        'a real cluster answered: whether its watch cache or etcd served it is not seen from outside, and its etcd calls are not known';
    }
    const l: ListFold = { record, internal: false, pages: [], stream: undefined };
    this.byId.set(input.requestId, l);
    // Sent straight to the store or a cluster: what serves it is known as it is sent.
    if (input.via === 'store' || input.via === 'cluster') step(l, at, false);
    this.series.push(this.lists, record, 'lists');
  }

  /** A client's LIST was answered (its `list-end` input). */
  ended(at: number, input: ListInput<'list-end'>): void {
    const l = this.byId.get(input.requestId);
    if (!l) return;
    this.byId.delete(input.requestId);
    const rec = l.record;
    rec.endedAt = at;
    rec.resourceVersion = input.resourceVersion;
    rec.continue = input.continue;
    if (input.remainingItemCount !== undefined) rec.remainingItemCount = input.remainingItemCount;
    if (input.logged) rec.logged = input.logged;
    if (input.disagrees) rec.disagrees = input.disagrees;
    if (input.status === 200) {
      rec.returned = input.items;
    } else {
      rec.servedBy = 'error';
      if (input.error)
        rec.error = {
          code: input.error.code,
          reason: input.error.reason,
          message: input.error.message,
        };
    }
  }

  /** A freshness wait of the LIST's request, if it is one. */
  wait(e: WatchCacheFreshnessWaitEvent): void {
    this.listOf(e.requestId)?.record.waits.push({
      at: e.at,
      rv: e.resourceVersion,
      waitedMs: e.waitedMs,
      outcome: e.outcome,
    });
  }

  decision(e: DelegationDecisionEvent): void {
    if (e.operation !== 'list') return;
    const l = this.listOf(e.requestId);
    if (!l) return;
    l.record.rule = delegationRuleText[e.rule] ?? e.rule;
    l.record.servedBy = e.target === 'etcd' ? 'etcd' : e.target === 'cache' ? 'cache' : 'error';
    l.toCache = e.target === 'cache';
    step(l, e.at, false);
  }

  fallback(e: DelegationFallbackEvent): void {
    const l = this.listOf(e.requestId);
    if (!l) return;
    const what =
      e.reason === 'too-large-resource-version'
        ? 'the cache did not catch up within 3 s'
        : 'no snapshot at the RV any more';
    l.record.fallbacks.push(
      e.fallback === 'true'
        ? `${what}: fell back to etcd`
        : `${what}: no fallback (429, ConsistentListFromCacheSkipTimeoutFallback)`,
    );
    // The rule read names the cache; what served it is the fallback, so the rule says so too.
    if (e.fallback === 'true') {
      l.record.rule += ` (then ${what}: fell back to etcd)`;
      l.record.servedBy = 'etcd';
      l.toCache = false;
    }
    // Emitted once the fallback's etcd read ended: its answer is the storage's (a failed one's
    // Status comes with the response).
    step(l, e.at, e.fallback === 'true' && e.success);
  }

  /** The cache answered the LIST (`cacher/list`). */
  servedByCache(e: CacheListEvent): void {
    const l = this.listOf(e.requestId);
    if (!l) return;
    // Served by the cache: an etcd read before it (a current-RV lookup) did not serve it.
    const r = l.record;
    r.servedBy = 'cache';
    r.fetched = e.fetched;
    // Traces written before the event said it: every fetched object.
    r.evaluated = e.evaluated ?? e.fetched;
    r.returned = e.returned;
    r.streamed = false;
    r.pages = [];
    delete r.stream;
    step(l, e.at, true);
  }

  /**
   * An etcd read (list, listStream, get, current RV) of request `e.requestId`; `watchPending`:
   * that request is a WATCH still waiting for its answer (its reads belong to no LIST).
   */
  etcdRead(e: EtcdRequestEvent, watchPending: boolean): void {
    const l = this.listRead(
      e.requestId,
      e.operation === 'list' || e.operation === 'listStream',
      e.at,
      watchPending,
    );
    if (!l) return;
    const rec: EtcdRequestRecord = {
      at: e.at,
      operation: e.operation,
      key: e.key,
      limit: e.limit,
      revision: e.revision,
      kvs: e.kvs,
      count: e.count,
      latencyMs: e.latencyMs,
    };
    if (e.rangeEnd !== undefined) rec.rangeEnd = e.rangeEnd;
    if (e.error !== undefined)
      rec.error = e.unimplemented ? `${e.error} (Unimplemented: RangeStream probe)` : e.error;
    this.series.push(l.record.etcdRequests, rec, 'etcdRequests');
  }

  page(e: ListPageEvent, watchPending: boolean): void {
    const l = this.listRead(e.requestId, true, e.at, watchPending);
    if (!l) return;
    this.series.push(
      l.pages,
      {
        at: e.at,
        limitAsked: e.limitAsked,
        fetched: e.fetched,
        evaluated: e.evaluated,
        matched: e.matched,
        itemsSoFar: e.itemsSoFar,
        count: e.count,
        hasMore: e.hasMore,
        limitReached: e.limitReached,
      },
      'pages',
    );
  }

  streamDecision(e: ListStreamDecisionEvent, watchPending: boolean): void {
    if (e.origin !== 'list') return;
    const l = this.listRead(e.requestId, true, e.at, watchPending);
    if (!l) return;
    l.stream = {
      decision: e.decision,
      reason: e.reason,
      ...(e.recheckAt !== undefined ? { recheckAt: e.recheckAt } : {}),
    };
  }

  streamFallback(e: ListStreamFallbackEvent, watchPending: boolean): void {
    if (e.origin !== 'list') return;
    const l = this.listRead(e.requestId, true, e.at, watchPending);
    if (!l) return;
    l.record.fallbacks.push(
      `RangeStream answered Unimplemented: paged instead; probed again at ${seconds(e.recheckAt)}`,
    );
    step(l, e.at, false);
  }

  /** A storage GetList of the request ended (`list/done`). */
  done(e: ListDoneEvent, watchPending: boolean): void {
    const l = this.listRead(e.requestId, true, e.at, watchPending);
    if (!l) return;
    // The storage GetList that ended last is the one that served the request.
    const r = l.record;
    r.servedBy = 'etcd';
    r.fetched = e.fetched;
    r.evaluated = e.evaluated;
    r.returned = e.returned;
    r.streamed = e.streamed;
    r.pages = l.pages;
    l.pages = [];
    if (l.stream) r.stream = l.stream;
    else delete r.stream;
    l.stream = undefined;
    if (!l.toCache) step(l, e.at, true);
    if (l.internal) {
      r.resourceVersion = e.resourceVersion ?? '';
      r.continue = e.continue ?? '';
      if (e.remainingItemCount !== undefined) r.remainingItemCount = e.remainingItemCount;
      r.endedAt = e.at;
      if (e.error) {
        r.servedBy = 'error';
        r.error = { code: e.error.code, reason: '', message: e.error.message };
      }
    }
  }

  /** The clients' LISTs so far (a new array; a record in flight is shared). */
  finishLists(): ListRecord[] {
    return this.lists.slice();
  }

  /** The cacher's own LISTs so far (a new array). */
  finishCacherLists(): ListRecord[] {
    return this.cacherLists.slice();
  }

  /** The LIST request `requestId` is folded into, if it is one. */
  private listOf(requestId: number | undefined): ListFold | undefined {
    return requestId === undefined ? undefined : this.byId.get(requestId);
  }

  /**
   * The LIST an etcd read of request `requestId` belongs to. A request no input announced is the
   * cacher's own (its reflector's page): its fold starts with its first list read (`listRead`).
   * A WATCH's reads (a watch-list's current-RV lookup) and GETs belong to no LIST.
   */
  private listRead(
    requestId: number | undefined,
    listRead: boolean,
    at: number,
    watchPending: boolean,
  ): ListFold | undefined {
    if (requestId === undefined) return undefined;
    const l = this.byId.get(requestId);
    if (l || !listRead || watchPending) return l;
    const record: ListRecord = {
      ...newListRecord(
        `cacher-${++this.cacherListSeq}`,
        requestId,
        // The read's own time: with etcd latency its event comes when the answer does.
        at,
        "the cacher's reflector lists etcd (watch cache initialisation)",
      ),
      servedBy: 'etcd',
      rule: "the watch cache's own LIST (storageWatchListPageSize 10000)",
    };
    const f: ListFold = { record, internal: true, pages: [], stream: undefined };
    this.byId.set(requestId, f);
    this.series.push(this.cacherLists, record, 'cacherLists');
    return f;
  }
}
