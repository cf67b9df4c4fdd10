// Mirrors k8s.io/apiserver pkg/storage/cacher/watch_cache.go (release-1.36): the watch cache,
// i.e. the store of current objects, the event history, snapshots, freshness waits and list routing.
// Deliberate differences: no locks (the engine is single-threaded); sync.Cond becomes a waiter
// list woken by every state change and by a Clock timer; the blockTimeout timer is only armed
// when a request actually has to wait (upstream starts it for every rv>0 request; an idle
// broadcast is unobservable); errors are thrown (or reject the returned promise).

import type { Clock, Timer } from '../clock';
import type {
  WatchCacheCapacityChangeEvent,
  WatchCacheFreshnessWaitEvent,
  WatchCacheHistoryEvent,
  WatchCacheProgressEvent,
  WatchCacheWindow,
} from '../inspect/events';
import type { RequestContext } from '../request/request-context';
import type { GroupResource } from '../storage/group-resource';
import { decodeContinue } from '../storage/continue';
import {
  newBadRequest,
  newResourceExpired,
  newTooLargeResourceVersionError,
} from '../storage/errors';
import type { MatchValue } from '../storage/selection-predicate';
import type { CacherMetrics } from './metrics';
import { hasPathPrefix } from './util';
import { suggestedWatchChannelSize } from './watch-channel-size';
import type { AttrSet, WatchCacheEvent, WatchCacheEventType } from './watch-cache-event';
import { DefaultEventFreshDuration, WatchCacheHistory } from './watch-cache-history';
import { newCacheIntervalFromStore, type WatchCacheInterval } from './watch-cache-interval';
import { compareStrings } from '../storage/go-strings';
import {
  StoreSnapshotter,
  WatchCacheStore,
  type Indexers,
  type OrderedLister,
  type StoreElement,
} from './watch-cache-store';

/**
 * blockTimeout: how long a request may block waiting for a resource version to reach the cache
 * before it fails with a Timeout that suggests a retry (ms).
 */
export const blockTimeout = 3000;

/** Seconds a client should wait before retrying after a "too large resource version" error. */
export const resourceVersionTooHighRetrySeconds = 1;

/**
 * storage.Versioner, as far as the watch cache uses it (APIObjectVersioner fits). Results may be
 * bigint; the cache keeps RVs as numbers (etcd revisions stay far below 2^53).
 */
export interface WatchCacheVersioner<T> {
  /** The object's metadata.resourceVersion; throws when it is not an unsigned integer. */
  objectResourceVersion(object: T): number | bigint;
  /** "" and "0" are 0; throws (an Invalid error) for anything that is not an unsigned integer. */
  parseResourceVersion(resourceVersion: string): number | bigint;
}

/** What the watch cache reads from storage.SelectionPredicate (SelectionPredicate fits). */
export interface WatchCachePredicate {
  /** The continue token ("" or absent: none). */
  readonly continue?: string;
  readonly limit?: number;
  /** MatchesSingle: the name when the field selector pins metadata.name (and there is no continue token). */
  matchesSingle?(): string | undefined;
  /**
   * MatcherIndex: the (index, value) pairs the selectors require exactly (IndexFields, then
   * IndexLabels); requestNamespace stands in for the request context's namespace.
   */
  matcherIndex?(requestNamespace?: string): MatchValue[];
}

/** storage.ListOptions, as far as the watch cache uses it (ListOptions fits). */
export interface WatchCacheListOptions {
  resourceVersion: string;
  /** '' | 'Exact' | 'NotOlderThan'. */
  resourceVersionMatch?: string;
  recursive?: boolean;
  /** undefined = not set (nil). */
  sendInitialEvents?: boolean;
  predicate: WatchCachePredicate;
}

/** listResp plus the index used: the elements (by key) and the RV the list was read at. */
export interface WatchCacheListResult<T> {
  items: StoreElement<T>[];
  resourceVersion: number;
  /** The index that pre-filtered the items ("" when none). */
  index: string;
  /** waitAndListExactRV read a snapshot (snapshots.GetLessOrEqual), not the latest state. */
  fromSnapshot?: true;
}

