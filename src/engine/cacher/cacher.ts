// Mirrors k8s.io/apiserver pkg/storage/cacher/cacher.go (release-1.36): NewCacherFromConfig,
// startCaching, Watch, Get, GetList, forgetWatcher, dispatchEvents / dispatchEvent with the
// dispatch time budget and the bookmark buckets, errWatcher, the delegator.Helper methods, plus
// compactor.go (metrics: metrics.ts; key rules: storage/keys.ts). Deliberate differences: the
// goroutines are clock-driven tasks (the dispatcher only awaits while a blocked watcher may still
// take an event); no locks (single-threaded), so "under the lock" means "without an await in
// between"; select between the incoming queue and the bookmark timer prefers the queue (Go picks
// at random); a dispatch budget of 0 terminates blocked watchers at once (Go's 0-length timer
// races with the watcher); a Get answers a deep copy of the cached object (upstream copies the
// struct shallowly), a GetList the cached objects themselves (upstream: shallow copies), which
// every reader treats as read-only; a watcher's id comes from the run's WatcherIds (one sequence
// for all its cachers, watcher-ids.ts), its watcherIdx still counted per cacher.
import { type GroupResource, groupResourceString } from '../storage/group-resource';
import type { Clock, Timer } from '../clock';
import { activeSink, type EventSink, type SerializationEvent } from '../inspect/events';
import type { MetricsRegistry } from '../metrics/registry';
import { MetricsRegistry as Registry } from '../metrics/registry';
import type { SeededRandom } from '../rand';
import type { RequestContext, RequestContexts } from '../request/request-context';
import { prepareContinueToken } from '../storage/continue';
import {
  StatusError,
  errorToAPIStatus,
  newNotFound,
  newServiceUnavailable,
  newTooManyRequests,
  plainError,
  type Status,
} from '../storage/errors';
import { getAttrs as defaultGetAttrs } from '../storage/field-labels';
import { namespaceKeyFunc, prepareKey } from '../storage/keys';
import { quote } from '../storage/go-strings';
import type { ListOptions } from '../storage/list-options';
import type { KubeObject } from '../storage/objects';
import type { SelectionPredicate } from '../storage/selection-predicate';
import { APIObjectVersioner, type Versioner } from '../storage/versioner';
import type { ListResult } from '../etcd3/store';
import {
  WatcherBookmarkTimeBuckets,
  defaultBookmarkFrequency,
  zeroTime,
  type BookmarkBucketsHooks,
} from './bookmark-buckets';
import { CacheWatcher, forgetThroughOwner, type CacheWatcherEnvironment } from './cache-watcher';
import {
  CacheInvalidationWarnings,
  baseObjectThreadUnsafe,
  deepCopyJSON,
  setCachingObjects,
  type CachingObjectHooks,
  type SetCachingObjectsOptions,
} from './caching-object';
import { Channel, ChannelTimer, type Received } from './channel';
import { CacherDelegation, computeListLimit } from './cacher-delegation';
import {
  consistentReadSupported,
  type DelegationResult,
  type DelegatorHelper,
} from './delegator/interface';
import type { FeatureGates, KubernetesVersion } from '../features';
import {
  ConditionalProgressRequester,
  Ready,
  Reflector,
  relistPeriod,
  storageWatchListPageSize,
  type CacherStorage,
} from './reflector';
import { EventEncodes, EventTally } from './event-tally';
import { CacherMetrics } from './metrics';
import { WatcherIds } from './watcher-ids';
import { newTimeBudget, type TimeBudget } from './time-budget';
import { isWatchContextSource, type WatchContextSource } from './context-done';
import { filterWithAttrsAndPrefixFunction, type FilterWithAttrsFunc } from './filter-with-attrs';
import { HeartbeatCopy } from './heartbeat-copy';
import { InPlaceDelivery, SharedConversion } from './in-place-delivery';
import {
  IndexedWatchers,
  type DispatchEntry,
  type WatchScope,
  type WatcherCollector,
  type WatcherRegistration,
} from './indexed-watchers';
import { calculateRetryAfterForUnreadyCache } from './util';
import type { WatchEvent, WatchInterface, WatchObject } from './watch';
import type { AttrSet, WatchCacheEvent } from './watch-cache-event';
import { DefaultEventFreshDuration } from './watch-cache-history';
import { WatchCache, type WatchCacheListOptions } from './watch-cache';
import type { Indexers } from './watch-cache-store';
import {
  getBookmarkAfterResourceVersionLockedFunc,
  getWatchCacheResourceVersion,
  isListWatchRequest,
} from './watch-resource-versions';
import { WatcherRuns } from './watcher-run';

/** The capacity of the cacher's incoming queue (upstream TODO: figure out the correct value). */
export const incomingBufferSize = 100;

/** What an idle bookmark tick returns (no watcher due). */
const noBookmarksQueued: { watchers: number; queued: number } = Object.freeze({
  watchers: 0,
  queued: 0,
});

/** How often dispatchEvents polls for the first list RV before it starts dispatching. */
export const dispatchPollPeriod = 10;

/** compactorPollPeriod: how often the cacher reads etcd's compaction revision to drop snapshots. */
export const compactorPollPeriod = 15_000;

/** The bookmark timer period before jitter (wait.Jitter(time.Second, 0.25)). */
export const bookmarkTimerPeriod = 1000;
export const bookmarkTimerJitter = 0.25;

/** core/v1 namespaces: a watch on /namespaces/<name> is not scoped by namespace. */
const coreNamespaceResource: GroupResource = { group: '', resource: 'namespaces' };

/** wait.Jitter(d, maxFactor): d plus up to maxFactor·d, drawn from the seeded generator. */
export function jitter(rand: SeededRandom, durationMs: number, maxFactor: number): number {
  return durationMs + rand.float64() * maxFactor * durationMs;
}

/**
 * handlers/get.go's watch timeout: time.Duration(timeoutSeconds) * time.Second when given and not
 * 0, else a random value in [minRequestTimeout, 2·minRequestTimeout) so that watches do not all
 * end together (ms). The product is int64 nanoseconds and wraps as Go's does (timeoutSeconds >=
 * 9,223,372,037 turns negative). A negative timeout is a deadline already passed
 * (context.WithTimeout): 0, the watch ends at once.
 */
export function watchRequestTimeout(
  timeoutSeconds: number | undefined,
  minRequestTimeoutMs: number,
  rand: SeededRandom,
): number {
  const timeoutNs =
    timeoutSeconds === undefined
      ? 0n
      : BigInt.asIntN(64, BigInt(Math.trunc(timeoutSeconds)) * 1_000_000_000n);
  if (timeoutNs !== 0n) return timeoutNs < 0n ? 0 : Number(timeoutNs) / 1e6;
  if (minRequestTimeoutMs > 0) return minRequestTimeoutMs * (rand.float64() + 1);
  return 0;
}

/** The empty object of a resource (config.NewFunc): what bookmark events carry. */
export function defaultNewFunc(gr: GroupResource): () => KubeObject {
  if (gr.group === '' && gr.resource === 'pods') {
    return () =>
      ({
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: {},
        spec: { containers: null },
        status: {},
      }) as KubeObject;
  }
  return () => ({ metadata: {} });
}

