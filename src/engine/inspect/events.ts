// Typed engine events the engine emits (ARCHITECTURE.md boundary 4): the only input of the UI,
// the CLI reports and the benchmarks. No upstream counterpart; upstream has klog lines and traces.
// Every payload type is defined here and the emitting modules import it: this module depends on
// none of them (only on the storage vocabulary, GroupResource).
import type { GroupResource } from '../storage/group-resource';

/** Why a watcher was terminated: the cacher's blocked dispatch, or the terminate-watcher fault. */
export type WatcherTerminationCause = 'blockedDispatch' | 'fault';

/** The etcd operations the etcd3 store and watcher perform (the `operation` label values). */
export type EtcdOperation =
  | 'list'
  | 'listStream'
  | 'get'
  | 'getCurrentResourceVersion'
  | 'create'
  | 'update'
  | 'delete'
  | 'watch';

/** One request to etcd: what was asked and what came back. */
export interface EtcdRequestEvent {
  type: 'etcd/request';
  /** Virtual ms (Clock.now()) when the request was sent. */
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  operation: EtcdOperation;
  /** Range start (or the single key). */
  key: string;
  /** Range end (exclusive); absent for a single-key request. */
  rangeEnd?: string;
  /** Key limit sent to etcd; 0 = no limit. */
  limit: number;
  /** Revision asked for; 0 = the latest. */
  revision: number;
  /** Header revision of the response (0 when the request failed). */
  headerRevision: number;
  /** Key-values returned. */
  kvs: number;
  /** etcd's Count: keys in the range at the revision (ignores the limit). */
  count: number;
  /** Virtual latency: Clock.now() after the response minus `at`. */
  latencyMs: number;
  /** etcd's error text, e.g. `mvcc: required revision has been compacted`. */
  error?: string;
  /** A RangeStream probe answered Unimplemented: not counted in etcd_requests_total. */
  unimplemented?: boolean;
}

/** One chunk of a LIST served from etcd (a page of the paging loop, or one stream chunk). */
export interface ListPageEvent {
  type: 'list/page';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  keyPrefix: string;
  /** 1-based chunk number within the request. */
  page: number;
  /** The limit sent to etcd for this page (the doubled one); 0 = none. */
  limitAsked: number;
  /** The client's limit (pred.Limit); 0 = none. */
  clientLimit: number;
  /** Revision the page was read at (the pinned list revision). */
  revision: number;
  fetched: number;
  evaluated: number;
  /** Items of this page that matched the predicate and were kept. */
  matched: number;
  /** Items collected so far in the request. */
  itemsSoFar: number;
  /** etcd's Count for this page. */
  count: number;
  hasMore: boolean;
  /** True when the client's limit was reached in the middle of this chunk. */
  limitReached: boolean;
  streamed: boolean;
}

/** The paging loop asks etcd for another page: with a doubled limit, capped, or unchanged at the cap. */
export interface ListPageSizeEvent {
  type: 'list/page-size';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  keyPrefix: string;
  from: number;
  to: number;
  /** `doubled`: limit*2; `capped`: doubling hit maxLimit; `at-cap`: already at or above maxLimit, unchanged. */
  decision: 'doubled' | 'capped' | 'at-cap';
  /** Items still missing to fill the client's limit. */
  missing: number;
}

/** Why a LIST (or watch sync) was, or was not, served by one etcd RangeStream request. */
export interface ListStreamDecisionEvent {
  type: 'list/stream-decision';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  keyPrefix: string;
  /** `list` for GetList, `watch-sync` for a watch's initial sync. */
  origin: 'list' | 'watch-sync';
  decision: 'stream' | 'paged';
  reason:
    | 'gate-disabled'
    | 'not-recursive'
    | 'filtered-page'
    | 'marked-unsupported'
    | 'supported'
    | 'recheck-due';
  /** Virtual ms when a capability marked unsupported is probed again. */
  recheckAt?: number;
}

/** A RangeStream probe was answered Unimplemented: the request falls back to paging. */
export interface ListStreamFallbackEvent {
  type: 'list/stream-fallback';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  keyPrefix: string;
  origin: 'list' | 'watch-sync';
  /** The capability stays unsupported until then (rangeStreamRecheckInterval later). */
  recheckAt: number;
}

