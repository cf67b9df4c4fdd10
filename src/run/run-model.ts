// What one run (a scenario run or a replayed trace) produced, folded from the engine's inspector
// events into the shapes every face shows: the CLI report and --json, the webview views, the side
// panel. No upstream counterpart. Plain JSON data: it crosses the host/webview boundary as is.
import type { ImportReport } from './import-report';

/** Virtual milliseconds since the run started. */
export type VirtualMs = number;

/** The trace header line (also the run's identity). */
export interface RunHeader {
  format: 'listwatch-trace';
  /** The trace format version (trace-format.ts traceVersion). */
  version: 2;
  scenario: string;
  /** Semantics profile: '1.36' or '1.37'. */
  profile: string;
  seed: number;
  /** Resolved parameters, as `--set name=value` accepts them. */
  params: Record<string, number | string | boolean>;
}

/**
 * What an imported log says the real server answered to a request the replay re-issued
 * (src/replay/replay-import.ts): only what the log knows, so only that is compared.
 */
export interface LoggedAnswer {
  /** The HTTP status the log says (absent: it does not say). */
  status?: number;
  items?: number;
  remainingItemCount?: number;
  /** The real cluster's RV: never compared (the engine's RVs are its own). */
  resourceVersion?: string;
  /** Whether the answer carried a continue token (absent: the log does not say). */
  continue?: boolean;
  /**
   * The log read the answer's ListMeta (a whole body, or a cut one whose metadata closed): a
   * continue or remainingItemCount it lacks was absent.
   */
  listMetaRead?: boolean;
  error?: { code: number; reason: string; message: string };
  /** How long the watch stayed open in the log (absent: it began or ended outside the file). */
  durationMs?: number;
  /**
   * Objects the replay seeded where this LIST looks (its resource, in its namespace or in all),
   * at the start of the log. With the replayed creates and deletes before it (`created`,
   * `deleted`), what the engine held there: fewer than the log's answer shows means the replay
   * cannot reproduce that answer.
   */
  seeded?: number;
  /** Objects the replayed log created where this LIST looks, before it (absent: none). */
  created?: number;
  /** Objects the replayed log deleted where this LIST looks, before it (absent: none). */
  deleted?: number;
  /**
   * Objects the log's answer proves exist where this LIST looks, at least: its items and
   * remainingItemCount; without items (a Table body), a page of an unfiltered LIST with a
   * continue token proves its limit and one more (its remainingItemCount more, when it says).
   */
  proven?: number;
  /**
   * The log's status is a fault or overload the replay does not model (APF's 429, a 5xx) and the
   * engine answered otherwise: not reproduced, and not a disagreement with the model.
   */
  notModelled?: boolean;
  /**
   * Why the replay could not re-create the log's answer (a watch's 410 with no write in the log
   * since its resourceVersion), in words; set only when the engine answered otherwise. Not a
   * disagreement with the model.
   */
  notReproduced?: string;
  /**
   * The answer agrees, but the log proves it took a time the replay did not (the 3 s
   * consistent-read wait, then etcd, answered at once from the cache): the log's latency and the
   * row's words (what agrees, the latency, and what it suggests, said as an inference). Absent: the
   * log does not say how long it took, or the replay took about as long.
   */
  latencyNotReproduced?: { loggedMs: number; text: string };
}

// Two runs side by side (src/run/compare-runs.ts compareRuns).

/** What one client's requests cost in one run. */
export interface RunFigures {
  lists: number;
  watches: number;
  /** etcd requests made for the client's LISTs (ranges, range streams). */
  etcdCalls: number;
  /** Keys etcd returned for them (the kvs of its range requests). */
  fetchedObjects: number;
  /** 410 Gone answers: LISTs and WATCHes refused with Expired / too old resource version. */
  http410: number;
  /**
   * Freshness waits (waitUntilFreshAndBlock) the client's LISTs and WATCHes met (a WatchList's
   * consistent read waits too), and their total time: apiserver_watch_cache_read_wait_seconds_count.
   */
  waits: number;
  waitedMs: number;
  /** Requests whose answer disagrees with the log (imported runs). */
  disagreements: number;
}

export interface ClientComparison {
  client: string;
  a: RunFigures;
  b: RunFigures;
}

export interface RunComparison {
  /** Each run's label: its profile and what-ifs. */
  a: string;
  b: string;
  clients: ClientComparison[];
  total: ClientComparison;
}