/** indexedTriggerFunc: the one field whose exact value narrows the watchers an event goes to. */
export interface IndexedTrigger {
  /** e.g. `spec.nodeName`: matched against the watch's predicate IndexFields. */
  indexName: string;
  indexerFunc: (object: KubeObject) => string;
}

export interface CacherConfig {
  storage: CacherStorage;
  versioner?: Versioner;
  groupResource: GroupResource;
  /** EventsHistoryWindow (ms): at least DefaultEventFreshDuration (75s), which is the default. */
  eventsHistoryWindow?: number;
  /** e.g. `/pods`: keys must start with it; the reflector lists and watches it. */
  resourcePrefix: string;
  keyFunc?: (object: KubeObject) => string;
  getAttrsFunc?: (object: KubeObject) => { labels: AttrSet; fields: AttrSet };
  /** IndexerFuncs (at most one): the trigger narrowing dispatch, e.g. pods' spec.nodeName. */
  indexedTrigger?: IndexedTrigger;
  /** Indexers: accelerate lists, e.g. `f:spec.nodeName`. */
  indexers?: Indexers<KubeObject>;
  newFunc?: () => KubeObject;
  clock: Clock;
  /** Jitter of the bookmark timer. */
  rand: SeededRandom;
  /** The order in which a dispatch offers an event to the watchers (Go's random map order). */
  dispatchOrderRand: SeededRandom;
  gates: FeatureGates;
  /** etcd supports progress requests (storage.RequestWatchProgress); default true. */
  requestWatchProgressSupported?: boolean;
  /** etcd's compaction revision (storage.CompactRevision), for the snapshot compactor. */
  compactRevision?: () => number;
  metrics?: MetricsRegistry;
  /** Whose metric definitions to record: release-1.36 (default) or master's (1.37 preview). */
  kubernetesVersion?: KubernetesVersion;
  eventSink?: EventSink;
  /** defaultBookmarkFrequency (1 minute) unless a test shortens it. */
  bookmarkFrequency?: number;
  /** reflector.WatchListPageSize (10000). */
  listPageSize?: number;
  /**
   * The optimisations beside upstream's dispatch: in-place delivery, watcher runs and one copy of
   * a heartbeat for all watchers (in-place-delivery.ts, watcher-run.ts, heartbeat-copy.ts).
   * Default true; off, every event takes upstream's path.
   */
  fastPaths?: boolean;
  /** The apiserver's request ids, for the reflector's own requests. */
  requests?: RequestContexts;
  /** The run's watcher ids, shared by its cachers (watcher-ids.ts); default: this cacher's own. */
  watcherIds?: WatcherIds;
  log?: (message: string) => void;
}

/** What a watch request carries besides its options: the request's namespace/name and its context. */
export interface WatchCallContext {
  /** The namespace of the request path (/namespaces/<ns>/…): the watcher's scope. */
  requestNamespace?: string;
  /** The name of the request path (…/pods/<name>). */
  requestName?: string;
  /**
   * The request context: its deadline is the watcher's, its end ends processInterval (through
   * addDoneListener when it has it, as WatchRequestContext does: no AbortSignal per watch).
   */
  ctx?: { readonly deadline: number; readonly signal: AbortSignal } & Partial<WatchContextSource>;
  /** The watch request: its id tags the events of the watch and of its watcher's creation. */
  request?: RequestContext;
}

export interface ListCallContext {
  /** The namespace of the request path: lets a list use a metadata.namespace index. */
  requestNamespace?: string;
  /** The list request: its id tags its freshness wait, etcd requests and the cache's list. */
  request?: RequestContext;
}

/** errWatcher: a watch that delivers one ERROR event with the error's Status, then closes. */
export function newErrWatcher(err: unknown): WatchInterface {
  const ch = new Channel<WatchEvent>(1);
  ch.trySend({ type: 'ERROR', object: errWatcherStatus(err) as unknown as KubeObject });
  ch.close();
  return { resultChan: () => ch, stop: () => undefined };
}

/** The ERROR event's object: a StatusError's Status, else a 500 InternalError Status. */
export function errWatcherStatus(err: unknown): Status {
  if (err instanceof StatusError) return errorToAPIStatus(err);
  const message = err instanceof Error ? err.message : String(err);
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'InternalError',
    code: 500,
  };
}

/** immediateCloseWatcher: registered too late (the cache went unready); the client simply retries. */
export function newImmediateCloseWatcher(): WatchInterface {
  const ch = new Channel<WatchEvent>(0);
  ch.close();
  return { resultChan: () => ch, stop: () => undefined };
}

/**
 * Cacher: serves WATCH (and LIST) requests of one resource from its watch cache, which its reflector
 * keeps in sync with etcd. Every event the cache processes goes through the incoming queue to the
 * dispatcher, which hands it to the watchers whose scope or trigger value matches: without blocking
 * first, then waiting for the blocked ones within the dispatch time budget, terminating those still
 * blocked. A jittered ~1s timer dispatches bookmarks to the watchers whose bucket is due.
 */
export class Cacher implements DelegatorHelper {
  readonly resourcePrefix: string;
  readonly groupResource: GroupResource;
  readonly versioner: Versioner;
  readonly watchCache: WatchCache<KubeObject>;
  readonly reflector: Reflector;
  readonly ready: Ready;
  readonly clock: Clock;
  readonly gates: FeatureGates;
  readonly metrics: CacherMetrics;
  readonly registry: MetricsRegistry;
  readonly storage: CacherStorage;
  readonly newFunc: () => KubeObject;
  readonly progressRequester: ConditionalProgressRequester;
  readonly indexedTrigger: IndexedTrigger | undefined;
  readonly watchers: IndexedWatchers;
  readonly eventSink: EventSink | undefined;
  /** dispatchTimeoutBudget: how long dispatch may wait for blocked watchers (replaceable in tests). */
  dispatchTimeoutBudget: TimeBudget;
  /** Watchers due for a bookmark by time bucket (replaceable in tests). */
  bookmarkWatchers: WatcherBookmarkTimeBuckets<CacheWatcher>;
  watcherIdx = 0;
  /** Where watcher ids come from: the run's sequence, so they name one watcher across cachers. */
  private readonly watcherIds: WatcherIds;
  /** compactor.Revision(): the last compaction applied to the snapshots. */
  compactRevision = 0;
  /** The dispatcher is in an event (possibly waiting for blocked watchers). */
  dispatching = false;

  private readonly incoming = new Channel<WatchCacheEvent<KubeObject>>(incomingBufferSize);
  private pendingIncoming = 0;
  private incomingDrained: (() => void)[] = [];
  private readonly rand: SeededRandom;
  private readonly requestWatchProgressSupported: boolean;
  private readonly compactRevisionFunc: (() => number) | undefined;
  private readonly delegation: CacherDelegation;
  private readonly warnings: CacheInvalidationWarnings;
  /** setCachingObjects options while nobody listens: one object for every event. */
  private readonly plainCachingOptions: SetCachingObjectsOptions;
  private readonly tally: EventTally | undefined;
  private readonly bucketsInspector: BookmarkBucketsHooks | undefined;
  private readonly log: ((message: string) => void) | undefined;
  private readonly timer: ChannelTimer;
  private readonly fastPaths: boolean;
  /** The fast paths' one copy of a heartbeat for all watchers. */
  private readonly heartbeatCopy: HeartbeatCopy | undefined;
  /** What all this cacher's watchers share (one object, not six fields in each). */
  private readonly watcherEnvironment: CacheWatcherEnvironment;
  private watchersBuffer: DispatchEntry[] = [];
  private readonly watchersCollector: WatcherCollector = {
    buf: this.watchersBuffer,
    n: 0,
    watchers: 0,
  };
  private readonly blockedWatchers: CacheWatcher[] = [];
  /** Filters by predicate and key (filterFor); dropped with their predicate. */
  private readonly filters = new WeakMap<SelectionPredicate, Map<string, WatcherFilter>>();
  private watchersToStop: CacheWatcher[] = [];
  private expiredBookmarkWatchers: CacheWatcher[] = [];
  private started = false;
  private stopped = false;
  private stopWaiters: (() => void)[] = [];
  private compactorTimer: Timer | undefined;
  private dispatcherDone: Promise<void> | undefined;
  private cachingDone: Promise<void> | undefined;

