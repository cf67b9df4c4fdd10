// Models k8s.io/apiserver pkg/endpoints/handlers/get.go handleWatch (the request context with its
// timeout, `defer watcher.Stop()`) and watch.go WatchServer.HandleHTTP (the loop that reads the
// result channel and writes each event), release-1.36, together with the client at the other end.
// Deliberate difference: the network is a read rate in virtual time. A slow client makes the
// handler spend 1000/N ms writing each event; a stalled one keeps it blocked in a write forever
// (so, as upstream, it notices neither its timeout nor a closed watcher until the client goes).

import { afterCall, type Clock, type Timer, type TimerTarget } from '../clock';
import type { KubeObject } from '../storage/objects';
import { CachingObject } from '../cacher/caching-object';
import { Channel, chanClosed, chanEmpty } from '../cacher/channel';
import type { ContextDoneListener, WatchContextSource } from '../cacher/context-done';
import type { InPlaceClient } from '../cacher/in-place-delivery';
import {
  contentTypeJSON,
  contentTypeProtobuf,
  encodeObject,
  sharedEncoder,
  type ObjectEncoder,
} from '../cacher/object-encoders';
import type { ReceiveChannel, WatchEvent, WatchInterface } from '../cacher/watch';

/** How fast the client takes events off the connection. */
export type ReadRate =
  /** Reads as soon as an event is there: the result channel never fills. */
  | { kind: 'fast' }
  /** Each write takes 1000/eventsPerSecond ms of virtual time. */
  | { kind: 'slow'; eventsPerSecond: number }
  /** Never reads: the handler is stuck in its first write. */
  | { kind: 'stalled' };

export const fastReader: ReadRate = { kind: 'fast' };

/** The media types a watch negotiates. */
export type WatchContentType = typeof contentTypeJSON | typeof contentTypeProtobuf;

/** Why the handler returned. */
export type WatchClientCloseReason =
  /** The watcher closed its result channel. */
  | 'resultClosed'
  /** The handler's timeout fired (timeoutSeconds, or the random minRequestTimeout-based one). */
  | 'timeout'
  /** The client went away (its connection closed, the request context ended). */
  | 'disconnected';

/**
 * The watch request's context: context.WithTimeout(ctx, timeout) of handleWatch. It is cancelled
 * at the deadline, or earlier when the handler returns. The cacher's watcher listens for that
 * through addDoneListener; `signal` (an AbortSignal, made on first use) serves everyone else.
 */
export class WatchRequestContext implements WatchContextSource, TimerTarget {
  /** Clock ms of the deadline (ctx.Deadline()): the watcher's deadline. */
  readonly deadline: number;
  private readonly timer: Timer;
  private abortController: AbortController | undefined = undefined;
  private isDone = false;
  private hasExpired = false;
  // Usually exactly one listener (the watcher): no array unless there are more.
  private listener: ContextDoneListener | undefined = undefined;
  private moreListeners: ContextDoneListener[] | undefined = undefined;
  /** The handler whose own timeout is this deadline: told last, after everything the end caused. */
  private follower: ContextDoneListener | undefined = undefined;

  constructor(clock: Clock, timeoutMs: number) {
    if (!(timeoutMs >= 0))
      throw new RangeError(`WatchRequestContext: timeoutMs must be >= 0, got ${timeoutMs}`);
    this.deadline = clock.now() + timeoutMs;
    this.timer = afterCall(clock, timeoutMs, this);
  }

  /** TimerTarget: the deadline passed. */
  onTimer(): void {
    this.expire();
  }

  /** True when the context ended because its deadline passed (not cancelled earlier). */
  get expired(): boolean {
    return this.hasExpired;
  }