/** waitingUntilFresh (progress.ConditionalProgressRequester): requests etcd progress notifications while someone waits. */
export interface ConditionalProgressRequester {
  add(): void;
  remove(): void;
}

export interface WatchCacheConfig<T> {
  /** The storage key of an object, e.g. `/pods/ns/name`; throws when it cannot be computed. */
  keyFunc: (object: T) => string;
  /** Labels and fields the selection predicates match; throws when they cannot be computed. */
  getAttrsFunc: (object: T) => { labels: AttrSet; fields: AttrSet };
  versioner: WatchCacheVersioner<T>;
  indexers?: Indexers<T>;
  clock: Clock;
  /** ms; default DefaultEventFreshDuration (75s). */
  eventFreshDuration?: number;
  groupResource: GroupResource;
  /** Called after every Add/Update/Delete and (as a BOOKMARK) every updateResourceVersion. */
  eventHandler?: (event: WatchCacheEvent<T>) => void;
  progressRequester?: ConditionalProgressRequester;
  /** The current etcd revision, for consistent reads (storage.GetCurrentResourceVersion for ctx's request). */
  getCurrentRV: (ctx?: RequestContext) => Promise<number>;
  metrics?: CacherMetrics;
  /** Feature gate ListFromCacheSnapshot (Beta, on in 1.36): keep store snapshots for exact-RV lists. */
  listFromCacheSnapshot?: boolean;
  /** delegator.ConsistentReadSupported(): ConsistentListFromCache and etcd progress requests; default false. */
  consistentReadSupported?: () => boolean;
  onCapacityChange?: (event: WatchCacheCapacityChangeEvent) => void;
  /** The history window jumped (Replace, expireHistory). */
  onHistoryChange?: (event: WatchCacheHistoryEvent) => void;
  /** A progress notification moved the cache's RV (updateResourceVersion). */
  onProgress?: (event: WatchCacheProgressEvent) => void;
  onFreshnessWait?: (event: WatchCacheFreshnessWaitEvent) => void;
  /** A read starts waiting for `resourceVersion`; the cache is still at `cacheResourceVersion`. */
  onFreshnessWaitStart?: (
    resourceVersion: number,
    cacheResourceVersion: number,
    requestId: number | undefined,
  ) => void;
}

interface FreshnessWaiter {
  resourceVersion: number;
  /** The waiting request's id, for the event sink. */
  requestId: number | undefined;
  start: number;
  timer: Timer | undefined;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * watchCache: a sliding window (of dynamic capacity) of the events observed from a watch, plus
 * the store of current objects they lead to. It serves LIST requests from the store (or from a
 * snapshot at an exact RV) once it is fresh enough, and WATCH requests from its history.
 */
export class WatchCache<T = unknown> {
  /** The event history ring. */
  readonly history: WatchCacheHistory<T>;
  /** The current objects; supports LIST from the end of the history. */
  readonly store: WatchCacheStore<T>;
  /** Snapshots of the store by RV (ListFromCacheSnapshot); undefined when the gate is off. */
  readonly snapshots: StoreSnapshotter<T> | undefined;
  /** Whether snapshots are taken (MarkConsistent switches it off while the cache is inconsistent with etcd). */
  snapshottingEnabled: boolean;
  /** The RV up to which the cache is propagated. */
  resourceVersion = 0;
  /** The RV of the last list (Replace). */
  listResourceVersion = 0;
  readonly eventFreshDuration: number;
  readonly groupResource: GroupResource;
  readonly clock: Clock;
  private readonly keyFunc: (object: T) => string;
  private readonly getAttrsFunc: (object: T) => { labels: AttrSet; fields: AttrSet };
  private readonly versioner: WatchCacheVersioner<T>;
  private readonly eventHandler?: (event: WatchCacheEvent<T>) => void;
  private onReplace?: () => void;
  private readonly waitingUntilFresh?: ConditionalProgressRequester;
  private readonly getCurrentRV: (ctx?: RequestContext) => Promise<number>;
  private readonly consistentReadSupported: () => boolean;
  private readonly onFreshnessWait?: (event: WatchCacheFreshnessWaitEvent) => void;
  private readonly onHistoryChange?: (event: WatchCacheHistoryEvent) => void;
  private readonly onProgress?: (event: WatchCacheProgressEvent) => void;
  private readonly onFreshnessWaitStart?: WatchCacheConfig<unknown>['onFreshnessWaitStart'];
  private readonly metrics?: CacherMetrics;
  private readonly grLabels: { group: string; resource: string };
  private waiters: FreshnessWaiter[] = [];

