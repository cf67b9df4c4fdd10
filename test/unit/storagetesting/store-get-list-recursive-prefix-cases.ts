// Port of RunTestGetListRecursivePrefix (k8s.io/apiserver pkg/storage/testing/store_tests.go,
// release-1.36; master is the same), run as upstream does from etcd3/store_test.go and
// cacher/cacher_test.go: recursive lists on keys that are prefixes of each other.
import {
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
} from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import {
  examplePod,
  expectNoDiff,
  listOptions,
  Subtests,
  testPropagateStore,
} from './store-fixtures';
import { bothStores } from './store-under-test';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeGetListRecursivePrefixCases(etcd: EtcdUnderTest): void {
  describe('RunTestGetListRecursivePrefix', () => {
    for (const impl of bothStores(etcd)) {
      it(`${impl.name}: 3 list types × 8 cases`, async () => {
        const store = await impl.setup();
        const foo = await testPropagateStore(store, examplePod('test-ns', 'foo'));
        const fooBar = await testPropagateStore(store, examplePod('test-ns', 'foobar'));
        const other = await testPropagateStore(store, examplePod('test-ns2', 'baz'));
        const lastRev = other.stored.metadata.resourceVersion as string;

        const tests: {
          name: string;
          key: string;
          recursive: boolean;
          expectedOut: KubeObject[];
        }[] = [
          {
            name: "NonRecursive on resource prefix doesn't return any objects",
            key: '/pods/',
            recursive: false,
            expectedOut: [],
          },
          {
            name: 'Recursive on resource prefix returns all objects',
            key: '/pods/',
            recursive: true,
            expectedOut: [foo.stored, fooBar.stored, other.stored],
          },
          {
            name: "NonRecursive on namespace prefix doesn't return any objects",
            key: '/pods/test-ns/',
            recursive: false,
            expectedOut: [],
          },
          {
            name: 'Recursive on resource prefix returns objects in the namespace',
            key: '/pods/test-ns/',
            recursive: true,
            expectedOut: [foo.stored, fooBar.stored],
          },
          {
            name: 'NonRecursive on object key (prefix) returns object and no other objects with the same prefix',
            key: foo.key,
            recursive: false,
            expectedOut: [foo.stored],
          },
          {
            name: "Recursive on object key (prefix) doesn't return anything",
            key: foo.key,
            recursive: true,
            expectedOut: [],
          },
          {
            name: 'NonRecursive on object key (no-prefix) return object',
            key: fooBar.key,
            recursive: false,
            expectedOut: [fooBar.stored],
          },
          {
            name: "Recursive on object key (no-prefix) doesn't return anything",
            key: fooBar.key,
            recursive: true,
            expectedOut: [],
          },
        ];
        const listTypes = [
          { name: 'Exact', resourceVersion: lastRev, match: resourceVersionMatchExact },
          { name: 'Consistent', resourceVersion: '', match: '' },
          { name: 'NotOlderThan', resourceVersion: '0', match: resourceVersionMatchNotOlderThan },
        ];
        const t = new Subtests();
        for (const listType of listTypes) {
          for (const tt of tests) {
            await t.run(`${listType.name}/${tt.name}`, async () => {
              const out = await store.getList(
                tt.key,
                listOptions({
                  resourceVersion: listType.resourceVersion,
                  resourceVersionMatch: listType.match,
                  recursive: tt.recursive,
                }),
              );
              expectNoDiff('incorrect list pods', tt.expectedOut, out.items);
            });
          }
        }
        store.stop();
        t.done(24);
      });
    }
  });
}
