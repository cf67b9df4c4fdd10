// The engine over a real etcd: createResource with a GrpcEtcd (RealClock) creates pods, pages a
// LIST from etcd with limit/continue, and watches through the cacher, against etcd 3.4 on loopback.
import * as assert from 'assert';
import { createResource, type Resource } from '../../src/engine/apiserver';
import { RealClock } from '../../src/engine/clock';
import { SeededRandom } from '../../src/engine/rand';
import type { ClientWatchEvent } from '../../src/engine/clients/watch-client';
import { GrpcEtcd } from '../../src/etcd-client/grpc-etcd';
import { spawnEtcd, type SpawnedEtcd } from '../../src/etcd-client/etcd-process';

describe('the engine over GrpcEtcd (etcd 3.4)', function () {
  let server: SpawnedEtcd;
  let etcd: GrpcEtcd;
  let r: Resource<GrpcEtcd>;

  before(async () => {
    server = await spawnEtcd();
    etcd = await GrpcEtcd.connect({ endpoints: server.clientURLs });
    r = createResource({
      clock: new RealClock(),
      rand: new SeededRandom(1),
      etcd,
      recordEtcdRequests: true,
    });
  });

  after(async () => {
    r?.stop();
    etcd?.close();
    await server?.stop();
  });

  it('creates pods and pages them from etcd with limit and continue', async () => {
    for (let i = 0; i < 25; i++) await r.createPod({ name: `pod-${String(i).padStart(2, '0')}` });
    r.recorder?.clear();
    const names: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    let rv = '';
    do {
      // resourceVersion "" with a limit: served by etcd (a consistent read), page by page.
      const page = await r.list({ namespace: 'default', limit: 10, continue: cont });
      pages++;
      for (const p of page.items) names.push((p.metadata as { name: string }).name);
      if (pages === 1) {
        assert.strictEqual(page.remainingItemCount, 15);
        rv = page.resourceVersion;
      } else
        assert.strictEqual(page.resourceVersion, rv, 'every page at the first page’s revision');
      cont = page.continue;
    } while (cont);
    assert.strictEqual(pages, 3);
    assert.deepStrictEqual(
      names,
      Array.from({ length: 25 }, (_, i) => `pod-${String(i).padStart(2, '0')}`),
    );
    const ranges = (r.recorder?.requests ?? []).filter((q) => q.op === 'range');
    assert.deepStrictEqual(
      ranges.map((q) => [q.limit, q.kvs]),
      [
        [10, 10],
        [10, 10],
        [10, 5],
      ],
    );
    assert.strictEqual(String(etcd.currentRevision()), rv);
  });

  it('the cacher lists and watches etcd: a watch from the cache sees a create and a delete', async () => {
    r.start();
    await r.waitReady();
    const seen: ClientWatchEvent[] = [];
    let done: () => void = () => {};
    const twoEvents = new Promise<void>((resolve) => (done = resolve));
    const list = await r.list({ namespace: 'default', resourceVersion: '0' });
    assert.strictEqual(list.items.length, 25, 'the watch cache holds what etcd holds');
    const w = await r.watch({
      namespace: 'default',
      resourceVersion: list.resourceVersion,
      onEvent: (e) => {
        seen.push(e);
        if (seen.length === 2) done();
      },
    });
    const created = await r.createPod({ name: 'late' });
    const deleted = await r.delete('default', 'pod-00');
    await twoEvents;
    w.ctx.cancel();
    assert.deepStrictEqual(
      seen.map((e) => [e.type, (e.object.metadata as { name: string }).name, e.resourceVersion]),
      [
        ['ADDED', 'late', (created.metadata as { resourceVersion: string }).resourceVersion],
        ['DELETED', 'pod-00', (deleted.metadata as { resourceVersion: string }).resourceVersion],
      ],
    );
  });
});