  /** The context as an AbortController (created on first use, aborted if the context already ended). */
  get controller(): AbortController {
    if (this.abortController === undefined) {
      this.abortController = new AbortController();
      if (this.isDone) this.abortController.abort();
    }
    return this.abortController;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get done(): boolean {
    return this.isDone;
  }

  /** Calls listener.contextDone() once the context ends (not if it already has). */
  addDoneListener(listener: ContextDoneListener): void {
    if (this.isDone) return;
    if (this.listener === undefined && this.moreListeners === undefined) this.listener = listener;
    else (this.moreListeners ??= this.listener ? [this.listener] : []).push(listener);
    if (this.moreListeners !== undefined) this.listener = undefined;
  }

  /**
   * A handler timing out at this deadline (WatchClient): told after the listeners and the signal,
   * as its own timer due at the same instant but armed later would fire.
   */
  setDeadlineFollower(follower: ContextDoneListener | undefined): boolean {
    if (
      follower !== undefined &&
      (this.isDone || (this.follower !== undefined && this.follower !== follower))
    )
      return false;
    this.follower = follower;
    return true;
  }

  removeDoneListener(listener: ContextDoneListener): void {
    if (this.listener === listener) this.listener = undefined;
    else if (this.moreListeners !== undefined) {
      const i = this.moreListeners.indexOf(listener);
      if (i >= 0) this.moreListeners.splice(i, 1);
    }
  }

  /** The deadline timer fired. */
  private expire(): void {
    if (!this.isDone) this.hasExpired = true;
    this.cancel();
  }

  cancel(): void {
    this.timer.stop();
    if (this.isDone) return;
    this.isDone = true;
    const one = this.listener;
    const more = this.moreListeners;
    this.listener = undefined;
    this.moreListeners = undefined;
    one?.contextDone();
    if (more !== undefined) for (const l of more) l.contextDone();
    this.abortController?.abort();
    const follower = this.follower;
    this.follower = undefined;
    follower?.contextDone();
  }
}

/** One event as the client got it. */
export interface ClientWatchEvent {
  type: WatchEvent['type'];
  /** The object as sent (a CachingObject's current content, not a copy: read-only). */
  object: KubeObject;
  /** metadata.resourceVersion of the object. */
  resourceVersion: string;
  /** Clock ms when the handler took it from the result channel. */
  at: number;
}

export interface WatchClientOptions {
  clock: Clock;
  readRate?: ReadRate;
  /** The handler's own timeout (TimeoutFactory.TimeoutCh); default: until the context's deadline. */
  timeoutMs?: number;
  /** The request context: cancelled when the handler returns. */
  ctx?: WatchRequestContext;
  /** Encode each object as this media type through CachingObject.cacheEncode (default: no encoding). */
  contentType?: WatchContentType;
  /** Group-version the objects are encoded for (default "v1"). */
  groupVersion?: string;
  /** Keep every received event in `events` (default true; benchmarks turn it off). */
  keepEvents?: boolean;
  /** Called for every event the handler takes. */
  onEvent?: (event: ClientWatchEvent) => void;
  /** Called once when the handler returns. */
  onClose?: (reason: WatchClientCloseReason, at: number) => void;
}

/**
 * The handler + client of one watch: takes events from the watcher's result channel at the
 * client's pace, and on return stops the watcher and cancels the request context (in that order,
 * as the deferred calls run upstream).
 */
export class WatchClient implements InPlaceClient, ContextDoneListener {
  /** Every event taken (when keepEvents; otherwise always empty). */
  readonly events: ClientWatchEvent[];
  /** Events taken off the result channel (besides those still to be credited by the watcher). */
  private receivedOwn = 0;
  /** Bytes of encoded objects (likewise). */
  private bytesOwn = 0;
  /** The newest resourceVersion among the events taken, ERROR events aside (likewise). */
  private lastRvOwn = 0;
  /** The object of the first ERROR event taken (a Status), if any. */
  firstError: KubeObject | undefined = undefined;
  /** Why the handler returned; undefined while it runs. */
  closeReason: WatchClientCloseReason | undefined;
  /** ChannelReceiver plumbing: the handler is parked in its select (not writing). */
  recvParked = false;
  /** InPlaceClient: the watcher's fast path, when it counts deliveries for this client. */
  inPlaceSource: { settle(): void } | undefined = undefined;

