// Tests for src/engine/encoding/go-json.ts: Go's json.Marshal escaping and json.Unmarshal into the
// continue-token struct. Expected values were computed with Go's encoding/json (same code paths in
// Go >= 1.22, except \b and \f, which Go >= 1.22 writes in short form).
import * as assert from 'assert';
import * as fc from 'fast-check';
import {
  goJsonMarshal,
  goJsonMarshalIndent,
  goJsonParse,
  goJsonQuote,
  goJsonUnmarshalStruct,
  GoJsonSyntaxError,
  GoJsonUnmarshalTypeError,
} from '../../../src/engine/encoding/go-json';
import { continueTokenType } from '../../../src/engine/storage/continue';
import {
  foldEqual,
  goJsonMarshalCareful,
  quoteChar,
  type GoJsonValue,
} from '../../../src/engine/encoding/go-json';

const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const raw = (...parts: Array<string | number[]>): Uint8Array =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === 'string' ? Array.from(Buffer.from(p, 'utf8')) : p)),
  );

describe('go-json goJsonQuote (json.Marshal string escaping)', () => {
  const cases: Array<[string, string, string]> = [
    ['plain', 'default/pod-b', '"default/pod-b"'],
    ['HTML-sensitive < > &', '<a>&b', '"\\u003ca\\u003e\\u0026b"'],
    ['U+2028 and U+2029', 'a\u2028b\u2029c', '"a\\u2028b\\u2029c"'],
    ['NUL', 'bar\x00', '"bar\\u0000"'],
    ['short escapes \\n \\r \\t', '\n\r\t', '"\\n\\r\\t"'],
    ['\\b and \\f short forms (Go >= 1.22)', '\b\f', '"\\b\\f"'],
    ['other control characters, lowercase hex', '\x01\x1f\x1b', '"\\u0001\\u001f\\u001b"'],
    ['DEL raw', 'a\x7fb', '"a\x7fb"'],
    ['quote and backslash', '"\\', '"\\"\\\\"'],
    ['slash is not escaped', 'a/b', '"a/b"'],
    ['non-ASCII raw', 'é😀\u0080', '"é😀\u0080"'],
    ['lone high surrogate = invalid UTF-8', 'a\ud800b', '"a\\ufffdb"'],
    ['lone low surrogate = invalid UTF-8', '\udc00', '"\\ufffd"'],
    ['reversed pair = two invalid sequences', '\udc00\ud800', '"\\ufffd\\ufffd"'],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => assert.strictEqual(goJsonQuote(input), want, name));
  }

  it('escapeHTML=false leaves < > & raw (json.Encoder.SetEscapeHTML(false))', () => {
    assert.strictEqual(goJsonQuote('<&>', false), '"<&>"');
  });

  it('agrees with JSON.parse on every valid string (the escapes are standard JSON)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite' }), (s) => {
        assert.strictEqual(JSON.parse(goJsonQuote(s)), s);
      }),
    );
  });
});

describe('go-json goJsonMarshal', () => {
  const cases: Array<[string, Parameters<typeof goJsonMarshal>[0], string]> = [
    [
      'continue token struct, field order kept',
      { v: 'meta.k8s.io/v1', rv: 10n, start: 'bar\x00' },
      '{"v":"meta.k8s.io/v1","rv":10,"start":"bar\\u0000"}',
    ],
    [
      'Status body',
      { kind: 'Status', apiVersion: 'v1', metadata: {}, code: 400 },
      '{"kind":"Status","apiVersion":"v1","metadata":{},"code":400}',
    ],
    ['arrays and nulls', [1, null, true, 'x'], '[1,null,true,"x"]'],
    ['undefined properties omitted', { a: undefined, b: 1 }, '{"b":1}'],
    ['int64 max as bigint', 9223372036854775807n, '9223372036854775807'],
    [
      'float formats like Go',
      [1e21, 1e-7, 0.5, 1e20, -0],
      '[1e+21,1e-7,0.5,100000000000000000000,-0]',
    ],
    ['keys are escaped too', { '<k>': 1 }, '{"\\u003ck\\u003e":1}'],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => assert.strictEqual(goJsonMarshal(input), want, name));
  }

  it("refuses NaN and infinities with Go's message", () => {
    assert.throws(() => goJsonMarshal(NaN), /json: unsupported value: NaN/);
    assert.throws(() => goJsonMarshal([Infinity]), /json: unsupported value: \+Inf/);
  });
});

