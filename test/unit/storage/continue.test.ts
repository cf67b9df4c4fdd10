// Ports k8s.io/apiserver pkg/storage/continue_test.go (Test_decodeContinue with the exact bytes of
// reference §2.2, TestPrepareContinueTokenRemainingItemCount rows valid in 1.36) plus the §1.2
// strict-decoding facts, the §3.4 tokens, big resource versions and property tests.
import * as assert from 'assert';
import * as fc from 'fast-check';
import {
  ContinueTokenError,
  decodeContinue,
  encodeContinue,
  prepareContinueToken,
  type ContinueTokenErrorReason,
} from '../../../src/engine';
import { pathClean } from '../../../src/engine/storage/continue';

/** Token from raw JSON text, encoded with Node (independent of the code under test). */
const tok = (json: string | Buffer): string => Buffer.from(json).toString('base64url');

type Want =
  | { fromKey: string; rv: number | bigint }
  | { reason: ContinueTokenErrorReason; message: string; generic: boolean };

function check(name: string, token: string, prefix: string, want: Want): void {
  if ('fromKey' in want) {
    assert.deepStrictEqual(
      decodeContinue(token, prefix),
      { fromKey: want.fromKey, resourceVersion: want.rv },
      name,
    );
    return;
  }
  assert.throws(
    () => decodeContinue(token, prefix),
    (e: unknown) => {
      assert.ok(e instanceof ContinueTokenError, `${name}: ContinueTokenError`);
      assert.strictEqual(e.message, want.message, `${name}: message`);
      assert.strictEqual(e.reason, want.reason, `${name}: reason`);
      assert.strictEqual(
        e.wrapsGenericInvalidKey,
        want.generic,
        `${name}: errors.Is(ErrGenericInvalidKey)`,
      );
      return true;
    },
    name,
  );
}

const errVersion = 'continue key is not valid: server does not recognize this encoded version';
const errRV =
  'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)';
const errEmpty = 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)';
const generic = (detail: string): Want => ({
  reason: 'GenericInvalidKey',
  message: `continue key is not valid: ${detail}`,
  generic: true,
});

describe('decodeContinue: Test_decodeContinue (reference §2.1/§2.2, exact bytes and messages)', () => {
  const cases: Array<[string, string, Want]> = [
    [
      'valid',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ',
      { fromKey: '/test/key', rv: 1 },
    ],
    [
      'root path',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIvIn0',
      { fromKey: '/test/', rv: 1 },
    ],
    [
      'empty version',
      'eyJ2IjoiIiwicnYiOjEsInN0YXJ0Ijoia2V5In0',
      { reason: 'UnrecognizedEncodedVersion', message: errVersion + ' ', generic: false },
    ],
    [
      'invalid version',
      'eyJ2IjoidjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ',
      { reason: 'UnrecognizedEncodedVersion', message: errVersion + ' v1', generic: false },
    ],
    [
      'invalid RV',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJrZXkifQ',
      { reason: 'InvalidStartRV', message: errRV, generic: false },
    ],
    [
      'no start Key',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIifQ',
      { reason: 'EmptyStartKey', message: errEmpty, generic: false },
    ],
    [
      'path traversal - parent',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLi9rZXkifQ',
      generic('../key'),
    ],
    [
      'path traversal - local',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuL2tleSJ9',
      generic('./key'),
    ],
    [
      'path traversal - double parent',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLy4uL2tleSJ9',
      generic('./../key'),
    ],
    [
      'path traversal - after parent',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkvLi4vLi4ifQ',
      generic('key/../..'),
    ],
  ];
  for (const [name, token, want] of cases) {
    it(name, () => check(name, token, '/test/', want));
  }

  it('the tokens are what encodeContinueOrDie produces (json.Marshal + RawURLEncoding)', () => {
    for (const [name, token] of cases) {
      const json = Buffer.from(token, 'base64url').toString('utf8');
      assert.strictEqual(tok(json), token, name);
    }
  });
});

