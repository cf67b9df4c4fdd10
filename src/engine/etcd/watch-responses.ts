// No upstream counterpart as one file: clientv3's WatchChan for one watch, as a queue. The
// responses of one watch, in order, to its one consumer (a callback or an async iteration), for
// MemoryEtcd's watchers and the gRPC client's watches alike.
import type { WatchResponse } from './kv';

export class WatchResponses {
  private readonly queue: WatchResponse[] = [];
  private head = 0;
  private consumer: ((r: WatchResponse) => void) | undefined;
  private waiter: ((r: IteratorResult<WatchResponse>) => void) | undefined;
  private flushScheduled = false;
  private closed = false;

  constructor(
    private readonly id: number,
    /** The watch has ended (its last response queued) or was canceled. */
    private readonly ended: () => boolean,
    /** What an iteration's return() does: the watch's cancel(). */
    private readonly cancel: () => void,
  ) {}

  /** Queues a response for the consumer (nothing once closed). */
  push(r: WatchResponse): void {
    if (this.closed) return;
    this.queue.push(r);
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: this.take() as WatchResponse, done: false });
    } else this.scheduleFlush();
  }

  /** Registers the consumer; queued responses are delivered to it in order. */
  onResponse(cb: (r: WatchResponse) => void): void {
    this.checkNoConsumer();
    this.consumer = cb;
    this.scheduleFlush();
  }

  /** The responses in order; the iteration ends once the watch has ended and all were taken. */
  iterator(): AsyncIterator<WatchResponse> {
    this.checkNoConsumer();
    return {
      next: () => {
        const r = this.take();
        if (r) return Promise.resolve({ value: r, done: false });
        if (this.ended()) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiter = resolve;
        });
      },
      return: () => {
        this.cancel();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  /** The watch was canceled: what is queued is dropped and a waiting iteration ends. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.head = 0;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: undefined, done: true });
    }
  }

  private checkNoConsumer(): void {
    if (this.consumer)
      throw new Error(`watch ${this.id}: onResponse was already called; a watch has one consumer`);
  }

  private scheduleFlush(): void {
    if (!this.consumer || this.flushScheduled || this.head >= this.queue.length) return;
    this.flushScheduled = true;
    void Promise.resolve().then(() => this.flush());
  }

  private take(): WatchResponse | undefined {
    if (this.head >= this.queue.length) return undefined;
    const r = this.queue[this.head++];
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
    return r;
  }

  private flush(): void {
    this.flushScheduled = false;
    for (let r = this.take(); r && this.consumer && !this.closed; r = this.take()) this.consumer(r);
  }
}
