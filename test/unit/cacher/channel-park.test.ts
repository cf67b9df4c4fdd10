// Tests for the allocation-free side of src/engine/cacher/channel.ts: poll (tryRecv without a
// result object) and long-lived receivers/senders that park and re-park (parkRecv, parkSend,
// cancelRecv, cancelSend), mixed with the closure API, against Go's channel rules; and the one
// hook beyond Go, the ReceiverListener told who waits alone.
import * as assert from 'assert';
import * as fc from 'fast-check';
import {
  Channel,
  chanClosed,
  chanEmpty,
  type ChannelReceiver,
  type ChannelSender,
  type Received,
  type ReceiverListener,
} from '../../../src/engine/cacher/channel';

/** A receiver that records what it got and can be parked again. */
class Rx implements ChannelReceiver<number> {
  recvParked = false;
  readonly got: Array<number | 'closed'> = [];
  onReceive(value: number | undefined, ok: boolean): void {
    this.got.push(ok ? (value as number) : 'closed');
  }
}

/** A sender reused for several sends (its value changes between them). */
class Tx implements ChannelSender<number> {
  sendParked = false;
  sendValue = -1;
  readonly results: boolean[] = [];
  onSent(ok: boolean): void {
    this.results.push(ok);
  }
}

describe('Channel: poll and parked waiters', () => {
  it('follows Go for the allocation-free operations', () => {
    const cases: Array<{ name: string; run: () => unknown; want: unknown }> = [
      {
        name: 'poll: empty, then a buffered value, then closed',
        run: () => {
          const ch = new Channel<number>(1);
          const a = ch.poll();
          ch.trySend(4);
          const b = ch.poll();
          ch.close();
          return [a === chanEmpty, b, ch.poll() === chanClosed];
        },
        want: [true, 4, true],
      },
      {
        name: 'a parked receiver gets the next send, and nothing after it until parked again',
        run: () => {
          const ch = new Channel<number>(0);
          const rx = new Rx();
          ch.parkRecv(rx);
          const first = ch.trySend(1);
          const second = ch.trySend(2);
          ch.parkRecv(rx);
          const third = ch.trySend(3);
          return [first, second, third, rx.got, rx.recvParked];
        },
        want: [true, false, true, [1, 3], false],
      },
      {
        name: 'a parked sender is taken by poll; its value is read before onSent may reuse it',
        run: () => {
          const ch = new Channel<number>(0);
          const tx = new Tx();
          const polled: unknown[] = [];
          tx.onSent = (ok) => {
            tx.results.push(ok);
            // Reuse at once for the next value, as the watcher's task does.
            tx.sendValue = 99;
          };
          tx.sendValue = 7;
          ch.parkSend(tx);
          polled.push(ch.poll());
          polled.push(ch.poll() === chanEmpty);
          return [polled, tx.results, tx.sendParked];
        },
        want: [[7, true], [true], false],
      },
      {
        name: 'buffered: a parked sender moves into the freed slot, after the buffered value',
        run: () => {
          const ch = new Channel<number>(1);
          ch.trySend(1);
          const tx = new Tx();
          tx.sendValue = 2;
          ch.parkSend(tx);
          return [ch.poll(), tx.results, ch.len(), ch.poll()];
        },
        want: [1, [true], 1, 2],
      },
      {
        name: 'cancel: a withdrawn receiver or sender is skipped and reports whether it was waiting',
        run: () => {
          const ch = new Channel<number>(0);
          const rx = new Rx();
          ch.parkRecv(rx);
          const c1 = ch.cancelRecv(rx);
          const c2 = ch.cancelRecv(rx);
          const sent = ch.trySend(1);
          const tx = new Tx();
          tx.sendValue = 5;
          ch.parkSend(tx);
          const c3 = ch.cancelSend(tx);
          return [
            c1,
            c2,
            sent,
            rx.got,
            c3,
            ch.poll() === chanEmpty,
            ch.hasWaitingReceiver(),
            ch.hasWaitingSender(),
          ];
        },
        want: [true, false, false, [], true, true, false, false],
      },
      {
        name: 'close: parked receivers get ok=false, parked senders fail; parking on a closed channel completes at once',
        run: () => {
          const ch = new Channel<number>(0);
          const rx = new Rx();
          const tx = new Tx();
          const ch2 = new Channel<number>(0);
          ch.parkRecv(rx);
          ch2.parkSend(tx);
          ch.close();
          ch2.close();
          const late = new Rx();
          ch.parkRecv(late);
          const lateTx = new Tx();
          ch2.parkSend(lateTx);
          return [rx.got, tx.results, late.got, lateTx.results, rx.recvParked, late.recvParked];
        },
        want: [['closed'], [false], ['closed'], [false], false, false],
      },
      {
        name: 'parked and closure waiters share one FIFO',
        run: () => {
          const ch = new Channel<number>(0);
          const order: string[] = [];
          const a = new Rx();
          a.onReceive = (v) => order.push(`a${v}`);
          ch.waitRecv((r: Received<number>) => order.push(`w${r.value}`));
          ch.parkRecv(a);
          ch.waitRecv((r: Received<number>) => order.push(`x${r.value}`));
          for (const v of [1, 2, 3]) ch.trySend(v);
          return [order, ch.hasWaitingReceiver()];
        },
        want: [['w1', 'a2', 'x3'], false],
      },
    ];
    for (const c of cases) assert.deepStrictEqual(c.run(), c.want, c.name);
  });

  it('matches the closure API under any mix of operations (reference: a second channel driven through waitRecv/waitSend)', () => {
    type Op = {
      op: 'send' | 'poll' | 'parkRecv' | 'parkSend' | 'cancelRecv' | 'cancelSend' | 'close';
      who: number;
    };
    const opArb = fc.record({
      op: fc.constantFrom<Op['op']>(
        'send',
        'poll',
        'parkRecv',
        'parkSend',
        'cancelRecv',
        'cancelSend',
        'close',
      ),
      who: fc.integer({ min: 0, max: 2 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.array(opArb, { maxLength: 60 }),
        (capacity, ops) => {
          // The same program against both APIs; the logs must be equal.
          const run = (parked: boolean): string[] => {
            const ch = new Channel<number>(capacity);
            const log: string[] = [];
            let next = 0;
            const rxs = [0, 1, 2].map((i) => {
              const rx = new Rx();
              rx.onReceive = (v, ok) => log.push(`r${i}:${ok ? v : 'closed'}`);
              return { rx, cancel: undefined as (() => boolean) | undefined, waiting: false };
            });
            const txs = [0, 1, 2].map((i) => {
              const tx = new Tx();
              tx.onSent = (ok) => log.push(`s${i}:${ok}`);
              return { tx, cancel: undefined as (() => boolean) | undefined, pending: false };
            });
            for (const o of ops) {
              const r = rxs[o.who];
              const t = txs[o.who];
              switch (o.op) {
                case 'send':
                  log.push(`send:${ch.trySend(next++)}`);
                  break;
                case 'poll': {
                  const v = parked ? ch.poll() : ch.tryRecv();
                  if (parked)
                    log.push(
                      `poll:${v === chanEmpty ? 'empty' : v === chanClosed ? 'closed' : String(v)}`,
                    );
                  else
                    log.push(
                      `poll:${v === undefined ? 'empty' : (v as Received<number>).ok ? String((v as Received<number>).value) : 'closed'}`,
                    );
                  break;
                }
                case 'parkRecv':
                  if (parked) {
                    if (r.rx.recvParked) break;
                    const v = ch.poll();
                    if (v === chanEmpty) ch.parkRecv(r.rx);
                    else r.rx.onReceive(v === chanClosed ? undefined : v, v !== chanClosed);
                  } else {
                    if (r.waiting) break;
                    r.waiting = true;
                    r.cancel = ch.waitRecv((res) => {
                      r.waiting = false;
                      r.rx.onReceive(res.value, res.ok);
                    });
                  }
                  break;
                case 'parkSend':
                  if (parked) {
                    if (t.tx.sendParked) break;
                    t.tx.sendValue = next++;
                    if (ch.closed) ch.parkSend(t.tx);
                    else if (ch.trySend(t.tx.sendValue)) t.tx.onSent(true);
                    else ch.parkSend(t.tx);
                  } else {
                    if (t.pending) break;
                    t.pending = true;
                    const v = next++;
                    t.cancel = ch.waitSend(v, (ok) => {
                      t.pending = false;
                      t.tx.onSent(ok);
                    });
                  }
                  break;
                case 'cancelRecv':
                  log.push(`cancelRecv:${parked ? ch.cancelRecv(r.rx) : (r.cancel?.() ?? false)}`);
                  if (!parked) r.waiting = false;
                  break;
                case 'cancelSend':
                  log.push(`cancelSend:${parked ? ch.cancelSend(t.tx) : (t.cancel?.() ?? false)}`);
                  if (!parked) t.pending = false;
                  break;
                case 'close':
                  ch.close();
                  log.push('close');
                  break;
              }
              log.push(`len:${ch.len()}`);
            }
            return log;
          };
          assert.deepStrictEqual(run(true), run(false));
        },
      ),
    );
  });

  it('tells its ReceiverListener whenever the receiver waiting alone changes, and only then', () => {
    const ch = new Channel<number>(1);
    const names = new Map<unknown, string>();
    const told: string[] = [];
    const listener: ReceiverListener = {
      receiverChanged: (c, r) => {
        assert.strictEqual(c, ch);
        told.push(r === undefined ? '-' : (names.get(r) ?? 'closure'));
      },
    };
    ch.receiverListener = listener;
    const a = new Rx();
    const b = new Rx();
    names.set(a, 'a');
    names.set(b, 'b');
    ch.parkRecv(a); // a waits alone
    ch.parkRecv(b); // company: nobody alone
    ch.cancelRecv(a); // b alone
    ch.trySend(1); // b taken
    ch.trySend(2); // buffered: nobody waits
    ch.poll();
    ch.parkRecv(a); // a alone
    ch.waitRecv(() => undefined); // a closure joins
    ch.trySend(3); // a taken: the closure waits alone
    ch.close(); // nobody
    assert.deepStrictEqual(told, ['a', '-', 'b', '-', 'a', '-', 'closure', '-']);
    assert.deepStrictEqual([a.got, b.got], [[3], [1]]);
    // A fast reader takes the value and waits again within the send: no change to tell.
    const ch2 = new Channel<number>(0);
    const fast = new Rx();
    names.set(fast, 'fast');
    fast.onReceive = (v) => {
      fast.got.push(v as number);
      ch2.parkRecv(fast);
    };
    told.length = 0;
    const listen2: ReceiverListener = {
      receiverChanged: (_c, r) => told.push(r === undefined ? '-' : (names.get(r) ?? 'closure')),
    };
    ch2.receiverListener = listen2;
    ch2.parkRecv(fast);
    for (const v of [1, 2, 3]) ch2.trySend(v);
    ch2.cancelRecv(fast);
    assert.deepStrictEqual(told, ['fast', '-']);
    assert.deepStrictEqual(fast.got, [1, 2, 3]);
  });
});
