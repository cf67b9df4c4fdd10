// Mirrors k8s.io/apiserver pkg/storage/cacher/cache_watcher.go (release-1.36).
// Deliberate differences: the processInterval goroutine is a task pumped synchronously whenever
// something it waits for happens (an input event, room in the result channel, a stop, the context
// ending), so a run is deterministic and settled after every call; `add` returns a promise that
// the dispatcher awaits while virtual time passes; stateMutex and the cacher lock are not needed;
// times are Clock milliseconds with zeroTime (-Infinity) for Go's zero time.Time. A watcher counts
// what happens to its events and reports it (cache-watcher-report.ts). The cacher may give it a
// fast path (WatcherFastPath, in-place-delivery.ts), which nonblockingAdd asks first.

import type { Clock } from '../clock';
import { type GroupResource, groupResourceString } from '../storage/group-resource';
import type { RequestContext } from '../request/request-context';
import { zeroTime } from './bookmark-buckets';
import {
  type BookmarkDropReason,
  type CacheWatcherCloseReason,
  type CacheWatcherCounts,
  type CacheWatcherEventSink,
  type CacheWatcherMetrics,
  type CacheWatcherReport,
  type WatcherTerminationCause,
  cacheWatcherStateNames,
} from './cache-watcher-report';
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
  type ChannelReceiver,
  type ChannelSender,
  type ChannelTimer,
} from './channel';
import {
  type ContextDoneListener,
  type WatchContextSource,
  isWatchContextSource,
} from './context-done';
import type { FilterWithAttrsFunc } from './filter-with-attrs';
import type { HeartbeatCopy } from './heartbeat-copy';
import {
  annotateInitialEventsEndBookmark,
  hasInitialEventsEndAnnotation,
} from './initial-events-end-bookmark';
import type { ReceiveChannel, WatchEvent, WatchInterface, WatchObject } from './watch';
import type { WatchCacheEvent } from './watch-cache-event';
import type { WatchCacheInterval } from './watch-cache-interval';

/** How long before its deadline a watcher gets its last bookmark (nextBookmarkTime's "-2s"). */
export const preTimeoutBookmarkMargin = 2000;

// Possible states of the cache watcher.
export const CacheWatcherState = {
  /** The cacher is waiting for a bookmark event with a specific RV set. */
  WaitingForBookmark: 0,
  /** The cacher has received a bookmark event with the required RV. */
  BookmarkReceived: 1,
  /** The cacher has already sent a bookmark event to a client. */
  BookmarkSent: 2,
} as const;
export type CacheWatcherState = (typeof CacheWatcherState)[keyof typeof CacheWatcherState];

export const cacheWatcherWaitingForBookmark = CacheWatcherState.WaitingForBookmark;
export const cacheWatcherBookmarkReceived = CacheWatcherState.BookmarkReceived;
export const cacheWatcherBookmarkSent = CacheWatcherState.BookmarkSent;

/** The interval processInterval serves from (WatchCacheInterval fits). */
export type CacheWatcherInterval = Pick<
  WatchCacheInterval<WatchObject>,
  'next' | 'resourceVersion' | 'initialEventsEndBookmark'
>;

/**
 * A fast path beside the watcher (in-place-delivery.ts). nonblockingAdd offers it every event
 * first: it takes the ones whose whole turn it can do in place, counting what it did, and adds
 * those counts to the watcher's before anyone reads them (settle).
 */
export interface WatcherFastPath {
  add(event: WatchCacheEvent<WatchObject>): boolean;
  settle(): void;
}

/**
 * Whoever registered the watcher (the cacher's index entry): with forgetThroughOwner as the
 * watcher's forget, a registered watcher needs no closure of its own (upstream: forgetWatcher
 * makes one per watcher).
 */
export interface WatcherOwner {
  forgetWatcher(w: CacheWatcher, drainWatcher: boolean): void;
}

/** A forget that asks the watcher's owner (called as a method of the watcher). */
export function forgetThroughOwner(this: CacheWatcher, drainWatcher: boolean): void {
  this.owner?.forgetWatcher(this, drainWatcher);
}

/** `forget` placeholder until the cacher computes the real one (cacher.go emptyFunc). */
export const emptyFunc = (_drainWatcher: boolean): void => undefined;

