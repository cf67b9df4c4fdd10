// Tests for src/engine/encoding/go-base64.ts against Go's base64.RawURLEncoding.
// Expected results were computed with Go's encoding/base64 (decodeQuantum is unchanged in Go >= 1.22).
import * as assert from 'assert';
import * as fc from 'fast-check';
import { Base64CorruptInputError, rawUrlEncoding } from '../../../src/engine/encoding/go-base64';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const valid = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ';

describe('go-base64 rawUrlEncoding.decodeString', () => {
  // [name, input, Go error (or '' when it decodes), decoded bytes as hex when valid]
  const cases: Array<[string, string, string, string]> = [
    [
      'valid token',
      valid,
      '',
      '7b2276223a226d6574612e6b38732e696f2f7631222c227276223a312c227374617274223a226b6579227d',
    ],
    ['one = padding after a token', valid + '=', 'illegal base64 data at input byte 58', ''],
    ['== padding after a token', valid + '==', 'illegal base64 data at input byte 58', ''],
    ['= after a full quantum', 'QUJD=', 'illegal base64 data at input byte 4', ''],
    ['std padding QUI=', 'QUI=', 'illegal base64 data at input byte 3', ''],
    ['std padding QQ==', 'QQ==', 'illegal base64 data at input byte 2', ''],
    ['lone =', '=', 'illegal base64 data at input byte 0', ''],
    ['= in the middle', 'AAAAAAAAAAAA=AAA', 'illegal base64 data at input byte 12', ''],
    ['two symbols', 'QQ', '', '41'],
    ['three symbols', 'QUJ', '', '4142'],
    ['length 1 (len%4==1)', 'Q', 'illegal base64 data at input byte 0', ''],
    ['length 5 (len%4==1)', 'QUJDR', 'illegal base64 data at input byte 4', ''],
    [
      'dangling symbol then newline: Go reports len-1',
      'QUJDR\n',
      'illegal base64 data at input byte 5',
      '',
    ],
    ['newline before a dangling symbol', 'QUJD\nR', 'illegal base64 data at input byte 5', ''],
    ['+ (standard alphabet)', 'ab+c', 'illegal base64 data at input byte 2', ''],
    ['/ (standard alphabet)', 'ab/c', 'illegal base64 data at input byte 2', ''],
    ['+ in the fast path', 'AAAAAAAA+AAAAAAA', 'illegal base64 data at input byte 8', ''],
    [
      '+ at the end of a token',
      valid.slice(0, -1) + '+',
      'illegal base64 data at input byte 57',
      '',
    ],
    ['space inside', 'ab c', 'illegal base64 data at input byte 2', ''],
    ['leading space', ' abc', 'illegal base64 data at input byte 0', ''],
    ['tab', 'abc\t', 'illegal base64 data at input byte 3', ''],
    ['percent-encoding left in', 'ab%3D', 'illegal base64 data at input byte 2', ''],
    ['NUL', 'QUJD\x00', 'illegal base64 data at input byte 4', ''],
    ['non-ASCII first', 'é', 'illegal base64 data at input byte 0', ''],
    ['non-ASCII second (byte offset)', 'aé', 'illegal base64 data at input byte 1', ''],
    ['\\n skipped', 'QU\nJD', '', '414243'],
    ['\\r\\n skipped', 'QU\r\nJD\n', '', '414243'],
    ['leading newlines skipped', '\n\nQUJD', '', '414243'],
    ['empty', '', '', ''],
    ['only a newline', '\n', '', ''],
    ['non-strict trailing bits YR', 'YR', '', '61'],
    ['non-strict trailing bits YWJ', 'YWJ', '', '6162'],
    ['full quantum QUJE', 'QUJE', '', '414244'],
  ];
  for (const [name, input, err, want] of cases) {
    it(`${name}: ${JSON.stringify(input)}`, () => {
      if (err === '') {
        assert.strictEqual(hex(rawUrlEncoding.decodeString(input)), want, name);
      } else {
        assert.throws(
          () => rawUrlEncoding.decodeString(input),
          (e: unknown) => {
            assert.ok(e instanceof Base64CorruptInputError, `${name}: error type`);
            assert.strictEqual(e.message, err, name);
            return true;
          },
        );
      }
    });
  }
});

describe('go-base64 rawUrlEncoding.encodeToString', () => {
  it('matches Node base64url (no padding) for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        assert.strictEqual(
          rawUrlEncoding.encodeToString(bytes),
          Buffer.from(bytes).toString('base64url'),
        );
      }),
    );
  });

  it('round-trips through decodeString', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        assert.deepStrictEqual(
          Array.from(rawUrlEncoding.decodeString(rawUrlEncoding.encodeToString(bytes))),
          Array.from(bytes),
        );
      }),
    );
  });

  it('never accepts what Node would silently repair: padding, + and /, spaces', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.constantFrom('=', '+', '/', ' '),
        fc.nat(),
        (bytes, bad, at) => {
          const enc = rawUrlEncoding.encodeToString(bytes);
          const pos = at % (enc.length + 1);
          const damaged = enc.slice(0, pos) + bad + enc.slice(pos);
          assert.throws(() => rawUrlEncoding.decodeString(damaged), Base64CorruptInputError);
        },
      ),
    );
  });
});