describe('go-json goJsonMarshalIndent (json.MarshalIndent(v, "", "  "))', () => {
  // What Go 1.22 prints for the same values (HTML characters and U+2028/9 escaped as Marshal
  // escapes them; empty objects and arrays kept on one line; no trailing newline).
  const cases: Array<[string, GoJsonValue, string]> = [
    ['a scalar', 'x', '"x"'],
    ['empty object and array', { a: {}, b: [] }, '{\n  "a": {},\n  "b": []\n}'],
    [
      'a Status',
      { kind: 'Status', metadata: {}, details: { causes: [{ field: 'a' }, { field: 'b' }] } },
      '{\n  "kind": "Status",\n  "metadata": {},\n  "details": {\n    "causes": [\n      {\n        "field": "a"\n      },\n      {\n        "field": "b"\n      }\n    ]\n  }\n}',
    ],
    [
      'HTML characters and line separators escaped as Marshal does',
      { 'a<b': 'x>y&z\u2028\u2029' },
      '{\n  "a\\u003cb": "x\\u003ey\\u0026z\\u2028\\u2029"\n}',
    ],
    [
      'strings holding JSON punctuation and escaped quotes are copied as they are',
      ['{"a": [1, 2]}', 'q\\"{', ':,'],
      '[\n  "{\\"a\\": [1, 2]}",\n  "q\\\\\\"{",\n  ":,"\n]',
    ],
    ['nested arrays', [[1, 2], [], null], '[\n  [\n    1,\n    2\n  ],\n  [],\n  null\n]'],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => assert.strictEqual(goJsonMarshalIndent(input), want, name));
  }

  it('indents what it is given exactly as JSON.parse reads it back', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const indented = goJsonMarshalIndent(v as GoJsonValue);
        assert.deepStrictEqual(JSON.parse(indented), JSON.parse(goJsonMarshal(v as GoJsonValue)));
      }),
    );
  });
});

