// No upstream counterpart: the schema of an import's analysis, the ImportReport that
// `listwatch import --json` prints, the trace's `imported` input carries and RunModel.imported holds
// (the Import tab). It lives with the run model because a run carries it; src/import builds it
// (import-report.ts and the detectors it names), src/replay and the faces read it.
import type { RelistVia } from './relist-rule';
import type { ImportAssumptions, RejectedLine } from './imported-request';

export const importReportFormat = 'listwatch-import-report';
export const importReportVersion = 1;

export type ImportProfile = '1.36' | '1.37';

/** A summary in seconds or milliseconds: count, min, median, p99, max. */
export type Summary = DistributionSummary;

/** One WATCH as the log tells it (the first maxWatchesPerClient, those that ended badly first). */
export interface ImportedWatch {
  receivedAt: number | null;
  endedAt: number | null;
  /** Null when its start or end lies outside the log: never guessed. */
  durationSeconds: number | null;
  how: WatchEnd;
  requestURI: string;
  user?: string;
  resourceVersion: string;
  /** sendInitialEvents=true: a WatchList (streaming list) request. */
  watchList: boolean;
  /**
   * A WatchList watch whose client logged the end of its initial events: seconds from its start to
   * that bookmark, the client's list (initialListSeconds); null otherwise.
   */
  initialListSeconds: number | null;
  code?: number;
  text?: string;
  line: string;
}

/**
 * How a client lists: watch-list (WATCHes with sendInitialEvents=true, no LIST), list-watch (LIST
 * then WATCH, the reflector's classic way), both (WatchList and LISTs: e.g. its fallback), or one
 * verb only.
 */
export type ListMode =
  'watch-list' | 'list-watch' | 'watch-list+list' | 'list-only' | 'watch-only' | 'none';

export interface ImportedClient {
  /** The User-Agent ('' when the log shows none: a client log below -v=7 logs no headers). */
  userAgent: string;
  /**
   * The one process these requests came from, when a client log names it (klog's pid in its file,
   * ImportedRequest.clientProcess): each process is a client of its own. Absent for requests only
   * a server's log records (audit, httplog), which are grouped by User-Agent.
   */
  process?: string;
  /** The users it authenticated as (the first maxUsersPerClient; usersDropped counts the rest). */
  users: string[];
  usersDropped: number;
  requests: number;
  byVerb: Record<string, number>;
  byCode: Record<string, number>;
  lists: number;
  watches: number;
  /** WATCHes with sendInitialEvents=true. */
  watchLists: number;
  mode: ListMode;
  http410: number;
  http429: number;
  http504: number;
  firstAt: number | null;
  lastAt: number | null;
  /** Watches whose start and end both lie in the log. */
  watchDurationsSeconds: Summary;
  watchesStartedBeforeLog: number;
  watchesOpenAtEnd: number;
  watchEnds: Record<WatchEnd, number>;
  watchSamples: ImportedWatch[];
  watchSamplesDropped: number;
  /** Per verb, in ms, measured as latencyBasisText (views/latency-text.ts) says; WATCHes excluded. */
  latencyMs: Record<string, Summary>;
  paginationChains: PaginationChain[];
  /** Chains seen (kept or not); single LISTs are not chains. */
  chainsTotal: number;
  chainsDropped: number;
  /** LISTs from scratch that came back whole (pagination-chains.ts chainRule): in `lists`, not chains. */
  singleLists: number;
  /** Of those, the ones sent again after a 429 or 5xx before they came back whole (optional: older reports). */
  singleListsRetried?: number;
  relists: number;
  relistDetails: Relist[];
  relistsDropped: number;
}

/** How a request shape would be served under the profile (explain-request.ts). */
export interface ServedAs {
  shape: string;
  verb: string;
  /** The first request of this shape, as sent. */
  example: string;
  requests: number;
  explained?: ExplainedRequest;
  /** The explainer could not answer (the message). */
  error?: string;
}

/** What the explainer answers (src/explain/explain-request.ts), the fields the report shows. */
export interface ExplainedRequest {
  kind: 'list' | 'watch';
  servedBy: 'cache' | 'cache-snapshot' | 'etcd' | 'error';
  rule: string;
  limitHonoured: boolean | null;
  consistentRead: boolean;
  mayWait: boolean;
  errorCode?: number;
  message?: string;
}

export interface ImportReport {
  format: typeof importReportFormat;
  version: typeof importReportVersion;
  profile: ImportProfile;
  /** The files as the reader tells them (name, format, size…). */
  files: unknown[];
  records: number;
  lines: number;
  skipped: number;
  rejected: { count: number; samples: RejectedLine[] };
  assumptions: ImportAssumptions;
  /** The first and last time a request was received or completed (epoch ms). */
  span: { from: number | null; to: number | null };
  /** The rules the figures follow, in words. */
  rules: { relist: string; chains: string; storms: string };
  requests: { total: number; byVerb: Record<string, number>; byCode: Record<string, number> };
  /**
   * Requests whose records in several files were joined (ImportedRequest.joinedBy): by the audit
   * ID both name, or by time, verb and URL (`rule` says within what).
   */
  joins: { auditID: number; timeVerbURL: number; rule: string };
  /** Per verb, ms, WATCHes excluded. */
  latencyMs: Record<string, Summary>;
  watches: {
    total: number;
    watchLists: number;
    startedBeforeLog: number;
    openAtEnd: number;
    byEnd: Record<WatchEnd, number>;
    durationsSeconds: Summary;
    /**
     * WatchList watches whose initial events ended in the log: each is its client's list, over at
     * that bookmark (initialListSeconds), while the same request goes on watching.
     */
    initialListsSeconds: Summary;
  };
  clients: ImportedClient[];
  storms: RelistStorm[];
  stormsDropped: number;
  servedAs: ServedAs[];
  /**
   * What the log proves of the server's etcd, under which `servedAs` is explained: a client logged
   * the cacher's RequestWatchProgress refusal (absent: nothing proven, the profile's defaults).
   */
  etcdProven?: { requestWatchProgressSupported: false; message: string; at: string };
  shapesDropped: number;
}