/** A LIST served from etcd finished (successfully or not); mirrors the list cost metrics. */
export interface ListDoneEvent {
  type: 'list/done';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  keyPrefix: string;
  recursive: boolean;
  streamed: boolean;
  /** etcd requests made for this LIST (incl. a current-revision lookup after a future-revision error). */
  etcdRequests: number;
  fetched: number;
  evaluated: number;
  returned: number;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  /** Status code and message when the LIST was rejected. */
  error?: { code: number; message: string };
  latencyMs: number;
}

/** The etcd3 watcher's lifecycle: sync done, watch started, bookmark from progress notify, error. */
export interface EtcdWatchEvent {
  type: 'etcd/watch';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  key: string;
  phase: 'sync-done' | 'watching' | 'progress-notify' | 'error' | 'stopped';
  /** The revision: synced at, watching from (exclusive), or the progress notification's. */
  revision: number;
  /** Objects delivered by the initial sync. */
  initialObjects?: number;
  error?: { code: number; message: string };
}

// ---- the cache watcher (cache-watcher.ts) ----

/** The three upstream cacheWatcher states, by their upstream names (cacheWatcherStateNames). */
export type CacheWatcherStateName = 'WaitingForBookmark' | 'BookmarkReceived' | 'BookmarkSent';

/** Why a bookmark did not reach the client. */
export type BookmarkDropReason =
  /** nonblockingAdd: RV below bookmarkAfterResourceVersion (keeps a waiting watcher's buffer clean). */
  | 'belowBookmarkAfterResourceVersion'
  /** nonblockingAdd: the input buffer was full (bookmarks never block or terminate a watcher). */
  | 'inputFull'
  /** The watcher was stopped (input closed, or done closed before the send). */
  | 'watcherStopped'
  /** process: RV not newer than what the watcher already sent (and not the awaited one). */
  | 'notNewer'
  /** The initial-events-end annotation could not be set (the object has no metadata). */
  | 'annotateFailed';

/** Why processInterval ended (and closed the result channel). */
export type CacheWatcherCloseReason =
  /** The input channel was closed and drained: the watcher was stopped. */
  | 'inputClosed'
  /** The request context ended (the watch's timeout). */
  | 'contextDone'
  /** The interval was overrun by the history ring: closed silently, no ERROR event. */
  | 'intervalInvalidated';

/** Typed engine events of a watcher. */
export type CacheWatcherEvent =
  | {
      type: 'watcher/created';
      at: number;
      watcherId: number | string;
      groupResource: GroupResource;
      /** The watch request that created it; the watcher's later events carry only watcherId. */
      requestId?: number;
      identifier: string;
      chanSize: number;
      /** null: no deadline (Go's zero time). */
      deadline: number | null;
      allowWatchBookmarks: boolean;
    }
  | {
      type: 'watcher/state';
      at: number;
      watcherId: number | string;
      from: CacheWatcherStateName;
      to: CacheWatcherStateName;
      bookmarkAfterResourceVersion: number;
      /** RV of the bookmark that caused the change (absent for setBookmarkAfterResourceVersion). */
      resourceVersion?: number;
    }
  | {
      type: 'watcher/bookmark';
      at: number;
      watcherId: number | string;
      resourceVersion: number;
      /** queued: into the input buffer; delivered: into the result channel; dropped: see reason. */
      outcome: 'queued' | 'delivered' | 'dropped';
      reason?: BookmarkDropReason;
      /** Carries the k8s.io/initial-events-end annotation (only for `delivered`). */
      initialEventsEnd?: boolean;
    }
  | {
      type: 'watcher/terminated';
      at: number;
      watcherId: number | string;
      groupResource: GroupResource;
      /** Graceful: the awaited bookmark is buffered, so the input is drained before closing. */
      graceful: boolean;
      inputLen: number;
      resultLen: number;
      /**
       * Who cut it: upstream's dispatch that ran out of its time budget, or the terminate-watcher
       * fault. Absent in traces written before it was recorded (read as blockedDispatch).
       */
      cause?: WatcherTerminationCause;
    }
  | {
      type: 'watcher/stopped';
      at: number;
      watcherId: number | string;
      drainInputBuffer: boolean;
      inputLen: number;
    }
  | {
      type: 'watcher/live';
      at: number;
      watcherId: number | string;
      initEvents: number;
      resourceVersion: number;
    }
  | {
      type: 'watcher/closed';
      at: number;
      watcherId: number | string;
      reason: CacheWatcherCloseReason;
      delivered: number;
      error?: string;
    };

