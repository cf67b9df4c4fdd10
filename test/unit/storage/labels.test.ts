// Tests for src/engine/storage/labels.ts: ports of apimachinery pkg/labels/selector_test.go (release-1.36) plus exact error messages and properties.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { FieldErrorList, ErrorType } from '../../../src/engine/storage/field-errors';
import {
  InternalSelector,
  Lexer,
  Operator,
  Parser,
  ParserContext,
  Requirement,
  Token,
  everything,
  matchesNothing,
  newRequirement,
  nothing,
  parse,
  selectorFromSet,
  validatedSelectorFromSet,
  type Labels,
  type Selector,
} from '../../../src/engine/storage/labels';

function req(key: string, op: Operator, vals: string[] = []): Requirement {
  // getRequirement upstream: NewRequirement over sets.NewString(...).List(), i.e. sorted and unique.
  return newRequirement(key, op, [...new Set(vals)].sort());
}

function reqs(s: Selector): [string, string, readonly string[]][] {
  return s.requirements().requirements.map((r) => [r.key, r.operator, r.strValues]);
}

describe('labels.parse (TestSelectorParse)', () => {
  const good = [
    'x=a,y=b,z=c',
    '',
    'x!=a,y=b',
    'x=',
    'x= ',
    'x=,z= ',
    'x= ,z= ',
    '!x',
    'x>1',
    'x>1,z<5',
  ];
  for (const s of good) {
    it(`parses ${JSON.stringify(s)} and restrings it without spaces`, () => {
      assert.strictEqual(parse(s).string(), s.replace(/ /g, ''), s);
    });
  }
  const bad = ['x=a||y=b', 'x==a==b', '!x=a', 'x<a'];
  for (const s of bad) {
    it(`rejects ${JSON.stringify(s)}`, () => {
      assert.throws(() => parse(s), Error, s);
    });
  }

  it('is deterministic whatever the input order (TestDeterministicParse)', () => {
    assert.strictEqual(parse('x=a,a=x').string(), parse('a=x,x=a').string());
  });
});

