// Tests for src/request/storage-key-prefix.ts: a LIST request's etcd key prefix by upstream's rules.
import * as assert from 'assert';
import {
  listKeyPrefix,
  listKindResource,
  parseListPath,
  resourceKeyPrefix,
  resourcePrefixExceptions,
  unsafeGuessKindToResource,
} from '../../../src/request/storage-key-prefix';

describe('parseListPath + listKeyPrefix', () => {
  // [name, URL or path, expected keyPrefix (undefined: not a LIST)]
  const cases: Array<[string, string, string | undefined]> = [
    ['core, cluster-wide', '/api/v1/pods', '/registry/pods/'],
    ['core, namespaced', '/api/v1/namespaces/shop/pods?continue=x&limit=1', '/registry/pods/shop/'],
    [
      'full URL with host and port',
      'https://10.0.0.1:6443/api/v1/namespaces/kube-system/configmaps?limit=500',
      '/registry/configmaps/kube-system/',
    ],
    ['non-pod, cluster-wide', '/api/v1/secrets', '/registry/secrets/'],
    [
      'apps/v1 deployments, namespaced',
      '/apis/apps/v1/namespaces/prod/deployments?limit=2',
      '/registry/deployments/prod/',
    ],
    ['batch/v1 jobs, cluster-wide', '/apis/batch/v1/jobs', '/registry/jobs/'],
    [
      'rbac cluster-scoped',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      '/registry/clusterroles/',
    ],
    [
      'events.k8s.io events share core events',
      '/apis/events.k8s.io/v1/namespaces/default/events',
      '/registry/events/default/',
    ],
    [
      'CRD, namespaced',
      '/apis/stable.example.com/v1/namespaces/team-a/crontabs?limit=10',
      '/registry/stable.example.com/crontabs/team-a/',
    ],
    [
      'CRD, cluster-wide',
      '/apis/cert-manager.io/v1/certificates',
      '/registry/cert-manager.io/certificates/',
    ],
    [
      'CRD in a *.k8s.io group that is not built in',
      '/apis/gateway.networking.k8s.io/v1/namespaces/infra/httproutes',
      '/registry/gateway.networking.k8s.io/httproutes/infra/',
    ],
    ['exception: nodes', '/api/v1/nodes?limit=500', '/registry/minions/'],
    [
      'exception: services, namespaced',
      '/api/v1/namespaces/shop/services',
      '/registry/services/specs/shop/',
    ],
    ['exception: services, cluster-wide', '/api/v1/services', '/registry/services/specs/'],
    [
      'exception: endpoints',
      '/api/v1/namespaces/shop/endpoints',
      '/registry/services/endpoints/shop/',
    ],
    [
      'exception: replicationcontrollers',
      '/api/v1/replicationcontrollers',
      '/registry/controllers/',
    ],
    [
      'exception: networking ingresses',
      '/apis/networking.k8s.io/v1/namespaces/web/ingresses',
      '/registry/ingress/web/',
    ],
    ['exception: extensions ingresses', '/apis/extensions/v1beta1/ingresses', '/registry/ingress/'],
    [
      'exception: customresourcedefinitions',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      '/registry/apiextensions.k8s.io/customresourcedefinitions/',
    ],
    [
      'exception: apiservices',
      '/apis/apiregistration.k8s.io/v1/apiservices',
      '/registry/apiregistration.k8s.io/apiservices/',
    ],
    ['namespaces list', '/api/v1/namespaces?limit=50', '/registry/namespaces/'],
    ['legacy /watch/ segment', '/api/v1/watch/namespaces/shop/pods', '/registry/pods/shop/'],
    [
      'behind a proxy path',
      'https://rancher.example/k8s/clusters/c-1/api/v1/namespaces/a/pods',
      '/registry/pods/a/',
    ],
    ['trailing slash', '/api/v1/pods/', '/registry/pods/'],
    ['one namespace is a GET', '/api/v1/namespaces/shop', undefined],
    ['one object is a GET', '/api/v1/namespaces/shop/pods/web-1', undefined],
    [
      'a subresource is not a LIST',
      '/apis/apps/v1/namespaces/prod/deployments/api/scale',
      undefined,
    ],
    ['group discovery', '/apis/apps/v1', undefined],
    ['core discovery', '/api/v1', undefined],
    ['not an API path', '/healthz', undefined],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => {
      const list = parseListPath(input);
      assert.strictEqual(list && listKeyPrefix(list), want, `${name}: ${input}`);
    });
  }

  it('names the parts it found', () => {
    assert.deepStrictEqual(
      parseListPath('http://h:8080/apis/apps/v1/namespaces/prod/deployments?x=1'),
      {
        group: 'apps',
        version: 'v1',
        namespace: 'prod',
        resource: 'deployments',
        path: '/apis/apps/v1/namespaces/prod/deployments',
      },
    );
  });

  it('takes another etcd prefix (kube-apiserver --etcd-prefix)', () => {
    assert.strictEqual(
      listKeyPrefix({ group: '', resource: 'nodes' }, '/prod-registry'),
      '/prod-registry/minions/',
    );
    assert.strictEqual(
      listKeyPrefix({ group: 'stable.example.com', resource: 'crontabs', namespace: 'a' }, '/k8s/'),
      '/k8s/stable.example.com/crontabs/a/',
    );
  });
});

