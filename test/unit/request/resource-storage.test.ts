// Tests for src/request/resource-storage.ts: the one table of storage facts per resource (scope, etcd
// key prefix, watch cache), against kubernetes/kubernetes pkg/kubeapiserver/
// default_storage_factory_builder.go (SpecialDefaultResourcePrefixes, DefaultWatchCacheSizes).
import * as assert from 'assert';
import { resourceStorage, type ResourceStorage } from '../../../src/request/resource-storage';

describe('resourceStorage', () => {
  // [group, resource, expected]
  const cases: Array<[string, string, Omit<ResourceStorage, 'group' | 'resource'>]> = [
    ['', 'pods', { prefix: 'pods', namespaced: true, watchCache: true, builtin: true }],
    [
      '',
      'namespaces',
      { prefix: 'namespaces', namespaced: false, watchCache: true, builtin: true },
    ],
    // DefaultWatchCacheSizes: {Resource: "events"}: 0, {Group: "events.k8s.io", Resource: "events"}: 0.
    ['', 'events', { prefix: 'events', namespaced: true, watchCache: false, builtin: true }],
    [
      'events.k8s.io',
      'events',
      { prefix: 'events', namespaced: true, watchCache: false, builtin: true },
    ],
    ['', 'nodes', { prefix: 'minions', namespaced: false, watchCache: true, builtin: true }],
    [
      'networking.k8s.io',
      'ingresses',
      { prefix: 'ingress', namespaced: true, watchCache: true, builtin: true },
    ],
    [
      'apiextensions.k8s.io',
      'customresourcedefinitions',
      {
        prefix: 'apiextensions.k8s.io/customresourcedefinitions',
        namespaced: false,
        watchCache: true,
        builtin: true,
      },
    ],
    // A custom resource: its CRD gives the scope.
    ['example.com', 'widgets', { prefix: 'example.com/widgets', watchCache: true, builtin: false }],
    // Group names are data: none reaches Object.prototype.
    ['constructor', 'x', { prefix: 'constructor/x', watchCache: true, builtin: false }],
    ['__proto__', 'x', { prefix: '__proto__/x', watchCache: true, builtin: false }],
  ];
  for (const [group, resource, want] of cases) {
    it(`${group || 'core'}/${resource}`, () => {
      assert.deepStrictEqual(resourceStorage({ group, resource }), { group, resource, ...want });
    });
  }
});