  constructor(config: WatchCacheConfig<T>) {
    this.eventFreshDuration = config.eventFreshDuration ?? DefaultEventFreshDuration;
    this.groupResource = config.groupResource;
    this.grLabels = { group: config.groupResource.group, resource: config.groupResource.resource };
    this.clock = config.clock;
    this.keyFunc = config.keyFunc;
    this.getAttrsFunc = config.getAttrsFunc;
    this.versioner = config.versioner;
    this.eventHandler = config.eventHandler;
    this.waitingUntilFresh = config.progressRequester;
    this.getCurrentRV = config.getCurrentRV;
    this.consistentReadSupported = config.consistentReadSupported ?? (() => false);
    this.onFreshnessWait = config.onFreshnessWait;
    this.onHistoryChange = config.onHistoryChange;
    this.onProgress = config.onProgress;
    this.onFreshnessWaitStart = config.onFreshnessWaitStart;
    this.store = new WatchCacheStore<T>(config.indexers ?? {});
    this.history = new WatchCacheHistory<T>({
      groupResource: config.groupResource,
      eventFreshDuration: this.eventFreshDuration,
      metrics: config.metrics,
      onCapacityChange: config.onCapacityChange,
    });
    const snapshotsOn = config.listFromCacheSnapshot ?? true;
    this.snapshots = snapshotsOn ? new StoreSnapshotter<T>() : undefined;
    this.snapshottingEnabled = snapshotsOn;
    this.metrics = config.metrics;
  }

  // ---- events from storage (the reflector calls these one at a time) ----

  add(object: T): void {
    this.processEvent('ADDED', object, this.objectResourceVersion(object), (e) =>
      this.store.add(e),
    );
  }

  update(object: T): void {
    this.processEvent('MODIFIED', object, this.objectResourceVersion(object), (e) =>
      this.store.update(e),
    );
  }

  delete(object: T): void {
    this.processEvent('DELETED', object, this.objectResourceVersion(object), (e) =>
      this.store.delete(e),
    );
  }

  /**
   * processEvent: records the event (with the previous object) in the history, applies it to the
   * store, snapshots the store, wakes freshness waiters, then calls the event handler.
   */
  processEvent(
    type: WatchCacheEventType,
    object: T,
    resourceVersion: number,
    updateFunc: (elem: StoreElement<T>) => void,
  ): void {
    this.metrics?.eventsReceivedCounter.inc(this.grLabels);
    let key: string;
    try {
      key = this.keyFunc(object);
    } catch (e) {
      throw new Error(`couldn't compute key: ${(e as Error).message}`);
    }
    const attrs = this.getAttrsFunc(object);
    const elem: StoreElement<T> = { key, object, labels: attrs.labels, fields: attrs.fields };
    const wcEvent: WatchCacheEvent<T> = {
      type,
      object,
      objLabels: elem.labels,
      objFields: elem.fields,
      key,
      resourceVersion,
      recordTime: this.clock.now(),
    };
    const previous = this.store.get(elem);
    if (previous) {
      wcEvent.prevObject = previous.object;
      wcEvent.prevObjLabels = previous.labels;
      wcEvent.prevObjFields = previous.fields;
    }

    try {
      this.history.updateCache(wcEvent);
      this.resourceVersion = resourceVersion;
      updateFunc(elem);
      if (this.snapshots && this.snapshottingEnabled) {
        if (this.history.isCacheFullLocked()) {
          // Snapshots older than the history serve no request the history could not: drop them.
          this.snapshots.removeLess(this.history.oldestResourceVersionLocked());
        }
        this.snapshots.add(this.resourceVersion, this.store);
      }
    } finally {
      this.broadcast();
    }

    this.eventHandler?.(wcEvent);
    this.recordResourceVersion(resourceVersion);
  }

