// Port of RunTestNamespaceScopedList (k8s.io/apiserver pkg/storage/testing/store_tests.go,
// release-1.36; master is the same), run as upstream does from etcd3/store_test.go and from
// cacher_test.go with withNodeNameAndNamespaceIndex: namespace paths and field selectors on
// metadata.namespace, metadata.name and the indexed spec.nodeName.
import * as fields from '../../../src/engine/storage/fields';
import type { KubeObject } from '../../../src/engine/storage/objects';
import {
  baseNamespacedPod as pod,
  baseNamespacedPodAssigned as assigned,
  baseNamespacedPodUpdated as updated,
  computePodKey,
  createPodPredicate,
  expectNoDiff,
  listOptions,
  Subtests,
} from './store-fixtures';
import { newCacherStore, newEtcd3Store, type StoreUnderTest } from './store-under-test';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

interface NamespaceScopedListCase {
  name: string;
  requestedNamespace?: string;
  indexFields?: string[];
  fieldSelector: (namespace: string) => fields.Selector;
  inputPods: (namespace: string) => KubeObject[];
  expectPods: (namespace: string) => KubeObject[];
}

const nodeName = ['spec.nodeName'];
const tests: NamespaceScopedListCase[] = [
  {
    name: 'request without namespace, without field selector',
    fieldSelector: () => fields.everything(),
    inputPods: () => [pod('foo1', 'ns1'), pod('foo2', 'ns2')],
    expectPods: () => [pod('foo1', 'ns1'), pod('foo2', 'ns2')],
  },
  {
    name: 'request without namespace, field selector with metadata.namespace',
    fieldSelector: (ns) => fields.selectorFromSet({ 'metadata.namespace': ns + 'ns1' }),
    inputPods: (ns) => [pod('foo1', ns + 'ns1'), pod('foo1', ns + 'ns2')],
    expectPods: (ns) => [pod('foo1', ns + 'ns1')],
  },
  {
    name: 'request without namespace, field selector with spec.nodename',
    fieldSelector: () => fields.parseSelector('spec.nodeName=bar1'),
    indexFields: nodeName,
    inputPods: (ns) => [assigned('foo1', ns + 'ns1', 'bar1'), assigned('foo2', ns + 'ns2', 'bar2')],
    expectPods: (ns) => [assigned('foo1', ns + 'ns1', 'bar1')],
  },
  {
    name: 'request without namespace, field selector with spec.nodename to filter out',
    fieldSelector: () => fields.parseSelector('spec.nodeName!=bar1'),
    indexFields: nodeName,
    inputPods: (ns) => [assigned('foo1', ns + 'ns1', 'bar1'), assigned('foo2', ns + 'ns2', 'bar2')],
    expectPods: (ns) => [assigned('foo2', ns + 'ns2', 'bar2')],
  },
  {
    name: 'request with namespace, without field selector',
    requestedNamespace: 'ns1',
    fieldSelector: () => fields.everything(),
    inputPods: (ns) => [pod('foo1', ns + 'ns1'), pod('foo1', ns + 'ns2'), pod('foo2', ns + 'ns1')],
    expectPods: (ns) => [pod('foo1', ns + 'ns1'), pod('foo2', ns + 'ns1')],
  },
  {
    name: 'request with namespace, field selector with matched metadata.namespace',
    requestedNamespace: 'ns1',
    fieldSelector: (ns) => fields.selectorFromSet({ 'metadata.namespace': ns + 'ns1' }),
    inputPods: (ns) => [pod('foo1', ns + 'ns1'), pod('foo1', ns + 'ns2')],
    expectPods: (ns) => [pod('foo1', ns + 'ns1')],
  },
  {
    name: 'request with namespace, field selector with non-matched metadata.namespace',
    requestedNamespace: 'ns1',
    fieldSelector: (ns) => fields.selectorFromSet({ 'metadata.namespace': ns + 'ns2' }),
    inputPods: (ns) => [
      pod('foo1', ns + 'ns1'),
      pod('foo1', ns + 'ns2'),
      updated('foo2', ns + 'ns1'),
      updated('foo2', ns + 'ns2'),
    ],
    expectPods: () => [],
  },
  {
    name: 'request with namespace, field selector with spec.nodename',
    requestedNamespace: 'ns1',
    fieldSelector: () => fields.parseSelector('spec.nodeName=bar2'),
    indexFields: nodeName,
    inputPods: (ns) => [
      assigned('foo1', ns + 'ns1', 'bar1'),
      assigned('foo1', ns + 'ns2', 'bar2'),
      assigned('foo2', ns + 'ns1', 'bar2'),
    ],
    expectPods: (ns) => [assigned('foo2', ns + 'ns1', 'bar2')],
  },
  {
    name: 'request with namespace, field selector with spec.nodename to filter out',
    requestedNamespace: 'ns2',
    fieldSelector: () => fields.parseSelector('spec.nodeName!=bar1'),
    indexFields: nodeName,
    inputPods: (ns) => [
      pod('foo1', ns + 'ns1'),
      pod('foo1', ns + 'ns2'),
      assigned('foo3', ns + 'ns2', 'bar1'),
      assigned('foo2', ns + 'ns2', 'bar2'),
    ],
    expectPods: (ns) => [pod('foo1', ns + 'ns2'), assigned('foo2', ns + 'ns2', 'bar2')],
  },
  {
    name: 'request without namespace, field selector with metadata.name',
    fieldSelector: () => fields.parseSelector('metadata.name=foo1'),
    inputPods: (ns) => [pod('foo1', ns + 'ns1'), pod('foo1', ns + 'ns2'), pod('foo2', ns + 'ns1')],
    expectPods: (ns) => [pod('foo1', ns + 'ns1'), pod('foo1', ns + 'ns2')],
  },
  {
    name: 'request without namespace, field selector with metadata.name and metadata.namespace',
    fieldSelector: (ns) =>
      fields.selectorFromSet({ 'metadata.name': 'foo1', 'metadata.namespace': ns + 'ns1' }),
    inputPods: (ns) => [pod('foo1', ns + 'ns1'), pod('foo2', ns + 'ns1'), pod('foo1', ns + 'ns2')],
    expectPods: (ns) => [pod('foo1', ns + 'ns1')],
  },
  {
    name: 'request without namespace, field selector with metadata.name and spec.nodeName',
    fieldSelector: () =>
      fields.selectorFromSet({ 'metadata.name': 'foo1', 'spec.nodeName': 'bar1' }),
    indexFields: nodeName,
    inputPods: (ns) => [assigned('foo1', ns + 'ns1', 'bar1')],
    expectPods: (ns) => [assigned('foo1', ns + 'ns1', 'bar1')],
  },
  {
    name: 'request without namespace, field selector with metadata.name, and with spec.nodeName to filter out watch',
    fieldSelector: () =>
      fields.andSelectors(
        fields.parseSelector('spec.nodeName!=bar1'),
        fields.selectorFromSet({ 'metadata.name': 'foo1' }),
      ),
    indexFields: nodeName,
    inputPods: (ns) => [
      pod('foo1', ns + 'ns1'),
      pod('foo2', ns + 'ns1'),
      assigned('foo1', ns + 'ns2', 'bar1'),
      assigned('foo2', ns + 'ns2', 'bar1'),
      assigned('foo1', ns + 'ns3', 'bar2'),
      assigned('foo2', ns + 'ns3', 'bar2'),
    ],
    expectPods: (ns) => [pod('foo1', ns + 'ns1'), assigned('foo1', ns + 'ns3', 'bar2')],
  },
  {
    name: 'request with namespace, with field selector metadata.name',
    requestedNamespace: 'ns1',
    fieldSelector: () => fields.parseSelector('metadata.name=foo1'),
    inputPods: (ns) => [
      pod('foo1', ns + 'ns1'),
      pod('foo2', ns + 'ns1'),
      pod('foo1', ns + 'ns2'),
      pod('foo2', ns + 'ns2'),
    ],
    expectPods: (ns) => [pod('foo1', ns + 'ns1')],
  },
  {
    name: 'request with namespace, with field selector metadata.name and metadata.namespace',
    requestedNamespace: 'ns1',
    fieldSelector: (ns) =>
      fields.selectorFromSet({ 'metadata.name': 'foo1', 'metadata.namespace': ns + 'ns1' }),
    inputPods: (ns) => [
      pod('foo1', ns + 'ns1'),
      pod('foo2', ns + 'ns1'),
      pod('foo1', ns + 'ns2'),
      pod('foo2', ns + 'ns2'),
    ],
    expectPods: (ns) => [pod('foo1', ns + 'ns1')],
  },
  {
    name: 'request with namespace, with field selector metadata.name, metadata.namespace and spec.nodename',
    requestedNamespace: 'ns2',
    fieldSelector: (ns) =>
      fields.selectorFromSet({
        'metadata.name': 'foo2',
        'metadata.namespace': ns + 'ns2',
        'spec.nodeName': 'bar1',
      }),
    indexFields: nodeName,
    inputPods: (ns) => [
      pod('foo1', ns + 'ns1'),
      pod('foo2', ns + 'ns1'),
      pod('foo1', ns + 'ns2'),
      assigned('foo2', ns + 'ns2', 'bar1'),
      assigned('foo1', ns + 'ns3', 'bar1'),
      assigned('foo2', ns + 'ns3', 'bar1'),
    ],
    expectPods: (ns) => [assigned('foo2', ns + 'ns2', 'bar1')],
  },
  {
    name: 'request with namespace, with field selector metadata.name, metadata.namespace, and with spec.nodename to filter out',
    requestedNamespace: 'ns2',
    fieldSelector: (ns) =>
      fields.andSelectors(
        fields.parseSelector('spec.nodeName!=bar2'),
        fields.selectorFromSet({ 'metadata.name': 'foo1', 'metadata.namespace': ns + 'ns2' }),
      ),
    indexFields: nodeName,
    inputPods: (ns) => [
      pod('foo1', ns + 'ns1'),
      pod('foo2', ns + 'ns1'),
      assigned('foo1', ns + 'ns2', 'bar1'),
      assigned('foo2', ns + 'ns2', 'bar2'),
      assigned('foo1', ns + 'ns3', 'bar2'),
    ],
    expectPods: (ns) => [assigned('foo1', ns + 'ns2', 'bar1')],
  },
];

