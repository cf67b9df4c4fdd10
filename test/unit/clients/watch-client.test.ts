// Tests for src/engine/clients/watch-client.ts: the watch handler + client reading a cacheWatcher
// at a virtual pace, and what that does to the watcher (slow clients, terminations, graceful
// drains, timeouts), all on a FakeClock.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { newCachingObject, type CachingObject } from '../../../src/engine/cacher/caching-object';
import { emptyFunc, newCacheWatcher } from '../../../src/engine/cacher/cache-watcher';
import { initialEventsAnnotationKey } from '../../../src/engine/cacher/initial-events-end-bookmark';
import type { WatchObject } from '../../../src/engine/cacher/watch';
import { ChannelTimer } from '../../../src/engine/cacher/channel';
import {
  contentTypeJSON,
  contentTypeProtobuf,
  newJSONEncoder,
  newProtobufEncoder,
} from '../../../src/engine/cacher/object-encoders';
import {
  WatchClient,
  WatchRequestContext,
  type ReadRate,
} from '../../../src/engine/clients/watch-client';
import type {
  WatchCacheEvent,
  WatchCacheEventType,
} from '../../../src/engine/cacher/watch-cache-event';
import { wiredWatcher } from '../cacher/watcher-testing';
import { newCacheInterval } from '../../../src/engine/cacher/watch-cache-interval';
import { newErrWatcher } from '../../../src/engine/cacher/cacher';
import type { KubeObject } from '../../../src/engine/storage/objects';

const pods = { group: '', resource: 'pods' };

function pod(rv: number): KubeObject {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: `pod-${rv}`, namespace: 'ns', resourceVersion: String(rv) },
  };
}

function event(
  type: WatchCacheEventType,
  object: WatchObject,
  rv: number,
): WatchCacheEvent<WatchObject> {
  return {
    type,
    object,
    objLabels: {},
    objFields: {},
    key: '/pods/ns/p',
    resourceVersion: rv,
    recordTime: 0,
  };
}

function emptyInterval(rv = 0) {
  return newCacheInterval<WatchObject>(
    0,
    0,
    () => undefined,
    () => true,
    rv,
  );
}

/** A watcher wired like the cacher does, with a forget that stops it and records drains. */
function setup(chanSize: number, rate: ReadRate, timeoutMs = 60_000) {
  const { clock, ctx, w, forgets } = wiredWatcher(chanSize, timeoutMs);
  return {
    clock,
    ctx,
    w,
    forgets,
    start: (interval = emptyInterval()) => {
      const done = w.processInterval(interval, 0, ctx.signal);
      const client = new WatchClient(w, { clock, ctx, readRate: rate });
      return { done, client };
    },
  };
}

