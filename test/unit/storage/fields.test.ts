// Tests for src/engine/storage/fields.ts and field-labels.ts: ports of apimachinery pkg/fields/selector_test.go (release-1.36) and the pod field labels.
import * as assert from 'assert';
import * as fc from 'fast-check';
import {
  convertFieldLabel,
  getAttrs,
  podSelectableFields,
} from '../../../src/engine/storage/field-labels';
import {
  InvalidEscapeSequence,
  andSelectors,
  escapeValue,
  everything,
  nothing,
  oneTermEqualSelector,
  oneTermNotEqualSelector,
  parseAndTransformSelector,
  parseSelector,
  selectorFromSet,
  splitTerm,
  splitTerms,
  unescapeValue,
  type Fields,
  type Selector,
  type TransformFunc,
} from '../../../src/engine/storage/fields';
import { makePod } from '../../../src/engine/storage/objects';

describe('fields.splitTerms (TestSplitTerms)', () => {
  const cases: [string, string[]][] = [
    ['a', ['a']],
    ['a=avalue', ['a=avalue']],
    ['a=avalue,b=bvalue', ['a=avalue', 'b=bvalue']],
    ['a=avalue,b==bvalue,c!=cvalue', ['a=avalue', 'b==bvalue', 'c!=cvalue']],
    ['', []],
    ['a=a,', ['a=a', '']],
    [',a=a', ['', 'a=a']],
    ['k=\\,,k2=v2', ['k=\\,', 'k2=v2']],
    ['k=\\\\,k2=v2', ['k=\\\\', 'k2=v2']],
    ['k=\\\\\\,,k2=v2', ['k=\\\\\\,', 'k2=v2']],
    ['k=\\a\\b\\', ['k=\\a\\b\\']],
    ['k=\\', ['k=\\']],
    ['함=수,목=록', ['함=수', '목=록']],
  ];
  for (const [s, want] of cases) {
    it(`splits ${JSON.stringify(s)}`, () => assert.deepStrictEqual(splitTerms(s), want, s));
  }
});

describe('fields.splitTerm (TestSplitTerm)', () => {
  const cases: [string, { lhs: string; op: string; rhs: string } | undefined][] = [
    ['a=value', { lhs: 'a', op: '=', rhs: 'value' }],
    ['b==value', { lhs: 'b', op: '==', rhs: 'value' }],
    ['c!=value', { lhs: 'c', op: '!=', rhs: 'value' }],
    ['', undefined],
    ['a', undefined],
    ['k=\\,', { lhs: 'k', op: '=', rhs: '\\,' }],
    ['k=\\=', { lhs: 'k', op: '=', rhs: '\\=' }],
    ['k=\\\\\\a\\b\\=\\,\\', { lhs: 'k', op: '=', rhs: '\\\\\\a\\b\\=\\,\\' }],
    ['함=수', { lhs: '함', op: '=', rhs: '수' }],
  ];
  for (const [s, want] of cases) {
    it(`splits ${JSON.stringify(s)}`, () => assert.deepStrictEqual(splitTerm(s), want, s));
  }
});

describe('fields escaping (TestEscapeValue)', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
  ];
  for (const [raw, escaped] of cases) {
    it(`escapes ${JSON.stringify(raw)} as ${JSON.stringify(escaped)} and back`, () => {
      assert.strictEqual(escapeValue(raw), escaped);
      assert.strictEqual(unescapeValue(escaped), raw);
    });
  }
  const invalid: [string, string][] = [
    ['\\', 'invalid field selector: invalid escape sequence: \\'],
    ['\\\\\\', 'invalid field selector: invalid escape sequence: \\'],
    ['\\a', 'invalid field selector: invalid escape sequence: \\a'],
  ];
  for (const [s, message] of invalid) {
    it(`rejects ${JSON.stringify(s)} as an invalid escape sequence`, () => {
      assert.throws(
        () => unescapeValue(s),
        (e: unknown) => e instanceof InvalidEscapeSequence && e.message === message,
      );
    });
  }
  it('prints an unescaped = or , as its rune number, as Go %v does', () => {
    assert.throws(
      () => unescapeValue('a=b'),
      (e: Error) => e.message === 'invalid field selector: unescaped character in value: 61',
    );
    assert.throws(
      () => unescapeValue('a,b'),
      (e: Error) => e.message === 'invalid field selector: unescaped character in value: 44',
    );
  });
});