async function runTestNamespaceScopedList(store: StoreUnderTest): Promise<void> {
  const t = new Subtests();
  for (const [i, tt] of tests.entries()) {
    await t.run(tt.name, async () => {
      const podNames = new Set<string>();
      const namespace = `t${i}-`;
      for (const p of tt.inputPods(namespace)) {
        const key = computePodKey(p);
        podNames.add(key);
        await store.create(key, p);
      }
      const opts = listOptions({
        resourceVersion: '',
        predicate: createPodPredicate(tt.fieldSelector(namespace), tt.indexFields),
        recursive: true,
      });
      let path = '/pods/';
      if (tt.requestedNamespace) path += namespace + tt.requestedNamespace;
      const listOut = await store.getList(path, opts);
      const items = listOut.items
        .filter((p) => podNames.has(computePodKey(p)))
        .map((p) => {
          delete p.metadata.resourceVersion;
          return p;
        });
      expectNoDiff('incorrect list pods', tt.expectPods(namespace), items);
    });
  }
  store.stop();
  t.done(tests.length);
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeNamespaceScopedListCases(etcd: EtcdUnderTest): void {
  describe('RunTestNamespaceScopedList', () => {
    it(`etcd3 (TestNamespaceScopedList): ${tests.length} cases`, async () => {
      await runTestNamespaceScopedList(await newEtcd3Store(etcd));
    });
    it(`cacher (TestNamespaceScopedList, withNodeNameAndNamespaceIndex): ${tests.length} cases`, async () => {
      await runTestNamespaceScopedList(
        await newCacherStore(etcd, { nodeNameAndNamespaceIndex: true }),
      );
    });
  });
}