  /**
   * updateResourceVersion: a progress notification (etcd bookmark) moves the cache's RV without
   * an event; waiters may now be fresh, and the cacher gets a BOOKMARK event (it does not dispatch it).
   */
  updateResourceVersion(resourceVersion: string): void {
    let rv: number;
    try {
      rv = this.parseResourceVersion(resourceVersion);
    } catch {
      // Upstream logs "Couldn't parse resourceVersion" and ignores the notification.
      return;
    }
    const moved = rv > this.resourceVersion;
    this.resourceVersion = rv;
    this.broadcast();
    // The reflector also tells the RV of every event the cache already holds: only a move is news.
    if (moved)
      this.onProgress?.({
        type: 'watchcache/progress',
        at: this.clock.now(),
        groupResource: this.groupResource,
        resourceVersion: rv,
      });
    this.eventHandler?.({
      type: 'BOOKMARK',
      object: undefined,
      objLabels: {},
      objFields: {},
      key: '',
      resourceVersion: rv,
      recordTime: 0,
    });
    this.recordResourceVersion(rv);
  }

  /**
   * replace (a relist): the store becomes `objects` at `resourceVersion`; the history is emptied
   * (its startIndex never decreases, so existing intervals become invalid) and so are the snapshots.
   */
  replace(objects: readonly T[], resourceVersion: string): void {
    const version = this.parseResourceVersion(resourceVersion);
    const toReplace: StoreElement<T>[] = [];
    for (const object of objects) {
      let key: string;
      try {
        key = this.keyFunc(object);
      } catch (e) {
        throw new Error(`couldn't compute key: ${(e as Error).message}`);
      }
      const attrs = this.getAttrsFunc(object);
      toReplace.push({ key, object, labels: attrs.labels, fields: attrs.fields });
    }

    const dropped = this.history.size;
    this.history.resetLocked();
    this.store.replace(toReplace);
    if (this.snapshots) {
      this.snapshots.reset();
      if (this.snapshottingEnabled) this.snapshots.add(version, this.store);
    }
    this.listResourceVersion = version;
    this.resourceVersion = version;
    this.onReplace?.();
    this.broadcast();
    this.recordResourceVersion(version);
    if (this.onHistoryChange) this.onHistoryChange(this.historyReport('listed', dropped));
  }

  /**
   * Drops the history as a restarted watch cache has none (a fault hook): the ring is emptied
   * (open intervals become invalid, as on a relist) and the cache counts as listed at its current
   * RV, so a watch resuming from an older RV gets 410 `too old resource version: rv (current)`.
   * The store is kept; snapshots older than now go. Returns how many events were dropped.
   */
  expireHistory(): number {
    const dropped = this.history.size;
    this.history.resetLocked();
    if (this.snapshots) {
      this.snapshots.reset();
      if (this.snapshottingEnabled) this.snapshots.add(this.resourceVersion, this.store);
    }
    this.listResourceVersion = this.resourceVersion;
    if (this.onHistoryChange) this.onHistoryChange(this.historyReport('expired', dropped));
    return dropped;
  }

