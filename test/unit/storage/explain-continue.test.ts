// Tests for src/engine/storage/explain-continue.ts: the one explanation every face shows.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { explainContinueToken, type ContinueTokenWarning } from '../../../src/engine';

const prefix = '/registry/pods/';
const pageToken =
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiZGVmYXVsdC9wb2QtYlx1MDAwMCJ9'; // {default/pod-b\0, 12345}
const latestToken = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoicG9kLWJcdTAwMDAifQ'; // {pod-b\0, -1}
const oddToken =
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0Ijoic2hvcC93ZWItPz5-XHUwMDAwIn0'; // {shop/web-?>~\0, 12345}
const tok = (json: string): string => Buffer.from(json).toString('base64url');
const kinds = (w: ContinueTokenWarning[]): string[] => w.map((x) => x.kind);

describe('explainContinueToken', () => {
  it('explains a page token: fields, rv meaning, start key, exclusive resume point', () => {
    const e = explainContinueToken(pageToken, prefix);
    assert.strictEqual(e.valid, true);
    assert.strictEqual(e.httpStatus, 200);
    assert.strictEqual(
      e.decodedJson,
      '{"v":"meta.k8s.io/v1","rv":12345,"start":"default/pod-b\\u0000"}',
    );
    assert.deepStrictEqual(e.fields, {
      v: 'meta.k8s.io/v1',
      rv: '12345',
      start: 'default/pod-b\x00',
    });
    assert.strictEqual(e.version, 'meta.k8s.io/v1');
    assert.match(e.rvMeaning ?? '', /^pinned: every page is served at revision 12345/);
    assert.deepStrictEqual(e.startKey, {
      relative: 'default/pod-b\x00',
      absolute: '/registry/pods/default/pod-b\x00',
    });
    assert.strictEqual(e.resumePoint?.display, '/registry/pods/default/pod-b␀');
    assert.strictEqual(e.resumePoint?.inclusive, false);
    assert.match(e.resumePoint?.description ?? '', /^just after \/registry\/pods\/default\/pod-b /);
    assert.deepStrictEqual(e.warnings, []);
    assert.strictEqual(e.error, undefined);
    assert.match(
      e.apiserverSays,
      /^continues the list just after \/registry\/pods\/default\/pod-b at resourceVersion 12345/,
    );
  });

  it('explains rv -1 as an inconsistent continue at the latest revision', () => {
    const e = explainContinueToken(latestToken, '/registry/pods/default/');
    assert.strictEqual(e.valid, true);
    assert.strictEqual(e.fields?.rv, '-1');
    assert.match(e.rvMeaning ?? '', /^inconsistent continue: resume at the latest revision/);
    assert.match(e.apiserverSays, /at the latest revision/);
  });

  it('a start key without NUL resumes at the key, inclusive', () => {
    const e = explainContinueToken(
      tok('{"v":"meta.k8s.io/v1","rv":9,"start":"foo"}'),
      '/pods/second/',
    );
    assert.strictEqual(e.resumePoint?.inclusive, true);
    assert.strictEqual(e.resumePoint?.description, 'at /pods/second/foo, inclusive');
  });

  it('keeps rv exact beyond 2^53', () => {
    const e = explainContinueToken(
      tok('{"v":"meta.k8s.io/v1","rv":9223372036854775807,"start":"k"}'),
      prefix,
    );
    assert.strictEqual(e.fields?.rv, '9223372036854775807');
    assert.match(e.rvMeaning ?? '', /revision 9223372036854775807/);
  });

  // [name, token, reason, message, warning kinds, repair]
  const invalid: Array<
    [string, string, string, string, string[], { token: string; valid: boolean } | undefined]
  > = [
    [
      'padding',
      pageToken + '==',
      'GenericInvalidKey',
      'continue key is not valid: illegal base64 data at input byte 84',
      ['padding'],
      { token: pageToken, valid: true },
    ],
    [
      'percent-encoded padding',
      pageToken + '%3D',
      'GenericInvalidKey',
      'continue key is not valid: illegal base64 data at input byte 84',
      ['percent-encoded'],
      { token: pageToken, valid: true },
    ],
    [
      'standard alphabet',
      oddToken.replace('-', '+'),
      'GenericInvalidKey',
      'continue key is not valid: illegal base64 data at input byte 71',
      ['non-url-alphabet'],
      { token: oddToken, valid: true },
    ],
    [
      'space (a + decoded from a query)',
      pageToken.slice(0, 30) + ' ' + pageToken.slice(30),
      'GenericInvalidKey',
      'continue key is not valid: illegal base64 data at input byte 30',
      ['whitespace'],
      { token: pageToken, valid: true },
    ],
    [
      'traversal',
      tok('{"v":"meta.k8s.io/v1","rv":5,"start":"../secrets/kube-system/admin-token"}'),
      'GenericInvalidKey',
      'continue key is not valid: ../secrets/kube-system/admin-token',
      ['traversal'],
      undefined,
    ],
    [
      'empty version',
      'eyJ2IjoiIiwicnYiOjEsInN0YXJ0Ijoia2V5In0',
      'UnrecognizedEncodedVersion',
      'continue key is not valid: server does not recognize this encoded version ',
      [],
      undefined,
    ],
    [
      'rv 0',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJrZXkifQ',
      'InvalidStartRV',
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
      [],
      undefined,
    ],
    [
      'padded traversal stays invalid after repair',
      tok('{"v":"meta.k8s.io/v1","rv":5,"start":"a/../../b"}') + '=',
      'GenericInvalidKey',
      'continue key is not valid: illegal base64 data at input byte 66',
      ['padding'],
      { token: tok('{"v":"meta.k8s.io/v1","rv":5,"start":"a/../../b"}'), valid: false },
    ],
  ];
  for (const [name, token, reason, message, warningKinds, repair] of invalid) {
    it(`invalid: ${name}`, () => {
      const e = explainContinueToken(token, prefix);
      assert.strictEqual(e.valid, false, name);
      assert.strictEqual(e.httpStatus, 400, name);
      assert.strictEqual(e.error?.reason, reason, name);
      assert.strictEqual(e.error?.message, message, name);
      assert.deepStrictEqual(kinds(e.warnings), warningKinds, name);
      assert.strictEqual(e.repair?.token, repair?.token, `${name}: repair token`);
      assert.strictEqual(e.repair?.valid, repair?.valid, `${name}: repair validity`);
      assert.strictEqual(
        e.apiserverSays,
        `400 Bad Request: invalid continue token: ${message}`,
        name,
      );
      assert.strictEqual(
        e.statusBody,
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `invalid continue token: ${message}`,
          reason: 'BadRequest',
          code: 400,
        }) + '\n',
        name,
      );
    });
  }

  it('a traversal failure wraps ErrGenericInvalidKey and names the start key as the cause', () => {
    const e = explainContinueToken(
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkvLi4vLi4ifQ',
      '/test/',
    );
    assert.deepStrictEqual(e.error, {
      reason: 'GenericInvalidKey',
      message: 'continue key is not valid: key/../..',
      wrapsGenericInvalidKey: true,
      stage: 'traversal',
      cause: 'key/../..',
    });
    assert.match(e.warnings[0].message, /'\.\.' \(parent\) segments/);
  });

  it('warns about // and . segments in the start key', () => {
    assert.match(
      explainContinueToken(tok('{"v":"meta.k8s.io/v1","rv":5,"start":"a//b"}'), prefix).warnings[0]
        .message,
      /empty \('\/\/'\) segments/,
    );
    assert.match(
      explainContinueToken(tok('{"v":"meta.k8s.io/v1","rv":5,"start":"./a"}'), prefix).warnings[0]
        .message,
      /'\.' segments/,
    );
  });

  it('line breaks are skipped by Go: still valid, with a warning', () => {
    const e = explainContinueToken(pageToken.slice(0, 40) + '\n' + pageToken.slice(40), prefix);
    assert.strictEqual(e.valid, true);
    assert.deepStrictEqual(kinds(e.warnings), ['line-break']);
  });

  it('shows the decoded JSON even when JSON decoding fails', () => {
    const e = explainContinueToken(tok('{"v":"meta.k8s.io/v1","rv":5.5,"start":"k"}'), prefix);
    assert.strictEqual(e.decodedJson, '{"v":"meta.k8s.io/v1","rv":5.5,"start":"k"}');
    assert.strictEqual(e.fields, undefined);
    assert.strictEqual(e.error?.stage, 'json');
    assert.strictEqual(
      e.error?.message,
      'continue key is not valid: json: cannot unmarshal number 5.5 into Go struct field continueToken.rv of type int64',
    );
  });

  it('an empty token is not a token: the apiserver ignores it', () => {
    const e = explainContinueToken('', prefix);
    assert.strictEqual(e.valid, false);
    assert.deepStrictEqual(kinds(e.warnings), ['empty']);
    assert.match(e.apiserverSays, /ignores it/);
  });

  it('never throws and is valid exactly when decodeContinue accepts', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const e = explainContinueToken(s, prefix);
        assert.strictEqual(e.valid, e.error === undefined);
        assert.strictEqual(e.valid, e.startKey !== undefined);
      }),
    );
  });
});
