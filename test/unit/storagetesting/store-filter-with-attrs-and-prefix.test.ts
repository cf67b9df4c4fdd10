// Ports TestFilterWithAttrsAndPrefixFunction_* (k8s.io/apiserver
// pkg/storage/cacher/cacher_whitebox_test.go, release-1.36; master is the same), the sharded cases
// included: selectorIncludingUID/selectorExcludingUID/incrementHex build their shard selectors with
// k8s.io/apimachinery pkg/sharding (hash.go, selector.go), whose HashField is also checked against
// FNV-1a 64 test vectors (upstream's hash_test.go only checks the shape). Upstream sets the
// ShardedListAndWatch gate per test (SetFeatureGateDuringTest); here each case passes the gates.
import * as assert from 'assert';
import { filterWithAttrsAndPrefixFunction } from '../../../src/engine/cacher/filter-with-attrs';
import { profile136 } from '../../../src/engine/features';
import * as labels from '../../../src/engine/storage/labels';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import * as sharding from '../../../src/engine/storage/sharding';
import { defaultNamespaceScopedAttr } from './store-fixtures';

const gr = { group: '', resource: 'pods' };

/** selectorIncludingUID: a shard selector whose range contains the hash of uid. */
function selectorIncludingUID(uid: string): sharding.Selector {
  const hash = '0x' + sharding.hashField(uid);
  return sharding.newSelector({ key: 'object.metadata.uid', start: hash, end: incrementHex(hash) });
}

/** selectorExcludingUID: a shard selector whose range does NOT contain the hash of uid. */
function selectorExcludingUID(uid: string): sharding.Selector {
  const hash = '0x' + sharding.hashField(uid);
  return sharding.newSelector({
    key: 'object.metadata.uid',
    start: '0x0000000000000000',
    end: hash,
  });
}

/** incrementHex: the next 0x-prefixed hex number of the same width (2^64 after all f). */
function incrementHex(hex: string): string {
  const b = hex.split('');
  for (let i = b.length - 1; i >= 2; i--) {
    if (b[i] === '9') {
      b[i] = 'a';
      return b.join('');
    } else if (b[i] < 'f') {
      b[i] = String.fromCharCode(b[i].charCodeAt(0) + 1);
      return b.join('');
    }
    b[i] = '0';
  }
  return '0x10000000000000000';
}

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

describe('sharding.HashField', () => {
  // FNV-1a 64 vectors (the first three from the FNV reference), and the cases' own inputs.
  const vectors: [string, string][] = [
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['foobar', '85944171f73967e8'],
    ['test-uid-1', '5b14dd9f0e3eacac'],
    ['my-namespace', '93223e53e4f70a61'],
    ['\u00e9', '0ac21707b7181e01'], // hashed as its UTF-8 bytes, as Go's []byte(value)
  ];
  for (const [input, want] of vectors) {
    it(JSON.stringify(input), () => assert.strictEqual(sharding.hashField(input), want));
  }
});

