// No upstream counterpart: folds a run (the trace header, the scenario's inputs, the engine's
// inspector events and the final metrics, in virtual-time order) into a RunModel, the one shape the
// CLI report, --json and the webview read. Events are tied to their request by its id (the
// request context's), never by order: concurrent requests fold apart. Incremental and bounded:
// per-watcher logs keep their first and last entries (the middle is counted in `logDropped`), long
// series are capped and what is left out is counted in `truncated`.
import type { ImportReport } from './import-report';
import type { InspectorEvent } from '../engine';
import type {
  ScenarioInput,
  TraceInputRecord,
  TraceMetricsRecord,
  TraceRecord,
  WatcherFinal,
} from './trace/trace-format';
import type {
  BookmarkTickRecord,
  CapacityPoint,
  DispatchSummary,
  EtcdRequestRecord,
  FreshnessWaitRecord,
  ListPageRecord,
  ListRecord,
  ResourceVersionPoint,
  RunHeader,
  RunModel,
  SerializationEventRecord,
  SerializationIdentifierTotals,
  WatchRequestRecord,
  WatcherLogEntry,
  WatcherStateName,
  WatcherTrack,
} from './run-model';
import { clientRecords } from './client-records';
import { delegationRuleText } from './delegation-rule-text';
import { MomentLog } from './timeline-moments';
import { foldSampleGroups, sampleFrom } from './watcher-samples';

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

const etcdReadOperations = new Set(['list', 'listStream', 'get', 'getCurrentResourceVersion']);

const closeReasonText: Record<string, string> = {
  contextDone: 'timeout',
  intervalInvalidated: 'interval invalidated (history overrun)',
  inputClosed: 'stopped',
};

/** A bookmark sent this close to the watch's deadline counts as its pre-timeout bookmark. */
const preDeadlineWindowMs = 3500;

class TrackBuilder {
  readonly track: WatcherTrack;
  bookmarkHead: number[] = [];
  bookmarkTail: number[] = [];
  head: WatcherLogEntry[] = [];
  tail: WatcherLogEntry[] = [];
  tailStart = 0;
  closedReason = '';
  clientReason = '';
  graceful = false;
  hasFinal = false;

  constructor(
    id: string,
    at: number,
    private readonly limit: number,
  ) {
    this.track = {
      id,
      selector: '',
      contentType: '',
      states: [{ at, state: 'WaitingForBookmark' }],
      bookmarkFloorRv: 0,
      lastRvSent: 0,
      bufferFill: 0,
      bufferCapacity: 0,
      bookmarksReceived: 0,
      bookmarksDropped: {},
      eventsReceived: 0,
      terminated: false,
      closeReason: '',
      log: [],
      logDropped: 0,
      client: undefined,
      samples: [],
    };
  }

  log(at: number, kind: string, text: string): void {
    const e = { at, kind, text };
    const half = Math.ceil(this.limit / 2);
    if (this.head.length < half) {
      this.head.push(e);
      return;
    }
    const tailMax = this.limit - half;
    if (tailMax <= 0) {
      this.track.logDropped++;
      return;
    }
    if (this.tail.length < tailMax) this.tail.push(e);
    else {
      // A ring: overwrite the oldest tail entry.
      this.tail[this.tailStart] = e;
      this.tailStart = (this.tailStart + 1) % tailMax;
      this.track.logDropped++;
    }
  }

  /** Keeps the first and last bookmark times (as many as log entries). */
  bookmarkAt(at: number, limit: number): void {
    const half = Math.max(1, Math.ceil(limit / 2));
    if (this.bookmarkHead.length < half) this.bookmarkHead.push(at);
    else {
      this.bookmarkTail.push(at);
      if (this.bookmarkTail.length > half) this.bookmarkTail.shift();
    }
  }