describe('decodeContinue: ValidateListOptions tokens (reference §2.2, prefix "")', () => {
  const cases: Array<[string, string, Want]> = [
    [
      'enc(100,"continue")',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6ImNvbnRpbnVlIn0',
      { fromKey: 'continue', rv: 100 },
    ],
    [
      'enc(0,"continue")',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJjb250aW51ZSJ9',
      { reason: 'InvalidStartRV', message: errRV, generic: false },
    ],
    [
      'enc(-1,"continue")',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiY29udGludWUifQ',
      { fromKey: 'continue', rv: -1 },
    ],
  ];
  for (const [name, token, want] of cases) {
    it(name, () => check(name, token, '', want));
  }
});

describe('decodeContinue: strict decoding (reference §1.2)', () => {
  const v1 = (rest: string): string => tok(`{"v":"meta.k8s.io/v1",${rest}}`);
  const valid = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ';
  const cases: Array<[string, string, Want]> = [
    // base64 (Go's RawURLEncoding)
    ['padding =', valid + '=', generic('illegal base64 data at input byte 58')],
    ['padding ==', valid + '==', generic('illegal base64 data at input byte 58')],
    [
      '+ (standard alphabet)',
      valid.slice(0, 10) + '+' + valid.slice(11),
      generic('illegal base64 data at input byte 10'),
    ],
    [
      '/ (standard alphabet)',
      valid.slice(0, 10) + '/' + valid.slice(11),
      generic('illegal base64 data at input byte 10'),
    ],
    [
      'space',
      valid.slice(0, 20) + ' ' + valid.slice(20),
      generic('illegal base64 data at input byte 20'),
    ],
    ['bad length (len%4==1)', valid + 'AAA', generic('illegal base64 data at input byte 60')],
    [
      'one extra symbol decodes a NUL after the object',
      valid + 'A',
      generic("invalid character '\\x00' after top-level value"),
    ],
    [
      'percent-encoded padding left in',
      valid + '%3D',
      generic('illegal base64 data at input byte 58'),
    ],
    [
      '\\r\\n are skipped',
      valid.slice(0, 20) + '\r\n' + valid.slice(20) + '\n',
      { fromKey: '/test/key', rv: 1 },
    ],
    ['non-strict trailing bits', valid.slice(0, -1) + 'R', { fromKey: '/test/key', rv: 1 }],
    ['empty token', '', generic('unexpected end of JSON input')],
    // json.Unmarshal
    [
      'case-insensitive keys',
      tok('{"V":"meta.k8s.io/v1","RV":5,"START":"k"}'),
      { fromKey: '/test/k', rv: 5 },
    ],
    ['ſtart (U+017F) matches start', v1('"rv":5,"\u017ftart":"k"'), { fromKey: '/test/k', rv: 5 }],
    [
      'duplicate start: last wins',
      v1('"rv":5,"START":"a","start":"b"'),
      { fromKey: '/test/b', rv: 5 },
    ],
    [
      'duplicate start, other order',
      v1('"rv":5,"start":"b","START":"a"'),
      { fromKey: '/test/a', rv: 5 },
    ],
    [
      'duplicate version V then v',
      tok('{"V":"x","v":"meta.k8s.io/v1","rv":1,"start":"k"}'),
      { fromKey: '/test/k', rv: 1 },
    ],
    [
      'duplicate version v then V',
      tok('{"v":"meta.k8s.io/v1","V":"x","rv":1,"start":"k"}'),
      { reason: 'UnrecognizedEncodedVersion', message: errVersion + ' x', generic: false },
    ],
    [
      'unknown keys ignored',
      v1('"rv":1,"extra":[1,{"a":null}],"start":"k"'),
      { fromKey: '/test/k', rv: 1 },
    ],
    [
      'rv null',
      v1('"rv":null,"start":"k"'),
      { reason: 'InvalidStartRV', message: errRV, generic: false },
    ],
    ['rv missing', v1('"start":"k"'), { reason: 'InvalidStartRV', message: errRV, generic: false }],
    [
      'rv 5.5',
      v1('"rv":5.5,"start":"k"'),
      generic(
        'json: cannot unmarshal number 5.5 into Go struct field continueToken.rv of type int64',
      ),
    ],
    [
      'rv 1e3',
      v1('"rv":1e3,"start":"k"'),
      generic(
        'json: cannot unmarshal number 1e3 into Go struct field continueToken.rv of type int64',
      ),
    ],
    [
      'rv "5"',
      v1('"rv":"5","start":"k"'),
      generic('json: cannot unmarshal string into Go struct field continueToken.rv of type int64'),
    ],
    [
      'rv 2^63',
      v1('"rv":9223372036854775808,"start":"k"'),
      generic(
        'json: cannot unmarshal number 9223372036854775808 into Go struct field continueToken.rv of type int64',
      ),
    ],
    [
      'trailing whitespace',
      tok('{"v":"meta.k8s.io/v1","rv":1,"start":"k"} \n'),
      { fromKey: '/test/k', rv: 1 },
    ],
    [
      'trailing junk',
      tok('{"v":"meta.k8s.io/v1","rv":1,"start":"k"}x'),
      generic("invalid character 'x' after top-level value"),
    ],
    [
      'top-level null',
      tok('null'),
      { reason: 'UnrecognizedEncodedVersion', message: errVersion + ' ', generic: false },
    ],
    [
      'top-level array',
      tok('[]'),
      generic('json: cannot unmarshal array into Go value of type storage.continueToken'),
    ],
    [
      'top-level number',
      tok('1'),
      generic('json: cannot unmarshal number into Go value of type storage.continueToken'),
    ],
    ['not JSON', tok('hello'), generic("invalid character 'h' looking for beginning of value")],
    [
      'invalid UTF-8 in start becomes U+FFFD',
      tok(
        Buffer.concat([
          Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"a'),
          Buffer.from([0xff]),
          Buffer.from('"}'),
        ]),
      ),
      { fromKey: '/test/a\ufffd', rv: 1 },
    ],
    [
      'negative rv other than -1 is accepted',
      v1('"rv":-7,"start":"k"'),
      { fromKey: '/test/k', rv: -7 },
    ],
    // start key checks
    ['leading slash kept clean', v1('"rv":1,"start":"/a/b"'), { fromKey: '/test/a/b', rv: 1 }],
    ['double slash', v1('"rv":1,"start":"a//b"'), generic('a//b')],
    ['trailing slash', v1('"rv":1,"start":"a/"'), generic('a/')],
    ['lone dot', v1('"rv":1,"start":"."'), generic('.')],
    ['lone dot-dot', v1('"rv":1,"start":".."'), generic('..')],
    ['"//"', v1('"rv":1,"start":"//"'), generic('//')],
    [
      'dots inside a name are fine',
      v1('"rv":1,"start":"a..b/.c"'),
      { fromKey: '/test/a..b/.c', rv: 1 },
    ],
    ['NUL kept', v1('"rv":1,"start":"bar\\u0000"'), { fromKey: '/test/bar\x00', rv: 1 }],
  ];
  for (const [name, token, want] of cases) {
    it(name, () => check(name, token, '/test/', want));
  }
});

