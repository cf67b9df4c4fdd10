// Port of RunTestConsistentList (k8s.io/apiserver pkg/storage/testing/store_tests.go,
// release-1.36; master is the same), run as upstream does: from etcd3/store_test.go
// TestConsistentList (cacheEnabled=false, consistentReadsSupported=true, listFromCacheSnapshot=false)
// and from cacher_test.go TestLists under each ConsistentListFromCache × ListFromCacheSnapshot
// setting (master drops the ConsistentListFromCache=false half with the gate).
import * as assert from 'assert';
import {
  encodeContinueOrDie,
  examplePod,
  computePodKey,
  listOptions,
  Subtests,
} from './store-fixtures';
import { newCacherStore, newEtcd3Store, type StoreUnderTest } from './store-under-test';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

async function runTestConsistentList(
  store: StoreUnderTest,
  cacheEnabled: boolean,
  consistentReadsSupported: boolean,
  listFromCacheSnapshot: boolean,
): Promise<void> {
  const inPod = examplePod('default', 'foo');
  const outPod = await store.create(computePodKey(inPod), inPod);
  const lastResourceWriteRV = Number(outPod.metadata.resourceVersion);

  await store.increaseRV();
  let consistentRV = lastResourceWriteRV + 1;
  let cacheSyncRV = 0;

  const tcs: {
    name: string;
    requestRV?: string;
    continueToken?: string;
    validateResponseRV: (rv: number) => void;
  }[] = [
    {
      name: 'Non-consistent list before consistent read',
      requestRV: '0',
      validateResponseRV: (rv) => {
        if (cacheEnabled) {
          // Cache might not yet observed write
          assert.ok(rv <= lastResourceWriteRV, `${rv} <= ${lastResourceWriteRV}`);
        } else {
          // Etcd should always be up to date with consistent RV
          assert.strictEqual(rv, consistentRV);
        }
      },
    },
    {
      name: 'LIST without RV returns consistent RV',
      requestRV: '',
      validateResponseRV: (rv) => {
        assert.strictEqual(rv, consistentRV);
        cacheSyncRV = rv;
      },
    },
    {
      name: 'List with negative continue RV returns consistent RV',
      continueToken: encodeContinueOrDie('/pods/a', -1),
      validateResponseRV: (rv) => {
        assert.strictEqual(rv, consistentRV);
        if (listFromCacheSnapshot) cacheSyncRV = rv;
      },
    },
    {
      name: 'Non-consistent request after consistent read',
      requestRV: '0',
      validateResponseRV: (rv) => {
        if (cacheEnabled) {
          if (consistentReadsSupported) {
            // Consistent read will sync cache
            assert.strictEqual(rv, cacheSyncRV);
          } else {
            // Without consisten reads cache is not synced
            assert.ok(rv <= lastResourceWriteRV, `${rv} <= ${lastResourceWriteRV}`);
          }
        } else {
          // Etcd always points to newest RV
          assert.strictEqual(rv, consistentRV);
        }
      },
    },
  ];
  const t = new Subtests();
  for (const tc of tcs) {
    await t.run(tc.name, async () => {
      const out = await store.getList(
        '/pods/empty',
        listOptions({
          recursive: true,
          resourceVersion: tc.requestRV ?? '',
          predicate: new SelectionPredicate({ continue: tc.continueToken ?? '' }),
        }),
      );
      tc.validateResponseRV(Number(out.resourceVersion));
    });
    // Update RV on each read to test multiple reads for consistent RV.
    await store.increaseRV();
    consistentRV++;
  }
  store.stop();
  t.done(4);
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeConsistentListCases(etcd: EtcdUnderTest): void {
  describe('RunTestConsistentList', () => {
    it('etcd3 (TestConsistentList): 4 cases', async () => {
      await runTestConsistentList(await newEtcd3Store(etcd), false, true, false);
    });
    for (const consistentRead of [true, false]) {
      for (const listFromCacheSnapshot of [true, false]) {
        it(`cacher (TestLists ConsistentListFromCache=${consistentRead},ListFromCacheSnapshot=${listFromCacheSnapshot}): 4 cases`, async () => {
          const store = await newCacherStore(etcd, {
            gates: {
              ConsistentListFromCache: consistentRead,
              ListFromCacheSnapshot: listFromCacheSnapshot,
            },
          });
          await runTestConsistentList(store, true, consistentRead, listFromCacheSnapshot);
        });
      }
    }
  });
}
