// Tests for WatchRequestContext (src/engine/clients/watch-client.ts) as the watcher and the handler
// share it: the watcher hears the context's end without an AbortSignal, the handler's own timeout
// rides on the context's deadline timer, and both keep the order a separate timer each gave.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { newCacheWatcher } from '../../../src/engine/cacher/cache-watcher';
import type { WatchObject } from '../../../src/engine/cacher/watch';
import {
  WatchClient,
  WatchRequestContext,
  type ReadRate,
} from '../../../src/engine/clients/watch-client';
import type { WatchCacheEvent } from '../../../src/engine/cacher/watch-cache-event';
import { wiredWatcher } from './watcher-testing';
import { newCacheInterval } from '../../../src/engine/cacher/watch-cache-interval';
import type { KubeObject } from '../../../src/engine/storage/objects';

const pods = { group: '', resource: 'pods' };

function added(rv: number): WatchCacheEvent<WatchObject> {
  const object: KubeObject = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: `pod-${rv}`, namespace: 'ns', resourceVersion: String(rv) },
  };
  return {
    type: 'ADDED',
    object,
    objLabels: {},
    objFields: {},
    key: '/pods/ns/p',
    resourceVersion: rv,
    recordTime: 0,
  };
}

/** A watcher wired as the cacher does, its processInterval told of the context through `ctxFor`. */
function setup(
  chanSize: number,
  rate: ReadRate,
  timeoutMs: number,
  ctxFor: (ctx: WatchRequestContext) => AbortSignal | WatchRequestContext,
) {
  const { clock, ctx, w, forgets } = wiredWatcher(chanSize, timeoutMs);
  const done = w.processInterval(
    newCacheInterval<WatchObject>(
      0,
      0,
      () => undefined,
      () => true,
      0,
    ),
    0,
    ctxFor(ctx),
  );
  let closedAt = -1;
  const client = new WatchClient(w, {
    clock,
    ctx,
    readRate: rate,
    onClose: (_r, at) => {
      closedAt = at;
    },
  });
  return { clock, ctx, w, forgets, done, client, closedAt: () => closedAt };
}

const wirings: Array<{
  name: string;
  ctxFor: (ctx: WatchRequestContext) => AbortSignal | WatchRequestContext;
}> = [
  { name: 'signal', ctxFor: (ctx) => ctx.signal },
  { name: 'context', ctxFor: (ctx) => ctx },
];

describe('WatchRequestContext shared by the watcher and the handler', () => {
  it('at the deadline the watcher ends first, then the handler sees the closed channel (either wiring)', async () => {
    for (const wiring of wirings) {
      const s = setup(5, { kind: 'fast' }, 5_000, wiring.ctxFor);
      assert.ok(s.w.nonblockingAdd(added(1)), `${wiring.name}: queued`);
      await s.clock.stepAsync(4_999);
      assert.strictEqual(s.client.closed, false, `${wiring.name}: open before the deadline`);
      await s.clock.stepAsync(1);
      await s.done;
      assert.deepStrictEqual(
        [s.client.closeReason, s.closedAt(), s.client.received],
        ['resultClosed', 5_000, 1],
        wiring.name,
      );
      assert.deepStrictEqual(
        s.forgets,
        [false, false],
        `${wiring.name}: Stop() from processInterval and from the handler`,
      );
      assert.strictEqual(s.ctx.expired, true, `${wiring.name}: ended by its deadline`);
    }
  });

  it('a context cancelled early still times the handler out at the deadline, not at the cancel', async () => {
    for (const wiring of wirings) {
      // One slot each: the slow reader writes rv1, rv2 waits in result, the task is blocked sending rv3.
      const s = setup(1, { kind: 'slow', eventsPerSecond: 1 }, 2_500, wiring.ctxFor);
      for (const rv of [1, 2, 3])
        assert.ok(s.w.nonblockingAdd(added(rv)), `${wiring.name}: rv${rv} queued`);
      await s.clock.stepAsync(100);
      s.ctx.cancel();
      assert.strictEqual(s.ctx.expired, false, `${wiring.name}: cancelled, not expired`);
      await s.clock.stepAsync(10_000);
      await s.done;
      // The blocked send completes at 1000; the task then sees the cancelled context and closes.
      // The handler writes rv3 from 2000 to 3000; its timeout (2500) is seen after that write.
      assert.deepStrictEqual(
        s.client.events.map((e) => `${e.resourceVersion}@${e.at}`),
        ['1@0', '2@1000', '3@2000'],
        wiring.name,
      );
      assert.deepStrictEqual([s.client.closeReason, s.closedAt()], ['timeout', 3_000], wiring.name);
    }
  });

  it('the signal is made on first use and is already aborted when the context has ended', async () => {
    const clock = new FakeClock(0);
    const ctx = new WatchRequestContext(clock, 1_000);
    assert.strictEqual(ctx.done, false);
    await clock.stepAsync(1_000);
    assert.deepStrictEqual([ctx.done, ctx.expired, ctx.signal.aborted], [true, true, true]);
    const early = new WatchRequestContext(clock, 1_000);
    const seen: string[] = [];
    early.signal.addEventListener('abort', () => seen.push('signal'));
    early.addDoneListener({ contextDone: () => seen.push('listener') });
    early.cancel();
    early.cancel();
    assert.deepStrictEqual(
      [early.done, early.expired, seen],
      [true, false, ['listener', 'signal']],
      'once, listeners then the signal',
    );
    assert.strictEqual(clock.pendingTimers(), 0, 'cancel stops the deadline timer');
  });

  it('two handlers on one context both time out at its deadline', async () => {
    const clock = new FakeClock(0);
    const ctx = new WatchRequestContext(clock, 1_000);
    const mk = () =>
      newCacheWatcher(
        10,
        () => true,
        () => undefined,
        ctx.deadline,
        false,
        pods,
        'test',
      );
    const a = mk();
    const b = mk();
    const ca = new WatchClient(a, { clock, ctx });
    const cb = new WatchClient(b, { clock, ctx });
    await clock.stepAsync(1_000);
    assert.deepStrictEqual([ca.closeReason, cb.closeReason], ['timeout', 'timeout']);
    assert.strictEqual(
      await cb.finished,
      'timeout',
      'finished settles with the reason, even when asked late',
    );
  });
});
