// Tests for src/engine/cacher/watch-cache-store.ts, porting k8s.io/apiserver
// pkg/storage/cacher/store/store_test.go and store_btree_test.go (release-1.36).
import * as assert from 'assert';
import fc from 'fast-check';
import {
  hasPrefix,
  OrderedStore,
  prefixEnd,
  StoreSnapshotter,
  WatchCacheStore,
  type OrderedLister,
  type StoreElement,
} from '../../../src/engine/cacher/watch-cache-store';
import { compareStrings } from '../../../src/engine/storage/go-strings';

interface FakeObj {
  value: string;
  rv: number;
}

function testStorageElement(key: string, value: string, rv: number): StoreElement<FakeObj> {
  return { key, object: { value, rv }, labels: {}, fields: {} };
}

function testStoreIndexers() {
  return { by_val: (o: FakeObj) => [o.value] };
}

function assertStoreEmpty(store: WatchCacheStore<FakeObj>, nonExistingKey: string): void {
  assert.strictEqual(store.get(testStorageElement(nonExistingKey, '', 0)), undefined);
  assert.strictEqual(store.getByKey(nonExistingKey), undefined);
  assert.deepStrictEqual(store.list(), []);
}

function assertStoreSingleKey(
  store: WatchCacheStore<FakeObj>,
  key: string,
  value: string,
  rv: number,
): void {
  assert.strictEqual(store.get(testStorageElement(key, '', rv))?.object.value, value);
  assert.strictEqual(store.getByKey(key)?.object.value, value);
  assert.deepStrictEqual(store.list(), [testStorageElement(key, value, rv)]);
}

