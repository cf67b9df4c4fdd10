// Models k8s.io/apiserver pkg/endpoints/handlers/get.go handleWatch (the request context with its
// timeout, `defer watcher.Stop()`) and watch.go WatchServer.HandleHTTP (the loop that reads the
// result channel and writes each event), release-1.36, together with the client at the other end.
// Deliberate difference: the network is a read rate in virtual time. A slow client makes the
// handler spend 1000/N ms writing each event; a stalled one keeps it blocked in a write forever
// (so, as upstream, it notices neither its timeout nor a closed watcher until the client goes).

import type { Clock, Timer } from '../clock';
import type { KubeObject } from '../storage/objects';
import { CachingObject } from './caching-object';
import type { WatchEvent, WatchInterface } from './cache-watcher';
import { contentTypeJSON, contentTypeProtobuf, encodeObject, newJSONEncoder, newProtobufEncoder, type ObjectEncoder } from './object-encoders';

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
 * The watch request's context: context.WithTimeout(ctx, timeout) of handleWatch. Its signal is
 * what the cacher hands to processInterval; it is cancelled at the deadline, or earlier when the
 * handler returns.
 */
export class WatchRequestContext {
  readonly controller = new AbortController();
  /** Clock ms of the deadline (ctx.Deadline()): the watcher's deadline. */
  readonly deadline: number;
  private readonly timer: Timer;

  constructor(clock: Clock, timeoutMs: number) {
    if (!(timeoutMs >= 0)) throw new RangeError(`WatchRequestContext: timeoutMs must be >= 0, got ${timeoutMs}`);
    this.deadline = clock.now() + timeoutMs;
    this.timer = clock.afterFunc(timeoutMs, () => this.cancel());
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get done(): boolean {
    return this.controller.signal.aborted;
  }

  cancel(): void {
    this.timer.stop();
    if (!this.controller.signal.aborted) this.controller.abort();
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
export class WatchClient {
  readonly events: ClientWatchEvent[] = [];
  /** Events taken off the result channel. */
  received = 0;
  /** Bytes of encoded objects (0 unless a content type is set). */
  bytesEncoded = 0;
  /** Why the handler returned; undefined while it runs. */
  closeReason: WatchClientCloseReason | undefined;
  /** Settles when the handler has returned. */
  readonly finished: Promise<WatchClientCloseReason>;

  private readonly watcher: WatchInterface;
  private readonly clock: Clock;
  private readonly ctx: WatchRequestContext | undefined;
  private readonly encoder: ObjectEncoder | undefined;
  private readonly keepEvents: boolean;
  private readonly onEvent: ((event: ClientWatchEvent) => void) | undefined;
  private readonly onClose: ((reason: WatchClientCloseReason, at: number) => void) | undefined;
  private rate: ReadRate;
  private timeoutFired = false;
  private timeoutTimer: Timer | undefined;
  /** The handler is in its select (not writing). */
  private cancelRecv: (() => boolean) | undefined;
  /** Ends the current write early (a disconnect). */
  private writeTimer: Timer | undefined;
  private writing = false;
  private running = false;
  private resolveFinished: (reason: WatchClientCloseReason) => void = () => undefined;

  constructor(watcher: WatchInterface, o: WatchClientOptions) {
    this.watcher = watcher;
    this.clock = o.clock;
    this.ctx = o.ctx;
    this.rate = o.readRate ?? fastReader;
    validateRate(this.rate);
    this.keepEvents = o.keepEvents ?? true;
    this.onEvent = o.onEvent;
    this.onClose = o.onClose;
    const gv = o.groupVersion ?? 'v1';
    this.encoder = o.contentType === undefined ? undefined : o.contentType === contentTypeProtobuf ? newProtobufEncoder(gv) : newJSONEncoder(gv);
    this.finished = new Promise(resolve => {
      this.resolveFinished = resolve;
    });
    const timeoutMs = o.timeoutMs ?? (this.ctx ? this.ctx.deadline - this.clock.now() : undefined);
    if (timeoutMs !== undefined) {
      this.timeoutTimer = this.clock.afterFunc(timeoutMs, () => {
        this.timeoutFired = true;
        // Seen only by a handler waiting in its select; a writing one sees it after the write.
        if (this.cancelRecv && this.cancelRecv()) {
          this.cancelRecv = undefined;
          this.loop();
        }
      });
    }
    if (this.rate.kind === 'stalled') this.writing = true;
    else this.loop();
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
    if (wasStalled && rate.kind !== 'stalled' && this.writing && this.writeTimer === undefined) {
      this.writing = false;
      this.loop();
    }
  }

  /** The client goes away: a blocked write fails, a waiting handler returns. */
  disconnect(): void {
    if (this.closed) return;
    this.cancelRecv?.();
    this.cancelRecv = undefined;
    this.writeTimer?.stop();
    this.writeTimer = undefined;
    this.writing = false;
    this.finish('disconnected');
  }

  /** The handler's select loop: runs until it waits, writes, or returns. */
  private loop(): void {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.closed && !this.writing && this.cancelRecv === undefined) {
        if (this.timeoutFired) {
          this.finish('timeout');
          return;
        }
        const r = this.watcher.resultChan().tryRecv();
        if (r === undefined) {
          // Nothing there: wait for an event (or the timeout / a disconnect).
          this.cancelRecv = this.watcher.resultChan().waitRecv(res => {
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
    this.received++;
    const at = this.clock.now();
    const object = event.object instanceof CachingObject ? event.object.peekObject() : event.object;
    if (this.encoder) this.bytesEncoded += encodeObject(this.encoder, event.object).length;
    if (this.keepEvents || this.onEvent) {
      const e: ClientWatchEvent = { type: event.type, object, resourceVersion: object.metadata?.resourceVersion ?? '', at };
      if (this.keepEvents) this.events.push(e);
      this.onEvent?.(e);
    }
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

  private finish(reason: WatchClientCloseReason): void {
    if (this.closed) return;
    this.closeReason = reason;
    this.timeoutTimer?.stop();
    // Deferred upstream in this order: watcher.Stop(), then the context's cancel.
    this.watcher.stop();
    this.ctx?.cancel();
    this.onClose?.(reason, this.clock.now());
    this.resolveFinished(reason);
  }
}

function validateRate(rate: ReadRate): void {
  if (rate.kind === 'slow' && !(rate.eventsPerSecond > 0 && Number.isFinite(rate.eventsPerSecond))) {
    throw new RangeError(`readRate: eventsPerSecond must be a positive number, got ${rate.eventsPerSecond}`);
  }
}