// ---- the watch cache (watch-cache.ts, watch-cache-history.ts) ----

/** What the event sink hears about a freshness wait (every request with rv>0, like the read-wait metric). */
export interface WatchCacheFreshnessWaitEvent {
  type: 'watchcache/wait';
  /** Virtual ms when the request started waiting. */
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  resourceVersion: number;
  /** The cache's RV when the wait ended. */
  cacheResourceVersion: number;
  waitedMs: number;
  /** fresh: no wait was needed; caught-up: the cache reached the RV; timeout: blockTimeout passed first. */
  outcome: 'fresh' | 'caught-up' | 'timeout';
}

/** What the event sink hears when the ring resizes (the UI's capacity timeline). */
export interface WatchCacheCapacityChangeEvent {
  type: 'watchcache/capacity';
  /** Virtual ms: the record time of the event whose arrival triggered the resize. */
  at: number;
  groupResource: GroupResource;
  from: number;
  to: number;
  /** increase: full and the oldest event is younger than the window; decrease: full and the event a quarter from the newest is older. */
  reason: 'increase' | 'decrease';
  /** Age of the oldest buffered event at that moment (ms). */
  oldestEventAgeMs: number;
  /** Age of the event the rule compared with the window: the oldest (increase) or the one cap/4 from the newest (decrease). */
  comparedEventAgeMs: number;
  eventFreshDuration: number;
}

/**
 * The history window at an instant: which resource versions a watch can still start from
 * (getIntervalLocked's rule), how full the ring is, and how old its oldest event.
 */
export interface WatchCacheWindow {
  /** A watch from an older RV gets 410 `too old resource version: rv (this)`; from this one on it is served. */
  oldestResourceVersion: number;
  /** Events buffered, and the ring's capacity. */
  size: number;
  capacity: number;
  /** Age of the oldest buffered event (ms); absent when the ring is empty. */
  oldestEventAgeMs?: number;
}

/**
 * The history window jumped rather than slid: the expire-history fault dropped it (as a restarted
 * watch cache has none), a list (Replace: the first one or a relist) emptied it, or a recorder
 * that started listening late asked how it stands (`observed`: a report of the state, not a change).
 */
export interface WatchCacheHistoryEvent {
  type: 'watchcache/history';
  at: number;
  groupResource: GroupResource;
  reason: 'expired' | 'listed' | 'observed';
  /** Events dropped from the ring by this change (0 for observed). */
  dropped: number;
  /** The watch cache's resourceVersion then. */
  resourceVersion: number;
  window: WatchCacheWindow;
  /** The minimum history the ring keeps (ms): the window the resize rule compares ages with. */
  eventFreshDuration: number;
  /** observed: whether the cacher was ready (serving) then. */
  ready?: boolean;
}

/**
 * A progress notification (an etcd bookmark) moved the watch cache's resourceVersion without an
 * event (updateResourceVersion). Its etcd/watch `progress-notify` is when etcd sent it; this is
 * when the cache took it, later when the reflector was held (the cache-lag fault).
 */
export interface WatchCacheProgressEvent {
  type: 'watchcache/progress';
  at: number;
  groupResource: GroupResource;
  resourceVersion: number;
}

// ---- the cacher (cacher.ts, reflector.ts, delegator.ts) and the pieces it wires ----

/** The watch cache's readiness (ready.go): Pending <-> Ready -> Stopped. */
export interface CacherReadyEvent {
  type: 'cacher/ready';
  at: number;
  groupResource: GroupResource;
  state: 'pending' | 'ready' | 'stopped';
  /** How many times the cache became ready so far. */
  generation: number;
  /** The error that made it pending (a failed list or watch), if any. */
  error?: string;
}

