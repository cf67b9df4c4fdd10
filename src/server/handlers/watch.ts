// Mirrors k8s.io/apiserver pkg/endpoints/handlers/watch.go (serveWatchHandler, WatchServer.HandleHTTP)
// and response.go (watchEncoder, watchEmbeddedEncoder and their identifiers), release-1.36: a
// watch streamed to a Node http.ServerResponse as JSON event lines, Transfer-Encoding chunked,
// headers flushed at once. Each event's line is encoded once through the CachingObject for every
// watcher with the same encoding, as upstream caches whole events in the object. Deliberate
// difference: Node writes never block, so "blocked in Write" is "res.write returned false": the
// next event is taken off the result channel only after 'drain'. A client that stops reading
// thus leaves the cacher's buffer full, and the cacher terminates the watcher as upstream does.
import type { ServerResponse } from 'node:http';
import type { Clock, Timer, KubeObject } from '../../engine';
import {
  CachingObject,
  jsonSerializerIdentifier,
  marshalObjectJSON,
  versioningCodecIdentifier,
  Channel,
  chanClosed,
  chanEmpty,
  type CancelWait,
  type ChannelReceiver,
  type ReceiveChannel,
  type WatchEvent,
  type WatchEventType,
  type WatchInterface,
  goJsonMarshal,
  hasInitialEventsEndAnnotation,
} from '../../engine/http-face';
import type { NegotiatedEncoding, TableOptions } from '../negotiation';
import { groupVersionOf, type ServedResource } from '../served-resource';
import { transformObject, withTypeMeta } from '../transform-response';
import { toServedVersion } from '../custom-resource-conversion';
import { HeldHeadersResponse, type ResponseStream } from '../held-headers-response';

/** What the core hands over of an opened watch (Resource.openWatch's ServedWatch has these). */
export interface WatchToServe {
  watcher: WatchInterface;
  /**
   * The request context the watcher listens to: cancelled when the handler returns. `expired`
   * (WatchRequestContext's) tells a watcher closed by the deadline from one closed otherwise.
   */
  ctx: {
    cancel(): void;
    readonly expired?: boolean;
    /**
     * WatchRequestContext's: tells `follower` last when the context ends, as a timer armed now for
     * the same deadline would fire; false when the context cannot (ended, or followed already).
     */
    setDeadlineFollower?(follower: { contextDone(): void } | undefined): boolean;
  };
  /** The handler's timeout (timeoutSeconds, else the random minRequestTimeout-based one); 0: none. */
  timeoutMs: number;
}

/** Why the handler returned. */
export type WatchCloseReason =
  /** The watcher closed its result channel (an ERROR event's end, a termination, shutdown). */
  | 'resultClosed'
  /** The timeout passed: the response ended cleanly. */
  | 'timeout'
  /** The client went away. */
  | 'disconnected';

export interface ServeWatchOptions {
  /** The clock the timeout runs on (the resource's). */
  clock: Clock;
  served: Pick<
    ServedResource,
    | 'group'
    | 'version'
    | 'resource'
    | 'kind'
    | 'jsonOnly'
    | 'printerColumns'
    | 'openAPIV3Schema'
    | 'storageVersion'
  >;
  encoding: NegotiatedEncoding;
  /** time.Now (epoch ms) for a Table's AGE cells; default the clock's now(). */
  now?: () => number;
  /** Told of each event line written and of the end. */
  hooks?: WatchHooks;
  /** Set only on a watch a fault matched (watch-stream-faults.ts): it sees each event first. */
  fault?: WatchStreamFault;
}

/**
 * What the handler tells its caller: one object with methods, not a closure per hook (an idle
 * watch lives long and holds what it is given).
 */
export interface WatchHooks {
  /** Each event line as it is written to the client (what the client reads, in order). */
  written?(event: WrittenWatchEvent): void;
  /** Once, when the handler returns. */
  closed?(reason: WatchCloseReason): void;
}

