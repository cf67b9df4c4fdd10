// Tests for src/request/list-query.ts: what kube-apiserver (release-1.36 handlers/get.go listOpts)
// answers for each query, and the engine requests the accepted ones become. The validation table
// follows apimachinery internalversion/validation/validation_test.go TestValidateListOptions.
import * as assert from 'assert';
import { StatusError, statusToJSON } from '../../../src/engine/storage/errors';
import {
  customResourceFieldLabelConversion,
  decodeListOptions,
  getOptions,
  listOpts,
  parseQuery,
  setListOptionsDefaults,
  toResourceListRequest,
  toResourceWatchRequest,
  validateListOptions,
  type InternalListOptions,
  type ListOptsScope,
} from '../../../src/request/list-query';

const podsScope: ListOptsScope = { resource: 'pods', watchList: true };

function failure(query: string, scope: ListOptsScope = podsScope): StatusError {
  try {
    listOpts(parseQuery(query), scope);
  } catch (e) {
    assert.ok(e instanceof StatusError, `${query}: ${String(e)}`);
    return e;
  }
  assert.fail(`${query}: accepted`);
}

describe('request/list-query', () => {
  describe('parseQuery (url.ParseQuery as req.URL.Query uses it)', () => {
    const cases: [string, [string, string[]][]][] = [
      ['', []],
      [
        'a=1&b=2&a=3',
        [
          ['a', ['1', '3']],
          ['b', ['2']],
        ],
      ],
      ['watch', [['watch', ['']]]],
      ['labelSelector=a%3D%3D%3Db', [['labelSelector', ['a===b']]]],
      ['x=a+b', [['x', ['a b']]]],
      ['bad=%zz&ok=1', [['ok', ['1']]]],
      ['semi=1;2&ok=1', [['ok', ['1']]]],
      ['k=%E2%9C%93', [['k', ['✓']]]],
    ];
    for (const [q, want] of cases)
      it(JSON.stringify(q), () => assert.deepStrictEqual([...parseQuery(q)], want));
  });

  describe('what a bad query answers', () => {
    const cases: { query: string; scope?: ListOptsScope; body: string }[] = [
      {
        query: 'limit=abc',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"strconv.ParseInt: parsing \\"abc\\": invalid syntax","reason":"BadRequest","code":400}',
      },
      {
        query: 'limit=99999999999999999999',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"strconv.ParseInt: parsing \\"99999999999999999999\\": value out of range","reason":"BadRequest","code":400}',
      },
      {
        // timeoutSeconds converts before limit (v1.ListOptions field order).
        query: 'limit=x&timeoutSeconds=y',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"strconv.ParseInt: parsing \\"y\\": invalid syntax","reason":"BadRequest","code":400}',
      },
      {
        query: 'labelSelector=a%3D%3D%3Db',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"unable to parse requirement: found \'=\', expected: identifier","reason":"BadRequest","code":400}',
      },
      {
        query: 'fieldSelector=spec.foo=x',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"field label not supported: spec.foo","reason":"BadRequest","code":400}',
      },
      {
        query: 'fieldSelector=spec.foo=x',
        scope: { resource: 'configmaps', watchList: true },
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"\\"spec.foo\\" is not a known field selector: only \\"metadata.name\\", \\"metadata.namespace\\"","reason":"BadRequest","code":400}',
      },
      {
        query: 'fieldSelector=metadata.namespace=x',
        scope: { resource: 'namespaces', watchList: true },
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"field label not supported: metadata.namespace","reason":"BadRequest","code":400}',
      },
      {
        query: 'fieldSelector=metadata.namespace=x',
        scope: {
          resource: 'widgets',
          watchList: true,
          convertFieldLabel: customResourceFieldLabelConversion(true),
        },
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"field label not supported: metadata.namespace","reason":"BadRequest","code":400}',
      },
      {
        query: 'fieldSelector=a',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"invalid selector: \'a\'; can\'t understand \'a\'","reason":"BadRequest","code":400}',
      },
      {
        query: 'resourceVersionMatch=Exact',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \\"\\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided","reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided","field":"resourceVersionMatch"}]},"code":422}',
      },
      {
        query: 'sendInitialEvents=true',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \\"\\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list","reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: sendInitialEvents is forbidden for list","field":"sendInitialEvents"}]},"code":422}',
      },
      {
        query: 'resourceVersion=1&resourceVersionMatch=%3Cb%3E',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \\"\\" is invalid: resourceVersionMatch: Unsupported value: \\"\\\\u003cb\\\\u003e\\": supported values: \\"Exact\\", \\"NotOlderThan\\", \\"\\"","reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueNotSupported","message":"Unsupported value: \\"\\\\u003cb\\\\u003e\\": supported values: \\"Exact\\", \\"NotOlderThan\\", \\"\\"","field":"resourceVersionMatch"}]},"code":422}',
      },
      {
        // Validation (422) runs before the field label conversion (400).
        query: 'fieldSelector=spec.foo=x&sendInitialEvents=false',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \\"\\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list","reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: sendInitialEvents is forbidden for list","field":"sendInitialEvents"}]},"code":422}',
      },
      {
        query: 'watch=1&resourceVersion=5&resourceVersionMatch=NotOlderThan',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \\"\\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided","reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided","field":"resourceVersionMatch"}]},"code":422}',
      },
      {
        query: 'watch=1&fieldSelector=metadata.name%3Dy',
        scope: { ...podsScope, name: 'x' },
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"fieldSelector metadata.name doesn\'t match requested name","reason":"BadRequest","code":400}',
      },
    ];
    for (const c of cases) {
      it(c.query + (c.scope ? ` (${c.scope.resource})` : ''), () => {
        assert.strictEqual(statusToJSON(failure(c.query, c.scope).status), c.body);
      });
    }
  });

  describe('ValidateListOptions (validation_test.go TestValidateListOptions)', () => {
    const base = (o: Partial<InternalListOptions>): InternalListOptions => ({
      ...decodeListOptions(new Map()),
      ...o,
    });
    const cases: {
      name: string;
      opts: Partial<InternalListOptions>;
      watchList?: boolean;
      want: string[];
    }[] = [
      { name: 'valid-default', opts: {}, want: [] },
      {
        name: 'valid-resourceversionmatch-exact',
        opts: { resourceVersion: '1', resourceVersionMatch: 'Exact' },
        want: [],
      },
      {
        name: 'invalid-resourceversionmatch-exact-rv0',
        opts: { resourceVersion: '0', resourceVersionMatch: 'Exact' },
        want: [
          'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        ],
      },
      {
        name: 'invalid-resourceversionmatch-with-continue',
        opts: { resourceVersion: '1', resourceVersionMatch: 'NotOlderThan', continue: 'x' },
        want: [
          'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
        ],
      },
      {
        name: 'list-sendInitialEvents-forbidden',
        opts: { sendInitialEvents: true },
        want: ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
      },
      {
        name: 'valid-watch-default',
        opts: { watch: true },
        want: [],
      },
      {
        name: 'valid-watch-sendInitialEvents-on',
        opts: { watch: true, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' },
        want: [],
      },
      {
        name: 'watch-sendInitialEvents-without-resourceVersionMatch-forbidden',
        opts: { watch: true, sendInitialEvents: true },
        want: [
          'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        ],
      },
      {
        name: 'watch-sendInitialEvents-with-exact-resourceVersionMatch-forbidden',
        opts: { watch: true, sendInitialEvents: true, resourceVersionMatch: 'Exact' },
        want: [
          'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
          'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
        ],
      },
      {
        name: 'watch-sendInitialEvents-with-continue-forbidden',
        opts: {
          watch: true,
          sendInitialEvents: true,
          resourceVersionMatch: 'NotOlderThan',
          continue: 'x',
        },
        want: [
          'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
        ],
      },
      {
        name: 'watch-sendInitialEvents-watch-list-off',
        opts: { watch: true, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' },
        watchList: false,
        want: [
          'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        ],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const got = validateListOptions(base(c.opts), c.watchList ?? true).map((e) => e.message);
        assert.deepStrictEqual(got, c.want);
      });
    }
  });

  describe('decodeListOptions', () => {
    it('booleans: only 0 and false (any case) are false; watch=maybe is a watch', () => {
      const cases: [string, boolean][] = [
        ['watch=maybe', true],
        ['watch=', true],
        ['watch', true],
        ['watch=0', false],
        ['watch=FALSE', false],
        ['watch=1', true],
      ];
      for (const [q, want] of cases)
        assert.strictEqual(decodeListOptions(parseQuery(q)).watch, want, q);
    });
    it('the first value of a repeated parameter wins', () => {
      assert.strictEqual(decodeListOptions(parseQuery('limit=5&limit=x')).limit, 5);
    });
    it('timeoutSeconds=-1 parses (handleWatch then ends the watch at once)', () => {
      assert.strictEqual(decodeListOptions(parseQuery('timeoutSeconds=-1')).timeoutSeconds, -1);
    });
    it('absent pointers stay undefined', () => {
      const o = decodeListOptions(parseQuery('limit=3'));
      assert.strictEqual(o.timeoutSeconds, undefined);
      assert.strictEqual(o.sendInitialEvents, undefined);
    });
  });

  describe('SetListOptionsDefaults', () => {
    const cases: [string, boolean, string, boolean | undefined][] = [
      ['watch=1', true, 'NotOlderThan', true],
      ['watch=1&resourceVersion=0', true, 'NotOlderThan', true],
      ['watch=1&resourceVersion=7', true, '', undefined],
      ['watch=1', false, '', undefined],
      ['watch=1&sendInitialEvents=false', true, '', false],
      ['limit=1', true, '', undefined],
    ];
    for (const [q, gate, match, initial] of cases) {
      it(`${q} (WatchList ${gate})`, () => {
        const o = decodeListOptions(parseQuery(q));
        setListOptionsDefaults(o, gate);
        assert.deepStrictEqual([o.resourceVersionMatch, o.sendInitialEvents], [match, initial]);
      });
    }
  });

  describe('engine requests', () => {
    it('a LIST: the field selector converted (spec.host is spec.nodeName), as storage gets it', () => {
      const o = listOpts(
        parseQuery('limit=500&labelSelector=app%3Dweb&fieldSelector=spec.host%3Dn1&continue=tok'),
        podsScope,
      );
      assert.deepStrictEqual(toResourceListRequest(o, 'default'), {
        namespace: 'default',
        labelSelector: 'app=web',
        fieldSelector: 'spec.nodeName=n1',
        limit: 500,
        continue: 'tok',
      });
      assert.strictEqual(o.parsedFieldSelector.string(), 'spec.nodeName=n1');
    });
    it('a LIST with a resourceVersion', () => {
      const o = listOpts(parseQuery('resourceVersion=10&resourceVersionMatch=Exact'), podsScope);
      assert.deepStrictEqual(toResourceListRequest(o), {
        resourceVersion: '10',
        resourceVersionMatch: 'Exact',
      });
    });
    it('a WATCH of a legacy RV becomes a watch-list (defaults applied once, here)', () => {
      const o = listOpts(
        parseQuery('watch=1&allowWatchBookmarks=true&timeoutSeconds=30'),
        podsScope,
      );
      assert.deepStrictEqual(toResourceWatchRequest(o, 'ns'), {
        applyDefaults: false,
        namespace: 'ns',
        resourceVersionMatch: 'NotOlderThan',
        allowWatchBookmarks: true,
        sendInitialEvents: true,
        timeoutSeconds: 30,
      });
    });
    it('a WATCH from an RV', () => {
      const o = listOpts(parseQuery('watch=true&resourceVersion=42'), podsScope);
      assert.deepStrictEqual(toResourceWatchRequest(o), {
        applyDefaults: false,
        resourceVersion: '42',
      });
    });
    it('a named watch pins metadata.name', () => {
      const o = listOpts(parseQuery('watch=1&resourceVersion=3'), { ...podsScope, name: 'x' });
      assert.strictEqual(o.parsedFieldSelector.string(), 'metadata.name=x');
      assert.deepStrictEqual(toResourceWatchRequest(o, 'ns', 'x'), {
        applyDefaults: false,
        namespace: 'ns',
        name: 'x',
        resourceVersion: '3',
      });
      const same = listOpts(parseQuery('watch=1&fieldSelector=metadata.name%3Dx'), {
        ...podsScope,
        name: 'x',
      });
      assert.strictEqual(same.parsedFieldSelector.string(), 'metadata.name=x');
    });
    it('a namespace list may select status.phase; a CR its selectableFields', () => {
      listOpts(parseQuery('fieldSelector=status.phase%3DActive'), {
        resource: 'namespaces',
        watchList: true,
      });
      listOpts(parseQuery('fieldSelector=spec.color%3Dred'), {
        resource: 'widgets',
        watchList: true,
        convertFieldLabel: customResourceFieldLabelConversion(false, ['spec.color']),
      });
    });
  });

  describe('getOptions (GetResource)', () => {
    it('resourceVersion', () => {
      assert.deepStrictEqual(getOptions(parseQuery('resourceVersion=0')), { resourceVersion: '0' });
      assert.deepStrictEqual(getOptions(parseQuery('')), { resourceVersion: '' });
    });
    it('export=true is refused, export=false ignored', () => {
      assert.throws(
        () => getOptions(parseQuery('export=true')),
        (e: unknown) =>
          e instanceof StatusError &&
          e.status.code === 400 &&
          e.status.message ===
            'the export parameter, deprecated since v1.14, is no longer supported',
      );
      assert.deepStrictEqual(getOptions(parseQuery('export=false')), { resourceVersion: '' });
    });
  });
});
