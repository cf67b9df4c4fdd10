// No upstream counterpart: folds a run (the trace header, the scenario's inputs, the engine's
// engine events and the final metrics, in virtual-time order) into a RunModel, the one shape the
// CLI report, --json and the webview read. This file only routes: each record goes to the folds
// that read it (fold/*.ts, one per part of the model), in the order their effects were written,
// and `finish` puts their parts together. Events are tied to their request by its id (the
// request context's), never by order: concurrent requests fold apart. Incremental and bounded:
// per-watcher logs keep their first and last entries (the middle is counted in `logDropped`), long
// series are capped and what is left out is counted in `truncated`.
import type { ImportReport } from './import-report';
import type { EngineEvent, GroupResource } from '../engine';
import type {
  ScenarioInput,
  TraceInputRecord,
  TraceMetricsRecord,
  TraceRecord,
  WatcherFinal,
} from './trace/trace-format';
import type { RunHeader, RunModel } from './run-model';
import { clientRecords } from './client-records';
import { MomentLog } from './timeline-moments';
import { BookmarkTicksFold } from './fold/bookmark-ticks';
import { CapacityFold } from './fold/capacity';
import { DispatchFold } from './fold/dispatch';
import { FreshnessWaitsFold } from './fold/freshness-waits';
import { ListsFold } from './fold/lists';
import { MetricsFold } from './fold/metrics';
import { PhasesFold } from './fold/phases';
import { RejectedFold } from './fold/rejected';
import { ResourceVersionsFold } from './fold/resource-versions';
import { SerializationFold } from './fold/serialization';
import { SeriesLimit } from './fold/series-limit';
import { groupResourceName, WatchCacheFold, watchCacheResourceParam } from './fold/watch-cache';
import { WatchCacheSeriesFold } from './fold/watch-cache-series';
import { HistoryWindowFold } from './fold/history-window';
import { WatchRequestsFold } from './fold/watch-requests';
import { WatchersFold } from './fold/watchers';
import { WritesFold } from './fold/writes';
import { AnswersFold, faultHitOf } from './fold/answers';

export { selectorFromIdentifier } from './fold/watchers';

export interface RunModelBuilderOptions {
  /** Log entries kept per watcher: the first half and the last half of this many (default 40). */
  watcherLogLimit?: number;
  /** Serialization records kept per dispatched event (default 2000). */
  perEventLimit?: number;
  /** Entries kept in each other series: lists, ticks, waits, RV points, blocked dispatches (default 5000). */
  seriesLimit?: number;
  /** Watch requests kept (default 200000: one per watcher of the largest scenario, with room). */
  watchRequestLimit?: number;
}

/** Log entries each watcher keeps by default (the first 20 and the last 20). */
export const defaultWatcherLogLimit = 40;

/**
 * A request fault's marker text as the server writes it (faults.ts applyFaultSpec: `#3 armed:
 * {"parameters":…}`): how traces saved before the `request` mark say which faults hit requests.
 */
const requestFaultText = /^#\d+ \w+: \{"parameters":/;

const etcdWriteOperations = new Set(['create', 'update', 'delete']);
const etcdReadOperations = new Set(['list', 'listStream', 'get', 'getCurrentResourceVersion']);

/**
 * Folds a run into a RunModel. Feed `add` the trace records (or raw engine events) in order,
 * then call `finish` (at the end, or whenever a live run wants the model so far). Nothing is kept
 * per event beyond what the model shows.
 */
/** One watch cache's folds (WatchCacheSeriesFold, or the followed cache's top-level ones). */
interface CacheFolds {
  state: WatchCacheFold;
  capacity: CapacityFold;
  resourceVersions: ResourceVersionsFold;
  historyWindow: HistoryWindowFold;
}