  private readonly watcher: WatchInterface;
  private readonly result: ReceiveChannel<WatchEvent>;
  /** The result channel when it is a Channel (always, from the cacher): waits without closures. */
  private readonly channel: Channel<WatchEvent> | undefined;
  private readonly clock: Clock;
  private readonly ctx: WatchRequestContext | undefined;
  private readonly encoder: ObjectEncoder | undefined;
  private readonly keepEvents: boolean;
  private readonly onEvent: ((event: ClientWatchEvent) => void) | undefined;
  private readonly onClose: ((reason: WatchClientCloseReason, at: number) => void) | undefined;
  private rate: ReadRate;
  private timeoutFired = false;
  private timeoutTimer: Timer | undefined;
  /** The handler's timeout is the context's deadline: heard through the context, no timer of its own. */
  private timeoutViaCtx = false;
  /** Waiting through a closure-based waitRecv (a result channel that is not a Channel). */
  private cancelRecv: (() => boolean) | undefined;
  /** Ends the current write early (a disconnect). */
  private writeTimer: Timer | undefined;
  private writing = false;
  private running = false;
  private finishedPromise: Promise<WatchClientCloseReason> | undefined;
  private resolveFinished: ((reason: WatchClientCloseReason) => void) | undefined;

  constructor(watcher: WatchInterface, o: WatchClientOptions) {
    this.watcher = watcher;
    this.result = watcher.resultChan();
    this.channel = this.result instanceof Channel ? this.result : undefined;
    this.clock = o.clock;
    this.ctx = o.ctx;
    this.rate = o.readRate ?? fastReader;
    validateRate(this.rate);
    this.keepEvents = o.keepEvents ?? true;
    this.events = this.keepEvents ? [] : noEvents;
    this.onEvent = o.onEvent;
    this.onClose = o.onClose;
    const gv = o.groupVersion ?? 'v1';
    // One encoder per content type and group-version for all clients (same identifier, same output).
    this.encoder =
      o.contentType === undefined
        ? undefined
        : sharedEncoder(
            o.contentType === contentTypeProtobuf ? contentTypeProtobuf : contentTypeJSON,
            gv,
          );
    if (o.timeoutMs === undefined && this.ctx !== undefined && this.ctx.setDeadlineFollower(this)) {
      // The deadline timer is the context's: this handler's timeout follows everything the
      // context's end causes, as its own timer (same due, armed later) would.
      this.timeoutViaCtx = true;
    } else {
      const timeoutMs =
        o.timeoutMs ?? (this.ctx ? this.ctx.deadline - this.clock.now() : undefined);
      if (timeoutMs !== undefined) this.armTimeout(timeoutMs);
    }
    if (this.rate.kind === 'stalled') this.writing = true;
    else this.loop();
  }

  /** Events taken off the result channel. */
  get received(): number {
    this.inPlaceSource?.settle();
    return this.receivedOwn;
  }

  /** Bytes of encoded objects (0 unless a content type is set). */
  get bytesEncoded(): number {
    this.inPlaceSource?.settle();
    return this.bytesOwn;
  }

  /** InPlaceClient: what the client encodes with. */
  get directEncoder(): ObjectEncoder | undefined {
    return this.encoder;
  }

  /** InPlaceClient: nothing but counting is needed per event when none are kept (onEvent rules out taking them in place). */
  get directCounts(): boolean {
    return !this.keepEvents;
  }

  /** The newest metadata.resourceVersion among the events taken (bookmarks included, ERROR events not); 0 before any. */
  get lastResourceVersion(): number {
    this.inPlaceSource?.settle();
    return this.lastRvOwn;
  }

