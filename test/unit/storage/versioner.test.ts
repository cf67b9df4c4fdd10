// Tests for src/engine/storage/versioner.ts and go-strings.ts: resource version parsing with strconv.ParseUint semantics and list/object metadata updates.
import * as assert from 'assert';
import { InvalidError } from '../../../src/engine/storage/errors';
import {
  NumError,
  compareStrings,
  parseInt64,
  parseUint,
  quote,
  utf8Length,
} from '../../../src/engine/storage/go-strings';
import { makePod, type PodList } from '../../../src/engine/storage/objects';
import { APIObjectVersioner } from '../../../src/engine/storage/versioner';

describe('APIObjectVersioner.parseResourceVersion', () => {
  const v = new APIObjectVersioner();
  const ok: [string, bigint][] = [
    ['', 0n],
    ['0', 0n],
    ['1', 1n],
    ['01', 1n], // ParseUint accepts leading zeros
    ['00', 0n],
    ['9007199254740993', 9007199254740993n], // beyond 2^53: no precision lost
    ['9223372036854775807', 9223372036854775807n],
    ['18446744073709551615', 18446744073709551615n], // uint64 max
  ];
  for (const [rv, want] of ok) {
    it(`parses ${JSON.stringify(rv)} as ${want}`, () => {
      assert.strictEqual(v.parseResourceVersion(rv), want);
    });
  }

  const bad: [string, string][] = [
    [
      'abc',
      'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    ],
    ['-1', 'resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax'],
    ['+1', 'resourceVersion: Invalid value: "+1": strconv.ParseUint: parsing "+1": invalid syntax'],
    [' 1', 'resourceVersion: Invalid value: " 1": strconv.ParseUint: parsing " 1": invalid syntax'],
    ['1 ', 'resourceVersion: Invalid value: "1 ": strconv.ParseUint: parsing "1 ": invalid syntax'],
    [
      '1e3',
      'resourceVersion: Invalid value: "1e3": strconv.ParseUint: parsing "1e3": invalid syntax',
    ],
    [
      '0x10',
      'resourceVersion: Invalid value: "0x10": strconv.ParseUint: parsing "0x10": invalid syntax',
    ],
    [
      '1_000',
      'resourceVersion: Invalid value: "1_000": strconv.ParseUint: parsing "1_000": invalid syntax',
    ],
    [
      '18446744073709551616',
      'resourceVersion: Invalid value: "18446744073709551616": strconv.ParseUint: parsing "18446744073709551616": value out of range',
    ],
    [
      '99999999999999999999x',
      'resourceVersion: Invalid value: "99999999999999999999x": strconv.ParseUint: parsing "99999999999999999999x": value out of range',
    ],
    [
      'x99999999999999999999',
      'resourceVersion: Invalid value: "x99999999999999999999": strconv.ParseUint: parsing "x99999999999999999999": invalid syntax',
    ],
    [
      '1\t',
      'resourceVersion: Invalid value: "1\\t": strconv.ParseUint: parsing "1\\t": invalid syntax',
    ],
    [
      'a"b',
      'resourceVersion: Invalid value: "a\\"b": strconv.ParseUint: parsing "a\\"b": invalid syntax',
    ],
    [
      '\u0661',
      'resourceVersion: Invalid value: "\u0661": strconv.ParseUint: parsing "\u0661": invalid syntax',
    ], // Arabic-Indic one
  ];
  for (const [rv, message] of bad) {
    it(`rejects ${JSON.stringify(rv)}`, () => {
      assert.throws(
        () => v.parseResourceVersion(rv),
        (e: unknown) => e instanceof InvalidError && e.message === message,
      );
    });
  }
});

describe('strconv ports', () => {
  const ints: [string, bigint | string][] = [
    ['0', 0n],
    ['-0', 0n],
    ['+7', 7n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775807', 9223372036854775807n],
    ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    [
      '-9223372036854775809',
      'strconv.ParseInt: parsing "-9223372036854775809": value out of range',
    ],
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['-', 'strconv.ParseInt: parsing "-": invalid syntax'],
    ['1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
  ];
  for (const [s, want] of ints) {
    it(`ParseInt(${JSON.stringify(s)})`, () => {
      if (typeof want === 'bigint') assert.strictEqual(parseInt64(s), want);
      else
        assert.throws(
          () => parseInt64(s),
          (e: unknown) => e instanceof NumError && e.message === want,
        );
    });
  }

  it('ParseUint honours a smaller bitSize', () => {
    assert.strictEqual(parseUint('255', 8), 255n);
    assert.throws(() => parseUint('256', 8), /value out of range/);
  });

  const quotes: [string, string][] = [
    ['abc', '"abc"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['\x00\x1f\x7f', '"\\x00\\x1f\\x7f"'],
    ['é€😀', '"é€😀"'],
    ['\u00a0\u200b', '"\\u00a0\\u200b"'],
    ['\ud800', '"\ufffd"'],
  ];
  for (const [s, want] of quotes) {
    it(`Quote(${JSON.stringify(s)}) = ${want}`, () => {
      assert.strictEqual(quote(s), want);
    });
  }

  it('compares strings bytewise (code point order), unlike UTF-16 order', () => {
    assert.ok(compareStrings('\uff01', '😀') < 0); // UTF-16 would put the emoji first
    assert.ok(compareStrings('a', 'b') < 0);
    assert.ok(compareStrings('ab', 'a') > 0);
    assert.strictEqual(compareStrings('x', 'x'), 0);
    assert.strictEqual(utf8Length('aé€😀'), 1 + 2 + 3 + 4);
  });
});

describe('APIObjectVersioner object and list metadata', () => {
  const v = new APIObjectVersioner();

  it('updateObject puts resourceVersion in ObjectMeta order and clears it for 0', () => {
    const pod = makePod({
      name: 'p',
      namespace: 'ns',
      uid: 'u',
      creationTimestamp: '2024-01-01T00:00:00Z',
      labels: { a: 'b' },
    });
    v.updateObject(pod, 18446744073709551615n);
    assert.strictEqual(
      JSON.stringify(pod.metadata),
      '{"name":"p","namespace":"ns","uid":"u","resourceVersion":"18446744073709551615","creationTimestamp":"2024-01-01T00:00:00Z","labels":{"a":"b"}}',
    );
    v.updateObject(pod, 7n);
    assert.strictEqual(pod.metadata.resourceVersion, '7');
    assert.strictEqual(v.objectResourceVersion(pod), 7n);
    v.updateObject(pod, 0n);
    assert.ok(!('resourceVersion' in pod.metadata));
    assert.strictEqual(v.objectResourceVersion(pod), 0n);
  });

  it('prepareObjectForStorage clears resourceVersion and selfLink', () => {
    const pod = makePod({ name: 'p', resourceVersion: '5' });
    pod.metadata.selfLink = '/api/v1/pods/p';
    v.prepareObjectForStorage(pod);
    assert.deepStrictEqual(pod.metadata, { name: 'p' });
  });

  it("objectResourceVersion reports a malformed stored version with strconv's error", () => {
    assert.throws(
      () => v.objectResourceVersion(makePod({ name: 'p', resourceVersion: 'x' })),
      /strconv.ParseUint: parsing "x": invalid syntax/,
    );
  });

  it('compareResourceVersion orders numerically, not as strings', () => {
    assert.strictEqual(
      v.compareResourceVersion(
        makePod({ name: 'a', resourceVersion: '9' }),
        makePod({ name: 'b', resourceVersion: '10' }),
      ),
      -1,
    );
    assert.strictEqual(
      v.compareResourceVersion(
        makePod({ name: 'a', resourceVersion: '10' }),
        makePod({ name: 'b', resourceVersion: '10' }),
      ),
      0,
    );
  });

  it('updateList writes ListMeta in order and omits empty continue / nil count', () => {
    const list: PodList = { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [] };
    v.updateList(list, 12345n, 'eyJ2Ijoi', 3);
    assert.strictEqual(
      JSON.stringify(list),
      '{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"12345","continue":"eyJ2Ijoi","remainingItemCount":3},"items":[]}',
    );
    v.updateList(list, 12346n, '', undefined);
    assert.strictEqual(JSON.stringify(list.metadata), '{"resourceVersion":"12346"}');
  });

  it('updateList refuses revision 0', () => {
    const list: PodList = { metadata: {}, items: [] };
    assert.throws(
      () => v.updateList(list, 0n, '', undefined),
      /^Error: illegal resource version from storage: 0$/,
    );
  });
});