/** The three upstream cacheWatcher states, by their upstream meaning. */
export type WatcherStateName = 'WaitingForBookmark' | 'BookmarkReceived' | 'BookmarkSent';

export interface WatcherStateChange {
  at: VirtualMs;
  state: WatcherStateName;
}

export interface WatcherLogEntry {
  at: VirtualMs;
  /** e.g. 'created', 'event', 'bookmark', 'bookmark-dropped', 'terminated', 'closed'. */
  kind: string;
  /** One line a person reads; plain text (never HTML). */
  text: string;
}

/**
 * A watcher's figures from one instant on, recorded where they change (run-sampler.ts in scenario
 * runs; bookmarks and the floor from the watcher's own events). Read with watcherFiguresAt.
 */
export interface WatcherSample {
  at: VirtualMs;
  /** Events and bookmarks the client had read. */
  received: number;
  /** Bookmarks sent to the client (into its result channel). */
  bookmarks: number;
  /** The newest resourceVersion the client had read (0: none). */
  lastRv: number;
  bufferFill: number;
  /** The virtual second of the bookmark bucket the watcher sat in (null: none). */
  nextBookmarkSecond: number | null;
  /** bookmarkAfterResourceVersion. */
  floorRv: number;
}

export interface WatcherTrack {
  id: string;
  /** The client that opened the watch, when the run names clients. */
  client?: string;
  /** Label and field selectors as the client sent them ('' = everything). */
  selector: string;
  contentType: string;
  /** allowWatchBookmarks as the watch asked (absent in traces that do not say). */
  allowWatchBookmarks?: boolean;
  /** State history in virtual time, first entry at creation. */
  states: WatcherStateChange[];
  /** bookmarkAfterResourceVersion: bookmarks below it are never delivered. */
  bookmarkFloorRv: number;
  lastRvSent: number;
  /** Input buffer fill at the end of the run, and its capacity. */
  bufferFill: number;
  bufferCapacity: number;
  /** Virtual second of the next bookmark bucket this watcher sits in, if any. */
  nextBookmarkSecond?: number;
  /** Bookmarks sent to the client. */
  bookmarksReceived: number;
  /** Bookmarks dropped, by reason. */
  bookmarksDropped: Record<string, number>;
  eventsReceived: number;
  terminated: boolean;
  /** Why the watch ended ('' while open): e.g. 'timeout', 'terminated (blocked dispatch)', 'too old resource version'. */
  closeReason: string;
  closedAt?: VirtualMs;
  /** The watcher's own event log (bounded; `logDropped` counts what was left out). */
  log: WatcherLogEntry[];
  logDropped: number;
  /** When the server ends the watch (null: never). */
  deadline?: VirtualMs | null;
  /** Bookmarks sent within the last few seconds before the deadline (the pre-timeout bookmark). */
  preDeadlineBookmarks?: number;
  /** Bookmarks sent with the k8s.io/initial-events-end annotation (watch-list: exactly one). */
  initialEventsEndBookmarks?: number;
  /** Virtual times of the bookmarks sent to the client (bounded like the log: first and last ones). */
  bookmarkTimes?: VirtualMs[];
  /** The figures over time (absent in traces recorded before samples existed: figures are then the run's last). */
  samples?: WatcherSample[];
  /**
   * What its client read, instant by instant, by line kind (live runs; absent where the trace did
   * not record the kinds). A face labels a read and draws its arrow from these, never by guessing.
   */
  lineReads?: WatcherLineRead[];
}

/** The lines a watch's client read at one instant, as the server wrote them. */
export interface WatcherLineRead {
  at: VirtualMs;
  /** Non-BOOKMARK lines (ADDED, MODIFIED, DELETED, ERROR). */
  events: number;
  bookmarks: number;
  /** The RV of the last line read (a BOOKMARK's too). */
  lastRv: number;
  /** The RV of the last non-BOOKMARK line read at this instant that carried one (absent: none). */
  lastEventRv?: number;
}

export interface CapacityPoint {
  at: VirtualMs;
  capacity: number;
  /** 'grow' | 'shrink' | 'initial'. */
  change: string;
  /** Why, in words, e.g. 'full and the oldest event (12.3 s) is younger than the 75 s window'. */
  reason: string;
  oldestAgeMs: number;
  eventFreshDurationMs: number;
  /** Age of the event the rule compared with the window: the oldest (grow) or the one a quarter from the newest (shrink). */
  comparedAgeMs?: number;
}