export class RunModelBuilder {
  private readonly header: RunHeader;
  private lastAt = 0;
  /** Every fold's caps and what they left out, shared: `truncated` keeps the order caps were hit. */
  private readonly series: SeriesLimit;
  private readonly watchers: WatchersFold;
  private readonly watchRequests: WatchRequestsFold;
  private readonly lists: ListsFold;
  private readonly capacity: CapacityFold;
  private readonly resourceVersions: ResourceVersionsFold;
  private readonly serialization: SerializationFold;
  private readonly metrics: MetricsFold;
  private readonly rejected = new RejectedFold();
  private readonly phases: PhasesFold;
  private readonly writes = new WritesFold();
  private readonly answers = new AnswersFold();
  private readonly bookmarkTicks: BookmarkTicksFold;
  private readonly freshnessWaits: FreshnessWaitsFold;
  private readonly dispatch: DispatchFold;
  private readonly moments = new MomentLog();
  private readonly watchCache: WatchCacheFold;
  private readonly historyWindow: HistoryWindowFold;
  /** The followed watch cache's folds (the model's top-level series), as one bundle. */
  private readonly followed: CacheFolds;
  /** The other watch caches heard from, by resource, in the order first heard. */
  private readonly otherCaches = new Map<string, WatchCacheSeriesFold>();
  /** etcd's newest revision so far: a cache first heard from later starts its RV chart there. */
  private lastEtcd: { at: number; rv: number } | undefined;
  private imported: ImportReport | undefined;

  constructor(header: RunHeader, opts: RunModelBuilderOptions = {}) {
    this.header = header;
    const series = new SeriesLimit(opts.seriesLimit ?? 5000);
    this.series = series;
    this.watchers = new WatchersFold(Math.max(0, opts.watcherLogLimit ?? defaultWatcherLogLimit));
    this.watchRequests = new WatchRequestsFold(series, opts.watchRequestLimit ?? 200_000);
    this.lists = new ListsFold(series);
    this.capacity = new CapacityFold(series);
    this.resourceVersions = new ResourceVersionsFold(series);
    this.historyWindow = new HistoryWindowFold(series);
    const followed = header.params?.[watchCacheResourceParam];
    this.watchCache = new WatchCacheFold(typeof followed === 'string' ? followed : undefined);
    this.followed = {
      state: this.watchCache,
      capacity: this.capacity,
      resourceVersions: this.resourceVersions,
      historyWindow: this.historyWindow,
    };
    this.serialization = new SerializationFold(series, opts.perEventLimit ?? 2000);
    this.metrics = new MetricsFold(series);
    this.phases = new PhasesFold(series);
    this.bookmarkTicks = new BookmarkTicksFold(series);
    this.freshnessWaits = new FreshnessWaitsFold(series);
    this.dispatch = new DispatchFold(series);
  }

  /** One trace record (input, event or metrics) or a raw engine event. */
  add(r: TraceRecord | EngineEvent): void {
    if ('kind' in r && (r.kind === 'input' || r.kind === 'event' || r.kind === 'metrics')) {
      if (r.kind === 'input') {
        const input: Partial<TraceInputRecord> = { ...r };
        delete input.kind;
        delete input.at;
        this.addInput(r.at, input as ScenarioInput);
      } else if (r.kind === 'event') this.addEvent(r.event);
      else this.addMetrics(r);
      return;
    }
    this.addEvent(r as EngineEvent);
  }

  /** Counts a line the reader could not use (kept: the first reasons). */
  reject(reason: string, maxSamples = 5): void {
    this.rejected.reject(reason, maxSamples);
  }

  /** Adds the reader's rejection counts (when the reader kept them itself). */
  addRejected(count: number, samples: string[]): void {
    this.rejected.add(count, samples);
  }

  addInput(at: number, input: ScenarioInput): void {
    this.touch(at);
    this.moments.noteInput(at, input);
    switch (input.action) {
      case 'phase':
        this.phases.phase(at, input.name, input.text);
        return;
      case 'seed':
        this.writes.wrote('seed', input.objects, input.revision);
        this.etcdAt(at, input.revision);
        return;
      case 'writes':
        this.writes.wrote(input.verb, input.count, input.revision);
        this.resourceVersions.etcd(at, input.revision);
        return;
      case 'list':
        this.lists.sent(at, input);
        return;
      case 'list-end':
        this.lists.ended(at, input);
        return;
      case 'watch':
        this.watchRequests.sent(at, input);
        return;
      case 'watch-opened':
        this.watchRequests.opened(at, input);
        this.watchers.opened(input);
        return;
      case 'watch-closed':
        this.watchRequests.closed(at, input);
        this.watchers.clientClosed(at, input);
        return;
      case 'read-rate':
        return;
      case 'initial-events-end':
        this.watchRequests.initialEventsEnd(at, input);
        return;
      case 'fault':
        this.phases.fault(
          at,
          input.name,
          input.text,
          typeof input.params.resource === 'string' ? input.params.resource : undefined,
          input.id,
          input.request === true || requestFaultText.test(input.text),
        );
        return;
      case 'fault-hit':
        this.phases.hit(input.id, input.name, faultHitOf(at, input));
        return;
      case 'response':
        this.answers.response(at, input);
        return;
      case 'imported':
        this.imported = input.report;
        return;
    }
  }

