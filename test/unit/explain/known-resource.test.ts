// Tests for what explain says about the resource a URL names (request-target.ts ServedResource):
// a built-in one is explained, a custom one is explained under a stated CRD assumption, and a name
// kube-apiserver does not serve in a group it owns is answered as kube-apiserver answers it:
// 404 NotFound "the server could not find the requested resource", with no storage asked.
import * as assert from 'assert';
import { explainRequest } from '../../../src/explain/explain-request';
import { explanationLines } from '../../../src/explain/explanation-text';
import { requestUrlHoverMarkdown } from '../../../src/extension/explain/request-url-hover-markdown';

const notFound = 'the server could not find the requested resource';

describe('explain: known and unknown resources', () => {
  const cases: Array<{
    name: string;
    url: string;
    served: 'builtin' | 'custom' | 'none';
    servedBy: 'cache' | 'etcd' | 'error';
    /** Lines the CLI must print (regular expressions over the whole text). */
    lines: RegExp[];
    /** What the CLI must not print. */
    notLines?: RegExp[];
  }> = [
    {
      name: 'apps/v1 deploymentz: no such resource, 404 as kube-apiserver answers',
      url: '/apis/apps/v1/deploymentz',
      served: 'none',
      servedBy: 'error',
      lines: [
        /^ {2}served by: {3}nobody: the request fails$/m,
        /^ {2}why: {9}not a known resource: kube-apiserver serves no "deploymentz" in the group apps/m,
        new RegExp(`^  error: {7}404 NotFound: ${notFound}$`, 'm'),
        /^ {2}etcd calls: {2}none$/m,
        /^ {2}note: {8}apps serves: .*\bdeployments\b/m,
      ],
      notLines: [/watch cache/, /^ {2}assumed:/m, /^ {2}consistent:/m, /^ {2}limit:/m],
    },
    {
      name: 'a WATCH of core podz in a namespace: 404 too',
      url: '/api/v1/namespaces/default/podz?watch=true&resourceVersion=1',
      served: 'none',
      servedBy: 'error',
      lines: [
        /not a known resource: kube-apiserver serves no "podz" in the core group/,
        new RegExp(`404 NotFound: ${notFound}`),
      ],
      notLines: [/watch cache/],
    },
    {
      name: 'nodes under a namespace: cluster-scoped, no such route, 404',
      url: '/api/v1/namespaces/default/nodes',
      served: 'none',
      servedBy: 'error',
      lines: [
        /^ {2}why: {9}"nodes" are cluster-scoped: kube-apiserver serves them at no namespaced path/m,
        new RegExp(`404 NotFound: ${notFound}`),
      ],
      notLines: [/watch cache/],
    },
    {
      name: 'nodes: built in, cluster-scoped',
      url: '/api/v1/nodes',
      served: 'builtin',
      servedBy: 'cache',
      lines: [/^ {2}served by: {3}the watch cache$/m],
      notLines: [/404/],
    },
    {
      name: 'apps/v1 deployments: built in, served by the watch cache',
      url: '/apis/apps/v1/deployments?limit=500',
      served: 'builtin',
      servedBy: 'cache',
      lines: [/^ {2}served by: {3}the watch cache$/m, /^ {2}assumed: {5}cacheReady=true,/m],
      notLines: [/404/, /CustomResourceDefinition/],
    },
    {
      name: 'core pods: built in',
      url: '/api/v1/namespaces/default/pods',
      served: 'builtin',
      servedBy: 'cache',
      lines: [/^ {2}served by: {3}the watch cache$/m],
      notLines: [/404/],
    },
    {
      name: 'a group kube-apiserver does not own: a CRD is assumed, and said',
      url: '/apis/example.com/v1/widgets',
      served: 'custom',
      servedBy: 'cache',
      lines: [
        /^ {2}note: {8}example\.com\/widgets is not a built-in resource: explain assumes a CustomResourceDefinition serves it .*without one kube-apiserver answers 404 the server could not find the requested resource$/m,
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const e = await explainRequest(c.url);
      const text = explanationLines(e).join('\n');
      assert.strictEqual(e.servedResource, c.served, text);
      assert.strictEqual(e.servedBy, c.servedBy, text);
      if (c.served === 'none') {
        assert.strictEqual(e.errorCode, 404, text);
        assert.strictEqual(e.reason, 'NotFound', text);
        assert.strictEqual(e.message, notFound, text);
        assert.deepStrictEqual(e.etcdCalls, [], text);
        assert.deepStrictEqual(
          e.possibleErrors.map((p) => `${p.code} ${p.message}`),
          [`404 ${notFound}`],
          text,
        );
      }
      for (const want of c.lines) assert.match(text, want);
      for (const unwanted of c.notLines ?? []) assert.doesNotMatch(text, unwanted);
    });
  }

  it('the hover on an unknown resource: the 404, and no cluster state assumed', async () => {
    const url = '/apis/apps/v1/deploymentz';
    const md = requestUrlHoverMarkdown(await explainRequest(url, { possibleErrors: false }), url);
    const plain = md.replace(/\\(.)/g, '$1');
    assert.ok(plain.startsWith(`**LIST fails: 404 ${notFound}**`), plain);
    assert.match(plain, /not a known resource/);
    assert.doesNotMatch(plain, /watch cache|Assumed/);
  });

  it("a custom resource's etcd calls use the key its note names (the current-RV lookup too)", async () => {
    // apiextensions' CRDRESTOptionsGetter: ResourcePrefix group/resource, so etcd3's
    // GetCurrentResourceVersion lists /registry/example.com/widgets, not /registry/widgets.
    const e = await explainRequest('/apis/example.com/v1/namespaces/ns/widgets');
    const text = explanationLines(e).join('\n');
    assert.match(text, /stored under \/registry\/example\.com\/widgets,/);
    assert.ok(e.etcdCalls.length > 0, text);
    for (const c of e.etcdCalls)
      assert.ok(c.key.startsWith('/registry/example.com/widgets'), `${c.operation} ${c.key}`);
  });

  it('the hover on a custom resource names the CRD it assumes', async () => {
    const url = '/apis/example.com/v1/widgets';
    const md = requestUrlHoverMarkdown(await explainRequest(url, { possibleErrors: false }), url);
    assert.match(
      md.replace(/\\(.)/g, '$1'),
      /_Assumed, not your cluster: a CustomResourceDefinition serves example\.com\/widgets \(not a built-in resource\); the watch cache is ready;/,
    );
  });
});