  /** InPlaceClient: deliveries the watcher made in place, credited in bulk; `lastRv` is the newest of them. */
  addDirect(events: number, bytes: number, lastRv: number): void {
    this.receivedOwn += events;
    this.bytesOwn += bytes;
    if (lastRv > this.lastRvOwn) this.lastRvOwn = lastRv;
  }

  /** Settles when the handler has returned. */
  get finished(): Promise<WatchClientCloseReason> {
    // Made on demand: most callers never wait for it.
    if (this.finishedPromise === undefined) {
      const reason = this.closeReason;
      if (reason !== undefined) this.finishedPromise = Promise.resolve(reason);
      else {
        this.finishedPromise = new Promise((resolve) => {
          this.resolveFinished = resolve;
        });
      }
    }
    return this.finishedPromise;
  }

  /** The serializer identifier objects are encoded with (CachingObject cache key), if any. */
  get identifier(): string | undefined {
    return this.encoder?.identifier;
  }

  get closed(): boolean {
    return this.closeReason !== undefined;
  }

  get readRate(): ReadRate {
    return this.rate;
  }

  /** Changes the pace from the next read on; a stalled client that speeds up finishes its write now. */
  setReadRate(rate: ReadRate): void {
    validateRate(rate);
    const wasStalled = this.rate.kind === 'stalled';
    this.rate = rate;
    if (this.closed) return;
    if (this.recvParked) {
      // Waits again, so that whoever acts on who waits (in-place-delivery.ts) sees the new pace.
      const ch = this.channel as Channel<WatchEvent>;
      ch.cancelRecv(this);
      ch.parkRecv(this);
    }
    if (wasStalled && rate.kind !== 'stalled' && this.writing && this.writeTimer === undefined) {
      this.writing = false;
      this.loop();
    }
  }

  /** The client goes away: a blocked write fails, a waiting handler returns. */
  disconnect(): void {
    if (this.closed) return;
    this.cancelWait();
    this.writeTimer?.stop();
    this.writeTimer = undefined;
    this.writing = false;
    this.finish('disconnected');
  }

  /** ContextDoneListener: the request context ended; at its deadline that is this handler's timeout. */
  contextDone(): void {
    if (!this.timeoutViaCtx) return;
    this.timeoutViaCtx = false;
    const ctx = this.ctx as WatchRequestContext;
    // Cancelled before the deadline (not by this handler): the timeout is still to come.
    if (!ctx.expired) this.armTimeout(ctx.deadline - this.clock.now());
    else this.timeout();
  }

  private armTimeout(timeoutMs: number): void {
    this.timeoutTimer = this.clock.afterFunc(timeoutMs, () => this.timeout());
  }

  /** The handler's timeout fired. */
  private timeout(): void {
    this.timeoutFired = true;
    // Seen only by a handler waiting in its select; a writing one sees it after the write.
    if (this.cancelWait()) this.loop();
  }

  /** ChannelReceiver: the parked select got an event (or the closed channel). */
  onReceive(value: WatchEvent | undefined, ok: boolean): void {
    this.handle(ok ? (value as WatchEvent) : undefined);
    this.loop();
  }

  /**
   * InPlaceClient: a fast client without a per-event callback, parked in its select, writes an
   * event at once and is back in the select: the watcher may hand it over in place. Asked as it
   * parks (from loop, which is about to return), and again when setReadRate re-parks it.
   */
  canAcceptParked(): boolean {
    return (
      this.rate.kind === 'fast' &&
      this.onEvent === undefined &&
      !this.timeoutFired &&
      this.closeReason === undefined
    );
  }

  /** InPlaceClient: handle() for such a client; its loop would then poll the empty channel and park again. */
  acceptParked(event: WatchEvent): void {
    this.take(event);
  }

  /** Withdraws the handler's wait for an event; true when it was waiting. */
  private cancelWait(): boolean {
    if (this.recvParked) return (this.channel as Channel<WatchEvent>).cancelRecv(this);
    const cancel = this.cancelRecv;
    if (cancel === undefined) return false;
    this.cancelRecv = undefined;
    return cancel();
  }

