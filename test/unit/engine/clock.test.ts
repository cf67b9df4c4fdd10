// Tests for src/engine/clock.ts and src/engine/rand.ts: virtual time and seeded randomness.
import * as assert from 'assert';
import { FakeClock, SeededRandom } from '../../../src/engine';
import { maxTimerDelayMs, RealClock, type HostTimers } from '../../../src/engine/clock';

describe('FakeClock', () => {
  it('fires timers in (due, creation) order and reads each timer its own due time', () => {
    const clock = new FakeClock();
    const fired: string[] = [];
    clock.afterFunc(20, () => fired.push(`b@${clock.now()}`));
    clock.afterFunc(10, () => fired.push(`a@${clock.now()}`));
    clock.afterFunc(20, () => fired.push(`c@${clock.now()}`));
    clock.step(15);
    assert.deepStrictEqual(fired, ['a@10']);
    assert.strictEqual(clock.now(), 15);
    clock.step(5);
    assert.deepStrictEqual(fired, ['a@10', 'b@20', 'c@20']);
  });

  it('does not fire stopped timers and reports whether stop took effect', () => {
    const clock = new FakeClock();
    let fired = 0;
    const t = clock.afterFunc(5, () => fired++);
    assert.strictEqual(t.stop(), true);
    assert.strictEqual(t.stop(), false);
    clock.step(10);
    assert.strictEqual(fired, 0);
    assert.strictEqual(clock.pendingTimers(), 0);
  });

  it('refuses to go back in time', () => {
    const clock = new FakeClock(100);
    assert.throws(() => clock.advanceTo(50), /cannot go back in time: now 100, asked 50/);
  });

  it('never moves back when two async advances interleave', async () => {
    const clock = new FakeClock();
    clock.afterFunc(3, () => {});
    await Promise.all([clock.advanceToAsync(10), clock.advanceToAsync(5)]);
    assert.strictEqual(clock.now(), 10);
  });

  it('resolves sleeps when virtual time reaches them', async () => {
    const clock = new FakeClock();
    let done = false;
    void clock.sleep(1000).then(() => {
      done = true;
    });
    await clock.stepAsync(999);
    assert.strictEqual(done, false);
    await clock.stepAsync(1);
    assert.strictEqual(done, true);
  });
});

describe('SeededRandom', () => {
  it('gives the same sequence for the same seed and a different one for another seed', () => {
    const a = new SeededRandom(42),
      b = new SeededRandom(42),
      c = new SeededRandom(43);
    const sa = Array.from({ length: 5 }, () => a.float64());
    const sb = Array.from({ length: 5 }, () => b.float64());
    const sc = Array.from({ length: 5 }, () => c.float64());
    assert.deepStrictEqual(sa, sb);
    assert.notDeepStrictEqual(sa, sc);
    for (const x of sa) assert.ok(x >= 0 && x < 1, String(x));
  });

  it('intn stays in range', () => {
    const r = new SeededRandom(7);
    for (let i = 0; i < 1000; i++) {
      const v = r.intn(3);
      assert.ok(v === 0 || v === 1 || v === 2, String(v));
    }
    assert.throws(() => r.intn(0), /n must be positive/);
  });
});

/** Host timers that fire only when told: the delays RealClock arms, in order. */
class SteppedTimers implements HostTimers {
  readonly armed: number[] = [];
  private pending: (() => void) | undefined;
  setTimeout(fn: () => void, ms: number): unknown {
    this.armed.push(ms);
    this.pending = fn;
    return this.armed.length;
  }
  clearTimeout(): void {
    this.pending = undefined;
  }
  /** Fires the armed timer; false when none is armed. */
  fire(): boolean {
    const fn = this.pending;
    this.pending = undefined;
    fn?.();
    return fn !== undefined;
  }
}

describe('RealClock', () => {
  // Node's setTimeout holds 2^31-1 ms: a watch with timeoutSeconds >= 2,147,484 fired at once.
  const cases: { name: string; delayMs: number; steps: number[] }[] = [
    { name: 'zero', delayMs: 0, steps: [0] },
    { name: 'negative (a passed deadline)', delayMs: -5, steps: [0] },
    { name: 'a minute', delayMs: 60_000, steps: [60_000] },
    { name: 'the largest single timer', delayMs: maxTimerDelayMs, steps: [maxTimerDelayMs] },
    { name: 'one past it', delayMs: maxTimerDelayMs + 1, steps: [maxTimerDelayMs, 1] },
    {
      name: 'timeoutSeconds=2147484',
      delayMs: 2_147_484_000,
      steps: [maxTimerDelayMs, 2_147_484_000 - maxTimerDelayMs],
    },
    {
      name: 'three full steps and a bit',
      delayMs: 3 * maxTimerDelayMs + 7,
      steps: [maxTimerDelayMs, maxTimerDelayMs, maxTimerDelayMs, 7],
    },
  ];
  for (const c of cases) {
    it(`arms a delay of ${c.name} in steps of at most 2^31-1 ms, firing after the last`, () => {
      const timers = new SteppedTimers();
      let fired = 0;
      new RealClock(timers).afterFunc(c.delayMs, () => fired++);
      for (let i = 1; i < c.steps.length; i++) {
        assert.ok(timers.fire(), `${c.name}: step ${i} armed`);
        assert.strictEqual(fired, 0, `${c.name}: fired after step ${i} of ${c.steps.length}`);
      }
      assert.ok(timers.fire(), `${c.name}: last step armed`);
      assert.strictEqual(fired, 1, c.name);
      assert.deepStrictEqual(timers.armed, c.steps, c.name);
      assert.strictEqual(timers.fire(), false, `${c.name}: nothing armed after it fired`);
    });
  }

  it('stop between steps cancels the rest', () => {
    const timers = new SteppedTimers();
    let fired = 0;
    const t = new RealClock(timers).afterFunc(2 * maxTimerDelayMs + 1, () => fired++);
    assert.ok(timers.fire());
    assert.strictEqual(t.stop(), true);
    assert.strictEqual(t.stop(), false);
    assert.strictEqual(timers.fire(), false);
    assert.strictEqual(fired, 0);
    assert.deepStrictEqual(timers.armed, [maxTimerDelayMs, maxTimerDelayMs]);
  });
});