describe('labels.parse error messages (derived from selector.go and content/kube.go)', () => {
  const labelValueRule =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  const nameRule =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const subdomainRule =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const ops = 'in, notin, =, ==, !=, gt, lt';
  const cases: [string, string][] = [
    [
      'x=a||y=b',
      `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${labelValueRule}`,
    ],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    [
      'x<a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'x>99999999999999999999',
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [',x', "found ',', expected: !, identifier, or 'end of string'"],
    ['x,', "found '', expected: identifier after ','"],
    ['x,,y', "found ',', expected: identifier after ','"],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    ['a (', `unable to parse requirement: found '(', expected: ${ops}`],
    ['x nott in (y)', `unable to parse requirement: found 'nott', expected: ${ops}`],
    ['a notin(', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['x in y', "unable to parse requirement: found 'y' expected: '('"],
    ['a in (xyz abc)', "unable to parse requirement: found 'abc', expected: ',' or ')'"],
    ['a in (xyz)b notin ()', "found 'b', expected: ',' or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    [
      'A/B/C',
      `unable to parse requirement: <nil>: Invalid value: "A/B/C": a valid label key ${nameRule} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    [
      '/foo',
      'unable to parse requirement: <nil>: Invalid value: "/foo": prefix part must be non-empty',
    ],
    [
      'Example.com/foo',
      `unable to parse requirement: <nil>: Invalid value: "Example.com/foo": prefix part ${subdomainRule}`,
    ],
    [
      'example.com/',
      'unable to parse requirement: <nil>: Invalid value: "example.com/": name part must be non-empty; name part ' +
        nameRule,
    ],
    [
      'a'.repeat(64),
      `unable to parse requirement: <nil>: Invalid value: "${'a'.repeat(64)}": name part must be no more than 63 bytes`,
    ],
    ['-x', `unable to parse requirement: <nil>: Invalid value: "-x": name part ${nameRule}`],
    [
      'x=' + 'v'.repeat(64),
      `unable to parse requirement: values[0][x]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes`,
    ],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    [
      'x=\u00e9',
      `unable to parse requirement: values[0][x]: Invalid value: "\u00e9": ${labelValueRule}`,
    ],
  ];
  for (const [input, message] of cases) {
    it(`rejects ${JSON.stringify(input)} with upstream's message`, () => {
      assert.throws(
        () => parse(input),
        (e: Error) => {
          assert.strictEqual(e.message, message, input);
          return true;
        },
      );
    });
  }

  it("reads a NUL character like Go's byte lexer: end of input where a token starts, else it ends the identifier", () => {
    assert.strictEqual(parse('x \u0000,!!!').string(), 'x');
    assert.throws(
      () => parse('x\u0000,!!!'),
      (e: Error) => e.message === "unable to parse requirement: found '!', expected: identifier",
    );
  });
});

describe('labels matching (TestEverything, TestSelectorMatches, TestSetMatches)', () => {
  it('everything() matches anything and is empty', () => {
    assert.ok(everything().matches({ x: 'y' }));
    assert.ok(everything().empty());
  });

  const cases: [string, Labels, boolean][] = [
    ['', { x: 'y' }, true],
    ['x=y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x', { x: 'z' }, true],
    ['!x', { y: 'z' }, true],
    ['x>1', { x: '2' }, true],
    ['x<1', { x: '0' }, true],
    ['x=z', {}, false],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['x', { y: 'z' }, false],
    ['!x', { x: 'z' }, false],
    ['x>1', { x: '0' }, false],
    ['x<1', { x: '2' }, false],
    ['foo=bar', { foo: 'bar', baz: 'blah' }, true],
    ['baz=blah', { foo: 'bar', baz: 'blah' }, true],
    ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }, true],
    ['foo=blah', { foo: 'bar', baz: 'blah' }, false],
    ['baz=bar', { foo: 'bar', baz: 'blah' }, false],
    ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }, false],
    // Not from upstream: prototype keys are not labels, and gt/lt compare as int64.
    ['constructor', {}, false],
    ['!toString', {}, true],
    ['x>9007199254740993', { x: '9007199254740994' }, true],
  ];
  for (const [selector, set, want] of cases) {
    it(`${JSON.stringify(selector)} ${want ? 'matches' : 'does not match'} ${JSON.stringify(set)}`, () => {
      assert.strictEqual(parse(selector).matches(set), want, selector);
    });
  }
  it('rejects a negative gt/lt bound, which is no valid label value', () => {
    assert.throws(() => parse('x<-1'), /values\[0\]\[x\]: Invalid value: "-1"/);
  });

  const labelset = { foo: 'bar', baz: 'blah' };
  const sets: Labels[] = [{}, { foo: 'bar' }, { baz: 'blah' }, { foo: 'bar', baz: 'blah' }];
  for (const s of sets) {
    it(`selectorFromSet(${JSON.stringify(s)}) matches its superset`, () => {
      assert.ok(selectorFromSet(s).matches(labelset));
    });
  }

  it('an empty set gives an empty selector (TestNilMapIsValid, TestSetIsEmpty)', () => {
    assert.ok(selectorFromSet({}).empty());
    assert.ok(new InternalSelector([]).empty());
  });
});

describe('labels.Lexer (TestLexer, TestLexerSequence)', () => {
  const single: [string, Token][] = [
    ['', Token.EndOfStringToken],
    [',', Token.CommaToken],
    ['notin', Token.NotInToken],
    ['in', Token.InToken],
    ['=', Token.EqualsToken],
    ['==', Token.DoubleEqualsToken],
    ['>', Token.GreaterThanToken],
    ['<', Token.LessThanToken],
    ['!', Token.DoesNotExistToken],
    ['!=', Token.NotEqualsToken],
    ['(', Token.OpenParToken],
    [')', Token.ClosedParToken],
    ['~', Token.IdentifierToken],
    ['||', Token.IdentifierToken],
  ];
  for (const [s, t] of single) {
    it(`lexes ${JSON.stringify(s)} as token ${t}`, () => {
      const [tok, lit] = new Lexer(s).lex();
      assert.strictEqual(tok, t, s);
      assert.strictEqual(lit, s, s);
    });
  }

  const T = Token;
  const sequences: [string, Token[]][] = [
    [
      'key in ( value )',
      [T.IdentifierToken, T.InToken, T.OpenParToken, T.IdentifierToken, T.ClosedParToken],
    ],
    [
      'key notin ( value )',
      [T.IdentifierToken, T.NotInToken, T.OpenParToken, T.IdentifierToken, T.ClosedParToken],
    ],
    [
      'key in ( value1, value2 )',
      [
        T.IdentifierToken,
        T.InToken,
        T.OpenParToken,
        T.IdentifierToken,
        T.CommaToken,
        T.IdentifierToken,
        T.ClosedParToken,
      ],
    ],
    ['key', [T.IdentifierToken]],
    ['!key', [T.DoesNotExistToken, T.IdentifierToken]],
    ['()', [T.OpenParToken, T.ClosedParToken]],
    [
      'x in (),y',
      [
        T.IdentifierToken,
        T.InToken,
        T.OpenParToken,
        T.ClosedParToken,
        T.CommaToken,
        T.IdentifierToken,
      ],
    ],
    [
      '== != (), = notin',
      [
        T.DoubleEqualsToken,
        T.NotEqualsToken,
        T.OpenParToken,
        T.ClosedParToken,
        T.CommaToken,
        T.EqualsToken,
        T.NotInToken,
      ],
    ],
    ['key>2', [T.IdentifierToken, T.GreaterThanToken, T.IdentifierToken]],
    ['key<1', [T.IdentifierToken, T.LessThanToken, T.IdentifierToken]],
    // Not from upstream: the longest operator wins, then the rest is lexed again.
    ['!!x', [T.DoesNotExistToken, T.DoesNotExistToken, T.IdentifierToken]],
    ['x<=1', [T.IdentifierToken, T.LessThanToken, T.EqualsToken, T.IdentifierToken]],
  ];
  for (const [s, want] of sequences) {
    it(`lexes ${JSON.stringify(s)} into ${want.length} tokens`, () => {
      const l = new Lexer(s);
      const got: Token[] = [];
      for (;;) {
        const [tok] = l.lex();
        if (tok === Token.EndOfStringToken) break;
        got.push(tok);
      }
      assert.deepStrictEqual(got, want, s);
    });
  }
});