describe('watch cache store (store_test.go, store_btree_test.go)', () => {
  it('TestStoreSingleKey: add, update, replace and delete one key', () => {
    const store = new WatchCacheStore<FakeObj>(testStoreIndexers());
    assertStoreEmpty(store, 'foo');
    store.add(testStorageElement('foo', 'bar', 1));
    assertStoreSingleKey(store, 'foo', 'bar', 1);
    store.update(testStorageElement('foo', 'baz', 2));
    assertStoreSingleKey(store, 'foo', 'baz', 2);
    store.update(testStorageElement('foo', 'baz', 3));
    assertStoreSingleKey(store, 'foo', 'baz', 3);
    store.replace([testStorageElement('foo', 'bar', 4)]);
    assertStoreSingleKey(store, 'foo', 'bar', 4);
    store.delete(testStorageElement('foo', '', 0));
    assertStoreEmpty(store, 'foo');
    // Deleting a missing key is not an error.
    store.delete(testStorageElement('foo', '', 0));
    assertStoreEmpty(store, 'foo');
  });

  it('TestStoreIndexerSingleKey: the by_val index follows every change', () => {
    const store = new WatchCacheStore<FakeObj>(testStoreIndexers());
    const steps: {
      name: string;
      op: () => void;
      expect: Record<string, StoreElement<FakeObj>[]>;
    }[] = [
      { name: 'empty', op: () => {}, expect: { bar: [] } },
      {
        name: 'add foo=bar@1',
        op: () => store.add(testStorageElement('foo', 'bar', 1)),
        expect: { bar: [testStorageElement('foo', 'bar', 1)] },
      },
      {
        name: 'update foo=baz@2',
        op: () => store.update(testStorageElement('foo', 'baz', 2)),
        expect: { bar: [], baz: [testStorageElement('foo', 'baz', 2)] },
      },
      {
        name: 'update foo=baz@3 (same index value)',
        op: () => store.update(testStorageElement('foo', 'baz', 3)),
        expect: { bar: [], baz: [testStorageElement('foo', 'baz', 3)] },
      },
      {
        name: 'replace with foo=bar@4',
        op: () => store.replace([testStorageElement('foo', 'bar', 4)]),
        expect: { bar: [testStorageElement('foo', 'bar', 4)], baz: [] },
      },
      {
        name: 'delete foo',
        op: () => store.delete(testStorageElement('foo', '', 0)),
        expect: { bar: [], baz: [] },
      },
      {
        name: 'delete foo again',
        op: () => store.delete(testStorageElement('foo', '', 0)),
        expect: { bar: [], baz: [] },
      },
    ];
    for (const step of steps) {
      step.op();
      for (const [value, items] of Object.entries(step.expect)) {
        assert.deepStrictEqual(
          store.byIndex('by_val', value),
          items,
          `${step.name}: by_val=${value}`,
        );
      }
    }
  });

  it("byIndex on an unknown index fails with upstream's message", () => {
    const store = new WatchCacheStore<FakeObj>(testStoreIndexers());
    assert.throws(() => store.byIndex('nope', 'x'), /^Error: index with name nope does not exist$/);
    assert.strictEqual(store.hasIndex('by_val'), true);
    assert.strictEqual(store.hasIndex('nope'), false);
  });

  it('an index function that throws names the key and the index', () => {
    const store = new WatchCacheStore<FakeObj>({
      bad: () => {
        throw new Error('boom');
      },
    });
    assert.throws(
      () => store.add(testStorageElement('k1', 'v', 1)),
      /unable to calculate an index entry for key "k1" on index "bad": boom/,
    );
  });

  it('TestStoreListOrdered: list is ordered by key', () => {
    const store = new WatchCacheStore<FakeObj>();
    store.add(testStorageElement('foo3', 'bar3', 1));
    store.add(testStorageElement('foo1', 'bar2', 2));
    store.add(testStorageElement('foo2', 'bar1', 3));
    assert.deepStrictEqual(store.list(), [
      testStorageElement('foo1', 'bar2', 2),
      testStorageElement('foo2', 'bar1', 3),
      testStorageElement('foo3', 'bar3', 1),
    ]);
  });

  it('TestStoreListPrefix: plain string prefix, continue key inclusive', () => {
    const store = new WatchCacheStore<FakeObj>();
    store.add(testStorageElement('foo3', 'bar3', 1));
    store.add(testStorageElement('foo1', 'bar2', 2));
    store.add(testStorageElement('foo2', 'bar1', 3));
    store.add(testStorageElement('bar', 'baz', 4));
    const cases: { prefix: string; continueKey: string; keys: string[] }[] = [
      { prefix: 'foo', continueKey: '', keys: ['foo1', 'foo2', 'foo3'] },
      { prefix: 'foo2', continueKey: '', keys: ['foo2'] },
      { prefix: 'foo', continueKey: 'foo1\x00', keys: ['foo2', 'foo3'] },
      { prefix: 'foo', continueKey: 'foo2\x00', keys: ['foo3'] },
      { prefix: 'bar', continueKey: '', keys: ['bar'] },
    ];
    for (const c of cases) {
      const name = `ListPrefix(${JSON.stringify(c.prefix)}, ${JSON.stringify(c.continueKey)})`;
      assert.deepStrictEqual(
        store.listPrefix(c.prefix, c.continueKey).map((e) => e.key),
        c.keys,
        name,
      );
      assert.strictEqual(store.count(c.prefix, c.continueKey), c.keys.length, `Count of ${name}`);
    }
  });

  it('hasPrefix with prefixEnd answers as startsWith, for any strings (0xFFFF and surrogates too)', () => {
    const unit = fc.constantFrom('a', 'b', '/', '\u0000', '\uffff', '\ud800', '\udc00', 'é');
    const text = fc.array(unit, { maxLength: 6 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, text, (key, prefix) => {
        assert.strictEqual(hasPrefix(key, prefix, prefixEnd(prefix)), key.startsWith(prefix));
      }),
      { numRuns: 5000, seed: 25 },
    );
    assert.deepStrictEqual(['/registry/pods/', '', '\uffff\uffff', 'a\uffff'].map(prefixEnd), [
      '/registry/pods0',
      undefined,
      undefined,
      'b',
    ]);
  });

  it('listPrefix and count: the keys from the continue key on (Go byte order) while they have the prefix, for any keys', () => {
    const unit = fc.constantFrom('a', 'b', '/', '\uffff', '\ue000', '\ud800\udc00', 'é');
    const text = fc.array(unit, { maxLength: 5 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(text, { maxLength: 30 }), text, text, (keys, prefix, from) => {
        const s = new OrderedStore<FakeObj>();
        for (const k of keys) s.addOrUpdateElem(testStorageElement(k, k, 1));
        const sorted = [...keys].sort(compareStrings);
        const start = from === '' ? prefix : from;
        const after = sorted.filter((k) => compareStrings(k, start) >= 0);
        const stop = after.findIndex((k) => !k.startsWith(prefix));
        const want = stop < 0 ? after : after.slice(0, stop);
        assert.deepStrictEqual(
          s.listPrefix(prefix, from).map((e) => e.key),
          want,
        );
        assert.strictEqual(s.count(prefix, from), want.length);
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it('TestStoreSnapshotter: greatest RV <= the requested one, removeLess, reset', () => {
    const fake = (rv: number): OrderedLister<FakeObj> & { rv: number } => ({
      rv,
      listPrefix: () => [],
      count: () => 0,
      clone() {
        return this;
      },
    });
    const cache = new StoreSnapshotter<FakeObj>();
    for (const rv of [10, 20, 30, 40]) cache.add(rv, fake(rv));
    assert.strictEqual(cache.length, 4);
    const lookups: [number, number | undefined][] = [
      [9, undefined],
      [10, 10],
      [11, 10],
      [22, 20],
      [100, 40],
    ];
    for (const [rv, want] of lookups) {
      assert.strictEqual(
        (cache.getLessOrEqual(rv) as { rv: number } | undefined)?.rv,
        want,
        `getLessOrEqual(${rv})`,
      );
    }
    cache.removeLess(30);
    assert.strictEqual(cache.length, 2);
    for (const [rv, want] of [
      [10, undefined],
      [20, undefined],
      [30, 30],
    ] as [number, number | undefined][]) {
      assert.strictEqual(
        (cache.getLessOrEqual(rv) as { rv: number } | undefined)?.rv,
        want,
        `after removeLess(30): getLessOrEqual(${rv})`,
      );
    }
    cache.reset();
    assert.strictEqual(cache.length, 0);
    assert.strictEqual(cache.getLessOrEqual(30), undefined);
    assert.strictEqual(cache.getLessOrEqual(40), undefined);
  });

  it('snapshotter: adding an RV already held replaces it, an older RV is inserted in order', () => {
    const cache = new StoreSnapshotter<FakeObj>();
    const a = new OrderedStore<FakeObj>();
    a.addOrUpdateElem(testStorageElement('a', 'v1', 1));
    cache.add(10, a);
    a.addOrUpdateElem(testStorageElement('a', 'v2', 2));
    cache.add(10, a);
    cache.add(5, new OrderedStore<FakeObj>());
    assert.deepStrictEqual(cache.resourceVersions(), [5, 10]);
    assert.strictEqual(cache.getLessOrEqual(10)?.listPrefix('', '')[0].object.value, 'v2');
    assert.deepStrictEqual(cache.getLessOrEqual(7)?.listPrefix('', ''), []);
  });

  it('a clone is a snapshot: later changes do not show in it', () => {
    const store = new WatchCacheStore<FakeObj>();
    store.add(testStorageElement('a', '1', 1));
    store.add(testStorageElement('b', '1', 2));
    const snap = store.clone();
    store.update(testStorageElement('a', '2', 3));
    store.delete(testStorageElement('b', '', 0));
    store.add(testStorageElement('c', '1', 4));
    assert.deepStrictEqual(
      snap.listPrefix('', '').map((e) => `${e.key}=${e.object.value}`),
      ['a=1', 'b=1'],
    );
    assert.deepStrictEqual(
      store.list().map((e) => `${e.key}=${e.object.value}`),
      ['a=2', 'c=1'],
    );
  });

  it('property: the ordered store behaves like a sorted map, and clones never change', () => {
    const key = fc.string({
      minLength: 0,
      maxLength: 4,
      unit: fc.constantFrom('a', 'b', 'c', '/', '\u00e9', '\u{1F600}'),
    });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('put' as const), key, value: fc.nat(99) }),
      fc.record({ kind: fc.constant('del' as const), key, value: fc.constant(0) }),
      fc.record({ kind: fc.constant('snap' as const), key, value: fc.constant(0) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const store = new OrderedStore<FakeObj>();
        const model = new Map<string, number>();
        const snaps: { snap: OrderedStore<FakeObj>; expect: string[] }[] = [];
        const render = (m: Map<string, number>) =>
          [...m.entries()]
            .sort((x, y) => Buffer.compare(Buffer.from(x[0]), Buffer.from(y[0])))
            .map(([k, v]) => `${k}=${v}`);
        for (const o of ops) {
          if (o.kind === 'put') {
            store.addOrUpdateElem(testStorageElement(o.key, String(o.value), 0));
            model.set(o.key, o.value);
          } else if (o.kind === 'del') {
            store.deleteElem(o.key);
            model.delete(o.key);
          } else {
            snaps.push({ snap: store.clone(), expect: render(model) });
          }
        }
        assert.deepStrictEqual(
          store.list().map((e) => `${e.key}=${e.object.value}`),
          render(model),
        );
        assert.strictEqual(store.length, model.size);
        for (const s of snaps)
          assert.deepStrictEqual(
            s.snap.list().map((e) => `${e.key}=${e.object.value}`),
            s.expect,
          );
      }),
      { seed: 4242, numRuns: 300 },
    );
  });

  it('property: the B-tree against a sorted reference through splits and merges at every level, with clones', () => {
    // The reference: a universe of keys sorted once by compareKeys, and a slot per key (its value,
    // or undefined when absent); listing it in order is a scan. Bulk puts and deletes of thousands
    // of keys (up to ~8,000) grow the tree to three levels (degree 16) and shrink it again.
    const universe = Array.from({ length: 20000 }, (_, i) => {
      const base = `/r/ns${i % 7}/p${(i * 7919) % 10007}`;
      return i % 11 === 0 ? `${base}\u{1F600}` : i % 5 === 0 ? `${base}\u00e9` : base;
    }).sort(compareStrings);
    const n = universe.length;
    const render = (slots: readonly (number | undefined)[]) =>
      universe.flatMap((k, i) => (slots[i] === undefined ? [] : [`${k}=${slots[i]}`]));
    const lowerBound = (key: string) => {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compareStrings(universe[mid], key) < 0) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const refPrefix = (slots: readonly (number | undefined)[], prefix: string, from: string) => {
      const out: string[] = [];
      for (let i = lowerBound(from === '' ? prefix : from); i < n; i++) {
        if (slots[i] === undefined) continue;
        if (!universe[i].startsWith(prefix)) break;
        out.push(universe[i]);
      }
      return out;
    };
    const slot = fc.oneof(fc.nat(299), fc.nat(n - 1));
    const op = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('put' as const), at: slot }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('del' as const), at: slot }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('clone' as const), at: slot }) },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constantFrom('putMany' as const, 'delMany' as const),
          at: fc.nat(n - 1),
          count: fc.nat(4000),
          step: fc.integer({ min: 1, max: 97 }),
        }),
      },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const store = new OrderedStore<FakeObj>();
        const slots: (number | undefined)[] = new Array(n).fill(undefined);
        const clones: { clone: OrderedStore<FakeObj>; want: string[] }[] = [];
        const put = (i: number, v: number) => {
          const old = store.addOrUpdateElem(testStorageElement(universe[i], String(v), v));
          assert.strictEqual(old?.object.rv, slots[i], `replaced at ${universe[i]}`);
          slots[i] = v;
        };
        const del = (i: number) => {
          const old = store.deleteElem(universe[i]);
          assert.strictEqual(old?.object.rv, slots[i], `deleted at ${universe[i]}`);
          slots[i] = undefined;
        };
        ops.forEach((o, v) => {
          if (o.kind === 'put') put(o.at, v);
          else if (o.kind === 'del') del(o.at);
          else if (o.kind === 'clone') clones.push({ clone: store.clone(), want: render(slots) });
          else
            for (let j = 0; j < o.count; j++) {
              const i = (o.at + j * o.step) % n;
              if (o.kind === 'putMany') put(i, v);
              else del(i);
            }
          const want = render(slots);
          assert.deepStrictEqual(
            store.list().map((e) => `${e.key}=${e.object.value}`),
            want,
          );
          assert.strictEqual(store.length, want.length);
          const key = universe[o.at];
          assert.strictEqual(store.getByKey(key)?.object.rv, slots[o.at]);
          for (const prefix of ['', '/r/', '/r/ns3/', '/r/ns3/p1', key.slice(0, 9), key]) {
            for (const from of ['', key, universe[(o.at * 31) % n]]) {
              const got = store.listPrefix(prefix, from).map((e) => e.key);
              assert.deepStrictEqual(got, refPrefix(slots, prefix, from), `${prefix} from ${from}`);
              assert.strictEqual(store.count(prefix, from), got.length);
            }
          }
          for (const c of clones) {
            const got = c.clone.list().map((e) => `${e.key}=${e.object.value}`);
            assert.deepStrictEqual(got, c.want);
            assert.strictEqual(c.clone.length, c.want.length);
          }
        });
      }),
      { seed: 2525, numRuns: 40 },
    );
  });
});
