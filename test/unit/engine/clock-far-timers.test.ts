// Tests for src/engine/clock.ts: timers far in the future wait outside the heap (far windows) and
// still fire exactly as one (due, creation)-ordered queue would fire them.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { FakeClock, type Timer } from '../../../src/engine';

/** The clock surface the driver uses; FakeClock and the reference both have it. */
interface DrivenClock {
  now(): number;
  afterFunc(delayMs: number, fn: () => void): Timer;
  advanceTo(t: number): void;
  pendingTimers(): number;
  nextDue(): number | undefined;
}

/** What FakeClock must behave like: every pending timer in one list, fired in (due, seq) order. */
class ReferenceClock implements DrivenClock {
  private current = 0;
  private seq = 0;
  private timers: { due: number; seq: number; fn: () => void; done: boolean }[] = [];
  now(): number {
    return this.current;
  }
  afterFunc(delayMs: number, fn: () => void): Timer {
    const t = { due: this.current + Math.max(0, delayMs), seq: this.seq++, fn, done: false };
    this.timers.push(t);
    return { stop: () => (t.done ? false : ((t.done = true), true)) };
  }
  advanceTo(to: number): void {
    for (;;) {
      const t = this.live().find((x) => x.due <= to);
      if (t === undefined) break;
      t.done = true;
      this.current = Math.max(this.current, t.due);
      t.fn();
    }
    this.current = Math.max(this.current, to);
  }
  pendingTimers(): number {
    return this.live().length;
  }
  nextDue(): number | undefined {
    return this.live()[0]?.due;
  }
  private live() {
    return this.timers.filter((t) => !t.done).sort((a, b) => a.due - b.due || a.seq - b.seq);
  }
}

type Op =
  | { kind: 'add'; delay: number; rearm: number }
  | { kind: 'stop'; which: number }
  | { kind: 'advance'; by: number };

const delays = fc.oneof(
  fc.integer({ min: 0, max: 3_000 }), // bookmark ticks, writes
  fc.integer({ min: 60_000, max: 70_000 }), // around the far-window width (65,536 ms)
  fc.integer({ min: 1_800_000, max: 3_600_000 }), // watch deadlines
);

const opList: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    fc.record({
      kind: fc.constant('add' as const),
      delay: delays,
      rearm: fc.integer({ min: 0, max: 2 }),
    }),
    fc.record({ kind: fc.constant('stop' as const), which: fc.nat() }),
    fc.record({
      kind: fc.constant('advance' as const),
      by: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 50_000, max: 4_000_000 })),
    }),
  ),
  { maxLength: 80 },
);

/** Runs the ops on a clock; returns what fired (id@time) and the clock's answers after each op. */
function drive(clock: DrivenClock, ops: readonly Op[]): string[] {
  const log: string[] = [];
  const handles: Timer[] = [];
  let nextId = 0;
  // A timer that fires may arm more, as the bookmark timer re-arms itself or a retry sleeps.
  const arm = (delay: number, rearm: number): void => {
    const id = nextId++;
    handles.push(
      clock.afterFunc(delay, () => {
        log.push(`fire ${id}@${clock.now()}`);
        for (let i = 0; i < rearm; i++) arm(delay + 1 + i * 70_000, rearm - 1);
      }),
    );
  };
  for (const op of ops) {
    if (op.kind === 'add') arm(op.delay, op.rearm);
    else if (op.kind === 'stop') {
      if (handles.length > 0)
        log.push(`stop ${op.which % handles.length}: ${handles[op.which % handles.length].stop()}`);
    } else clock.advanceTo(clock.now() + op.by);
    log.push(`now ${clock.now()} pending ${clock.pendingTimers()} next ${clock.nextDue()}`);
  }
  return log;
}

describe('FakeClock far timers', () => {
  it('fires in the same order, at the same times, as a single (due, creation)-ordered queue', () => {
    fc.assert(
      fc.property(opList, (ops) => {
        assert.deepStrictEqual(drive(new FakeClock(), ops), drive(new ReferenceClock(), ops));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps (due, creation) order between a deadline armed long ago and a timer armed just before it', () => {
    const clock = new FakeClock();
    const fired: string[] = [];
    clock.afterFunc(1_800_000, () => fired.push('deadline'));
    clock.advanceTo(1_799_000);
    clock.afterFunc(1_000, () => fired.push('late, same due'));
    clock.afterFunc(999, () => fired.push('just before'));
    assert.strictEqual(clock.nextDue(), 1_799_999);
    clock.advanceTo(1_800_000);
    assert.deepStrictEqual(fired, ['just before', 'deadline', 'late, same due']);
  });

  it('counts and stops timers in far windows', () => {
    const clock = new FakeClock();
    let fired = 0;
    const far = clock.afterFunc(3_600_000, () => fired++);
    clock.afterFunc(10, () => fired++);
    assert.strictEqual(clock.pendingTimers(), 2);
    assert.strictEqual(far.stop(), true);
    assert.strictEqual(clock.pendingTimers(), 1);
    clock.advanceTo(4_000_000);
    assert.strictEqual(fired, 1);
    assert.strictEqual(clock.nextDue(), undefined);
  });
});