describe('go-json goJsonMarshal fast path (JSON.stringify with fix-ups)', () => {
  // Strings from every UTF-16 code unit (lone surrogates included) and the characters Go escapes.
  const str = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({
      unit: fc.constantFrom(
        '<',
        '>',
        '&',
        '\u2028',
        '\u2029',
        '\\',
        '"',
        '\n',
        '\u0001',
        '\u007f',
        'a',
        '\ud800',
        '\udc00',
        'ü',
        '😀',
      ),
    }),
  );
  const num = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.constantFrom(-0, 0, 1e21, 1e-7, Number.MAX_SAFE_INTEGER),
  );
  const value: fc.Arbitrary<GoJsonValue> = fc.letrec<{ v: GoJsonValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      num,
      fc.bigInt(),
      str,
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(str, tie('v'), { maxKeys: 4 }),
    ),
  })).v;

  const outcome = (f: () => string): string => {
    try {
      return `ok ${f()}`;
    } catch (e) {
      return `throws ${(e as Error).message}`;
    }
  };

  it('writes exactly what the careful encoder writes, with and without HTML escaping', () => {
    fc.assert(
      fc.property(value, fc.boolean(), (v, escapeHTML) => {
        assert.strictEqual(
          outcome(() => goJsonMarshal(v, { escapeHTML })),
          outcome(() => goJsonMarshalCareful(v, escapeHTML)),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('falls back for what JSON.stringify writes differently: lone surrogates, -0, bigints', () => {
    assert.strictEqual(goJsonMarshal({ s: 'a\ud800b' }), '{"s":"a\\ufffdb"}');
    assert.strictEqual(goJsonMarshal([-0, 1n]), '[-0,1]');
    assert.strictEqual(
      goJsonMarshal({ h: '<a & b>\u2028' }),
      '{"h":"\\u003ca \\u0026 b\\u003e\\u2028"}',
    );
    assert.strictEqual(goJsonMarshal({ h: '<\\ud800>' }), '{"h":"\\u003c\\\\ud800\\u003e"}');
  });
});

describe('go-json goJsonUnmarshalStruct into storage.continueToken (the §1.2 facts)', () => {
  // [name, input bytes, Go error ('' = none), v, rv, start]
  const cases: Array<[string, Uint8Array, string, string, bigint, string]> = [
    [
      'case-insensitive keys',
      bytes('{"V":"meta.k8s.io/v1","RV":5,"START":"k"}'),
      '',
      'meta.k8s.io/v1',
      5n,
      'k',
    ],
    [
      'U+017F long s folds to s',
      bytes('{"v":"meta.k8s.io/v1","rv":5,"\u017ftart":"k"}'),
      '',
      'meta.k8s.io/v1',
      5n,
      'k',
    ],
    [
      'U+212A Kelvin sign folds to k (unknown key, ignored)',
      bytes('{"\u212aey":1,"v":"meta.k8s.io/v1","rv":1,"start":"k"}'),
      '',
      'meta.k8s.io/v1',
      1n,
      'k',
    ],
    [
      'duplicate case variants: last wins (START then start)',
      bytes('{"v":"meta.k8s.io/v1","rv":5,"START":"a","start":"b"}'),
      '',
      'meta.k8s.io/v1',
      5n,
      'b',
    ],
    ['duplicates V then v', bytes('{"V":"x","v":"y"}'), '', 'y', 0n, ''],
    ['duplicates v then V', bytes('{"v":"y","V":"x"}'), '', 'x', 0n, ''],
    [
      'rv null is zero',
      bytes('{"v":"meta.k8s.io/v1","rv":null,"start":"k"}'),
      '',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'rv missing is zero',
      bytes('{"v":"meta.k8s.io/v1","start":"k"}'),
      '',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'a later null leaves the earlier value',
      bytes('{"v":"meta.k8s.io/v1","rv":5,"rv":null,"start":"k"}'),
      '',
      'meta.k8s.io/v1',
      5n,
      'k',
    ],
    [
      'rv 5.5',
      bytes('{"v":"meta.k8s.io/v1","rv":5.5,"start":"k"}'),
      'json: cannot unmarshal number 5.5 into Go struct field continueToken.rv of type int64',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'rv 1e3',
      bytes('{"v":"meta.k8s.io/v1","rv":1e3,"start":"k"}'),
      'json: cannot unmarshal number 1e3 into Go struct field continueToken.rv of type int64',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'rv "5"',
      bytes('{"v":"meta.k8s.io/v1","rv":"5","start":"k"}'),
      'json: cannot unmarshal string into Go struct field continueToken.rv of type int64',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'rv 2^63',
      bytes('{"v":"meta.k8s.io/v1","rv":9223372036854775808,"start":"k"}'),
      'json: cannot unmarshal number 9223372036854775808 into Go struct field continueToken.rv of type int64',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'rv -2^63-1',
      bytes('{"v":"meta.k8s.io/v1","rv":-9223372036854775809,"start":"k"}'),
      'json: cannot unmarshal number -9223372036854775809 into Go struct field continueToken.rv of type int64',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'rv int64 max',
      bytes('{"v":"meta.k8s.io/v1","rv":9223372036854775807,"start":"k"}'),
      '',
      'meta.k8s.io/v1',
      9223372036854775807n,
      'k',
    ],
    [
      'rv 2^53+1 exact',
      bytes('{"v":"meta.k8s.io/v1","rv":9007199254740993,"start":"k"}'),
      '',
      'meta.k8s.io/v1',
      9007199254740993n,
      'k',
    ],
    ['rv -0', bytes('{"v":"meta.k8s.io/v1","rv":-0,"start":"k"}'), '', 'meta.k8s.io/v1', 0n, 'k'],
    [
      'rv true',
      bytes('{"v":"meta.k8s.io/v1","rv":true,"start":"k"}'),
      'json: cannot unmarshal bool into Go struct field continueToken.rv of type int64',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'rv object',
      bytes('{"v":"meta.k8s.io/v1","rv":{},"start":"k"}'),
      'json: cannot unmarshal object into Go struct field continueToken.rv of type int64',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'rv array',
      bytes('{"v":"meta.k8s.io/v1","rv":[1],"start":"k"}'),
      'json: cannot unmarshal array into Go struct field continueToken.rv of type int64',
      'meta.k8s.io/v1',
      0n,
      'k',
    ],
    [
      'v number',
      bytes('{"v":1,"rv":1,"start":"k"}'),
      'json: cannot unmarshal number into Go struct field continueToken.v of type string',
      '',
      1n,
      'k',
    ],
    [
      'start bool',
      bytes('{"v":"meta.k8s.io/v1","rv":1,"start":false}'),
      'json: cannot unmarshal bool into Go struct field continueToken.start of type string',
      'meta.k8s.io/v1',
      1n,
      '',
    ],
    [
      'the first type error wins',
      bytes('{"rv":5.5,"v":2}'),
      'json: cannot unmarshal number 5.5 into Go struct field continueToken.rv of type int64',
      '',
      0n,
      '',
    ],
    [
      'unknown keys of any type ignored',
      bytes('{"x":[1,{"y":null}],"v":"meta.k8s.io/v1","rv":7,"start":"k","z":{"a":[true,false]}}'),
      '',
      'meta.k8s.io/v1',
      7n,
      'k',
    ],
    [
      'trailing whitespace allowed',
      bytes('{"v":"meta.k8s.io/v1","rv":1,"start":"k"} \n\t\r'),
      '',
      'meta.k8s.io/v1',
      1n,
      'k',
    ],
    [
      'trailing junk',
      bytes('{"v":"meta.k8s.io/v1","rv":1,"start":"k"}x'),
      "invalid character 'x' after top-level value",
      '',
      0n,
      '',
    ],
    [
      'a second value',
      bytes('{"v":"meta.k8s.io/v1","rv":1,"start":"k"}{}'),
      "invalid character '{' after top-level value",
      '',
      0n,
      '',
    ],
    [
      'trailing NUL',
      raw('{"v":"x"}', [0]),
      "invalid character '\\x00' after top-level value",
      '',
      0n,
      '',
    ],
    ['top-level null', bytes('null'), '', '', 0n, ''],
    ['top-level null with spaces', bytes(' null '), '', '', 0n, ''],
    [
      'top-level array',
      bytes('[]'),
      'json: cannot unmarshal array into Go value of type storage.continueToken',
      '',
      0n,
      '',
    ],
    [
      'top-level number',
      bytes('1'),
      'json: cannot unmarshal number into Go value of type storage.continueToken',
      '',
      0n,
      '',
    ],
    [
      'top-level string',
      bytes('"s"'),
      'json: cannot unmarshal string into Go value of type storage.continueToken',
      '',
      0n,
      '',
    ],
    [
      'top-level bool',
      bytes('true'),
      'json: cannot unmarshal bool into Go value of type storage.continueToken',
      '',
      0n,
      '',
    ],
    ['empty input', bytes(''), 'unexpected end of JSON input', '', 0n, ''],
    [
      'unterminated object',
      bytes('{"v":"meta.k8s.io/v1","rv":1,"start":"k"'),
      'unexpected end of JSON input',
      '',
      0n,
      '',
    ],
    ['missing colon', bytes('{"v" "x"}'), "invalid character '\"' after object key", '', 0n, ''],
    [
      'trailing comma',
      bytes('{"v":"x",}'),
      "invalid character '}' looking for beginning of object key string",
      '',
      0n,
      '',
    ],
    [
      'unquoted key',
      bytes('{v:1}'),
      "invalid character 'v' looking for beginning of object key string",
      '',
      0n,
      '',
    ],
    [
      'single quotes',
      bytes("{'v':1}"),
      "invalid character '\\'' looking for beginning of object key string",
      '',
      0n,
      '',
    ],
    [
      'raw tab in a string',
      bytes('{"v":"a\tb"}'),
      "invalid character '\\t' in string literal",
      '',
      0n,
      '',
    ],
    ['bad escape', bytes('{"v":"\\x"}'), "invalid character 'x' in string escape code", '', 0n, ''],
    [
      'bad \\u escape',
      bytes('{"v":"\\u12g4"}'),
      "invalid character 'g' in \\u hexadecimal character escape",
      '',
      0n,
      '',
    ],
    [
      'leading zero',
      bytes('{"rv":01}'),
      "invalid character '1' after object key:value pair",
      '',
      0n,
      '',
    ],
    ['lone minus', bytes('{"rv":-}'), "invalid character '}' in numeric literal", '', 0n, ''],
    [
      '1.',
      bytes('{"rv":1.}'),
      "invalid character '}' after decimal point in numeric literal",
      '',
      0n,
      '',
    ],
    ['1e', bytes('{"rv":1e}'), "invalid character '}' in exponent of numeric literal", '', 0n, ''],
    [
      'tru',
      bytes('{"rv":tru}'),
      "invalid character '}' in literal true (expecting 'e')",
      '',
      0n,
      '',
    ],
    [
      'nul',
      bytes('{"rv":nul}'),
      "invalid character '}' in literal null (expecting 'l')",
      '',
      0n,
      '',
    ],
    [
      'UTF-8 BOM',
      raw([0xef, 0xbb, 0xbf], '{}'),
      "invalid character 'ï' looking for beginning of value",
      '',
      0n,
      '',
    ],
    [
      'C1 byte',
      raw('{"v":', [0x80], '}'),
      "invalid character '\\u0080' looking for beginning of value",
      '',
      0n,
      '',
    ],
    [
      'invalid UTF-8 in a string becomes U+FFFD per byte',
      raw('{"v":"meta.k8s.io/v1","rv":1,"start":"a', [0xff], 'b', [0xc3], '"}'),
      '',
      'meta.k8s.io/v1',
      1n,
      'a\ufffdb\ufffd',
    ],
    [
      'truncated 4-byte sequence: one U+FFFD per byte',
      raw('{"v":"meta.k8s.io/v1","rv":1,"start":"', [0xf0, 0x9f, 0x98], '"}'),
      '',
      'meta.k8s.io/v1',
      1n,
      '\ufffd\ufffd\ufffd',
    ],
    [
      'unpaired surrogate escapes become U+FFFD',
      bytes('{"v":"meta.k8s.io/v1","rv":1,"start":"\\ud800x\\udc00\\ud83d\\ude00"}'),
      '',
      'meta.k8s.io/v1',
      1n,
      '\ufffdx\ufffd😀',
    ],
  ];
  for (const [name, input, err, v, rv, start] of cases) {
    it(name, () => {
      const r = goJsonUnmarshalStruct(input, continueTokenType);
      assert.strictEqual(r.error?.message ?? '', err, `${name}: error`);
      if (err === '' || r.error instanceof GoJsonUnmarshalTypeError) {
        assert.deepStrictEqual(r.values, { v, rv, start }, `${name}: values`);
      }
    });
  }

  it('reports syntax errors before type errors (checkValid runs first)', () => {
    const r = goJsonUnmarshalStruct(bytes('{"rv":"5"} x'), continueTokenType);
    assert.ok(r.error instanceof GoJsonSyntaxError);
    assert.strictEqual(r.error.message, "invalid character 'x' after top-level value");
  });

  it('nesting deeper than 10000 is a syntax error', () => {
    const r = goJsonUnmarshalStruct(
      bytes('{"x":' + '['.repeat(10001) + ']'.repeat(10001) + '}'),
      continueTokenType,
    );
    assert.strictEqual(r.error?.message, "invalid character '[' exceeded max depth");
  });

  it('skips deeply nested unknown values without recursion', () => {
    const r = goJsonUnmarshalStruct(
      bytes('{"x":' + '['.repeat(9999) + ']'.repeat(9999) + ',"rv":7}'),
      continueTokenType,
    );
    assert.strictEqual(r.error, undefined);
    assert.strictEqual(r.values.rv, 7n);
  });

  it('never throws and agrees with JSON.parse on well-formedness', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        const r = goJsonUnmarshalStruct(bytes(text), continueTokenType);
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        assert.strictEqual(!(r.error instanceof GoJsonSyntaxError), parses, text);
      }),
    );
  });
});