/** count, min, median, p99 and max of what was added (null figures: nothing was). */
export interface DistributionSummary {
  count: number;
  min: number | null;
  median: number | null;
  p99: number | null;
  max: number | null;
  /** False once the values were folded into buckets: median and p99 are then within 1%. */
  exact: boolean;
}

/** A continue token a page sent, decoded (storage.DecodeContinue), and how it was linked. */
export type ChainToken = {
  page: number;
  linkedBy: 'response' | 'rv' | 'first-page' | 'retry' | 'none';
} & ({ resourceVersion: string; startKey: string; fromKey: string } | { error: string });

export interface PaginationChain {
  /** Unique in the report: `restartOf`/`restartedBy` name chains by it. */
  id: number;
  path: string;
  /** labelSelector and fieldSelector as sent ('' : none). */
  selector: string;
  user?: string;
  /** The limit the first page asked for. */
  limit?: number;
  /** The RV the chain reads at (its tokens'); null: no token with one was seen. */
  resourceVersion: string | null;
  startedAt: number | null;
  endedAt: number | null;
  /** Where its first page is in the log (`file:line`). */
  firstLine: string;
  /** Requests sent in it: each page once, and each retry of a page again (`retries`). */
  pages: number;
  /** Each request's HTTP status (the first maxPagesPerChain; 0: the log does not say). */
  codes: number[];
  /**
   * Requests that re-sent a failed one (indexes into `codes`): a page answered 429 or 5xx sent
   * again, the same continue token, or for the first page the same request (no continue), as
   * client-go retries it. They are the chain's, not new pages nor new chains.
   */
  retries?: Array<{ attempt: number; retryOf: number }>;
  /** The continue tokens pages 2… sent, decoded, page by page (the first maxPagesPerChain). */
  tokens: ChainToken[];
  /** complete: the last page had no continue (or, without responses, the last page seen succeeded). */
  complete: boolean;
  /** False when `complete` rests on the last page succeeding, the log having no response bodies. */
  completeKnown: boolean;
  outcome: 'complete' | 'open' | 'expired' | 'error';
  /** The page that answered 410 Expired (0-based, an index into `codes`), and the Status message. */
  expired?: { page: number; at: number | null; message: string };
  /** The first page sent a token no earlier page of this client answered with (its start is before the log). */
  orphan?: boolean;
  /** This chain restarted one broken by a 410. */
  restartOf?: { chain: number; how: 'from-scratch' | 'inconsistent-continue' };
  restartedBy?: number;
  /** The chain is a relist (relists.ts). */
  relist?: boolean;
}

/** One relist: when, of what, and the watch end that caused it. */
export interface Relist {
  at: number;
  /** The resource, as relists.ts keys it (`pods`, `widgets.example.com in shop`). */
  resource: string;
  user?: string;
  /** How: a LIST, or a WatchList client's new sendInitialEvents watch. */
  via: RelistVia;
  /** Seconds from the watch's end to the relist. */
  gapSeconds: number;
  because: WatchEnd;
  /** The pagination chain the LIST started (PaginationChain.id). */
  chain?: number;
  /** `file:line` of the relist and of the watch that ended. */
  line: string;
  watchLine: string;
  /**
   * The client process the client logs name for both the watch and the relist (klog's pid in its
   * file, `chunk.log pid 3054`): the relist rests on it. Absent: on the user agent and user only.
   */
  process?: string;
}

export interface RelistStorm {
  kind: 'client' | 'herd';
  /** The user agent (a herd: '*', its user agents in `userAgents`). */
  userAgent: string;
  /** A herd's user agents (the first 20). */
  userAgents?: string[];
  /** Distinct clients (user agent and user) that relisted in it. */
  clients: number;
  relists: number;
  from: number;
  to: number;
  medianIntervalSeconds: number | null;
  /** The largest gap allowed between two relists of the storm. */
  windowSeconds: number;
}

/**
 * timeout: lasted its timeout; early: ended before it (closed by the server or the client: an
 * audit log does not say which); expired: 410 Gone/Expired (refused or ended with it); refused:
 * answered with another error (429, 504, …); client-closed: its client's log shows the client
 * ended it (its reflector's `Stopping reflector` while it was open); open: still open when the log
 * ends; unknown: began before the log, so its length (and whether it was early) is not known.
 */
export type WatchEnd =
  'timeout' | 'early' | 'expired' | 'refused' | 'client-closed' | 'open' | 'unknown';
