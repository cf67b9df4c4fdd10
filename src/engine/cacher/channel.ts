// Mirrors Go's channel semantics (runtime/chan.go) and *time.Timer as the cacher uses them.
// Deliberate differences: no goroutines; a blocked sender or receiver is a callback registered on
// the channel and called synchronously by the operation that unblocks it, so a run is fully
// deterministic. Sending on a closed channel reports failure instead of panicking. One hook beyond
// Go: an owner can be told who waits alone on the channel (ReceiverListener).

import type { Clock, Timer } from '../clock';

/** The result of a receive: `ok` is false once the channel is closed and drained (Go's `v, ok := <-ch`). */
export interface Received<T> {
  value: T | undefined;
  ok: boolean;
}

/** Withdraws a blocked operation (the losing case of a select); true when it was still pending. */
export type CancelWait = () => boolean;

/** What `poll` returns when a receive would block. */
export const chanEmpty: unique symbol = Symbol('chan-empty');
/** What `poll` returns once the channel is closed and drained. */
export const chanClosed: unique symbol = Symbol('chan-closed');

/**
 * A blocked receiver that can be parked again and again without allocating (a task's long-lived
 * select). `recvParked` is true while it waits; the channel clears it before calling onReceive.
 */
export interface ChannelReceiver<T> {
  recvParked: boolean;
  /** The receive completed: a value (ok) or the closed channel (ok=false). */
  onReceive(value: T | undefined, ok: boolean): void;
}

/**
 * Told whenever the receiver waiting alone on a channel changes: one parks on the empty channel,
 * or the one waiting is taken, withdraws, gets company, or the channel closes (undefined: nobody,
 * or more than one, waits). An owner that acts on who waits keeps it in mind instead of asking.
 * A receiver taken by a send is told of when the send is done (if it waits again by then, as a
 * fast reader does, nothing changed).
 */
export interface ReceiverListener {
  receiverChanged(channel: Channel<never>, receiver: ChannelReceiver<never> | undefined): void;
}

/** A blocked sender that can be parked without a closure; `sendParked` as for receivers. */
export interface ChannelSender<T> {
  sendParked: boolean;
  /** The value being sent. */
  readonly sendValue: T;
  /** The send completed (true) or failed because the channel was closed (false). */
  onSent(ok: boolean): void;
}

// The closure-based waits of the public API, as parked waiters.
class ClosureReceiver<T> implements ChannelReceiver<T> {
  recvParked = true;
  constructor(private readonly onDone: (received: Received<T>) => void) {}
  onReceive(value: T | undefined, ok: boolean): void {
    this.onDone({ value, ok });
  }
}

class ClosureSender<T> implements ChannelSender<T> {
  sendParked = true;
  constructor(
    readonly sendValue: T,
    private readonly onDone: (sent: boolean) => void,
  ) {}
  onSent(ok: boolean): void {
    this.onDone(ok);
  }
}

const noCancel: CancelWait = () => false;

/**
 * A Go channel of capacity `capacity` (0 = unbuffered: a send succeeds only into a waiting
 * receiver). FIFO for values, blocked senders and blocked receivers, as in Go. The buffer and the
 * waiter queues cost nothing until used: the first waiter of each kind sits in a field, more (rare:
 * several goroutines blocked on one channel) in an array made on demand; an idle watcher's two
 * channels are a few words each.
 */
