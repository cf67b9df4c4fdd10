// Tests for src/engine/storage/canonical-continue.ts (no upstream counterpart): which tokens the
// fast path answers itself, and that it declines the rest for the exact port (continue.ts) to
// decide. continue-fuzz.test.ts holds its answers equal to the exact port's on random input.
import * as assert from 'assert';
import { decodeCanonicalContinue } from '../../../src/engine/storage/canonical-continue';
import { encodeContinue, inspectContinue } from '../../../src/engine/storage/continue';

/** Token from raw JSON text, encoded with Node (independent of the code under test). */
const tok = (json: string | Buffer): string => Buffer.from(json).toString('base64url');
const canonical = (rv: string, start: string): string =>
  tok(`{"v":"meta.k8s.io/v1","rv":${rv},"start":"${start}"}`);

describe('decodeCanonicalContinue answers canonical tokens', () => {
  // [name, token, prefix, fromKey, rv]
  const cases: Array<[string, string, string, string, number]> = [
    ['§2.2 valid', canonical('1', 'key'), '/test/', '/test/key', 1],
    [
      'a page of a namespaced list',
      encodeContinue('/registry/pods/default/pod-b\x00', '/registry/pods/default/', 12345),
      '/registry/pods/default/',
      '/registry/pods/default/pod-b\x00',
      12345,
    ],
    ['rv -1 (the 410 token)', canonical('-1', 'k'), '/p/', '/p/k', -1],
    ['rv 2^53-1', canonical('9007199254740991', 'k'), '/p/', '/p/k', 9007199254740991],
    ['rv -(2^53-1)', canonical('-9007199254740991', 'k'), '/p/', '/p/k', -9007199254740991],
    ['bare "/"', canonical('1', '/'), '/p/', '/p/', 1],
    ['leading "/" dropped', canonical('1', '/a/b'), '/p/', '/p/a/b', 1],
    ['dots inside names', canonical('1', 'a..b/.c/...'), '/p/', '/p/a..b/.c/...', 1],
    ['short escapes', canonical('1', '\\"\\\\\\b\\f\\n\\r\\t'), '', '"\\\b\f\n\r\t', 1],
    ['\\/ is a separator', canonical('1', 'a\\/b'), '', 'a/b', 1],
    ['\\u escapes, either case', canonical('1', '\\u003c\\u00E9\\u2028'), '', '<é\u2028', 1],
    ['raw UTF-8', canonical('1', 'é中😀'), '', 'é中😀', 1],
    ['U+FFFD written out', canonical('1', '\\ufffd'), '', '\ufffd', 1],
    ['DEL raw', canonical('1', '\x7f'), '', '\x7f', 1],
    ['empty prefix', canonical('7', 'k'), '', 'k', 7],
  ];
  for (const [name, token, prefix, fromKey, rv] of cases) {
    it(name, () => {
      const want = { fromKey, resourceVersion: rv };
      assert.deepStrictEqual(decodeCanonicalContinue(token, prefix), want, name);
      assert.deepStrictEqual(inspectContinue(token, prefix).result, want, `${name}: exact port`);
    });
  }
});

describe('decodeCanonicalContinue declines everything else', () => {
  const valid = canonical('1', 'key');
  const v1 = (rest: string): string => tok(`{"v":"meta.k8s.io/v1",${rest}}`);
  // [name, token]: the exact port's answer may be a result or an error; the fast path has none.
  const cases: Array<[string, string]> = [
    ['padding', valid + '='],
    [
      'standard alphabet ("k???" has a "/")',
      Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"k???"}')
        .toString('base64')
        .replace(/=/g, ''),
    ],
    ['line break', valid.slice(0, 40) + '\n' + valid.slice(40)],
    ['lone last symbol', valid.slice(0, -1)],
    ['one more byte', valid + 'AA'],
    ['rv 0', canonical('0', 'k')],
    ['rv -0', canonical('-0', 'k')],
    ['rv with a leading zero', canonical('01', 'k')],
    ['rv 2^53', canonical('9007199254740992', 'k')],
    ['rv -(2^53)', canonical('-9007199254740992', 'k')],
    ['rv int64 max', canonical('9223372036854775807', 'k')],
    ['rv 1.0', canonical('1.0', 'k')],
    ['rv 1e3', canonical('1e3', 'k')],
    ['rv as a string', v1('"rv":"1","start":"k"')],
    ['keys in another case', tok('{"v":"meta.k8s.io/v1","RV":1,"start":"k"}')],
    ['ſtart', v1('"rv":1,"\u017ftart":"k"')],
    ['keys in another order', tok('{"v":"meta.k8s.io/v1","start":"k","rv":1}')],
    ['a duplicate key', v1('"rv":1,"start":"a","start":"b"')],
    ['an extra key', v1('"rv":1,"start":"k","x":1')],
    ['whitespace', v1('"rv":1, "start":"k"')],
    ['trailing whitespace', tok('{"v":"meta.k8s.io/v1","rv":1,"start":"k"} ')],
    ['escaped version', tok('{"v":"meta.k8s.io\\/v1","rv":1,"start":"k"}')],
    ['another version', tok('{"v":"meta.k8s.io/v2","rv":1,"start":"k"}')],
    ['empty start', canonical('1', '')],
    ['"."', canonical('1', '.')],
    ['".."', canonical('1', '..')],
    ['"a/../b"', canonical('1', 'a/../b')],
    ['"a//b"', canonical('1', 'a//b')],
    ['"//"', canonical('1', '//')],
    ['trailing "/"', canonical('1', 'a/')],
    ['escaped ".."', canonical('1', '\\u002e\\u002e')],
    ['surrogate pair escape', canonical('1', '\\ud83d\\ude00')],
    ['lone surrogate escape', canonical('1', '\\ud800')],
    ['short \\u escape', canonical('1', '\\u00')],
    ['unknown escape', canonical('1', '\\x41')],
    ['raw control character', canonical('1', '\x01')],
    [
      'invalid UTF-8',
      tok(
        Buffer.concat([
          Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"a'),
          Buffer.from([0xff, 0x22, 0x7d]),
        ]),
      ),
    ],
    ['unterminated string', tok('{"v":"meta.k8s.io/v1","rv":1,"start":"k')],
    ['no closing brace', tok('{"v":"meta.k8s.io/v1","rv":1,"start":"k"')],
    ['empty token', ''],
  ];
  for (const [name, token] of cases) {
    it(name, () => assert.strictEqual(decodeCanonicalContinue(token, '/p/'), undefined, name));
  }
});