  /**
   * The history window now (no upstream counterpart: for the event sink). Its oldest RV follows
   * getIntervalLocked: the last list's RV while nothing was pushed out since, else the one before
   * the oldest buffered event.
   */
  historyWindow(): WatchCacheWindow {
    const h = this.history;
    const size = h.size;
    const oldest =
      this.listResourceVersion > 0 && !h.removedEventSinceRelist
        ? this.listResourceVersion
        : size > 0
          ? h.oldestResourceVersionLocked() - 1
          : this.resourceVersion;
    const first = size > 0 ? h.cache[h.startIndex % h.capacity] : undefined;
    return {
      oldestResourceVersion: oldest,
      size,
      capacity: h.capacity,
      ...(first ? { oldestEventAgeMs: this.clock.now() - first.recordTime } : {}),
    };
  }

  /** The history window as an event: why it is reported, and what a change dropped. */
  historyReport(
    reason: WatchCacheHistoryEvent['reason'],
    dropped = 0,
    ready?: boolean,
  ): WatchCacheHistoryEvent {
    return {
      type: 'watchcache/history',
      at: this.clock.now(),
      groupResource: this.groupResource,
      reason,
      dropped,
      resourceVersion: this.resourceVersion,
      window: this.historyWindow(),
      eventFreshDuration: this.eventFreshDuration,
      ...(ready !== undefined ? { ready } : {}),
    };
  }

  setOnReplace(onReplace: (() => void) | undefined): void {
    this.onReplace = onReplace;
  }

  /** Resync: nothing to do. */
  resync(): void {}

  // ---- reads ----

  /** Every element of the store, by key. */
  list(): StoreElement<T>[] {
    return this.store.list();
  }

  listKeys(): string[] {
    return this.store.listKeys();
  }

  get(object: T): StoreElement<T> | undefined {
    let key: string;
    try {
      key = this.keyFunc(object);
    } catch (e) {
      throw new Error(`couldn't compute key: ${(e as Error).message}`);
    }
    return this.store.getByKey(key);
  }

  getByKey(key: string): StoreElement<T> | undefined {
    return this.store.getByKey(key);
  }

  getListResourceVersion(): number {
    return this.listResourceVersion;
  }

  currentCapacity(): number {
    return this.history.capacity;
  }

  suggestedWatchChannelSize(indexExists: boolean, triggerUsed: boolean): number {
    return suggestedWatchChannelSize(
      this.history.capacity,
      this.eventFreshDuration,
      indexExists,
      triggerUsed,
    );
  }

  isIndexValidLocked(index: number): boolean {
    return this.history.isIndexValidLocked(index);
  }

  notFresh(resourceVersion: number): boolean {
    return resourceVersion > this.resourceVersion;
  }

  /** Compact: snapshots below the compacted revision could not be checked against etcd any more. */
  compact(rev: number): void {
    this.snapshots?.removeLess(rev);
  }

  /** MarkConsistent: while the cache is found inconsistent with etcd, no snapshots are taken or served. */
  markConsistent(consistent: boolean): void {
    if (!this.snapshots) return;
    this.snapshottingEnabled = consistent;
    if (!consistent) this.snapshots.reset();
  }

  // ---- watch ----

  /**
   * getAllEventsSinceLocked: the interval a new watcher starts from. sendInitialEvents=true (or
   * rv=0 without it, the legacy "current state first") lists the store as ADDED events; otherwise
   * the history after rv (rv=0 with sendInitialEvents=false: from the cache's current RV).
   * Throws 410 `too old resource version: rv (oldest-1)` when the history no longer reaches rv.
   */
  getAllEventsSinceLocked(
    resourceVersion: number,
    key: string,
    opts: Pick<WatchCacheListOptions, 'predicate' | 'recursive' | 'sendInitialEvents'>,
  ): WatchCacheInterval<T> {
    const matchesSingle = opts.predicate.matchesSingle?.() !== undefined && !opts.recursive;
    if (opts.sendInitialEvents === true) {
      return this.getIntervalFromStoreLocked(key, matchesSingle);
    }
    const h = this.history;
    if (!(this.listResourceVersion > 0 && !h.removedEventSinceRelist) && h.size === 0) {
      throw new Error("watch cache isn't correctly initialized");
    }
    if (resourceVersion === 0) {
      if (opts.sendInitialEvents === undefined) {
        // rv=0 means "from about now", but for backward compatibility the current state comes first.
        return this.getIntervalFromStoreLocked(key, matchesSingle);
      }
      // sendInitialEvents=false with rv=0: start watching from any RV, i.e. now.
      resourceVersion = this.resourceVersion;
    }
    return h.getIntervalLocked(resourceVersion, this.listResourceVersion);
  }