export class Channel<T> {
  readonly capacity: number;
  private buf: T[] | undefined = undefined;
  private recvHead: ChannelReceiver<T> | undefined = undefined;
  private recvRest: ChannelReceiver<T>[] | undefined = undefined;
  private sendHead: ChannelSender<T> | undefined = undefined;
  private sendRest: ChannelSender<T>[] | undefined = undefined;
  private isClosed = false;
  /** Told who waits alone (see ReceiverListener); `lone` is what it was told last. */
  receiverListener: ReceiverListener | undefined = undefined;
  private lone: ChannelReceiver<T> | undefined = undefined;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`channel capacity must be a non-negative integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** Buffered values (Go's len(ch)). */
  len(): number {
    return this.buf === undefined ? 0 : this.buf.length;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** True while some receiver is blocked on the channel (an unbuffered send would succeed). */
  hasWaitingReceiver(): boolean {
    if (this.recvHead !== undefined && this.recvHead.recvParked) return true;
    return this.recvRest !== undefined && this.recvRest.some((r) => r.recvParked);
  }

  /** True while some sender is blocked on the channel. */
  hasWaitingSender(): boolean {
    if (this.sendHead !== undefined && this.sendHead.sendParked) return true;
    return this.sendRest !== undefined && this.sendRest.some((s) => s.sendParked);
  }

  /** `select { case ch <- v: return true; default: return false }`; false on a closed channel. */
  trySend(value: T): boolean {
    if (this.isClosed) return false;
    const r = this.takeReceiver();
    if (r !== undefined) {
      r.onReceive(value, true);
      // Told once the receive is done: a receiver that took the value and waits again is no change.
      this.receiversChanged();
      return true;
    }
    if (this.capacity > 0) {
      const buf = (this.buf ??= []);
      if (buf.length < this.capacity) {
        buf.push(value);
        return true;
      }
    }
    return false;
  }

  /**
   * A blocking send: tries at once, else queues `value`; `onDone(true)` runs when a receiver takes
   * it, `onDone(false)` if the channel is closed first. `onDone` may run before this returns.
   */
  waitSend(value: T, onDone: (sent: boolean) => void): CancelWait {
    if (this.isClosed) {
      onDone(false);
      return noCancel;
    }
    if (this.trySend(value)) {
      onDone(true);
      return noCancel;
    }
    const w = new ClosureSender(value, onDone);
    this.pushSender(w);
    return () => this.cancelSend(w);
  }

  /**
   * parkSend: like waitSend for a long-lived sender object, without a closure; the caller has
   * already found that trySend fails. Withdraw with cancelSend.
   */
  parkSend(w: ChannelSender<T>): void {
    if (this.isClosed) {
      w.sendParked = false;
      w.onSent(false);
      return;
    }
    w.sendParked = true;
    this.pushSender(w);
  }

  /** Withdraws a parked sender; true when it was still waiting. */
  cancelSend(w: ChannelSender<T>): boolean {
    if (!w.sendParked) return false;
    w.sendParked = false;
    // Forget it now (a withdrawn waiter is skipped anyway; this keeps memory bounded).
    if (this.sendHead === w) this.sendHead = this.sendRest?.shift();
    else removeFrom(this.sendRest, w);
    return true;
  }

  /** `select { case v, ok := <-ch: ...; default: }`: undefined when it would block. */
  tryRecv(): Received<T> | undefined {
    const v = this.poll();
    if (v === chanEmpty) return undefined;
    if (v === chanClosed) return { value: undefined, ok: false };
    return { value: v as T, ok: true };
  }

  /** tryRecv without the result object: the value, chanEmpty when it would block, chanClosed when closed and drained. */
  poll(): T | typeof chanEmpty | typeof chanClosed {
    const buf = this.buf;
    if (buf !== undefined && buf.length > 0) {
      const value = buf.shift() as T;
      // A blocked sender's value takes the freed slot (Go hands it over in the same operation).
      const s = this.takeSender();
      if (s !== undefined) {
        buf.push(s.sendValue);
        s.onSent(true);
      }
      return value;
    }
    const s = this.takeSender();
    if (s !== undefined) {
      const value = s.sendValue; // read first: onSent may reuse the sender for its next send
      s.onSent(true);
      return value;
    }
    if (this.isClosed) return chanClosed;
    return chanEmpty;
  }

  /** A blocking receive: tries at once, else waits; `onDone` may run before this returns. */
  waitRecv(onDone: (received: Received<T>) => void): CancelWait {
    const now = this.tryRecv();
    if (now) {
      onDone(now);
      return noCancel;
    }
    const w = new ClosureReceiver(onDone);
    this.pushReceiver(w);
    return () => this.cancelRecv(w);
  }

  /**
   * parkRecv: like waitRecv for a long-lived receiver object, without a closure or a result
   * object; the caller has already found that poll() would block. Withdraw with cancelRecv.
   */
  parkRecv(w: ChannelReceiver<T>): void {
    if (this.isClosed) {
      w.recvParked = false;
      w.onReceive(undefined, false);
      return;
    }
    w.recvParked = true;
    this.pushReceiver(w);
  }

  /** Withdraws a parked receiver; true when it was still waiting. */
  cancelRecv(w: ChannelReceiver<T>): boolean {
    if (!w.recvParked) return false;
    w.recvParked = false;
    if (this.recvHead === w) this.recvHead = this.recvRest?.shift();
    else removeFrom(this.recvRest, w);
    this.receiversChanged();
    return true;
  }

  /** A blocking send as a promise (resolves true once taken, false if the channel closes). */
  send(value: T): Promise<boolean> {
    return new Promise((resolve) => this.waitSend(value, resolve));
  }

  /** A blocking receive as a promise. */
  recv(): Promise<Received<T>> {
    return new Promise((resolve) => this.waitRecv(resolve));
  }

  /** close(ch): wakes every blocked receiver (ok=false) and fails every blocked sender. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const receivers: ChannelReceiver<T>[] = [];
    if (this.recvHead !== undefined) receivers.push(this.recvHead);
    if (this.recvRest !== undefined) receivers.push(...this.recvRest);
    const senders: ChannelSender<T>[] = [];
    if (this.sendHead !== undefined) senders.push(this.sendHead);
    if (this.sendRest !== undefined) senders.push(...this.sendRest);
    this.recvHead = this.recvRest = undefined;
    this.sendHead = this.sendRest = undefined;
    this.receiversChanged();
    for (const r of receivers) {
      if (!r.recvParked) continue;
      r.recvParked = false;
      r.onReceive(undefined, false);
    }
    for (const s of senders) {
      if (!s.sendParked) continue;
      s.sendParked = false;
      s.onSent(false);
    }
  }

  /** Tells the listener if the receiver waiting alone is another one now. */
  private receiversChanged(): void {
    const l = this.receiverListener;
    if (l === undefined) return;
    const rest = this.recvRest;
    const lone = rest === undefined || rest.length === 0 ? this.recvHead : undefined;
    if (lone === this.lone) return;
    this.lone = lone;
    l.receiverChanged(
      this as unknown as Channel<never>,
      lone as ChannelReceiver<never> | undefined,
    );
  }

  private pushReceiver(w: ChannelReceiver<T>): void {
    if (this.recvHead === undefined && (this.recvRest === undefined || this.recvRest.length === 0))
      this.recvHead = w;
    else (this.recvRest ??= []).push(w);
    this.receiversChanged();
  }

  private pushSender(w: ChannelSender<T>): void {
    if (this.sendHead === undefined && (this.sendRest === undefined || this.sendRest.length === 0))
      this.sendHead = w;
    else (this.sendRest ??= []).push(w);
  }

  /** The first receiver still parked, un-parked; skipped (withdrawn) ones are dropped. */
  private takeReceiver(): ChannelReceiver<T> | undefined {
    for (;;) {
      const r = this.recvHead;
      if (r === undefined) return undefined;
      this.recvHead =
        this.recvRest !== undefined && this.recvRest.length > 0 ? this.recvRest.shift() : undefined;
      if (r.recvParked) {
        r.recvParked = false;
        return r;
      }
    }
  }

  private takeSender(): ChannelSender<T> | undefined {
    for (;;) {
      const s = this.sendHead;
      if (s === undefined) return undefined;
      this.sendHead =
        this.sendRest !== undefined && this.sendRest.length > 0 ? this.sendRest.shift() : undefined;
      if (s.sendParked) {
        s.sendParked = false;
        return s;
      }
    }
  }
}

function removeFrom<W>(list: W[] | undefined, w: W): void {
  if (list === undefined) return;
  const i = list.indexOf(w);
  if (i >= 0) list.splice(i, 1);
}

/**
 * Go's *time.Timer: `c` receives the fire time once it fires. Go 1.23+ semantics (which
 * Kubernetes builds with): stop() and reset() discard a tick nobody received yet, so a reused
 * timer never delivers a stale tick; stop() returns true when it prevented a delivery.
 */
export class ChannelTimer {
  readonly c = new Channel<number>(1);
  private readonly clock: Clock;
  private pending: Timer | undefined;

  constructor(clock: Clock, delayMs?: number) {
    this.clock = clock;
    if (delayMs !== undefined) this.reset(delayMs);
  }

  /** Re-arms the timer `delayMs` from now; true when it had been active. */
  reset(delayMs: number): boolean {
    const wasActive = this.stop();
    this.pending = this.clock.afterFunc(delayMs, () => {
      this.pending = undefined;
      this.c.trySend(this.clock.now());
    });
    return wasActive;
  }

  /** Stops the timer; true when it prevented a fire or discarded an unreceived tick. */
  stop(): boolean {
    let stopped = false;
    if (this.pending) {
      stopped = this.pending.stop();
      this.pending = undefined;
    }
    if (this.c.tryRecv()) stopped = true;
    return stopped;
  }
}
