// Tests for src/server/yaml-duplicate-keys.ts: go-yaml v2's strict-mode `line N: key K already set
// in map` for each repeated mapping key (decode.go setMapIndex), N the line of the repeated key's value.
import * as assert from 'assert';
import { duplicateKeys, maxDuplicates } from '../../../src/server/yaml-duplicate-keys';

const cases: { name: string; yaml: string; want: string[] }[] = [
  { name: 'none', yaml: 'a: 1\nb:\n  a: 2\n', want: [] },
  { name: 'not YAML', yaml: 'a: b: c', want: [] },
  { name: 'top level', yaml: 'a: 1\na: 2\n', want: ['2 "a"'] },
  { name: 'nested, value on the same line', yaml: 'x:\n  a: 1\n  a: 2\n', want: ['3 "a"'] },
  {
    name: "value on a later line (the value node's line), past a comment and a blank line",
    yaml: 'a: 1\na: # c\n\n  # more\n  b: 2\n',
    want: ['5 "a"'],
  },
  {
    name: 'quoted keys',
    yaml: '"a b": 1\n\'a b\': 2\n"a\\tb": 3\n"a\\tb": 4\n',
    want: ['2 "a b"', '4 "a\\tb"'],
  },
  { name: 'an int key', yaml: '1: a\n1: b\n', want: ['2 1'] },
  { name: 'a bool key', yaml: 'true: a\ntrue: b\n', want: ['2 true'] },
  { name: 'flow mapping', yaml: '{a: 1, b: 2, a: 3}\n', want: ['1 "a"'] },
  { name: 'three times', yaml: 'a: 1\na: 2\na: 3\n', want: ['2 "a"', '3 "a"'] },
];

describe('server/yaml-duplicate-keys (go-yaml strict decode: key already set in map)', () => {
  for (const c of cases)
    it(c.name, () => {
      assert.deepStrictEqual(
        duplicateKeys(c.yaml).map((d) => `${d.line} ${d.key}`),
        c.want,
      );
    });

  it(`lists at most ${maxDuplicates} (each costs a parse)`, () => {
    const yaml = Array.from({ length: maxDuplicates + 50 }, (_, i) => `a: ${i}\n`).join('');
    assert.strictEqual(duplicateKeys(yaml).length, maxDuplicates);
  });
});