describe('fields.parseSelector (TestSelectorParse, TestDeterministicParse)', () => {
  for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=a||y\\=b', 'x=a\\=\\=b']) {
    it(`parses and restrings ${JSON.stringify(s)}`, () =>
      assert.strictEqual(parseSelector(s).string(), s));
  }
  const bad: [string, string][] = [
    ['x=a||y=b', 'invalid field selector: unescaped character in value: 61'],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['x=a,b', "invalid selector: 'x=a,b'; can't understand 'b'"],
    ['x in (a)', "invalid selector: 'x in (a)'; can't understand 'x in (a)'"],
    ['x in (a,b,c)', "invalid selector: 'x in (a,b,c)'; can't understand 'b'"],
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['x=\\q', 'invalid field selector: invalid escape sequence: \\q'],
  ];
  for (const [s, message] of bad) {
    it(`rejects ${JSON.stringify(s)}`, () =>
      assert.throws(
        () => parseSelector(s),
        (e: Error) => e.message === message,
      ));
  }
  it('sorts terms, so the input order does not matter', () => {
    assert.strictEqual(parseSelector('x=a,a=x').string(), parseSelector('a=x,x=a').string());
    assert.strictEqual(parseSelector('x=a,a=x').string(), 'a=x,x=a');
  });
  it('drops empty terms and reads == as =', () => {
    assert.strictEqual(parseSelector(',a==b,,').string(), 'a=b');
  });
  it('turns a term with empty field and value into nothing at all', () => {
    assert.ok(parseSelector('=').empty());
    assert.ok(parseSelector('=,a=b').string() === 'a=b');
  });
});