  constructor(config: CacherConfig) {
    const rp = config.resourcePrefix;
    if (rp === '') throw new Error('resourcePrefix cannot be empty');
    if (rp === '/') throw new Error('resourcePrefix cannot be /');
    if (!rp.startsWith('/')) throw new Error('resourcePrefix needs to start from /');
    const eventFreshDuration = config.eventsHistoryWindow ?? DefaultEventFreshDuration;
    if (eventFreshDuration < DefaultEventFreshDuration) {
      throw new Error(
        `config.EventsHistoryWindow (${goDuration(eventFreshDuration)}) must not be below ${goDuration(DefaultEventFreshDuration)}`,
      );
    }
    this.resourcePrefix = rp;
    this.groupResource = {
      group: config.groupResource.group,
      resource: config.groupResource.resource,
    };
    this.versioner = config.versioner ?? new APIObjectVersioner();
    this.clock = config.clock;
    this.rand = config.rand;
    this.gates = config.gates;
    this.storage = config.storage;
    this.registry = config.metrics ?? new Registry();
    this.metrics = new CacherMetrics(this.registry, config.kubernetesVersion);
    this.newFunc = config.newFunc ?? defaultNewFunc(this.groupResource);
    this.indexedTrigger = config.indexedTrigger;
    this.eventSink = config.eventSink;
    this.log = config.log;
    this.requestWatchProgressSupported = config.requestWatchProgressSupported ?? true;
    this.compactRevisionFunc = config.compactRevision;
    this.fastPaths = config.fastPaths ?? true;
    this.watcherIds = config.watcherIds ?? new WatcherIds();
    this.heartbeatCopy = this.fastPaths ? new HeartbeatCopy() : undefined;
    this.watcherEnvironment = {
      groupResource: this.groupResource,
      heartbeatCopy: this.heartbeatCopy,
      clock: this.clock,
      eventSink: this.eventSink,
      metrics: this.metrics,
      log: this.log,
    };
    this.watchers = new IndexedWatchers(
      (r, drain) => this.forgetWatcher(r, drain),
      config.dispatchOrderRand,
      this.fastPaths ? () => new WatcherRuns() : undefined,
    );
    this.warnings = new CacheInvalidationWarnings(this.clock, (m) => this.log?.(m));
    this.plainCachingOptions = { warnings: this.warnings, onError: (m) => this.log?.(m) };
    this.dispatchTimeoutBudget = newTimeBudget(this.clock);
    this.timer = new ChannelTimer(this.clock);
    const insp = this.eventSink;
    this.tally = insp ? new EventTally(this.clock, insp, this.groupResource) : undefined;
    this.bucketsInspector = insp ? this.newBucketsInspector(insp) : undefined;
    this.bookmarkWatchers = new WatcherBookmarkTimeBuckets<CacheWatcher>(
      this.clock,
      config.bookmarkFrequency ?? defaultBookmarkFrequency,
      this.bucketsInspector,
    );
    this.ready = new Ready(this.clock, (r) => {
      const i = activeSink(insp);
      if (!i) return;
      i.emit({
        type: 'cacher/ready',
        at: this.clock.now(),
        groupResource: this.groupResource,
        state: r.state === 'Ready' ? 'ready' : r.state === 'Stopped' ? 'stopped' : 'pending',
        generation: r.generation,
        ...(r.lastErr ? { error: r.lastErr.message } : {}),
      });
    });
    this.progressRequester = new ConditionalProgressRequester(
      () => this.reflector.requestWatchProgress(),
      this.clock,
      (waiting) => {
        activeSink(insp)?.emit({
          type: 'cacher/progress-request',
          at: this.clock.now(),
          groupResource: this.groupResource,
          waiting,
        });
      },
    );
    const resource = this.groupResource.resource;
    this.watchCache = new WatchCache<KubeObject>({
      keyFunc: config.keyFunc ?? namespaceKeyFunc(rp),
      getAttrsFunc: config.getAttrsFunc ?? ((obj) => defaultGetAttrs(obj, resource)),
      versioner: this.versioner,
      indexers: config.indexers,
      clock: this.clock,
      eventFreshDuration,
      groupResource: this.groupResource,
      eventHandler: (e) => this.processEvent(e),
      progressRequester: this.progressRequester,
      getCurrentRV: async (ctx) => Number(await this.storage.getCurrentResourceVersion(ctx)),
      metrics: this.metrics,
      listFromCacheSnapshot: this.gates.ListFromCacheSnapshot,
      consistentReadSupported: () => this.consistentReadSupported(),
      onCapacityChange: insp ? (e) => activeSink(insp)?.emit(e) : undefined,
      onHistoryChange: insp ? (e) => activeSink(insp)?.emit(e) : undefined,
      onProgress: insp ? (e) => activeSink(insp)?.emit(e) : undefined,
      onFreshnessWait: insp ? (e) => activeSink(insp)?.emit(e) : undefined,
      onFreshnessWaitStart: insp
        ? (resourceVersion, cacheResourceVersion, requestId) =>
            activeSink(insp)?.emit({
              type: 'watchcache/wait-start',
              at: this.clock.now(),
              groupResource: this.groupResource,
              requestId,
              resourceVersion,
              cacheResourceVersion,
            })
        : undefined,
    });
    this.reflector = new Reflector({
      storage: this.storage,
      resourcePrefix: rp,
      store: this.watchCache,
      clock: this.clock,
      groupResource: this.groupResource,
      pageSize: config.listPageSize ?? storageWatchListPageSize,
      flowControl: {
        blocked: () => this.pendingIncoming > 0,
        onUnblocked: (resume) => this.onIncomingDrained(resume),
      },
      eventSink: insp,
      requests: config.requests,
      log: this.log,
    });
    this.delegation = new CacherDelegation(
      {
        resourcePrefix: rp,
        hasSnapshots: () => this.watchCache.snapshots !== undefined,
        notFresh: (rv) => this.watchCache.notFresh(rv),
        canServeExactRV: (rv) => this.watchCache.snapshots?.getLessOrEqual(rv) !== undefined,
        consistentReadSupported: () => this.consistentReadSupported(),
      },
      { parseResourceVersion: (rv) => Number(this.versioner.parseResourceVersion(rv)) },
    );
  }

  // ------------------------------------------------------------ lifecycle

