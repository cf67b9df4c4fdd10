// Tests for src/engine/etcd3/watcher.ts (etcd3/watcher.go, release-1.36): the initial sync, the
// watch from its revision + 1, selector transitions, progress notifications as BOOKMARKs, the 410
// for a compacted start, WatchList's initial-events-end bookmark and the RangeStream sync.
import * as assert from 'assert';
import {
  defaultWatcherMaxLimit,
  initialEventsAnnotationKey,
  type StorageWatch,
  type StorageWatchEvent,
  type WatchOptions,
} from '../../../src/engine/etcd3/watcher';
import { maxLimit } from '../../../src/engine/etcd3/store';
import type { Status } from '../../../src/engine/storage/errors';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { computePodKey, pod, testSetup, type SetupOptions, type TestSetup } from './etcd3-testing';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

interface Collected {
  w: StorageWatch;
  events: StorageWatchEvent[];
}

async function collect(t: TestSetup, key: string, opts: WatchOptions): Promise<Collected> {
  const w = await t.store.watch(key, opts);
  const events: StorageWatchEvent[] = [];
  w.onEvent((e) => events.push(e));
  await t.settle();
  return { w, events };
}

/** `TYPE ns/name@rv` (or `BOOKMARK@rv`, `ERROR code`). */
function show(e: StorageWatchEvent): string {
  if (e.type === 'ERROR') return `ERROR ${(e.object as Status).code}`;
  const o = e.object as KubeObject;
  if (e.type === 'BOOKMARK') return `BOOKMARK@${o.metadata.resourceVersion}`;
  return `${e.type} ${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`;
}

