// Tests for src/request/storage-key-prefix.ts: a LIST request's etcd key prefix by upstream's rules.
import * as assert from 'assert';
import {
  listKeyPrefix,
  listKindResource,
  resourceKeyPrefix,
  resourcePrefixExceptions,
  unsafeGuessKindToResource,
} from '../../../src/request/storage-key-prefix';

describe('listKeyPrefix', () => {
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
