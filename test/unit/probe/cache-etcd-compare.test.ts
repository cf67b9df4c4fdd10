// The item-by-item comparison of probe --compare (KEP-2340's troubleshooting procedure): a table of
// the cache's pages against the Exact list's pages, fed alternately as the probe reads them, and
// what it finds. No upstream counterpart.
import * as assert from 'assert';
import {
  CacheEtcdComparison,
  differenceText,
  differingPaths,
  maxDifferences,
  type ItemDifferenceKind,
} from '../../../src/probe/cache-etcd-compare';

function pod(name: string, rv: string, extra: Record<string, unknown> = {}, uid = `uid-${name}`) {
  return {
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid, resourceVersion: rv },
    spec: { nodeName: 'n1' },
    ...extra,
  };
}

const a = pod('a', '10');
const b = pod('b', '11');
const c = pod('c', '12');
const d = pod('d', '13');
const e = pod('e', '14');

interface Case {
  name: string;
  cache: unknown[][];
  exact: unknown[][];
  same: number;
  differences: Array<[ItemDifferenceKind, string]>;
  paths?: string[];
}

const cases: Case[] = [
  {
    name: 'the same, one page each',
    cache: [[a, b, c]],
    exact: [[a, b, c]],
    same: 3,
    differences: [],
  },
  { name: 'both empty', cache: [[]], exact: [[]], same: 0, differences: [] },
  {
    name: 'an item missing from the cache',
    cache: [[a, c]],
    exact: [[a, b, c]],
    same: 2,
    differences: [['only-in-exact', 'default/b']],
  },
  {
    name: 'an extra item in the cache',
    cache: [[a, b, c, d]],
    exact: [[a, b, c]],
    same: 3,
    differences: [['only-in-cache', 'default/d']],
  },
  {
    name: 'a different resourceVersion',
    cache: [[a, pod('b', '9')]],
    exact: [[a, b]],
    same: 1,
    differences: [['resource-version', 'default/b']],
  },
  {
    name: 'a different uid (deleted and created again)',
    cache: [[a, pod('b', '11', {}, 'old-uid')]],
    exact: [[a, b]],
    same: 1,
    differences: [['uid', 'default/b']],
  },
  {
    name: 'different content at the same resourceVersion',
    cache: [[a, pod('b', '11', { spec: { nodeName: 'n2' } })]],
    exact: [[a, b]],
    same: 1,
    differences: [['content', 'default/b']],
    paths: ['spec.nodeName'],
  },
  {
    name: 'pages of different sizes: the cache in one page (RV=0 ignores limit), Exact by 2',
    cache: [[a, b, c, d, e]],
    exact: [[a, b], [c, d], [e]],
    same: 5,
    differences: [],
  },
  {
    name: 'pages of different sizes and orders, one missing on each side',
    cache: [[e, d], [b], [a]],
    exact: [[a, b, c], [e]],
    same: 3,
    differences: [
      ['only-in-cache', 'default/d'],
      ['only-in-exact', 'default/c'],
    ],
  },
  {
    name: 'the same object twice in one list',
    cache: [[a, b], [b]],
    exact: [[a, b]],
    same: 2,
    differences: [['duplicate', 'default/b']],
  },
];

describe('CacheEtcdComparison', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const cmp = new CacheEtcdComparison();
      // Fed alternately, as the probe reads them: cache page 1, Exact page 1, cache page 2, …
      for (let i = 0; i < Math.max(tc.cache.length, tc.exact.length); i++) {
        if (tc.cache[i]) cmp.addPage('cache', tc.cache[i]);
        if (tc.exact[i]) cmp.addPage('exact', tc.exact[i]);
      }
      const r = cmp.finish();
      assert.strictEqual(r.same, tc.same, tc.name);
      assert.deepStrictEqual(
        r.differences.map((x) => [x.kind, x.object]),
        tc.differences,
        tc.name,
      );
      assert.strictEqual(r.cacheItems, tc.cache.flat().length);
      assert.strictEqual(r.exactItems, tc.exact.flat().length);
      if (tc.paths) assert.deepStrictEqual(r.differences[0].paths, tc.paths);
      for (const x of r.differences) assert.ok(differenceText(x).startsWith(`${x.object}: `));
    });
  }

  it('holds only what waits for the other side: in step, one page at most', () => {
    const cmp = new CacheEtcdComparison();
    cmp.addPage('cache', [a, b]);
    assert.strictEqual(cmp.held(), 2);
    cmp.addPage('exact', [a, b]);
    assert.strictEqual(cmp.held(), 0);
  });

  it(`lists the first ${maxDifferences} differences and counts the rest`, () => {
    const cmp = new CacheEtcdComparison();
    const items = Array.from({ length: maxDifferences + 7 }, (_, i) => pod(`p${i}`, '1'));
    cmp.addPage('cache', items);
    const r = cmp.finish();
    assert.strictEqual(r.differences.length, maxDifferences);
    assert.strictEqual(r.differencesNotListed, 7);
  });

  it('names the differing paths, array lengths and reordered fields', () => {
    assert.deepStrictEqual(
      differingPaths({ a: 1, b: [1, 2], c: { d: 'x' } }, { a: 1, b: [1], c: { d: 'y' } }),
      ['b (2 against 1 entries)', 'c.d'],
    );
    assert.deepStrictEqual(differingPaths({ a: 1, b: 2 }, { b: 2, a: 1 }), [
      '(the object) (its fields in another order)',
    ]);
  });
});