export interface ResourceVersionPoint {
  at: VirtualMs;
  cacheRv: number;
  etcdRv: number;
}

/**
 * The watch cache's history window at an instant: a watch from an RV older than `oldestRv` gets
 * 410 too old resource version. A point where it moved (the full ring sliding) and at each jump.
 */
export interface HistoryWindowPoint {
  at: VirtualMs;
  oldestRv: number;
  /** Events buffered, and the ring's capacity. */
  size: number;
  capacity: number;
  /** Age of the oldest buffered event (ms); absent when the ring was empty. */
  oldestAgeMs?: number;
  /** A jump: the expire-history fault, a list (Replace), or the state a late recorder observed. */
  change?: 'expired' | 'listed' | 'observed';
  /** Events the jump dropped. */
  dropped?: number;
}

/** One resource's watch cache over the run: the series the model keeps for the followed one. */
export interface WatchCacheSeries {
  /** `configmaps`, `widgets.example.com`. */
  resource: string;
  started: boolean;
  startedAt?: VirtualMs;
  readyAt?: VirtualMs;
  capacity: CapacityPoint[];
  resourceVersions: ResourceVersionPoint[];
  historyWindow: HistoryWindowPoint[];
}

export interface SerializationIdentifierTotals {
  encodes: number;
  hits: number;
  bytes: number;
}

export interface SerializationEventRecord {
  at: VirtualMs;
  rv: number;
  eventType: string;
  /** Per identifier (content type + group-version). */
  perIdentifier: Record<string, SerializationIdentifierTotals>;
}

export interface SerializationSummary {
  /** Cumulative lazy deep copies and invalidations, one point per instant they changed. */
  copies?: Array<{ at: VirtualMs; lazyDeepCopies: number; invalidations: number }>;
  encodes: number;
  hits: number;
  lazyDeepCopies: number;
  invalidations: number;
  perIdentifier: Record<string, SerializationIdentifierTotals>;
  perEvent: SerializationEventRecord[];
  /** Events left out of `perEvent` (it is bounded); their numbers are still in the totals. */
  perEventDropped?: number;
}

export interface EtcdRequestRecord {
  at: VirtualMs;
  operation: string;
  key: string;
  rangeEnd?: string;
  limit: number;
  revision: number;
  kvs: number;
  count: number;
  latencyMs: number;
  error?: string;
}

export interface ListRecord {
  id: string;
  /** The request's id (its request context's): every event folded into this record carries it. */
  requestId: number;
  at: VirtualMs;
  /** The request as a client would write it (path and query). */
  request: string;
  /** cluster: a real cluster answered (a probe); whether its cache or etcd served it is not seen. */
  servedBy: 'cache' | 'etcd' | 'error' | 'cluster';
  /** The delegation rule that decided, in upstream's words. */
  rule: string;
  etcdRequests: EtcdRequestRecord[];
  fetched: number;
  evaluated: number;
  returned: number;
  resourceVersion: string;
  continue: string;
  remainingItemCount?: number;
  /** Freshness waits and fallbacks that happened while serving it. */
  waits: Array<{ at: VirtualMs; rv: number; waitedMs: number; outcome: string }>;
  fallbacks: string[];
  /** The Kubernetes Status when the request failed. */
  error?: { code: number; reason: string; message: string };
  /** Which client sent it (absent for the cacher's own LISTs). */
  client?: string;
  /** The client's TCP connection (live runs). */
  connection?: string;
  /** Its Kubectl-Session header (live runs): one value per kubectl process. */
  session?: string;
  /** `serve --replicas N`: the replica (1..N) that served it (live runs). */
  replica?: number;
  /** Pages (chunks) of the etcd read, in order: the paging loop's limit per call and what it found. */
  pages?: ListPageRecord[];
  /** True when etcd answered with one RangeStream (1.37 EtcdRangeStream) instead of paged ranges. */
  streamed?: boolean;
  /** The store's RangeStream decision (1.37 profile only). */
  stream?: { decision: 'stream' | 'paged'; reason: string; recheckAt?: VirtualMs };
  /** When the client got the answer. */
  endedAt?: VirtualMs;
  /** An imported request: what the log says the real server answered (LoggedAnswer). */
  logged?: LoggedAnswer;
  /** What differs between `logged` and the engine's answer. */
  disagrees?: string[];
  /**
   * How the LIST stood while it ran, one step per change (the delegator's decision, a fallback,
   * the storage's answer): src/run/views/list-at-time.ts reads them to leave blank, at an earlier
   * moment, what was not yet true. Absent in a record made otherwise than by the fold.
   */
  steps?: ListStep[];
}