describe('decodeContinue: big resource versions never lose precision', () => {
  const cases: Array<[string, string, number | bigint]> = [
    ['2^53-1 is a number', '9007199254740991', 9007199254740991],
    ['-(2^53-1) is a number', '-9007199254740991', -9007199254740991],
    ['2^53 is a bigint', '9007199254740992', 9007199254740992n],
    ['2^53+1 is a bigint', '9007199254740993', 9007199254740993n],
    ['int64 max', '9223372036854775807', 9223372036854775807n],
    ['int64 min', '-9223372036854775808', -9223372036854775808n],
  ];
  for (const [name, rv, want] of cases) {
    it(name, () => {
      const token = tok(`{"v":"meta.k8s.io/v1","rv":${rv},"start":"k"}`);
      assert.strictEqual(decodeContinue(token, '/p/').resourceVersion, want, name);
      assert.strictEqual(encodeContinue('/p/k', '/p/', want), token, `${name}: encode`);
    });
  }

  it('encodeContinue refuses rvs outside int64 and inexact numbers', () => {
    assert.throws(() => encodeContinue('/p/k', '/p/', 2n ** 63n), RangeError);
    assert.throws(() => encodeContinue('/p/k', '/p/', 2 ** 53 + 2), RangeError);
    assert.throws(() => encodeContinue('/p/k', '/p/', 1.5), RangeError);
  });
});

