// Tests for src/import/recent-ids.ts: RecentIDs answers exactly as the Set and ring it replaced
// in RequestMerger (each addition deletes the ring's oldest from the Set, then adds), over
// sequences with repeats, an ID repeated exactly `limit` additions apart, and a table small enough
// that probe runs collide, wrap around its end and are cut by deletions.
import * as assert from 'assert';
import { SeededRandom } from '../../../src/engine/rand';
import { RecentIDs } from '../../../src/import/recent-ids';

/** The merger's former bookkeeping, the reference. */
class SetAndRing {
  private readonly set = new Set<string>();
  private readonly ring: Array<string | undefined>;
  private at = 0;
  constructor(private readonly limit: number) {
    this.ring = new Array<string | undefined>(limit).fill(undefined);
  }
  has(id: string): boolean {
    return this.set.has(id);
  }
  add(id: string): void {
    const oldest = this.ring[this.at];
    if (oldest !== undefined) this.set.delete(oldest);
    this.set.add(id);
    this.ring[this.at] = id;
    this.at = (this.at + 1) % this.limit;
  }
}

describe('import: RecentIDs (the merger’s recently emitted audit IDs)', () => {
  const cases: Array<{ name: string; limit: number; ids: number; steps: number; seed: number }> = [
    { name: 'limit 1', limit: 1, ids: 4, steps: 2000, seed: 1 },
    { name: 'limit 3, few IDs (many repeats)', limit: 3, ids: 5, steps: 5000, seed: 2 },
    { name: 'limit 8, a 32-slot table', limit: 8, ids: 40, steps: 20000, seed: 3 },
    { name: 'limit 8, mostly new IDs', limit: 8, ids: 100000, steps: 20000, seed: 4 },
    { name: 'limit 100', limit: 100, ids: 300, steps: 50000, seed: 5 },
    { name: 'the merger’s limit', limit: 10_000, ids: 30_000, steps: 60_000, seed: 6 },
  ];
  for (const c of cases)
    it(`answers as a Set with a ring of the last additions: ${c.name}`, () => {
      const r = new SeededRandom(c.seed);
      const got = new RecentIDs(c.limit);
      const want = new SetAndRing(c.limit);
      const id = (n: number): string => `${n.toString(16).padStart(8, '0')}-4e7f-9a0b`;
      for (let step = 0; step < c.steps; step++) {
        const x = id(r.intn(c.ids));
        assert.strictEqual(got.has(x), want.has(x), `step ${step}: has ${x}`);
        if (r.intn(3) > 0) {
          got.add(x);
          want.add(x);
        }
      }
      for (let n = 0; n < Math.min(c.ids, 50_000); n++)
        assert.strictEqual(got.has(id(n)), want.has(id(n)), `at the end: has ${id(n)}`);
    });

  it('keeps an ID added again exactly `limit` additions later, and forgets a repeat early as Set.delete did', () => {
    const got = new RecentIDs(3);
    const want = new SetAndRing(3);
    for (const x of ['a', 'b', 'c', 'a', 'b', 'a', 'x', 'y', 'z', 'a']) {
      got.add(x);
      want.add(x);
      for (const y of ['a', 'b', 'c', 'x', 'y', 'z'])
        assert.strictEqual(got.has(y), want.has(y), `after ${x}: has ${y}`);
    }
    // The ring holds [a, b, a]: the fourth addition forgets 'a' though it came again since.
    const early = new RecentIDs(3);
    for (const x of ['a', 'b', 'a', 'c']) early.add(x);
    assert.strictEqual(early.has('a'), false);
    assert.strictEqual(early.has('b'), true);
  });
});