  /** getIntervalFromStoreLocked: the whole store (or the single key) at the cache's current RV. */
  getIntervalFromStoreLocked(key: string, matchesSingle: boolean): WatchCacheInterval<T> {
    return newCacheIntervalFromStore(this.resourceVersion, this.store, key, matchesSingle);
  }

  // ---- freshness ----

  /**
   * waitUntilFreshAndBlock: resolves once the cache has reached `resourceVersion`; rejects with a
   * 504 `Too large resource version: rv, current: cur` (retry after 1s) when blockTimeout passes
   * first. rv=0 accepts any staleness and never waits. Every rv>0 request is observed in
   * apiserver_watch_cache_read_wait_seconds, even when no wait was needed (1.36; master: only waits).
   * `ctx` is the waiting request.
   */
  waitUntilFreshAndBlock(resourceVersion: number, ctx?: RequestContext): Promise<void> {
    const start = this.clock.now();
    const requestId = ctx?.requestId;
    if (this.resourceVersion >= resourceVersion) {
      if (resourceVersion > 0) this.observeWait(resourceVersion, start, 'fresh', requestId);
      return Promise.resolve();
    }
    this.onFreshnessWaitStart?.(resourceVersion, this.resourceVersion, requestId);
    return new Promise<void>((resolve, reject) => {
      const waiter: FreshnessWaiter = {
        resourceVersion,
        requestId,
        start,
        timer: undefined,
        resolve,
        reject,
      };
      // Wake everyone when the time limit has expired (upstream: clock.After then cond.Broadcast).
      waiter.timer = this.clock.afterFunc(blockTimeout, () => this.broadcast());
      this.waiters.push(waiter);
    });
  }

  /** cond.Broadcast: every waiter re-checks its condition, in arrival order. */
  private broadcast(): void {
    if (this.waiters.length === 0) return;
    const now = this.clock.now();
    const still: FreshnessWaiter[] = [];
    for (const w of this.waiters) {
      if (this.resourceVersion >= w.resourceVersion) {
        w.timer?.stop();
        this.observeWait(w.resourceVersion, w.start, 'caught-up', w.requestId);
        w.resolve();
      } else if (now - w.start >= blockTimeout) {
        w.timer?.stop();
        this.observeWait(w.resourceVersion, w.start, 'timeout', w.requestId);
        w.reject(
          newTooLargeResourceVersionError(
            w.resourceVersion,
            this.resourceVersion,
            resourceVersionTooHighRetrySeconds,
          ),
        );
      } else {
        still.push(w);
      }
    }
    this.waiters = still;
  }

  private observeWait(
    resourceVersion: number,
    start: number,
    outcome: WatchCacheFreshnessWaitEvent['outcome'],
    requestId: number | undefined,
  ): void {
    const waitedMs = this.clock.now() - start;
    this.metrics?.observeReadWait(this.grLabels, outcome !== 'fresh', waitedMs / 1000);
    this.onFreshnessWait?.({
      type: 'watchcache/wait',
      at: start,
      groupResource: this.groupResource,
      requestId,
      resourceVersion,
      cacheResourceVersion: this.resourceVersion,
      waitedMs,
      outcome,
    });
  }

  /** Number of requests currently waiting for freshness. */
  waitingRequests(): number {
    return this.waiters.length;
  }