  /** Starts the reflector (startCaching under wait.Until), the dispatcher, the progress requester and the compactor. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.progressRequester.run();
    this.dispatcherDone = this.dispatchEvents();
    this.cachingDone = this.cachingLoop();
    if (this.gates.ListFromCacheSnapshot && this.compactRevisionFunc) this.scheduleCompactor();
  }

  /** Stop: graceful termination; every watcher is stopped, requests get `apiserver cacher is stopped`. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.ready.stop();
    this.reflector.stop();
    this.progressRequester.stop();
    this.compactorTimer?.stop();
    const ws = this.stopWaiters;
    this.stopWaiters = [];
    for (const w of ws) w();
    if (!this.started) this.terminateAllWatchers();
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Settles when the background tasks have ended after stop(). */
  async whenStopped(): Promise<void> {
    await Promise.all([this.dispatcherDone, this.cachingDone]);
  }

  /** Ready(): the cache has been initialised and is not re-initialising. */
  isReady(): boolean {
    return this.ready.check().error === undefined;
  }

  /** Wait: resolves once ready (rejects when stopped or the signal aborts). */
  waitReady(signal?: AbortSignal): Promise<void> {
    return this.ready.wait(signal);
  }

  consistentReadSupported(): boolean {
    return consistentReadSupported(this.gates, this.requestWatchProgressSupported);
  }

  /** LastSyncResourceVersion of the reflector (0 before the first list). */
  lastSyncResourceVersion(): number {
    return Number(this.reflector.lastSyncResourceVersion || '0');
  }

  /** Emits the engine events aggregated for the current instant. */
  flushEvents(): void {
    this.tally?.flush();
  }

  /** Watchers currently registered. */
  watcherCount(): number {
    return this.watchers.size;
  }

  /** The registered watchers (a live view for debugging and fault injection; not for dispatch). */
  registeredWatchers(): CacheWatcher[] {
    return this.watchers.watchers();
  }

  private async cachingLoop(): Promise<void> {
    try {
      while (!this.stopped) {
        await this.startCaching();
        if (this.stopped) break;
        activeSink(this.eventSink)?.emit({
          type: 'cacher/reflector',
          at: this.clock.now(),
          groupResource: this.groupResource,
          phase: 'relist-wait',
        });
        await this.sleepOrStop(relistPeriod);
      }
    } finally {
      // wait.Until's goroutine: defer c.terminateAllWatchers().
      this.terminateAllWatchers();
    }
  }

  /** startCaching: terminate every watcher, then ListAndWatch; the cache is unready once it returns. */
  private async startCaching(): Promise<void> {
    this.watchCache.setOnReplace(() => {
      this.ready.setReady();
      this.metrics.watchCacheInitializations.inc({
        group: this.groupResource.group,
        resource: this.groupResource.resource,
      });
    });
    let err: Error | undefined;
    try {
      this.terminateAllWatchers();
      err = await this.reflector.listAndWatch();
      if (err)
        this.log?.(
          `cacher (${groupResourceString(this.groupResource)}): unexpected ListAndWatch error: ${err.message}; reinitializing...`,
        );
    } finally {
      this.ready.setError(err);
    }
  }

  private scheduleCompactor(): void {
    this.compactorTimer = this.clock.afterFunc(compactorPollPeriod, () => {
      if (this.stopped) return;
      this.compactIfNeeded();
      this.scheduleCompactor();
    });
  }

  /** compactor.compactIfNeeded: snapshots below etcd's compaction can no longer be served. */
  compactIfNeeded(): void {
    const rev = this.compactRevisionFunc?.() ?? 0;
    if (rev <= 0 || rev <= this.compactRevision) return;
    this.watchCache.compact(rev);
    this.compactRevision = rev;
  }

