// Ports of the TestFilterWithAttrsAndPrefixFunction_* cases (k8s.io/apiserver
// pkg/storage/cacher/cacher_whitebox_test.go, release-1.36; master is the same) that do not
// depend on a shard selector. The engine does not model ShardedListAndWatch (alpha, off in 1.36
// and master): SelectionPredicate has no ShardSelector and the filter never hashes a field. Not
// ported, because each needs that model (sharding.HashField/NewSelector, the predicate's
// ShardSelector, the gate and RecordWatchFilteredEvent in the filter):
//   ShardMatchAndLabels, ShardMatchButLabelMismatch, ShardMismatch, ShardErrorDropsEvent,
//   NamespaceSharding, NamespaceShardingMismatch.
import * as assert from 'assert';
import { filterWithAttrsAndPrefixFunction } from '../../../src/engine/cacher/filter-with-attrs';
import * as labels from '../../../src/engine/storage/labels';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import { defaultNamespaceScopedAttr } from './store-fixtures';

/** makeExamplePod. */
function makeExamplePod(
  name: string,
  namespace: string,
  uid: string,
  podLabels?: Record<string, string>,
): KubeObject {
  const metadata: KubeObject['metadata'] = { name, namespace, uid };
  if (podLabels) metadata.labels = podLabels;
  return { metadata };
}

describe('TestFilterWithAttrsAndPrefixFunction', () => {
  const cases: {
    name: string;
    pred: SelectionPredicate;
    objKey: string;
    labels: Record<string, string> | undefined;
    fields: Record<string, string> | undefined;
    obj: KubeObject;
    want: boolean;
    why: string;
  }[] = [
    {
      // Upstream turns ShardedListAndWatch on here; without a ShardSelector it changes nothing.
      name: 'NilShardSelector',
      pred: new SelectionPredicate({
        label: labels.selectorFromSet({ app: 'web' }),
        getAttrs: defaultNamespaceScopedAttr,
      }),
      objKey: '/pods/default/pod4',
      labels: { app: 'web' },
      fields: { 'metadata.name': 'pod4', 'metadata.namespace': 'default' },
      obj: makeExamplePod('pod4', 'default', 'uid-4', { app: 'web' }),
      want: true,
      why: 'expected filter to match: nil ShardSelector should pass everything through',
    },
    {
      // ShardSelector: sharding.Everything() is Empty, and an empty selector does not shard:
      // the predicate without one is the same filter.
      name: 'EverythingSelector',
      pred: new SelectionPredicate({ getAttrs: defaultNamespaceScopedAttr }),
      objKey: '/pods/default/pod5',
      labels: {},
      fields: { 'metadata.name': 'pod5', 'metadata.namespace': 'default' },
      obj: makeExamplePod('pod5', 'default', 'uid-5'),
      want: true,
      why: 'expected filter to match: Everything() selector should pass all objects',
    },
    {
      // Upstream's predicate carries a shard selector including the pod's UID, with the gate
      // off (so unused): the key alone decides.
      name: 'WrongPrefix',
      pred: new SelectionPredicate({ getAttrs: defaultNamespaceScopedAttr }),
      objKey: '/configmaps/default/cm1',
      labels: undefined,
      fields: undefined,
      obj: makeExamplePod('pod6', 'default', 'test-uid-6'),
      want: false,
      why: "expected filter to reject: key prefix doesn't match",
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const filter = filterWithAttrsAndPrefixFunction('/pods/', tc.pred);
      assert.strictEqual(
        filter(tc.objKey, tc.labels ?? {}, tc.fields ?? {}, tc.obj),
        tc.want,
        tc.why,
      );
    });
  }
});
