// Mirrors k8s.io/apiserver pkg/storage/cacher/cache_watcher.go (release-1.36), plus
// filterWithAttrsAndPrefixFunction (cacher.go) and storage.AnnotateInitialEventsEndBookmark (util.go).
// Deliberate differences: the processInterval goroutine is a task pumped synchronously whenever
// something it waits for happens (an input event, room in the result channel, a stop, the context
// ending), so a run is deterministic and settled after every call; `add` returns a promise that
// the dispatcher awaits while virtual time passes; stateMutex and the cacher lock are not needed;
// times are Clock milliseconds with zeroTime (-Infinity) for Go's zero time.Time.

import type { Clock } from '../clock';
import type {
  BookmarkDropReason,
  CacheWatcherCloseReason,
  CacheWatcherInspectorEvent,
  CacheWatcherStateName,
} from '../inspect/events';
import { type GroupResource, groupResourceString } from '../storage/group-resource';
import type { Fields } from '../storage/fields';
import type { Labels } from '../storage/labels';
import { setMetaFieldInOrder, sortedMap, type KubeObject } from '../storage/objects';
import { zeroTime } from './bookmark-buckets';
import {
  CachingObject,
  deepCopyJSON,
  getMutableObject,
  updateResourceVersion,
} from './caching-object';
import {
  Channel,
  chanClosed,
  chanEmpty,
  type CancelWait,
  type ChannelSender,
  type ChannelTimer,
  type DirectListener,
  type DirectReceiver,
} from './channel';
import type { ObjectEncoder } from './object-encoders';
import type { RunMember, WatcherRun } from './watcher-run';
import { quote } from '../storage/go-strings';
import { hasPathPrefix } from './util';
import type { AttrSet, WatchCacheEvent } from './watch-cache-event';
import type { WatchCacheInterval } from './watch-cache-interval';

/** metav1.InitialEventsAnnotationKey: marks the bookmark that ends a watch-list's initial events. */
export const initialEventsAnnotationKey = 'k8s.io/initial-events-end';

/** How long before its deadline a watcher gets its last bookmark (nextBookmarkTime's "-2s"). */
export const preTimeoutBookmarkMargin = 2000;

/**
 * The watcher's bookmark state (upstream's iota constants cacheWatcherWaitingForBookmark,
 * cacheWatcherBookmarkReceived, cacheWatcherBookmarkSent).
 */
export const CacheWatcherState = {
  /** Waiting for a bookmark at or after bookmarkAfterResourceVersion (watch-list): bookmarks every second. */
  WaitingForBookmark: 0,
  /** That bookmark is in the input buffer but has not reached the client: a termination drains. */
  BookmarkReceived: 1,
  /** Sent (or none was awaited): periodic bookmarks only. */
  BookmarkSent: 2,
} as const;
export type CacheWatcherState = (typeof CacheWatcherState)[keyof typeof CacheWatcherState];

export const cacheWatcherWaitingForBookmark = CacheWatcherState.WaitingForBookmark;
export const cacheWatcherBookmarkReceived = CacheWatcherState.BookmarkReceived;
export const cacheWatcherBookmarkSent = CacheWatcherState.BookmarkSent;

/** Names for reports and inspector events, indexed by state. */
export const cacheWatcherStateNames = [
  'WaitingForBookmark',
  'BookmarkReceived',
  'BookmarkSent',
] as const satisfies readonly CacheWatcherStateName[];

/** What a watcher holds and hands out: plain objects, or the CachingObjects the dispatcher wraps. */
export type WatchObject = KubeObject | CachingObject;

/** watch.EventType. ERROR only comes from error watchers (a Status object). */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** watch.Event: what a client reads from the result channel. */
export interface WatchEvent {
  type: WatchEventType;
  object: WatchObject;
}

/** The receive side of a channel (Go's `<-chan T`). */
export type ReceiveChannel<T> = Pick<
  Channel<T>,
  'capacity' | 'len' | 'closed' | 'tryRecv' | 'waitRecv' | 'recv'
>;

/** watch.Interface. */
export interface WatchInterface {
  resultChan(): ReceiveChannel<WatchEvent>;
  stop(): void;
}

/** filterWithAttrsFunc: does the watcher want an object with this key, labels and fields? */
export type FilterWithAttrsFunc = (
  key: string,
  labels: AttrSet,
  fields: AttrSet,
  object: WatchObject | undefined,
) => boolean;

/** What filterWithAttrsAndPrefixFunction needs from storage.SelectionPredicate. */
export interface AttributesMatcher {
  matchesObjectAttributes(labels: Labels, fields: Fields): boolean;
}

/**
 * cacher.go filterWithAttrsAndPrefixFunction: the key must be under the watched key at a path
 * boundary and the labels/fields must match. (ShardedListAndWatch, alpha, is not modelled.)
 */
export function filterWithAttrsAndPrefixFunction(
  key: string,
  p: AttributesMatcher,
): FilterWithAttrsFunc {
  const f: FilterWithAttrsFunc = (objKey, labels, fields) =>
    hasPathPrefix(objKey, key) && p.matchesObjectAttributes(labels, fields);
  filterMemos.set(f, { event: undefined, cur: false, old: false, watchEvent: undefined });
  return f;
}

/**
 * A pure filter's verdict on the last event it judged, and the watch event that makes when it is
 * shared (a CachingObject: the same for every watcher with this filter; null: not interested;
 * undefined: made per watcher).
 */
interface FilterMemo {
  event: WatchCacheEvent<WatchObject> | undefined;
  cur: boolean;
  old: boolean;
  watchEvent: WatchEvent | null | undefined;
}

/**
 * Filters known to depend only on their arguments, with their memo: their verdict for a dispatched
 * event is shared by every watcher that has the same filter (a side-effecting filter is always called).
 */
const filterMemos = new WeakMap<FilterWithAttrsFunc, FilterMemo>();

/** The interval processInterval serves from (WatchCacheInterval fits). */
export type CacheWatcherInterval = Pick<
  WatchCacheInterval<WatchObject>,
  'next' | 'resourceVersion' | 'initialEventsEndBookmark'
>;

export const bookmarkDropReasons: readonly BookmarkDropReason[] = [
  'belowBookmarkAfterResourceVersion',
  'inputFull',
  'watcherStopped',
  'notNewer',
  'annotateFailed',
];

