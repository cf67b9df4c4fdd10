// Mirrors Go's channel semantics (runtime/chan.go) and *time.Timer as the cacher uses them.
// Deliberate differences: no goroutines; a blocked sender or receiver is a callback registered on
// the channel and called synchronously by the operation that unblocks it, so a run is fully
// deterministic. Sending on a closed channel reports failure instead of panicking.

import type { Clock, Timer } from '../clock';

/** The result of a receive: `ok` is false once the channel is closed and drained (Go's `v, ok := <-ch`). */
export interface Received<T> {
  value: T | undefined;
  ok: boolean;
}

/** Withdraws a blocked operation (the losing case of a select); true when it was still pending. */
export type CancelWait = () => boolean;

interface SendWaiter<T> {
  value: T;
  onDone: (sent: boolean) => void;
  active: boolean;
}

interface RecvWaiter<T> {
  onDone: (received: Received<T>) => void;
  active: boolean;
}

/**
 * A Go channel of capacity `capacity` (0 = unbuffered: a send succeeds only into a waiting
 * receiver). FIFO for values, blocked senders and blocked receivers, as in Go.
 */
export class Channel<T> {
  readonly capacity: number;
  private buf: T[] = [];
  private senders: SendWaiter<T>[] = [];
  private receivers: RecvWaiter<T>[] = [];
  private isClosed = false;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`channel capacity must be a non-negative integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** Buffered values (Go's len(ch)). */
  len(): number {
    return this.buf.length;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** True while some receiver is blocked on the channel (an unbuffered send would succeed). */
  hasWaitingReceiver(): boolean {
    return this.receivers.some(r => r.active);
  }

  /** True while some sender is blocked on the channel. */
  hasWaitingSender(): boolean {
    return this.senders.some(s => s.active);
  }

  /** `select { case ch <- v: return true; default: return false }`; false on a closed channel. */
  trySend(value: T): boolean {
    if (this.isClosed) return false;
    const r = this.takeReceiver();
    if (r) {
      r.onDone({ value, ok: true });
      return true;
    }
    if (this.buf.length < this.capacity) {
      this.buf.push(value);
      return true;
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
      return () => false;
    }
    if (this.trySend(value)) {
      onDone(true);
      return () => false;
    }
    const w: SendWaiter<T> = { value, onDone, active: true };
    this.senders.push(w);
    return () => {
      if (!w.active) return false;
      w.active = false;
      this.senders = this.senders.filter(s => s !== w);
      return true;
    };
  }

  /** `select { case v, ok := <-ch: ...; default: }`: undefined when it would block. */
  tryRecv(): Received<T> | undefined {
    if (this.buf.length > 0) {
      const value = this.buf.shift() as T;
      // A blocked sender's value takes the freed slot (Go hands it over in the same operation).
      const s = this.takeSender();
      if (s) {
        this.buf.push(s.value);
        s.onDone(true);
      }
      return { value, ok: true };
    }
    const s = this.takeSender();
    if (s) {
      s.onDone(true);
      return { value: s.value, ok: true };
    }
    if (this.isClosed) return { value: undefined, ok: false };
    return undefined;
  }

  /** A blocking receive: tries at once, else waits; `onDone` may run before this returns. */
  waitRecv(onDone: (received: Received<T>) => void): CancelWait {
    const now = this.tryRecv();
    if (now) {
      onDone(now);
      return () => false;
    }
    const w: RecvWaiter<T> = { onDone, active: true };
    this.receivers.push(w);
    return () => {
      if (!w.active) return false;
      w.active = false;
      this.receivers = this.receivers.filter(r => r !== w);
      return true;
    };
  }

  /** A blocking send as a promise (resolves true once taken, false if the channel closes). */
  send(value: T): Promise<boolean> {
    return new Promise(resolve => this.waitSend(value, resolve));
  }

  /** A blocking receive as a promise. */
  recv(): Promise<Received<T>> {
    return new Promise(resolve => this.waitRecv(resolve));
  }

  /** close(ch): wakes every blocked receiver (ok=false) and fails every blocked sender. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const receivers = this.receivers;
    const senders = this.senders;
    this.receivers = [];
    this.senders = [];
    for (const r of receivers) {
      if (!r.active) continue;
      r.active = false;
      r.onDone({ value: undefined, ok: false });
    }
    for (const s of senders) {
      if (!s.active) continue;
      s.active = false;
      s.onDone(false);
    }
  }

  private takeReceiver(): RecvWaiter<T> | undefined {
    while (this.receivers.length) {
      const r = this.receivers.shift() as RecvWaiter<T>;
      if (r.active) {
        r.active = false;
        return r;
      }
    }
    return undefined;
  }

  private takeSender(): SendWaiter<T> | undefined {
    while (this.senders.length) {
      const s = this.senders.shift() as SendWaiter<T>;
      if (s.active) {
        s.active = false;
        return s;
      }
    }
    return undefined;
  }
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
