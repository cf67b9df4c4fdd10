// Tests for src/server/discovery.ts (and storage-version-hash.ts, kube-aware-version.ts): the
// legacy and aggregated discovery documents as kube-apiserver writes them, and the Accept
// negotiation that picks one (aggregated/wrapper.go, negotiation.go).
import * as assert from 'assert';
import { createHash } from 'crypto';
import { builtinAPIResource } from '../../../src/request/builtin-api-resources';
import { serveDiscovery } from '../../../src/server/discovery';
import { compareKubeAwareVersionStrings } from '../../../src/server/kube-aware-version';
import type { ServedResource } from '../../../src/server/served-resource';
import { storageVersionHash } from '../../../src/server/storage-version-hash';
import { builtIns, crontabs } from './fixtures';

const address = '127.0.0.1:6443';
const all = [...builtIns, crontabs];
const v2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const v2beta1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

function get(path: string, accept?: string, resources: ServedResource[] = all) {
  const r = serveDiscovery({ path, accept }, resources, address);
  assert.ok(r, `${path} is a discovery path`);
  return r;
}

function json(body: string | Uint8Array): unknown {
  assert.strictEqual(typeof body, 'string');
  return JSON.parse(body as string);
}

describe('server/discovery', () => {
  describe('storageVersionHash', () => {
    const cases: [string, string, string, string][] = [
      ['', 'v1', 'Pod', 'xPOwRZ+Yhw8='],
      ['', 'v1', 'ConfigMap', 'qFsyl6wFWjQ='],
      ['', 'v1', 'Namespace', 'Q3oi5N2YM8M='],
    ];
    for (const [g, v, k, want] of cases) {
      it(`${g}/${v}/${k} -> ${want}`, () => assert.strictEqual(storageVersionHash(g, v, k), want));
    }
  });

  describe('storageVersionHash of the version a built-in is stored as (builtin-api-resources.ts)', () => {
    // A served resource as the registry builds it from the table row (no engine needed here).
    const fromTable = (group: string, resource: string): ServedResource => {
      const b = builtinAPIResource({ group, resource })!;
      return {
        ...b,
        jsonOnly: false,
        builtin: b,
        engine: {} as ServedResource['engine'],
        store: {} as ServedResource['store'],
      };
    };
    // [group, resource, upstream's hash (api/discovery/*.json)]
    const cases: [string, string, string][] = [
      // Stored as core/v1 Event, not events.k8s.io/v1.
      ['events.k8s.io', 'events', 'r2yiGXH7wu8='],
      // apiextensions-apiserver stores CRDs as v1beta1.
      ['apiextensions.k8s.io', 'customresourcedefinitions', 'jfWCUB31mvA='],
      ['apps', 'deployments', '8aSe+NMegvE='],
    ];
    for (const [group, resource, want] of cases) {
      it(`${resource}.${group}: ${want}`, () => {
        const served = fromTable(group, resource);
        const doc = json(get(`/apis/${group}/${served.version}`, undefined, [served]).body) as {
          resources: { name: string; storageVersionHash?: string }[];
        };
        assert.strictEqual(
          doc.resources.find((r) => r.name === resource)?.storageVersionHash,
          want,
        );
      });
    }
  });

  describe('compareKubeAwareVersionStrings (helpers_test.go order)', () => {
    it('sorts GA, beta, alpha, then the rest', () => {
      const versions = [
        'foo1',
        'v1alpha1',
        'v10beta1',
        'v1',
        'v2',
        'v1beta2',
        'v11alpha2',
        'foo10',
        'v12alpha1',
      ];
      const sorted = [...versions].sort((a, b) => compareKubeAwareVersionStrings(b, a));
      assert.deepStrictEqual(sorted, [
        'v2',
        'v1',
        'v10beta1',
        'v1beta2',
        'v12alpha1',
        'v11alpha2',
        'v1alpha1',
        'foo1',
        'foo10',
      ]);
    });
  });

  describe('legacy documents', () => {
    it('/api: APIVersions without apiVersion, one loopback-CIDR address', () => {
      for (const accept of [undefined, 'application/json', '*/*', v2beta1 + ',application/json']) {
        const r = get('/api', accept);
        assert.strictEqual(r.status, 200, String(accept));
        assert.deepStrictEqual(r.headers, { 'Content-Type': 'application/json' });
        assert.strictEqual(
          r.body,
          '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"127.0.0.0/8","serverAddress":"127.0.0.1:6443"}]}\n',
        );
      }
    });

    it('/api/v1: resources sorted by name, omitempty fields absent, no apiVersion', () => {
      const r = get('/api/v1/');
      assert.strictEqual(
        r.body,
        '{"kind":"APIResourceList","groupVersion":"v1","resources":[' +
          '{"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["cm"],"storageVersionHash":"qFsyl6wFWjQ="},' +
          '{"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ns"],"storageVersionHash":"Q3oi5N2YM8M="},' +
          // A subresource: after its resource, no singular name, no storage version hash.
          '{"name":"namespaces/finalize","singularName":"","namespaced":false,"kind":"Namespace","verbs":["update"]},' +
          '{"name":"namespaces/status","singularName":"","namespaced":false,"kind":"Namespace","verbs":["get","patch","update"]},' +
          '{"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["po"],"categories":["all"],"storageVersionHash":"xPOwRZ+Yhw8="},' +
          '{"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod","verbs":["get","patch","update"]}]}\n',
      );
    });

    it('/apis, /apis/<group>, /apis/<group>/<version>: kube-aggregator and apiextensions keep apiVersion v1', () => {
      assert.deepStrictEqual(json(get('/apis').body), {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [
          {
            name: 'stable.example.com',
            versions: [{ groupVersion: 'stable.example.com/v1', version: 'v1' }],
            preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
          },
        ],
      });
      assert.deepStrictEqual(json(get('/apis/stable.example.com').body), {
        kind: 'APIGroup',
        apiVersion: 'v1',
        name: 'stable.example.com',
        versions: [{ groupVersion: 'stable.example.com/v1', version: 'v1' }],
        preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
      });
      assert.deepStrictEqual(json(get('/apis/stable.example.com/v1').body), {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: 'stable.example.com/v1',
        resources: [
          {
            name: 'crontabs',
            singularName: 'crontab',
            namespaced: true,
            kind: 'CronTab',
            verbs: [
              'delete',
              'deletecollection',
              'get',
              'list',
              'patch',
              'create',
              'update',
              'watch',
            ],
            shortNames: ['ct'],
            storageVersionHash: storageVersionHash('stable.example.com', 'v1', 'CronTab'),
          },
        ],
      });
    });

    it('/apis without custom resources is an empty group list', () => {
      assert.strictEqual(
        get('/apis', undefined, builtIns).body,
        '{"kind":"APIGroupList","apiVersion":"v1","groups":[]}\n',
      );
    });

    it('orders a group versions kube-aware and prefers the first', () => {
      const beta = { ...crontabs, version: 'v1beta1', resource: 'crontabs' };
      const v2crd = { ...crontabs, version: 'v2', resource: 'cronjobs' };
      const g = json(get('/apis/stable.example.com', undefined, [beta, crontabs, v2crd]).body) as {
        versions: { version: string }[];
        preferredVersion: { version: string };
      };
      assert.deepStrictEqual(
        g.versions.map((v) => v.version),
        ['v2', 'v1', 'v1beta1'],
      );
      assert.strictEqual(g.preferredVersion.version, 'v2');
    });

    const notMine: string[] = [
      '/',
      '/version',
      '/api/v2',
      '/api/v1/pods',
      '/apis/apps',
      '/apis/stable.example.com/v2',
      '/apis/stable.example.com/v1/crontabs',
      '/openapi/v2',
    ];
    for (const path of notMine) {
      it(`leaves ${path} to the caller`, () => {
        assert.strictEqual(serveDiscovery({ path }, all, address), undefined);
      });
    }
  });

  describe('aggregated discovery', () => {
    it('/api with v2: the core group, responseKind with its kind only, ETag over the list', () => {
      const r = get('/api', v2);
      assert.strictEqual(r.status, 200);
      const items = [
        {
          metadata: {},
          versions: [
            {
              version: 'v1',
              resources: [
                {
                  resource: 'configmaps',
                  responseKind: { group: '', version: '', kind: 'ConfigMap' },
                  scope: 'Namespaced',
                  singularResource: 'configmap',
                  verbs: [
                    'create',
                    'delete',
                    'deletecollection',
                    'get',
                    'list',
                    'patch',
                    'update',
                    'watch',
                  ],
                  shortNames: ['cm'],
                },
                {
                  resource: 'namespaces',
                  responseKind: { group: '', version: '', kind: 'Namespace' },
                  scope: 'Cluster',
                  singularResource: 'namespace',
                  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
                  shortNames: ['ns'],
                  subresources: [
                    {
                      subresource: 'finalize',
                      responseKind: { group: '', version: '', kind: 'Namespace' },
                      verbs: ['update'],
                    },
                    {
                      subresource: 'status',
                      responseKind: { group: '', version: '', kind: 'Namespace' },
                      verbs: ['get', 'patch', 'update'],
                    },
                  ],
                },
                {
                  resource: 'pods',
                  responseKind: { group: '', version: '', kind: 'Pod' },
                  scope: 'Namespaced',
                  singularResource: 'pod',
                  verbs: [
                    'create',
                    'delete',
                    'deletecollection',
                    'get',
                    'list',
                    'patch',
                    'update',
                    'watch',
                  ],
                  shortNames: ['po'],
                  categories: ['all'],
                  subresources: [
                    {
                      subresource: 'status',
                      responseKind: { group: '', version: '', kind: 'Pod' },
                      verbs: ['get', 'patch', 'update'],
                    },
                  ],
                },
              ],
              freshness: 'Current',
            },
          ],
        },
      ];
      const etag = createHash('sha512')
        .update(JSON.stringify({ metadata: {}, items }))
        .digest('hex')
        .toUpperCase();
      assert.deepStrictEqual(r.headers, {
        ETag: `"${etag}"`,
        Vary: 'Accept',
        'Cache-Control': 'public',
        'Content-Type': v2,
      });
      assert.strictEqual(
        r.body,
        JSON.stringify({
          kind: 'APIGroupDiscoveryList',
          apiVersion: 'apidiscovery.k8s.io/v2',
          metadata: {},
          items,
        }) + '\n',
      );
    });

    it('/apis with v2: a custom resource names its group and version', () => {
      const list = json(get('/apis', v2).body) as { items: unknown[] };
      assert.deepStrictEqual(list.items, [
        {
          metadata: { name: 'stable.example.com' },
          versions: [
            {
              version: 'v1',
              resources: [
                {
                  resource: 'crontabs',
                  responseKind: { group: 'stable.example.com', version: 'v1', kind: 'CronTab' },
                  scope: 'Namespaced',
                  singularResource: 'crontab',
                  verbs: [
                    'delete',
                    'deletecollection',
                    'get',
                    'list',
                    'patch',
                    'create',
                    'update',
                    'watch',
                  ],
                  shortNames: ['ct'],
                },
              ],
              freshness: 'Current',
            },
          ],
        },
      ]);
    });

    it('answers If-None-Match with the current ETag by 304 and no body', () => {
      const first = get('/apis', v2);
      const again = serveDiscovery(
        { path: '/apis', accept: v2, ifNoneMatch: first.headers.ETag },
        all,
        address,
      );
      assert.deepStrictEqual(again, {
        status: 304,
        headers: { ETag: first.headers.ETag, Vary: 'Accept', 'Cache-Control': 'public' },
        body: '',
      });
      const stale = serveDiscovery({ path: '/apis', accept: v2, ifNoneMatch: '"0"' }, all, address);
      assert.strictEqual(stale?.status, 200);
    });

    it('changes the ETag when the served resources change', () => {
      assert.notStrictEqual(get('/apis', v2).headers.ETag, get('/apis', v2, builtIns).headers.ETag);
    });

    // What each client sends, and what a 1.36 server picks for it.
    const accepts: [string, string, number, 'aggregated' | 'legacy' | 'none'][] = [
      ['kubectl 1.33', `${v2},${v2beta1},application/json`, 200, 'aggregated'],
      [
        'protobuf first (passed over: no protobuf here)',
        `application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,${v2},application/json`,
        200,
        'aggregated',
      ],
      [
        'plain JSON first still finds the v2 clause (wrapper.go)',
        `application/json,${v2}`,
        200,
        'aggregated',
      ],
      ['kubectl 1.27 (v2beta1, removed in 1.35)', `${v2beta1},application/json`, 200, 'legacy'],
      ['v2beta1 only', v2beta1, 406, 'none'],
      ['v2 with q=0.5 after plain JSON at q=1', `${v2};q=0.5,application/json`, 200, 'aggregated'],
      ['no Accept', '', 200, 'legacy'],
      ['text/html', 'text/html', 406, 'none'],
      [
        'a Table (no conversion on discovery)',
        'application/json;as=Table;v=v1;g=meta.k8s.io',
        406,
        'none',
      ],
    ];
    for (const [name, accept, status, kind] of accepts) {
      it(`Accept ${name}: ${status} ${kind}`, () => {
        const r = get('/api', accept || undefined);
        assert.strictEqual(r.status, status);
        const body = json(r.body) as { kind: string };
        if (kind === 'aggregated') assert.strictEqual(body.kind, 'APIGroupDiscoveryList');
        if (kind === 'legacy') assert.strictEqual(body.kind, 'APIVersions');
        if (kind === 'none') assert.strictEqual(body.kind, 'Status');
      });
    }

    it('writes the 406 as WriteRawJSON writes a Status (indented), naming the serializer media types', () => {
      assert.deepStrictEqual(get('/api/v1', 'text/html'), {
        status: 406,
        headers: { 'Content-Type': 'application/json' },
        body: [
          '{',
          '  "kind": "Status",',
          '  "apiVersion": "v1",',
          '  "metadata": {},',
          '  "status": "Failure",',
          '  "message": "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",',
          '  "reason": "NotAcceptable",',
          '  "code": 406',
          '}',
        ].join('\n'),
      });
    });
  });
});
