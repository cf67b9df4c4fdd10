// Tests for src/request/builtin-api-resources.ts: the one table of built-in resources served, row by
// row against kube-apiserver's discovery documents (kube-apiserver-discovery.ts names the upstream
// file of each group version), and each kind's empty object against k8s.io/api release-1.36's
// types.go zero values.
import * as assert from 'assert';
import {
  builtinAPIResource,
  builtinAPIResources,
} from '../../../src/request/builtin-api-resources';
import { storageVersionHash } from '../../../src/server/storage-version-hash';
import { upstreamDiscovery, type UpstreamAPIResource } from './kube-apiserver-discovery';

/** The table's row as discovery's APIResource fields (the same shape as the upstream rows). */
function asUpstream(group: string, resource: string): UpstreamAPIResource | undefined {
  const r = builtinAPIResource({ group, resource });
  if (r === undefined) return undefined;
  const slash = r.storageVersion.indexOf('/');
  const [sg, sv] =
    slash < 0
      ? ['', r.storageVersion]
      : [r.storageVersion.slice(0, slash), r.storageVersion.slice(slash + 1)];
  const out: UpstreamAPIResource = {
    name: r.resource,
    singularName: r.singularName,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: r.verbs,
    storageVersionHash: storageVersionHash(sg, sv, r.kind),
  };
  if (r.shortNames.length) out.shortNames = r.shortNames;
  if (r.categories.length) out.categories = r.categories;
  if (r.subresources.length)
    out.subresources = Object.fromEntries(
      r.subresources.map((s) => [s.name, { verbs: s.verbs, ...s.responseKind }]),
    );
  // Key order of the upstream rows, for a readable diff.
  return JSON.parse(
    JSON.stringify(out, [
      'name',
      'singularName',
      'namespaced',
      'kind',
      'verbs',
      'shortNames',
      'categories',
      'storageVersionHash',
      'subresources',
      ...r.subresources.map((s) => s.name),
      'group',
      'version',
    ]),
  ) as UpstreamAPIResource;
}

describe('builtinAPIResources (kube-apiserver discovery of the served built-ins)', () => {
  for (const { groupVersion, source, resources } of upstreamDiscovery) {
    const group = groupVersion.includes('/') ? groupVersion.split('/')[0] : '';
    const version = groupVersion.split('/').pop()!;
    for (const want of resources) {
      it(`${groupVersion} ${want.name} (${source.split(' @')[0]})`, () => {
        const row = builtinAPIResource({ group, resource: want.name });
        assert.ok(row, `${want.name}.${group}: not in the table`);
        assert.strictEqual(row.version, version);
        const got = asUpstream(group, want.name);
        assert.deepStrictEqual(got, JSON.parse(JSON.stringify(want)));
      });
    }
  }

  it('serves exactly the resources upstream lists (no more)', () => {
    const want = upstreamDiscovery.flatMap(({ groupVersion, resources }) =>
      resources.map((r) => `${groupVersion}/${r.name}`),
    );
    const got = builtinAPIResources.map(
      (r) => `${r.group === '' ? '' : `${r.group}/`}${r.version}/${r.resource}`,
    );
    assert.deepStrictEqual([...got].sort(), [...want].sort());
  });

  it('names the upstream registry of every row', () => {
    for (const r of builtinAPIResources)
      assert.match(r.upstream, /^(pkg|staging)\/.+\.go/, `${r.resource}.${r.group}`);
  });

  // NewFunc's zero value as encoding/json writes it: fields without omitempty, a struct always
  // (k8s.io/api release-1.36 types.go; ObjectMeta's creationTimestamp is omitzero).
  const zeroValues: Array<[string, string, object]> = [
    ['', 'configmaps', { kind: 'ConfigMap', apiVersion: 'v1', metadata: {} }],
    [
      '',
      'pods',
      { kind: 'Pod', apiVersion: 'v1', metadata: {}, spec: { containers: null }, status: {} },
    ],
    [
      '',
      'services',
      { kind: 'Service', apiVersion: 'v1', metadata: {}, spec: {}, status: { loadBalancer: {} } },
    ],
    ['', 'secrets', { kind: 'Secret', apiVersion: 'v1', metadata: {} }],
    ['', 'namespaces', { kind: 'Namespace', apiVersion: 'v1', metadata: {}, spec: {}, status: {} }],
    [
      'apps',
      'deployments',
      {
        kind: 'Deployment',
        apiVersion: 'apps/v1',
        metadata: {},
        spec: {
          selector: null,
          template: { metadata: {}, spec: { containers: null } },
          strategy: {},
        },
        status: {},
      },
    ],
    [
      'coordination.k8s.io',
      'leases',
      { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', metadata: {}, spec: {} },
    ],
    [
      'rbac.authorization.k8s.io',
      'roles',
      { kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: {}, rules: null },
    ],
    [
      'events.k8s.io',
      'events',
      {
        kind: 'Event',
        apiVersion: 'events.k8s.io/v1',
        metadata: {},
        eventTime: null,
        regarding: {},
        deprecatedSource: {},
        deprecatedFirstTimestamp: null,
        deprecatedLastTimestamp: null,
      },
    ],
  ];
  for (const [group, resource, want] of zeroValues) {
    it(`newObject: ${resource}.${group || 'core'} as Go marshals its zero value`, () => {
      const row = builtinAPIResource({ group, resource })!;
      assert.strictEqual(JSON.stringify(row.newObject()), JSON.stringify(want));
      // Each call is a fresh object (the cacher sets resourceVersion on it).
      assert.notStrictEqual(row.newObject(), row.newObject());
    });
  }

  it('storage as resource-storage.ts says: events have no watch cache, services live under services/specs', () => {
    const of = (group: string, resource: string) => builtinAPIResource({ group, resource })!;
    assert.deepStrictEqual(
      [
        of('', 'events'),
        of('events.k8s.io', 'events'),
        of('', 'pods'),
        of('', 'services'),
        of('', 'nodes'),
      ].map((r) => [r.prefix, r.watchCache]),
      [
        ['events', false],
        ['events', false],
        ['pods', true],
        ['services/specs', true],
        ['minions', true],
      ],
    );
  });
});