/** One change of a running LIST: what its row says from `at` until the next step or its answer. */
export interface ListStep {
  at: VirtualMs;
  /** The target so far: the delegator's choice, then a fallback's, then what answered. */
  servedBy: ListRecord['servedBy'];
  rule: string;
  /** How many of ListRecord.fallbacks had happened. */
  fallbacks: number;
  /** Set once the storage (the cache or the etcd3 store's GetList) had answered. */
  answer?: { fetched: number; evaluated: number; returned: number };
}

export interface ListPageRecord {
  at: VirtualMs;
  limitAsked: number;
  fetched: number;
  evaluated: number;
  matched: number;
  itemsSoFar: number;
  /** etcd's Count for the page's range. */
  count: number;
  hasMore: boolean;
  limitReached: boolean;
}

/** A WATCH request and how the server answered it. */
export interface WatchRequestRecord {
  at: VirtualMs;
  client: string;
  /** The client's TCP connection (live runs). */
  connection?: string;
  /** Its Kubectl-Session header (live runs): one value per kubectl process. */
  session?: string;
  /** `serve --replicas N`: the replica (1..N) that served it (live runs). */
  replica?: number;
  /** The request's id: its watcher's creation event carries it. */
  requestId: number;
  request: string;
  /** started: a watcher was registered; error: an HTTP error or a single ERROR event. */
  outcome: 'started' | 'error' | 'pending';
  watcherId?: string;
  error?: { code: number; reason: string; message: string };
  /** The error came as the stream's single ERROR event, its HTTP status 200 (errWatcher). */
  errorInStream?: true;
  answeredAt?: VirtualMs;
  /** An imported watch: what the log says (its status when opened, its duration when closed). */
  logged?: LoggedAnswer;
  /** What differs between `logged` and the engine's answer ('status', 'duration'). */
  disagrees?: string[];
  /** When the client's handler returned (an imported watch's close is compared with the log). */
  closedAt?: VirtualMs;
  /**
   * Live runs: when the k8s.io/initial-events-end bookmark was written to the client (a WatchList
   * request's sync ended); absent while it was not.
   */
  initialEventsEndAt?: VirtualMs;
  /** Live runs: a fault cut its connection (its client continues on a new one). */
  cut?: true;
  /** Freshness waits before its watcher started (a WatchList's consistent read), and their time. */
  waits?: number;
  waitedMs?: number;
}

/** A bookmark timer tick that found watchers due (cacher.dispatchEvents). */
export interface BookmarkTickRecord {
  at: VirtualMs;
  resourceVersion: number;
  /** Buckets popped at this tick and the watchers they held. */
  buckets: number;
  watchers: number;
  /** Watchers that took the bookmark into their input buffer. */
  queued: number;
}

/** A read that had to wait for the watch cache to become fresh (waitUntilFreshAndBlock). */
export interface FreshnessWaitRecord {
  at: VirtualMs;
  rv: number;
  cacheRv: number;
  waitedMs: number;
  outcome: string;
}

/** Dispatch of cache events to watchers, in totals, plus the events that found blocked watchers. */
export interface DispatchSummary {
  events: number;
  /** Sum over events of the candidate watchers. */
  deliveries: number;
  blockedEvents: number;
  terminated: number;
  /** Virtual ms the dispatcher spent waiting for blocked watchers. */
  waitedMs: number;
  /** The dispatches that met a blocked watcher (bounded). */
  blocked: Array<{
    at: VirtualMs;
    rv: number;
    candidates: number;
    blocked: number;
    unblocked: number;
    terminated: number;
    budgetMs: number;
    waitedMs: number;
  }>;
}

/**
 * One client of the run: a user agent (the requests' `client`) on one TCP connection (live runs;
 * scenario runs have none), with its requests in time order (client-records.ts).
 */
export interface ClientRecord {
  /** `client` and `connection` joined: unique in the run. */
  id: string;
  /** The User-Agent as sent (a scenario's client name). */
  client: string;
  connection?: string;
  /**
   * Connections taken as one client (`connection` names several): what that rests on, a proof
   * (one Kubectl-Session) or the inference and its grounds.
   */
  grouping?: string;
  firstAt: VirtualMs;
  /** LISTs and WATCHes in the order they were sent. */
  requests: ClientRequest[];
  /** The LIST chains (pages linked by continue tokens), in the order they started. */
  chains: ClientListChain[];
}

