// No upstream counterpart: the in-memory etcd with watch streams that deliver late, to model a
// watch cache lagging etcd (a busy etcd, a slow link, a paused apiserver). Every watch response
// (events and progress notifications alike) reaches its consumer `delayMs` after etcd produced
// it, and nothing is delivered while a stall lasts. Order is kept. Reads and writes are not
// delayed: a consistent read sees etcd's revision at once while the cache is behind.
import { type Clock, type Timer, MemoryEtcd, type MemoryEtcdOptions } from '../engine';
import type { Watch, WatchRequest, WatchResponse } from '../engine/etcd-face';

export interface DelayedWatchEtcdOptions extends MemoryEtcdOptions {
  /** Every watch response arrives this many virtual ms late (default 0). */
  watchDelayMs?: number;
}

export class DelayedWatchEtcd extends MemoryEtcd {
  private readonly virtualClock: Clock;
  private delayMs: number;
  private stallUntilMs = Number.NEGATIVE_INFINITY;

  constructor(opts: DelayedWatchEtcdOptions) {
    super(opts);
    this.virtualClock = opts.clock;
    this.delayMs = opts.watchDelayMs ?? 0;
    if (!(this.delayMs >= 0 && Number.isFinite(this.delayMs)))
      throw new RangeError(`watchDelayMs must be a finite number >= 0, got ${opts.watchDelayMs}`);
  }

  /** Holds every watch response produced before `untilMs` until then. */
  stallWatches(untilMs: number): void {
    this.stallUntilMs = untilMs;
  }

  /** When a response produced now reaches its consumer. */
  dueTime(now: number): number {
    return Math.max(now + this.delayMs, this.stallUntilMs);
  }

  override watch(req: WatchRequest): Watch {
    return new DelayedWatch(super.watch(req), this, this.virtualClock);
  }
}

/** A watch handle whose responses pass through a delay line (FIFO: a late response holds back the later ones). */
class DelayedWatch implements Watch {
  private consumer: ((r: WatchResponse) => void) | undefined;
  private lastDue = Number.NEGATIVE_INFINITY;
  private readonly timers = new Set<Timer>();
  private stopped = false;

  constructor(
    private readonly inner: Watch,
    private readonly etcd: DelayedWatchEtcd,
    private readonly clock: Clock,
  ) {}

  get id(): number {
    return this.inner.id;
  }

  get canceled(): boolean {
    return this.inner.canceled;
  }

  onResponse(cb: (r: WatchResponse) => void): void {
    if (this.consumer)
      throw new Error(`watch ${this.id}: onResponse was already called; a watch has one consumer`);
    this.consumer = cb;
    this.inner.onResponse((r) => this.arrive(r));
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchResponse> {
    const queue: WatchResponse[] = [];
    let waiter: ((r: IteratorResult<WatchResponse>) => void) | undefined;
    let ended = false;
    this.onResponse((r) => {
      if (r.canceled) ended = true;
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        w({ value: r, done: false });
      } else queue.push(r);
    });
    return {
      next: () => {
        const r = queue.shift();
        if (r) return Promise.resolve({ value: r, done: false });
        if (ended || this.stopped) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          waiter = resolve;
        });
      },
    };
  }

  requestProgress(): void {
    this.inner.requestProgress();
  }

  cancel(): void {
    this.stopped = true;
    for (const t of this.timers) t.stop();
    this.timers.clear();
    this.inner.cancel();
  }

  private arrive(r: WatchResponse): void {
    if (this.stopped) return;
    const now = this.clock.now();
    const due = Math.max(this.etcd.dueTime(now), this.lastDue);
    this.lastDue = due;
    if (due <= now) {
      this.consumer?.(r);
      return;
    }
    const t = this.clock.afterFunc(due - now, () => {
      this.timers.delete(t);
      if (!this.stopped) this.consumer?.(r);
    });
    this.timers.add(t);
  }
}