/** The cacher's reflector: listing etcd, watching it, and why a watch ended. */
export interface ReflectorEvent {
  type: 'cacher/reflector';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  /**
   * list-page: one page of the initial list; listed: the cache was replaced; watching: the storage
   * watch started; watch-ended: it ended (error says why); relist-wait: the next ListAndWatch runs
   * after wait.Until's period.
   */
  phase: 'list-page' | 'listed' | 'watching' | 'watch-ended' | 'list-failed' | 'relist-wait';
  resourceVersion?: number;
  /** Items on the page (list-page) or in the whole list (listed). */
  items?: number;
  pages?: number;
  error?: { code: number; message: string };
}

/** A progress notification was requested from etcd because a read waits for freshness. */
export interface ProgressRequestEvent {
  type: 'cacher/progress-request';
  at: number;
  groupResource: GroupResource;
  /** Requests currently waiting for the cache to become fresh. */
  waiting: number;
}

/**
 * A read started waiting for the watch cache to reach a resource version it has not seen yet; the
 * matching `watchcache/wait` event (same `at`) reports how it ended (caught-up or timeout).
 */
export interface FreshnessWaitStartEvent {
  type: 'watchcache/wait-start';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  resourceVersion: number;
  cacheResourceVersion: number;
}

/** A watch request reached the cacher: how it was anchored, or why it got an error watcher. */
export interface CacherWatchEvent {
  type: 'cacher/watch';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  /** The watcher's id (absent for error and immediately closed watchers). */
  watcherId?: number;
  key: string;
  /** The requested resourceVersion, verbatim. */
  resourceVersion: string;
  sendInitialEvents?: boolean;
  allowWatchBookmarks: boolean;
  /** The RV the cache had to reach first (getWatchCacheResourceVersion). */
  requiredResourceVersion?: number;
  /** The RV the watcher's interval starts from (the cache's RV for initial events). */
  intervalResourceVersion?: number;
  /** The initial-events-end bookmark's RV floor (0: none awaited). */
  bookmarkAfterResourceVersion?: number;
  /** Dispatch scope: namespace and name the watcher is indexed under ('' = any). */
  scope?: { namespace: string; name: string };
  /** Indexed trigger value, when the watch selects on the trigger field. */
  triggerValue?: string;
  chanSize?: number;
  /** Virtual ms of the watch deadline; null = none. */
  deadline?: number | null;
  /** started; error: a single ERROR event; closed: registered too late (the cache went unready). */
  outcome: 'started' | 'error' | 'closed';
  error?: { code: number; message: string };
}

/** One cache event dispatched to watchers (not per watcher: counts). */
export interface DispatchEvent {
  type: 'cacher/dispatch';
  at: number;
  groupResource: GroupResource;
  eventType: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  resourceVersion: number;
  /** Watchers whose scope or trigger value made them candidates. */
  candidates: number;
  /** Candidates whose input buffer was full on the non-blocking attempt. */
  blocked: number;
  /** Blocked watchers that took the event before the budget timer fired. */
  unblocked: number;
  /** Blocked watchers closed as unresponsive (apiserver_terminated_watchers_total). */
  terminated: number;
  /** The dispatch budget taken (ms) and the virtual time spent waiting for blocked watchers. */
  budgetMs: number;
  waitedMs: number; /** The history window when the event was dispatched (it slides as the full ring drops its oldest). */
  window?: WatchCacheWindow;
}

/** The periodic bookmark timer fired: the due watchers were offered a bookmark. */
export interface BookmarkTickEvent {
  type: 'cacher/bookmark-tick';
  at: number;
  groupResource: GroupResource;
  /** lastProcessedResourceVersion: the bookmark's RV. */
  resourceVersion: number;
  /** Watchers popped from due buckets (stopped ones excluded). */
  watchers: number;
  /** Watchers that accepted it into their input buffer. */
  queued: number;
  /** Delay until the next tick (wait.Jitter(1s, 0.25)). */
  nextTickMs: number;
}

/** Due bookmark buckets popped (watcherBookmarkTimeBuckets.popExpiredWatchersThreadUnsafe). */
export interface BookmarkBucketPopEvent {
  type: 'bookmarks/bucket-popped';
  at: number;
  groupResource: GroupResource;
  bucketId: number;
  /** Virtual ms the bucket stands for (createTime + bucketId s). */
  bucketTime: number;
  watchersDue: number;
  watcherIds: Array<number | string>;
}