/** Per-watcher counters (no upstream counterpart except the two metrics named below). */
export interface CacheWatcherCounts {
  /** Events accepted into the input buffer (nonblockingAdd or add). */
  queued: number;
  /** Events put into the result channel, bookmarks included. */
  delivered: number;
  /** Events the filter rejected (convertToWatchEvent returned nothing). */
  filtered: number;
  /** Non-bookmark input events at or below the RV already sent (process's RV rule). */
  skippedOld: number;
  /** Events dropped because done was closed before they could be sent. */
  droppedStopped: number;
  /** Events served from the interval (apiserver_init_events_total). */
  initEvents: number;
  bookmarksDelivered: number;
  bookmarksDropped: Record<BookmarkDropReason, number>;
  /** 1 once add() terminated the watcher (apiserver_terminated_watchers_total). */
  terminated: number;
}

export interface CacheWatcherInspector {
  readonly listening?: boolean;
  emit(event: CacheWatcherInspectorEvent): void;
}

/** The two cacher metrics a watcher feeds (label values = the group-resource). */
export interface CacheWatcherMetrics {
  /** apiserver_terminated_watchers_total{group,resource}.Inc() */
  terminatedWatchersInc(groupResource: GroupResource): void;
  /** apiserver_init_events_total{group,resource}.Add(n) */
  initEventsAdd(groupResource: GroupResource, n: number): void;
}

/**
 * The client end of a result channel that lets the watcher deliver in place (WatchClient): a
 * DirectReceiver that may also let the watcher just count what it delivers and credit it later
 * (`directCounts`: no events kept, no callback), encoding only to learn the size.
 */
export interface DirectWriter extends DirectReceiver<WatchEvent> {
  /** Takes `event` as its select would, staying parked (only while it is the direct receiver). */
  acceptParked(event: WatchEvent): void;
  /** What the client encodes with (the bytes it counts), if anything. */
  readonly directEncoder: ObjectEncoder | undefined;
  /** Deliveries need nothing but counting. */
  readonly directCounts: boolean;
  /** Deliveries the watcher counted for it; `lastRv` is the newest resourceVersion among them. */
  addDirect(events: number, bytes: number, lastRv: number): void;
}

/** A watcher holding deliveries it counted in place: folds them into the counts (its own and the client's). */
export interface DirectDeliverySource {
  foldDirect(): void;
}

export interface CacheWatcherOptions {
  /** Capacity of both the input and the result channel (suggestedWatchChannelSize). */
  chanSize: number;
  filter: FilterWithAttrsFunc;
  /** Called to stop the watcher (the cacher's forgetWatcher); settable later, as upstream does. */
  forget?: (drainWatcher: boolean) => void;
  /** Who registered the watcher: without `forget`, forget() is owner.forgetWatcher(watcher, drain). */
  owner?: WatcherOwner;
  /** Clock ms when the server will close the watch; undefined/zeroTime: none. */
  deadline?: number;
  allowWatchBookmarks?: boolean;
  groupResource: GroupResource;
  /** Human-readable `key: "…", labels: "…", fields: "…"`, for logs. */
  identifier?: string;
  /**
   * What the identifier is built from, when it is only built if someone reads it (the cacher: a
   * string per watch is a few hundred bytes at 100k watches). Ignored when `identifier` is given.
   */
  identifierSource?: WatcherIdentifierSource;
  /** Stable id for inspectors and the bookmark buckets (the cacher's watcherIdx). */
  id?: number | string;
  /** The watch request that creates the watcher (its creation event carries the id). */
  requestId?: number;
  /** Only timestamps inspector events. */
  clock?: Pick<Clock, 'now'>;
  inspector?: CacheWatcherInspector;
  metrics?: CacheWatcherMetrics;
  /** klog sink. */
  log?: (message: string) => void;
}

/** The parts of a cacher watcher's identifier: its key and its predicate's selectors. */
export interface WatcherIdentifierSource {
  readonly key: string;
  readonly predicate: {
    readonly label: { string(): string };
    readonly field: { string(): string };
  };
}

/** The cacher's watcher identifier: `key: "…", labels: "…", fields: "…"` (Go %q quoting). */
export function watcherIdentifier(src: WatcherIdentifierSource): string {
  return `key: ${quote(src.key)}, labels: ${quote(src.predicate.label.string())}, fields: ${quote(src.predicate.field.string())}`;
}

/**
 * Whoever registered the watcher (the cacher). The default forget() calls its forgetWatcher, so a
 * registered watcher needs no closure of its own (upstream: a forget func per watcher).
 */
export interface WatcherOwner {
  forgetWatcher(w: CacheWatcher, drainWatcher: boolean): void;
}

// The default forget of a watcher with an owner: one function for all of them (called as a method).
function forgetThroughOwner(this: CacheWatcher, drainWatcher: boolean): void {
  this.owner?.forgetWatcher(this, drainWatcher);
}

/** `forget` placeholder until the cacher computes the real one (cacher.go emptyFunc). */
export const emptyFunc = (_drainWatcher: boolean): void => undefined;

/** Told when a request context ends (WatchRequestContext implements the source side). */
export interface ContextDoneListener {
  contextDone(): void;
}

/**
 * A request context that tells its listeners when it ends, without an AbortSignal per watch
 * (WatchRequestContext). processInterval also accepts a plain AbortSignal.
 */
export interface WatchContextSource {
  readonly done: boolean;
  addDoneListener(listener: ContextDoneListener): void;
  removeDoneListener(listener: ContextDoneListener): void;
}

function isContextSource(ctx: AbortSignal | WatchContextSource): ctx is WatchContextSource {
  return typeof (ctx as Partial<WatchContextSource>).addDoneListener === 'function';
}

/** The processInterval goroutine's phase. */
type TaskPhase = 'idle' | 'interval' | 'endBookmark' | 'live' | 'done';

/**
 * cacheWatcher: one watch served from the watch cache. The dispatcher puts events into `input`
 * (nonblockingAdd, or add with a timeout); processInterval converts them for this watcher's
 * selector and puts them into `result`, which the HTTP handler reads.
 */