describe('fields matching (TestEverything, TestSelectorMatches, TestOneTermEqualSelector, TestSetMatches)', () => {
  it('everything() matches and is empty', () => {
    assert.ok(everything().matches({ x: 'y' }));
    assert.ok(everything().empty());
  });
  const fieldset: Fields = { foo: 'bar', baz: 'blah', complex: '=value\\,\\' };
  const cases: [string, Fields, boolean][] = [
    ['', { x: 'y' }, true],
    ['x=y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['foo=bar', fieldset, true],
    ['baz=blah', fieldset, true],
    ['foo=bar,baz=blah', fieldset, true],
    ['foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\', fieldset, true],
    ['foo=blah', fieldset, false],
    ['baz=bar', fieldset, false],
    ['foo=bar,foobar=bar,baz=blah', fieldset, false],
    // Not from upstream: a missing field reads as "" and prototype keys are no fields.
    ['spec.nodeName=', {}, true],
    ['constructor=', {}, true],
  ];
  for (const [s, set, want] of cases) {
    it(`${JSON.stringify(s)} ${want ? 'matches' : 'does not match'} ${JSON.stringify(set)}`, () => {
      assert.strictEqual(parseSelector(s).matches(set), want, s);
    });
  }
  it('oneTermEqualSelector', () => {
    assert.ok(oneTermEqualSelector('x', 'y').matches({ x: 'y' }));
    assert.ok(!oneTermEqualSelector('x', 'y').matches({ x: 'z' }));
    assert.ok(oneTermNotEqualSelector('x', 'y').matches({ x: 'z' }));
  });
  const labelset = { foo: 'bar', baz: 'blah' };
  const direct: [Fields, boolean][] = [
    [{}, true],
    [{ foo: 'bar' }, true],
    [{ baz: 'blah' }, true],
    [{ foo: 'bar', baz: 'blah' }, true],
    [{ foo: '=blah' }, false],
    [{ baz: '=bar' }, false],
    [{ foo: '=bar', foobar: 'bar', baz: 'blah' }, false],
  ];
  for (const [set, want] of direct) {
    it(`selectorFromSet(${JSON.stringify(set)}) ${want ? 'matches' : 'does not match'}`, () => {
      assert.strictEqual(selectorFromSet(set).matches(labelset), want);
    });
  }
});

describe('fields emptiness and exact matches (TestNilMapIsValid, TestSetIsEmpty, TestRequiresExactMatch)', () => {
  const empties: [string, Selector, boolean][] = [
    ['empty set', selectorFromSet({}), true],
    ['empty andTerm', andSelectors(), true],
    ['hasTerm', oneTermEqualSelector('', ''), false],
    ['notHasTerm', oneTermNotEqualSelector('', ''), false],
    ['nested empty andTerm', andSelectors(andSelectors()), true],
    ['nested andTerm with a term', andSelectors(oneTermEqualSelector('a', 'b')), false],
    ['nothing()', nothing(), false],
  ];
  for (const [name, s, want] of empties) {
    it(`${name}.empty() is ${want}`, () => assert.strictEqual(s.empty(), want));
  }
  const exact: [string, Selector, string, string | undefined][] = [
    ['empty set', selectorFromSet({}), 'test', undefined],
    ['empty hasTerm', oneTermEqualSelector('', ''), 'test', undefined],
    ['skipped hasTerm', oneTermEqualSelector('a', 'b'), 'test', undefined],
    ['valid hasTerm', oneTermEqualSelector('test', 'b'), 'test', 'b'],
    ['valid hasTerm no value', oneTermEqualSelector('test', ''), 'test', ''],
    ['valid notHasTerm', oneTermNotEqualSelector('test', 'b'), 'test', undefined],
    ['valid notHasTerm no value', oneTermNotEqualSelector('test', ''), 'test', undefined],
    ['empty andTerm', andSelectors(), 'test', undefined],
    ['nested andTerm', andSelectors(andSelectors()), 'test', undefined],
    ['nested andTerm matches', andSelectors(oneTermEqualSelector('test', 'b')), 'test', 'b'],
    [
      'andTerm with non-match',
      andSelectors(oneTermEqualSelector('', ''), oneTermEqualSelector('test', 'b')),
      'test',
      'b',
    ],
  ];
  for (const [name, s, field, want] of exact) {
    it(`requiresExactMatch: ${name}`, () => assert.strictEqual(s.requiresExactMatch(field), want));
  }
});

describe('fields transform (TestTransform)', () => {
  const identity: TransformFunc = (f, v) => [f, v];
  const cases: [string, string, TransformFunc, string, boolean][] = [
    ['empty selector', '', identity, '', true],
    ['no-op transform', 'a=b,c=d', identity, 'a=b,c=d', false],
    [
      'transform one field',
      'a=b,c=d',
      (f, v) => (f === 'a' ? ['e', 'f'] : [f, v]),
      'e=f,c=d',
      false,
    ],
    ['remove field to make empty', 'a=b', () => ['', ''], '', true],
    [
      'remove only one field',
      'a=b,c=d,e=f',
      (f, v) => (f === 'c' ? ['', ''] : [f, v]),
      'a=b,e=f',
      false,
    ],
  ];
  for (const [name, selector, fn, want, isEmpty] of cases) {
    it(name, () => {
      const s = parseAndTransformSelector(selector, fn);
      assert.strictEqual(s.empty(), isEmpty, name);
      assert.strictEqual(s.string(), want, name);
    });
  }
});

describe('field labels (pkg/apis/core/v1 conversion.go, pod strategy ToSelectableFields)', () => {
  const conv: [string, string, [string, string] | string][] = [
    ['pods', 'spec.nodeName', ['spec.nodeName', 'v']],
    ['pods', 'status.phase', ['status.phase', 'v']],
    ['pods', 'status.podIPs', ['status.podIPs', 'v']],
    ['pods', 'spec.host', ['spec.nodeName', 'v']],
    ['pods', 'foo', 'field label not supported: foo'],
    ['pods', '', 'field label not supported: '],
    ['configmaps', 'metadata.name', ['metadata.name', 'v']],
    ['configmaps', 'metadata.namespace', ['metadata.namespace', 'v']],
    [
      'configmaps',
      'data.x',
      '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
  ];
  for (const [resource, label, want] of conv) {
    it(`${resource}: ${JSON.stringify(label)} -> ${JSON.stringify(want)}`, () => {
      if (typeof want === 'string')
        assert.throws(
          () => convertFieldLabel(resource, label, 'v'),
          (e: Error) => e.message === want,
        );
      else assert.deepStrictEqual(convertFieldLabel(resource, label, 'v'), want);
    });
  }

  it('a pod offers the ten selectable fields, defaults included', () => {
    const pod = makePod({
      name: 'p',
      namespace: 'ns',
      nodeName: 'n1',
      phase: 'Running',
      podIP: '10.0.0.1',
      schedulerName: 'default-scheduler',
    });
    assert.deepStrictEqual(podSelectableFields(pod), {
      'spec.nodeName': 'n1',
      'spec.restartPolicy': '',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': '',
      'spec.hostNetwork': 'false',
      'status.phase': 'Running',
      'status.podIP': '10.0.0.1',
      'status.nominatedNodeName': '',
      'metadata.name': 'p',
      'metadata.namespace': 'ns',
    });
    pod.status.podIPs = [{ ip: 'fd00::1' }];
    assert.strictEqual(podSelectableFields(pod)['status.podIP'], 'fd00::1');
  });

  it("getAttrs gives labels plus the resource's field set", () => {
    const pod = makePod({ name: 'p', namespace: 'ns', labels: { app: 'web' }, hostNetwork: true });
    assert.deepStrictEqual(getAttrs(pod, 'pods').labels, { app: 'web' });
    assert.strictEqual(getAttrs(pod, 'pods').fields['spec.hostNetwork'], 'true');
    assert.deepStrictEqual(getAttrs(pod, 'configmaps'), {
      labels: { app: 'web' },
      fields: { 'metadata.name': 'p', 'metadata.namespace': 'ns' },
    });
  });
});

describe('fields properties', () => {
  const fieldArb = fc.constantFrom('metadata.name', 'spec.nodeName', 'status.phase', 'a');
  const valueArb = fc.string({
    maxLength: 6,
    unit: fc.constantFrom('a', 'b', '=', ',', '\\', '!', ' ', 'é'),
  });
  it('escaped values survive a parse: string() re-parses to the same selector', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fieldArb, fc.boolean(), valueArb), { minLength: 1, maxLength: 4 }),
        (terms) => {
          const text = terms
            .map(([f, neg, v]) => `${f}${neg ? '!=' : '='}${escapeValue(v)}`)
            .join(',');
          const s = parseSelector(text);
          assert.strictEqual(parseSelector(s.string()).string(), s.string());
          const want = terms.map(([f, neg, v]) => ({
            field: f,
            operator: neg ? '!=' : '=',
            value: v,
          }));
          const sortKey = (r: { field: string; operator: string; value: string }): string =>
            `${r.field}${r.operator}${escapeValue(r.value)}`;
          assert.deepStrictEqual(s.requirements().map(sortKey).sort(), want.map(sortKey).sort());
        },
      ),
    );
  });
});
