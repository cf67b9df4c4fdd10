// Tests for the engine's fault hooks, in virtual time: Reflector.pause (cache-lag),
// WatchCache.expireHistory (expire-history), MemoryEtcd.setLatency / setUnreachable
// (etcd-latency, etcd-unavailable), CacheWatcher.terminate (terminate-watcher) and
// Resource.restart (restart). Each case checks what a client of the resource then sees.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { EtcdError, unreachableDesc } from '../../../src/engine/etcd/kv';
import { RecordingSink } from '../../../src/engine/inspect/events';
import { StatusError, type Status } from '../../../src/engine/storage/errors';
import {
  createResource,
  type CreateResourceOptions,
  type Resource,
} from '../../../src/engine/apiserver';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import { liveRunHeader } from '../run/live-run-header-fixture';

async function started(o: Partial<CreateResourceOptions> = {}): Promise<Resource> {
  const clock = new FakeClock(0);
  const r = createResource({ clock, rand: new SeededRandom(42), ...o });
  await r.createPod({ name: 'a', namespace: 'ns' });
  r.start();
  await r.waitReady();
  await r.step(20);
  return r;
}

describe('fault hooks', () => {
  describe('Reflector.pause (cache-lag)', () => {
    const cases: {
      name: string;
      gates?: CreateResourceOptions['gates'];
      want: 'etcd' | 429;
    }[] = [
      { name: 'release-1.36: the consistent read falls back to etcd', want: 'etcd' },
      {
        name: 'ConsistentListFromCacheSkipTimeoutFallback: the consistent read answers 429',
        gates: { ConsistentListFromCacheSkipTimeoutFallback: true },
        want: 429,
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const insp = new RecordingSink();
        const r = await started({ gates: c.gates, eventSink: insp });
        r.cacher.reflector.pause(5000);
        await r.createPod({ name: 'b', namespace: 'ns' });
        await r.settle();
        assert.strictEqual(r.cacher.reflector.pausedFor(), 5000);
        assert.strictEqual(r.cacher.reflector.queuedEvents(), 1, 'the event is held');
        assert.ok(r.watchCache.resourceVersion < r.etcd.currentRevision(), 'the cache lags');
        const list = r.list({ namespace: 'ns' }).then(
          (l) => l,
          (e: unknown) => e,
        );
        await r.step(3100);
        const got = await list;
        if (c.want === 'etcd') {
          assert.deepStrictEqual(
            (got as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name),
            ['a', 'b'],
          );
          assert.strictEqual(insp.ofType('delegator/fallback')[0]?.fallback, 'true');
        } else {
          assert.ok(got instanceof StatusError, String(got));
          assert.strictEqual(got.status.code, 429);
          assert.strictEqual(insp.ofType('delegator/fallback')[0]?.fallback, 'skipped');
        }
        await r.step(2000);
        assert.strictEqual(r.cacher.reflector.pausedFor(), 0);
        assert.strictEqual(r.cacher.reflector.queuedEvents(), 0, 'replayed at the end');
        assert.strictEqual(r.watchCache.resourceVersion, r.etcd.currentRevision());
        r.stop();
      });
    }

    it('a second, shorter pause does not end the first one early', async () => {
      const r = await started();
      r.cacher.reflector.pause(5000);
      await r.step(1000);
      r.cacher.reflector.pause(1000);
      await r.createPod({ name: 'b', namespace: 'ns' });
      await r.step(2000);
      assert.strictEqual(r.cacher.reflector.queuedEvents(), 1);
      await r.step(2000);
      assert.strictEqual(r.watchCache.resourceVersion, r.etcd.currentRevision());
      r.stop();
    });
  });

  describe('WatchCache.expireHistory (expire-history)', () => {
    it('a watch resuming from an older RV gets 410; one from now does not', async () => {
      const r = await started();
      const first = await r.createPod({ name: 'b', namespace: 'ns' });
      await r.createPod({ name: 'c', namespace: 'ns' });
      await r.settle();
      const resumeRV = first.metadata.resourceVersion as string;
      assert.strictEqual(r.watchCache.expireHistory(), 2);
      const now = r.watchCache.resourceVersion;
      const old = await r.watch({ resourceVersion: resumeRV });
      await r.step(10);
      const err = old.client.events[0];
      assert.strictEqual(err?.type, 'ERROR');
      assert.strictEqual(
        (err.object as unknown as Status).message,
        `too old resource version: ${resumeRV} (${now})`,
      );
      const fresh = await r.watch({ resourceVersion: String(now) });
      await r.createPod({ name: 'd', namespace: 'ns' });
      await r.step(10);
      assert.deepStrictEqual(
        fresh.client.events.map((e) => [e.type, e.object.metadata.name]),
        [['ADDED', 'd']],
      );
      r.stop();
    });
  });

  describe('MemoryEtcd.setLatency (etcd-latency)', () => {
    it('the next request takes the new model, and waits for it when simulated', async () => {
      const clock = new FakeClock(0);
      const etcd = new MemoryEtcd({ clock });
      etcd.put('/k', 'v');
      assert.strictEqual((await etcd.range({ key: '/k' })).latencyMs, 0);
      etcd.setLatency({ perRequestMs: 250, perKeyMs: 50 }, true);
      assert.deepStrictEqual(
        [etcd.latencyModel.perRequestMs, etcd.latencyModel.perKeyMs, etcd.simulatesLatency],
        [250, 50, true],
      );
      let done = false;
      const p = etcd.range({ key: '/k' }).then((resp) => {
        done = true;
        return resp;
      });
      await clock.stepAsync(299);
      assert.strictEqual(done, false, 'still waiting at 299 ms');
      await clock.stepAsync(1);
      assert.strictEqual((await p).latencyMs, 300);
      assert.throws(
        () => etcd.setLatency({ perKeyMs: -1 }),
        /latency model: perKeyMs must be a finite number >= 0, got -1/,
      );
    });
  });

  describe('MemoryEtcd.setUnreachable (etcd-unavailable)', () => {
    it("every request fails with grpc-go's Unavailable until the time is up", async () => {
      const clock = new FakeClock(0);
      const etcd = new MemoryEtcd({ clock });
      etcd.put('/k', 'v');
      etcd.setUnreachable(2000);
      const message = `rpc error: code = Unavailable desc = ${unreachableDesc}`;
      const calls: [string, () => Promise<unknown>][] = [
        ['range', () => etcd.range({ key: '/k' })],
        ['txn', () => etcd.txn({ success: [{ requestPut: { key: '/k', value: 'w' } }] })],
        ['deleteRange', () => etcd.deleteRange({ key: '/k' })],
        ['compaction', () => etcd.compaction({ revision: 1 })],
        [
          'rangeStream',
          async () => {
            for await (const _ of etcd.rangeStream({ key: '/k' })) void _;
          },
        ],
      ];
      for (const [name, call] of calls) {
        await assert.rejects(
          call(),
          (e: unknown) =>
            e instanceof EtcdError && e.codeName === 'Unavailable' && e.message === message,
          name,
        );
      }
      await clock.stepAsync(1500);
      assert.strictEqual(etcd.unreachableFor(), 500);
      await clock.stepAsync(500);
      assert.strictEqual((await etcd.range({ key: '/k' })).kvs[0].value, 'v');
    });

    it('a GET from etcd answers 500 with the message; the cache keeps serving RV "0"', async () => {
      const r = await started();
      r.etcd.setUnreachable(1000);
      await assert.rejects(r.get('ns', 'a'), (e: Error) =>
        e.message.startsWith('rpc error: code = Unavailable desc = connection error'),
      );
      assert.strictEqual((await r.get('ns', 'a', '0'))?.metadata.name, 'a');
      await r.step(1000);
      assert.strictEqual((await r.get('ns', 'a'))?.metadata.name, 'a');
      r.stop();
    });

    it('sends no progress notification while unreachable', async () => {
      const clock = new FakeClock(0);
      const etcd = new MemoryEtcd({ clock });
      etcd.put('/k', 'v');
      const w = etcd.watch({ key: '/k', startRevision: 1, progressNotify: true });
      const got: number[] = [];
      w.onResponse((resp) => {
        if (resp.progressNotify) got.push(resp.header.revision);
      });
      etcd.setUnreachable(1000);
      w.requestProgress();
      await clock.stepAsync(1000);
      w.requestProgress();
      await clock.stepAsync(0);
      assert.deepStrictEqual(got, [2], 'only the request after the outage is answered');
    });
  });

  describe('CacheWatcher.terminate (terminate-watcher)', () => {
    it('closes the watcher as an unresponsive one: log line, metric, client closed', async () => {
      const lines: string[] = [];
      const r = await started({ log: (m) => lines.push(m) });
      const w = await r.watch({ namespace: 'ns', resourceVersion: '0' });
      await r.step(10);
      const [watcher] = r.cacher.registeredWatchers();
      assert.strictEqual(watcher.request?.requestId, w.request.requestId);
      assert.strictEqual(watcher.terminate(), true);
      assert.strictEqual(watcher.terminate(), false, 'already stopped');
      await r.step(10);
      assert.ok(w.client.closed);
      assert.strictEqual(r.cacher.watcherCount(), 0);
      assert.ok(
        lines.some((l) =>
          l.startsWith('Forcing pods watcher close due to unresponsiveness: key: "/pods/ns/"'),
        ),
        lines.join('\n'),
      );
      assert.strictEqual(
        r.metrics.samples()['apiserver_terminated_watchers_total{group="",resource="pods"}'],
        1,
      );
      r.stop();
    });

    it('records that the fault cut it, and the run model says so (not a blocked dispatch)', async () => {
      const insp = new RecordingSink();
      const r = await started({ eventSink: insp });
      await r.watch({ namespace: 'ns', resourceVersion: '0' });
      await r.step(10);
      const [watcher] = r.cacher.registeredWatchers();
      assert.strictEqual(watcher.terminate(), true);
      await r.step(10);
      const [terminated] = insp.ofType('watcher/terminated');
      assert.strictEqual(terminated.cause, 'fault');
      const b = new RunModelBuilder(liveRunHeader());
      for (const e of insp.events) b.add(e);
      const [w] = b.finish().watchers;
      assert.strictEqual(w.closeReason, 'terminated by the terminate-watcher fault');
      assert.ok(
        w.log.some((l) => l.text === 'terminated by the terminate-watcher fault'),
        w.log.map((l) => l.text).join('\n'),
      );
      r.stop();
    });
  });

  describe('Resource.restart (restart)', () => {
    it('closes every watch, rebuilds the cache over the same etcd, and serves again', async () => {
      const r = await started();
      const w = await r.watch({ namespace: 'ns', resourceVersion: '0' });
      await r.step(10);
      const before = r.cacher;
      r.restart();
      assert.notStrictEqual(r.cacher, before);
      assert.ok(before.isStopped);
      await assert.rejects(
        r.list({ resourceVersion: '0' }),
        (e: StatusError) => e.status.code === 429,
      );
      await r.waitReady();
      await r.step(10);
      assert.ok(w.client.closed, 'the old watch ended');
      assert.strictEqual(r.watchCache.resourceVersion, r.etcd.currentRevision());
      const list = await r.list({ namespace: 'ns', resourceVersion: '0' });
      assert.deepStrictEqual(
        list.items.map((i) => i.metadata.name),
        ['a'],
      );
      const again = await r.watch({ namespace: 'ns', resourceVersion: '0' });
      await r.step(10);
      assert.deepStrictEqual(
        again.client.events.map((e) => e.type),
        ['ADDED'],
      );
      r.stop();
    });
  });
});
