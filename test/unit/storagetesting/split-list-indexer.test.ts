// Ports TestListIndexer (k8s.io/apiserver pkg/storage/cacher/cacher_whitebox_test.go, release-1.36
// = master), checking the index also where the metrics report it: apiserver_cache_list_*'s `index`
// label, and under master (the 1.37 preview) apiserver_storage_list_*{storage="watchcache",index};
// and master's TestListMetrics (the same file).
import * as assert from 'assert';
import type { KubernetesVersion } from '../../../src/engine/features';
import * as fields from '../../../src/engine/storage/fields';
import { newListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import type { IndexedTrigger } from '../../../src/engine/cacher/cacher';
import type { Indexers } from '../../../src/engine/cacher/watch-cache-store';
import { MockStorage, newTestCacher, type TestCacher } from '../cacher/cacher-testing';

type Pod = KubeObject & { spec?: { nodeName?: string } };

/** withNodeNameAndNamespaceIndex: pkg/registry/core/pod/strategy.go's trigger and indexers. */
const nodeNameTrigger: IndexedTrigger = {
  indexName: 'spec.nodeName',
  indexerFunc: (obj) => (obj as Pod).spec?.nodeName ?? '',
};
const nodeNameAndNamespaceIndexers: Indexers<KubeObject> = {
  'f:spec.nodeName': (obj) => [(obj as Pod).spec?.nodeName ?? ''],
  'f:metadata.namespace': (obj) => [obj.metadata.namespace ?? ''],
};

function testSetup(kubernetesVersion: KubernetesVersion): Promise<TestCacher> {
  return newTestCacher(new MockStorage(), {
    indexedTrigger: nodeNameTrigger,
    indexers: nodeNameAndNamespaceIndexers,
    kubernetesVersion,
  });
}

/** storagetesting.CreatePodPredicate(field, true, indexFields). */
function createPodPredicate(field: fields.Selector, indexFields?: string[]): SelectionPredicate {
  return new SelectionPredicate({ field, indexFields });
}

const parse = fields.parseSelector;

interface ListIndexerCase {
  name: string;
  requestedNamespace?: string;
  recursive?: boolean;
  fieldSelector: fields.Selector;
  indexFields?: string[];
  expectIndex?: string;
}

const tests: ListIndexerCase[] = [
  {
    name: 'request without namespace, without field selector',
    recursive: true,
    fieldSelector: fields.everything(),
  },
  {
    name: 'request without namespace, field selector with metadata.namespace',
    recursive: true,
    fieldSelector: parse('metadata.namespace=namespace'),
  },
  {
    name: 'request without namespace, field selector with spec.nodename',
    recursive: true,
    fieldSelector: parse('spec.nodeName=node'),
    indexFields: ['spec.nodeName'],
    expectIndex: 'f:spec.nodeName',
  },
  {
    name: 'request without namespace, field selector with spec.nodename to filter out',
    recursive: true,
    fieldSelector: parse('spec.nodeName!=node'),
    indexFields: ['spec.nodeName'],
  },
  {
    name: 'request with namespace, without field selector',
    requestedNamespace: 'namespace',
    recursive: true,
    fieldSelector: fields.everything(),
  },
  {
    name: 'request with namespace, field selector with matched metadata.namespace',
    requestedNamespace: 'namespace',
    recursive: true,
    fieldSelector: parse('metadata.namespace=namespace'),
  },
  {
    name: 'request with namespace, field selector with non-matched metadata.namespace',
    requestedNamespace: 'namespace',
    recursive: true,
    fieldSelector: parse('metadata.namespace=namespace'),
  },
  {
    name: 'request with namespace, field selector with spec.nodename',
    requestedNamespace: 'namespace',
    recursive: true,
    fieldSelector: parse('spec.nodeName=node'),
    indexFields: ['spec.nodeName'],
    expectIndex: 'f:spec.nodeName',
  },
  {
    name: 'request with namespace, field selector with spec.nodename to filter out',
    requestedNamespace: 'namespace',
    recursive: true,
    fieldSelector: parse('spec.nodeName!=node'),
    indexFields: ['spec.nodeName'],
  },
  {
    name: 'request without namespace, field selector with metadata.name',
    recursive: true,
    fieldSelector: parse('metadata.name=name'),
  },
  {
    name: 'request without namespace, field selector with metadata.name and metadata.namespace',
    recursive: true,
    fieldSelector: fields.selectorFromSet({
      'metadata.name': 'name',
      'metadata.namespace': 'namespace',
    }),
  },
  {
    name: 'request without namespace, field selector with metadata.name and spec.nodeName',
    recursive: true,
    fieldSelector: fields.selectorFromSet({
      'metadata.name': 'name',
      'spec.nodeName': 'node',
    }),
    indexFields: ['spec.nodeName'],
    expectIndex: 'f:spec.nodeName',
  },
  {
    name: 'request without namespace, field selector with metadata.name, and with spec.nodeName to filter out watch',
    recursive: true,
    fieldSelector: fields.andSelectors(
      parse('spec.nodeName!=node'),
      fields.selectorFromSet({ 'metadata.name': 'name' }),
    ),
    indexFields: ['spec.nodeName'],
  },
  {
    name: 'request with namespace, with field selector metadata.name',
    requestedNamespace: 'namespace',
    fieldSelector: parse('metadata.name=name'),
  },
  {
    name: 'request with namespace, with field selector metadata.name and metadata.namespace',
    requestedNamespace: 'namespace',
    fieldSelector: fields.selectorFromSet({
      'metadata.name': 'name',
      'metadata.namespace': 'namespace',
    }),
  },
  {
    name: 'request with namespace, with field selector metadata.name, metadata.namespace and spec.nodename',
    requestedNamespace: 'namespace',
    fieldSelector: fields.selectorFromSet({
      'metadata.name': 'name',
      'metadata.namespace': 'namespace',
      'spec.nodeName': 'node',
    }),
    indexFields: ['spec.nodeName'],
  },
  {
    name: 'request with namespace, with field selector metadata.name, metadata.namespace, and with spec.nodename to filter out',
    requestedNamespace: 'namespace',
    fieldSelector: fields.andSelectors(
      parse('spec.nodeName!=node'),
      fields.selectorFromSet({ 'metadata.name': 'name', 'metadata.namespace': 'namespace' }),
    ),
    indexFields: ['spec.nodeName'],
  },
];

for (const kubernetesVersion of ['1.36', '1.37'] as const) {
  describe(`split: TestListIndexer (cacher_whitebox_test.go), ${kubernetesVersion}`, () => {
    let t: TestCacher;
    before(async () => {
      t = await testSetup(kubernetesVersion);
    });
    after(() => t.cacher.stop());

    for (const tt of tests) {
      it(tt.name, async () => {
        const key = '/pods/' + (tt.requestedNamespace ?? '');
        const recursive = tt.recursive ?? false;
        const expectIndex = tt.expectIndex ?? '';
        const opts = () =>
          newListOptions({
            predicate: createPodPredicate(tt.fieldSelector, tt.indexFields),
            recursive,
          });
        const { index } = await t.cacher.watchCache.waitUntilFreshAndGetList(key, opts());
        assert.strictEqual(index, expectIndex, "Index doesn't match");

        // The same request through the Cacher: the index it used is what the metrics report.
        t.registry.reset();
        await t.cacher.getList(key, opts());
        const samples = t.registry.samples();
        const gr = 'group="",';
        assert.strictEqual(
          samples[`apiserver_cache_list_total{${gr}index="${expectIndex}",resource="pods"}`],
          1,
          'apiserver_cache_list_total index label',
        );
        const storageList = `apiserver_storage_list_total{${gr}index="${expectIndex}",resource="pods",storage="watchcache"}`;
        assert.strictEqual(
          samples[storageList],
          kubernetesVersion === '1.36' ? undefined : 1,
          'apiserver_storage_list_total (master only)',
        );
      });
    }
  });
}

describe('split: TestListMetrics (cacher_whitebox_test.go, master)', () => {
  const names = [
    'apiserver_storage_list_total',
    'apiserver_storage_list_fetched_objects_total',
    'apiserver_storage_list_evaluated_objects_total',
    'apiserver_storage_list_returned_objects_total',
  ];
  const want: Record<KubernetesVersion, string> = {
    '1.36': '',
    '1.37': `# HELP apiserver_storage_list_evaluated_objects_total [ALPHA] Number of objects tested in the course of serving a LIST request from storage
# TYPE apiserver_storage_list_evaluated_objects_total counter
apiserver_storage_list_evaluated_objects_total{group="",resource="pods",storage="watchcache"} 0
# HELP apiserver_storage_list_fetched_objects_total [ALPHA] Number of objects read from storage in the course of serving a LIST request
# TYPE apiserver_storage_list_fetched_objects_total counter
apiserver_storage_list_fetched_objects_total{group="",index="f:spec.nodeName",resource="pods",storage="watchcache"} 1
# HELP apiserver_storage_list_returned_objects_total [ALPHA] Number of objects returned for a LIST request from storage
# TYPE apiserver_storage_list_returned_objects_total counter
apiserver_storage_list_returned_objects_total{group="",resource="pods",storage="watchcache"} 1
# HELP apiserver_storage_list_total [ALPHA] Number of LIST requests served from storage
# TYPE apiserver_storage_list_total counter
apiserver_storage_list_total{group="",index="f:spec.nodeName",resource="pods",storage="watchcache"} 1
`,
  };
  for (const kubernetesVersion of ['1.36', '1.37'] as const) {
    it(`${kubernetesVersion}: a LIST served from the cache ${kubernetesVersion === '1.36' ? 'is not' : 'is'} a storage LIST`, async () => {
      const t = await testSetup(kubernetesVersion);
      try {
        t.registry.reset();
        const pod: Pod = {
          metadata: { name: 'pod-1', namespace: 'ns', resourceVersion: '100' },
          spec: { nodeName: 'node' },
        };
        t.cacher.watchCache.add(pod);
        const predicate = createPodPredicate(parse('spec.nodeName=node'), ['spec.nodeName']);
        await t.delegator.getList(
          '/pods/ns',
          newListOptions({ resourceVersion: '0', predicate, recursive: true }),
        );
        assert.strictEqual(t.registry.text(names), want[kubernetesVersion]);
        // The cache's own counters keep their labels; master deprecates them.
        const deprecated = kubernetesVersion === '1.36' ? '' : '(Deprecated since 1.37.0) ';
        assert.ok(
          t.registry
            .text(['apiserver_cache_list_total'])
            .includes(
              `# HELP apiserver_cache_list_total [ALPHA] ${deprecated}Number of LIST requests served from watch cache\n`,
            ),
        );
      } finally {
        t.cacher.stop();
      }
    });
  }
});
