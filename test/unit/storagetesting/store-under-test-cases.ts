// Checks of the shared harness itself (store-under-test.ts; no upstream counterpart): both
// implementations compact as upstream's compactStorage/compactStore do (an Exact list below the
// compaction is too old, as RunTestCompactRevision expects), and waitForCache returns once an RV
// "0" list, which the cacher serves from its cache, shows the write.
import * as assert from 'assert';
import { isResourceExpired } from '../../../src/engine/storage/errors';
import { resourceVersionMatchExact } from '../../../src/engine/storage/list-options';
import { computePodKey, examplePod, listOptions } from './store-fixtures';
import { bothStores } from './store-under-test';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeUnderTestCases(etcd: EtcdUnderTest): void {
  describe('store-under-test', () => {
    for (const impl of bothStores(etcd)) {
      it(`${impl.name}: compact makes an older Exact list too old`, async () => {
        const store = await impl.setup();
        const a = examplePod('ns', 'a');
        const first = await store.create(computePodKey(a), a);
        const exactAt = (rv: string) =>
          store.getList(
            '/pods/',
            listOptions({
              recursive: true,
              resourceVersion: rv,
              resourceVersionMatch: resourceVersionMatchExact,
            }),
          );
        const before = await exactAt(first.metadata.resourceVersion as string);
        assert.strictEqual(before.items.length, 1);
        const rv = String(await store.increaseRV());
        await store.compact(rv);
        await assert.rejects(exactAt(first.metadata.resourceVersion as string), (e: unknown) => {
          assert.ok(isResourceExpired(e), String(e));
          assert.match(
            (e as Error).message,
            /The resourceVersion for the provided list is too old/,
          );
          return true;
        });
        store.stop();
      });

      it(`${impl.name}: waitForCache, then an RV "0" list shows the write`, async () => {
        const store = await impl.setup();
        const b = examplePod('ns', 'b');
        const created = await store.create(computePodKey(b), b);
        await store.waitForCache(created.metadata.resourceVersion as string);
        const list = await store.getList(
          '/pods/',
          listOptions({ recursive: true, resourceVersion: '0' }),
        );
        assert.deepStrictEqual(list.items, [created]);
        store.stop();
      });
    }
  });
}
