// Tests for src/server/structured-merge-diff/set.ts: sigs.k8s.io/structured-merge-diff/v6
// fieldpath/set_test.go (v6.3.3) TestSetIntersectionDifference, TestSetDifference, TestSetLeaves.
import * as assert from 'assert';
import { FieldSet } from '../../../../src/server/structured-merge-diff/set';
import {
  makePath as p,
  pathString,
} from '../../../../src/server/structured-merge-diff/path-element';

const nameFirst = { key: { name: 'first' } };

describe('structured-merge-diff set', () => {
  const s1 = FieldSet.of(
    p('a0'),
    p('a1'),
    p('foo', 0),
    p('foo', 1),
    p('b0', nameFirst),
    p('b1', nameFirst),
    p('bar', 'c0'),
    p('cp', nameFirst, 'child'),
  );
  const s2 = FieldSet.of(
    p('a1'),
    p('a2'),
    p('foo', 1),
    p('foo', 2),
    p('b1', nameFirst),
    p('b2', nameFirst),
    p('bar', 'c2'),
    p('cp', nameFirst),
  );
  const ops: Array<[string, () => FieldSet, FieldSet]> = [
    [
      'intersection',
      () => s1.intersection(s2),
      FieldSet.of(p('a1'), p('foo', 1), p('b1', nameFirst)),
    ],
    [
      's1 - s2',
      () => s1.difference(s2),
      FieldSet.of(
        p('a0'),
        p('foo', 0),
        p('b0', nameFirst),
        p('bar', 'c0'),
        p('cp', nameFirst, 'child'),
      ),
    ],
    [
      's2 - s1',
      () => s2.difference(s1),
      FieldSet.of(p('a2'), p('foo', 2), p('b2', nameFirst), p('bar', 'c2'), p('cp', nameFirst)),
    ],
    [
      'intersection (the hard way)',
      () => s1.union(s2).difference(s1.difference(s2).union(s2.difference(s1))),
      FieldSet.of(p('a1'), p('foo', 1), p('b1', nameFirst)),
    ],
  ];
  for (const [name, op, want] of ops) {
    it(`TestSetIntersectionDifference ${name}`, () =>
      assert.ok(op().equals(want), `got\n${op()}\nwant\n${want}`));
  }

  // TestSetDifference: [name, a, b, Difference, RecursiveDifference].
  const table: Array<[string, FieldSet, FieldSet, FieldSet, FieldSet]> = [
    ['removes simple path', FieldSet.of(p('a')), FieldSet.of(p('a')), FieldSet.of(), FieldSet.of()],
    [
      'removes direct path',
      FieldSet.of(p('a', 'b', 'c')),
      FieldSet.of(p('a', 'b', 'c')),
      FieldSet.of(),
      FieldSet.of(),
    ],
    [
      'only removes matching child',
      FieldSet.of(p('a', 'b', 'c'), p('b', 'b', 'c')),
      FieldSet.of(p('a', 'b', 'c')),
      FieldSet.of(p('b', 'b', 'c')),
      FieldSet.of(p('b', 'b', 'c')),
    ],
    [
      'does not remove parent of specific path',
      FieldSet.of(p('a')),
      FieldSet.of(p('a', 'aa')),
      FieldSet.of(p('a')),
      FieldSet.of(p('a')),
    ],
    [
      'RecursiveDifference removes nested path',
      FieldSet.of(p('a', 'b', 'c')),
      FieldSet.of(p('a')),
      FieldSet.of(p('a', 'b', 'c')),
      FieldSet.of(),
    ],
    [
      'RecursiveDifference only removes nested path for matching children',
      FieldSet.of(p('a', 'aa', 'aab'), p('a', 'ab', 'aba')),
      FieldSet.of(p('a', 'aa')),
      FieldSet.of(p('a', 'aa', 'aab'), p('a', 'ab', 'aba')),
      FieldSet.of(p('a', 'ab', 'aba')),
    ],
    [
      'RecursiveDifference removes all matching children',
      FieldSet.of(p('a', 'aa', 'aab'), p('a', 'ab', 'aba')),
      FieldSet.of(p('a')),
      FieldSet.of(p('a', 'aa', 'aab'), p('a', 'ab', 'aba')),
      FieldSet.of(),
    ],
  ];
  for (const [name, a, b, diff, rdiff] of table) {
    it(`TestSetDifference ${name}`, () => {
      assert.ok(a.difference(b).equals(diff), `Difference got\n${a.difference(b)}`);
      assert.ok(
        a.recursiveDifference(b).equals(rdiff),
        `RecursiveDifference got\n${a.recursiveDifference(b)}`,
      );
    });
  }

  it('TestSetLeaves: members with children are not leaves', () => {
    const s = FieldSet.of(p('a'), p('a', 'b'), p('c'), p('d', 'e'), p('d', 'e', 'f'));
    assert.deepStrictEqual(s.leaves().paths().map(pathString), ['.c', '.a.b', '.d.e.f']);
  });

  it('has and insert', () => {
    const s = FieldSet.of(p('spec', 'containers', { key: { name: 'c' } }, 'image'));
    assert.ok(s.has(p('spec', 'containers', { key: { name: 'c' } }, 'image')));
    assert.ok(!s.has(p('spec', 'containers', { key: { name: 'c' } })));
    assert.ok(!s.has(p('spec')));
    assert.strictEqual(s.size(), 1);
  });
});
