// Tests for src/request/request-info.ts: the tables of k8s.io/apiserver
// pkg/endpoints/request/requestinfo_test.go (release-1.36) TestGetAPIRequestInfo,
// TestGetNonAPIRequestInfo and TestSelectorParsing.
import * as assert from 'assert';
import { RequestInfoFactory, splitRequestTarget } from '../../../src/request/request-info';

const resolver = new RequestInfoFactory();

describe('RequestInfoFactory.newRequestInfo: resource requests (TestGetAPIRequestInfo)', () => {
  // [method, url, verb, apiPrefix, group, version, namespace, resource, subresource, name, parts]
  type Case = [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string[],
  ];
  // prettier-ignore
  const cases: Case[] = [
    // resource paths
    ['GET', '/api/v1/namespaces', 'list', 'api', '', 'v1', '', 'namespaces', '', '', ['namespaces']],
    ['GET', '/api/v1/namespaces/other', 'get', 'api', '', 'v1', 'other', 'namespaces', '', 'other', ['namespaces', 'other']],
    ['GET', '/api/v1/namespaces/other/pods', 'list', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']],
    ['GET', '/api/v1/namespaces/other/pods/foo', 'get', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ['HEAD', '/api/v1/namespaces/other/pods/foo', 'get', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ['GET', '/api/v1/pods', 'list', 'api', '', 'v1', '', 'pods', '', '', ['pods']],
    ['HEAD', '/api/v1/pods', 'list', 'api', '', 'v1', '', 'pods', '', '', ['pods']],
    // special verbs
    ['GET', '/api/v1/proxy/namespaces/other/pods/foo', 'proxy', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ['GET', '/api/v1/proxy/namespaces/other/pods/foo/subpath/not/a/subresource', 'proxy', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo', 'subpath', 'not', 'a', 'subresource']],
    ['GET', '/api/v1/watch/pods', 'watch', 'api', '', 'v1', '', 'pods', '', '', ['pods']],
    ['GET', '/api/v1/pods?watch=true', 'watch', 'api', '', 'v1', '', 'pods', '', '', ['pods']],
    ['GET', '/api/v1/pods?watch=false', 'list', 'api', '', 'v1', '', 'pods', '', '', ['pods']],
    ['GET', '/api/v1/watch/namespaces/other/pods', 'watch', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']],
    ['GET', '/api/v1/namespaces/other/pods?watch=1', 'watch', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']],
    ['GET', '/api/v1/namespaces/other/pods?watch=0', 'list', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']],
    // subresource identification
    ['GET', '/api/v1/namespaces/other/pods/foo/status', 'get', 'api', '', 'v1', 'other', 'pods', 'status', 'foo', ['pods', 'foo', 'status']],
    ['GET', '/api/v1/namespaces/other/pods/foo/proxy/subpath', 'get', 'api', '', 'v1', 'other', 'pods', 'proxy', 'foo', ['pods', 'foo', 'proxy', 'subpath']],
    ['PUT', '/api/v1/namespaces/other/finalize', 'update', 'api', '', 'v1', 'other', 'namespaces', 'finalize', 'other', ['namespaces', 'other', 'finalize']],
    ['PUT', '/api/v1/namespaces/other/status', 'update', 'api', '', 'v1', 'other', 'namespaces', 'status', 'other', ['namespaces', 'other', 'status']],
    // verb identification
    ['PATCH', '/api/v1/namespaces/other/pods/foo', 'patch', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ['DELETE', '/api/v1/namespaces/other/pods/foo', 'delete', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ['POST', '/api/v1/namespaces/other/pods', 'create', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']],
    // deletecollection verb identification
    ['DELETE', '/api/v1/nodes', 'deletecollection', 'api', '', 'v1', '', 'nodes', '', '', ['nodes']],
    ['DELETE', '/api/v1/namespaces', 'deletecollection', 'api', '', 'v1', '', 'namespaces', '', '', ['namespaces']],
    ['DELETE', '/api/v1/namespaces/other/pods', 'deletecollection', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']],
    ['DELETE', '/apis/extensions/v1/namespaces/other/pods', 'deletecollection', 'apis', 'extensions', 'v1', 'other', 'pods', '', '', ['pods']],
    // api group and version identification
    ['POST', '/apis/extensions/v1/namespaces/other/pods', 'create', 'apis', 'extensions', 'v1', 'other', 'pods', '', '', ['pods']],
    ['POST', '/apis/extensions/v1beta3/namespaces/other/pods', 'create', 'apis', 'extensions', 'v1beta3', 'other', 'pods', '', '', ['pods']],
    // percent-decoded like Go's URL.Path
    ['GET', '/api/v1/namespaces/other/pods/a%3Cb', 'get', 'api', '', 'v1', 'other', 'pods', '', 'a<b', ['pods', 'a<b']],
  ];
  for (const [method, url, verb, prefix, group, version, ns, resource, sub, name, parts] of cases) {
    it(`${method} ${url}`, () => {
      const info = resolver.newRequestInfo(method, url);
      assert.strictEqual(info.isResourceRequest, true);
      assert.deepStrictEqual(
        [info.verb, info.apiPrefix, info.apiGroup, info.apiVersion, info.namespace],
        [verb, prefix, group, version, ns],
      );
      assert.deepStrictEqual([info.resource, info.subresource, info.name], [resource, sub, name]);
      assert.deepStrictEqual(info.parts, parts);
    });
  }

  const nonResource: Array<[string, string]> = [
    ['no resource path', '/'],
    ['just apiversion', '/api/version/'],
    ['just prefix, group, version', '/apis/group/version/'],
    ['bad prefix', '/badprefix/version/resource'],
    ['missing api group', '/apis/version/resource'],
  ];
  for (const [name, url] of nonResource) {
    it(`${name}: not a resource request`, () => {
      const info = resolver.newRequestInfo('GET', url);
      assert.strictEqual(info.isResourceRequest, false);
      assert.strictEqual(info.verb, 'get');
    });
  }

  it('a special verb with nothing after it is an error', () => {
    assert.throws(
      () => resolver.newRequestInfo('GET', '/api/v1/watch'),
      /^Error: unable to determine kind and namespace from url, \/api\/v1\/watch$/,
    );
  });
});

describe('RequestInfoFactory.newRequestInfo: isResourceRequest (TestGetNonAPIRequestInfo)', () => {
  const cases: Array<[string, string, boolean]> = [
    ['simple groupless', '/api/version/resource', true],
    ['simple group', '/apis/group/version/resource/name/subresource', true],
    ['more steps', '/api/version/resource/name/subresource', true],
    ['group list', '/apis/batch/v1/job', true],
    ['group get', '/apis/batch/v1/job/foo', true],
    ['group subresource', '/apis/batch/v1/job/foo/scale', true],
    ['bad root', '/not-api/version/resource', false],
    ['group without enough steps', '/apis/extensions/v1beta1', false],
    ['group without enough steps 2', '/apis/extensions/v1beta1/', false],
    ['not enough steps', '/api/version', false],
    ['one step', '/api', false],
    ['zero step', '/', false],
    ['empty', '', false],
  ];
  for (const [name, url, expected] of cases) {
    it(name, () =>
      assert.strictEqual(resolver.newRequestInfo('GET', url).isResourceRequest, expected),
    );
  }
});

describe('RequestInfoFactory.newRequestInfo: selectors (TestSelectorParsing)', () => {
  // [name, method, url, name, verb, fieldSelector, labelSelector]
  // prettier-ignore
  const cases: Array<[string, string, string, string, string, string, string]> = [
    ['no selector', 'GET', '/apis/group/version/resource', '', 'list', '', ''],
    ['metadata.name selector', 'GET', '/apis/group/version/resource?fieldSelector=metadata.name=name1', 'name1', 'list', 'metadata.name=name1', ''],
    ['metadata.name selector with watch', 'GET', '/apis/group/version/resource?watch=true&fieldSelector=metadata.name=name1', 'name1', 'watch', 'metadata.name=name1', ''],
    ['random selector', 'GET', '/apis/group/version/resource?fieldSelector=foo=bar&labelSelector=baz=qux', '', 'list', 'foo=bar', 'baz=qux'],
    ['invalid selector with metadata.name', 'GET', '/apis/group/version/resource?fieldSelector=metadata.name=name1,foo', '', 'list', 'metadata.name=name1,foo', ''],
    ['invalid selector with metadata.name with watch', 'GET', '/apis/group/version/resource?fieldSelector=metadata.name=name1,foo&watch=true', '', 'watch', 'metadata.name=name1,foo', ''],
    ['invalid selector with metadata.name with watch false', 'GET', '/apis/group/version/resource?fieldSelector=metadata.name=name1,foo&watch=false', '', 'list', 'metadata.name=name1,foo', ''],
    ['selector on deletecollection is honored', 'DELETE', '/apis/group/version/resource?fieldSelector=foo=bar&labelSelector=baz=qux', '', 'deletecollection', 'foo=bar', 'baz=qux'],
    ['selector on repeated param matches parsed param', 'GET', '/apis/group/version/resource?fieldSelector=metadata.name=foo&fieldSelector=metadata.name=bar&labelSelector=foo=bar&labelSelector=foo=baz', 'foo', 'list', 'metadata.name=foo', 'foo=bar'],
    ['selector on other verb is ignored', 'GET', '/apis/group/version/resource/name?fieldSelector=foo=bar&labelSelector=foo=bar', 'name', 'get', '', ''],
    ['selector on deprecated root type watch is not parsed', 'GET', '/apis/group/version/watch/resource?fieldSelector=metadata.name=foo&labelSelector=foo=bar', '', 'watch', '', ''],
    ['selector on deprecated root item watch is not parsed', 'GET', '/apis/group/version/watch/resource/name?fieldSelector=metadata.name=foo&labelSelector=foo=bar', 'name', 'watch', '', ''],
    // Ours: a metadata.name that is no path segment names nothing; a bad limit drops the name but keeps watch.
    ['metadata.name with a slash', 'GET', '/api/v1/pods?fieldSelector=metadata.name=a/b', '', 'list', 'metadata.name=a/b', ''],
    ['unparseable limit, watch read raw', 'GET', '/api/v1/pods?limit=x&watch=yes&fieldSelector=metadata.name=a', '', 'watch', 'metadata.name=a', ''],
    ['watch=FALSE is false', 'GET', '/api/v1/pods?watch=FALSE', '', 'list', '', ''],
    ['watch=f is true', 'GET', '/api/v1/pods?watch=f', '', 'watch', '', ''],
    ['watch=FALSE is false when a parameter does not convert', 'GET', '/api/v1/pods?watch=FALSE&limit=x', '', 'list', '', ''],
  ];
  for (const [name, method, url, wantName, verb, field, label] of cases) {
    it(name, () => {
      const info = resolver.newRequestInfo(method, url);
      assert.deepStrictEqual(
        [info.name, info.verb, info.fieldSelector, info.labelSelector],
        [wantName, verb, field, label],
      );
    });
  }
});

describe('splitRequestTarget', () => {
  // [request-target, rawPath, rawQuery]
  const cases: Array<[string, string, string]> = [
    ['/api/v1/pods', '/api/v1/pods', ''],
    ['/api/v1/pods?limit=1&watch=true', '/api/v1/pods', 'limit=1&watch=true'],
    ['/api/v1/namespaces/a%2Db/pods?', '/api/v1/namespaces/a%2Db/pods', ''],
    ['/api/v1/pods??a=1?b', '/api/v1/pods', '?a=1?b'],
  ];
  for (const [target, rawPath, rawQuery] of cases)
    it(target, () => assert.deepStrictEqual(splitRequestTarget(target), { rawPath, rawQuery }));
});
