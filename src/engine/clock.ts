// Mirrors k8s.io/utils/clock (Clock, fake.Clock): the only source of time in the engine.
// Deliberate difference: timers are callbacks ordered by (due time, creation order), so a run
// with the same inputs fires them in the same order every time.

import { DeadlineTimers } from './clock-deadline-timers';

/** A cancellable timer, like Go's *time.Timer. */
export interface Timer {
  /** Stops the timer; returns false when it had already fired or been stopped. */
  stop(): boolean;
}

/** What afterCall calls: an object with a method, instead of a closure per timer. */
export interface TimerTarget {
  onTimer(): void;
}

export interface Clock {
  /** Milliseconds since the clock's epoch (virtual for FakeClock). */
  now(): number;
  /**
   * Microseconds since the epoch, finer than now() where the clock can tell (the audit log's
   * MicroTime); optional: without it, now() × 1000.
   */
  nowMicros?(): number;
  /** Runs fn once, `delayMs` from now (0 or negative: at the next step/turn). */
  afterFunc(delayMs: number, fn: () => void): Timer;
  /**
   * afterFunc calling target.onTimer(): the same timer without a closure (one per watch adds up
   * at 100k watches). Optional: use `afterCall(clock, …)`, which falls back to afterFunc.
   */
  afterCall?(delayMs: number, target: TimerTarget): Timer;
  /** A promise resolved `delayMs` from now. */
  sleep(delayMs: number): Promise<void>;
}

// One heap entry that is also the Timer handed out: no extra closure or object per timer, which
// matters with a timer or two per watch and 100k watches.
class PendingTimer implements Timer {
  due: number;
  seq: number;
  fn: (() => void) | TimerTarget;
  done = false;

  constructor(due: number, seq: number, fn: (() => void) | TimerTarget) {
    this.due = due;
    this.seq = seq;
    this.fn = fn;
  }

  stop(): boolean {
    if (this.done) return false;
    this.done = true; // lazily removed when it reaches the top of the heap
    return true;
  }
}

/**
 * Width of a far-timer window (ms, a power of two). Timers due at or after `horizon` wait unsorted
 * in the window of their due time and join the heap when time gets there: a watch deadline 30–60
 * virtual minutes out costs nothing to a bookmark tick a second from now.
 */
const farWindowMs = 65_536;

/**
 * Virtual time. Nothing moves until `step`/`advanceTo` is called; then every timer due by the new
 * time fires in (due, creation) order, with `now()` reading each timer's own due time while it runs.
 */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  // The timers due before `horizon`, in a binary min-heap keyed by (due, seq). Later ones wait in
  // `far`, one unsorted list per window; a window joins the heap when the heap runs dry, so the
  // heap's depth follows the timers due soon, not the 100k watch deadlines behind them.
  private heap: PendingTimer[] = [];
  private horizon: number;
  private readonly far = new Map<number, PendingTimer[]>();
  /** The window numbers in `far`, ascending. */
  private farWindows: number[] = [];

  /**
   * Called just before time moves on from an instant to `next`, once everything due at it has
   * run: the observer sees each instant's end state (scenario runs sample their watchers there).
   */
  onInstantEnd: ((at: number, next: number) => void) | undefined = undefined;

  constructor(startMs = 0) {
    this.current = startMs;
    this.horizon = (Math.floor(startMs / farWindowMs) + 1) * farWindowMs;
  }

  now(): number {
    return this.current;
  }

  afterFunc(delayMs: number, fn: () => void): Timer {
    const t = new PendingTimer(this.current + Math.max(0, delayMs), this.seq++, fn);
    this.add(t);
    return t;
  }

  afterCall(delayMs: number, target: TimerTarget): Timer {
    const t = new PendingTimer(this.current + Math.max(0, delayMs), this.seq++, target);
    this.add(t);
    return t;
  }

  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.afterFunc(delayMs, resolve));
  }

  /** Number of timers still pending. */
  pendingTimers(): number {
    let n = 0;
    for (const t of this.heap) if (!t.done) n++;
    for (const ts of this.far.values()) for (const t of ts) if (!t.done) n++;
    return n;
  }

  /** Due time of the earliest pending timer, or undefined. */
  nextDue(): number | undefined {
    const top = this.peek(Number.POSITIVE_INFINITY);
    return top?.due;
  }

  /** Moves time forward by `ms`, firing due timers synchronously. */
  step(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  /** Moves time to `t` (never backwards), firing due timers synchronously in order. */
  advanceTo(t: number): void {
    this.checkForward(t);
    while (this.fireNext(t)) {
      /* fire every timer due by t */
    }
    this.moveTo(t);
  }

  /**
   * Like advanceTo, but lets promise continuations run after each timer, so async engine code
   * (awaiting sleeps and waits) progresses exactly as it would in real time.
   */
  async advanceToAsync(t: number): Promise<void> {
    this.checkForward(t);
    await settle();
    while (this.fireNext(t)) await settle();
    this.moveTo(t);
    await settle();
  }

  async stepAsync(ms: number): Promise<void> {
    await this.advanceToAsync(this.current + ms);
  }

  private checkForward(t: number): void {
    if (t < this.current)
      throw new Error(`FakeClock cannot go back in time: now ${this.current}, asked ${t}`);
  }

  /** Moves time to `t`, never backwards (two async advances may interleave). */
  private moveTo(t: number): void {
    if (t <= this.current) return;
    this.onInstantEnd?.(this.current, t);
    this.current = t;
  }

  /** Fires the earliest timer due by `t`, at its own due time; false when none is due. */
  private fireNext(t: number): boolean {
    const top = this.peek(t);
    if (!top || top.due > t) return false;
    this.pop();
    top.done = true;
    this.moveTo(top.due);
    const fn = top.fn;
    if (typeof fn === 'function') fn();
    else fn.onTimer();
    return true;
  }

  /**
   * The earliest pending timer, at the top of the heap; far windows that start by `until` join the
   * heap when it has nothing pending (every far timer is due at or after the horizon, so the heap's
   * top, when there is one, is the earliest of all).
   */
  private peek(until: number): PendingTimer | undefined {
    for (;;) {
      while (this.heap.length && this.heap[0].done) this.pop();
      if (this.heap.length) return this.heap[0];
      const w = this.farWindows[0];
      if (w === undefined || w * farWindowMs > until) return undefined;
      this.farWindows.shift();
      const ts = this.far.get(w) as PendingTimer[];
      this.far.delete(w);
      this.horizon = (w + 1) * farWindowMs;
      for (const x of ts) if (!x.done) this.push(x);
    }
  }

  private add(t: PendingTimer): void {
    if (t.due < this.horizon) {
      this.push(t);
      return;
    }
    const w = Math.floor(t.due / farWindowMs);
    const ts = this.far.get(w);
    if (ts !== undefined) {
      ts.push(t);
      return;
    }
    this.far.set(w, [t]);
    // Few windows (one per ~65s of the future): a sorted insert is cheap.
    const ws = this.farWindows;
    let i = ws.length;
    while (i > 0 && ws[i - 1] > w) i--;
    ws.splice(i, 0, w);
  }

  private less(a: PendingTimer, b: PendingTimer): boolean {
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  // Sift with a hole instead of swaps: the same heap order, fewer writes.
  private push(t: PendingTimer): void {
    const h = this.heap;
    let i = h.length;
    h.push(t);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p];
      if (!this.less(t, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = t;
  }

  private pop(): PendingTimer | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    const n = h.length;
    if (n && last) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let m = l;
        if (r < n && this.less(h[r], h[l])) m = r;
        if (!this.less(h[m], last)) break;
        h[i] = h[m];
        i = m;
      }
      h[i] = last;
    }
    return top;
  }
}