describe('go-json quoteChar (the byte in scanner messages)', () => {
  const cases: Array<[number, string]> = [
    [0x27, "'\\''"],
    [0x22, "'\"'"],
    [0x5c, "'\\\\'"],
    [0x78, "'x'"],
    [0x00, "'\\x00'"],
    [0x09, "'\\t'"],
    [0x07, "'\\a'"],
    [0x0b, "'\\v'"],
    [0x7f, "'\\x7f'"],
    [0x80, "'\\u0080'"],
    [0xa0, "'\\u00a0'"],
    [0xad, "'\\u00ad'"],
    [0xa1, "'¡'"],
    [0xc3, "'Ã'"],
    [0xff, "'ÿ'"],
  ];
  for (const [c, want] of cases) {
    it(`0x${c.toString(16)} -> ${want}`, () => assert.strictEqual(quoteChar(c), want));
  }
});

describe('go-json foldEqual (Go foldName equality)', () => {
  const cases: Array<[string, string, boolean]> = [
    ['start', 'START', true],
    ['start', '\u017ftart', true],
    ['start', 'ſTART', true],
    ['key', '\u212aey', true],
    ['rv', 'rV', true],
    ['v', 'w', false],
    ['start', 'starts', false],
    ['i', '\u0130', false],
    ['i', '\u0131', false],
    ['\u00e9', '\u00c9', true],
    ['\u03c3', '\u03c2', true],
    ['_', '_', true],
    ['@', '`', false],
  ];
  for (const [a, b, want] of cases) {
    it(`${JSON.stringify(a)} ~ ${JSON.stringify(b)} is ${want}`, () =>
      assert.strictEqual(foldEqual(a, b), want));
  }
});

