// Port of RunTestListResourceVersionMatch (k8s.io/apiserver pkg/storage/testing/store_tests.go,
// release-1.36; master is the same). Upstream runs it from etcd3/store_test.go only: it needs the
// store's transformer (InterfaceWithPrefixTransformer), and behind a cache the injected creates
// would feed themselves through the watch. Every value the store reads first creates the next pod
// (reproducingTransformer), so objects appear in the middle of each list; lists at the returned RV
// with Exact must still match, for a consistent first list and for a NotOlderThan one.
import * as labels from '../../../src/engine/storage/labels';
import {
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
} from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import * as assert from 'assert';
import { computePodKey, expectNoDiff, listOptions, ReproducingKV } from './store-fixtures';
import { newEtcd3Store } from './store-under-test';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeListResourceVersionMatchCases(etcd: EtcdUnderTest): void {
  describe('RunTestListResourceVersionMatch', () => {
    it('etcd3 (TestListResourceVersionMatch): Exact after a consistent list, Exact after NotOlderThan', async () => {
      const nextPod = (index: number): { key: string; obj: KubeObject } => {
        const obj: KubeObject = {
          metadata: { name: `pod-${index}`, labels: { even: String(index % 2 === 0) } },
        };
        return { key: computePodKey(obj), obj };
      };
      let transformer: ReproducingKV | undefined;
      const s = await newEtcd3Store(etcd, {
        wrapKV: (etcd, store) => (transformer = new ReproducingKV(etcd, store, nextPod)),
      });
      const reproducing = transformer as ReproducingKV;
      for (let i = 0; i < 5; i++) await reproducing.createObject();

      const predicate = (): SelectionPredicate =>
        new SelectionPredicate({
          label: labels.selectorFromSet({ even: 'true' }),
          getAttrs: (obj) => ({ labels: obj.metadata.labels ?? {}, fields: {} }),
          limit: 4,
        });
      const result1 = await s.getList(
        '/pods/',
        listOptions({ predicate: predicate(), recursive: true }),
      );
      // List objects from the returned resource version.
      const result2 = await s.getList(
        '/pods/',
        listOptions({
          predicate: predicate(),
          resourceVersion: result1.resourceVersion,
          resourceVersionMatch: resourceVersionMatchExact,
          recursive: true,
        }),
      );
      expectNoDiff('incorrect lists', result1, result2);

      // Now also verify the ResourceVersionMatchNotOlderThan.
      const result3 = await s.getList(
        '/pods/',
        listOptions({
          predicate: predicate(),
          resourceVersion: result1.resourceVersion,
          resourceVersionMatch: resourceVersionMatchNotOlderThan,
          recursive: true,
        }),
      );
      const result4 = await s.getList(
        '/pods/',
        listOptions({
          predicate: predicate(),
          resourceVersion: result3.resourceVersion,
          resourceVersionMatch: resourceVersionMatchExact,
          recursive: true,
        }),
      );
      expectNoDiff('incorrect lists', result3, result4);
      // The transformer did inject writes in the middle of the lists (else nothing was tested).
      assert.ok(
        Number(result3.resourceVersion) > Number(result1.resourceVersion),
        'objects were created while listing',
      );
      s.stop();
    });
  });
}