  addEvent(e: EngineEvent): void {
    this.touch(e.at);
    this.moments.noteEvent(e);
    switch (e.type) {
      case 'watcher/created':
        this.watchers.created(e, this.watchRequests.pending(e.requestId));
        return;
      case 'watcher/state':
        this.watchers.state(e);
        return;
      case 'watcher/bookmark':
        this.watchers.bookmark(e);
        return;
      case 'watcher/terminated':
        this.watchers.terminated(e);
        return;
      case 'watcher/stopped':
        this.watchers.stopped(e);
        return;
      case 'watcher/live':
        this.watchers.live(e);
        return;
      case 'watcher/closed':
        this.watchers.closed(e);
        return;
      case 'cacher/watch':
        this.watchers.registered(e);
        return;
      case 'bookmarks/bucket-popped':
        this.bookmarkTicks.bucketPopped();
        this.watchers.popped(e);
        return;
      case 'bookmarks/scheduled':
        this.watchers.scheduled(e);
        return;
      case 'cacher/bookmark-tick':
        this.bookmarkTicks.tick(e);
        return;
      case 'watchcache/capacity':
        this.cacheOf(e.groupResource).capacity.resized(e);
        return;
      case 'watchcache/history': {
        const c = this.cacheOf(e.groupResource);
        c.capacity.heard(e);
        if (e.reason === 'observed') {
          c.state.observed();
          c.capacity.observed(e);
        }
        c.resourceVersions.cache(e.at, e.resourceVersion);
        c.historyWindow.jumped(e);
        return;
      }
      case 'serialization/encode':
        this.serialization.encoded(e);
        return;
      case 'caching-object/deep-copy':
        this.serialization.deepCopied(e.at);
        return;
      case 'caching-object/invalidated':
        this.serialization.invalidated(e.at);
        return;
      case 'cacher/dispatch':
        // The RV point before the blocked dispatch: both caps may be reached by one event.
        {
          const c = this.cacheOf(e.groupResource);
          c.resourceVersions.cache(e.at, e.resourceVersion);
          if (e.window) c.historyWindow.dispatched(e.at, e.window);
        }
        this.dispatch.dispatched(e);
        return;
      case 'cacher/progress-request':
        this.freshnessWaits.progressRequested();
        return;
      case 'cacher/ready':
        this.cacheOf(e.groupResource).state.ready(e);
        return;
      case 'cacher/reflector': {
        const c = this.cacheOf(e.groupResource);
        c.state.reflector(e.at);
        if (e.phase === 'listed' && e.resourceVersion !== undefined)
          c.resourceVersions.cache(e.at, e.resourceVersion);
        return;
      }
      case 'etcd/watch':
        // etcd sent it; the cache takes it when its reflector applies it (watchcache/progress).
        if (e.phase === 'progress-notify') this.etcdAt(e.at, e.revision);
        return;
      case 'watchcache/progress':
        this.cacheOf(e.groupResource).resourceVersions.cache(e.at, e.resourceVersion);
        return;
      case 'watchcache/wait':
        // In this order (the waits' cap, the RV points', then the LIST's): see `series`.
        this.freshnessWaits.waited(e);
        if (e.outcome !== 'timeout')
          this.cacheOf(e.groupResource).resourceVersions.cache(
            e.at + e.waitedMs,
            e.cacheResourceVersion,
          );
        this.lists.wait(e);
        this.watchRequests.wait(e);
        return;
      case 'delegator/decision':
        this.lists.decision(e);
        return;
      case 'delegator/fallback':
        this.lists.fallback(e);
        return;
      case 'cacher/list':
        this.lists.servedByCache(e);
        this.cacheOf(e.groupResource).resourceVersions.cache(e.at, Number(e.resourceVersion) || 0);
        return;
      case 'etcd/request':
        if (etcdWriteOperations.has(e.operation)) {
          if (!e.error) this.etcdAt(e.at, e.headerRevision);
          return;
        }
        if (!etcdReadOperations.has(e.operation)) return;
        // The RV point before the LIST's record (a new cacher LIST counts against its own cap).
        if (e.headerRevision > 0) this.etcdAt(e.at, e.headerRevision);
        this.lists.etcdRead(e, this.watchPending(e.requestId));
        return;
      case 'list/page':
        this.lists.page(e, this.watchPending(e.requestId));
        return;
      case 'list/stream-decision':
        this.lists.streamDecision(e, this.watchPending(e.requestId));
        return;
      case 'list/stream-fallback':
        this.lists.streamFallback(e, this.watchPending(e.requestId));
        return;
      case 'list/done':
        this.lists.done(e, this.watchPending(e.requestId));
        return;
      default:
        return;
    }
  }