describe('go-json goJsonParse (json.Unmarshal into interface{}: unquote of surrogate escapes)', () => {
  const cases: [string, unknown][] = [
    ['"\\ud800"', '\ufffd'],
    ['"a\\udc00b"', 'a\ufffdb'],
    ['"\\ud83d\\ude00"', '\u{1f600}'],
    ['"\\uD83D\\uDE00"', '\u{1f600}'],
    ['"\\ude00\\ud83d"', '\ufffd\ufffd'],
    ['"\\ud800\\ud800\\udc00"', '\ufffd\u{10000}'],
    ['"\\ud800\\n"', '\ufffd\n'],
    // An escaped backslash before "ud800" is no surrogate escape.
    ['"\\\\ud800"', '\\ud800'],
    ['"\\\\\\ud800"', '\\\ufffd'],
    ['{"\\ud800":"\\udfff"}', { '\ufffd': '\ufffd' }],
    ['["\\u00e9", "\\ud7ff", "\\ue000"]', ['\u00e9', '\ud7ff', '\ue000']],
  ];
  for (const [text, want] of cases)
    it(text, () => assert.deepStrictEqual(goJsonParse(new TextEncoder().encode(text)), want));

  it('as deep as checkValid allows (10,000 levels), without recursion', () => {
    const text = '{"a":'.repeat(10000) + '"\\ud800"' + '}'.repeat(10000);
    let v = goJsonParse(new TextEncoder().encode(text)) as Record<string, unknown>;
    for (let i = 0; i < 10000; i++) v = v.a as Record<string, unknown>;
    assert.strictEqual(v, '\ufffd');
  });
});