async function seed(t: TestSetup): Promise<void> {
  for (const p of [pod('a', 'x'), pod('b', 'y')]) await t.store.create(computePodKey(p), p); // RVs 2, 3
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function watcherCases(etcd: EtcdUnderTest): void {
  describe('etcd3 watcher', () => {
    it('uses defaultWatcherMaxLimit = maxLimit for its sync pages', () => {
      assert.strictEqual(defaultWatcherMaxLimit, maxLimit);
    });

    it('legacy RV "" / "0": the current state as ADDED, then ADDED/MODIFIED/DELETED from the etcd watch', async () => {
      for (const rv of ['', '0']) {
        const t = await testSetup(etcd);
        await seed(t);
        const { w, events } = await collect(t, '/pods/', { resourceVersion: rv });
        await t.store.create('/pods/c/z', pod('c', 'z')); // 4
        await t.store.guaranteedUpdate('/pods/a/x', (o) => ({
          ...o,
          metadata: { ...o.metadata, labels: { v: '2' } },
        })); // 5
        await t.store.delete('/pods/b/y'); // 6
        await t.settle();
        assert.deepStrictEqual(
          events.map(show),
          ['ADDED a/x@2', 'ADDED b/y@3', 'ADDED c/z@4', 'MODIFIED a/x@5', 'DELETED b/y@6'],
          `rv ${JSON.stringify(rv)}`,
        );
        const watchReq = t.recorder.requests.find((r) => r.op === 'watch');
        assert.strictEqual(watchReq?.revision, 4, 'the etcd watch starts at the sync revision + 1');
        w.stop();
        assert.strictEqual(w.stopped, true);
      }
    });

    it('from RV N: no sync, only the changes after N; a non-recursive watch sees one key', async () => {
      const t = await testSetup(etcd);
      await seed(t);
      await t.store.guaranteedUpdate('/pods/a/x', (o) => ({
        ...o,
        metadata: { ...o.metadata, labels: { v: '2' } },
      })); // 4
      const all = await collect(t, '/pods/', { resourceVersion: '3' });
      const one = await collect(t, '/pods/b/y', { resourceVersion: '3', recursive: false });
      await t.store.guaranteedUpdate('/pods/b/y', (o) => ({
        ...o,
        metadata: { ...o.metadata, labels: { v: '2' } },
      })); // 5
      await t.settle();
      assert.deepStrictEqual(all.events.map(show), ['MODIFIED a/x@4', 'MODIFIED b/y@5']);
      assert.deepStrictEqual(one.events.map(show), ['MODIFIED b/y@5']);
      assert.strictEqual(
        t.recorder.requests.filter((r) => r.op === 'range' && r.rangeEnd !== '').length,
        0,
        'no sync read (only the updates` gets)',
      );
    });

    it('turns updates across the selector into ADDED / DELETED (transform)', async () => {
      const t = await testSetup(etcd);
      await t.store.create('/pods/a/x', pod('a', 'x')); // 2
      const { events } = await collect(t, '/pods/', {
        resourceVersion: '2',
        predicate: { label: 'tier=web' },
      });
      const setLabel = (v: string | undefined) => (o: KubeObject) => ({
        ...o,
        metadata: { ...o.metadata, labels: v ? { tier: v } : undefined },
      });
      await t.store.guaranteedUpdate('/pods/a/x', setLabel('web')); // 3: in
      await t.store.guaranteedUpdate('/pods/a/x', (o) => ({
        ...o,
        metadata: { ...o.metadata, labels: { tier: 'web', x: '1' } },
      })); // 4: stays
      await t.store.guaranteedUpdate('/pods/a/x', setLabel('db')); // 5: out
      await t.store.guaranteedUpdate('/pods/a/x', setLabel(undefined)); // 6: stays out
      await t.store.create('/pods/a/y', {
        ...pod('a', 'y'),
        metadata: { name: 'y', namespace: 'a', labels: { tier: 'web' } },
      }); // 7
      await t.store.delete('/pods/a/y'); // 8
      await t.settle();
      assert.deepStrictEqual(events.map(show), [
        'ADDED a/x@3',
        'MODIFIED a/x@4',
        'DELETED a/x@5',
        'ADDED a/y@7',
        'DELETED a/y@8',
      ]);
      assert.deepStrictEqual(
        (events[2].object as KubeObject).metadata.labels,
        { tier: 'web', x: '1' },
        'DELETED carries the old object',
      );
    });

    it('a compacted start revision ends the watch with a 410 ERROR (upstream message)', async () => {
      const t = await testSetup(etcd);
      await seed(t);
      await t.etcd.put('/registry/pods/a/x', JSON.stringify(pod('a', 'x'))); // 4
      await t.etcd.compact(4);
      const it = (await t.store.watch('/pods/', { resourceVersion: '2' }))[Symbol.asyncIterator]();
      const first = await it.next();
      assert.strictEqual(first.done, false);
      const e = first.value as StorageWatchEvent;
      assert.strictEqual(e.type, 'ERROR');
      assert.deepStrictEqual(e.object, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'The resourceVersion for the provided watch is too old.',
        reason: 'Expired',
        code: 410,
      });
      assert.strictEqual((await it.next()).done, true, 'the watch ends after the error');
    });

    // Memory only: the progress ticker runs in virtual time; a real etcd's runs on its own clock
    // (--experimental-watch-progress-notify-interval, 10 minutes by default).
    if (etcd.kind === 'memory')
      it('progress notifications become BOOKMARKs and count in etcd_bookmark_total / etcd_bookmark_counts', async () => {
        const t = await testSetup(etcd, { progressNotifyIntervalMs: 60_000 });
        await seed(t);
        const { w, events } = await collect(t, '/pods/', {
          resourceVersion: '3',
          progressNotify: true,
        });
        // etcd reports no progress before the watch's start revision (4) exists.
        w.requestWatchProgress();
        await t.settle();
        assert.deepStrictEqual(events.map(show), []);
        await t.etcd.put('/registry/other/k', 'v'); // 4, outside the watched prefix
        w.requestWatchProgress();
        await t.settle();
        assert.deepStrictEqual(events.map(show), ['BOOKMARK@4']);
        assert.deepStrictEqual(events[0].object, { metadata: { resourceVersion: '4' } });
        await t.etcd.put('/registry/other/k', 'v2'); // 5
        await t.clock.stepAsync(60_000);
        assert.deepStrictEqual(
          events.map(show),
          ['BOOKMARK@4', 'BOOKMARK@5'],
          'the progress ticker',
        );
        t.store.requestWatchProgress();
        await t.settle();
        assert.deepStrictEqual(
          events.map(show),
          ['BOOKMARK@4', 'BOOKMARK@5', 'BOOKMARK@5'],
          'store.requestWatchProgress',
        );
        const s = t.store.metrics.samples();
        assert.strictEqual(s['etcd_bookmark_total{group="",resource="pods"}'], 3);
        assert.strictEqual(s['etcd_bookmark_counts{group="",resource="pods"}'], 3);
        assert.ok(
          t.store.metrics
            .text(['etcd_bookmark_counts'])
            .includes('[ALPHA] (Deprecated since 1.36.0) Number of etcd bookmarks'),
        );
        w.stop();
      });

    it('syncs in pages of 10000 keys pinned at the first page`s revision (10001 pods)', async () => {
      const t = await testSetup(etcd);
      for (let i = 0; i <= 10000; i++)
        await t.etcd.put(
          `/registry/pods/ns/p-${String(i).padStart(5, '0')}`,
          JSON.stringify(pod('ns', `p-${i}`)),
        );
      const rev = t.etcd.currentRevision();
      let added = 0;
      const w = await t.store.watch('/pods/', {});
      w.onEvent((e) => {
        if (e.type === 'ADDED') added++;
      });
      await t.settle(50);
      const ranges = t.recorder.requests.filter((r) => r.op === 'range');
      assert.deepStrictEqual(
        ranges.map((r) => [r.key, r.limit, r.revision, r.kvs]),
        [
          ['/registry/pods/', 10000, 0, 10000],
          ['/registry/pods/ns/p-09999\x00', 10000, rev, 1],
        ],
      );
      assert.strictEqual(added, 10001);
      assert.strictEqual(
        t.store.metrics.samples()['etcd_requests_total{group="",operation="list",resource="pods"}'],
        2,
      );
      assert.strictEqual(t.recorder.requests.find((r) => r.op === 'watch')?.revision, rev + 1);
      w.stop();
    });

    it('WatchList: sendInitialEvents ends the initial events with an annotated BOOKMARK; a future RV is a 504 ERROR', async () => {
      const t = await testSetup(etcd, { features: { WatchList: true } });
      await seed(t);
      const { events } = await collect(t, '/pods/', {
        sendInitialEvents: true,
        allowWatchBookmarks: true,
      });
      assert.deepStrictEqual(events.map(show), ['ADDED a/x@2', 'ADDED b/y@3', 'BOOKMARK@3']);
      assert.deepStrictEqual(events[2].object, {
        metadata: { resourceVersion: '3', annotations: { [initialEventsAnnotationKey]: 'true' } },
      });
      const noBookmark = await collect(t, '/pods/', { sendInitialEvents: true });
      assert.deepStrictEqual(noBookmark.events.map(show), ['ADDED a/x@2', 'ADDED b/y@3']);
      const future = await collect(t, '/pods/', { sendInitialEvents: true, resourceVersion: '50' });
      assert.strictEqual(future.events.length, 1);
      const st = future.events[0].object as Status;
      assert.strictEqual(st.code, 504);
      assert.strictEqual(st.message, 'Timeout: Too large resource version: 50, current: 3');
      const retry = st.details?.retryAfterSeconds ?? 0;
      assert.ok(
        retry >= 1 && retry <= 3,
        `retryAfterSeconds ${retry} in 1..3 (wait.Jitter(1s, 3))`,
      );
      // sendInitialEvents=false with RV "": start at the current RV, no initial events.
      const fromNow = await collect(t, '/pods/', { sendInitialEvents: false });
      await t.store.create('/pods/c/z', pod('c', 'z'));
      await t.settle();
      assert.deepStrictEqual(fromNow.events.map(show), ['ADDED c/z@4']);
    });

    it('with the gate off, sendInitialEvents is ignored unless RV is "" (legacy)', async () => {
      const t = await testSetup(etcd);
      await seed(t);
      const { events } = await collect(t, '/pods/', {
        sendInitialEvents: true,
        allowWatchBookmarks: true,
        resourceVersion: '3',
      });
      await t.store.create('/pods/c/z', pod('c', 'z'));
      await t.settle();
      assert.deepStrictEqual(events.map(show), ['ADDED c/z@4']);
    });

    const streamProfiles: [string, SetupOptions, string[], boolean][] = [
      [
        'supported',
        {
          features: { EtcdRangeStream: true },
          rangeStream: 'supported',
          rangeStreamInitialChunk: 1,
        },
        ['rangeStream'],
        true,
      ],
      [
        'unimplemented',
        { features: { EtcdRangeStream: true }, rangeStream: 'unimplemented' },
        ['rangeStream', 'range'],
        false,
      ],
    ];
    // Memory only for 'supported': RangeStream is etcd 3.7's; the etcd suite's 3.4 answers Unimplemented.
    for (const [name, setup, wantOps, supported] of streamProfiles.filter(
      ([, s]) => etcd.kind === 'memory' || s.rangeStream !== 'supported',
    )) {
      it(`syncs through one RangeStream when the gate is on (etcd: ${name})`, async () => {
        const t = await testSetup(etcd, setup);
        await seed(t);
        t.recorder.clear();
        const { events } = await collect(t, '/pods/', {});
        assert.deepStrictEqual(events.map(show), ['ADDED a/x@2', 'ADDED b/y@3']);
        assert.deepStrictEqual(
          t.recorder.requests.filter((r) => r.op !== 'watch').map((r) => r.op),
          wantOps,
        );
        assert.strictEqual(t.recorder.requests.find((r) => r.op === 'watch')?.revision, 4);
        assert.strictEqual(t.store.featureSupportChecker.supports('RangeStream'), supported);
        assert.strictEqual(
          t.store.metrics.samples()[
            'etcd_requests_total{group="",operation="listStream",resource="pods"}'
          ],
          supported ? 1 : undefined,
        );
        assert.strictEqual(t.eventSink.ofType('list/stream-fallback').length, supported ? 0 : 1);
      });
    }

    it('counts etcd watch events in apiserver_storage_events_received_total (not the sync)', async () => {
      const t = await testSetup(etcd);
      await seed(t);
      await collect(t, '/pods/', {});
      await t.store.create('/pods/c/z', pod('c', 'z'));
      await t.settle();
      assert.strictEqual(
        t.store.metrics.samples()[
          'apiserver_storage_events_received_total{group="",resource="pods"}'
        ],
        1,
      );
      assert.ok(
        t.store.metrics.text(['apiserver_storage_events_received_total']).includes('[BETA]'),
      );
    });
  });
}