  addMetrics(m: TraceMetricsRecord): void {
    this.touch(m.at);
    switch (m.scope) {
      case 'resource':
        this.metrics.resource(m.samples, m.text);
        return;
      case 'watchers':
        this.watchers.samples(m.at, m.changes);
        return;
      case 'scrape':
        this.metrics.scrape(m.at, m.samples);
        return;
      case 'watcher':
        this.addWatcherFinal(m.watcher);
    }
  }

  addWatcherFinal(w: WatcherFinal): void {
    this.watchers.final(w);
  }

  /**
   * The model so far. Safe to call at any time and as often as wanted (a live run takes a snapshot
   * per batch): it changes nothing in the builder, and its arrays and totals are its own, so what
   * is added later does not grow them. Records still being folded (a LIST in flight, the newest
   * serialization record) are shared and may still change until they are done.
   */
  finish(): RunModel {
    const metrics = this.metrics.finishMetrics();
    const watchers = this.watchers.finish();
    const lists = this.lists.finishLists();
    const watchRequests = this.watchRequests.finish();
    const faults = this.phases.finishFaults();
    const answers = this.answers.finish();
    const scrapes = this.metrics.finishScrapes();
    const moments = this.moments.moments();
    // The finished tracks (their close reasons settled), not the builder's own.
    const finished = new Map(watchers.map((w) => [w.id, w]));
    const clients = clientRecords(lists, watchRequests, (id) => finished.get(id), this.lastAt);
    return {
      header: this.header,
      durationMs: this.lastAt,
      watchers,
      capacity: this.capacity.finish(metrics),
      resourceVersions: this.resourceVersions.finish(),
      historyWindow: this.historyWindow.finish(),
      serialization: this.serialization.finish(),
      lists,
      metrics,
      metricsText: this.metrics.finishMetricsText(),
      rejected: this.rejected.finish(),
      phases: this.phases.finishPhases(),
      ...(faults.length ? { faults } : {}),
      writes: this.writes.finish(),
      watchRequests,
      bookmarkTicks: this.bookmarkTicks.finish(),
      freshnessWaits: this.freshnessWaits.finishWaits(),
      progressRequests: this.freshnessWaits.finishProgressRequests(),
      dispatch: this.dispatch.finish(),
      cacherLists: this.lists.finishCacherLists(),
      truncated: { ...this.series.truncated },
      ...(scrapes.length ? { scrapes } : {}),
      moments: { at: moments.at.slice(), count: moments.count.slice() },
      watchCache: this.watchCache.finish(),
      ...(this.otherCaches.size
        ? {
            otherWatchCaches: [...this.otherCaches.values()]
              .map((c) => c.finish())
              .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0)),
          }
        : {}),
      clients,
      ...(answers.length ? { answers } : {}),
      ...(this.imported ? { imported: this.imported } : {}),
    };
  }

  /** `gr`'s watch cache's folds: the followed one's, or those of another (made when first heard). */
  private cacheOf(gr: GroupResource): CacheFolds {
    if (this.watchCache.follows(gr)) return this.followed;
    const name = groupResourceName(gr);
    let c = this.otherCaches.get(name);
    if (!c) {
      c = new WatchCacheSeriesFold(name, this.series.limit, this.lastEtcd);
      this.otherCaches.set(name, c);
    }
    return c;
  }

  /** etcd is at revision `rv`: on every watch cache's RV chart (one etcd serves them all). */
  private etcdAt(at: number, rv: number): void {
    this.resourceVersions.etcd(at, rv);
    for (const c of this.otherCaches.values()) c.resourceVersions.etcd(at, rv);
    if (!this.lastEtcd || rv > this.lastEtcd.rv) this.lastEtcd = { at, rv };
  }

  private touch(at: number): void {
    if (at > this.lastAt) this.lastAt = at;
  }

  /** Request `requestId` is a WATCH still waiting for its answer (its reads belong to no LIST). */
  private watchPending(requestId: number | undefined): boolean {
    return this.watchRequests.pending(requestId) !== undefined;
  }
}
