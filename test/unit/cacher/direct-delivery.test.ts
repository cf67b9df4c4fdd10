// Tests for the cacher's fast paths (CacheOptions.fastPaths): in-place delivery
// (src/engine/cacher/in-place-delivery.ts, with its client side in clients/watch-client.ts and its
// hook in channel.ts) and watcher runs (watcher-run.ts). Whatever path an event takes, everything a
// user can read must come out the same: each random workload runs with the fast paths on and off,
// and every watcher's counts, every client's received/bytesEncoded/lastResourceVersion, kept events
// and close reason, and the metrics must be equal. Some clients keep their events, some have a
// callback (never in place), some act on other watches from it, in the middle of a dispatch.
import * as assert from 'assert';
import fc from 'fast-check';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { EventHub } from '../../../src/engine/inspect/events';
import { makePod } from '../../../src/engine/storage/objects';
import { CacheWatcher } from '../../../src/engine/cacher/cache-watcher';
import { InPlaceDelivery } from '../../../src/engine/cacher/in-place-delivery';
import { WatcherRun } from '../../../src/engine/cacher/watcher-run';
import { contentTypeJSON, contentTypeProtobuf } from '../../../src/engine/cacher/object-encoders';
import type { ReadRate, WatchContentType } from '../../../src/engine/clients/watch-client';
import { createResource, type OpenedWatch, type Resource } from '../../../src/engine/apiserver';

const namespaces = ['a', 'b'];
const names = ['p0', 'p1', 'p2'];

type Cmd =
  | { op: 'write'; ns: string; name: string; x: string; del: boolean }
  | {
      op: 'watch';
      ns: string | undefined;
      selector: string | undefined;
      contentType: WatchContentType | undefined;
      bookmarks: boolean;
      keep: boolean;
      callback: boolean;
      n: number;
    }
  | { op: 'rate'; watch: number; rate: ReadRate }
  /** A watch whose client, on its first event at an RV divisible by 3, acts on another watch (mid-dispatch). */
  | { op: 'saboteur'; target: number; act: 'disconnect' | ReadRate }
  | { op: 'disconnect'; watch: number }
  | { op: 'step'; ms: number };

const rateArb: fc.Arbitrary<ReadRate> = fc.constantFrom<ReadRate>(
  { kind: 'fast' },
  { kind: 'fast' },
  { kind: 'slow', eventsPerSecond: 20 },
  { kind: 'stalled' },
);

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('write' as const),
      ns: fc.constantFrom(...namespaces),
      name: fc.constantFrom(...names),
      x: fc.constantFrom('1', '2'),
      del: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('watch' as const),
      ns: fc.constantFrom(undefined, 'a'),
      selector: fc.constantFrom(undefined, 'x=1'),
      contentType: fc.constantFrom(undefined, contentTypeJSON, contentTypeProtobuf),
      bookmarks: fc.boolean(),
      keep: fc.boolean(),
      callback: fc.boolean(),
      n: fc.integer({ min: 1, max: 12 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('rate' as const), watch: fc.nat(40), rate: rateArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('disconnect' as const), watch: fc.nat(40) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('saboteur' as const),
      target: fc.nat(40),
      act: fc.oneof(fc.constant('disconnect' as const), rateArb),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('step' as const),
      ms: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 300, max: 2500 })),
    }),
  },
);

/** Everything a user can read about a run's watches, as one string per watch plus the metrics. */
async function run(cmds: readonly Cmd[], fastPaths: boolean): Promise<string[]> {
  const clock = new FakeClock(0);
  // An inspector nobody listens to: the engine takes its quiet paths.
  const r: Resource = createResource({
    clock,
    rand: new SeededRandom(5),
    eventSink: new EventHub(),
    cache: { bookmarkFrequency: 2000, fastPaths },
  });
  r.start();
  await r.waitReady();
  await r.step(20);
  const watches: OpenedWatch[] = [];
  // A callback per event keeps the client off the in-place path (it could do anything).
  const onEvent = (): void => undefined;
  for (const c of cmds) {
    switch (c.op) {
      case 'write': {
        const exists = (await r.get(c.ns, c.name, '', true)) !== undefined;
        if (!exists) await r.create(makePod({ name: c.name, namespace: c.ns, labels: { x: c.x } }));
        else if (c.del) await r.delete(c.ns, c.name);
        else await r.setLabels(c.ns, c.name, { x: c.x });
        await r.settle();
        break;
      }
      case 'watch':
        for (let i = 0; i < c.n; i++) {
          watches.push(
            await r.watch({
              namespace: c.ns,
              labelSelector: c.selector,
              resourceVersion: String(r.etcd.currentRevision()),
              allowWatchBookmarks: c.bookmarks,
              contentType: c.contentType,
              keepEvents: c.keep,
              onEvent: c.callback ? onEvent : undefined,
            }),
          );
        }
        break;
      case 'rate':
        if (watches.length > 0) watches[c.watch % watches.length].client.setReadRate(c.rate);
        break;
      case 'disconnect':
        if (watches.length > 0) watches[c.watch % watches.length].client.disconnect();
        break;
      case 'saboteur': {
        // Acts during a dispatch, on a watch later (or earlier) in the dispatch order.
        let done = false;
        const target = c.target;
        const act = c.act;
        watches.push(
          await r.watch({
            resourceVersion: String(r.etcd.currentRevision()),
            keepEvents: false,
            onEvent: (e) => {
              if (done || Number(e.resourceVersion) % 3 !== 0 || watches.length === 0) return;
              done = true;
              const w = watches[target % watches.length];
              if (act === 'disconnect') w.client.disconnect();
              else w.client.setReadRate(act);
            },
          }),
        );
        break;
      }
      case 'step':
        await r.step(c.ms);
        break;
    }
  }
  await r.step(3000);
  const out = watches.map((w, i) => {
    const counts = w.watcher instanceof CacheWatcher ? JSON.stringify(w.watcher.counts) : '';
    const c = w.client;
    return `#${i} received=${c.received} bytes=${c.bytesEncoded} lastRv=${c.lastResourceVersion} kept=${c.events.map((e) => `${e.type}@${e.resourceVersion}`).join(',')} closed=${c.closeReason ?? '-'} ${counts}`;
  });
  out.push(r.metrics.text());
  r.stop();
  return out;
}

