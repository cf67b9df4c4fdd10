// Tests for src/engine/etcd/index-tree.ts (the ordered key index with live counts) and for the
// cost of a limited range at 100,000 keys (entries examined, not wall time).
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { IndexTree, compareKeys } from '../../../src/engine/etcd/index-tree';
import { prefixEnd } from '../../../src/engine/etcd/kv';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { SeededRandom } from '../../../src/engine/rand';

/** UTF-8 byte order, the order etcd keeps keys in. */
function byteOrder(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

describe('compareKeys', () => {
  it('orders keys as UTF-8 bytes, unlike UTF-16 code units for astral characters', () => {
    const cases: [string, string, number][] = [
      ['/a', '/b', -1],
      ['/a', '/a', 0],
      ['/a', '/a/', -1],
      ['/pods/x', '/pods0', -1],
      ['\uFF5E', '\uD83D\uDE00', -1], // U+FF5E (3 bytes, EF BD 9E) < U+1F600 (F0 9F 98 80); UTF-16 says the opposite
      ['\uE000', '\uD800\uDC00', -1],
      ['a\uD83D\uDE00', 'a\uFFFF', 1],
      ['\u00e9', 'z', 1],
    ];
    for (const [a, b, want] of cases) {
      assert.strictEqual(
        Math.sign(compareKeys(a, b)),
        want,
        `compareKeys(${JSON.stringify(a)}, ${JSON.stringify(b)})`,
      );
      assert.strictEqual(
        Math.sign(byteOrder(a, b)),
        want,
        `byte order of ${JSON.stringify(a)} vs ${JSON.stringify(b)}`,
      );
    }
  });
});

describe('IndexTree', () => {
  it('keeps 100,000 keys in order with live counts through inserts, updates and deletes', () => {
    const rand = new SeededRandom(42);
    const tree = new IndexTree<number>((v) => v % 2 === 0);
    const model = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      const key = `/registry/pods/ns-${rand.intn(50)}/pod-${rand.intn(100_000)}`;
      const v = rand.intn(1000);
      tree.set(key, v);
      model.set(key, v);
    }
    for (const key of [...model.keys()].filter((_, i) => i % 3 === 0)) {
      assert.ok(tree.delete(key), `delete ${key}`);
      model.delete(key);
    }
    assert.strictEqual(tree.delete('/nope'), false);
    const sorted = [...model.keys()].sort(compareKeys);
    const scanned: string[] = [];
    tree.scan('', (k) => {
      scanned.push(k);
      return true;
    });
    assert.deepStrictEqual(scanned, sorted, 'scan order');
    assert.strictEqual(tree.size, model.size);
    assert.strictEqual(tree.liveSize, [...model.values()].filter((v) => v % 2 === 0).length);
    // liveUpTo[i] = live keys among sorted[0..i).
    const liveUpTo = [0];
    for (const k of sorted)
      liveUpTo.push(liveUpTo[liveUpTo.length - 1] + ((model.get(k) as number) % 2 === 0 ? 1 : 0));
    const liveBeforeModel = (key: string) => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid] < key) lo = mid + 1;
        else hi = mid;
      }
      return liveUpTo[lo];
    };
    for (let i = 0; i < 500; i++) {
      const a =
        i % 2
          ? sorted[rand.intn(sorted.length)]
          : `/registry/pods/ns-${rand.intn(50)}/pod-${rand.intn(100_000)}x`;
      const b = `/registry/pods/ns-${rand.intn(50)}/`;
      assert.strictEqual(tree.liveBefore(a), liveBeforeModel(a), `liveBefore(${a})`);
      const [lo, hi] = a < b ? [a, b] : [b, a];
      assert.strictEqual(
        tree.liveBetween(lo, hi),
        liveBeforeModel(hi) - liveBeforeModel(lo),
        `liveBetween(${lo}, ${hi})`,
      );
      assert.strictEqual(tree.get(a), model.get(a), `get(${a})`);
    }
  });

  it('ranges with a limit over 100,000 keys examine about limit entries, not all of them', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    for (let i = 0; i < 100_000; i++)
      etcd.put(`/registry/pods/default/pod-${String(i).padStart(6, '0')}`, '{}');
    const firstRev = etcd.currentRevision();
    for (let i = 0; i < 100; i++)
      etcd.delete(`/registry/pods/default/pod-${String(i * 7).padStart(6, '0')}`);
    const prefix = '/registry/pods/';
    const visited = async (
      limit: number,
      revision = 0,
      key = prefix,
    ): Promise<{ examined: number; count: number; n: number }> => {
      const before = etcd.stats().visitedEntries;
      const r = await etcd.range({ key, rangeEnd: prefixEnd(prefix), limit, revision });
      return { examined: etcd.stats().visitedEntries - before, count: r.count, n: r.kvs.length };
    };
    const cases: [string, number, number, string, number, number][] = [
      // [case, limit, revision, start, expected count, max entries examined]
      ['limit 500 at the current revision', 500, 0, prefix, 99_900, 600],
      ['limit 500 at the revision before the deletes', 500, firstRev, prefix, 100_000, 600],
      [
        'limit 10 from the middle (count from the start key)',
        10,
        0,
        '/registry/pods/default/pod-050000',
        50_000,
        20,
      ],
    ];
    for (const [name, limit, revision, key, count, maxExamined] of cases) {
      const v = await visited(limit, revision, key);
      assert.strictEqual(v.n, limit, `${name}: kvs`);
      assert.strictEqual(v.count, count, `${name}: count`);
      assert.ok(
        v.examined <= maxExamined,
        `${name}: examined ${v.examined} entries, want <= ${maxExamined}`,
      );
    }
    const full = await visited(0);
    assert.strictEqual(full.n, 99_900);
    assert.ok(full.examined >= 100_000, `a full range examines every entry (${full.examined})`);
  });
});