describe('resourcePrefixExceptions', () => {
  it('each exception is what resourceKeyPrefix uses, and names its upstream file', () => {
    assert.strictEqual(resourcePrefixExceptions.length, 8);
    for (const e of resourcePrefixExceptions) {
      assert.strictEqual(
        resourceKeyPrefix(e),
        `/registry/${e.prefix}/`,
        `${e.group}/${e.resource}`,
      );
      assert.match(e.upstream, /\.go\b/, `${e.group}/${e.resource}: cite the upstream file`);
    }
  });
});

describe('listKindResource', () => {
  // [apiVersion, kind, expected group/resource/namespaced/guessed | undefined]
  const cases: Array<[string | undefined, string, ReturnType<typeof listKindResource>]> = [
    ['v1', 'PodList', { group: '', resource: 'pods', namespaced: true, guessed: false }],
    [
      'v1',
      'ConfigMapList',
      { group: '', resource: 'configmaps', namespaced: true, guessed: false },
    ],
    ['v1', 'EndpointsList', { group: '', resource: 'endpoints', namespaced: true, guessed: false }],
    ['v1', 'NodeList', { group: '', resource: 'nodes', namespaced: false, guessed: false }],
    [
      'apps/v1',
      'DeploymentList',
      { group: 'apps', resource: 'deployments', namespaced: true, guessed: false },
    ],
    [
      'networking.k8s.io/v1',
      'NetworkPolicyList',
      { group: 'networking.k8s.io', resource: 'networkpolicies', namespaced: true, guessed: false },
    ],
    [
      'stable.example.com/v1',
      'CronTabList',
      { group: 'stable.example.com', resource: 'crontabs', guessed: true },
    ],
    [
      undefined,
      'DeploymentList',
      { group: 'apps', resource: 'deployments', namespaced: true, guessed: false },
    ],
    [undefined, 'EventList', { group: '', resource: 'events', namespaced: true, guessed: false }],
    [undefined, 'CronTabList', undefined],
    ['v1', 'List', undefined],
    ['meta.k8s.io/v1', 'Table', undefined],
  ];
  for (const [apiVersion, kind, want] of cases) {
    it(`${apiVersion} ${kind}`, () =>
      assert.deepStrictEqual(listKindResource(apiVersion, kind), want));
  }

  it('guesses plurals as apimachinery UnsafeGuessKindToResource does', () => {
    const guesses: Array<[string, string]> = [
      ['CronTab', 'crontabs'],
      ['Policy', 'policies'],
      ['Ingress', 'ingresses'],
      ['MyEndpoints', 'myendpoints'],
      ['', ''],
    ];
    for (const [kind, plural] of guesses)
      assert.strictEqual(unsafeGuessKindToResource(kind), plural, kind);
  });
});

describe('group names that are Object.prototype keys', () => {
  it('are custom resources, not a crash', () => {
    assert.strictEqual(listKindResource('constructor/v1', 'XList')?.guessed, true);
    assert.strictEqual(
      resourceKeyPrefix({ group: 'constructor', resource: 'x' }),
      '/registry/constructor/x/',
    );
  });
});
