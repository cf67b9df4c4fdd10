// Tests for src/engine/cacher/in-place-delivery.ts on single watchers: every kind of event offered
// to a waiting task and a waiting client (too old, filtered out, delivered, a bookmark) comes out
// with the same counts in place as through the channels, whichever client (counting, keeping,
// encoding or not); the counts are settled when the watcher or the client is read, and credited
// to the client they were counted for; a client that slows down, or a task that wakes, leaves the
// path. The property test over whole workloads is direct-delivery.test.ts.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { newCachingObject } from '../../../src/engine/cacher/caching-object';
import {
  emptyFunc,
  newCacheWatcher,
  type CacheWatcher,
} from '../../../src/engine/cacher/cache-watcher';
import { InPlaceDelivery, SharedConversion } from '../../../src/engine/cacher/in-place-delivery';
import { contentTypeJSON, type ObjectEncoder } from '../../../src/engine/cacher/object-encoders';
import type { WatchObject } from '../../../src/engine/cacher/watch';
import type { WatchCacheEvent } from '../../../src/engine/cacher/watch-cache-event';
import { newCacheInterval } from '../../../src/engine/cacher/watch-cache-interval';
import { WatchClient, type WatchContentType } from '../../../src/engine/clients/watch-client';
import type { KubeObject } from '../../../src/engine/storage/objects';

const pods = { group: '', resource: 'pods' };

function pod(name: string, rv: number, app: string): KubeObject {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, namespace: 'ns', resourceVersion: String(rv), labels: { app } },
  };
}

/** A dispatched event as the cacher makes it: the object wrapped in a CachingObject. */
function dispatched(rv: number, app: string): WatchCacheEvent<WatchObject> {
  return {
    type: 'ADDED',
    object: newCachingObject(pod(`p${rv}`, rv, app)),
    objLabels: { app },
    objFields: {},
    key: `/pods/ns/p${rv}`,
    resourceVersion: rv,
    recordTime: 0,
  };
}

function bookmark(rv: number): WatchCacheEvent<WatchObject> {
  return {
    type: 'BOOKMARK',
    object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: String(rv) } },
    objLabels: {},
    objFields: {},
    key: '',
    resourceVersion: rv,
    recordTime: 0,
  };
}

/** A live watcher from RV 10 (only app=web), with a fast client; in place or not. */
function live(
  inPlace: boolean,
  client: { keepEvents: boolean; contentType?: WatchContentType },
): { w: CacheWatcher; c: WatchClient; clock: FakeClock } {
  const clock = new FakeClock(0);
  const w = newCacheWatcher(
    10,
    (_k, labels) => labels.app === 'web',
    emptyFunc,
    clock.now() + 3_600_000,
    true,
    pods,
    'test',
  );
  if (inPlace) new InPlaceDelivery(w, new SharedConversion());
  w.setBookmarkAfterResourceVersion(0);
  w.startProcessing(
    newCacheInterval<WatchObject>(
      0,
      0,
      () => undefined,
      () => true,
      10,
    ),
    10,
  );
  const c = new WatchClient(w, { clock, ...client });
  return { w, c, clock };
}

/** What can be read of a watcher and its client. */
function read(x: { w: CacheWatcher; c: WatchClient }): unknown {
  return {
    counts: JSON.stringify(x.w.counts),
    received: x.c.received,
    bytes: x.c.bytesEncoded,
    lastRv: x.c.lastResourceVersion,
    events: x.c.events.map((e) => `${e.type}@${e.resourceVersion}`),
  };
}

/** Counts the events InPlaceDelivery took while `f` runs. */
function countingInPlace(f: () => void): number {
  const add = InPlaceDelivery.prototype.add;
  let n = 0;
  InPlaceDelivery.prototype.add = function (this: InPlaceDelivery, e) {
    const took = add.call(this, e);
    if (took) n++;
    return took;
  };
  try {
    f();
  } finally {
    InPlaceDelivery.prototype.add = add;
  }
  return n;
}