describe('labels.Parser (TestParserLookahead, TestParseOperator)', () => {
  const T = Token;
  const cases: [string, Token[]][] = [
    [
      'key in ( value )',
      [
        T.IdentifierToken,
        T.InToken,
        T.OpenParToken,
        T.IdentifierToken,
        T.ClosedParToken,
        T.EndOfStringToken,
      ],
    ],
    [
      'key notin ( value )',
      [
        T.IdentifierToken,
        T.NotInToken,
        T.OpenParToken,
        T.IdentifierToken,
        T.ClosedParToken,
        T.EndOfStringToken,
      ],
    ],
    [
      'key in ( value1, value2 )',
      [
        T.IdentifierToken,
        T.InToken,
        T.OpenParToken,
        T.IdentifierToken,
        T.CommaToken,
        T.IdentifierToken,
        T.ClosedParToken,
        T.EndOfStringToken,
      ],
    ],
    ['key', [T.IdentifierToken, T.EndOfStringToken]],
    ['!key', [T.DoesNotExistToken, T.IdentifierToken, T.EndOfStringToken]],
    ['()', [T.OpenParToken, T.ClosedParToken, T.EndOfStringToken]],
    ['', [T.EndOfStringToken]],
    [
      'x in (),y',
      [
        T.IdentifierToken,
        T.InToken,
        T.OpenParToken,
        T.ClosedParToken,
        T.CommaToken,
        T.IdentifierToken,
        T.EndOfStringToken,
      ],
    ],
    [
      '== != (), = notin',
      [
        T.DoubleEqualsToken,
        T.NotEqualsToken,
        T.OpenParToken,
        T.ClosedParToken,
        T.CommaToken,
        T.EqualsToken,
        T.NotInToken,
        T.EndOfStringToken,
      ],
    ],
    ['key>2', [T.IdentifierToken, T.GreaterThanToken, T.IdentifierToken, T.EndOfStringToken]],
    ['key<1', [T.IdentifierToken, T.LessThanToken, T.IdentifierToken, T.EndOfStringToken]],
  ];
  for (const [s, want] of cases) {
    it(`scans ${JSON.stringify(s)} and looks ahead without moving`, () => {
      const p = new Parser(new Lexer(s));
      p.scan();
      assert.strictEqual(p.scannedCount(), want.length, s);
      const got: Token[] = [];
      for (;;) {
        const [tok, lit] = p.lookahead(ParserContext.KeyAndOperator);
        const [tok2, lit2] = p.consume(ParserContext.KeyAndOperator);
        assert.deepStrictEqual([tok, lit], [tok2, lit2], s);
        got.push(tok);
        if (tok === Token.EndOfStringToken) break;
      }
      assert.deepStrictEqual(got, want, s);
    });
  }

  it('turns in/notin into identifiers in the Values context', () => {
    const p = new Parser(new Lexer('in notin'));
    p.scan();
    assert.deepStrictEqual(p.lookahead(ParserContext.Values), [Token.IdentifierToken, 'in']);
    assert.deepStrictEqual(p.lookahead(ParserContext.KeyAndOperator), [Token.InToken, 'in']);
  });

  const ops = 'in, notin, =, ==, !=, gt, lt';
  const opCases: [string, string | undefined][] = [
    ['in', undefined],
    ['=', undefined],
    ['==', undefined],
    ['>', undefined],
    ['<', undefined],
    ['notin', undefined],
    ['!=', undefined],
    ['!', `found '!', expected: ${ops}`],
    ['exists', `found 'exists', expected: ${ops}`],
    ['(', `found '(', expected: ${ops}`],
  ];
  for (const [token, err] of opCases) {
    it(`parseOperator(${JSON.stringify(token)}) ${err ? 'fails' : 'succeeds'}`, () => {
      const p = new Parser(new Lexer(token));
      p.scan();
      if (err === undefined) p.parseOperator();
      else
        assert.throws(
          () => p.parseOperator(),
          (e: Error) => e.message === err,
        );
    });
  }
});

