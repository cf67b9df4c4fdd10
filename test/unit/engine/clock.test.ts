// Tests for src/engine/clock.ts and src/engine/rand.ts: virtual time and seeded randomness.
import * as assert from 'assert';
import { FakeClock, SeededRandom } from '../../../src/engine';

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