  /** Waits as upstream's callers do: with progress notifications requested while a consistent read is behind. */
  private async waitUntilFresh(
    resourceVersion: number,
    ctx: RequestContext | undefined,
  ): Promise<void> {
    if (
      this.consistentReadSupported() &&
      this.notFresh(resourceVersion) &&
      this.waitingUntilFresh
    ) {
      this.waitingUntilFresh.add();
      try {
        await this.waitUntilFreshAndBlock(resourceVersion, ctx);
      } finally {
        this.waitingUntilFresh.remove();
      }
      return;
    }
    await this.waitUntilFreshAndBlock(resourceVersion, ctx);
  }

  /** WaitUntilFreshAndGet: the element at `key` once the cache has reached rv, and the cache's RV. */
  async waitUntilFreshAndGet(
    resourceVersion: number,
    key: string,
    ctx?: RequestContext,
  ): Promise<{ object: StoreElement<T> | undefined; exists: boolean; resourceVersion: number }> {
    await this.waitUntilFresh(resourceVersion, ctx);
    const object = this.store.getByKey(key);
    return { object, exists: object !== undefined, resourceVersion: this.resourceVersion };
  }

  /** WaitUntilFreshAndGetKeys. */
  async waitUntilFreshAndGetKeys(resourceVersion: number, ctx?: RequestContext): Promise<string[]> {
    await this.waitUntilFresh(resourceVersion, ctx);
    return this.store.listKeys();
  }

  // ---- list routing ----

  /** WaitUntilFreshAndGetList: a recursive list, or a GET turned into a list of 0 or 1 items. */
  waitUntilFreshAndGetList(
    key: string,
    opts: WatchCacheListOptions,
    requestNamespace = '',
    ctx?: RequestContext,
  ): Promise<WatchCacheListResult<T>> {
    if (opts.recursive) return this.waitUntilFreshAndList(key, opts, requestNamespace, ctx);
    return this.waitUntilFreshAndGetListSingle(key, opts, ctx);
  }

  private async waitUntilFreshAndGetListSingle(
    key: string,
    opts: WatchCacheListOptions,
    ctx: RequestContext | undefined,
  ): Promise<WatchCacheListResult<T>> {
    let listRV: number;
    if ((opts.resourceVersionMatch ?? '') === '' && opts.resourceVersion === '') {
      listRV = await this.getCurrentRV(ctx); // consistent read
    } else {
      listRV = this.parseResourceVersion(opts.resourceVersion);
    }
    const got = await this.waitUntilFreshAndGet(listRV, key, ctx);
    return {
      items: got.object ? [got.object] : [],
      resourceVersion: got.resourceVersion,
      index: '',
    };
  }

  /**
   * waitUntilFreshAndList: the same routing as delegator.ShouldDelegateList. Exact RV and continue
   * tokens with an RV read a snapshot (result RV = the requested one); RV "" (and "-1" continue
   * tokens) wait for etcd's current revision; anything else waits for rv and lists the latest
   * state (result RV = the cache's).
   */
  async waitUntilFreshAndList(
    key: string,
    opts: WatchCacheListOptions,
    requestNamespace = '',
    ctx?: RequestContext,
  ): Promise<WatchCacheListResult<T>> {
    const listRV = this.parseResourceVersion(opts.resourceVersion);
    const match = opts.resourceVersionMatch ?? '';
    if (match === 'Exact') return this.waitAndListExactRV(key, '', listRV, ctx);
    if (match === '') {
      const token = opts.predicate.continue ?? '';
      if (token.length > 0) {
        let continueKey: string;
        let continueRV: number;
        try {
          const decoded = decodeContinue(token, key);
          continueKey = decoded.fromKey;
          continueRV = Number(decoded.resourceVersion);
        } catch (e) {
          throw newBadRequest(`invalid continue token: ${(e as Error).message}`);
        }
        if (continueRV > 0) return this.waitAndListExactRV(key, continueKey, continueRV, ctx);
        // Index matchers are not passed: they do not support a continue key.
        return this.waitAndListConsistent(key, continueKey, [], ctx);
      }
      // Legacy exact match: a limit with an RV other than "" and "0".
      if (
        (opts.predicate.limit ?? 0) > 0 &&
        opts.resourceVersion.length > 0 &&
        opts.resourceVersion !== '0'
      ) {
        return this.waitAndListExactRV(key, '', listRV, ctx);
      }
      if (opts.resourceVersion === '') {
        return this.waitAndListConsistent(
          key,
          '',
          opts.predicate.matcherIndex?.(requestNamespace) ?? [],
          ctx,
        );
      }
    }
    return this.waitAndListLatestRV(
      listRV,
      key,
      '',
      opts.predicate.matcherIndex?.(requestNamespace) ?? [],
      ctx,
    );
  }