describe('WatchClient (handleWatch + WatchServer.HandleHTTP + the client)', () => {
  it('reads at the configured pace in virtual time', async () => {
    const cases: Array<{ name: string; rate: ReadRate; wantAt: number[] }> = [
      { name: 'fast: as soon as dispatched', rate: { kind: 'fast' }, wantAt: [0, 0, 0, 0] },
      {
        name: 'slow 10/s: one every 100ms',
        rate: { kind: 'slow', eventsPerSecond: 10 },
        wantAt: [0, 100, 200, 300],
      },
      {
        name: 'slow 2/s: one every 500ms',
        rate: { kind: 'slow', eventsPerSecond: 2 },
        wantAt: [0, 500, 1000, 1500],
      },
      { name: 'stalled: none', rate: { kind: 'stalled' }, wantAt: [] },
    ];
    for (const c of cases) {
      const s = setup(10, c.rate);
      const { client } = s.start();
      for (let rv = 1; rv <= 4; rv++)
        assert.ok(s.w.nonblockingAdd(event('ADDED', pod(rv), rv)), `${c.name}: add ${rv}`);
      await s.clock.stepAsync(2_000);
      assert.deepStrictEqual(
        client.events.map((e) => e.at),
        c.wantAt,
        c.name,
      );
      assert.deepStrictEqual(
        client.events.map((e) => e.resourceVersion),
        c.wantAt.map((_, i) => String(i + 1)),
        `${c.name}: in order`,
      );
    }
  });

  it("a slow client fills the buffers; the dispatcher's add then waits or terminates it", async () => {
    const s = setup(2, { kind: 'slow', eventsPerSecond: 10 });
    const { done, client } = s.start();
    // Reader takes rv1 at 0 (busy 100ms); result holds 2, the task blocks on one, input holds 2.
    const accepted = [1, 2, 3, 4, 5, 6, 7].map((rv) =>
      s.w.nonblockingAdd(event('ADDED', pod(rv), rv)),
    );
    assert.deepStrictEqual(
      accepted,
      [true, true, true, true, true, true, false],
      'the 7th finds no room',
    );
    // Budget 100ms: the reader frees a slot at t=100, which reaches the input in time.
    const ok = await Promise.all([
      s.w.add(event('ADDED', pod(7), 7), new ChannelTimer(s.clock, 100)),
      s.clock.stepAsync(100),
    ]);
    assert.strictEqual(ok[0], true, 'room appeared at 100ms');
    // Nothing is read before t=200: a 50ms budget runs out.
    const late = s.w.add(event('ADDED', pod(8), 8), new ChannelTimer(s.clock, 50));
    await s.clock.stepAsync(50);
    assert.strictEqual(await late, false, 'terminated after its budget');
    assert.deepStrictEqual(
      s.forgets,
      [false, false],
      'terminated (not graceful: no bookmark awaited), then Stop() from processInterval',
    );
    await s.clock.stepAsync(5_000);
    await done;
    // rv3 and rv4 were already in the result channel; rv5..7 were lost when done closed.
    assert.deepStrictEqual(
      client.events.map((e) => e.resourceVersion),
      ['1', '2', '3', '4'],
    );
    assert.strictEqual(s.w.counts.droppedStopped, 3);
    assert.strictEqual(client.closeReason, 'resultClosed');
    assert.strictEqual(s.w.counts.terminated, 1);
  });

  it('graceful termination: a slow watch-list client still gets the awaited bookmark before the close', async () => {
    const s = setup(2, { kind: 'slow', eventsPerSecond: 10 });
    s.w.setBookmarkAfterResourceVersion(10);
    const { client, done } = s.start(
      newCacheInterval<WatchObject>(
        0,
        3,
        (i) => event('ADDED', pod(i + 1), i + 1),
        () => true,
        0,
      ),
    );
    assert.ok(
      s.w.nonblockingAdd(event('BOOKMARK', { metadata: { resourceVersion: '10' } }, 10)),
      'bookmark queued',
    );
    assert.ok(s.w.nonblockingAdd(event('ADDED', pod(11), 11)), 'pod-11 queued');
    assert.ok(s.w.nonblockingAdd(event('ADDED', pod(12), 12)), 'pod-12 queued: input full');
    const blocked = s.w.add(event('ADDED', pod(13), 13), new ChannelTimer(s.clock, 20));
    await s.clock.stepAsync(20);
    assert.strictEqual(await blocked, false);
    assert.deepStrictEqual(
      s.forgets,
      [true],
      'graceful: the awaited bookmark was received, not sent',
    );
    await s.clock.stepAsync(1_000);
    await done;
    assert.deepStrictEqual(
      client.events.map(
        (e) =>
          `${e.type} ${e.resourceVersion}${e.object.metadata.annotations?.[initialEventsAnnotationKey] ? ' end' : ''} @${e.at}`,
      ),
      [
        'ADDED 1 @0',
        'ADDED 2 @100',
        'ADDED 3 @200',
        'BOOKMARK 10 end @300',
        'ADDED 11 @400',
        'ADDED 12 @500',
      ],
      "the input was drained at the client's pace",
    );
    assert.strictEqual(client.closeReason, 'resultClosed');
  });

  it('a stalled client notices neither its timeout nor the closed watcher until it disconnects', async () => {
    const s = setup(1, { kind: 'stalled' }, 5_000);
    const { client, done } = s.start();
    s.w.nonblockingAdd(event('ADDED', pod(1), 1));
    s.w.nonblockingAdd(event('ADDED', pod(2), 2));
    s.w.nonblockingAdd(event('ADDED', pod(3), 3));
    assert.strictEqual(
      await s.w.add(event('ADDED', pod(4), 4), null),
      false,
      'no room: terminated at once',
    );
    await done;
    await s.clock.stepAsync(10_000);
    assert.strictEqual(client.closed, false, 'still blocked in its write');
    assert.ok(s.ctx.done, 'the request context ended at its deadline anyway');
    client.disconnect();
    assert.strictEqual(client.closeReason, 'disconnected');
    assert.deepStrictEqual(
      s.forgets,
      [false, false, false],
      "terminate, processInterval's Stop, the handler's Stop",
    );
  });

  it('at the timeout the context ends the watcher; the handler then sees the closed channel', async () => {
    const s = setup(5, { kind: 'fast' }, 5_000);
    const { client, done } = s.start();
    s.w.nonblockingAdd(event('ADDED', pod(1), 1));
    await s.clock.stepAsync(4_999);
    assert.strictEqual(client.closed, false);
    await s.clock.stepAsync(1);
    await done;
    assert.strictEqual(client.closeReason, 'resultClosed');
    assert.deepStrictEqual(
      s.forgets,
      [false, false],
      'Stop() from processInterval and from the handler',
    );
    assert.strictEqual(client.received, 1);
  });

  it('a handler busy writing sees its timeout after the write; a disconnect stops the watcher and the context', async () => {
    const s = setup(5, { kind: 'slow', eventsPerSecond: 1 }, 60_000);
    const { client } = s.start();
    // A second watch: each write takes 2s; its own timeout (1.5s) fires during the first write.
    const w2 = newCacheWatcher(5, () => true, emptyFunc, 0, false, pods, '');
    void w2.processInterval(emptyInterval(), 0);
    let closedAt = -1;
    const c2 = new WatchClient(w2, {
      clock: s.clock,
      timeoutMs: 1_500,
      readRate: { kind: 'slow', eventsPerSecond: 0.5 },
      onClose: (_r, at) => {
        closedAt = at;
      },
    });
    w2.nonblockingAdd(event('ADDED', pod(1), 1));
    w2.nonblockingAdd(event('ADDED', pod(2), 2));
    s.w.nonblockingAdd(event('ADDED', pod(1), 1));
    await s.clock.stepAsync(500);
    client.disconnect();
    assert.strictEqual(client.closeReason, 'disconnected');
    assert.ok(s.ctx.done, 'context cancelled by the handler');
    assert.deepStrictEqual(
      s.forgets,
      [false, false],
      "the handler's Stop(), then processInterval's",
    );
    await s.clock.stepAsync(2_000);
    assert.strictEqual(c2.closeReason, 'timeout');
    assert.strictEqual(closedAt, 2_000, 'noticed when the write finished, before reading rv2');
    assert.strictEqual(c2.received, 1);
  });

  it('encodes each object through CachingObject.cacheEncode: once per content type for all watchers', async () => {
    const clock = new FakeClock(0);
    const shared: CachingObject = newCachingObject(pod(1));
    const clients = ([contentTypeJSON, contentTypeJSON, contentTypeProtobuf] as const).map(
      (contentType) => {
        const w = newCacheWatcher(5, () => true, emptyFunc, 0, false, pods, '');
        void w.processInterval(emptyInterval(), 0);
        const client = new WatchClient(w, { clock, contentType });
        w.nonblockingAdd(event('ADDED', shared, 1));
        return client;
      },
    );
    await clock.stepAsync(0);
    const counts = shared.serializationCounts();
    assert.deepStrictEqual(
      counts.get(newJSONEncoder('v1').identifier),
      { encodes: 1, hits: 1, errors: 0 },
      'json',
    );
    assert.deepStrictEqual(
      counts.get(newProtobufEncoder('v1').identifier),
      { encodes: 1, hits: 0, errors: 0 },
      'protobuf',
    );
    assert.ok(clients.every((c) => c.bytesEncoded > 0 && c.received === 1));
    assert.strictEqual(clients[0].identifier, newJSONEncoder('v1').identifier);
  });

  it('keeps the newest resourceVersion it read (bookmarks too) and the first ERROR', async () => {
    const clock = new FakeClock(0);
    const w = newCacheWatcher(5, () => true, emptyFunc, 0, true, pods, '');
    void w.processInterval(emptyInterval(), 0);
    // A slow client reads through the channel; a fast one (below) is written to in place.
    const slow = new WatchClient(w, { clock, readRate: { kind: 'slow', eventsPerSecond: 100 } });
    w.nonblockingAdd(event('ADDED', pod(3), 3));
    w.nonblockingAdd(event('BOOKMARK', pod(7), 7));
    await clock.stepAsync(100);
    assert.strictEqual(slow.received, 2);
    assert.strictEqual(slow.lastResourceVersion, 7);
    const fast = newCacheWatcher(5, () => true, emptyFunc, 0, false, pods, '');
    void fast.processInterval(emptyInterval(), 0);
    const client = new WatchClient(fast, { clock, keepEvents: false });
    fast.nonblockingAdd(event('ADDED', newCachingObject(pod(11)), 11));
    assert.strictEqual(fast.counts.delivered, 1, 'delivered in place, no clock step needed');
    assert.strictEqual(client.lastResourceVersion, 11);
    assert.strictEqual(client.firstError, undefined);
    const err = newErrWatcher(new Error('boom'));
    const errClient = new WatchClient(err, { clock });
    assert.strictEqual((errClient.firstError as unknown as { message: string }).message, 'boom');
    assert.strictEqual(errClient.lastResourceVersion, 0);
  });

  it('rejects a bad read rate or timeout with a message naming it', () => {
    const clock = new FakeClock(0);
    const w = newCacheWatcher(1, () => true, emptyFunc, 0, false, pods, '');
    assert.throws(
      () => new WatchClient(w, { clock, readRate: { kind: 'slow', eventsPerSecond: 0 } }),
      /eventsPerSecond must be a positive number, got 0/,
    );
    assert.throws(() => new WatchRequestContext(clock, -1), /timeoutMs must be >= 0, got -1/);
  });
});
