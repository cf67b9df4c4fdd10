// Tests for src/request/list-path.ts: which collection a LIST URL names, read as RequestInfoFactory
// reads its path, and that collection's etcd key prefix.
import * as assert from 'assert';
import { parseListPath } from '../../../src/request/list-path';
import { listKeyPrefix } from '../../../src/request/storage-key-prefix';

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
    ['a proxy path holding /apis/ itself', '/apis/x/api/v1/pods', '/registry/pods/'],
    ['the core group serves v1 only', '/api/v2/pods', undefined],
    ['namespaces are not namespaced', '/api/v1/namespaces/shop/namespaces', undefined],
    ['a proxy verb is no LIST', '/api/v1/proxy/pods', undefined],
    ['an empty segment is no route', '/api/v1//pods', undefined],
    ['two trailing slashes', '/api/v1/pods//', undefined],
    ['white space ends a logged path', '/api/v1/pods x', undefined],
    ['a namespace segment percent-decoded', '/api/v1/namespaces/a%2Db/pods', '/registry/pods/a-b/'],
    // As NewRequestInfo reads them; before the one parser, each of these read as a LIST (of a
    // resource "status", "finalize" or "watch", or with each segment decoded on its own).
    ["a namespace's status subresource", '/api/v1/namespaces/shop/status', undefined],
    ["a namespace's finalize subresource", '/api/v1/watch/namespaces/shop/finalize', undefined],
    ['the watch verb with nothing after it', '/api/v1/watch', undefined],
    ['a path that does not percent-decode', '/api/v1/namespaces/%ZZ/pods', undefined],
    ['an escaped slash splits the path', '/api/v1/namespaces/a%2Fb/pods', undefined],
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
});