/** Watchers (re)scheduled into bookmark buckets, aggregated per virtual instant. */
export interface BookmarkScheduleEvent {
  type: 'bookmarks/scheduled';
  at: number;
  groupResource: GroupResource;
  buckets: BookmarkScheduleBucket[];
}

/** One bucket of a `bookmarks/scheduled` event: the watchers put into it at that instant. */
export interface BookmarkScheduleBucket {
  bucketId: number;
  watchers: number;
  /**
   * Clock ms the bucket stands for (createTime + bucketId s) and the watchers put into it, so a
   * watcher's next bookmark is read from the events (absent in traces recorded before them).
   */
  bucketTime?: number;
  watcherIds?: Array<number | string>;
}

/**
 * Serializations of one dispatched event's object for one encoder identifier, aggregated per
 * virtual instant: `encodes` real encodings (at most one per identifier while nothing invalidates
 * the cache), `hits` served from the CachingObject's cache.
 */
export interface SerializationEvent {
  type: 'serialization/encode';
  at: number;
  groupResource: GroupResource;
  key: string;
  resourceVersion: number;
  eventType: 'ADDED' | 'MODIFIED' | 'DELETED';
  identifier: string;
  encodes: number;
  hits: number;
  errors: number;
  /** Bytes of the encoded object (one encoding). */
  bytes: number;
}

/** A CachingObject made its lazy deep copy (the first setter that changed something). */
export interface LazyDeepCopyEvent {
  type: 'caching-object/deep-copy';
  at: number;
  groupResource: GroupResource;
  key: string;
  resourceVersion: number;
  setter: string;
}

/** A change dropped a CachingObject's cached serializations (upstream warns: unexpected). */
export interface CacheInvalidationEvent {
  type: 'caching-object/invalidated';
  at: number;
  groupResource: GroupResource;
  key: string;
  resourceVersion: number;
  setter: string;
  identifiers: string[];
}

/** Which part of ShouldDelegateList (or Get/Watch routing) a request took. */
export type DelegationPath =
  | 'exact'
  | 'legacy-exact'
  | 'continue'
  | 'consistent'
  | 'not-older-than'
  | 'any'
  | 'unknown-match'
  | 'get';

/** The rule that decided where a request was served. */
export type DelegationRule =
  /** validateListOptions rejected it (400). */
  | 'invalid-options'
  /** Exact RV / continue on a single object: the cache cannot serve exact RVs there. */
  | 'not-recursive'
  /** No snapshots (ListFromCacheSnapshot off, or marked inconsistent). */
  | 'snapshots-disabled'
  /** An RV newer than the cache: it waits to catch up (needs consistent-read support). */
  | 'future-rv'
  | 'future-rv-unsupported'
  | 'snapshot-available'
  | 'no-snapshot'
  | 'consistent-read'
  /** Consistent reads need etcd progress notifications and ConsistentListFromCache. */
  | 'consistent-read-unsupported'
  /** NotOlderThan, RV "0", or RV=N without a limit. */
  | 'served-from-cache'
  | 'unknown-match'
  /** The cache is not ready; a paginated, unfiltered list is cheap enough for etcd. */
  | 'not-ready-paginated-unfiltered'
  /** The cache is not ready: served by etcd (get), or answered 429 by the cacher (list). */
  | 'not-ready'
  /** A get without resourceVersion is always read from etcd. */
  | 'rv-unset';

export interface DelegationDecisionEvent {
  type: 'delegator/decision';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  operation: 'list' | 'get';
  key: string;
  resourceVersion: string;
  resourceVersionMatch: string;
  limit: number;
  hasContinue: boolean;
  recursive: boolean;
  path: DelegationPath;
  rule: DelegationRule;
  target: 'etcd' | 'cache' | 'rejected';
  consistentRead: boolean;
  error?: { code: number; message: string };
}