  private waiting(): boolean {
    return this.recvParked || this.cancelRecv !== undefined;
  }

  /** The handler's select loop: runs until it waits, writes, or returns. */
  private loop(): void {
    if (this.running) return;
    this.running = true;
    try {
      const ch = this.channel;
      while (!this.closed && !this.writing && !this.waiting()) {
        if (this.timeoutFired) {
          this.finish('timeout');
          return;
        }
        if (ch !== undefined) {
          const v = ch.poll();
          if (v === chanEmpty) {
            // Nothing there: wait for an event (or the timeout / a disconnect).
            ch.parkRecv(this);
            return;
          }
          this.handle(v === chanClosed ? undefined : v);
          continue;
        }
        const r = this.result.tryRecv();
        if (r === undefined) {
          this.cancelRecv = this.result.waitRecv((res) => {
            this.cancelRecv = undefined;
            this.handle(res.ok ? (res.value as WatchEvent) : undefined);
            this.loop();
          });
          return;
        }
        this.handle(r.ok ? (r.value as WatchEvent) : undefined);
      }
    } finally {
      this.running = false;
    }
  }

  /** One select outcome: an event (write it at the client's pace) or the closed channel. */
  private handle(event: WatchEvent | undefined): void {
    if (event === undefined) {
      this.finish('resultClosed');
      return;
    }
    this.take(event);
    if (this.rate.kind === 'fast') return;
    this.writing = true;
    if (this.rate.kind === 'stalled') return; // blocked in this write until the client goes
    this.writeTimer = this.clock.afterFunc(1000 / this.rate.eventsPerSecond, () => {
      this.writeTimer = undefined;
      if (this.rate.kind === 'stalled') return; // slowed down to a stall mid-write
      this.writing = false;
      this.loop();
    });
  }

  /** The handler writes one event: counted, encoded, kept and handed to onEvent as asked. */
  private take(event: WatchEvent): void {
    this.receivedOwn++;
    const encoder = this.encoder;
    if (encoder !== undefined) this.bytesOwn += encodeObject(encoder, event.object).length;
    // The object as sent (a CachingObject's current content, not a copy: read-only).
    const object = event.object instanceof CachingObject ? event.object.peekObject() : event.object;
    const resourceVersion = object.metadata?.resourceVersion ?? '';
    if (event.type === 'ERROR') this.firstError ??= object;
    else {
      const rv = Number(resourceVersion);
      if (rv > this.lastRvOwn) this.lastRvOwn = rv;
    }
    if (!this.keepEvents && this.onEvent === undefined) return;
    const e: ClientWatchEvent = { type: event.type, object, resourceVersion, at: this.clock.now() };
    if (this.keepEvents) this.events.push(e);
    this.onEvent?.(e);
  }

  private finish(reason: WatchClientCloseReason): void {
    if (this.closed) return;
    this.closeReason = reason;
    this.timeoutTimer?.stop();
    if (this.timeoutViaCtx) {
      this.timeoutViaCtx = false;
      this.ctx?.setDeadlineFollower(undefined);
    }
    // Deferred upstream in this order: watcher.Stop(), then the context's cancel.
    this.watcher.stop();
    this.ctx?.cancel();
    this.onClose?.(reason, this.clock.now());
    const resolve = this.resolveFinished;
    this.resolveFinished = undefined;
    resolve?.(reason);
  }
}

/** The events of every client that keeps none: one frozen empty array for all of them. */
const noEvents: ClientWatchEvent[] = Object.freeze([]) as unknown as ClientWatchEvent[];

function validateRate(rate: ReadRate): void {
  if (
    rate.kind === 'slow' &&
    !(rate.eventsPerSecond > 0 && Number.isFinite(rate.eventsPerSecond))
  ) {
    throw new RangeError(
      `readRate: eventsPerSecond must be a positive number, got ${rate.eventsPerSecond}`,
    );
  }
}
