// Tests for src/engine/apiserver.ts with many watchers: what the benchmarks measure, checked for
// correctness (no timings): one event reaches every watcher with two encodes, every watcher gets
// exactly one heartbeat a minute, watches with the same selectors share their parsed predicate.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { RecordingSink } from '../../../src/engine/inspect/events';
import { StatusError } from '../../../src/engine/storage/errors';
import { contentTypeJSON, contentTypeProtobuf } from '../../../src/engine/cacher/object-encoders';
import { createResource, type OpenedWatch, type Resource } from '../../../src/engine/apiserver';

async function started(
  seed: number,
  eventSink?: RecordingSink,
): Promise<{ r: Resource; clock: FakeClock }> {
  const clock = new FakeClock(0);
  const r = createResource({ clock, rand: new SeededRandom(seed), eventSink: eventSink });
  r.start();
  await r.waitReady();
  await r.step(20);
  return { r, clock };
}

describe('createResource with many watchers', () => {
  it('one event reaches every matching watcher; each content type is encoded once', async () => {
    const insp = new RecordingSink();
    const { r } = await started(3, insp);
    const rv = String(r.etcd.currentRevision());
    const ws: OpenedWatch[] = [];
    for (let i = 0; i < 600; i++) {
      ws.push(
        await r.watch({
          resourceVersion: rv,
          contentType:
            i % 3 === 0 ? contentTypeJSON : i % 3 === 1 ? contentTypeProtobuf : undefined,
          labelSelector: i % 5 === 0 ? 'app=db' : undefined,
          keepEvents: i % 2 === 0,
        }),
      );
    }
    insp.clear();
    await r.createPod({ name: 'web-1', namespace: 'ns', labels: { app: 'web' } });
    await r.settle();
    r.flushEvents();
    const matching = ws.filter((_, i) => i % 5 !== 0);
    assert.deepStrictEqual(
      ws.map((w) => w.client.received),
      ws.map((_, i) => (i % 5 === 0 ? 0 : 1)),
      'app=db watchers get nothing',
    );
    const encoded = insp.ofType('serialization/encode');
    const encoders = matching.map((w) => w.client.identifier).filter((id) => id !== undefined);
    assert.deepStrictEqual(
      [encoded.reduce((s, e) => s + e.encodes, 0), encoded.reduce((s, e) => s + e.hits, 0)],
      [2, encoders.length - 2],
    );
    const kept = ws.filter((_, i) => i % 2 === 0 && i % 5 !== 0);
    assert.ok(
      kept.every(
        (w) => w.client.events.length === 1 && w.client.events[0].object.metadata.name === 'web-1',
      ),
    );
    const notKept = ws.filter((_, i) => i % 2 === 1);
    assert.ok(
      notKept.every((w) => w.client.events.length === 0 && Object.isFrozen(w.client.events)),
      'keepEvents=false keeps nothing',
    );
    r.stop();
  });

  it('every watcher gets exactly one heartbeat a minute, whenever it was opened', async () => {
    const { r, clock } = await started(5);
    const rv = String(r.etcd.currentRevision());
    const ws: OpenedWatch[] = [];
    for (let second = 0; second < 30; second++) {
      await r.step(second * 1000 + 20 - clock.now());
      for (let i = 0; i < 40; i++)
        ws.push(
          await r.watch({ resourceVersion: rv, allowWatchBookmarks: true, keepEvents: false }),
        );
    }
    // Bookmarks carry the last event's RV: a watcher only gets them once that is newer than its start.
    await r.createPod({ name: 'anchor', namespace: 'ns' });
    await r.step(60_000 - clock.now());
    const per: number[][] = [];
    for (let minute = 1; minute <= 3; minute++) {
      const before = ws.map((w) => w.client.received);
      await r.step((minute + 1) * 60_000 - clock.now());
      per.push(ws.map((w, i) => w.client.received - before[i]));
    }
    for (const [m, counts] of per.entries()) {
      assert.deepStrictEqual(
        new Set(counts),
        new Set([1]),
        `minute ${m + 1}: one heartbeat per watcher`,
      );
    }
    r.stop();
  });

  it('watches with the same selectors share one parsed predicate; a bad selector is rejected every time', async () => {
    const { r } = await started(7);
    const rv = String(r.etcd.currentRevision());
    const a = await r.watch({
      resourceVersion: rv,
      labelSelector: 'app=web',
      allowWatchBookmarks: true,
    });
    const b = await r.watch({
      resourceVersion: rv,
      labelSelector: 'app=web',
      allowWatchBookmarks: true,
    });
    const c = await r.watch({
      resourceVersion: rv,
      labelSelector: 'app=web',
      allowWatchBookmarks: false,
    });
    const d = await r.watch({
      resourceVersion: rv,
      labelSelector: 'app=db',
      allowWatchBookmarks: true,
    });
    assert.strictEqual(a.options.predicate, b.options.predicate);
    assert.notStrictEqual(
      a.options.predicate,
      c.options.predicate,
      'allowWatchBookmarks is part of the predicate',
    );
    assert.notStrictEqual(a.options.predicate, d.options.predicate);
    assert.notStrictEqual(a.options, b.options, 'each watch has its own options');
    for (let i = 0; i < 2; i++) {
      await assert.rejects(
        r.watch({ labelSelector: '!!' }),
        (e: unknown) => e instanceof StatusError && e.status.code === 400,
      );
    }
    await r.createPod({ name: 'w', namespace: 'ns', labels: { app: 'web' } });
    await r.settle();
    assert.deepStrictEqual(
      [a, b, c, d].map((w) => w.client.received),
      [1, 1, 1, 0],
    );
    r.stop();
  });
});