describe('labels.newRequirement (TestRequirementConstructor)', () => {
  const cases: {
    key: string;
    op: Operator;
    vals?: string[];
    want?: { type: string; field: string; badValue: unknown }[];
  }[] = [
    {
      key: 'x1',
      op: Operator.In,
      want: [{ type: ErrorType.Invalid, field: 'values', badValue: [] }],
    },
    {
      key: 'x2',
      op: Operator.NotIn,
      vals: [],
      want: [{ type: ErrorType.Invalid, field: 'values', badValue: [] }],
    },
    { key: 'x3', op: Operator.In, vals: ['foo'] },
    { key: 'x4', op: Operator.NotIn, vals: ['foo'] },
    {
      key: 'x5',
      op: Operator.Equals,
      vals: ['bar', 'foo'],
      want: [{ type: ErrorType.Invalid, field: 'values', badValue: ['bar', 'foo'] }],
    },
    { key: 'x6', op: Operator.Exists },
    { key: 'x7', op: Operator.DoesNotExist },
    {
      key: 'x8',
      op: Operator.Exists,
      vals: ['foo'],
      want: [{ type: ErrorType.Invalid, field: 'values', badValue: ['foo'] }],
    },
    { key: 'x9', op: Operator.In, vals: ['bar'] },
    { key: 'x10', op: Operator.In, vals: ['bar'] },
    { key: 'x11', op: Operator.GreaterThan, vals: ['1'] },
    { key: 'x12', op: Operator.LessThan, vals: ['6'] },
    {
      key: 'x13',
      op: Operator.GreaterThan,
      want: [{ type: ErrorType.Invalid, field: 'values', badValue: [] }],
    },
    {
      key: 'x14',
      op: Operator.GreaterThan,
      vals: ['bar'],
      want: [{ type: ErrorType.Invalid, field: 'values[0]', badValue: 'bar' }],
    },
    {
      key: 'x15',
      op: Operator.LessThan,
      vals: ['bar'],
      want: [{ type: ErrorType.Invalid, field: 'values[0]', badValue: 'bar' }],
    },
    {
      key: 'a'.repeat(254),
      op: Operator.Exists,
      want: [{ type: ErrorType.Invalid, field: 'key', badValue: 'a'.repeat(254) }],
    },
    {
      key: 'x16',
      op: Operator.Equals,
      vals: ['a'.repeat(254)],
      want: [{ type: ErrorType.Invalid, field: 'values[0][x16]', badValue: 'a'.repeat(254) }],
    },
    {
      key: 'x17',
      op: Operator.Equals,
      vals: ['a b'],
      want: [{ type: ErrorType.Invalid, field: 'values[0][x17]', badValue: 'a b' }],
    },
    {
      key: 'x18',
      op: 'unsupportedOp' as Operator,
      want: [{ type: ErrorType.NotSupported, field: 'operator', badValue: 'unsupportedOp' }],
    },
  ];
  for (const c of cases) {
    it(`${c.key.slice(0, 8)} ${c.op} ${JSON.stringify(c.vals ?? [])} ${c.want ? 'is rejected' : 'is accepted'}`, () => {
      let got: { type: string; field: string; badValue: unknown }[] | undefined;
      try {
        newRequirement(c.key, c.op, c.vals ?? []);
      } catch (e) {
        assert.ok(e instanceof FieldErrorList, String(e));
        got = e.errors.map((fe) => ({ type: fe.type, field: fe.field, badValue: fe.badValue }));
      }
      assert.deepStrictEqual(got, c.want, c.key);
    });
  }

  it('prints the unsupported operator with the supported list', () => {
    assert.throws(
      () => newRequirement('x', 'bad' as Operator, []),
      (e: Error) =>
        e.message ===
        'operator: Unsupported value: "bad": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    );
  });

  it('aggregates several errors as [a, b]', () => {
    assert.throws(
      () => newRequirement('x', Operator.Equals, ['a', 'b c']),
      (e: Error) =>
        e.message.startsWith(
          '[values: Invalid value: ["a","b c"]: exact-match compatibility requires one single value, values[1][x]: Invalid value: "b c": ',
        ),
    );
  });
});

describe('labels string forms (TestToString, TestSetSelectorString)', () => {
  const cases: [Requirement[], string][] = [
    [
      [
        req('x', Operator.In, ['abc', 'def']),
        req('y', Operator.NotIn, ['jkl']),
        req('z', Operator.Exists),
      ],
      'x in (abc,def),y notin (jkl),z',
    ],
    [
      [
        req('x', Operator.NotIn, ['abc', 'def']),
        req('y', Operator.NotEquals, ['jkl']),
        req('z', Operator.DoesNotExist),
      ],
      'x notin (abc,def),y!=jkl,!z',
    ],
    [
      [req('x', Operator.In, ['abc', 'def']), new Requirement('', '' as Operator, [])],
      'x in (abc,def),',
    ],
    [
      [
        req('x', Operator.NotIn, ['abc']),
        req('y', Operator.In, ['jkl', 'mno']),
        req('z', Operator.NotIn, ['']),
      ],
      'x notin (abc),y in (jkl,mno),z notin ()',
    ],
    [
      [
        req('x', Operator.Equals, ['abc']),
        req('y', Operator.DoubleEquals, ['jkl']),
        req('z', Operator.NotEquals, ['a']),
        req('z', Operator.Exists),
      ],
      'x=abc,y==jkl,z!=a,z',
    ],
    [
      [
        req('x', Operator.GreaterThan, ['2']),
        req('y', Operator.LessThan, ['8']),
        req('z', Operator.Exists),
      ],
      'x>2,y<8,z',
    ],
  ];
  for (const [rs, want] of cases) {
    it(`prints ${JSON.stringify(want)}`, () => {
      assert.strictEqual(new InternalSelector(rs).string(), want);
    });
  }

  it('sorts values on output without changing the requirement (TestSafeSort)', () => {
    const r = new Requirement('k', Operator.In, ['foo', 'bar', 'foo', 'bar']);
    assert.strictEqual(r.string(), 'k in (bar,bar,foo,foo)');
    assert.deepStrictEqual(r.strValues, ['foo', 'bar', 'foo', 'bar']);
  });

  const setCases: [Labels, string][] = [
    [{}, ''],
    [{ app: 'foo' }, 'app=foo'],
    [{ app: 'foo', a: 'b' }, 'a=b,app=foo'],
  ];
  for (const [set, want] of setCases) {
    it(`selectorFromSet(${JSON.stringify(set)}) prints ${JSON.stringify(want)}`, () => {
      assert.strictEqual(selectorFromSet(set).string(), want);
    });
  }
});

describe('labels requirement matching (TestRequirementSelectorMatching)', () => {
  const zero = new Requirement('', '' as Operator, []);
  const cases: [Labels, Requirement[], boolean][] = [
    [{ x: 'foo', y: 'baz' }, [zero], false],
    [
      { x: 'foo', y: 'baz' },
      [req('x', Operator.In, ['foo']), req('y', Operator.NotIn, ['alpha'])],
      true,
    ],
    [
      { x: 'foo', y: 'baz' },
      [req('x', Operator.In, ['foo']), req('y', Operator.In, ['alpha'])],
      false,
    ],
    [{ y: '' }, [req('x', Operator.NotIn, ['']), req('y', Operator.Exists)], true],
    [{ y: '' }, [req('x', Operator.DoesNotExist), req('y', Operator.Exists)], true],
    [{ y: '' }, [req('x', Operator.NotIn, ['']), req('y', Operator.DoesNotExist)], false],
    [{ y: 'baz' }, [req('x', Operator.In, [''])], false],
    [{ z: '2' }, [req('z', Operator.GreaterThan, ['1'])], true],
    [{ z: 'v2' }, [req('z', Operator.GreaterThan, ['1'])], false],
  ];
  cases.forEach(([set, rs, want], i) => {
    it(`case ${i}: ${new InternalSelector(rs).string()} on ${JSON.stringify(set)} -> ${want}`, () => {
      assert.strictEqual(new InternalSelector(rs).matches(set), want);
    });
  });
});

describe('labels.parse structure (TestSetSelectorParser)', () => {
  type R = [string, Operator, string[]];
  const cases: { in: string; out?: R[]; valid: boolean }[] = [
    { in: '', out: [], valid: true },
    { in: '\rx', out: [['x', Operator.Exists, []]], valid: true },
    {
      in: 'this-is-a-dns.domain.com/key-with-dash',
      out: [['this-is-a-dns.domain.com/key-with-dash', Operator.Exists, []]],
      valid: true,
    },
    {
      in: 'this-is-another-dns.domain.com/key-with-dash in (so,what)',
      out: [['this-is-another-dns.domain.com/key-with-dash', Operator.In, ['so', 'what']]],
      valid: true,
    },
    {
      in: '0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)',
      out: [['0.1.2.domain/99', Operator.NotIn, ['10.10.100.1', 'tick.tack.clock']]],
      valid: true,
    },
    { in: 'foo  in\t (abc)', out: [['foo', Operator.In, ['abc']]], valid: true },
    { in: 'x notin\n (abc)', out: [['x', Operator.NotIn, ['abc']]], valid: true },
    { in: 'x  notin\t\t\t(abc,def)', out: [['x', Operator.NotIn, ['abc', 'def']]], valid: true },
    { in: 'x in (abc,def)', out: [['x', Operator.In, ['abc', 'def']]], valid: true },
    { in: 'x in (abc,)', out: [['x', Operator.In, ['', 'abc']]], valid: true },
    { in: 'x in (abc,abc)', out: [['x', Operator.In, ['abc']]], valid: true },
    { in: 'x in ()', out: [['x', Operator.In, ['']]], valid: true },
    { in: 'x in (a,,)', out: [['x', Operator.In, ['', 'a']]], valid: true },
    { in: 'x in (a,,,)', out: [['x', Operator.In, ['', 'a']]], valid: true },
    { in: 'x in (a,,,,,,)', out: [['x', Operator.In, ['', 'a']]], valid: true },
    { in: 'x in (a,,a,,a,,a,,)', out: [['x', Operator.In, ['', 'a']]], valid: true },
    {
      in: 'x notin (abc,,def),bar,z in (),w',
      out: [
        ['bar', Operator.Exists, []],
        ['w', Operator.Exists, []],
        ['x', Operator.NotIn, ['', 'abc', 'def']],
        ['z', Operator.In, ['']],
      ],
      valid: true,
    },
    {
      in: 'x,y in (a)',
      out: [
        ['x', Operator.Exists, []],
        ['y', Operator.In, ['a']],
      ],
      valid: true,
    },
    { in: 'x=a', out: [['x', Operator.Equals, ['a']]], valid: true },
    { in: 'x>1', out: [['x', Operator.GreaterThan, ['1']]], valid: true },
    { in: 'x<7', out: [['x', Operator.LessThan, ['7']]], valid: true },
    {
      in: 'x=a,y!=b',
      out: [
        ['x', Operator.Equals, ['a']],
        ['y', Operator.NotEquals, ['b']],
      ],
      valid: true,
    },
    {
      in: 'x=a,y!=b,z in (h,i,j)',
      out: [
        ['x', Operator.Equals, ['a']],
        ['y', Operator.NotEquals, ['b']],
        ['z', Operator.In, ['h', 'i', 'j']],
      ],
      valid: true,
    },
    { in: 'x=a||y=b', valid: false },
    { in: 'x,,y', valid: false },
    { in: ',x,y', valid: false },
    { in: 'x nott in (y)', valid: false },
    { in: 'x notin ( )', out: [['x', Operator.NotIn, ['']]], valid: true },
    { in: 'x notin (, a)', out: [['x', Operator.NotIn, ['', 'a']]], valid: true },
    { in: 'a in (xyz),', valid: false },
    { in: 'a in (xyz)b notin ()', valid: false },
    { in: 'a ', out: [['a', Operator.Exists, []]], valid: true },
    {
      in: 'a in (x,y,notin, z,in)',
      out: [['a', Operator.In, ['in', 'notin', 'x', 'y', 'z']]],
      valid: true,
    },
    { in: 'a in (xyz abc)', valid: false },
    { in: 'a notin(', valid: false },
    { in: 'a (', valid: false },
    { in: '(', valid: false },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.in)} is ${c.valid ? 'parsed' : 'rejected'}`, () => {
      if (!c.valid) {
        assert.throws(() => parse(c.in), Error, c.in);
        return;
      }
      assert.deepStrictEqual(reqs(parse(c.in)), c.out, c.in);
    });
  }
});

describe('labels selector operations (TestAdd, TestRequiresExactMatch, TestValidatedSelectorFromSet, TestRequirementEqual, TestMatchesNothing)', () => {
  it('add keeps requirements sorted by key', () => {
    const s1 = new InternalSelector([]).add(req('key', Operator.In, ['value']));
    assert.deepStrictEqual(reqs(s1), [['key', 'in', ['value']]]);
    const s2 = s1.add(req('key2', Operator.Equals, ['value2']));
    assert.deepStrictEqual(reqs(s2), [
      ['key', 'in', ['value']],
      ['key2', '=', ['value2']],
    ]);
    const s3 = s2.add(req('a', Operator.Exists));
    assert.deepStrictEqual(
      reqs(s3).map((r) => r[0]),
      ['a', 'key', 'key2'],
    );
  });

  const exact: [string, Requirement[], string, string | undefined][] = [
    ['keyInOperatorExactMatch', [new Requirement('key', Operator.In, ['value'])], 'key', 'value'],
    [
      'keyInOperatorNotExactMatch',
      [new Requirement('key', Operator.In, ['value', 'value2'])],
      'key',
      undefined,
    ],
    [
      'keyInOperatorNotExactMatch (second key)',
      [
        new Requirement('key', Operator.In, ['value', 'value1']),
        new Requirement('key2', Operator.In, ['value2']),
      ],
      'key2',
      'value2',
    ],
    [
      'keyEqualOperatorExactMatch',
      [new Requirement('key', Operator.Equals, ['value'])],
      'key',
      'value',
    ],
    [
      'keyDoubleEqualOperatorExactMatch',
      [new Requirement('key', Operator.DoubleEquals, ['value'])],
      'key',
      'value',
    ],
    [
      'keyNotEqualOperatorExactMatch',
      [new Requirement('key', Operator.NotEquals, ['value'])],
      'key',
      undefined,
    ],
    [
      'keyEqualOperatorExactMatchFirst',
      [
        new Requirement('key', Operator.In, ['value']),
        new Requirement('key2', Operator.In, ['value2']),
      ],
      'key',
      'value',
    ],
  ];
  for (const [name, rs, label, want] of exact) {
    it(`requiresExactMatch: ${name}`, () => {
      assert.strictEqual(new InternalSelector(rs).requiresExactMatch(label), want);
    });
  }

  it('validatedSelectorFromSet accepts a valid set and rejects a 64-byte value', () => {
    assert.deepStrictEqual(reqs(validatedSelectorFromSet({ key: 'val' })), [['key', '=', ['val']]]);
    const long = 'axahm2EJ8Phiephe2eixohbee9eGeiyees1thuozi1xoh0GiuH3diewi8iem7Nui';
    assert.throws(
      () => validatedSelectorFromSet({ Key: long }),
      (e: unknown) =>
        e instanceof FieldErrorList &&
        e.errors.length === 1 &&
        e.errors[0].field === 'values[0][Key]' &&
        e.errors[0].badValue === long,
    );
  });

  const eq: [string, Requirement, Requirement, boolean][] = [
    [
      'same requirements',
      new Requirement('key', Operator.Equals, ['foo', 'bar']),
      new Requirement('key', Operator.Equals, ['foo', 'bar']),
      true,
    ],
    [
      'different keys',
      new Requirement('key1', Operator.Equals, ['foo', 'bar']),
      new Requirement('key2', Operator.Equals, ['foo', 'bar']),
      false,
    ],
    [
      'different operators',
      new Requirement('key', Operator.Equals, ['foo', 'bar']),
      new Requirement('key', Operator.In, ['foo', 'bar']),
      false,
    ],
    [
      'different values',
      new Requirement('key', Operator.Equals, ['foo', 'bar']),
      new Requirement('key', Operator.Equals, ['foobar']),
      false,
    ],
  ];
  for (const [name, x, y, want] of eq) {
    it(`equal: ${name} -> ${want}`, () => {
      assert.strictEqual(x.equal(y), want);
    });
  }

  const nothingCases: [string, Selector, boolean][] = [
    ['nothing()', nothing(), true],
    ['everything()', everything(), false],
    ['empty set', selectorFromSet({}), false],
    ['non-empty set', selectorFromSet({ key: 'value' }), false],
    ['empty selector', parse(''), false],
    ['exists', parse('a'), false],
    ['not exists', parse('!a'), false],
    ['equals', parse('a=b'), false],
    ['not equals', parse('a!=b'), false],
    ['in', parse('a in (b)'), false],
    ['notin', parse('a notin (b)'), false],
    ['conflict exists/not exists', parse('a,!a'), false],
    ['conflict equals/not equals', parse('a=b,a!=b'), false],
    ['conflict in/notin', parse('a in (b),a notin (b)'), false],
  ];
  for (const [name, s, want] of nothingCases) {
    it(`matchesNothing: ${name} -> ${want}`, () => {
      assert.strictEqual(matchesNothing(s), want);
    });
  }

  it('nothing() matches nothing and is not empty', () => {
    assert.strictEqual(nothing().matches({}), false);
    assert.strictEqual(nothing().empty(), false);
    assert.strictEqual(nothing().requirements().selectable, false);
  });
});

// --- properties ---

const keyArb = fc.constantFrom('a', 'b', 'app', 'tier', 'example.com/x', 'k8s.io/y-z');
const valueArb = fc.constantFrom('', 'a', 'b', 'v1', 'x.y', 'A_b-c');
const intArb = fc.constantFrom('0', '1', '5', '10', '12345');
const reqArb: fc.Arbitrary<Requirement> = fc.oneof(
  fc
    .tuple(
      keyArb,
      fc.constantFrom(Operator.Equals, Operator.DoubleEquals, Operator.NotEquals),
      valueArb,
    )
    .map(([k, op, v]) => req(k, op, [v])),
  fc
    .tuple(
      keyArb,
      fc.constantFrom(Operator.In, Operator.NotIn),
      fc.array(valueArb, { minLength: 1, maxLength: 3 }),
    )
    .map(([k, op, vs]) => req(k, op, vs)),
  fc
    .tuple(keyArb, fc.constantFrom(Operator.Exists, Operator.DoesNotExist))
    .map(([k, op]) => req(k, op)),
  fc
    .tuple(keyArb, fc.constantFrom(Operator.GreaterThan, Operator.LessThan), intArb)
    .map(([k, op, v]) => req(k, op, [v])),
);
const selectorArb = fc
  .array(reqArb, { maxLength: 5 })
  .map((rs) => new InternalSelector([]).add(...rs));
const labelsArb = fc.dictionary(keyArb, fc.oneof(valueArb, intArb), { maxKeys: 6 });

// The meaning of a requirement, written independently of the implementation.
function naive(r: Requirement, ls: Labels): boolean {
  const has = Object.prototype.hasOwnProperty.call(ls, r.key);
  const v = has ? ls[r.key] : undefined;
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return has && r.strValues.includes(v as string);
    case '!=':
    case 'notin':
      return !has || !r.strValues.includes(v as string);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !/^[+-]?\d+$/.test(v as string)) return false;
      const a = Number(v),
        b = Number(r.strValues[0]);
      return r.operator === 'gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

describe('labels properties', () => {
  it("a selector's string() re-parses to an equivalent selector", () => {
    fc.assert(
      fc.property(selectorArb, (s) => {
        const again = parse(s.string());
        assert.deepStrictEqual(reqs(again), reqs(s));
        assert.strictEqual(again.string(), s.string());
      }),
    );
  });

  it('whitespace between tokens does not change the parse', () => {
    fc.assert(
      fc.property(
        selectorArb,
        fc.array(fc.constantFrom(' ', '\t', '\n', '\r', '  '), { minLength: 1 }),
        (s, spaces) => {
          let i = 0;
          const ws = (): string => spaces[i++ % spaces.length];
          const text = s
            .requirements()
            .requirements.map((r) => {
              const op = r.operator;
              if (op === 'exists') return ws() + r.key + ws();
              if (op === '!') return ws() + '!' + ws() + r.key + ws();
              const sym = op === 'gt' ? '>' : op === 'lt' ? '<' : op;
              if (op === 'in' || op === 'notin')
                return `${ws()}${r.key} ${op}${ws()}(${ws()}${r.strValues.join(ws() + ',' + ws())}${ws()})${ws()}`;
              return `${ws()}${r.key}${ws()}${sym}${ws()}${r.strValues[0]}${ws()}`;
            })
            .join(',');
          assert.strictEqual(parse(text).string(), s.string(), JSON.stringify(text));
        },
      ),
    );
  });

  it('matches agrees with a naive evaluation', () => {
    fc.assert(
      fc.property(selectorArb, labelsArb, (s, ls) => {
        const want = s.requirements().requirements.every((r) => naive(r, ls));
        assert.strictEqual(s.matches(ls), want);
      }),
    );
  });
});