describe('encodeContinue', () => {
  const cases: Array<[string, string, string, number | bigint, string]> = [
    [
      '§2.2 valid',
      '/test/key',
      '/test/',
      1,
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ',
    ],
    [
      '§3.4 {bar\\0, rv 10}',
      'adapterbar\x00',
      'adapter',
      10,
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAsInN0YXJ0IjoiYmFyXHUwMDAwIn0',
    ],
    [
      '§3.4 {bar\\0, rv 9}',
      'adapterbar\x00',
      'adapter',
      9,
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OSwic3RhcnQiOiJiYXJcdTAwMDAifQ',
    ],
    [
      '§8.2 namespaced page',
      '/registry/pods/default/pod-b\x00',
      '/registry/pods/default/',
      12345,
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoicG9kLWJcdTAwMDAifQ',
    ],
    [
      '§8.2 cluster-scoped page',
      '/registry/pods/default/pod-b\x00',
      '/registry/pods/',
      12345,
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiZGVmYXVsdC9wb2QtYlx1MDAwMCJ9',
    ],
    [
      '§8.3 410 token rv -1',
      '/registry/pods/default/pod-b\x00',
      '/registry/pods/default/',
      -1,
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoicG9kLWJcdTAwMDAifQ',
    ],
    [
      'key == prefix encodes start ""',
      '/test/',
      '/test/',
      1,
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIifQ',
    ],
  ];
  for (const [name, key, prefix, rv, want] of cases) {
    it(name, () => assert.strictEqual(encodeContinue(key, prefix, rv), want, name));
  }

  // [name, start, the JSON Go's json.Marshal writes for it]
  const escaping: Array<[string, string, string]> = [
    ['< > &', '<a>&', '\\u003ca\\u003e\\u0026'],
    ['U+2028 / U+2029', '\u2028\u2029', '\\u2028\\u2029'],
    ['NUL', '\x00', '\\u0000'],
    ['\\b \\f (Go >= 1.22)', '\b\f', '\\b\\f'],
    ['other controls', '\x01\x1f', '\\u0001\\u001f'],
    ['DEL raw', '\x7f', '\x7f'],
    ['lone surrogates are invalid UTF-8', '\ud800\udc00\udc00\ud800', '𐀀\\ufffd\\ufffd'],
  ];
  for (const [name, start, json] of escaping) {
    it(`escapes ${name} like Go`, () => {
      const token = encodeContinue('/p/' + start, '/p/', 3);
      assert.strictEqual(
        Buffer.from(token, 'base64url').toString('utf8'),
        `{"v":"meta.k8s.io/v1","rv":3,"start":"${json}"}`,
        name,
      );
    });
  }

  it("refuses a key outside the prefix with upstream's message", () => {
    for (const [key, prefix] of [
      ['/other/key', '/test/'],
      ['/test/key', ''],
      ['', ''],
    ]) {
      assert.throws(
        () => encodeContinue(key, prefix, 1),
        (e: unknown) => {
          assert.ok(e instanceof Error && !(e instanceof ContinueTokenError));
          assert.strictEqual(
            e.message,
            'unable to encode next field: the key and key prefix do not match',
          );
          return true;
        },
        `${key} / ${prefix}`,
      );
    }
  });

  it('key == prefix encodes but does not decode (EmptyStartKey)', () => {
    check('key == prefix', encodeContinue('/test/', '/test/', 1), '/test/', {
      reason: 'EmptyStartKey',
      message: errEmpty,
      generic: false,
    });
  });
});

describe('prepareContinueToken: TestPrepareContinueTokenRemainingItemCount (1.36 rows)', () => {
  const token = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoicG9kLTJcdTAwMDAifQ';
  const everything = { empty: (): boolean => true };
  const nameFoo = { empty: (): boolean => false };
  const cases: Array<[string, Parameters<typeof prepareContinueToken>[5], number | undefined]> = [
    ['empty predicate reports remaining count', { predicate: { limit: 2, ...everything } }, 3],
    ['label selector omits remaining count', { predicate: { limit: 2, ...nameFoo } }, undefined],
    ['plain form: no selectors reports remaining count', { predicate: { limit: 2 } }, 3],
    [
      'plain form: label selector omits remaining count',
      { predicate: { limit: 2, label: 'name=foo' } },
      undefined,
    ],
    [
      'plain form: field selector omits remaining count',
      { predicate: { limit: 2, field: 'spec.nodeName=n1' } },
      undefined,
    ],
    [
      'plain form: empty selector strings are empty',
      { predicate: { limit: 2, label: '', field: '' } },
      3,
    ],
  ];
  for (const [name, opts, want] of cases) {
    it(name, () => {
      const r = prepareContinueToken('/test/pod-2', '/test/', 12345, 5, true, opts);
      assert.strictEqual(r.continue, token, `${name}: token`);
      assert.strictEqual(r.remainingItemCount, want, `${name}: remainingItemCount`);
    });
  }

  it('no more items: no token and no count', () => {
    assert.deepStrictEqual(
      prepareContinueToken('/test/pod-2', '/test/', 12345, 5, false, { predicate: { limit: 2 } }),
      { continue: '' },
    );
  });

  it('§3.4 "List with limit": {bar\\0, rv 10}, remainingItemCount 1', () => {
    const r = prepareContinueToken('adapterbar', 'adapter', 10, 2, true, {
      predicate: { limit: 1 },
    });
    assert.deepStrictEqual(r, {
      continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAsInN0YXJ0IjoiYmFyXHUwMDAwIn0',
      remainingItemCount: 1,
    });
  });
});