export class CacheWatcher
  implements
    RunMember,
    WatchInterface,
    DirectReceiver<WatchCacheEvent<WatchObject>>,
    ChannelSender<WatchEvent>,
    ContextDoneListener,
    DirectListener,
    DirectDeliverySource
{
  // Field order is memory layout: what every delivery and heartbeat touches comes first, so a
  // dispatch over 100k watchers reads as few cache lines per watcher as possible.
  readonly input: Channel<WatchCacheEvent<WatchObject>>;
  readonly result: Channel<WatchEvent>;
  /**
   * The task is parked alone on the empty input, in its live loop, and the client is parked alone
   * on the empty result channel ready to write at once: a dispatched event can take the whole turn
   * in place (addToParkedTask). Kept by the input channel (this is its direct receiver).
   */
  private directInput = false;
  /** The result channel's direct receiver (the client, while it waits in its select). */
  private directClient: DirectWriter | undefined = undefined;
  /** The client only needs counting (DirectWriter.directCounts), with this encoder. */
  private directCounts = false;
  private directEncoder: ObjectEncoder | undefined = undefined;
  /**
   * Deliveries counted in place and their bytes, not yet in counts (foldDirect), for directClient:
   * whenever it changes they are folded first, so they are always its own.
   */
  private directDelivered = 0;
  private directBytes = 0;
  private directLastRv = 0;
  /** The run this watcher takes events with (WatcherRun), and the run's counts when it joined. */
  private run: WatcherRun | undefined = undefined;
  private runEncoderIndex = -1;
  private runJoinDelivered = 0;
  private runJoinFiltered = 0;
  private runJoinBytes = 0;
  /** Told when the watcher's in-place state changes (the index entry holding it: its runs are stale). */
  runHost: { runsChanged(): void } | undefined = undefined;
  // Pump control: the task runs when an entry point is done (busy = 0), never inside one.
  private busy = 0;
  private pumping = false;
  private pumpAgain = false;
  // Channel plumbing (ChannelReceiver on input, ChannelSender on result): the task parks the
  // watcher itself instead of allocating closures per wait. Not for use by callers.
  /** Blocked in `select { case event, ok := <-c.input: … case <-ctx.Done(): }`. */
  recvParked = false;
  /** Blocked in `select { case c.result <- ev: … case <-c.done: }`. */
  sendParked = false;
  // The processInterval goroutine's state, kept on the watcher (one object per watch, not three).
  private phase: TaskPhase = 'idle';
  /** What the blocked receive got, handled on the next pump. */
  private received: WatchCacheEvent<WatchObject> | typeof chanClosed | undefined = undefined;
  private taskResourceVersion = 0;
  readonly filter: FilterWithAttrsFunc;
  /** The filter's memo when it is a filterWithAttrsAndPrefixFunction (its verdict on an event can be shared). */
  private readonly filterMemo: FilterMemo | undefined;
  private doneClosed = false;
  stopped = false;
  private currentState: CacheWatcherState = CacheWatcherState.WaitingForBookmark;
  /** Bookmarks below this RV are dropped; 0 = no particular bookmark awaited. Fixed once started. */
  bookmarkAfterResourceVersion = 0;
  /** When the server closes the watch (zeroTime: never); bookmarks stop 2s before it. */
  readonly deadline: number;
  private ctx: AbortSignal | WatchContextSource | undefined = undefined;
  private ctxIsSource = false;
  private readonly countsStore: CacheWatcherCounts = {
    queued: 0,
    delivered: 0,
    filtered: 0,
    skippedOld: 0,
    droppedStopped: 0,
    initEvents: 0,
    bookmarksDelivered: 0,
    bookmarksDropped: {
      belowBookmarkAfterResourceVersion: 0,
      inputFull: 0,
      watcherStopped: 0,
      notNewer: 0,
      annotateFailed: 0,
    },
    terminated: 0,
  };
  private readonly inspector: CacheWatcherInspector | undefined;

  // Colder: set up once, or used when a send blocks, the watch ends, or someone asks.
  forget: (drainWatcher: boolean) => void;
  /** Who registered the watcher (see WatcherOwner). */
  readonly owner: WatcherOwner | undefined;
  /** The owner's index entry (the cacher: the watchers map key, and whether it is a trigger value). */
  registeredKey = '';
  registeredByValue = false;
  /** Its position in the owner's index entry (-1: not registered). */
  registeredSlot = -1;
  readonly allowWatchBookmarks: boolean;
  readonly groupResource: GroupResource;
  readonly id: number | string;
  /** Delay closing until the input buffer has been sent (graceful termination). */
  drainInputBuffer = false;
  /** The event being sent while sendParked. */
  sendValue: WatchEvent = placeholderEvent;
  /** The cache event behind sendValue. */
  private sendSource: WatchCacheEvent<WatchObject> | undefined = undefined;
  private interval: CacheWatcherInterval | undefined = undefined;
  private removeAbortListener: (() => void) | undefined = undefined;
  private finished: Promise<void> | undefined = undefined;
  private resolveFinished: (() => void) | undefined = undefined;
  private identifierValue: string | undefined = undefined;
  /** What the identifier is built from (the cacher shares one per key and predicate). */
  private identifierSource: WatcherIdentifierSource | undefined = undefined;
  private readonly clock: Pick<Clock, 'now'> | undefined;
  private readonly metrics: CacheWatcherMetrics | undefined;
  private readonly log: ((message: string) => void) | undefined;

  constructor(o: CacheWatcherOptions) {
    this.input = new Channel(o.chanSize);
    this.result = new Channel(o.chanSize);
    this.input.directListener = this;
    this.result.directListener = this;
    this.filter = o.filter;
    this.filterMemo = filterMemos.get(o.filter);
    this.owner = o.owner;
    this.forget = o.forget ?? (o.owner !== undefined ? forgetThroughOwner : emptyFunc);
    this.deadline = o.deadline ?? zeroTime;
    this.allowWatchBookmarks = o.allowWatchBookmarks ?? false;
    this.groupResource = o.groupResource;
    if (o.identifier !== undefined || o.identifierSource === undefined)
      this.identifierValue = o.identifier ?? '';
    else this.identifierSource = o.identifierSource;
    this.id = o.id ?? this.identifier;
    this.clock = o.clock;
    this.inspector = o.inspector;
    this.metrics = o.metrics;
    this.log = o.log;
    const insp = this.activeInspector();
    if (insp) {
      insp.emit({
        type: 'watcher/created',
        at: this.now(),
        watcherId: this.id,
        groupResource: this.groupResource,
        requestId: o.requestId,
        identifier: this.identifier,
        chanSize: o.chanSize,
        deadline: this.deadline === zeroTime ? null : this.deadline,
        allowWatchBookmarks: this.allowWatchBookmarks,
      });
    }
  }

  /** What happened to the events offered to this watcher (the deliveries counted in place included). */
  get counts(): CacheWatcherCounts {
    this.foldDirect();
    return this.countsStore;
  }

  /** Can take events as a member of a run: in place, counting only, with a pure filter. */
  runEligible(): boolean {
    return (
      this.directInput &&
      this.directCounts &&
      this.filterMemo !== undefined &&
      this.busy === 0 &&
      !this.pumping
    );
  }

  /** RunMember. */
  get runTaskResourceVersion(): number {
    return this.taskResourceVersion;
  }

  /** RunMember. */
  get runEncoder(): ObjectEncoder | undefined {
    return this.directEncoder;
  }

  /** RunMember: counts from the run from now on. */
  joinRun(run: WatcherRun, encoderIndex: number): void {
    this.settleRun();
    this.run = run;
    this.runEncoderIndex = encoderIndex;
    this.runJoinDelivered = run.delivered;
    this.runJoinFiltered = run.filtered;
    this.runJoinBytes = encoderIndex >= 0 ? run.bytes[encoderIndex] : 0;
  }

  /** The run (if any) no longer speaks for this watcher: its members take events one by one. */
  invalidateRun(): void {
    if (this.run !== undefined) this.run.valid = false;
  }

  /** Takes its share of the run's counts and leaves it. */
  leaveRun(): void {
    this.settleRun();
    this.run = undefined;
  }

  /** Moves what the run counted for this watcher since it joined (or last settled) to its own counts. */
  private settleRun(): void {
    const run = this.run;
    if (run === undefined) return;
    const delivered = run.delivered - this.runJoinDelivered;
    const filtered = run.filtered - this.runJoinFiltered;
    const bytes =
      this.runEncoderIndex >= 0 ? run.bytes[this.runEncoderIndex] - this.runJoinBytes : 0;
    this.runJoinDelivered = run.delivered;
    this.runJoinFiltered = run.filtered;
    this.runJoinBytes += bytes;
    this.directDelivered += delivered;
    this.directBytes += bytes;
    if (delivered > 0 && run.lastResourceVersion > this.directLastRv)
      this.directLastRv = run.lastResourceVersion;
    this.countsStore.queued += filtered;
    this.countsStore.filtered += filtered;
  }

  /** DirectDeliverySource: moves the deliveries counted in place into the counts, and credits the client. */
  foldDirect(): void {
    this.settleRun();
    const n = this.directDelivered;
    if (n === 0) return;
    const bytes = this.directBytes;
    this.directDelivered = 0;
    this.directBytes = 0;
    this.countsStore.queued += n;
    this.countsStore.delivered += n;
    (this.directClient as DirectWriter).addDirect(n, bytes, this.directLastRv);
  }

  /** Human-readable `key: "…", labels: "…", fields: "…"`, for logs (built on first use). */
  get identifier(): string {
    if (this.identifierValue === undefined) {
      this.identifierValue = watcherIdentifier(this.identifierSource as WatcherIdentifierSource);
      this.identifierSource = undefined;
    }
    return this.identifierValue;
  }

  /** The bookmark state (read-only; changed only by the transition functions below). */
  get state(): CacheWatcherState {
    return this.currentState;
  }

  /** True once done is closed: nothing more is sent to the client. */
  get isDone(): boolean {
    return this.doneClosed;
  }

  /** Settles when the processInterval task has exited (undefined before it started). */
  get processDone(): Promise<void> | undefined {
    if (this.phase === 'idle') return undefined;
    // Made on demand: the cacher never asks, so 100k watchers carry no promise each.
    if (this.finished === undefined) {
      if (this.phase === 'done') this.finished = Promise.resolve();
      else {
        this.finished = new Promise<void>((resolve) => {
          this.resolveFinished = resolve;
        });
      }
    }
    return this.finished;
  }

  /** Implements watch.Interface. */
  resultChan(): ReceiveChannel<WatchEvent> {
    return this.result;
  }

  /** Implements watch.Interface: the client is gone; no draining. */
  stop(): void {
    this.forget(false);
  }

  /**
   * Stops the watcher (protected by the cacher lock upstream): closes input, and done unless
   * draining was requested. A later non-draining call closes done too, so a task blocked on a
   * full result channel after a graceful stop cannot leak.
   */
  stopLocked(): void {
    this.busy++;
    try {
      if (!this.stopped) {
        this.stopped = true;
        if (!this.drainInputBuffer) this.closeDone();
        this.input.close();
        const insp = this.activeInspector();
        if (insp)
          insp.emit({
            type: 'watcher/stopped',
            at: this.now(),
            watcherId: this.id,
            drainInputBuffer: this.drainInputBuffer,
            inputLen: this.input.len(),
          });
      }
      if (!this.drainInputBuffer && !this.isDoneChannelClosedLocked()) this.closeDone();
    } finally {
      this.leave();
    }
  }

  /**
   * Puts an event into the input buffer if there is room right now. Bookmarks below
   * bookmarkAfterResourceVersion are dropped so they do not fill the buffer of a waiting watcher.
   * A non-bookmark event for a task and a client both parked and ready takes the turn in place.
   */
  nonblockingAdd(event: WatchCacheEvent<WatchObject>): boolean {
    const bookmark = event.type === 'BOOKMARK';
    if (this.directInput && !bookmark && this.busy === 0 && !this.pumping)
      return this.addToParkedTask(event, this.directClient as DirectWriter);
    if (bookmark && event.resourceVersion < this.bookmarkAfterResourceVersion) {
      this.dropBookmark(event, 'belowBookmarkAfterResourceVersion');
      return false;
    }
    this.busy++;
    try {
      // The task parked first on the input takes the event at once: trySend's hand-off, without
      // the round trip through the channel.
      if (this.recvParked && this.input.handOff(this)) {
        this.received = event;
        this.pumpAgain = true;
      } else if (!this.input.trySend(event)) {
        if (bookmark) this.dropBookmark(event, this.input.closed ? 'watcherStopped' : 'inputFull');
        return false;
      }
      this.countsStore.queued++;
      if (bookmark) {
        const insp = this.activeInspector();
        if (insp)
          insp.emit({
            type: 'watcher/bookmark',
            at: this.now(),
            watcherId: this.id,
            resourceVersion: event.resourceVersion,
            outcome: 'queued',
          });
      }
      this.markBookmarkAfterRvAsReceived(event);
      return true;
    } finally {
      this.leave();
    }
  }

  /**
   * nonblockingAdd of a non-bookmark event while the task is parked on the empty input and the
   * client is parked on the empty result channel, ready to write at once: the task would take the
   * event, send it (or skip or filter it), and park again; the client would write it and park
   * again. That turn, without the hand-offs: the same counters, and every party ends where it was.
   * (doneClosed cannot be set here: closing done comes with closing input, which wakes the task.)
   */
  private addToParkedTask(event: WatchCacheEvent<WatchObject>, client: DirectWriter): true {
    const counts = this.countsStore;
    if (!(event.resourceVersion > this.taskResourceVersion)) {
      counts.queued++;
      counts.skippedOld++;
      return true;
    }
    // The answer another watcher with this filter already got, else convertToWatchEvent's.
    const memo = this.filterMemo;
    let watchEvent = memo !== undefined && memo.event === event ? memo.watchEvent : undefined;
    if (watchEvent === undefined) watchEvent = this.convertToWatchEvent(event) ?? null;
    if (watchEvent === null) {
      counts.queued++;
      counts.filtered++;
      return true;
    }
    if (this.directCounts) {
      // Counted here, credited to the client when anyone looks (foldDirect): one watcher object
      // touched per delivery. The encode (a cache hit but for the first) gives the size.
      const encoder = this.directEncoder;
      if (encoder !== undefined) {
        const object = watchEvent.object;
        try {
          this.directBytes +=
            object instanceof CachingObject
              ? object.encodedLengthFor(encoder)
              : encoder.encode(object).length;
        } catch (err) {
          // As on the channel path: queued, taken by the client, which failed to write it.
          counts.queued++;
          client.addDirect(1, 0, 0);
          this.failParked(client);
          throw err;
        }
      }
      this.directDelivered++;
      // The object's resourceVersion: the event's (a DELETED carries the previous object at it).
      this.directLastRv = event.resourceVersion;
      return true;
    }
    counts.queued++;
    try {
      client.acceptParked(watchEvent);
    } catch (err) {
      this.failParked(client);
      throw err;
    }
    counts.delivered++;
    return true;
  }

  /** A client that failed to write is no longer waiting, nor is the task (as on the channel path). */
  private failParked(client: DirectWriter): void {
    this.result.cancelRecv(client);
    this.input.cancelRecv(this);
  }

  /**
   * Puts a (non-bookmark) event into the input buffer, waiting for room until `timer` fires; then
   * the watcher is terminated (`forget`, graceful only in BookmarkReceived) and the result is false.
   * A null timer means no waiting: terminate at once if there is no room. While the promise is
   * pending the event is a blocked sender: the first event the task takes makes room for it.
   */
  add(event: WatchCacheEvent<WatchObject>, timer: ChannelTimer | null): Promise<boolean> {
    if (this.nonblockingAdd(event)) return Promise.resolve(true);
    if (this.input.closed) {
      // Go would panic (send on closed channel); the cacher defers stops while dispatching, so
      // only a direct stopLocked gets here. Nothing to deliver or terminate; true keeps the
      // dispatcher's rule "false = the shared timer has fired" intact.
      return Promise.resolve(true);
    }
    if (timer === null) {
      this.closeUnresponsive();
      return Promise.resolve(false);
    }
    // A tick nobody received yet wins at once: nonblockingAdd just found no room.
    if (timer.c.tryRecv()) {
      this.closeUnresponsive();
      return Promise.resolve(false);
    }
    return new Promise<boolean>((resolve) => {
      let cancelTick: CancelWait = () => false;
      const cancelSend = this.input.waitSend(event, (sent) => {
        cancelTick();
        if (sent) this.countsStore.queued++;
        resolve(sent);
      });
      cancelTick = timer.c.waitRecv(() => {
        if (!cancelSend()) return;
        this.closeUnresponsive();
        resolve(false);
      });
    });
  }

  /**
   * When the watcher wants its next bookmark: at once while it waits for its bookmark
   * (zeroTime = the current bucket), else in bookmarkFrequency but no later than 2s before the
   * deadline; ok=false when even that is already past.
   */
  /** nextBookmarkTime as one number, NaN for "no more bookmarks" (no object per re-queue). */
  nextBookmarkTimeOrNaN(now: number, bookmarkFrequency: number): number {
    if (!this.wasBookmarkAfterRvReceived()) return zeroTime;
    let heartbeatTime = now + bookmarkFrequency;
    if (this.deadline === zeroTime) return heartbeatTime;
    const pretimeoutTime = this.deadline - preTimeoutBookmarkMargin;
    if (pretimeoutTime < heartbeatTime) heartbeatTime = pretimeoutTime;
    if (heartbeatTime < now) return NaN;
    return heartbeatTime;
  }

  nextBookmarkTime(now: number, bookmarkFrequency: number): { time: number; ok: boolean } {
    if (!this.wasBookmarkAfterRvReceived()) return { time: zeroTime, ok: true };
    let heartbeatTime = now + bookmarkFrequency;
    if (this.deadline === zeroTime) return { time: heartbeatTime, ok: true };
    const pretimeoutTime = this.deadline - preTimeoutBookmarkMargin;
    if (pretimeoutTime < heartbeatTime) heartbeatTime = pretimeoutTime;
    if (heartbeatTime < now) return { time: zeroTime, ok: false };
    return { time: heartbeatTime, ok: true };
  }

  /** A bookmark at or after bookmarkAfterResourceVersion has been accepted (state != Waiting). */
  wasBookmarkAfterRvReceived(): boolean {
    return this.currentState !== CacheWatcherState.WaitingForBookmark;
  }

  /**
   * Waiting -> BookmarkReceived on the first bookmark accepted into the input: the only place a
   * watcher leaves WaitingForBookmark. nonblockingAdd never accepts one below the floor.
   */
  markBookmarkAfterRvAsReceived(event: WatchCacheEvent<WatchObject>): void {
    if (event.type !== 'BOOKMARK') return;
    if (this.wasBookmarkAfterRvReceived()) return;
    this.transition(CacheWatcherState.BookmarkReceived, event.resourceVersion);
  }

  /** The awaited bookmark has reached the client (or none was awaited). */
  wasBookmarkAfterRvSent(): boolean {
    return this.currentState === CacheWatcherState.BookmarkSent;
  }

  /** -> BookmarkSent once any bookmark reaches the result channel. */
  markBookmarkAfterRvSent(event: WatchCacheEvent<WatchObject>): void {
    if (event.type !== 'BOOKMARK') return;
    if (!this.wasBookmarkAfterRvSent())
      this.transition(CacheWatcherState.BookmarkSent, event.resourceVersion);
  }

  /** Called by the cacher before the watcher starts: 0 means no bookmark awaited (state Sent). */
  setBookmarkAfterResourceVersion(bookmarkAfterResourceVersion: number): void {
    const state =
      bookmarkAfterResourceVersion === 0
        ? CacheWatcherState.BookmarkSent
        : CacheWatcherState.WaitingForBookmark;
    this.bookmarkAfterResourceVersion = bookmarkAfterResourceVersion;
    if (state !== this.currentState) this.transition(state, undefined);
  }

  /** Whether a stop should first send what is in the input buffer. */
  setDrainInputBufferLocked(drain: boolean): void {
    this.drainInputBuffer = drain;
  }

  isDoneChannelClosedLocked(): boolean {
    return this.doneClosed;
  }

  /**
   * The watch event this watcher sends for a cache event, or undefined when it wants none:
   * bookmarks are copied (and annotated as initial-events-end until one was sent); otherwise the
   * filter on the new and previous object decides ADDED / MODIFIED / DELETED (a DELETED carries
   * the previous object at the event's RV).
   */
  convertToWatchEvent(event: WatchCacheEvent<WatchObject>): WatchEvent | undefined {
    if (event.type === 'BOOKMARK') {
      try {
        if (event.object === undefined) throw new Error('bookmark event without an object');
        // A heartbeat is the same for every watcher it reaches: one copy per bookmark, shared
        // (clients treat received objects as read-only). The initial-events-end one is annotated
        // for this watcher only, so it gets its own copy.
        if (this.wasBookmarkAfterRvSent() && !(event.object instanceof CachingObject))
          return sharedBookmark(event);
        const object =
          event.object instanceof CachingObject
            ? event.object.deepCopyObject()
            : deepCopyJSON(event.object);
        if (!this.wasBookmarkAfterRvSent()) annotateInitialEventsEndBookmark(object);
        return { type: 'BOOKMARK', object };
      } catch (err) {
        this.log?.(
          `error while accessing object's metadata gr: ${groupResourceString(this.groupResource)}, identifier: ${this.identifier}, err: ${(err as Error).message}`,
        );
        this.dropBookmark(event, 'annotateFailed');
        return undefined;
      }
    }
    let curObjPasses: boolean;
    let oldObjPasses: boolean;
    const memo = this.filterMemo;
    if (memo !== undefined && memo.event === event) {
      // Another watcher with this filter already got its answer for this event.
      const shared = memo.watchEvent;
      if (shared !== undefined) return shared ?? undefined;
      curObjPasses = memo.cur;
      oldObjPasses = memo.old;
    } else {
      curObjPasses =
        event.type !== 'DELETED' &&
        this.filter(event.key, event.objLabels, event.objFields, event.object);
      oldObjPasses = false;
      if (event.prevObject !== undefined) {
        oldObjPasses = this.filter(
          event.key,
          event.prevObjLabels ?? {},
          event.prevObjFields ?? {},
          event.prevObject,
        );
      }
      if (memo !== undefined) {
        memo.event = event;
        memo.cur = curObjPasses;
        memo.old = oldObjPasses;
        memo.watchEvent = undefined;
      }
    }
    if (!curObjPasses && !oldObjPasses) {
      if (memo !== undefined) memo.watchEvent = null;
      return undefined; // not interested in that object
    }
    if (curObjPasses) {
      const type = oldObjPasses ? 'MODIFIED' : 'ADDED';
      const object = event.object as WatchObject;
      // A CachingObject is not copied (getMutableObject): every watcher gets the same event.
      if (object instanceof CachingObject) {
        const e = sharedWatchEvent(event, type, object);
        if (memo !== undefined) memo.watchEvent = e;
        return e;
      }
      return { type, object: getMutableObject(object) };
    }
    // Stopped matching (or deleted): the previous content at the event's resource version.
    const prev = event.prevObject as WatchObject;
    if (prev instanceof CachingObject) {
      const shared = shared_.event === event ? shared_.deleted : undefined;
      if (shared !== undefined && shared.object === prev) return shared; // its RV was set by the first
      updateResourceVersion(prev, event.resourceVersion);
      const e = sharedWatchEvent(event, 'DELETED', prev);
      if (memo !== undefined) memo.watchEvent = e;
      return e;
    }
    const oldObj = getMutableObject(prev);
    updateResourceVersion(oldObj, event.resourceVersion);
    return { type: 'DELETED', object: oldObj };
  }

  /**
   * The watcher's goroutine: sends the interval's events (raising resourceVersion to the newest
   * sent, so buffered duplicates are skipped), then the initial-events-end bookmark if the interval
   * has one, then every input event newer than resourceVersion (or the awaited bookmark at it),
   * until input is closed or ctx ends. On exit it calls stop() and closes the result channel.
   * Runs synchronously as far as it can; the promise settles when the task has exited.
   */
  processInterval(
    interval: CacheWatcherInterval,
    resourceVersion: number,
    ctx?: AbortSignal | WatchContextSource,
  ): Promise<void> {
    this.startProcessing(interval, resourceVersion, ctx);
    return this.processDone as Promise<void>;
  }

  /** processInterval without the promise (the cacher's `go watcher.processInterval(...)`). */
  startProcessing(
    interval: CacheWatcherInterval,
    resourceVersion: number,
    ctx?: AbortSignal | WatchContextSource,
  ): void {
    if (this.phase !== 'idle')
      throw new Error(`processInterval: watcher ${String(this.id)} is already being processed`);
    this.phase = 'interval';
    this.interval = interval;
    // The interval may be fresher than requested (NotOlderThan): never go back in time.
    this.taskResourceVersion = Math.max(resourceVersion, interval.resourceVersion);
    if (ctx !== undefined) {
      this.ctx = ctx;
      if (isContextSource(ctx)) {
        this.ctxIsSource = true;
        ctx.addDoneListener(this);
      } else {
        const onAbort = (): void => this.contextDone();
        ctx.addEventListener('abort', onAbort);
        this.removeAbortListener = () => ctx.removeEventListener('abort', onAbort);
      }
    }
    this.wake();
  }

  /** DirectReceiver (input): asked as the task parks; true when a dispatched event can take the turn in place. */
  canAcceptParked(): boolean {
    return this.phase === 'live' && this.directClient !== undefined;
  }

  /** DirectListener: the input's or the result channel's direct receiver changed. */
  directChanged(channel: Channel<never>, direct: DirectReceiver<never> | undefined): void {
    // Whatever it is, the run this watcher is in no longer speaks for it.
    this.invalidateRun();
    this.runHost?.runsChanged();
    if ((channel as unknown) === this.input) {
      this.directInput = (direct as unknown) === this;
      return;
    }
    this.foldDirect(); // what was counted for the previous client is its own
    const d = direct as DirectWriter | undefined;
    this.directClient = d;
    this.directCounts = d !== undefined && d.directCounts;
    this.directEncoder = d?.directEncoder;
    // Whether the parked task can take events in place depends on the client.
    if (this.recvParked) this.input.refreshDirect(this);
  }

  /** ContextDoneListener: the request context ended; a task waiting for input returns. */
  contextDone(): void {
    if (this.recvParked && this.input.cancelRecv(this)) this.wake();
  }

  /** ChannelReceiver (input): the blocked receive got an event, or the closed channel. */
  onReceive(value: WatchCacheEvent<WatchObject> | undefined, ok: boolean): void {
    this.received = ok ? (value as WatchCacheEvent<WatchObject>) : chanClosed;
    this.wake();
  }

  /** ChannelSender (result): the blocked send completed, or the result channel was closed. */
  onSent(ok: boolean): void {
    const source = this.sendSource as WatchCacheEvent<WatchObject>;
    const watchEvent = this.sendValue;
    this.sendSource = undefined;
    this.sendValue = placeholderEvent;
    if (ok) this.afterSent(source, watchEvent);
    this.wake();
  }

  // ---- the goroutine ----

  private leave(): void {
    this.busy--;
    if (this.busy === 0 && this.pumpAgain) this.pump();
  }

  /** Something the task may be waiting for happened: run it now, or when the current entry point ends. */
  private wake(): void {
    if (this.busy > 0 || this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pump();
  }

  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.runTask();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private ctxDone(): boolean {
    const ctx = this.ctx;
    if (ctx === undefined) return false;
    return this.ctxIsSource ? (ctx as WatchContextSource).done : (ctx as AbortSignal).aborted;
  }

  /** Runs the task until it blocks or exits. */
  private runTask(): void {
    if (this.phase === 'idle') return;
    while (this.phase !== 'done') {
      if (this.sendParked || this.recvParked) return; // blocked
      switch (this.phase) {
        case 'interval': {
          let event: WatchCacheEvent<WatchObject> | undefined;
          try {
            event = (this.interval as CacheWatcherInterval).next();
          } catch (err) {
            // The interval was invalidated: close the watch without an ERROR event; the client
            // re-establishes it and gets an explicit "too old resource version" then.
            this.log?.(`couldn't retrieve watch event to serve: ${(err as Error).message}`);
            this.finishTask('intervalInvalidated', (err as Error).message);
            return;
          }
          if (event === undefined) {
            // counts.initEvents counts exactly the interval's events (apiserver_init_events_total).
            if (this.countsStore.initEvents > 0)
              this.metrics?.initEventsAdd(this.groupResource, this.countsStore.initEvents);
            this.phase = 'endBookmark';
            break;
          }
          this.sendWatchCacheEvent(event);
          // Events already sent must not come again from the input buffer (going back in time).
          if (event.resourceVersion > this.taskResourceVersion)
            this.taskResourceVersion = event.resourceVersion;
          this.countsStore.initEvents++;
          break;
        }
        case 'endBookmark': {
          this.phase = 'live';
          const bookmark = (this.interval as CacheWatcherInterval).initialEventsEndBookmark;
          // Served: a long-lived watcher does not keep the interval (and its buffer) alive.
          this.interval = undefined;
          if (bookmark) this.sendWatchCacheEvent(bookmark);
          const insp = this.activeInspector();
          if (insp)
            insp.emit({
              type: 'watcher/live',
              at: this.now(),
              watcherId: this.id,
              initEvents: this.countsStore.initEvents,
              resourceVersion: this.taskResourceVersion,
            });
          break;
        }
        case 'live': {
          let r = this.received;
          this.received = undefined;
          if (r === undefined) {
            // Both ready: take the end of the request first (Go picks at random).
            if (this.ctxDone()) {
              this.finishTask('contextDone');
              return;
            }
            const v = this.input.poll();
            if (v === chanEmpty) {
              this.input.parkRecv(this);
              return;
            }
            r = v;
          }
          if (r === chanClosed) {
            this.finishTask('inputClosed');
            return;
          }
          const event = r;
          const bookmark = event.type === 'BOOKMARK';
          if (
            event.resourceVersion > this.taskResourceVersion ||
            (bookmark &&
              event.resourceVersion === this.taskResourceVersion &&
              !this.wasBookmarkAfterRvSent())
          ) {
            this.sendWatchCacheEvent(event);
          } else if (bookmark) {
            this.dropBookmark(event, 'notNewer');
          } else {
            this.countsStore.skippedOld++;
          }
          break;
        }
      }
    }
  }

  /** Converts and sends one event; leaves the watcher parked as a sender when the result channel is full. */
  private sendWatchCacheEvent(event: WatchCacheEvent<WatchObject>): void {
    const watchEvent = this.convertToWatchEvent(event);
    if (!watchEvent) {
      if (event.type !== 'BOOKMARK') this.countsStore.filtered++;
      return;
    }
    // Checked first so that, once done is closed, at most the event already blocked is decided
    // by the select below: what reaches the client is always a prefix of the events.
    if (this.doneClosed) {
      this.dropForStop(event);
      return;
    }
    if (this.result.trySend(watchEvent)) {
      this.afterSent(event, watchEvent);
      return;
    }
    this.sendSource = event;
    this.sendValue = watchEvent;
    this.result.parkSend(this);
  }

  private afterSent(event: WatchCacheEvent<WatchObject>, watchEvent: WatchEvent): void {
    this.countsStore.delivered++;
    if (event.type === 'BOOKMARK') {
      this.countsStore.bookmarksDelivered++;
      const insp = this.activeInspector();
      if (insp) {
        const initialEventsEnd = hasInitialEventsEndAnnotation(watchEvent.object);
        insp.emit({
          type: 'watcher/bookmark',
          at: this.now(),
          watcherId: this.id,
          resourceVersion: event.resourceVersion,
          outcome: 'delivered',
          initialEventsEnd,
        });
      }
    }
    this.markBookmarkAfterRvSent(event);
  }

  private dropForStop(event: WatchCacheEvent<WatchObject>): void {
    if (event.type === 'BOOKMARK') this.dropBookmark(event, 'watcherStopped');
    else this.countsStore.droppedStopped++;
  }

  private closeDone(): void {
    if (this.doneClosed) return;
    this.doneClosed = true;
    // The task's pending `select { case c.result <- ev: case <-c.done: }` takes the done case.
    if (this.sendParked && this.result.cancelSend(this)) {
      const source = this.sendSource as WatchCacheEvent<WatchObject>;
      this.sendSource = undefined;
      this.sendValue = placeholderEvent;
      this.dropForStop(source);
      this.wake();
    }
  }

  /** add's closeFunc: the watcher could not keep up; terminate it. */
  private closeUnresponsive(): void {
    this.countsStore.terminated++;
    this.metrics?.terminatedWatchersInc(this.groupResource);
    // Graceful only while the awaited bookmark sits in the input buffer: draining lets the client
    // get it and resume from that RV. Before it arrived, or after it was sent, just close.
    const graceful = this.currentState === CacheWatcherState.BookmarkReceived;
    this.log?.(
      `Forcing ${groupResourceString(this.groupResource)} watcher close due to unresponsiveness: ${this.identifier}. ` +
        `len(c.input) = ${this.input.len()}, len(c.result) = ${this.result.len()}, graceful = ${graceful}`,
    );
    const insp = this.activeInspector();
    if (insp) {
      insp.emit({
        type: 'watcher/terminated',
        at: this.now(),
        watcherId: this.id,
        groupResource: this.groupResource,
        graceful,
        inputLen: this.input.len(),
        resultLen: this.result.len(),
      });
    }
    this.forget(graceful);
  }

  private finishTask(reason: CacheWatcherCloseReason, error?: string): void {
    this.phase = 'done';
    this.interval = undefined;
    if (this.recvParked) this.input.cancelRecv(this);
    if (this.ctx !== undefined) {
      if (this.ctxIsSource) (this.ctx as WatchContextSource).removeDoneListener(this);
      else this.removeAbortListener?.();
      this.removeAbortListener = undefined;
    }
    // Deferred in this order upstream: c.Stop(), then close(c.result).
    this.stop();
    this.result.close();
    const insp = this.activeInspector();
    if (insp)
      insp.emit({
        type: 'watcher/closed',
        at: this.now(),
        watcherId: this.id,
        reason,
        delivered: this.counts.delivered,
        ...(error ? { error } : {}),
      });
    const resolve = this.resolveFinished;
    this.resolveFinished = undefined;
    resolve?.();
  }

  private transition(to: CacheWatcherState, resourceVersion: number | undefined): void {
    const from = this.currentState;
    this.currentState = to;
    const insp = this.activeInspector();
    if (insp) {
      insp.emit({
        type: 'watcher/state',
        at: this.now(),
        watcherId: this.id,
        from: cacheWatcherStateNames[from],
        to: cacheWatcherStateNames[to],
        bookmarkAfterResourceVersion: this.bookmarkAfterResourceVersion,
        ...(resourceVersion !== undefined ? { resourceVersion } : {}),
      });
    }
  }

  private dropBookmark(event: WatchCacheEvent<WatchObject>, reason: BookmarkDropReason): void {
    this.countsStore.bookmarksDropped[reason]++;
    const insp = this.activeInspector();
    if (insp)
      insp.emit({
        type: 'watcher/bookmark',
        at: this.now(),
        watcherId: this.id,
        resourceVersion: event.resourceVersion,
        outcome: 'dropped',
        reason,
      });
  }

  /** The inspector to emit to, or undefined when nobody listens (then no event is built at all). */
  private activeInspector(): CacheWatcherInspector | undefined {
    const insp = this.inspector;
    return insp === undefined || insp.listening === false ? undefined : insp;
  }

  private now(): number {
    return this.clock?.now() ?? 0;
  }
}

/**
 * The watch events made for the cache event being dispatched, shared by every watcher it reaches:
 * with a CachingObject, (type, object) is the same for all of them, so one is made per type, not
 * one per watcher. Keyed by the event object (the dispatcher makes one per dispatch).
 */
const shared_: {
  event: WatchCacheEvent<WatchObject> | undefined;
  added: WatchEvent | undefined;
  modified: WatchEvent | undefined;
  deleted: WatchEvent | undefined;
} = { event: undefined, added: undefined, modified: undefined, deleted: undefined };

function sharedWatchEvent(
  event: WatchCacheEvent<WatchObject>,
  type: 'ADDED' | 'MODIFIED' | 'DELETED',
  object: CachingObject,
): WatchEvent {
  const s = shared_;
  if (s.event !== event) {
    s.event = event;
    s.added = s.modified = s.deleted = undefined;
  }
  let cached: WatchEvent | undefined;
  if (type === 'ADDED') cached = s.added;
  else if (type === 'MODIFIED') cached = s.modified;
  else cached = s.deleted;
  if (cached !== undefined && cached.object === object) return cached;
  const e: WatchEvent = { type, object };
  if (type === 'ADDED') s.added = e;
  else if (type === 'MODIFIED') s.modified = e;
  else s.deleted = e;
  return e;
}

/** The copy of the last bookmark dispatched, shared by the watchers that get it unannotated. */
const sharedBookmark_: {
  event: WatchCacheEvent<WatchObject> | undefined;
  watchEvent: WatchEvent | undefined;
} = { event: undefined, watchEvent: undefined };

function sharedBookmark(event: WatchCacheEvent<WatchObject>): WatchEvent {
  const s = sharedBookmark_;
  if (s.event !== event || s.watchEvent === undefined) {
    s.event = event;
    s.watchEvent = { type: 'BOOKMARK', object: deepCopyJSON(event.object as KubeObject) };
  }
  return s.watchEvent;
}

/** sendValue while no send is parked (keeps the field's type monomorphic). */
const placeholderEvent: WatchEvent = { type: 'BOOKMARK', object: { metadata: {} } };

/** Upstream's constructor, positionally (the versioner is always APIObjectVersioner here). */
export function newCacheWatcher(
  chanSize: number,
  filter: FilterWithAttrsFunc,
  forget: (drainWatcher: boolean) => void,
  deadline: number,
  allowWatchBookmarks: boolean,
  groupResource: GroupResource,
  identifier: string,
  extra: Omit<
    CacheWatcherOptions,
    | 'chanSize'
    | 'filter'
    | 'forget'
    | 'deadline'
    | 'allowWatchBookmarks'
    | 'groupResource'
    | 'identifier'
  > = {},
): CacheWatcher {
  return new CacheWatcher({
    chanSize,
    filter,
    forget,
    deadline,
    allowWatchBookmarks,
    groupResource,
    identifier,
    ...extra,
  });
}

/**
 * storage.AnnotateInitialEventsEndBookmark: sets metadata.annotations["k8s.io/initial-events-end"]
 * = "true", keeping the other annotations. Throws when the object has no metadata.
 */
export function annotateInitialEventsEndBookmark(object: WatchObject): void {
  if (object instanceof CachingObject) {
    object.setAnnotations(
      sortedMap({ ...(object.getAnnotations() ?? {}), [initialEventsAnnotationKey]: 'true' }),
    );
    return;
  }
  const meta = (object as { metadata?: unknown } | null)?.metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
    throw new Error('object does not implement the Object interfaces');
  }
  const m = meta as Record<string, unknown>;
  const annotations = sortedMap({
    ...((m.annotations as Record<string, string> | undefined) ?? {}),
    [initialEventsAnnotationKey]: 'true',
  });
  setMetaFieldInOrder(m, 'annotations', annotations);
}

/** storage.HasInitialEventsEndBookmarkAnnotation. */
export function hasInitialEventsEndAnnotation(object: WatchObject): boolean {
  const annotations =
    object instanceof CachingObject ? object.getAnnotations() : object.metadata?.annotations;
  return annotations?.[initialEventsAnnotationKey] === 'true';
}