/** A list served by the cache failed and was retried against etcd (or, with the 1.37 gate, not). */
export interface DelegationFallbackEvent {
  type: 'delegator/fallback';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  key: string;
  /** resource-expired: no snapshot at the exact RV any more; too-large-resource-version: the cache did not catch up within 3s. */
  reason: 'resource-expired' | 'too-large-resource-version';
  /** true: etcd was asked; skipped: 429 instead (ConsistentListFromCacheSkipTimeoutFallback). */
  fallback: 'true' | 'skipped';
  success: boolean;
  error?: { code: number; message: string };
}

/** A consistent read finished: what apiserver_watch_cache_consistent_read_total counted. */
export interface ConsistentReadEvent {
  type: 'delegator/consistent-read';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  key: string;
  success: boolean;
  fallback: 'false' | 'true' | 'skipped';
}

/** A LIST served from the watch cache (Cacher.GetList); mirrors the apiserver_cache_list_* metrics. */
export interface CacheListEvent {
  type: 'cacher/list';
  at: number;
  groupResource: GroupResource;
  /** The request that caused it (RequestContext.requestId); absent when none did. */
  requestId?: number;
  key: string;
  resourceVersion: string;
  /** The index that pre-filtered the candidates ('' = none). */
  index: string;
  /** Read from a snapshot (exact RV or a continue token's RV), after any wait for that RV. */
  snapshot?: true;
  fetched: number;
  /** The fetched objects the selector was tried on: GetList stops at a full page. */
  evaluated: number;
  returned: number;
  /** computeListLimit's limit (0: none; RV "0" ignores the client's). */
  limit: number;
  continue?: string;
  remainingItemCount?: number;
  error?: { code: number; message: string };
}

/** Every watcher of the cacher was stopped (a re-initialization or the cacher's stop). */
export interface TerminateAllWatchersEvent {
  type: 'cacher/terminate-all';
  at: number;
  groupResource: GroupResource;
  watchers: number;
}

export type EngineEvent =
  | EtcdRequestEvent
  | ListPageEvent
  | ListPageSizeEvent
  | ListStreamDecisionEvent
  | ListStreamFallbackEvent
  | ListDoneEvent
  | EtcdWatchEvent
  | CacheWatcherEvent
  | WatchCacheCapacityChangeEvent
  | WatchCacheHistoryEvent
  | WatchCacheProgressEvent
  | WatchCacheFreshnessWaitEvent
  | FreshnessWaitStartEvent
  | CacherReadyEvent
  | ReflectorEvent
  | ProgressRequestEvent
  | CacherWatchEvent
  | DispatchEvent
  | BookmarkTickEvent
  | BookmarkBucketPopEvent
  | BookmarkScheduleEvent
  | SerializationEvent
  | LazyDeepCopyEvent
  | CacheInvalidationEvent
  | DelegationDecisionEvent
  | DelegationFallbackEvent
  | ConsistentReadEvent
  | CacheListEvent
  | TerminateAllWatchersEvent;

export type EngineEventType = EngineEvent['type'];

/**
 * Where engine components report what they do. `listening === false` tells emitters to skip
 * building the event at all, so an idle event sink costs one property read.
 */
export interface EventSink {
  readonly listening?: boolean;
  emit(event: EngineEvent): void;
}

/** The event sink to emit to, or undefined when nobody listens (callers: `insp(x)?.emit({...})`). */
export function activeSink(eventSink: EventSink | undefined): EventSink | undefined {
  return eventSink !== undefined && eventSink.listening !== false ? eventSink : undefined;
}

/** A fan-out emitter: subscribers get every event in emission order; none = no work at all. */
export class EventHub implements EventSink {
  private listeners: ((event: EngineEvent) => void)[] = [];

  get listening(): boolean {
    return this.listeners.length > 0;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (event: EngineEvent) => void): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  emit(event: EngineEvent): void {
    // Copy-on-write list: a listener that unsubscribes during emit does not skip another.
    for (const l of this.listeners) l(event);
  }
}

/** An event sink that keeps every event, for tests and reports. */
export class RecordingSink implements EventSink {
  readonly events: EngineEvent[] = [];
  readonly listening = true;

  emit(event: EngineEvent): void {
    this.events.push(event);
  }

  /** The recorded events of one type. */
  ofType<T extends EngineEventType>(type: T): Extract<EngineEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
  }

  clear(): void {
    this.events.length = 0;
  }
}