describe('pathClean (Go path.Clean)', () => {
  const cases: Array<[string, string]> = [
    ['', '.'],
    ['/', '/'],
    ['//', '/'],
    ['/a/', '/a'],
    ['a/', 'a'],
    ['a//b', 'a/b'],
    ['/./a', '/a'],
    ['/../a', '/a'],
    ['a/../..', '..'],
    ['../../a', '../../a'],
    ['/a/b/../../..', '/'],
    ['./', '.'],
    ['a/./b/.', 'a/b'],
    ['/a\x00', '/a\x00'],
    ['abc/def/../../..', '..'],
    ['/abc/def/../..', '/'],
    ['a/b/c/../d', 'a/b/d'],
  ];
  for (const [input, want] of cases) {
    it(`${JSON.stringify(input)} -> ${JSON.stringify(want)}`, () =>
      assert.strictEqual(pathClean(input), want));
  }
});

describe('continue token properties', () => {
  const prefix = '/registry/pods/';
  const segment = fc
    .string({
      minLength: 1,
      maxLength: 8,
      unit: fc.constantFrom('a', 'b', '-', '.', '\x00', 'é', '<', '\u2028', '😀'),
    })
    .filter((s) => s !== '.' && s !== '..');
  const cleanKey = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segs) => segs.join('/'));
  const rv = fc.oneof(
    fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    fc.integer({ min: -5, max: -1 }),
    fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }),
  );

  it('encode -> decode round-trips any clean key under the prefix', () => {
    fc.assert(
      fc.property(cleanKey, rv, (rel, version) => {
        const r = decodeContinue(encodeContinue(prefix + rel, prefix, version), prefix);
        assert.strictEqual(r.fromKey, prefix + rel);
        assert.strictEqual(BigInt(r.resourceVersion), BigInt(version));
      }),
    );
  });

  const decodedKeyIsSafe = (token: string): void => {
    try {
      const { fromKey } = decodeContinue(token, prefix);
      assert.ok(fromKey.startsWith(prefix), fromKey);
      const segs = fromKey.slice(prefix.length).split('/');
      assert.ok(!segs.includes('.') && !segs.includes('..'), fromKey);
    } catch (e) {
      assert.ok(e instanceof ContinueTokenError, String(e));
    }
  };

  it('decoding arbitrary text yields a key under the prefix or a ContinueTokenError', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), decodedKeyIsSafe));
  });

  it('decoding arbitrary base64-encoded JSON objects never escapes the prefix', () => {
    const start = fc.oneof(
      cleanKey,
      fc.string(),
      fc.array(fc.constantFrom('..', '.', '', 'a', 'b'), { maxLength: 5 }).map((s) => s.join('/')),
    );
    const obj = fc.record(
      {
        v: fc.oneof(fc.constant('meta.k8s.io/v1'), fc.string()),
        rv: fc.oneof(fc.integer(), fc.constant(0), fc.string()),
        start,
        extra: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(obj, (o) => decodedKeyIsSafe(tok(JSON.stringify(o)))));
  });

  it('decoding arbitrary JSON values never throws anything but ContinueTokenError', () => {
    fc.assert(fc.property(fc.json(), (json) => decodedKeyIsSafe(tok(json))));
  });
});