export type ClientRequest = ClientListRequest | ClientWatchRequest;

/** What a LIST (or a relist's pages) cost: the figures of its answered pages. */
export interface ClientListCost {
  pages: number;
  items: number;
  etcdRequests: number;
  /** Keys etcd returned (the kvs of its range requests). */
  keysFetched: number;
  /** From the first page sent to the last page answered. */
  ms: number;
}

export interface ClientListRequest {
  kind: 'list';
  at: VirtualMs;
  endedAt?: VirtualMs;
  /** ListRecord.id (the Lists tab's row). */
  listId: string;
  request: string;
  servedBy: ListRecord['servedBy'];
  rule: string;
  /** What this page cost (one page: `pages` is 1). */
  cost: ClientListCost;
  /**
   * The chain (index into ClientRecord.chains) and this page's place in it (0: the first); a
   * retry has the page of the attempt it re-sent.
   */
  chain: number;
  page: number;
  /**
   * A retry: the same continue token sent again after this page's previous attempt (the index into
   * ClientRecord.requests) failed otherwise than 410, as client-go's request re-sends a page
   * answered 429 or 5xx (rest/with_retry.go). The token still came from the chain's previous page.
   */
  retryOf?: number;
  /** The continue token sent, decoded (storage.DecodeContinue): where the page started. */
  continueFrom?: { startKey: string; resourceVersion: string } | { error: string };
  /** The answer carried a continue token: another page follows. */
  hasMore: boolean;
  /** The Status of a failed page: `410 Expired: …`. */
  error?: { code: number; reason: string; message: string };
  /** `serve --replicas N`: the replica (1..N) that served it. */
  replica?: number;
}

export type ClientWatchEnd =
  'timeout' | 'expired' | 'terminated' | 'client-closed' | 'server-closed' | 'error';

export interface ClientWatchRequest {
  kind: 'watch';
  at: VirtualMs;
  requestId: number;
  request: string;
  /** The resourceVersion the watch asked to start from ('' : none). */
  resourceVersion: string;
  /** `serve --replicas N`: the replica (1..N) that served it. */
  replica?: number;
  watcherId?: string;
  /** The watcher's cacheWatcher states (WatcherTrack.states). */
  states: WatcherStateChange[];
  /** How and when it ended (absent while open at the end of the run). */
  end?: { at: VirtualMs; how: ClientWatchEnd; text: string };
  /** Events and bookmarks the client read (end of run). */
  received: number;
  /** The newest RV it read (end of run; 0: none). */
  lastRv: number;
  /** A new watch after this client's previous one ended, with no LIST between. */
  restart?: { after: number; fromLastRv: boolean };
  /**
   * A LIST sent as a watch (relist-rule.ts isListByWatch): client-go's List streams when
   * WatchListClient is on; `after`: the watch (index into requests) that had ended before it, as
   * when a reflector's WatchList failed and it fell back to LIST. No restart.
   */
  listByWatch?: { after?: number };
  /**
   * A WatchList client's relist (relist-rule.ts): a sendInitialEvents=true watch soon after its
   * previous watch ended early or with a 410 (then it is no restart).
   */
  relist?: { afterWatch: number; gapMs: number; because: ClientWatchEnd };
}

/** LIST pages linked by continue tokens: page N's token is the continue page N + 1 sent. */
export interface ClientListChain {
  /**
   * Indexes into ClientRecord.requests, in page order: each page's attempts in the order sent (a
   * page answered 504 and retried has its failed attempt, then its retry).
   */
  pages: number[];
  /**
   * complete: the last page had no continue; open: more to read, no page followed; expired: a page
   * got 410 Expired (its token was compacted); error: a page failed otherwise.
   */
  outcome: 'complete' | 'open' | 'expired' | 'error';
  /** The first page sent a continue token no earlier page of this client answered with. */
  orphan?: boolean;
  /** The chain that started from scratch after this one expired. */
  restartedBy?: number;
  /** A relist: the chain started soon after a watch of this client ended early or with a 410. */
  relist?: { afterWatch: number; gapMs: number; because: ClientWatchEnd };
}

