// Tests for src/engine/clock-deadline-timers.ts through RealClock.afterCall: the watch deadlines share
// one host timer, armed for the earliest, and fire in (due, creation) order, never early.
import * as assert from 'assert';
import { maxTimerDelayMs, RealClock, type HostTimers } from '../../../src/engine/clock';

/** A host whose time moves only when a test says, with every setTimeout it was asked for. */
class ManualHost implements HostTimers {
  time = 1000;
  /** Delays of the host timers armed, in order. */
  readonly armed: number[] = [];
  private pending = new Map<number, { fn: () => void; at: number }>();
  private next = 1;
  setTimeout(fn: () => void, ms: number): unknown {
    this.armed.push(ms);
    const id = this.next++;
    this.pending.set(id, { fn, at: this.time + ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  now(): number {
    return this.time;
  }
  /** Host timers not yet fired or cleared. */
  get live(): number {
    return this.pending.size;
  }
  /** Moves time to `t` (or fires the host timers early at `early`), firing the host timers due. */
  advance(t: number, early = 0): void {
    this.time = t - early;
    for (const [id, p] of [...this.pending].sort((a, b) => a[1].at - b[1].at)) {
      if (p.at > t) continue;
      this.pending.delete(id);
      p.fn();
    }
    this.time = t;
  }
}

interface Step {
  /** Arm a deadline: name, delay. */
  add?: [string, number];
  /** Stop the deadline of that name (expected result). */
  stop?: [string, boolean];
  /** Host time moves this far (ms after the start), firing what is due; `early`: the host fires that much early. */
  to?: number;
  early?: number;
  /** Then: the deadlines fired so far, and the host timers alive. */
  fired?: string[];
  live?: number;
}

const cases: { name: string; steps: Step[]; armed: number[] }[] = [
  {
    name: 'three deadlines: one host timer for the earliest, (due, creation) order',
    steps: [
      { add: ['b', 30_000] },
      { add: ['a', 10_000] },
      { add: ['c', 30_000] },
      { live: 1, fired: [] },
      { to: 10_000, fired: ['a'], live: 1 },
      { to: 30_000, fired: ['a', 'b', 'c'], live: 0 },
    ],
    // b's timer, then a's (earlier) instead, then b's rest once a fired.
    armed: [30_000, 10_000, 20_000],
  },
  {
    name: 'stopping the earliest re-arms for the next; stopping the last leaves no host timer',
    steps: [
      { add: ['a', 5_000] },
      { add: ['b', 8_000] },
      { stop: ['a', true] },
      { stop: ['a', false] },
      { live: 1 },
      { stop: ['b', true] },
      { live: 0 },
      { to: 10_000, fired: [] },
    ],
    armed: [5_000, 8_000],
  },
  {
    name: 'a later deadline than the armed one arms nothing new',
    steps: [
      { add: ['a', 1_000] },
      { add: ['b', 2_000] },
      { stop: ['b', true] },
      { to: 1_000, fired: ['a'], live: 0 },
    ],
    armed: [1_000],
  },
  {
    name: 'a host timer that fires before the deadline re-arms for the rest, never fires early',
    steps: [
      { add: ['a', 100] },
      { to: 100, early: 0.5, fired: [], live: 1 },
      { to: 101, fired: ['a'] },
    ],
    armed: [100, 1],
  },
  {
    name: 'a deadline past 2^31-1 ms is armed in steps',
    steps: [
      { add: ['far', maxTimerDelayMs + 10] },
      { to: maxTimerDelayMs, fired: [], live: 1 },
      { to: maxTimerDelayMs + 10, fired: ['far'], live: 0 },
    ],
    armed: [maxTimerDelayMs, 10],
  },
  {
    name: 'zero and negative delays fire at the next host turn',
    steps: [{ add: ['zero', 0] }, { add: ['passed', -5] }, { to: 0, fired: ['zero', 'passed'] }],
    armed: [0],
  },
];

describe('RealClock.afterCall (deadline timers)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const host = new ManualHost();
      const start = host.time;
      const clock = new RealClock(host);
      const fired: string[] = [];
      const timers = new Map<string, { stop(): boolean }>();
      for (const s of c.steps) {
        if (s.add) {
          const [name, delay] = s.add;
          timers.set(name, clock.afterCall(delay, { onTimer: () => fired.push(name) }));
        }
        if (s.stop)
          assert.strictEqual(timers.get(s.stop[0])?.stop(), s.stop[1], `stop ${s.stop[0]}`);
        if (s.to !== undefined) host.advance(start + s.to, s.early);
        if (s.fired) assert.deepStrictEqual(fired, s.fired, `fired at ${s.to ?? '-'}`);
        if (s.live !== undefined)
          assert.strictEqual(host.live, s.live, `host timers at ${s.to ?? '-'}`);
      }
      assert.deepStrictEqual(host.armed, c.armed, 'host timers armed');
    });
  }
});