  private sleepOrStop(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let t: Timer | undefined = undefined;
      const done = (): void => {
        t?.stop();
        this.stopWaiters = this.stopWaiters.filter((w) => w !== done);
        resolve();
      };
      t = this.clock.afterFunc(ms, done);
      this.stopWaiters.push(done);
    });
  }

  // ------------------------------------------------------------ the incoming queue

  /** processEvent: the watch cache's event handler; blocks the reflector while the queue is full. */
  processEvent(event: WatchCacheEvent<KubeObject>): void {
    if (this.incoming.trySend(event)) return;
    if (this.incoming.closed) return;
    this.pendingIncoming++;
    this.incoming.waitSend(event, () => {
      this.pendingIncoming--;
      if (this.pendingIncoming === 0) {
        const ds = this.incomingDrained;
        this.incomingDrained = [];
        for (const d of ds) d();
      }
    });
  }

  /** Events queued for dispatch (len(c.incoming)), blocked senders included. */
  incomingLength(): number {
    return this.incoming.len() + this.pendingIncoming;
  }

  private onIncomingDrained(resume: () => void): void {
    if (this.pendingIncoming === 0) resume();
    else this.incomingDrained.push(resume);
  }

  // ------------------------------------------------------------ dispatch

  /**
   * dispatchEvents: waits for the first list, then dispatches every incoming event (storage
   * bookmarks only move lastProcessedResourceVersion) and, on each jittered timer tick, a bookmark
   * at lastProcessedResourceVersion to the watchers whose bucket is due.
   */
  private async dispatchEvents(): Promise<void> {
    const bookmarkTimer = new ChannelTimer(
      this.clock,
      jitter(this.rand, bookmarkTimerPeriod, bookmarkTimerJitter),
    );
    try {
      let lastProcessedResourceVersion = 0;
      for (;;) {
        if (this.stopped) return;
        const rv = this.watchCache.getListResourceVersion();
        if (rv !== 0) {
          lastProcessedResourceVersion = rv;
          break;
        }
        await this.sleepOrStop(dispatchPollPeriod);
      }
      for (;;) {
        if (this.stopped) return;
        let r: Received<WatchCacheEvent<KubeObject>> | undefined = this.incoming.tryRecv();
        let tick = false;
        if (r === undefined) tick = bookmarkTimer.c.tryRecv() !== undefined;
        if (r === undefined && !tick) {
          const sel = await this.selectIncomingOrTick(bookmarkTimer);
          if (sel === 'stop') return;
          if (sel === 'tick') tick = true;
          else r = sel;
        }
        if (r !== undefined) {
          if (!r.ok) return;
          const event = r.value as WatchCacheEvent<KubeObject>;
          // Storage bookmarks (progress notifications, RV updates) are not dispatched: too frequent.
          if (event.type !== 'BOOKMARK') {
            const p = this.dispatchEvent(event);
            if (p) await p;
          }
          lastProcessedResourceVersion = event.resourceVersion;
          this.metrics.eventsCounter.inc({
            group: this.groupResource.group,
            resource: this.groupResource.resource,
          });
          continue;
        }
        const next = jitter(this.rand, bookmarkTimerPeriod, bookmarkTimerJitter);
        bookmarkTimer.reset(next);
        const queued = this.dispatchBookmarkTick(lastProcessedResourceVersion);
        const insp = activeSink(this.eventSink);
        if (insp && queued.watchers > 0) {
          insp.emit({
            type: 'cacher/bookmark-tick',
            at: this.clock.now(),
            groupResource: this.groupResource,
            resourceVersion: lastProcessedResourceVersion,
            watchers: queued.watchers,
            queued: queued.queued,
            nextTickMs: next,
          });
        }
      }
    } finally {
      bookmarkTimer.stop();
    }
  }

  private selectIncomingOrTick(
    bookmarkTimer: ChannelTimer,
  ): Promise<Received<WatchCacheEvent<KubeObject>> | 'tick' | 'stop'> {
    return new Promise((resolve) => {
      let settled = false;
      let cancelTick: () => boolean = () => false;
      const stop = (): void => {
        if (settled) return;
        settled = true;
        cancelIncoming();
        cancelTick();
        resolve('stop');
      };
      const cancelIncoming = this.incoming.waitRecv((v) => {
        if (settled) return;
        settled = true;
        cancelTick();
        this.stopWaiters = this.stopWaiters.filter((w) => w !== stop);
        resolve(v);
      });
      cancelTick = bookmarkTimer.c.waitRecv(() => {
        if (settled) return;
        settled = true;
        cancelIncoming();
        this.stopWaiters = this.stopWaiters.filter((w) => w !== stop);
        resolve('tick');
      });
      if (!settled) this.stopWaiters.push(stop);
    });
  }

  /**
   * dispatchEvent for a non-bookmark event: wrap its objects in CachingObjects (serialized at most
   * once per encoder for all watchers), offer it without blocking to every candidate, then give the
   * blocked ones the dispatch budget to make room (add with the shared timer) before terminating
   * them. Returns a promise only when it has to wait.
   */
  dispatchEvent(event: WatchCacheEvent<KubeObject>): Promise<void> | undefined {
    if (event.type === 'BOOKMARK') {
      this.dispatchBookmark(event);
      return undefined;
    }
    this.startDispatching(event);
    // A shallow copy, so that Object and PrevObject can be replaced for this dispatch only.
    const wcEvent: WatchCacheEvent<WatchObject> = { ...event };
    setCachingObjects(wcEvent, this.cachingObjectOptions(event));
    const candidates = this.watchersCollector.watchers;
    // Without blocking first, so that fast watchers are not blocked by slower ones.
    const blocked = this.blockedWatchers;
    blocked.length = 0;
    const buf = this.watchersBuffer;
    for (let i = 0; i < buf.length; i++) buf[i].nonblockingAdd(wcEvent, blocked);
    if (blocked.length === 0) {
      this.finishDispatching();
      this.emitDispatch(event, candidates, 0, 0, 0, 0, 0);
      return undefined;
    }
    return this.dispatchToBlocked(wcEvent, event, candidates, blocked.slice());
  }

  private async dispatchToBlocked(
    wcEvent: WatchCacheEvent<WatchObject>,
    event: WatchCacheEvent<KubeObject>,
    candidates: number,
    blocked: CacheWatcher[],
  ): Promise<void> {
    let unblocked = 0;
    let terminated = 0;
    const startTime = this.clock.now();
    const timeout = this.dispatchTimeoutBudget.takeAvailable();
    try {
      // Every watcher gets its chance while the timer runs, not only the first ones in the list.
      let timer: ChannelTimer | null = null;
      if (timeout > 0) {
        this.timer.reset(timeout);
        timer = this.timer;
      }
      for (const w of blocked) {
        if (w.nonblockingAdd(wcEvent)) {
          unblocked++;
          continue;
        }
        if (timer === null) {
          // The budget is spent: a still-blocked watcher is closed at once.
          void w.add(wcEvent, null);
          terminated++;
          continue;
        }
        if (await w.add(wcEvent, timer)) unblocked++;
        else {
          terminated++;
          timer = null; // fired
        }
      }
      if (timer !== null) timer.stop();
      this.dispatchTimeoutBudget.returnUnused(timeout - (this.clock.now() - startTime));
    } finally {
      this.finishDispatching();
    }
    this.emitDispatch(
      event,
      candidates,
      blocked.length,
      unblocked,
      terminated,
      timeout,
      this.clock.now() - startTime,
    );
  }

  /**
   * The bookmark timer's tick: the bookmark at `resourceVersion` to the due watchers. The event is
   * made only when some watcher is due (nobody else sees it), so an idle tick allocates nothing.
   */
  private dispatchBookmarkTick(resourceVersion: number): { watchers: number; queued: number } {
    this.dispatching = true;
    this.startDispatchingBookmarkEventsLocked();
    if (this.expiredBookmarkWatchers.length === 0) {
      this.finishDispatching();
      return noBookmarksQueued;
    }
    const object = this.newFunc();
    this.versioner.updateObject(object, BigInt(resourceVersion));
    const bookmark: WatchCacheEvent<KubeObject> = {
      type: 'BOOKMARK',
      object,
      objLabels: {},
      objFields: {},
      key: '',
      resourceVersion,
      recordTime: 0,
    };
    return this.deliverBookmark(bookmark);
  }

  /** dispatchEvent for a bookmark: the due watchers, without blocking; they are re-queued afterwards. */
  private dispatchBookmark(event: WatchCacheEvent<KubeObject>): {
    watchers: number;
    queued: number;
  } {
    this.startDispatching(event);
    return this.deliverBookmark(event);
  }

  /** The bookmark to the due watchers collected (dispatching is on; finishDispatching ends it). */
  private deliverBookmark(event: WatchCacheEvent<KubeObject>): {
    watchers: number;
    queued: number;
  } {
    let queued = 0;
    // The due watchers are the buffer (collected once, not into two lists).
    const due = this.expiredBookmarkWatchers;
    const watchers = due.length;
    try {
      for (let i = 0; i < due.length; i++) if (due[i].nonblockingAdd(event)) queued++;
    } finally {
      this.finishDispatching();
    }
    return { watchers, queued };
  }

  /** triggerValuesThreadUnsafe: the trigger values of the object and (if different) its previous state. */
  private triggerValues(event: WatchCacheEvent<KubeObject>): {
    values: string[];
    supported: boolean;
  } {
    const t = this.indexedTrigger;
    if (!t) return { values: [], supported: false };
    const values = [
      t.indexerFunc(baseObjectThreadUnsafe(event.object as KubeObject) as KubeObject),
    ];
    if (event.prevObject === undefined) return { values, supported: true };
    const prev = t.indexerFunc(baseObjectThreadUnsafe(event.prevObject) as KubeObject);
    if (values[0] !== prev) values.push(prev);
    return { values, supported: true };
  }

  /** startDispatching: collects the candidate watchers and marks dispatching (stops are deferred). */
  private startDispatching(event: WatchCacheEvent<KubeObject>): void {
    this.dispatching = true;
    const c = this.watchersCollector;
    c.n = 0;
    c.watchers = 0;
    if (event.type === 'BOOKMARK') {
      this.watchersBuffer.length = 0;
      this.startDispatchingBookmarkEventsLocked();
      return;
    }
    const trigger = this.triggerValues(event);
    const namespace = event.objFields['metadata.namespace'] ?? '';
    const name = event.objFields['metadata.name'] ?? '';
    const watchers = this.watchers;
    if (namespace.length > 0) {
      if (name.length > 0) watchers.collectScopedWatchers(namespace, name, c);
      watchers.collectScopedWatchers(namespace, '', c);
    }
    if (name.length > 0) watchers.collectScopedWatchers('', name, c);
    watchers.collectScopedWatchers('', '', c);
    if (trigger.supported) {
      for (const v of trigger.values) watchers.collectValueWatchers(v, c);
    } else {
      // No trigger function: every value watcher, in case of a misconfiguration.
      watchers.collectValueWatchers(undefined, c);
    }
    // Drops what is left of the previous dispatch (shrinking in place, unless down to 0).
    c.buf.length = c.n;
  }

  /**
   * Pops the due buckets; stopped watchers (never removed from the buckets) are skipped. They are
   * both the dispatch buffer and the list re-queued afterwards (upstream appends them to both).
   */
  private startDispatchingBookmarkEventsLocked(): void {
    const due = this.expiredBookmarkWatchers;
    for (const ws of this.bookmarkWatchers.popExpiredWatchersThreadUnsafe()) {
      for (let i = 0; i < ws.length; i++) {
        const w = ws[i];
        if (!w.stopped) due.push(w);
      }
    }
  }

  /** finishDispatching: runs the stops deferred during dispatch and re-queues the bookmark watchers. */
  private finishDispatching(): void {
    this.dispatching = false;
    const toStop = this.watchersToStop;
    if (toStop.length > 0) {
      this.watchersToStop = [];
      for (const w of toStop) w.stopLocked();
    }
    const expired = this.expiredBookmarkWatchers;
    if (expired.length === 0) return;
    this.expiredBookmarkWatchers = [];
    // Stopped ones are skipped; the rest go to the bucket of their next bookmark time.
    this.bookmarkWatchers.addWatchersThreadUnsafe(expired);
  }

  /** terminateAllWatchers: on (re)initialisation and stop; the watchers close without draining. */
  terminateAllWatchers(): void {
    const n = this.watchers.terminateAll((w) => this.stopWatcherLocked(w));
    if (n > 0) {
      this.log?.(`Terminating all watchers from cacher ${groupResourceString(this.groupResource)}`);
      activeSink(this.eventSink)?.emit({
        type: 'cacher/terminate-all',
        at: this.clock.now(),
        groupResource: this.groupResource,
        watchers: n,
      });
    }
  }

  private stopWatcherLocked(w: CacheWatcher): void {
    if (this.dispatching) this.watchersToStop.push(w);
    else w.stopLocked();
  }

  /**
   * forgetWatcher: what a registered watcher's forget does (client stop, termination, end of
   * processing), through its registration (no closure per watcher).
   */
  forgetWatcher(r: WatcherRegistration, drainWatcher: boolean): void {
    const w = r.watcher;
    w.setDrainInputBufferLocked(drainWatcher);
    // Already gone (e.g. a stop racing terminateAllWatchers) is harmless; so is stopping twice.
    this.watchers.deleteWatcher(r);
    this.stopWatcherLocked(w);
  }

  // ------------------------------------------------------------ watch

  /**
   * Watch: an error is returned (rejected) for a bad key or RV and for a not-ready cache (429);
   * once admitted, every other failure is an ERROR event (errWatcher). A registered watcher first
   * gets its interval (initial state or history), then live events.
   */
  async watch(
    key: string,
    opts: ListOptions,
    call: WatchCallContext = {},
  ): Promise<WatchInterface> {
    const preparedKey = prepareKey(this.resourcePrefix, key, opts.recursive);
    const pred = opts.predicate;
    const requestedWatchRV = Number(this.versioner.parseResourceVersion(opts.resourceVersion));
    let readyGeneration: number;
    if (this.gates.ResilientWatchCacheInitialization) {
      const r = this.ready.checkAndReadGeneration();
      if (r.error)
        throw newTooManyRequests(r.error.message, calculateRetryAfterForUnreadyCache(r.downtime));
      readyGeneration = r.generation;
    } else {
      try {
        readyGeneration = await this.ready.waitAndReadGeneration(call.ctx?.signal);
      } catch (e) {
        throw newServiceUnavailable((e as Error).message);
      }
    }

    // The namespace and name scope: from the request, else from the field selector.
    const scope: WatchScope = { namespace: '', name: '' };
    if (call.requestNamespace) scope.namespace = call.requestNamespace;
    else scope.namespace = pred.field.requiresExactMatch('metadata.namespace') ?? '';
    if (call.requestName) scope.name = call.requestName;
    else scope.name = pred.field.requiresExactMatch('metadata.name') ?? '';
    // /api/v1/watch/namespaces/<ns>: namespaces do not carry metadata.namespace in their fields.
    if (
      sameGR(this.groupResource, coreNamespaceResource) &&
      scope.namespace.length > 0 &&
      scope.namespace === scope.name
    )
      scope.namespace = '';

    let triggerValue = '';
    let triggerSupported = false;
    if (this.indexedTrigger) {
      for (const field of pred.indexFields) {
        if (field !== this.indexedTrigger.indexName) continue;
        const v = pred.field.requiresExactMatch(field);
        if (v !== undefined) {
          triggerValue = v;
          triggerSupported = true;
          break;
        }
      }
    }
    // Small enough to save memory, large enough that one hiccup does not block the others.
    const chanSize = this.watchCache.suggestedWatchChannelSize(
      this.indexedTrigger !== undefined,
      triggerSupported,
    );
    const request = call.request;
    const base = {
      requestId: request?.requestId,
      key,
      resourceVersion: opts.resourceVersion,
      sendInitialEvents: opts.sendInitialEvents,
      allowWatchBookmarks: pred.allowWatchBookmarks,
    };

    // client-go falls back to a LIST on any error for watch-list requests.
    if (isListWatchRequest(opts) && !this.requestWatchProgressSupported) {
      return this.errWatcher(
        new Error(
          'a watch stream was requested by the client but the required storage feature RequestWatchProgress is disabled',
        ),
        base,
      );
    }
    let requiredResourceVersion: number;
    try {
      requiredResourceVersion = await getWatchCacheResourceVersion(
        requestedWatchRV,
        opts,
        async () => Number(await this.storage.getCurrentResourceVersion(request)),
      );
    } catch (e) {
      return this.errWatcher(e, base);
    }
    const bookmarkAfterResourceVersionFn = getBookmarkAfterResourceVersionLockedFunc(
      requestedWatchRV,
      requiredResourceVersion,
      opts,
      () => this.watchCache.resourceVersion,
    );
    const deadline = call.ctx ? call.ctx.deadline : zeroTime;

    try {
      await this.waitUntilWatchCacheFreshAndForceAllEvents(requiredResourceVersion, opts, request);
    } catch (e) {
      return this.errWatcher(e, base);
    }
    // From here to processInterval nothing awaits: no event can slip in between (the RLock).
    let interval;
    try {
      interval = this.watchCache.getAllEventsSinceLocked(
        requiredResourceVersion,
        preparedKey,
        opts,
      );
    } catch (e) {
      return this.errWatcher(e, base);
    }
    this.setInitialEventsEndBookmarkIfRequested(interval, opts, this.watchCache.resourceVersion);

    const r = this.ready.checkAndReadGeneration();
    if (r.generation !== readyGeneration || r.error) {
      // Unready, or re-initialised meanwhile: the watch would be terminated at once anyway.
      activeSink(this.eventSink)?.emit({
        type: 'cacher/watch',
        at: this.clock.now(),
        groupResource: this.groupResource,
        ...base,
        outcome: 'closed',
      });
      return newImmediateCloseWatcher();
    }
    // watcherIdx counts this cacher's watchers as upstream's does; the id is the run's.
    this.watcherIdx++;
    const index = this.watcherIds.next();
    const filter = this.filterFor(preparedKey, pred);
    const watcher = new CacheWatcher({
      chanSize,
      filter: filter.filter,
      identifier: filter.identifier,
      deadline,
      allowWatchBookmarks: pred.allowWatchBookmarks,
      groupResource: this.groupResource,
      id: index,
      requestId: request?.requestId,
      request,
      environment: this.watcherEnvironment,
    });
    const inPlace = this.fastPaths ? new InPlaceDelivery(watcher, filter.conversion) : undefined;
    watcher.setBookmarkAfterResourceVersion(bookmarkAfterResourceVersionFn());
    // The registration computes watcher.forget (cacher.go forgetWatcher).
    watcher.owner = this.watchers.addWatcher(
      watcher,
      index,
      scope,
      triggerValue,
      triggerSupported,
      inPlace,
    );
    watcher.forget = forgetThroughOwner;
    // Only watchers that asked for bookmarks are scheduled for them.
    if (watcher.allowWatchBookmarks) this.bookmarkWatchers.addWatcherThreadUnsafe(watcher);
    const insp = activeSink(this.eventSink);
    if (insp) {
      insp.emit({
        type: 'cacher/watch',
        at: this.clock.now(),
        groupResource: this.groupResource,
        ...base,
        watcherId: index,
        outcome: 'started',
        requiredResourceVersion,
        intervalResourceVersion: interval.resourceVersion,
        bookmarkAfterResourceVersion: watcher.bookmarkAfterResourceVersion,
        scope,
        ...(triggerSupported ? { triggerValue } : {}),
        chanSize,
        deadline: deadline === zeroTime ? null : deadline,
      });
    }
    const ctx = call.ctx;
    watcher.startProcessing(
      interval,
      requiredResourceVersion,
      ctx === undefined ? undefined : isWatchContextSource(ctx) ? ctx : ctx.signal,
    );
    return watcher;
  }

  /**
   * filterWithAttrsAndPrefixFunction(key, pred) and the identifier, one per (prepared key,
   * predicate) and shared by the watchers that have both (the composition root shares predicates
   * of equal selectors), with the filter's SharedConversion for the fast paths.
   */
  private filterFor(key: string, pred: SelectionPredicate): WatcherFilter {
    let byKey = this.filters.get(pred);
    if (byKey === undefined) {
      byKey = new Map();
      this.filters.set(pred, byKey);
    }
    let f = byKey.get(key);
    if (f === undefined) {
      let identifier: string | undefined;
      f = {
        filter: filterWithAttrsAndPrefixFunction(key, pred, this.groupResource, this.gates, (m) =>
          this.log?.(m),
        ),
        // Built when first read (a log line, an event sink), once for all these watchers.
        identifier: () => (identifier ??= watcherIdentifier(key, pred)),
        conversion: this.fastPaths ? new SharedConversion() : undefined,
      };
      byKey.set(key, f);
    }
    return f;
  }

  private errWatcher(
    err: unknown,
    base: {
      requestId: number | undefined;
      key: string;
      resourceVersion: string;
      sendInitialEvents?: boolean;
      allowWatchBookmarks: boolean;
    },
  ): WatchInterface {
    const insp = activeSink(this.eventSink);
    if (insp) {
      const s = errWatcherStatus(err);
      insp.emit({
        type: 'cacher/watch',
        at: this.clock.now(),
        groupResource: this.groupResource,
        ...base,
        outcome: 'error',
        error: { code: s.code ?? 500, message: s.message ?? '' },
      });
    }
    return newErrWatcher(err);
  }

  /** With sendInitialEvents=true: the cache must reach requiredResourceVersion first (3s, then 504). */
  private async waitUntilWatchCacheFreshAndForceAllEvents(
    requestedWatchRV: number,
    opts: ListOptions,
    request: RequestContext | undefined,
  ): Promise<void> {
    if (opts.sendInitialEvents !== true) return;
    if (this.requestWatchProgressSupported && this.watchCache.notFresh(requestedWatchRV)) {
      this.progressRequester.add();
      try {
        await this.watchCache.waitUntilFreshAndBlock(requestedWatchRV, request);
      } finally {
        this.progressRequester.remove();
      }
      return;
    }
    await this.watchCache.waitUntilFreshAndBlock(requestedWatchRV, request);
  }

  /** The initial-events-end bookmark of a watch-list request, at the cache's RV when the watch is set up. */
  private setInitialEventsEndBookmarkIfRequested(
    interval: { initialEventsEndBookmark?: WatchCacheEvent<KubeObject> },
    opts: ListOptions,
    currentResourceVersion: number,
  ): void {
    if (opts.sendInitialEvents === true && opts.predicate.allowWatchBookmarks) {
      // The annotation is added by the watcher when it converts the event.
      const object = this.newFunc();
      this.versioner.updateObject(object, BigInt(currentResourceVersion));
      interval.initialEventsEndBookmark = {
        type: 'BOOKMARK',
        object,
        objLabels: {},
        objFields: {},
        key: '',
        resourceVersion: currentResourceVersion,
        recordTime: 0,
      };
    }
  }

  // ------------------------------------------------------------ get / list

  /** Get: the object at key once the cache has reached the RV (a copy); 404 unless ignoreNotFound. */
  async get(
    key: string,
    opts: { resourceVersion?: string; ignoreNotFound?: boolean } = {},
    ctx?: RequestContext,
  ): Promise<KubeObject | undefined> {
    const preparedKey = prepareKey(this.resourcePrefix, key, false);
    const getRV = Number(this.versioner.parseResourceVersion(opts.resourceVersion ?? ''));
    const r = await this.watchCache.waitUntilFreshAndGet(getRV, preparedKey, ctx);
    if (r.object) return deepCopyJSON(r.object.object);
    if (opts.ignoreNotFound) return undefined;
    throw newNotFound(this.groupResource, preparedKey.slice(preparedKey.lastIndexOf('/') + 1));
  }

  /**
   * GetList: a not-ready cache answers 429 (Retry-After growing with the downtime); otherwise the
   * watch cache's list for the request's RV semantics, filtered here, cut at the limit (ignored
   * for RV "0"), with a continue token relative to the request key.
   */
  async getList(key: string, opts: ListOptions, call: ListCallContext = {}): Promise<ListResult> {
    const preparedKey = prepareKey(this.resourcePrefix, key, opts.recursive);
    this.versioner.parseResourceVersion(opts.resourceVersion);
    if (this.gates.ResilientWatchCacheInitialization) {
      const r = this.ready.check();
      // Reject instead of blocking while the cache initialises (KEP-4568).
      if (r.error)
        throw newTooManyRequests(r.error.message, calculateRetryAfterForUnreadyCache(r.downtime));
    } else {
      try {
        await this.ready.wait();
      } catch (e) {
        throw newServiceUnavailable((e as Error).message);
      }
    }
    const resp = await this.watchCache.waitUntilFreshAndGetList(
      preparedKey,
      opts as WatchCacheListOptions,
      call.requestNamespace ?? '',
      call.request,
    );
    const pred = opts.predicate;
    const limit = computeListLimit(opts);
    const selected: KubeObject[] = [];
    let lastSelectedObjectKey = '';
    let hasMoreListItems = false;
    const items = resp.items;
    let evaluated = 0;
    for (let i = 0; i < items.length; i++) {
      const elem = items[i];
      evaluated++;
      if (pred.matchesObjectAttributes(elem.labels, elem.fields)) {
        selected.push(elem.object);
        lastSelectedObjectKey = elem.key;
      }
      if (limit > 0 && selected.length >= limit) {
        // A token is returned if anything follows, even objects that would not match.
        hasMoreListItems = i < items.length - 1;
        break;
      }
    }
    const prepared = prepareContinueToken(
      lastSelectedObjectKey,
      key,
      resp.resourceVersion,
      items.length,
      hasMoreListItems,
      { predicate: pred },
    );
    if (resp.resourceVersion === 0) throw plainError(`illegal resource version from storage: 0`);
    // listVal.Index(i).Set(reflect.ValueOf(o).Elem()): upstream copies each struct shallowly and
    // shares everything under it with the cache; here the cache's objects are shared themselves.
    // Every reader of a list (the HTTP handlers, scenarios, the consistency checker) leaves them
    // unchanged, as upstream's serving path treats them as read-only.
    const result: ListResult = {
      items: selected,
      resourceVersion: String(resp.resourceVersion),
    };
    if (prepared.continue) result.continue = prepared.continue;
    if (prepared.remainingItemCount !== undefined)
      result.remainingItemCount = prepared.remainingItemCount;
    this.metrics.recordListCacheMetrics(
      this.groupResource,
      resp.index,
      items.length,
      selected.length,
    );
    const insp = activeSink(this.eventSink);
    if (insp) {
      insp.emit({
        type: 'cacher/list',
        at: this.clock.now(),
        groupResource: this.groupResource,
        requestId: call.request?.requestId,
        key,
        resourceVersion: result.resourceVersion,
        index: resp.index,
        ...(resp.fromSnapshot ? { snapshot: true as const } : {}),
        fetched: items.length,
        evaluated,
        returned: selected.length,
        limit,
        ...(result.continue ? { continue: result.continue } : {}),
        ...(result.remainingItemCount !== undefined
          ? { remainingItemCount: result.remainingItemCount }
          : {}),
      });
    }
    return result;
  }

  // ------------------------------------------------------------ delegator.Helper

  shouldDelegateExactRV(resourceVersion: string, recursive: boolean): DelegationResult {
    return this.delegation.shouldDelegateExactRV(resourceVersion, recursive);
  }

  shouldDelegateContinue(continueToken: string, recursive: boolean): DelegationResult {
    return this.delegation.shouldDelegateContinue(continueToken, recursive);
  }

  shouldDelegateConsistentRead(): DelegationResult {
    return this.delegation.shouldDelegateConsistentRead();
  }

  /** Compact: snapshots older than rev are dropped. */
  compact(resourceVersion: string): void {
    this.watchCache.compact(Number(this.versioner.parseResourceVersion(resourceVersion)));
  }

  markConsistent(consistent: boolean): void {
    this.watchCache.markConsistent(consistent);
  }

  // ------------------------------------------------------------ event sink wiring

  private cachingObjectOptions(event: WatchCacheEvent<KubeObject>): SetCachingObjectsOptions {
    const insp = activeSink(this.eventSink);
    if (!insp || !this.tally) return this.plainCachingOptions;
    const onError = this.plainCachingOptions.onError;
    const tally = this.tally;
    const key = event.key;
    const rv = event.resourceVersion;
    const eventType = event.type as SerializationEvent['eventType'];
    const gr = this.groupResource;
    const clock = this.clock;
    const encodes = new EventEncodes(tally, key, rv, eventType);
    const eventSink: CachingObjectHooks = {
      encoded: (e) => encodes.encoded(e),
      deepCopied: (e) =>
        insp.emit({
          type: 'caching-object/deep-copy',
          at: clock.now(),
          groupResource: gr,
          key,
          resourceVersion: rv,
          setter: e.setter,
        }),
      invalidated: (e) =>
        insp.emit({
          type: 'caching-object/invalidated',
          at: clock.now(),
          groupResource: gr,
          key,
          resourceVersion: rv,
          setter: e.setter,
          identifiers: e.identifiers,
        }),
    };
    return { warnings: this.warnings, onError, eventSink: eventSink };
  }

  // Hooks read through getters: while nobody listens they are undefined and the buckets' optional
  // calls skip building their arguments.
  private newBucketsInspector(insp: EventSink): BookmarkBucketsHooks {
    const tally = (): EventTally | undefined => (activeSink(insp) ? this.tally : undefined);
    const gr = this.groupResource;
    const buckets = (): WatcherBookmarkTimeBuckets<CacheWatcher> => this.bookmarkWatchers;
    return {
      get watcherScheduled() {
        const t = tally();
        return t
          ? (e: { bucketId: number; watcherId: number | string }) =>
              t.scheduledWatcher(e.bucketId, buckets().createTime + e.bucketId * 1000, e.watcherId)
          : undefined;
      },
      get bucketPopped() {
        const i = activeSink(insp);
        return i
          ? (e: { bucketId: number; watcherIds: Array<number | string>; at: number }) =>
              i.emit({
                type: 'bookmarks/bucket-popped',
                at: e.at,
                groupResource: gr,
                bucketId: e.bucketId,
                bucketTime: buckets().createTime + e.bucketId * 1000,
                watchersDue: e.watcherIds.length,
                watcherIds: e.watcherIds,
              })
          : undefined;
      },
    };
  }

  private emitDispatch(
    event: WatchCacheEvent<KubeObject>,
    candidates: number,
    blocked: number,
    unblocked: number,
    terminated: number,
    budgetMs: number,
    waitedMs: number,
  ): void {
    const insp = activeSink(this.eventSink);
    if (!insp) return;
    insp.emit({
      type: 'cacher/dispatch',
      at: this.clock.now(),
      groupResource: this.groupResource,
      eventType: event.type as 'ADDED' | 'MODIFIED' | 'DELETED',
      key: event.key,
      resourceVersion: event.resourceVersion,
      candidates,
      blocked,
      unblocked,
      terminated,
      budgetMs,
      waitedMs,
      window: this.watchCache.historyWindow(),
    });
  }
}

/** What the watchers with one key and predicate share (Cacher.filterFor). */
interface WatcherFilter {
  filter: FilterWithAttrsFunc;
  identifier: () => string;
  conversion: SharedConversion | undefined;
}

/** The watcher's identifier as Watch makes it: `key: %q, labels: %q, fields: %q`, key prepared. */
export function watcherIdentifier(key: string, pred: SelectionPredicate): string {
  return `key: ${quote(key)}, labels: ${quote(pred.label.string())}, fields: ${quote(pred.field.string())}`;
}

function sameGR(a: GroupResource, b: GroupResource): boolean {
  return a.group === b.group && a.resource === b.resource;
}

/** Go's time.Duration.String() for whole-ms durations (enough for the history-window message). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  if (h === 0 && m === 0 && s < 1) return `${neg ? '-' : ''}${rest}ms`;
  let out = neg ? '-' : '';
  if (h > 0) out += `${h}h`;
  if (h > 0 || m > 0) out += `${m}m`;
  out += `${Number(s.toFixed(3))}s`;
  return out;
}