  /**
   * The track as it stands (a new object each call: the builder's own is never changed by it).
   * Its samples are the builder's array, not a copy (a 100,000-watcher run has millions): samples
   * added later lie after the snapshot's end, where nobody reads it.
   */
  finish(): WatcherTrack {
    const t = this.track;
    let closeReason = t.closeReason;
    if (t.terminated)
      closeReason = this.graceful
        ? 'terminated (blocked dispatch, graceful drain)'
        : 'terminated (blocked dispatch)';
    else if (this.clientReason === 'timeout' || this.closedReason === 'contextDone')
      closeReason = 'timeout';
    else if (this.closedReason === 'intervalInvalidated')
      closeReason = closeReasonText.intervalInvalidated;
    else if (this.clientReason === 'disconnected') closeReason = 'client went away';
    else if (this.closedReason !== '')
      closeReason = closeReasonText[this.closedReason] ?? this.closedReason;
    else if (this.clientReason !== '') closeReason = this.clientReason;
    return {
      ...t,
      states: t.states.slice(),
      bookmarksDropped: { ...t.bookmarksDropped },
      closeReason,
      bookmarkTimes: [...this.bookmarkHead, ...this.bookmarkTail],
      log: [
        ...this.head,
        ...this.tail.slice(this.tailStart),
        ...this.tail.slice(0, this.tailStart),
      ],
    };
  }
}

/**
 * A LIST being folded: a client's (known from its input) or the cacher's own (known from its etcd
 * reads). A request can make several storage GetLists in a row (a consistent read's current-RV
 * lookup, then a fallback read); `pages` and `stream` belong to the one in progress and pass to the
 * record when it is done.
 */
interface ListFold {
  record: ListRecord;
  /** The cacher's own LIST (not announced by an input): its record goes to `cacherLists`. */
  internal: boolean;
  pages: ListPageRecord[];
  stream: ListRecord['stream'];
}