/**
 * What every watcher of one cacher shares: the cacher makes it once and hands it to each (one
 * field per watcher instead of six).
 */
export interface CacheWatcherEnvironment {
  readonly groupResource: GroupResource;
  readonly heartbeatCopy?: HeartbeatCopy;
  readonly clock?: Pick<Clock, 'now'>;
  readonly eventSink?: CacheWatcherEventSink;
  readonly metrics?: CacheWatcherMetrics;
  readonly log?: (message: string) => void;
}

export interface CacheWatcherOptions {
  /** Capacity of both the input and the result channel (suggestedWatchChannelSize). */
  chanSize: number;
  filter: FilterWithAttrsFunc;
  /** Called to stop the watcher (the cacher's forgetWatcher); settable later, as upstream does. */
  forget?: (drainWatcher: boolean) => void;
  /** Clock ms when the server will close the watch; undefined/zeroTime: none. */
  deadline?: number;
  allowWatchBookmarks?: boolean;
  groupResource: GroupResource;
  /**
   * Human-readable `key: "…", labels: "…", fields: "…"`, for logs; or what makes it on first use
   * (the cacher shares one per key and predicate: a string per watch is a few hundred bytes at
   * 100k watches).
   */
  identifier?: string | (() => string);
  /** Stable id for inspectors and the bookmark buckets (the cacher's watcherIdx). */
  id?: number | string;
  /** The watch request that creates the watcher (its creation event carries the id). */
  requestId?: number;
  /** That request's context (its client and request line), for a live view of the watchers. */
  request?: RequestContext;
  /** One copy of a heartbeat for all the cacher's watchers (its fast paths), not one each. */
  heartbeatCopy?: HeartbeatCopy;
  /** Only timestamps engine events. */
  clock?: Pick<Clock, 'now'>;
  eventSink?: CacheWatcherEventSink;
  metrics?: CacheWatcherMetrics;
  /** klog sink. */
  log?: (message: string) => void;
  /**
   * The cacher's environment for all its watchers, with the groupResource, heartbeatCopy, clock,
   * eventSink, metrics and log given here; without it the watcher makes its own of those.
   */
  environment?: CacheWatcherEnvironment;
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
    WatchInterface,
    ChannelReceiver<WatchCacheEvent<WatchObject>>,
    ChannelSender<WatchEvent>,
    ContextDoneListener
{
  readonly input: Channel<WatchCacheEvent<WatchObject>>;
  readonly result: Channel<WatchEvent>;
  /** close(c.done) happened: nothing more is sent to the client. */
  private doneClosed = false;
  readonly filter: FilterWithAttrsFunc;
  stopped = false;
  forget: (drainWatcher: boolean) => void;
  /** The watcher will be closed by the server after the deadline: bookmarks stop 2s before it. */
  readonly deadline: number;
  readonly allowWatchBookmarks: boolean;
  /** Shared with the cacher's other watchers (see CacheWatcherEnvironment). */
  private readonly env: CacheWatcherEnvironment;
  /** The identifier, or what makes it (see `identifier`). */
  private identifierValue: string | (() => string);
  /** Delay closing this watcher until the events in the input buffer have been sent. */
  drainInputBuffer = false;
  /**
   * Bookmarks below this RV are dropped; 0 = no particular bookmark awaited (used with the state).
   * Not changed once the watcher has been started.
   */
  bookmarkAfterResourceVersion = 0;
  private currentState: CacheWatcherState = CacheWatcherState.WaitingForBookmark;

  // Ours. The fast path the cacher gave the watcher, if any.
  fastPath: WatcherFastPath | undefined = undefined;
  /** Who registered the watcher (see WatcherOwner). */
  owner: WatcherOwner | undefined = undefined;
  /** ownCounts once anything was counted (an idle watcher holds none). */
  private countsValue: CacheWatcherCounts | undefined = undefined;
  readonly id: number | string;
  /** The watch request that created the watcher, if the cacher was given it. */
  readonly request: RequestContext | undefined;
  // The processInterval goroutine's state, kept on the watcher (one object per watch, not three).
  private phase: TaskPhase = 'idle';
  /** processInterval's resourceVersion: events at or below it are not sent (written by the task only). */
  taskResourceVersion = 0;
  /** What the blocked receive got, handled on the next pump. */
  private received: WatchCacheEvent<WatchObject> | typeof chanClosed | undefined = undefined;
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
  /** The event being sent while sendParked. */
  sendValue: WatchEvent = placeholderEvent;
  /** The cache event behind sendValue. */
  private sendSource: WatchCacheEvent<WatchObject> | undefined = undefined;
  private interval: CacheWatcherInterval | undefined = undefined;
  private ctx: AbortSignal | WatchContextSource | undefined = undefined;
  private ctxIsSource = false;
  private removeAbortListener: (() => void) | undefined = undefined;
  private finished: Promise<void> | undefined = undefined;
  private resolveFinished: (() => void) | undefined = undefined;

  constructor(o: CacheWatcherOptions) {
    this.input = new Channel(o.chanSize);
    this.result = new Channel(o.chanSize);
    this.filter = o.filter;
    this.forget = o.forget ?? emptyFunc;
    this.deadline = o.deadline ?? zeroTime;
    this.allowWatchBookmarks = o.allowWatchBookmarks ?? false;
    this.env = o.environment ?? {
      groupResource: o.groupResource,
      heartbeatCopy: o.heartbeatCopy,
      clock: o.clock,
      eventSink: o.eventSink,
      metrics: o.metrics,
      log: o.log,
    };
    this.identifierValue = o.identifier ?? '';
    this.id = o.id ?? this.identifier;
    this.request = o.request;
    const insp = this.activeSink();
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

  /** Implements watch.Interface. */
  resultChan(): ReceiveChannel<WatchEvent> {
    return this.result;
  }

  /** Implements watch.Interface: the client is gone; no draining. */
  stop(): void {
    this.forget(false);
  }

  /**
   * Protected by the cacher lock upstream: closes input, and done unless draining was requested.
   * Even if the watcher was already stopped, a later non-draining call closes done, so that a
   * task blocked on a full result channel after a graceful stop cannot leak.
   */
  stopLocked(): void {
    this.busy++;
    try {
      if (!this.stopped) {
        this.stopped = true;
        // Stop without draining the input channel was requested.
        if (!this.drainInputBuffer) this.closeDone();
        this.input.close();
        const insp = this.activeSink();
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

  /** Puts an event into the input buffer if there is room right now. */
  nonblockingAdd(event: WatchCacheEvent<WatchObject>): boolean {
    if (this.fastPath !== undefined && this.fastPath.add(event)) return true;
    return this.nonblockingAddToInput(event);
  }

  /** nonblockingAdd's channel part, for a fast path that has already declined the event. */
  nonblockingAddToInput(event: WatchCacheEvent<WatchObject>): boolean {
    const bookmark = event.type === 'BOOKMARK';
    // While bookmarkAfterResourceVersion has not been seen, a bookmark is tried every second:
    // drop the ones below it so that they do not pollute the input channel.
    if (bookmark && event.resourceVersion < this.bookmarkAfterResourceVersion) {
      this.dropBookmark(event, 'belowBookmarkAfterResourceVersion');
      return false;
    }
    this.busy++;
    try {
      if (!this.input.trySend(event)) {
        if (bookmark) this.dropBookmark(event, this.input.closed ? 'watcherStopped' : 'inputFull');
        return false;
      }
      this.ownCounts.queued++;
      if (bookmark) {
        const insp = this.activeSink();
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
   * Puts a (non-bookmark) event into the input buffer, waiting for room until `timer` fires; then
   * the watcher is terminated (`forget`, graceful only in BookmarkReceived) and the result is false.
   * A null timer means no waiting: terminate at once if there is no room. While the promise is
   * pending the event is a blocked sender: the first event the task takes makes room for it.
   * Bookmarks only come through nonblockingAdd (markBookmarkAfterRvAsReceived relies on it).
   */
  add(event: WatchCacheEvent<WatchObject>, timer: ChannelTimer | null): Promise<boolean> {
    // Try to send the event immediately, without blocking.
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
    // OK, block sending, but only until the timer fires.
    return new Promise<boolean>((resolve) => {
      let cancelTick: CancelWait = () => false;
      const cancelSend = this.input.waitSend(event, (sent) => {
        cancelTick();
        if (sent) this.ownCounts.queued++;
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
   * We try to send bookmarks:
   *
   * (a) right before the watcher timeout - for now we simply set it 2s before the deadline
   *
   * (b) roughly every minute
   *
   * (c) immediately when the bookmarkAfterResourceVersion wasn't confirmed: in this scenario the
   *     client has already seen (or is in the process of sending) all initial data and is
   *     interested in seeing a specific RV value (aka. the bookmarkAfterResourceVersion); since we
   *     don't know when the cacher will see the RV we increase frequency
   *
   * (b) gives us periodicity if the watch breaks due to unexpected conditions, (a) ensures that on
   * timeout the watcher is as close to now as possible - this covers 99% of cases.
   *
   * Go returns (time.Time, bool); here one number, NaN for ok=false, so that re-queueing 100k
   * watchers allocates nothing. zeroTime means "schedule immediately".
   */
  nextBookmarkTime(now: number, bookmarkFrequency: number): number {
    if (!this.wasBookmarkAfterRvReceived()) return zeroTime; // schedule immediately
    let heartbeatTime = now + bookmarkFrequency;
    // Timeout is set by our client libraries (e.g. reflector) as well as defaulted by apiserver
    // if properly configured. So this shouldn't happen in practice.
    if (this.deadline === zeroTime) return heartbeatTime;
    const pretimeoutTime = this.deadline - preTimeoutBookmarkMargin;
    if (pretimeoutTime < heartbeatTime) heartbeatTime = pretimeoutTime;
    if (heartbeatTime < now) return NaN;
    return heartbeatTime;
  }

  /** Whether this watcher has seen a bookmark event >= bookmarkAfterResourceVersion. */
  wasBookmarkAfterRvReceived(): boolean {
    return this.currentState !== CacheWatcherState.WaitingForBookmark;
  }

  /**
   * The watcher has seen a bookmark event >= bookmarkAfterResourceVersion: bookmark events are
   * scheduled by the bookmark timer, so it has converged towards the expected RV and can be
   * scheduled for regular bookmarks. The only place a watcher leaves WaitingForBookmark.
   */
  markBookmarkAfterRvAsReceived(event: WatchCacheEvent<WatchObject>): void {
    if (event.type !== 'BOOKMARK') return;
    if (this.wasBookmarkAfterRvReceived()) return;
    this.transition(CacheWatcherState.BookmarkReceived, event.resourceVersion);
  }

  /** Whether a bookmark event with an RV >= bookmarkAfterResourceVersion has been sent. */
  wasBookmarkAfterRvSent(): boolean {
    return this.currentState === CacheWatcherState.BookmarkSent;
  }

  /**
   * A bookmark event with an RV >= bookmarkAfterResourceVersion has been sent: nonblockingAdd
   * admits no bookmark below it, so the first one received is the one.
   */
  markBookmarkAfterRvSent(event: WatchCacheEvent<WatchObject>): void {
    if (event.type !== 'BOOKMARK') return;
    if (!this.wasBookmarkAfterRvSent())
      this.transition(CacheWatcherState.BookmarkSent, event.resourceVersion);
  }

  /** Sets bookmarkAfterResourceVersion and its state (0: no specific RV requested, a no-op). */
  setBookmarkAfterResourceVersion(bookmarkAfterResourceVersion: number): void {
    const state =
      bookmarkAfterResourceVersion === 0
        ? CacheWatcherState.BookmarkSent
        : CacheWatcherState.WaitingForBookmark;
    this.bookmarkAfterResourceVersion = bookmarkAfterResourceVersion;
    if (state !== this.currentState) this.transition(state, undefined);
  }

  /** true: delay closing this watcher until the events in the input buffer have been sent. */
  setDrainInputBufferLocked(drain: boolean): void {
    this.drainInputBuffer = drain;
  }

  isDoneChannelClosedLocked(): boolean {
    return this.doneClosed;
  }

  /**
   * The watch event this watcher sends for a cache event, or undefined when it wants none:
   * bookmarks are copied (and annotated as initial-events-end until one was sent); otherwise the
   * filter on the new and previous object decides ADDED / MODIFIED / DELETED.
   */
  convertToWatchEvent(event: WatchCacheEvent<WatchObject>): WatchEvent | undefined {
    if (event.type === 'BOOKMARK') {
      try {
        if (event.object === undefined) throw new Error('bookmark event without an object');
        // A heartbeat is the same for every watcher it reaches: one copy for all of them.
        const copy = this.env.heartbeatCopy;
        if (copy && this.wasBookmarkAfterRvSent() && !(event.object instanceof CachingObject))
          return copy.of(event);
        const object =
          event.object instanceof CachingObject
            ? event.object.deepCopyObject()
            : deepCopyJSON(event.object);
        if (!this.wasBookmarkAfterRvSent()) annotateInitialEventsEndBookmark(object);
        return { type: 'BOOKMARK', object };
      } catch (err) {
        this.env.log?.(
          `error while accessing object's metadata gr: ${groupResourceString(this.groupResource)}, identifier: ${this.identifier}, err: ${(err as Error).message}`,
        );
        this.dropBookmark(event, 'annotateFailed');
        return undefined;
      }
    }
    const curObjPasses =
      event.type !== 'DELETED' &&
      this.filter(event.key, event.objLabels, event.objFields, event.object);
    let oldObjPasses = false;
    if (event.prevObject !== undefined) {
      oldObjPasses = this.filter(
        event.key,
        event.prevObjLabels ?? {},
        event.prevObjFields ?? {},
        event.prevObject,
      );
    }
    // Watcher is not interested in that object.
    if (!curObjPasses && !oldObjPasses) return undefined;
    if (curObjPasses && !oldObjPasses)
      return { type: 'ADDED', object: getMutableObject(event.object as WatchObject) };
    if (curObjPasses && oldObjPasses)
      return { type: 'MODIFIED', object: getMutableObject(event.object as WatchObject) };
    // A delete event with the previous object content, but with the event's resource version.
    const oldObj = getMutableObject(event.prevObject as WatchObject);
    updateResourceVersion(oldObj, event.resourceVersion);
    return { type: 'DELETED', object: oldObj };
  }

  /**
   * Converts and sends one event (never modifying it); leaves the watcher parked as a sender when
   * the result channel is full.
   */
  private sendWatchCacheEvent(event: WatchCacheEvent<WatchObject>): void {
    const watchEvent = this.convertToWatchEvent(event);
    if (!watchEvent) {
      // Watcher is not interested in that object.
      if (event.type !== 'BOOKMARK') this.ownCounts.filtered++;
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

  /**
   * The watcher's goroutine: sends the interval's events (raising resourceVersion to the newest
   * sent, so buffered duplicates are skipped), then the initial-events-end bookmark if the interval
   * has one, then (process) every input event newer than resourceVersion (or the awaited bookmark
   * at it), until input is closed or ctx ends. On exit it calls stop() and closes the result
   * channel. Runs synchronously as far as it can; the promise settles when the task has exited.
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
      if (isWatchContextSource(ctx)) {
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

  // ---- ours: what the goroutine and the watcher's readers need

  /** What happened to the events offered to this watcher, as the watcher counted it (see counts). */
  get ownCounts(): CacheWatcherCounts {
    return (this.countsValue ??= {
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
    });
  }

  /** What happened to the events offered to this watcher (with what a fast path counted for it). */
  get counts(): CacheWatcherCounts {
    this.fastPath?.settle();
    return this.ownCounts;
  }

  get groupResource(): GroupResource {
    return this.env.groupResource;
  }

  /** Human-readable `key: "…", labels: "…", fields: "…"`, for logs (built on first use). */
  get identifier(): string {
    const v = this.identifierValue;
    if (typeof v === 'string') return v;
    return (this.identifierValue = v());
  }

  /** The bookmark state (read-only; changed only by the transition functions above). */
  get state(): CacheWatcherState {
    return this.currentState;
  }

  /** The watcher as a face shows it (CacheWatcherReport), read now. */
  report(): CacheWatcherReport {
    return {
      id: this.id,
      request: this.request,
      identifier: this.identifier,
      state: cacheWatcherStateNames[this.currentState],
      lastResourceVersion: this.taskResourceVersion,
      input: { len: this.input.len(), cap: this.input.capacity },
      result: { len: this.result.len(), cap: this.result.capacity },
      allowWatchBookmarks: this.allowWatchBookmarks,
    };
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

  /** Runs processInterval (then process) until it blocks or exits. */
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
            this.env.log?.(`couldn't retrieve watch event to serve: ${(err as Error).message}`);
            this.finishTask('intervalInvalidated', (err as Error).message);
            return;
          }
          if (event === undefined) {
            // counts.initEvents counts exactly the interval's events (apiserver_init_events_total).
            const initEvents = this.countsValue?.initEvents ?? 0;
            if (initEvents > 0) this.env.metrics?.initEventsAdd(this.groupResource, initEvents);
            this.phase = 'endBookmark';
            break;
          }
          this.sendWatchCacheEvent(event);
          // Events already sent must not come again from the input buffer (going back in time).
          if (event.resourceVersion > this.taskResourceVersion)
            this.taskResourceVersion = event.resourceVersion;
          this.ownCounts.initEvents++;
          break;
        }
        case 'endBookmark': {
          this.phase = 'live';
          const bookmark = (this.interval as CacheWatcherInterval).initialEventsEndBookmark;
          // Served: a long-lived watcher does not keep the interval (and its buffer) alive.
          this.interval = undefined;
          if (bookmark) this.sendWatchCacheEvent(bookmark);
          const insp = this.activeSink();
          if (insp)
            insp.emit({
              type: 'watcher/live',
              at: this.now(),
              watcherId: this.id,
              // Read without making the counts: a watcher from now has none to tell.
              initEvents: this.countsValue?.initEvents ?? 0,
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
          // Only events newer than resourceVersion, or a bookmark at resourceVersion if none
          // has been sent to the client yet.
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
            this.ownCounts.skippedOld++;
          }
          break;
        }
      }
    }
  }

  private afterSent(event: WatchCacheEvent<WatchObject>, watchEvent: WatchEvent): void {
    this.ownCounts.delivered++;
    if (event.type === 'BOOKMARK') {
      this.ownCounts.bookmarksDelivered++;
      const insp = this.activeSink();
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
    else this.ownCounts.droppedStopped++;
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

  /**
   * Terminates the watcher exactly as a dispatch that ran out of budget does (log line, metric,
   * graceful only in BookmarkReceived): a fault hook. False when it was already stopped.
   */
  terminate(): boolean {
    if (this.stopped) return false;
    this.closeUnresponsive('fault');
    return true;
  }

  /** add's closeFunc: the watcher could not keep up; terminate it. */
  private closeUnresponsive(cause: WatcherTerminationCause = 'blockedDispatch'): void {
    this.ownCounts.terminated++;
    this.env.metrics?.terminatedWatchersInc(this.groupResource);
    // Graceful only while the awaited bookmark sits in the input buffer: draining lets the client
    // get it and resume from that RV. Before it arrived, or after it was sent, just close.
    const graceful = this.currentState === CacheWatcherState.BookmarkReceived;
    this.env.log?.(
      `Forcing ${groupResourceString(this.groupResource)} watcher close due to unresponsiveness: ${this.identifier}. ` +
        `len(c.input) = ${this.input.len()}, len(c.result) = ${this.result.len()}, graceful = ${graceful}`,
    );
    const insp = this.activeSink();
    if (insp) {
      insp.emit({
        type: 'watcher/terminated',
        at: this.now(),
        watcherId: this.id,
        groupResource: this.groupResource,
        graceful,
        inputLen: this.input.len(),
        resultLen: this.result.len(),
        cause,
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
    const insp = this.activeSink();
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
    const insp = this.activeSink();
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
    this.ownCounts.bookmarksDropped[reason]++;
    const insp = this.activeSink();
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

  /** The event sink to emit to, or undefined when nobody listens (then no event is built at all). */
  private activeSink(): CacheWatcherEventSink | undefined {
    const insp = this.env.eventSink;
    return insp === undefined || insp.listening === false ? undefined : insp;
  }

  private now(): number {
    return this.env.clock?.now() ?? 0;
  }
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