describe('TestFilterWithAttrsAndPrefixFunction', () => {
  const gateOn = { ...profile136.gates, ShardedListAndWatch: true };
  const cases: {
    name: string;
    gates?: typeof gateOn;
    pred: SelectionPredicate;
    objKey: string;
    labels: Record<string, string> | undefined;
    fields: Record<string, string> | undefined;
    obj: KubeObject;
    want: boolean;
    why: string;
    handledError?: string;
  }[] = [
    {
      name: 'ShardMatchAndLabels',
      gates: gateOn,
      pred: new SelectionPredicate({
        label: labels.selectorFromSet({ app: 'web' }),
        shardSelector: selectorIncludingUID('test-uid-1'),
        getAttrs: defaultNamespaceScopedAttr,
      }),
      objKey: '/pods/default/pod1',
      labels: { app: 'web' },
      fields: { 'metadata.name': 'pod1', 'metadata.namespace': 'default' },
      obj: makeExamplePod('pod1', 'default', 'test-uid-1', { app: 'web' }),
      want: true,
      why: 'expected filter to match: shard matches and labels match',
    },
    {
      name: 'ShardMatchButLabelMismatch',
      gates: gateOn,
      pred: new SelectionPredicate({
        label: labels.selectorFromSet({ app: 'web' }),
        shardSelector: selectorIncludingUID('test-uid-2'),
        getAttrs: defaultNamespaceScopedAttr,
      }),
      objKey: '/pods/default/pod2',
      labels: { app: 'api' },
      fields: { 'metadata.name': 'pod2', 'metadata.namespace': 'default' },
      obj: makeExamplePod('pod2', 'default', 'test-uid-2', { app: 'api' }),
      want: false,
      why: "expected filter to reject: shard matches but labels don't",
    },
    {
      name: 'ShardMismatch',
      gates: gateOn,
      pred: new SelectionPredicate({
        shardSelector: selectorExcludingUID('test-uid-3'),
        getAttrs: defaultNamespaceScopedAttr,
      }),
      objKey: '/pods/default/pod3',
      labels: { app: 'web' },
      fields: { 'metadata.name': 'pod3', 'metadata.namespace': 'default' },
      obj: makeExamplePod('pod3', 'default', 'test-uid-3', { app: 'web' }),
      want: false,
      why: 'expected filter to reject: shard does not match',
    },
    {
      name: 'NilShardSelector',
      gates: gateOn,
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
      name: 'EverythingSelector',
      pred: new SelectionPredicate({
        shardSelector: sharding.everything(),
        getAttrs: defaultNamespaceScopedAttr,
      }),
      objKey: '/pods/default/pod5',
      labels: {},
      fields: { 'metadata.name': 'pod5', 'metadata.namespace': 'default' },
      obj: makeExamplePod('pod5', 'default', 'uid-5'),
      want: true,
      why: 'expected filter to match: Everything() selector should pass all objects',
    },
    {
      name: 'WrongPrefix',
      pred: new SelectionPredicate({
        shardSelector: selectorIncludingUID('test-uid-6'),
        getAttrs: defaultNamespaceScopedAttr,
      }),
      objKey: '/configmaps/default/cm1',
      labels: undefined,
      fields: undefined,
      obj: makeExamplePod('pod6', 'default', 'test-uid-6'),
      want: false,
      why: "expected filter to reject: key prefix doesn't match",
    },
    {
      // Upstream's object is a runtime.Unknown: no object metadata, so meta.Accessor fails.
      name: 'ShardErrorDropsEvent',
      gates: gateOn,
      pred: new SelectionPredicate({
        shardSelector: sharding.newSelector({
          key: 'object.metadata.uid',
          start: '0x0000000000000000',
          end: '0x10000000000000000',
        }),
        getAttrs: defaultNamespaceScopedAttr,
      }),
      objKey: '/pods/default/pod-err',
      labels: undefined,
      fields: undefined,
      obj: {} as KubeObject,
      want: false,
      why: 'expected filter to reject: shard matching should fail on unstructured object',
      handledError:
        'shard matching failed for pods: failed to access object metadata: ' +
        'object does not implement the Object interfaces',
    },
    {
      name: 'NamespaceSharding',
      gates: gateOn,
      pred: new SelectionPredicate({
        shardSelector: sharding.newSelector({
          key: 'object.metadata.namespace',
          start: '0x' + sharding.hashField('my-namespace'),
          end: incrementHex('0x' + sharding.hashField('my-namespace')),
        }),
        getAttrs: defaultNamespaceScopedAttr,
      }),
      objKey: '/pods/my-namespace/pod-ns',
      labels: {},
      fields: { 'metadata.name': 'pod-ns', 'metadata.namespace': 'my-namespace' },
      obj: makeExamplePod('pod-ns', 'my-namespace', 'some-uid'),
      want: true,
      why: 'expected filter to match: namespace-based shard selector should match',
    },
    {
      name: 'NamespaceShardingMismatch',
      gates: gateOn,
      pred: new SelectionPredicate({
        shardSelector: sharding.newSelector({
          key: 'object.metadata.namespace',
          start: '0x' + sharding.hashField('my-namespace'),
          end: incrementHex('0x' + sharding.hashField('my-namespace')),
        }),
        getAttrs: defaultNamespaceScopedAttr,
      }),
      objKey: '/pods/other-namespace/pod-ns2',
      labels: {},
      fields: { 'metadata.name': 'pod-ns2', 'metadata.namespace': 'other-namespace' },
      obj: makeExamplePod('pod-ns2', 'other-namespace', 'some-uid-2'),
      want: false,
      why: "expected filter to reject: namespace hash doesn't fall in shard range",
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const handled: string[] = [];
      const filter = filterWithAttrsAndPrefixFunction(
        '/pods/',
        tc.pred,
        gr,
        tc.gates ?? profile136.gates,
        (m) => handled.push(m),
      );
      assert.strictEqual(
        filter(tc.objKey, tc.labels ?? {}, tc.fields ?? {}, tc.obj),
        tc.want,
        tc.why,
      );
      assert.deepStrictEqual(handled, tc.handledError === undefined ? [] : [tc.handledError]);
    });
  }
});
