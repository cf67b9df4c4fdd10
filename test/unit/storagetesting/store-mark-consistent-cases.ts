// Port of TestMarkConsistent (k8s.io/apiserver pkg/storage/cacher/cacher_test.go, release-1.36),
// end to end: the cacher over the etcd3 store over the in-memory etcd, ListFromCacheSnapshot on.
// An exact-RV list is served from a snapshot while the cache is consistent, from etcd once
// MarkConsistent(false) has dropped the snapshots and until MarkConsistent(true) lets new ones
// be taken. Master drops the snapshot-count checks; release-1.36's are kept.
import * as assert from 'assert';
import { resourceVersionMatchExact } from '../../../src/engine/storage/list-options';
import { computePodKey, examplePod, listOptions, Subtests } from './store-fixtures';
import { newCacherStore, type CacherSetup } from './store-under-test';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeMarkConsistentCases(etcd: EtcdUnderTest): void {
  describe('TestMarkConsistent', () => {
    it('cacher: 4 steps, etcd list requests and snapshot counts', async () => {
      const s: CacherSetup = await newCacherStore(etcd, { gates: { ListFromCacheSnapshot: true } });
      let created = 0;
      // createObject: a pod with a fresh name (upstream: rand.String(10)).
      const createObject = async (): Promise<string> => {
        const pod = examplePod('default', `pod-${++created}`);
        const out = await s.create(computePodKey(pod), pod);
        return out.metadata.resourceVersion as string;
      };
      // etcdListRequests: the etcd List calls (ranges over a prefix) this one GetList made.
      const etcdListRequests = async (resourceVersion: string): Promise<string[]> => {
        const from = s.recorder.requests.length;
        await s.getList(
          '/pods/',
          listOptions({
            resourceVersionMatch: resourceVersionMatchExact,
            resourceVersion,
            recursive: true,
          }),
        );
        return s.recorder.requests
          .slice(from)
          .filter((r) => (r.op === 'range' || r.op === 'rangeStream') && r.rangeEnd !== '')
          .map((r) => `${r.key}@${r.revision}`);
      };
      const snapshots = (): number => s.cacher.watchCache.snapshots?.length ?? 0;

      const t = new Subtests();
      let resourceVersion1 = '';
      await t.run('New cache collects snapshots, list skips etcd', async () => {
        resourceVersion1 = await createObject();
        assert.deepStrictEqual(await etcdListRequests(resourceVersion1), [], 'no requests to etcd');
        assert.strictEqual(snapshots(), 2, 'cache snapshots');
      });
      await t.run('Inconsistent cache clears old snapshots, list hits etcd', async () => {
        s.cacher.markConsistent(false);
        assert.strictEqual((await etcdListRequests(resourceVersion1)).length, 1, 'request to etcd');
        assert.strictEqual(snapshots(), 0, 'cache snapshots');
      });
      await t.run("Inconsistent cache doesn't collect new snapshot, list hits etcd", async () => {
        const resourceVersion2 = await createObject();
        assert.strictEqual((await etcdListRequests(resourceVersion2)).length, 1, 'request to etcd');
        assert.strictEqual(snapshots(), 0, 'cache snapshots');
      });
      await t.run(
        'Marking cache consistent allows it to collect new snapshots, list skips etcd',
        async () => {
          s.cacher.markConsistent(true);
          const resourceVersion3 = await createObject();
          assert.deepStrictEqual(
            await etcdListRequests(resourceVersion3),
            [],
            'no requests to etcd',
          );
          assert.strictEqual(snapshots(), 1, 'cache snapshots');
        },
      );
      s.stop();
      t.done(4);
    });
  });
}
