// No upstream counterpart (Go's runtime keeps every time.Timer in its own timer heap): RealClock's
// afterCall timers, the watch requests' deadlines, in one indexed min-heap under one host timer. A
// Node timer per deadline costs about 450 bytes (its Timeout, a TimersList per distinct duration,
// a closure and boxed numbers); an idle watch holds little else, so one entry here is ~60 bytes.

/** What fires (clock.ts's TimerTarget; not imported: clock.ts imports this file). */
interface TimerTarget {
  onTimer(): void;
}

/** The host's timer functions, and its monotonic milliseconds (performance.now()). */
export interface DeadlineHost {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

/** One deadline: the heap entry is the Timer handed out (no other object per timer). */
class DeadlineTimer {
  /** Position in the heap; -1 once it fired or was stopped. */
  index = -1;

  constructor(
    private readonly timers: DeadlineTimers,
    readonly due: number,
    readonly seq: number,
    readonly target: TimerTarget,
  ) {}

  stop(): boolean {
    return this.timers.remove(this);
  }
}

/**
 * Timers due at (due, creation) order, fired from one host timer armed for the earliest. A host
 * timer holds at most `maxDelayMs` (setTimeout's 2^31-1): a later earliest is re-armed in steps.
 * Deadlines due at the same host turn fire one after the other in that turn.
 */
export class DeadlineTimers {
  private readonly heap: DeadlineTimer[] = [];
  private seq = 0;
  private handle: unknown = undefined;
  /** Due time the host timer is armed for (Infinity: none armed). */
  private armedFor = Number.POSITIVE_INFINITY;
  private readonly onHostTimer = (): void => this.fireDue();

  constructor(
    private readonly host: DeadlineHost,
    private readonly maxDelayMs: number,
  ) {}

  /** Armed timers. */
  get size(): number {
    return this.heap.length;
  }

  /** Calls target.onTimer() `delayMs` from now (0 or negative: at the next turn). */
  add(delayMs: number, target: TimerTarget): { stop(): boolean } {
    const t = new DeadlineTimer(this, this.host.now() + Math.max(0, delayMs), this.seq++, target);
    this.push(t);
    if (t.index === 0) this.arm();
    return t;
  }

  /** Timer.stop: false when it had fired or been stopped already. */
  remove(t: DeadlineTimer): boolean {
    const i = t.index;
    if (i < 0) return false;
    const wasTop = i === 0;
    this.removeAt(i);
    if (wasTop) this.arm();
    return true;
  }

  private fireDue(): void {
    this.handle = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    try {
      const now = this.host.now();
      // Timers added by the ones firing wait for a later turn, as a host timer would.
      const added = this.seq;
      for (;;) {
        const top = this.heap[0];
        if (top === undefined || top.due > now || top.seq >= added) break;
        this.removeAt(0);
        top.target.onTimer();
      }
    } finally {
      this.arm();
    }
  }

  /** Arms the host timer for the earliest deadline (or none), unless it already is. */
  private arm(): void {
    const top = this.heap[0];
    const due = top === undefined ? Number.POSITIVE_INFINITY : top.due;
    if (due === this.armedFor) return;
    if (this.handle !== undefined) this.host.clearTimeout(this.handle);
    this.handle = undefined;
    this.armedFor = due;
    if (top === undefined) return;
    // Whole milliseconds, rounded up: the host timer never fires before the deadline.
    const delay = Math.min(Math.max(0, Math.ceil(due - this.host.now())), this.maxDelayMs);
    this.handle = this.host.setTimeout(this.onHostTimer, delay);
  }

  private less(a: DeadlineTimer, b: DeadlineTimer): boolean {
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  private place(t: DeadlineTimer, i: number): void {
    this.heap[i] = t;
    t.index = i;
  }

  private push(t: DeadlineTimer): void {
    this.heap.push(t);
    this.siftUp(t, this.heap.length - 1);
  }

  private removeAt(i: number): void {
    const h = this.heap;
    const t = h[i];
    t.index = -1;
    const last = h.pop() as DeadlineTimer;
    if (last === t) return;
    // The last entry fills the hole, then moves up or down to its place.
    if (i > 0 && this.less(last, h[(i - 1) >> 1])) this.siftUp(last, i);
    else this.siftDown(last, i);
  }

  private siftUp(t: DeadlineTimer, i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p];
      if (!this.less(t, parent)) break;
      this.place(parent, i);
      i = p;
    }
    this.place(t, i);
  }

  private siftDown(t: DeadlineTimer, i: number): void {
    const h = this.heap;
    const n = h.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const m = r < n && this.less(h[r], h[l]) ? r : l;
      if (!this.less(h[m], t)) break;
      this.place(h[m], i);
      i = m;
    }
    this.place(t, i);
  }
}