/** A fault on one watch's stream: stall it, drop an event, cut the connection. */
export interface WatchStreamFault {
  /** The headers are out: the stream begins. */
  begin(stream: FaultedWatchStream): void;
  /** `event` is next: false when the fault took it (held, dropped, or the connection cut). */
  admit(event: WatchEvent, stream: FaultedWatchStream): boolean;
  /** The handler returned. */
  end(): void;
}

/** What a stream fault may do to its watch. */
export interface FaultedWatchStream {
  /** Events written so far. */
  readonly written: number;
  /** Writes `event` now, past the fault (held events, in order). */
  writeEvent(event: WatchEvent): void;
  /** Ends the connection after what is written: no ERROR event, no terminating chunk. */
  cut(): void;
}

/** One event line a watch wrote to its client: its type and the RV its object carries. */
export interface WrittenWatchEvent {
  type: WatchEventType;
  /** metadata.resourceVersion of the event's object (0: none, as an ERROR's Status). */
  resourceVersion: number;
  /** A BOOKMARK with the k8s.io/initial-events-end annotation: the WatchList's sync ended. */
  initialEventsEnd?: true;
}

/** The RV an event's object carries (a BOOKMARK's too); 0 when it has none. */
export function writtenResourceVersion(event: WatchEvent): number {
  const o = event.object;
  const rv =
    o instanceof CachingObject
      ? o.getResourceVersion()
      : (o as KubeObject).metadata?.resourceVersion;
  const n = Number(rv);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

const utf8 = new TextEncoder();

/** jsonCodecIdentifier's strings, one per group-version: every watch of it shares one. */
const jsonCodecIdentifiers = new Map<string, string>();

/** The JSON stream encoder's identifier for a group-version (versioning codec over json). */
function jsonCodecIdentifier(groupVersion: string): string {
  let id = jsonCodecIdentifiers.get(groupVersion);
  if (id === undefined) {
    id = versioningCodecIdentifier(groupVersion, jsonSerializerIdentifier);
    jsonCodecIdentifiers.set(groupVersion, id);
  }
  return id;
}

/**
 * watchEmbeddedEncoder + watchEncoder of one watch: the line of an event, cached in the event's
 * CachingObject under an identifier naming the event type, the target and (for Tables) whether
 * headers are written, so every watch with the same encoding shares one encode per event.
 */
export class WatchEventEncoder {
  private readonly encoderIdentifier: string;
  private readonly tableOptions: TableOptions | undefined;
  private embeddedIdentifier = '';
  /** Made at the first event (an idle watch holds none). */
  private identifiers: Map<WatchEventType, string> | undefined = undefined;
  private identifiedFor = '';

  /** The negotiated conversion (not the negotiated encoding: a long watch keeps only this). */
  private readonly convert: NegotiatedEncoding['convert'];

  constructor(
    private readonly served: ServeWatchOptions['served'],
    encoding: Pick<NegotiatedEncoding, 'convert' | 'tableOptions'>,
    /** time.Now for AGE cells: a function, or the clock itself (no closure per watch). */
    private readonly now: (() => number) | Pick<Clock, 'now'>,
  ) {
    this.convert = encoding.convert;
    this.encoderIdentifier = jsonCodecIdentifier(groupVersionOf(served));
    // The watch's own copy: NoHeaders flips after the first Table.
    this.tableOptions =
      encoding.tableOptions === undefined ? undefined : { ...encoding.tableOptions };
  }

  /** watchEmbeddedEncoder.Identifier (recomputed once NoHeaders flips). */
  private embeddedEncoderIdentifier(): string {
    if (this.embeddedIdentifier !== '') return this.embeddedIdentifier;
    const target = this.convert;
    if (target === undefined) this.embeddedIdentifier = this.encoderIdentifier;
    else {
      const id: Record<string, unknown> = {
        name: 'watch-embedded',
        encoder: jsonCodecIdentifier(`${target.group}/${target.version}`),
        target: `${target.group}/${target.version}, Kind=${target.kind}`,
        options: {},
      };
      if (target.kind === 'Table' && this.tableOptions !== undefined) {
        if (this.tableOptions.includeObject !== '')
          id.options = { includeObject: this.tableOptions.includeObject };
        if (this.tableOptions.noHeaders) id.noHeaders = true;
      }
      this.embeddedIdentifier = goJsonMarshal(id as never);
    }
    return this.embeddedIdentifier;
  }

  /** watchEncoder.identifier: per event type, reset when the embedded identifier changes. */
  private identifier(type: WatchEventType): string {
    const embedded = this.embeddedEncoderIdentifier();
    if (embedded !== this.identifiedFor || this.identifiers === undefined) {
      this.identifiedFor = embedded;
      this.identifiers = new Map();
    }
    let id = this.identifiers.get(type);
    if (id === undefined) {
      id = goJsonMarshal({
        name: 'watch',
        embeddedEncoder: embedded,
        encoder: this.encoderIdentifier,
        eventType: type,
      });
      this.identifiers.set(type, id);
    }
    return id;
  }

  /** watchEncoder.Encode: the event's line, `{"type":…,"object":…}\n`. */
  encode(event: WatchEvent): Uint8Array {
    const object = event.object;
    const encodeLine = (o: KubeObject): Uint8Array => this.doEncode(o, event.type);
    if (object instanceof CachingObject)
      return object.cacheEncode(this.identifier(event.type), encodeLine);
    return encodeLine(object);
  }

  private doEncode(stored: KubeObject, type: WatchEventType): Uint8Array {
    // A custom resource's other served versions: the event's object converted from storage's (the
    // cached line is this encoder's, whose identifier names the group-version). An ERROR event's
    // object is a metav1.Status, not a custom object: converted, it would lose its code to the
    // CRD's pruning (and a client its 410, the signal to relist).
    const object =
      this.served.storageVersion !== undefined && type !== 'ERROR'
        ? toServedVersion(stored, this.served)
        : stored;
    let embedded: unknown;
    try {
      embedded = transformObject(
        withTypeMeta(object, this.served),
        { convert: this.convert, tableOptions: this.tableOptions },
        this.served,
        typeof this.now === 'function' ? this.now() : this.now.now(),
        this.tableOptions?.noHeaders ?? false,
      );
    } catch {
      // "failed to transform object": upstream logs it and sends the object as it is.
      embedded = withTypeMeta(object, this.served);
    }
    // Headers only in the first Table: later events omit columnDefinitions.
    if (this.tableOptions !== undefined && !this.tableOptions.noHeaders) {
      this.tableOptions.noHeaders = true;
      this.embeddedIdentifier = '';
    }
    const json = marshalObjectJSON(embedded as KubeObject);
    const head = utf8.encode(`{"type":"${type}","object":`);
    const line = new Uint8Array(head.length + json.length + 2);
    line.set(head, 0);
    line.set(json, head.length);
    line[head.length + json.length] = 0x7d; // }
    line[head.length + json.length + 1] = 0x0a; // \n
    return line;
  }
}

/** The shared encoder of the watches of a resource that convert nothing, with its clock. */
const plainEncoders = new WeakMap<
  ServeWatchOptions['served'],
  { clock: Clock; encoder: WatchEventEncoder }
>();

/**
 * A watch's encoder. One that converts nothing (the object as stored: most watches) keeps nothing
 * of its own between events, so every such watch of a resource on one clock shares one, with its
 * identifiers; a conversion gets one per watch (a Table's NoHeaders flips after its first event).
 */
export function watchEventEncoderFor(o: ServeWatchOptions): WatchEventEncoder {
  const { served, encoding, clock } = o;
  if (encoding.convert !== undefined || encoding.tableOptions !== undefined || o.now !== undefined)
    return new WatchEventEncoder(served, encoding, o.now ?? clock);
  let shared = plainEncoders.get(served);
  if (shared === undefined || shared.clock !== clock) {
    shared = { clock, encoder: new WatchEventEncoder(served, encoding, clock) };
    plainEncoders.set(served, shared);
  }
  return shared.encoder;
}

/**
 * WatchServer.HandleHTTP for one watch: the loop that takes events off the watcher's result
 * channel and writes them, returning on the closed channel, the timeout or the client's
 * disconnect; then `defer watcher.Stop()` and the context's cancel, in that order. It keeps what
 * it uses of the WatchToServe and the options, not those objects (an idle watch lives long).
 */
export class WatchServer
  implements ChannelReceiver<WatchEvent>, FaultedWatchStream, ResponseStream
{
  private readonly result: ReceiveChannel<WatchEvent>;
  /** The result channel when it is a Channel (always, from the cacher): waits without closures. */
  private readonly channel: Channel<WatchEvent> | undefined;
  /** ChannelReceiver: parked on the channel, waiting for the next event. */
  recvParked = false;
  private readonly encoder: WatchEventEncoder;
  private readonly watcher: WatchInterface;
  private readonly ctx: WatchToServe['ctx'];
  private readonly fault: WatchStreamFault | undefined;
  private readonly hooks: WatchHooks | undefined;
  /**
   * The response's listeners when it is not a HeldHeadersResponse (which tells this handler
   * through listeners all responses share: see ResponseStream).
   */
  private readonly listeners: { closed(): void; drained(): void } | undefined;
  private timer: Timer | undefined;
  private cancelRecv: CancelWait | undefined;
  private waitingForDrain = false;
  /** 'drain' is listened to from the first full write on (an idle watch never has one). */
  private drainListened = false;
  private running = false;
  private closeReason: WatchCloseReason | undefined;
  /** Events written. */
  written = 0;

  constructor(
    private readonly res: ServerResponse,
    watch: WatchToServe,
    o: ServeWatchOptions,
  ) {
    this.watcher = watch.watcher;
    this.ctx = watch.ctx;
    this.fault = o.fault;
    this.hooks = o.hooks;
    this.result = watch.watcher.resultChan();
    this.channel = this.result instanceof Channel ? this.result : undefined;
    this.encoder = watchEventEncoderFor(o);
    if (res instanceof HeldHeadersResponse) {
      this.listeners = undefined;
      res.carry(this);
    } else {
      const listeners = {
        closed: (): void => this.responseClosed(),
        drained: (): void => this.responseDrained(),
      };
      this.listeners = listeners;
      res.on('close', listeners.closed);
      // A failed write means the client is gone; never an unhandled 'error'.
      res.on('error', listeners.closed);
    }
    // Gone while the watch was being opened: 'close' has been and will not come again.
    if (res.destroyed || res.socket === null || res.socket.destroyed) {
      this.finish('disconnected');
      return;
    }
    // The handler's timeout is the context's deadline (openWatch makes both of one timeoutMs): the
    // context's timer tells this handler after everything else it ends, as a second timer armed
    // now would fire; one timer per watch, not two (an idle watch holds little else).
    if (watch.timeoutMs > 0 && watch.ctx.setDeadlineFollower?.(this) !== true)
      this.timer = o.clock.afterFunc(watch.timeoutMs, () => this.finish('timeout'));
    // Begin the stream: headers out before the first event (kubectl logs nothing until then).
    res.writeHead(200, { 'Content-Type': o.encoding.contentType, 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    if (res instanceof HeldHeadersResponse) res.forgetSentHeader();
    o.fault?.begin(this);
    this.pump();
  }

  /** Why the handler returned; undefined while it serves. */
  get closed(): WatchCloseReason | undefined {
    return this.closeReason;
  }

  /** The context's deadline passed (as its follower): the timeout. */
  contextDone(): void {
    this.finish('timeout');
  }

  /** ResponseStream: 'close' or 'error', the client is gone. */
  responseClosed(): void {
    this.finish('disconnected');
  }

  /** ResponseStream: 'drain'. */
  responseDrained(): void {
    if (!this.waitingForDrain) return;
    this.waitingForDrain = false;
    this.pump();
  }

  /** Writes what the channel holds until it is empty (then waits), the socket is full, or the end. */
  private pump(): void {
    if (this.running) return;
    this.running = true;
    try {
      while (this.closeReason === undefined && !this.waitingForDrain) {
        const ch = this.channel;
        if (ch !== undefined) {
          const v = ch.poll();
          if (v === chanEmpty) {
            ch.parkRecv(this);
            return;
          }
          if (v === chanClosed) {
            this.finish('resultClosed');
            return;
          }
          this.write(v);
          continue;
        }
        const r = this.result.tryRecv();
        if (r === undefined) {
          this.cancelRecv = this.result.waitRecv((received) => {
            this.cancelRecv = undefined;
            if (this.closeReason !== undefined) return;
            if (!received.ok) this.finish('resultClosed');
            else {
              this.write(received.value as WatchEvent);
              this.pump();
            }
          });
          return;
        }
        if (!r.ok) {
          this.finish('resultClosed');
          return;
        }
        this.write(r.value as WatchEvent);
      }
    } finally {
      this.running = false;
    }
  }

  /** ChannelReceiver: the parked wait got an event, or the closed channel. */
  onReceive(value: WatchEvent | undefined, ok: boolean): void {
    if (this.closeReason !== undefined) return;
    if (!ok) this.finish('resultClosed');
    else {
      this.write(value as WatchEvent);
      this.pump();
    }
  }

  private write(event: WatchEvent): void {
    const fault = this.fault;
    if (fault !== undefined && !fault.admit(event, this)) return;
    this.writeEvent(event);
  }

  writeEvent(event: WatchEvent): void {
    if (this.closeReason !== undefined) return;
    const line = this.encoder.encode(event);
    this.written++;
    const drained = this.res.write(line);
    if (this.hooks?.written) {
      const written: WrittenWatchEvent = {
        type: event.type,
        resourceVersion: writtenResourceVersion(event),
      };
      if (event.type === 'BOOKMARK' && hasInitialEventsEndAnnotation(event.object))
        written.initialEventsEnd = true;
      this.hooks.written(written);
    }
    if (!drained) {
      this.waitingForDrain = true;
      if (!this.drainListened) {
        this.drainListened = true;
        if (this.listeners !== undefined) this.res.on('drain', this.listeners.drained);
        else (this.res as HeldHeadersResponse).listenDrain();
      }
    }
  }

  cut(): void {
    // Half-closed after the buffered writes: the client reads EOF inside the chunked body.
    this.res.socket?.end();
  }

  private finish(closedBy: WatchCloseReason): void {
    if (this.closeReason !== undefined) return;
    // The deadline ends the watcher and this handler at the same instant; whichever is seen
    // first (upstream's select picks either), the watch ended at its timeout.
    const reason = closedBy === 'resultClosed' && this.ctx.expired === true ? 'timeout' : closedBy;
    this.closeReason = reason;
    this.timer?.stop();
    this.ctx.setDeadlineFollower?.(undefined);
    if (this.recvParked) this.channel?.cancelRecv(this);
    this.cancelRecv?.();
    this.cancelRecv = undefined;
    const listeners = this.listeners;
    if (listeners === undefined) (this.res as HeldHeadersResponse).release();
    else {
      this.res.off('drain', listeners.drained);
      this.res.off('close', listeners.closed);
      this.res.off('error', listeners.closed);
    }
    this.watcher.stop();
    this.ctx.cancel();
    this.fault?.end();
    // The chunked response ends with its terminating chunk (after what is still buffered).
    if (reason !== 'disconnected') this.res.end();
    this.hooks?.closed?.(reason);
  }
}

/**
 * serveWatch: streams `watch` to `res` until the watcher closes, the timeout passes or the client
 * goes away; a vanished client leaves no watcher behind.
 */
export function serveWatch(
  res: ServerResponse,
  watch: WatchToServe,
  o: ServeWatchOptions,
): WatchServer {
  return new WatchServer(res, watch, o);
}