  /** waitAndListExactRV: the snapshot at the greatest RV <= rv; 410 `too old resource version: rv` without one. */
  async waitAndListExactRV(
    key: string,
    continueKey: string,
    resourceVersion: number,
    ctx?: RequestContext,
  ): Promise<WatchCacheListResult<T>> {
    await this.waitUntilFresh(resourceVersion, ctx);
    const snapshot: OrderedLister<T> | undefined = this.snapshots?.getLessOrEqual(resourceVersion);
    if (!snapshot) throw newResourceExpired(`too old resource version: ${resourceVersion}`);
    return {
      items: snapshot.listPrefix(key, continueKey),
      resourceVersion,
      index: '',
      fromSnapshot: true,
    };
  }

  /** waitAndListConsistent: waits for etcd's current revision, then lists the latest state. */
  async waitAndListConsistent(
    key: string,
    continueKey: string,
    matchValues: readonly MatchValue[],
    ctx?: RequestContext,
  ): Promise<WatchCacheListResult<T>> {
    const resourceVersion = await this.getCurrentRV(ctx);
    return this.waitAndListLatestRV(resourceVersion, key, continueKey, matchValues, ctx);
  }

  async waitAndListLatestRV(
    resourceVersion: number,
    key: string,
    continueKey: string,
    matchValues: readonly MatchValue[],
    ctx?: RequestContext,
  ): Promise<WatchCacheListResult<T>> {
    await this.waitUntilFresh(resourceVersion, ctx);
    return this.listLatestRV(key, continueKey, matchValues);
  }

  /**
   * listLatestRV: only pre-filtering happens here (the final filtering is the caller's): the first
   * index that exists narrows the items, else the key-ordered store lists the prefix.
   */
  listLatestRV(
    key: string,
    continueKey: string,
    matchValues: readonly MatchValue[],
  ): WatchCacheListResult<T> {
    for (const mv of matchValues) {
      if (this.store.hasIndex(mv.indexName)) {
        const items = filterPrefixAndOrder(key, this.store.byIndex(mv.indexName, mv.value));
        return { items, resourceVersion: this.resourceVersion, index: mv.indexName };
      }
    }
    return {
      items: this.store.listPrefix(key, continueKey),
      resourceVersion: this.resourceVersion,
      index: '',
    };
  }

  private objectResourceVersion(object: T): number {
    return Number(this.versioner.objectResourceVersion(object));
  }

  private parseResourceVersion(resourceVersion: string): number {
    return Number(this.versioner.parseResourceVersion(resourceVersion));
  }

  private recordResourceVersion(rv: number): void {
    this.metrics?.recordResourceVersion(this.grLabels, rv);
  }
}

/** filterPrefixAndOrder: index results under `prefix` (at a path-segment boundary), by key. */
export function filterPrefixAndOrder<T>(
  prefix: string,
  items: readonly StoreElement<T>[],
): StoreElement<T>[] {
  return items
    .filter((e) => hasPathPrefix(e.key, prefix))
    .sort((a, b) => compareStrings(a.key, b.key));
}