/** A WATCH request until it is answered: its record and what its watcher track needs. */
interface WatchFold {
  record: WatchRequestRecord;
  contentType: string;
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

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

/** `key: "/pods/ns", labels: "a=b", fields: ""` → `a=b` (labels and fields joined; '' = everything). */
export function selectorFromIdentifier(identifier: string): string {
  const m = /labels: "((?:[^"\\]|\\.)*)", fields: "((?:[^"\\]|\\.)*)"/.exec(identifier);
  if (!m) return '';
  return [m[1], m[2]].filter((s) => s !== '').join(',');
}

/**
 * Folds a run into a RunModel. Feed `add` the trace records (or raw inspector events) in order,
 * then call `finish` (at the end, or whenever a live run wants the model so far). Nothing is kept
 * per event beyond what the model shows.
 */
export class RunModelBuilder {
  private readonly header: RunHeader;
  private readonly logLimit: number;
  private readonly perEventLimit: number;
  private readonly seriesLimit: number;
  private readonly watchRequestLimit: number;
  private lastAt = 0;
  private readonly tracks = new Map<string, TrackBuilder>();
  /** LISTs by request id, while they run (the cacher's own stay: a few per (re)list). */
  private readonly listsById = new Map<number, ListFold>();
  /** WATCH requests by request id, until they are answered. */
  private readonly watchesById = new Map<number, WatchFold>();
  private readonly watchRequests: WatchRequestRecord[] = [];
  /** Imported WATCH requests (with a `logged` answer) until their handler returns. */
  private readonly comparedWatches = new Map<number, WatchRequestRecord>();
  private readonly lists: ListRecord[] = [];
  private readonly cacherLists: ListRecord[] = [];
  private cacherListSeq = 0;
  private readonly capacity: CapacityPoint[] = [];
  private readonly rvPoints: ResourceVersionPoint[] = [];
  private cacheRv = 0;
  private etcdRv = 0;
  private readonly ser = {
    encodes: 0,
    hits: 0,
    lazyDeepCopies: 0,
    invalidations: 0,
    perIdentifier: {} as Record<string, SerializationIdentifierTotals>,
    perEvent: new Map<string, SerializationEventRecord>(),
    perEventDropped: 0,
  };
  private metrics: Record<string, number> = {};
  private metricsText = '';
  private readonly rejected = { count: 0, samples: [] as string[] };
  private readonly phases: Array<{ at: number; name: string; text: string }> = [];
  private readonly faults: Array<{ at: number; name: string; text: string }> = [];
  private readonly writes = { total: 0, byVerb: {} as Record<string, number>, lastRevision: 0 };
  private readonly ticks: BookmarkTickRecord[] = [];
  private popsSinceTick = 0;
  private readonly waits: FreshnessWaitRecord[] = [];
  private progressRequests = 0;
  private readonly dispatch: DispatchSummary = {
    events: 0,
    deliveries: 0,
    blockedEvents: 0,
    terminated: 0,
    waitedMs: 0,
    blocked: [],
  };
  private readonly truncated: Record<string, number> = {};
  private readonly moments = new MomentLog();
  /** The trace has per-instant watcher samples (run-sampler.ts): tracks keep their `samples`. */
  private sampled = false;
  private readonly scrapes: Array<{ at: number; samples: Record<string, number> }> = [];
  private readonly copies: Array<{ at: number; lazyDeepCopies: number; invalidations: number }> =
    [];
  private readonly watchCache: { started: boolean; startedAt?: number; readyAt?: number } = {
    started: false,
  };
  private imported: ImportReport | undefined;

  constructor(header: RunHeader, opts: RunModelBuilderOptions = {}) {
    this.header = header;
    this.logLimit = Math.max(0, opts.watcherLogLimit ?? defaultWatcherLogLimit);
    this.perEventLimit = opts.perEventLimit ?? 2000;
    this.seriesLimit = opts.seriesLimit ?? 5000;
    this.watchRequestLimit = opts.watchRequestLimit ?? 200_000;
  }

  /** One trace record (input, event or metrics) or a raw inspector event. */
  add(r: TraceRecord | InspectorEvent): void {
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
    this.addEvent(r as InspectorEvent);
  }

  /** Counts a line the reader could not use (kept: the first reasons). */
  reject(reason: string, maxSamples = 5): void {
    this.rejected.count++;
    if (this.rejected.samples.length < maxSamples) this.rejected.samples.push(reason);
  }

  /** Adds the reader's rejection counts (when the reader kept them itself). */
  addRejected(count: number, samples: string[]): void {
    this.rejected.count += count;
    for (const s of samples) if (this.rejected.samples.length < 5) this.rejected.samples.push(s);
  }

  addInput(at: number, input: ScenarioInput): void {
    this.touch(at);
    this.moments.noteInput(at, input);
    switch (input.action) {
      case 'phase':
        this.phases.push({ at, name: input.name, text: input.text });
        return;
      case 'seed':
        this.writes.byVerb.seed = (this.writes.byVerb.seed ?? 0) + input.objects;
        this.writes.total += input.objects;
        this.noteEtcdRv(at, input.revision);
        this.writes.lastRevision = Math.max(this.writes.lastRevision, input.revision);
        return;
      case 'writes':
        this.writes.byVerb[input.verb] = (this.writes.byVerb[input.verb] ?? 0) + input.count;
        this.writes.total += input.count;
        this.writes.lastRevision = Math.max(this.writes.lastRevision, input.revision);
        this.noteEtcdRv(at, input.revision);
        return;
      case 'list': {
        const record = newListRecord(input.id, input.requestId, at, input.request);
        record.client = input.client;
        if (input.connection !== undefined) record.connection = input.connection;
        if (input.via === 'store') {
          record.servedBy = 'etcd';
          record.rule =
            'sent to the etcd3 store (store.GetList), as the delegator does for what the cache cannot serve';
        } else if (input.via === 'cluster') {
          record.servedBy = 'cluster';
          record.rule =
            'a real cluster answered: whether its watch cache or etcd served it is not seen from outside, and its etcd calls are not known';
        }
        this.listsById.set(input.requestId, {
          record,
          internal: false,
          pages: [],
          stream: undefined,
        });
        if (this.lists.length < this.seriesLimit) this.lists.push(record);
        else this.truncate('lists');
        return;
      }
      case 'list-end': {
        const l = this.listsById.get(input.requestId);
        if (!l) return;
        this.listsById.delete(input.requestId);
        const rec = l.record;
        rec.endedAt = at;
        rec.resourceVersion = input.resourceVersion;
        rec.continue = input.continue;
        if (input.remainingItemCount !== undefined)
          rec.remainingItemCount = input.remainingItemCount;
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
        return;
      }
      case 'watch': {
        const w: WatchRequestRecord = {
          at,
          client: input.client,
          ...(input.connection !== undefined ? { connection: input.connection } : {}),
          requestId: input.requestId,
          request: input.request,
          outcome: 'pending',
        };
        this.watchesById.set(input.requestId, { record: w, contentType: input.contentType ?? '' });
        if (this.watchRequests.length < this.watchRequestLimit) this.watchRequests.push(w);
        else this.truncate('watchRequests');
        return;
      }
      case 'watch-opened': {
        const f = this.watchesById.get(input.requestId);
        if (!f) return;
        this.watchesById.delete(input.requestId);
        const w = f.record;
        w.answeredAt = at;
        if (input.logged) {
          w.logged = input.logged;
          // An imported watch's close is compared with the log: keep the record until then.
          this.comparedWatches.set(input.requestId, w);
        }
        if (input.disagrees) w.disagrees = input.disagrees;
        if (input.error) {
          w.outcome = 'error';
          w.error = {
            code: input.error.code,
            reason: input.error.reason,
            message: input.error.message,
          };
        } else {
          w.outcome = 'started';
          if (input.watcherId !== undefined) w.watcherId = String(input.watcherId);
        }
        return;
      }
      case 'watch-closed': {
        const compared = this.comparedWatches.get(input.requestId);
        if (compared) {
          this.comparedWatches.delete(input.requestId);
          compared.closedAt = at;
          if (input.logged) compared.logged = { ...compared.logged, ...input.logged };
          if (input.disagrees)
            compared.disagrees = [...(compared.disagrees ?? []), ...input.disagrees];
        }
        if (input.watcherId === undefined) return;
        const t = this.tracks.get(String(input.watcherId));
        if (!t) return;
        t.clientReason = input.reason;
        t.track.closedAt ??= at;
        t.log(
          at,
          'client-closed',
          `client handler returned (${input.reason}) after reading ${input.received} events`,
        );
        return;
      }
      case 'read-rate':
        return;
      case 'fault':
        this.pushBounded(this.faults, { at, name: input.name, text: input.text }, 'faults');
        return;
      case 'imported':
        this.imported = input.report;
        return;
    }
  }

  addEvent(e: InspectorEvent): void {
    this.touch(e.at);
    this.moments.noteEvent(e);
    switch (e.type) {
      case 'watcher/created': {
        const id = String(e.watcherId);
        const t = new TrackBuilder(id, e.at, this.logLimit);
        t.track.selector = selectorFromIdentifier(e.identifier);
        t.track.bufferCapacity = e.chanSize;
        t.track.deadline = e.deadline;
        t.track.preDeadlineBookmarks = 0;
        t.track.initialEventsEndBookmarks = 0;
        const w = e.requestId === undefined ? undefined : this.watchesById.get(e.requestId);
        if (w) {
          t.track.contentType = w.contentType;
          t.track.client = w.record.client;
        }
        this.tracks.set(id, t);
        const deadline = e.deadline === null ? 'none' : `at ${seconds(e.deadline)}`;
        t.log(
          e.at,
          'created',
          `created: buffers of ${e.chanSize}, deadline ${deadline}, bookmarks ${e.allowWatchBookmarks ? 'on' : 'off'}`,
        );
        return;
      }
      case 'watcher/state': {
        const t = this.tracks.get(String(e.watcherId));
        if (!t) return;
        t.track.states.push({ at: e.at, state: e.to as WatcherStateName });
        t.track.bookmarkFloorRv = e.bookmarkAfterResourceVersion;
        sampleFrom(t.track, e.at).floorRv = e.bookmarkAfterResourceVersion;
        const why =
          e.resourceVersion !== undefined
            ? ` (bookmark rv ${e.resourceVersion})`
            : ` (bookmarkAfterResourceVersion ${e.bookmarkAfterResourceVersion})`;
        t.log(e.at, 'state', `${e.from} → ${e.to}${why}`);
        return;
      }
      case 'watcher/bookmark': {
        const t = this.tracks.get(String(e.watcherId));
        if (!t) return;
        if (e.outcome === 'delivered') {
          t.track.bookmarksReceived++;
          sampleFrom(t.track, e.at).bookmarks = t.track.bookmarksReceived;
          t.bookmarkAt(e.at, this.logLimit);
          if (e.initialEventsEnd)
            t.track.initialEventsEndBookmarks = (t.track.initialEventsEndBookmarks ?? 0) + 1;
          // The pre-timeout bookmark is due 2 s before the deadline, bucketed to the second and
          // sent at the next ~1 s tick: it lands in the last 3.5 s.
          const d = t.track.deadline;
          if (d !== undefined && d !== null && e.at >= d - preDeadlineWindowMs && e.at < d)
            t.track.preDeadlineBookmarks = (t.track.preDeadlineBookmarks ?? 0) + 1;
          if (e.resourceVersion > t.track.lastRvSent) t.track.lastRvSent = e.resourceVersion;
          t.log(
            e.at,
            'bookmark',
            `bookmark rv ${e.resourceVersion} sent${e.initialEventsEnd ? ' (initial-events-end)' : ''}`,
          );
        } else if (e.outcome === 'dropped') {
          const reason = e.reason ?? 'unknown';
          t.track.bookmarksDropped[reason] = (t.track.bookmarksDropped[reason] ?? 0) + 1;
          t.log(e.at, 'bookmark-dropped', `bookmark rv ${e.resourceVersion} dropped: ${reason}`);
        } else {
          t.log(e.at, 'bookmark-queued', `bookmark rv ${e.resourceVersion} queued`);
        }
        return;
      }
      case 'watcher/terminated': {
        const t = this.tracks.get(String(e.watcherId));
        if (!t) return;
        t.track.terminated = true;
        t.graceful = e.graceful;
        t.log(
          e.at,
          'terminated',
          `terminated: blocked past the dispatch budget${e.graceful ? `, graceful (drains ${e.inputLen} buffered events)` : ''}`,
        );
        return;
      }
      case 'watcher/stopped': {
        const t = this.tracks.get(String(e.watcherId));
        t?.log(
          e.at,
          'stopped',
          `stopped${e.drainInputBuffer ? `, draining ${e.inputLen} buffered events` : ''}`,
        );
        return;
      }
      case 'watcher/live': {
        const t = this.tracks.get(String(e.watcherId));
        if (!t) return;
        if (e.resourceVersion > t.track.lastRvSent) t.track.lastRvSent = e.resourceVersion;
        t.log(
          e.at,
          'live',
          `initial events sent (${e.initEvents}), live from rv ${e.resourceVersion}`,
        );
        return;
      }
      case 'watcher/closed': {
        const t = this.tracks.get(String(e.watcherId));
        if (!t) return;
        t.closedReason = e.reason;
        t.track.closedAt ??= e.at;
        if (!t.hasFinal) t.track.eventsReceived = e.delivered;
        t.log(
          e.at,
          'closed',
          `closed (${e.reason}) after ${e.delivered} events${e.error ? `: ${e.error}` : ''}`,
        );
        return;
      }
      case 'cacher/watch': {
        if (e.outcome !== 'started' || e.watcherId === undefined) return;
        const t = this.tracks.get(String(e.watcherId));
        if (!t) return;
        t.track.bookmarkFloorRv = e.bookmarkAfterResourceVersion ?? 0;
        sampleFrom(t.track, e.at).floorRv = t.track.bookmarkFloorRv;
        t.log(
          e.at,
          'registered',
          `registered: rv ${JSON.stringify(e.resourceVersion)}${e.sendInitialEvents ? ', sendInitialEvents' : ''}, interval from rv ${e.intervalResourceVersion ?? 0}, bookmark floor ${e.bookmarkAfterResourceVersion ?? 0}`,
        );
        return;
      }
      case 'bookmarks/bucket-popped':
        this.popsSinceTick++;
        return;
      case 'cacher/bookmark-tick': {
        const rec = {
          at: e.at,
          resourceVersion: e.resourceVersion,
          buckets: this.popsSinceTick,
          watchers: e.watchers,
          queued: e.queued,
        };
        this.popsSinceTick = 0;
        if (this.ticks.length < this.seriesLimit) this.ticks.push(rec);
        else this.truncate('bookmarkTicks');
        return;
      }
      case 'watchcache/capacity': {
        if (this.capacity.length === 0) {
          this.capacity.push({
            at: 0,
            capacity: e.from,
            change: 'initial',
            reason: 'the watch cache starts at its lower bound',
            oldestAgeMs: 0,
            eventFreshDurationMs: e.eventFreshDuration,
          });
        }
        const grow = e.reason === 'increase';
        const point: CapacityPoint = {
          at: e.at,
          capacity: e.to,
          change: grow ? 'grow' : 'shrink',
          reason: grow
            ? `full and the oldest event (${seconds(e.oldestEventAgeMs)}) is younger than the ${seconds(e.eventFreshDuration)} window`
            : `full and the event a quarter from the newest (${seconds(e.comparedEventAgeMs)}) is older than the ${seconds(e.eventFreshDuration)} window`,
          oldestAgeMs: e.oldestEventAgeMs,
          eventFreshDurationMs: e.eventFreshDuration,
          comparedAgeMs: e.comparedEventAgeMs,
        };
        if (this.capacity.length < this.seriesLimit) this.capacity.push(point);
        else this.truncate('capacity');
        return;
      }
      case 'serialization/encode': {
        const s = this.ser;
        s.encodes += e.encodes;
        s.hits += e.hits;
        const id = (s.perIdentifier[e.identifier] ??= { encodes: 0, hits: 0, bytes: 0 });
        id.encodes += e.encodes;
        id.hits += e.hits;
        id.bytes += e.bytes * e.encodes;
        const key = `${e.resourceVersion}\u0000${e.key}\u0000${e.eventType}`;
        let rec = s.perEvent.get(key);
        if (!rec) {
          if (s.perEvent.size >= this.perEventLimit) {
            s.perEventDropped++;
            return;
          }
          rec = { at: e.at, rv: e.resourceVersion, eventType: e.eventType, perIdentifier: {} };
          s.perEvent.set(key, rec);
        }
        const pi = (rec.perIdentifier[e.identifier] ??= { encodes: 0, hits: 0, bytes: 0 });
        pi.encodes += e.encodes;
        pi.hits += e.hits;
        if (e.bytes > 0) pi.bytes = e.bytes;
        return;
      }
      case 'caching-object/deep-copy':
        this.ser.lazyDeepCopies++;
        this.noteCopies(e.at);
        return;
      case 'caching-object/invalidated':
        this.ser.invalidations++;
        this.noteCopies(e.at);
        return;
      case 'cacher/dispatch': {
        const d = this.dispatch;
        d.events++;
        d.deliveries += e.candidates;
        d.terminated += e.terminated;
        d.waitedMs += e.waitedMs;
        this.noteCacheRv(e.at, e.resourceVersion);
        if (e.blocked > 0) {
          d.blockedEvents++;
          const rec = {
            at: e.at,
            rv: e.resourceVersion,
            candidates: e.candidates,
            blocked: e.blocked,
            unblocked: e.unblocked,
            terminated: e.terminated,
            budgetMs: e.budgetMs,
            waitedMs: e.waitedMs,
          };
          if (d.blocked.length < this.seriesLimit) d.blocked.push(rec);
          else this.truncate('dispatch.blocked');
        }
        return;
      }
      case 'cacher/progress-request':
        this.progressRequests++;
        return;
      case 'cacher/ready':
        if (e.state === 'ready') this.watchCache.readyAt ??= e.at;
        return;
      case 'cacher/reflector':
        if (!this.watchCache.started) {
          this.watchCache.started = true;
          this.watchCache.startedAt = e.at;
        }
        if (e.phase === 'listed' && e.resourceVersion !== undefined)
          this.noteCacheRv(e.at, e.resourceVersion);
        return;
      case 'etcd/watch':
        if (e.phase === 'progress-notify') {
          this.noteEtcdRv(e.at, e.revision);
          this.noteCacheRv(e.at, e.revision);
        }
        return;
      case 'watchcache/wait': {
        const w: FreshnessWaitRecord = {
          at: e.at,
          rv: e.resourceVersion,
          cacheRv: e.cacheResourceVersion,
          waitedMs: e.waitedMs,
          outcome: e.outcome,
        };
        if (this.waits.length < this.seriesLimit) this.waits.push(w);
        else this.truncate('freshnessWaits');
        if (e.outcome !== 'timeout') this.noteCacheRv(e.at + e.waitedMs, e.cacheResourceVersion);
        this.listOf(e.requestId)?.record.waits.push({
          at: e.at,
          rv: e.resourceVersion,
          waitedMs: e.waitedMs,
          outcome: e.outcome,
        });
        return;
      }
      case 'delegator/decision': {
        if (e.operation !== 'list') return;
        const l = this.listOf(e.requestId);
        if (!l) return;
        l.record.rule = delegationRuleText[e.rule] ?? e.rule;
        l.record.servedBy = e.target === 'etcd' ? 'etcd' : e.target === 'cache' ? 'cache' : 'error';
        return;
      }
      case 'delegator/fallback': {
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
        if (e.fallback === 'true') l.record.rule += ` (then ${what}: fell back to etcd)`;
        return;
      }
      case 'cacher/list': {
        const l = this.listOf(e.requestId);
        if (!l) return;
        // Served by the cache: an etcd read before it (a current-RV lookup) did not serve it.
        const r = l.record;
        r.servedBy = 'cache';
        r.fetched = e.fetched;
        r.evaluated = e.fetched;
        r.returned = e.returned;
        r.streamed = false;
        r.pages = [];
        delete r.stream;
        this.noteCacheRv(e.at, Number(e.resourceVersion) || 0);
        return;
      }
      case 'etcd/request': {
        if (e.operation === 'create' || e.operation === 'update' || e.operation === 'delete') {
          if (!e.error) this.noteEtcdRv(e.at, e.headerRevision);
          return;
        }
        if (!etcdReadOperations.has(e.operation)) return;
        if (e.headerRevision > 0) this.noteEtcdRv(e.at, e.headerRevision);
        const l = this.listRead(
          e.requestId,
          e.operation === 'list' || e.operation === 'listStream',
          e.at,
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
        this.pushBounded(l.record.etcdRequests, rec, 'etcdRequests');
        return;
      }
      case 'list/page': {
        const l = this.listRead(e.requestId, true, e.at);
        if (!l) return;
        this.pushBounded(
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
        return;
      }
      case 'list/stream-decision': {
        if (e.origin !== 'list') return;
        const l = this.listRead(e.requestId, true, e.at);
        if (!l) return;
        l.stream = {
          decision: e.decision,
          reason: e.reason,
          ...(e.recheckAt !== undefined ? { recheckAt: e.recheckAt } : {}),
        };
        return;
      }
      case 'list/stream-fallback': {
        if (e.origin !== 'list') return;
        this.listRead(e.requestId, true, e.at)?.record.fallbacks.push(
          `RangeStream answered Unimplemented: paged instead; probed again at ${seconds(e.recheckAt)}`,
        );
        return;
      }
      case 'list/done': {
        const l = this.listRead(e.requestId, true, e.at);
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
        return;
      }
      default:
        return;
    }
  }

  addMetrics(m: TraceMetricsRecord): void {
    this.touch(m.at);
    switch (m.scope) {
      case 'resource':
        this.metrics = { ...m.samples };
        this.metricsText = m.text;
        return;
      case 'watchers':
        this.sampled = true;
        foldSampleGroups(m.at, m.changes, (id) => this.tracks.get(id)?.track);
        return;
      case 'scrape':
        this.pushBounded(this.scrapes, { at: m.at, samples: m.samples }, 'scrapes');
        return;
      case 'watcher':
        this.addWatcherFinal(m.watcher);
    }
  }

  addWatcherFinal(w: WatcherFinal): void {
    const t = this.tracks.get(w.id);
    if (!t) return;
    t.hasFinal = true;
    t.track.eventsReceived = w.received;
    if (w.lastRv > t.track.lastRvSent) t.track.lastRvSent = w.lastRv;
    t.track.bufferFill = w.bufferFill;
    t.track.bufferCapacity = w.bufferCapacity;
    if (w.nextBookmarkSecond !== undefined) t.track.nextBookmarkSecond = w.nextBookmarkSecond;
  }

  /**
   * The model so far. Safe to call at any time and as often as wanted (a live run takes a snapshot
   * per batch): it changes nothing in the builder, and its arrays and totals are its own, so what
   * is added later does not grow them. Records still being folded (a LIST in flight, the newest
   * serialization record) are shared and may still change until they are done.
   */
  finish(): RunModel {
    const capacity = this.capacity.slice();
    if (capacity.length === 0) {
      const c = Object.entries(this.metrics).find(([k]) => k.startsWith('watch_cache_capacity{'));
      if (c)
        capacity.push({
          at: 0,
          capacity: c[1],
          change: 'initial',
          reason: 'the watch cache starts at its lower bound',
          oldestAgeMs: 0,
          eventFreshDurationMs: 0,
        });
    }
    const watchers = [...this.tracks.values()].map((t) => t.finish());
    // Without the run's samples, the event-made ones hold bookmarks and floors but no reads.
    if (!this.sampled) for (const w of watchers) delete w.samples;
    const perIdentifier: Record<string, SerializationIdentifierTotals> = {};
    for (const [k, v] of Object.entries(this.ser.perIdentifier)) perIdentifier[k] = { ...v };
    const moments = this.moments.moments();
    // The finished tracks (their close reasons settled), not the builder's own.
    const finished = new Map(watchers.map((w) => [w.id, w]));
    const clients = clientRecords(
      this.lists,
      this.watchRequests,
      (id) => finished.get(id),
      this.lastAt,
    );
    const model: RunModel = {
      header: this.header,
      durationMs: this.lastAt,
      watchers,
      capacity,
      resourceVersions: this.rvPoints.map((p) => ({ ...p })),
      serialization: {
        encodes: this.ser.encodes,
        hits: this.ser.hits,
        lazyDeepCopies: this.ser.lazyDeepCopies,
        invalidations: this.ser.invalidations,
        perIdentifier,
        perEvent: [...this.ser.perEvent.values()],
        ...(this.ser.perEventDropped ? { perEventDropped: this.ser.perEventDropped } : {}),
        ...(this.copies.length ? { copies: this.copies.map((c) => ({ ...c })) } : {}),
      },
      lists: this.lists.slice(),
      metrics: { ...this.metrics },
      metricsText: this.metricsText,
      rejected: { count: this.rejected.count, samples: this.rejected.samples.slice() },
      phases: this.phases.slice(),
      ...(this.faults.length ? { faults: this.faults.slice() } : {}),
      writes: { ...this.writes, byVerb: { ...this.writes.byVerb } },
      watchRequests: this.watchRequests.slice(),
      bookmarkTicks: this.ticks.slice(),
      freshnessWaits: this.waits.slice(),
      progressRequests: this.progressRequests,
      dispatch: { ...this.dispatch, blocked: this.dispatch.blocked.slice() },
      cacherLists: this.cacherLists.slice(),
      truncated: { ...this.truncated },
      ...(this.scrapes.length ? { scrapes: this.scrapes.slice() } : {}),
      moments: { at: moments.at.slice(), count: moments.count.slice() },
      watchCache: { ...this.watchCache },
      clients,
      ...(this.imported ? { imported: this.imported } : {}),
    };
    return model;
  }

  // ------------------------------------------------------------ helpers

  private touch(at: number): void {
    if (at > this.lastAt) this.lastAt = at;
  }

  private noteCopies(at: number): void {
    const last = this.copies[this.copies.length - 1];
    const point = {
      at,
      lazyDeepCopies: this.ser.lazyDeepCopies,
      invalidations: this.ser.invalidations,
    };
    if (last && last.at === at) Object.assign(last, point);
    else this.pushBounded(this.copies, point, 'serialization.copies');
  }

  private truncate(what: string): void {
    this.truncated[what] = (this.truncated[what] ?? 0) + 1;
  }

  private pushBounded<T>(arr: T[], v: T, what: string): void {
    if (arr.length < this.seriesLimit) arr.push(v);
    else this.truncate(what);
  }

  /** The LIST request `requestId` is folded into, if it is one. */
  private listOf(requestId: number | undefined): ListFold | undefined {
    return requestId === undefined ? undefined : this.listsById.get(requestId);
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
  ): ListFold | undefined {
    if (requestId === undefined) return undefined;
    const l = this.listsById.get(requestId);
    if (l || !listRead || this.watchesById.has(requestId)) return l;
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
    this.listsById.set(requestId, f);
    if (this.cacherLists.length < this.seriesLimit) this.cacherLists.push(record);
    else this.truncate('cacherLists');
    return f;
  }

  private noteCacheRv(at: number, rv: number): void {
    if (!(rv > this.cacheRv)) return;
    this.cacheRv = rv;
    if (this.etcdRv < rv) this.etcdRv = rv;
    this.point(at);
  }

  private noteEtcdRv(at: number, rv: number): void {
    if (!(rv > this.etcdRv)) return;
    this.etcdRv = rv;
    this.point(at);
  }

  private point(at: number): void {
    const pts = this.rvPoints;
    const last = pts[pts.length - 1];
    if (last && last.at >= at) {
      last.cacheRv = this.cacheRv;
      last.etcdRv = this.etcdRv;
      return;
    }
    pts.push({ at, cacheRv: this.cacheRv, etcdRv: this.etcdRv });
    if (pts.length > this.seriesLimit) {
      // Halve the resolution: keep every other point (always the last).
      const kept = pts.filter((_, i) => i % 2 === 1 || i === pts.length - 1);
      this.truncated.resourceVersions =
        (this.truncated.resourceVersions ?? 0) + pts.length - kept.length;
      pts.length = 0;
      pts.push(...kept);
    }
  }
}
