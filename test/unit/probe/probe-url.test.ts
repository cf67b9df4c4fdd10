// The probe's LIST URL: what it accepts (a LIST as RequestInfoFactory reads it, options as the
// apiserver decodes them) and the page and watch URLs it builds. No upstream counterpart.
import * as assert from 'assert';
import { pageUrl, parseProbeUrl, watchUrl } from '../../../src/probe/probe-url';

describe('probe URL', () => {
  const accepted: Array<[string, { keyPrefix: string; limit: number; labelSelector: string }]> = [
    ['/api/v1/pods', { keyPrefix: '/registry/pods/', limit: 0, labelSelector: '' }],
    [
      '/api/v1/namespaces/default/pods?limit=2&labelSelector=app%3Dweb',
      { keyPrefix: '/registry/pods/default/', limit: 2, labelSelector: 'app=web' },
    ],
    [
      '/apis/apps/v1/namespaces/kube-system/deployments?limit=500',
      { keyPrefix: '/registry/deployments/kube-system/', limit: 500, labelSelector: '' },
    ],
    [
      '/api/v1/services?limit=1',
      { keyPrefix: '/registry/services/specs/', limit: 1, labelSelector: '' },
    ],
  ];
  for (const [url, want] of accepted)
    it(`accepts ${url}`, () => {
      const u = parseProbeUrl(url);
      assert.deepStrictEqual(
        { keyPrefix: u.keyPrefix, limit: u.limit, labelSelector: u.labelSelector },
        want,
      );
    });

  const refused: Array<[string, string]> = [
    [
      'https://10.0.0.1/api/v1/pods',
      `"https://10.0.0.1/api/v1/pods": give the path and query only (e.g. /api/v1/pods?limit=500): the server is the kubeconfig's`,
    ],
    [
      'api/v1/pods',
      '"api/v1/pods": expected a path starting with /api/ or /apis/, e.g. /api/v1/namespaces/default/pods?limit=500',
    ],
    [
      '/api/v1/namespaces/default/pods/p1',
      '"/api/v1/namespaces/default/pods/p1": not a LIST (the apiserver reads it as verb "get"): expected a collection such as /api/v1/pods or /apis/apps/v1/namespaces/default/deployments',
    ],
    [
      '/api/v1/pods?watch=true',
      '"/api/v1/pods?watch=true": leave out watch: the probe sends continue page by page, and the watch parameters with --watch',
    ],
    [
      '/api/v1/pods?limit=2&continue=abc',
      '"/api/v1/pods?limit=2&continue=abc": leave out continue: the probe sends continue page by page, and the watch parameters with --watch',
    ],
    [
      '/api/v1/pods?limit=two',
      '"/api/v1/pods?limit=two": strconv.ParseInt: parsing "two": invalid syntax',
    ],
    ['/api/v1/pods?limit=-1', '"/api/v1/pods?limit=-1": limit must not be negative, got -1'],
    [
      '/healthz',
      '"/healthz": not a LIST (the apiserver reads it as verb "get"): expected a collection such as /api/v1/pods or /apis/apps/v1/namespaces/default/deployments',
    ],
  ];
  for (const [url, message] of refused)
    it(`refuses ${url}`, () => assert.throws(() => parseProbeUrl(url), { message }));

  it('adds continue to the pages after the first, percent-encoded', () => {
    const u = parseProbeUrl('/api/v1/pods?limit=2');
    assert.strictEqual(pageUrl(u), '/api/v1/pods?limit=2');
    assert.strictEqual(pageUrl(u, 'a+b/c='), '/api/v1/pods?limit=2&continue=a%2Bb%2Fc%3D');
    assert.strictEqual(pageUrl(parseProbeUrl('/api/v1/pods'), 'x'), '/api/v1/pods?continue=x');
  });

  it('the watch keeps the selectors, drops limit and resourceVersion, adds bookmarks', () => {
    const u = parseProbeUrl(
      '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb&limit=2&resourceVersion=0',
    );
    assert.strictEqual(
      watchUrl(u, { resourceVersion: '42' }),
      '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb&allowWatchBookmarks=true&watch=true&resourceVersion=42',
    );
    assert.strictEqual(
      watchUrl(u, { resourceVersion: '42', sendInitialEvents: true }),
      '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb&allowWatchBookmarks=true&watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan',
    );
  });
});