/** clock.afterCall(delayMs, target), or afterFunc with a closure on a clock without it. */
export function afterCall(clock: Clock, delayMs: number, target: TimerTarget): Timer {
  return clock.afterCall !== undefined
    ? clock.afterCall(delayMs, target)
    : clock.afterFunc(delayMs, () => target.onTimer());
}

/** Lets queued promise continuations run (several microtask turns). */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

/**
 * The longest delay a host timer holds: setTimeout keeps it as a 32-bit signed count of ms, and a
 * longer one (a watch's timeoutSeconds >= 2,147,484) overflows and fires at once.
 */
export const maxTimerDelayMs = 2 ** 31 - 1;

/** The host's timer functions (globalThis's; a test passes its own to see the steps). */
export interface HostTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Monotonic milliseconds for afterCall's deadlines; default performance.now(). */
  now?(): number;
}

const globalTimers: HostTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

const monotonicNow = (): number => globalThis.performance.now();

/**
 * Wall-clock time for faces that run against real time (none of the engine's tests do).
 * The only place in the engine allowed to read the real clock.
 */
export class RealClock implements Clock {
  /** afterCall's timers (made on first use). */
  private deadlines: DeadlineTimers | undefined = undefined;

  constructor(private readonly timers: HostTimers = globalTimers) {}

  now(): number {
    return Date.now();
  }

  /** The wall time to the microsecond, as performance's origin plus its monotonic reading. */
  nowMicros(): number {
    return Math.round((globalThis.performance.timeOrigin + globalThis.performance.now()) * 1000);
  }

  /** Runs fn after delayMs; a delay past maxTimerDelayMs is armed in steps of at most that. */
  afterFunc(delayMs: number, fn: () => void): Timer {
    return new RealTimer(this.timers, delayMs, fn);
  }

  /**
   * afterFunc calling target.onTimer(), for deadlines (one per watch: many armed, few fire): all
   * of them share one host timer (clock-deadline-timers.ts), firing in (due, creation) order.
   */
  afterCall(delayMs: number, target: TimerTarget): Timer {
    if (this.deadlines === undefined) {
      const t = this.timers;
      this.deadlines = new DeadlineTimers(
        {
          setTimeout: (fn, ms) => t.setTimeout(fn, ms),
          clearTimeout: (h) => t.clearTimeout(h),
          now: t.now !== undefined ? () => (t.now as () => number)() : monotonicNow,
        },
        maxTimerDelayMs,
      );
    }
    return this.deadlines.add(delayMs, target);
  }

  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.afterFunc(delayMs, resolve));
  }
}

/**
 * RealClock's afterFunc timer: one object that is the Timer, arms the host timer with one closure
 * and re-arms it in steps of at most maxTimerDelayMs.
 */
class RealTimer implements Timer {
  private done = false;
  private left: number;
  private handle: unknown;

  constructor(
    private readonly timers: HostTimers,
    delayMs: number,
    private readonly fn: () => void,
  ) {
    this.left = Math.max(0, delayMs);
    this.arm();
  }

  private arm(): void {
    const step = Math.min(this.left, maxTimerDelayMs);
    this.left -= step;
    this.handle = this.timers.setTimeout(() => this.fire(), step);
  }

  private fire(): void {
    if (this.done) return;
    if (this.left > 0) return this.arm();
    this.done = true;
    this.fn();
  }

  stop(): boolean {
    if (this.done) return false;
    this.done = true;
    this.timers.clearTimeout(this.handle);
    return true;
  }
}