describe('in-place delivery', () => {
  it('counts every kind of event as the channel path does, for every kind of client', () => {
    const events: Array<{
      name: string;
      event: () => WatchCacheEvent<WatchObject>;
      inPlace: boolean;
    }> = [
      { name: 'at the start RV: skipped', event: () => dispatched(10, 'web'), inPlace: true },
      { name: 'filtered out', event: () => dispatched(11, 'db'), inPlace: true },
      { name: 'delivered', event: () => dispatched(12, 'web'), inPlace: true },
      { name: 'a bookmark (never in place)', event: () => bookmark(12), inPlace: false },
    ];
    const clients: Array<{ keepEvents: boolean; contentType?: WatchContentType }> = [
      { keepEvents: false },
      { keepEvents: false, contentType: contentTypeJSON },
      { keepEvents: true },
      { keepEvents: true, contentType: contentTypeJSON },
    ];
    for (const client of clients) {
      for (const e of events) {
        const name = `${e.name}, client ${JSON.stringify(client)}`;
        const on = live(true, client);
        const off = live(false, client);
        const event = e.event();
        const took = countingInPlace(() =>
          assert.ok(on.w.nonblockingAdd(event), `${name}: queued`),
        );
        assert.ok(off.w.nonblockingAdd(e.event()), `${name}: queued (channels)`);
        assert.strictEqual(took, e.inPlace ? 1 : 0, `${name}: in place`);
        assert.deepStrictEqual(read(on), read(off), name);
      }
    }
  });

  it('settles when the watcher or the client is read, and credits the client it counted for', () => {
    const x = live(true, { keepEvents: false, contentType: contentTypeJSON });
    for (let rv = 11; rv <= 13; rv++) x.w.nonblockingAdd(dispatched(rv, 'web'));
    assert.strictEqual(x.w.ownCounts.delivered, 0, 'not yet settled');
    assert.strictEqual(x.c.received, 3, "the client's read settles");
    assert.strictEqual(x.w.ownCounts.delivered, 3, "…into the watcher's counts too");
    assert.strictEqual(x.c.lastResourceVersion, 13);
    x.w.nonblockingAdd(dispatched(14, 'web'));
    assert.strictEqual(x.w.counts.delivered, 4, "the watcher's read settles");
    // Another client takes over the result channel: what was counted stays with the first.
    const bytes = x.c.bytesEncoded;
    x.w.nonblockingAdd(dispatched(15, 'web'));
    x.c.disconnect();
    const other = new WatchClient(x.w, { clock: x.clock, keepEvents: false });
    assert.strictEqual(x.c.received, 5);
    assert.ok(x.c.bytesEncoded > bytes, 'the fifth event was encoded for the first client');
    assert.strictEqual(other.received, 0);
  });

  it('a client that slows down, or a task that is woken, leaves the path', () => {
    const x = live(true, { keepEvents: false });
    assert.strictEqual(
      countingInPlace(() => x.w.nonblockingAdd(dispatched(11, 'web'))),
      1,
    );
    x.c.setReadRate({ kind: 'slow', eventsPerSecond: 1 });
    assert.strictEqual(
      countingInPlace(() => x.w.nonblockingAdd(dispatched(12, 'web'))),
      0,
      'slow: through the channels',
    );
    assert.strictEqual(x.c.received, 2, 'the second is being written');
    x.clock.step(1000);
    x.c.setReadRate({ kind: 'fast' });
    assert.strictEqual(
      countingInPlace(() => x.w.nonblockingAdd(dispatched(13, 'web'))),
      1,
      'fast again, waiting again: in place',
    );
    // The task is woken by a bookmark in its input: the next event goes through the channels.
    x.c.setReadRate({ kind: 'stalled' });
    x.w.nonblockingAdd(dispatched(14, 'web'));
    assert.strictEqual(
      countingInPlace(() => x.w.nonblockingAdd(dispatched(15, 'web'))),
      0,
      'the task is blocked sending to a stalled client',
    );
    assert.strictEqual(x.w.counts.queued, 5);
  });

  it('watchers sharing a conversion convert once per event; an encoder is asked once per object', () => {
    const shared = new SharedConversion();
    let calls = 0;
    const clock = new FakeClock(0);
    const ws = [0, 1, 2].map(() => {
      const w = newCacheWatcher(
        10,
        () => {
          calls++;
          return true;
        },
        emptyFunc,
        clock.now() + 3_600_000,
        false,
        pods,
        'test',
      );
      new InPlaceDelivery(w, shared);
      w.startProcessing(
        newCacheInterval<WatchObject>(
          0,
          0,
          () => undefined,
          () => true,
          10,
        ),
        10,
      );
      return {
        w,
        c: new WatchClient(w, { clock, keepEvents: false, contentType: contentTypeJSON }),
      };
    });
    const e = dispatched(11, 'web');
    for (const x of ws) x.w.nonblockingAdd(e);
    assert.strictEqual(calls, 1, 'one filter call for the three');
    const object = e.object as ReturnType<typeof newCachingObject>;
    const encoder = ws[0].c.directEncoder as ObjectEncoder;
    assert.deepStrictEqual(
      { ...object.serializationCounts().get(encoder.identifier) },
      { encodes: 1, hits: 2, errors: 0 },
    );
    assert.deepStrictEqual(
      ws.map((x) => x.c.received),
      [1, 1, 1],
    );
  });
});