/** A fault injected into a live server: a timeline marker, and the requests it hit. */
export interface FaultMark {
  at: VirtualMs;
  name: string;
  text: string;
  /** The one resource it was aimed at (its `resource` parameter), if any. */
  resource?: string;
  /** Its id in the server's active-faults registry (absent in older traces). */
  id?: number;
  /** A request fault: the requests it hit, in order (bounded: `hitsDropped` counts the rest). */
  hits?: FaultHit[];
  hitsDropped?: number;
}

/** One request a request fault hit. */
export interface FaultHit {
  at: VirtualMs;
  requestId: number;
  client: string;
  connection?: string;
  verb: string;
  request: string;
}

/** What a live server answered one User-Agent on one connection. */
export interface ClientAnswers {
  client: string;
  connection?: string;
  /** When its first response ended. */
  firstAt: VirtualMs;
  /** Responses by HTTP status code (`"200"`, `"429"`). */
  byCode: Record<string, number>;
  /** Bytes of the response bodies written (a watch's event lines included). */
  bytes: number;
  /** The status each request was answered with, by request id (bounded like a series). */
  statusOf: Record<number, number>;
}

export interface RunModel {
  header: RunHeader;
  durationMs: VirtualMs;
  watchers: WatcherTrack[];
  capacity: CapacityPoint[];
  resourceVersions: ResourceVersionPoint[];
  /** The watch cache's history window over time (runs recorded before it was reported have none). */
  historyWindow?: HistoryWindowPoint[];
  serialization: SerializationSummary;
  lists: ListRecord[];
  /** Final metric samples, key `name{label="v",…}` with labels sorted. */
  metrics: Record<string, number>;
  /** The same metrics as Prometheus text exposition. */
  metricsText: string;
  /** Trace lines (or events) rejected while reading, with the first few reasons. */
  rejected: { count: number; samples: string[] };
  /** Scenario phases, in order (the narrative markers). */
  phases?: Array<{ at: VirtualMs; name: string; text: string }>;
  /**
   * Faults injected into a live server, in order (timeline markers named after the fault);
   * `resource`: the one resource it was aimed at (absent: every resource it applies to).
   */
  faults?: FaultMark[];
  /**
   * What a live server answered each client (User-Agent + connection), every request (discovery,
   * gets and writes too): responses by HTTP code and the bytes of their bodies (fold/answers.ts).
   */
  answers?: ClientAnswers[];
  /** Writes the scenario made, by verb. */
  writes?: { total: number; byVerb: Record<string, number>; lastRevision: number };
  /** Every WATCH request, including those answered with an error (which have no watcher). */
  watchRequests?: WatchRequestRecord[];
  /** Bookmark ticks that popped due watchers (bounded). */
  bookmarkTicks?: BookmarkTickRecord[];
  /** Freshness waits of lists, gets and watch-lists (bounded), and the progress requests they caused. */
  freshnessWaits?: FreshnessWaitRecord[];
  progressRequests?: number;
  dispatch?: DispatchSummary;
  /** LISTs the cacher made itself (its reflector's initial list), not a client's. */
  cacherLists?: ListRecord[];
  /** Records left out of the bounded collections above, by collection. */
  truncated?: Record<string, number>;
  /** Metric series that changed, scraped at the last instant of each virtual second (the changed series only). */
  scrapes?: Array<{ at: VirtualMs; samples: Record<string, number> }>;
  /** The instants the timeline steps through, with how much happened at each (timeline-moments.ts). */
  moments?: { at: VirtualMs[]; count: number[] };
  /** Whether the run started a watch cache (a cacher reflector), and when it became ready. */
  watchCache?: {
    started: boolean;
    startedAt?: VirtualMs;
    readyAt?: VirtualMs;
    /** The resource whose watch cache the capacity, RV and history series follow (`pods`, `widgets.example.com`). */
    resource?: string;
    /** The other resources whose watch caches the run heard from (their series: otherWatchCaches). */
    otherResources?: string[];
  };
  /**
   * The watch caches the run heard from besides the followed one above (a live server has one per
   * resource), each with the same series, in otherResources' order: the Watch cache tab's picker.
   */
  otherWatchCaches?: WatchCacheSeries[];
  /** The run's clients (user agent + connection) with their requests (client-records.ts). */
  clients?: ClientRecord[];
  /** A what-if replay beside the replay it varies (compareRuns), when the face that made it has both. */
  comparison?: RunComparison;
  /** The analysis of the logs the run was imported from (import-report.ts): the Import tab. */
  imported?: ImportReport;
}