/** Counts the events the fast paths took (in place one by one, or by runs) while `f` runs. */
async function countingFastPaths<T>(
  f: () => Promise<T>,
): Promise<{ result: T; inPlace: number; byRuns: number }> {
  const add = InPlaceDelivery.prototype.add;
  const dispatch = WatcherRun.prototype.dispatch;
  let inPlace = 0;
  let byRuns = 0;
  InPlaceDelivery.prototype.add = function (this: InPlaceDelivery, e) {
    const took = add.call(this, e);
    if (took) inPlace++;
    return took;
  };
  WatcherRun.prototype.dispatch = function (this: WatcherRun, e) {
    const took = dispatch.call(this, e);
    if (took) byRuns += this.members.length;
    return took;
  };
  try {
    return { result: await f(), inPlace, byRuns };
  } finally {
    InPlaceDelivery.prototype.add = add;
    WatcherRun.prototype.dispatch = dispatch;
  }
}

describe('the fast paths (in-place delivery, watcher runs)', () => {
  it("leave everything a user can read as upstream's path does, over random workloads", async () => {
    let delivered = 0;
    let inPlace = 0;
    let byRuns = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 10, maxLength: 60 }), async (cmds) => {
        const on = await countingFastPaths(() => run(cmds, true));
        const off = await countingFastPaths(() => run(cmds, false));
        assert.deepStrictEqual(on.result, off.result);
        assert.strictEqual(off.inPlace + off.byRuns, 0, 'off: no fast path at all');
        inPlace += on.inPlace;
        byRuns += on.byRuns;
        for (const line of on.result) delivered += Number(/received=(\d+)/.exec(line)?.[1] ?? 0);
      }),
      { numRuns: 60 },
    );
    assert.ok(delivered > 2000, `the workloads delivered ${delivered} events in all`);
    assert.ok(inPlace > 100, `${inPlace} events were taken in place one by one`);
    assert.ok(byRuns > 100, `${byRuns} events were taken by runs`);
  });

  it('counts in place, and the counts are there as soon as anyone looks', async () => {
    const clock = new FakeClock(0);
    const r = createResource({ clock, rand: new SeededRandom(1) });
    r.start();
    await r.waitReady();
    await r.step(20);
    const w = await r.watch({
      resourceVersion: String(r.etcd.currentRevision()),
      contentType: contentTypeJSON,
      keepEvents: false,
    });
    const first = await countingFastPaths(async () => {
      await r.createPod({ name: 'one', namespace: 'default' });
      await r.settle();
    });
    assert.strictEqual(first.inPlace, 1, 'taken in place');
    const watcher = w.watcher as CacheWatcher;
    assert.strictEqual(w.client.received, 1);
    assert.ok(w.client.bytesEncoded > 100, `bytes ${w.client.bytesEncoded}`);
    assert.strictEqual(watcher.counts.queued, 1);
    assert.strictEqual(watcher.counts.delivered, 1);
    // A client that slows down leaves the in-place path; what it was counted stays.
    w.client.setReadRate({ kind: 'slow', eventsPerSecond: 1 });
    await r.createPod({ name: 'two', namespace: 'default' });
    await r.createPod({ name: 'three', namespace: 'default' });
    await r.settle();
    assert.strictEqual(w.client.received, 2, 'the second event is being written, the third waits');
    assert.strictEqual(watcher.counts.delivered, 3);
    await r.step(2000);
    assert.strictEqual(w.client.received, 3);
    r.stop();
  });
});
