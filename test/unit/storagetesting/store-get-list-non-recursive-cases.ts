// Port of RunTestGetListNonRecursive (k8s.io/apiserver pkg/storage/testing/store_tests.go,
// release-1.36; master is the same), run as upstream does: from etcd3/store_test.go once, and from
// cacher_test.go TestLists under each ConsistentListFromCache × ListFromCacheSnapshot setting
// (master drops the ConsistentListFromCache=false half with the gate). Deliberate difference:
// upstream runs the cases in parallel so that their order cannot hide a scenario; here they run
// in table order on one store, so a case sees the cache as the cases before it left it (the
// alternatives the table allows cover either).
import { isTooLargeResourceVersion } from '../../../src/engine/storage/errors';
import * as fields from '../../../src/engine/storage/fields';
import {
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
} from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import * as assert from 'assert';
import {
  examplePod,
  expectContains,
  expectNoDiff,
  listOptions,
  Subtests,
  testPropagateStore,
} from './store-fixtures';
import { newCacherStore, newEtcd3Store, type StoreUnderTest } from './store-under-test';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

async function runTestGetListNonRecursive(store: StoreUnderTest): Promise<void> {
  const { key, stored: prevStoredObj } = await testPropagateStore(
    store,
    examplePod('test-ns', 'foo'),
  );
  const prevRV = prevStoredObj.metadata.resourceVersion as string;
  const storedObj = await store.guaranteedUpdate(key, () => {
    const newPod = JSON.parse(JSON.stringify(prevStoredObj)) as KubeObject;
    newPod.metadata.annotations = { version: 'second' };
    return newPod;
  });
  const objRV = storedObj.metadata.resourceVersion as string;
  // Increase RV to test consistent List.
  await store.increaseRV();

  // GetAttrs giving only metadata.name, as the table's own predicates do.
  const nameOnly = (selector: string): SelectionPredicate =>
    new SelectionPredicate({
      field: fields.parseSelector(selector),
      getAttrs: (obj) => ({ labels: {}, fields: { 'metadata.name': obj.metadata.name ?? '' } }),
    });
  const everything = new SelectionPredicate();
  const tests: {
    name: string;
    key: string;
    pred: SelectionPredicate;
    expectedOut?: KubeObject[];
    expectedAlternatives?: KubeObject[][];
    rv?: string;
    rvMatch?: string;
    expectRVTooLarge?: boolean;
  }[] = [
    { name: 'existing key', key, pred: everything, expectedOut: [storedObj] },
    {
      name: 'existing key, resourceVersion=0',
      key,
      pred: everything,
      expectedAlternatives: [[], [prevStoredObj], [storedObj]],
      rv: '0',
    },
    {
      name: 'existing key, resourceVersion=0, resourceVersionMatch=notOlderThan',
      key,
      pred: everything,
      expectedAlternatives: [[], [prevStoredObj], [storedObj]],
      rv: '0',
      rvMatch: resourceVersionMatchNotOlderThan,
    },
    {
      name: 'existing key, resourceVersion=current',
      key,
      pred: everything,
      expectedOut: [storedObj],
      rv: objRV,
    },
    {
      name: 'existing key, resourceVersion=current, resourceVersionMatch=notOlderThan',
      key,
      pred: everything,
      expectedOut: [storedObj],
      rv: objRV,
      rvMatch: resourceVersionMatchNotOlderThan,
    },
    {
      name: 'existing key, resourceVersion=previous, resourceVersionMatch=notOlderThan',
      key,
      pred: everything,
      expectedAlternatives: [[prevStoredObj], [storedObj]],
      rv: prevRV,
      rvMatch: resourceVersionMatchNotOlderThan,
    },
    {
      name: 'existing key, resourceVersion=current, resourceVersionMatch=exact',
      key,
      pred: everything,
      expectedOut: [storedObj],
      rv: objRV,
      rvMatch: resourceVersionMatchExact,
    },
    {
      name: 'existing key, resourceVersion=previous, resourceVersionMatch=exact',
      key,
      pred: everything,
      expectedOut: [prevStoredObj],
      rv: prevRV,
      rvMatch: resourceVersionMatchExact,
    },
    {
      name: 'existing key, resourceVersion=too high',
      key,
      pred: everything,
      expectedOut: [storedObj],
      rv: '9223372036854775807',
      expectRVTooLarge: true,
    },
    { name: 'non-existing key', key: '/pods/non-existing', pred: everything, expectedOut: [] },
    {
      name: 'with matching pod name',
      key: '/pods/non-existing',
      pred: nameOnly('metadata.name!=' + (storedObj.metadata.name as string)),
      expectedOut: [],
    },
    {
      name: 'existing key, resourceVersion=current, with not matching pod name',
      key,
      pred: nameOnly('metadata.name!=' + (storedObj.metadata.name as string)),
      expectedOut: [],
      rv: objRV,
    },
  ];

  const t = new Subtests();
  for (const tt of tests) {
    await t.run(tt.name, async () => {
      let out;
      try {
        out = await store.getList(
          tt.key,
          listOptions({
            resourceVersion: tt.rv ?? '',
            resourceVersionMatch: tt.rvMatch ?? '',
            predicate: tt.pred,
            recursive: false,
          }),
        );
      } catch (e) {
        if (tt.expectRVTooLarge) {
          assert.ok(
            isTooLargeResourceVersion(e),
            `expecting resource version too high error, but get: ${String(e)}`,
          );
          return;
        }
        throw new Error(`GetList failed: ${String(e)}`);
      }
      assert.ok(!tt.expectRVTooLarge, 'expecting resource version too high error, but get: nil');
      assert.ok(out.resourceVersion.length > 0, 'unset resourceVersion');
      if (tt.expectedAlternatives === undefined)
        expectNoDiff('incorrect list pods', tt.expectedOut, out.items);
      else expectContains('incorrect list pods', tt.expectedAlternatives, out.items);
    });
  }
  store.stop();
  t.done(12);
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeGetListNonRecursiveCases(etcd: EtcdUnderTest): void {
  describe('RunTestGetListNonRecursive', () => {
    it('etcd3 (TestGetListNonRecursive): 12 cases', async () => {
      await runTestGetListNonRecursive(await newEtcd3Store(etcd));
    });
    for (const consistentRead of [true, false]) {
      for (const listFromCacheSnapshot of [true, false]) {
        it(`cacher (TestLists ConsistentListFromCache=${consistentRead},ListFromCacheSnapshot=${listFromCacheSnapshot}): 12 cases`, async () => {
          await runTestGetListNonRecursive(
            await newCacherStore(etcd, {
              gates: {
                ConsistentListFromCache: consistentRead,
                ListFromCacheSnapshot: listFromCacheSnapshot,
              },
            }),
          );
        });
      }
    }
  });
}
