// Tests for the closure-free timers of src/engine/clock.ts: FakeClock.afterCall and the afterCall
// helper (falls back to afterFunc on clocks without it), interleaved with afterFunc timers.
import * as assert from 'assert';
import {
  FakeClock,
  afterCall,
  type Clock,
  type Timer,
  type TimerTarget,
} from '../../../src/engine/clock';

describe('FakeClock.afterCall', () => {
  it('fires targets and functions together in (due, creation) order, each reading its own due time', () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    const target = (name: string): TimerTarget => ({
      onTimer: () => fired.push(`${name}@${clock.now()}`),
    });
    clock.afterCall(20, target('a'));
    clock.afterFunc(10, () => fired.push(`f@${clock.now()}`));
    afterCall(clock, 20, target('b'));
    const stopped = clock.afterCall(15, target('stopped'));
    assert.deepStrictEqual([stopped.stop(), stopped.stop()], [true, false]);
    clock.step(30);
    assert.deepStrictEqual(fired, ['f@10', 'a@20', 'b@20']);
    assert.strictEqual(clock.pendingTimers(), 0);
  });

  it('the helper uses afterFunc on a clock without afterCall', () => {
    const inner = new FakeClock(0);
    const calls: number[] = [];
    const plain: Clock = {
      now: () => inner.now(),
      afterFunc: (ms: number, fn: () => void): Timer => {
        calls.push(ms);
        return inner.afterFunc(ms, fn);
      },
      sleep: (ms: number) => inner.sleep(ms),
    };
    let n = 0;
    afterCall(plain, 5, { onTimer: () => n++ });
    inner.step(5);
    assert.deepStrictEqual([calls, n], [[5], 1]);
  });
});
