// Tests for src/extension/panel/list-token-request.ts: the Lists tab decodes a LIST's continue token
// against that LIST's key prefix (namespace included), so its start key is the key etcd holds.
import * as assert from 'assert';
import { explainContinueToken } from '../../../src/engine';
import { listTokenRequest } from '../../../src/extension/panel/list-token-request';
import { runScenario } from '../../../src/scenarios/runner';

const tok = (rv: number, start: string): string =>
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');

describe('listTokenRequest', () => {
  const cases: Array<{
    name: string;
    request: string;
    etcdPrefix?: string;
    start: string;
    /** The start key the token resumes after; undefined: no LIST path, the setting is assumed. */
    want: { keyPrefix: string; startKey: string } | undefined;
  }> = [
    {
      name: 'a namespaced LIST: its namespace is in the key',
      request: '/api/v1/namespaces/default/pods?labelSelector=app%3Dmatch&limit=100',
      start: 'pod-009999\u0000',
      want: {
        keyPrefix: '/registry/pods/default/',
        startKey: '/registry/pods/default/pod-009999\u0000',
      },
    },
    {
      name: 'a cluster-wide LIST: the namespace is in the start',
      request: '/api/v1/pods?limit=500',
      start: 'kube-system/pod-a\u0000',
      want: { keyPrefix: '/registry/pods/', startKey: '/registry/pods/kube-system/pod-a\u0000' },
    },
    {
      name: "a resource stored under another prefix (services' specs)",
      request: '/api/v1/namespaces/web/services?limit=10',
      start: 'svc-a\u0000',
      want: {
        keyPrefix: '/registry/services/specs/web/',
        startKey: '/registry/services/specs/web/svc-a\u0000',
      },
    },
    {
      name: 'a custom resource under another --etcd-prefix',
      request: '/apis/example.com/v1/namespaces/ns/widgets?limit=2',
      etcdPrefix: '/kube',
      start: 'w1\u0000',
      want: {
        keyPrefix: '/kube/example.com/widgets/ns/',
        startKey: '/kube/example.com/widgets/ns/w1\u0000',
      },
    },
    {
      name: "the watch cache's own reflector LIST names no path",
      request: "the cacher's reflector lists etcd (watch cache initialisation)",
      start: 'pod-a\u0000',
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const token = tok(7, c.start);
      const got = listTokenRequest(token, c.request, c.etcdPrefix ?? '/registry');
      if (c.want === undefined) return assert.strictEqual(got, undefined);
      assert.ok(got, c.name);
      assert.strictEqual(got.keyPrefix, c.want.keyPrefix);
      assert.strictEqual(got.keyPrefixSource, 'url');
      assert.strictEqual(
        explainContinueToken(token, got.keyPrefix).startKey?.absolute,
        c.want.startKey,
      );
    });
  }

  it("selector-death-spiral: every LIST's token resumes inside its namespace", async () => {
    const { model } = await runScenario('selector-death-spiral', {
      objects: 2000,
      matchEvery: 100,
      limit: 5,
      pages: 3,
    });
    const paged = model.lists.filter((l) => l.continue !== '');
    assert.ok(paged.length > 0, 'the scenario returned continue tokens');
    for (const l of paged) {
      const request = listTokenRequest(l.continue, l.request, '/registry');
      assert.ok(request, l.request);
      const e = explainContinueToken(l.continue, request.keyPrefix);
      const key = e.startKey?.absolute ?? '';
      assert.ok(
        /^\/registry\/pods\/default\/pod-\d{6}$/.test(key.slice(0, -1)) && key.endsWith('\u0000'),
        `${l.request}: ${JSON.stringify(key)}`,
      );
    }
  });
});
