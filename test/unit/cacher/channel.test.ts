// Tests for src/engine/cacher/channel.ts: Go channel semantics (buffered/unbuffered, blocked
// senders and receivers, close) and the *time.Timer model, checked against a reference model.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { FakeClock } from '../../../src/engine/clock';
import { Channel, ChannelTimer, type Received } from '../../../src/engine/cacher/channel';

describe('Channel (Go chan semantics)', () => {
  it('follows Go for sends and receives, buffered and unbuffered', () => {
    const cases: Array<{ name: string; run: () => unknown; want: unknown }> = [
      {
        name: 'unbuffered: a send fails without a waiting receiver',
        run: () => new Channel<number>(0).trySend(1),
        want: false,
      },
      {
        name: 'unbuffered: a send goes straight to a waiting receiver',
        run: () => {
          const ch = new Channel<number>(0);
          const got: Received<number>[] = [];
          ch.waitRecv((r) => got.push(r));
          return [ch.trySend(7), got, ch.len()];
        },
        want: [true, [{ value: 7, ok: true }], 0],
      },
      {
        name: "unbuffered: a receive takes a blocked sender's value",
        run: () => {
          const ch = new Channel<number>(0);
          const sent: boolean[] = [];
          ch.waitSend(3, (ok) => sent.push(ok));
          return [ch.tryRecv(), sent];
        },
        want: [{ value: 3, ok: true }, [true]],
      },
      {
        name: 'buffered: FIFO up to capacity',
        run: () => {
          const ch = new Channel<number>(2);
          return [
            ch.trySend(1),
            ch.trySend(2),
            ch.trySend(3),
            ch.len(),
            ch.tryRecv(),
            ch.tryRecv(),
            ch.tryRecv(),
          ];
        },
        want: [true, true, false, 2, { value: 1, ok: true }, { value: 2, ok: true }, undefined],
      },
      {
        name: "buffered: a blocked sender's value takes the freed slot, after the buffered ones",
        run: () => {
          const ch = new Channel<number>(1);
          ch.trySend(1);
          const sent: boolean[] = [];
          ch.waitSend(2, (ok) => sent.push(ok));
          const first = ch.tryRecv();
          return [first, sent, ch.len(), ch.tryRecv()];
        },
        want: [{ value: 1, ok: true }, [true], 1, { value: 2, ok: true }],
      },
      {
        name: 'close: buffered values first, then ok=false; blocked receivers woken with ok=false',
        run: () => {
          const ch = new Channel<number>(1);
          const waiting = new Channel<number>(0);
          const woken: Received<number>[] = [];
          waiting.waitRecv((r) => woken.push(r));
          waiting.close();
          ch.trySend(1);
          ch.close();
          return [ch.tryRecv(), ch.tryRecv(), woken, ch.trySend(2)];
        },
        want: [
          { value: 1, ok: true },
          { value: undefined, ok: false },
          [{ value: undefined, ok: false }],
          false,
        ],
      },
      {
        name: 'close fails blocked senders instead of panicking',
        run: () => {
          const ch = new Channel<number>(0);
          const sent: boolean[] = [];
          ch.waitSend(1, (ok) => sent.push(ok));
          ch.close();
          return sent;
        },
        want: [false],
      },
      {
        name: 'a cancelled wait (the losing select case) takes nothing',
        run: () => {
          const ch = new Channel<number>(0);
          const got: Received<number>[] = [];
          const cancel = ch.waitRecv((r) => got.push(r));
          return [cancel(), cancel(), ch.trySend(1), got];
        },
        want: [true, false, false, []],
      },
    ];
    for (const c of cases) assert.deepStrictEqual(c.run(), c.want, c.name);
  });

  it('rejects a bad capacity with a message naming it', () => {
    assert.throws(() => new Channel(-1), /channel capacity must be a non-negative integer, got -1/);
    assert.throws(() => new Channel(1.5), /got 1.5/);
  });

  it('matches a reference model: never more than capacity buffered, values come out in send order', () => {
    type Op = { op: 'send' } | { op: 'recv' } | { op: 'waitRecv' } | { op: 'waitSend' };
    const opArb = fc.oneof(
      fc.constant<Op>({ op: 'send' }),
      fc.constant<Op>({ op: 'recv' }),
      fc.constant<Op>({ op: 'waitRecv' }),
      fc.constant<Op>({ op: 'waitSend' }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.array(opArb, { maxLength: 60 }),
        (capacity, ops) => {
          const ch = new Channel<number>(capacity);
          let next = 0;
          const accepted: number[] = []; // in the order the channel took them
          const received: number[] = [];
          let blockedSenders = 0;
          let blockedReceivers = 0;
          for (const o of ops) {
            if (o.op === 'send') {
              const v = next++;
              if (ch.trySend(v)) accepted.push(v);
            } else if (o.op === 'waitSend') {
              const v = next++;
              blockedSenders++;
              ch.waitSend(v, (ok) => {
                blockedSenders--;
                if (ok) accepted.push(v);
              });
            } else if (o.op === 'recv') {
              const r = ch.tryRecv();
              if (r?.ok) received.push(r.value as number);
            } else {
              blockedReceivers++;
              ch.waitRecv((r) => {
                blockedReceivers--;
                if (r.ok) received.push(r.value as number);
              });
            }
            if (ch.len() > capacity) return false;
            // Go never has both blocked senders and blocked receivers on one channel.
            if (blockedSenders > 0 && blockedReceivers > 0) return false;
          }
          return (
            received.every((v, i) => v === accepted[i]) &&
            accepted.length - received.length === ch.len()
          );
        },
      ),
    );
  });
});

describe('ChannelTimer (*time.Timer, Go 1.23+ semantics)', () => {
  it('ticks once at its due time; stop and reset discard an unreceived tick', () => {
    const cases: Array<{
      name: string;
      run: (clock: FakeClock, t: ChannelTimer) => unknown;
      want: unknown;
    }> = [
      {
        name: 'fires at the delay with the clock time',
        run: (clock, t) => (clock.step(100), t.c.tryRecv()),
        want: { value: 100, ok: true },
      },
      { name: 'not before', run: (clock, t) => (clock.step(99), t.c.tryRecv()), want: undefined },
      {
        name: 'stop before firing: true, no tick',
        run: (clock, t) => [t.stop(), (clock.step(200), t.c.tryRecv())],
        want: [true, undefined],
      },
      {
        name: 'stop after an unreceived fire: true, tick discarded',
        run: (clock, t) => [(clock.step(100), t.stop()), t.c.tryRecv()],
        want: [true, undefined],
      },
      {
        name: 'stop after the tick was received: false',
        run: (clock, t) => [(clock.step(100), t.c.tryRecv()), t.stop()],
        want: [{ value: 100, ok: true }, false],
      },
      {
        name: 'reset re-arms from now',
        run: (clock, t) => [
          (clock.step(50), t.reset(100)),
          (clock.step(99), t.c.tryRecv()),
          (clock.step(1), t.c.tryRecv()),
        ],
        want: [true, undefined, { value: 150, ok: true }],
      },
    ];
    for (const c of cases) {
      const clock = new FakeClock();
      assert.deepStrictEqual(c.run(clock, new ChannelTimer(clock, 100)), c.want, c.name);
    }
  });
});
