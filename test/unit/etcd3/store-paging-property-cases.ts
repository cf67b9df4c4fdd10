// Property tests for EtcdStore.getList paging (fast-check): following continue tokens yields exactly
// the filtered list at the first page's revision, sorted, without duplicates or gaps, even with
// writes between the pages; remainingItemCount (empty predicate only) equals what the remaining
// pages return. Checked against an independent model of the key space over revisions.
import * as assert from 'assert';
import fc from 'fast-check';
import type { KubeObject } from '../../../src/engine/storage/objects';
import type { ListResult } from '../../../src/engine/etcd3/store';
import { pod, testSetup } from './etcd3-testing';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

const namespaces = ['a', 'b', 'c'];
const podNames = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
const tiers = ['web', 'db', 'cache'];

interface ModelObj {
  ns: string;
  name: string;
  tier: string;
  rev: number;
}

/** The selectors the property draws, each with an independent matcher on the model. */
const labelSelectors: [string, (o: ModelObj) => boolean][] = [
  ['', () => true],
  ['tier=web', (o) => o.tier === 'web'],
  ['tier!=db', (o) => o.tier !== 'db'],
  ['tier in (web,cache)', (o) => o.tier === 'web' || o.tier === 'cache'],
  ['tier notin (web)', (o) => o.tier !== 'web'],
];
const fieldSelectors: [string, (o: ModelObj) => boolean][] = [
  ['', () => true],
  ['metadata.namespace=b', (o) => o.ns === 'b'],
  ['metadata.name!=p1', (o) => o.name !== 'p1'],
  ['metadata.namespace!=a,metadata.name!=p3', (o) => o.ns !== 'a' && o.name !== 'p3'],
];

type Write =
  | { op: 'put'; ns: string; name: string; tier: string }
  | { op: 'delete'; ns: string; name: string };

const writeArb: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    op: fc.constant('put' as const),
    ns: fc.constantFrom(...namespaces),
    name: fc.constantFrom(...podNames),
    tier: fc.constantFrom(...tiers),
  }),
  fc.record({
    op: fc.constant('delete' as const),
    ns: fc.constantFrom(...namespaces),
    name: fc.constantFrom(...podNames),
  }),
);

function keyOf(ns: string, name: string): string {
  return `/registry/pods/${ns}/${name}`;
}

/** The key space at every revision: revision -> (key -> object). */
class Model {
  private readonly states: Map<number, Map<string, ModelObj>> = new Map();
  private current = new Map<string, ModelObj>();

  constructor(rev: number) {
    this.states.set(rev, new Map());
  }

  apply(rev: number, key: string, obj: ModelObj | undefined): void {
    const next = new Map(this.current);
    if (obj) next.set(key, obj);
    else next.delete(key);
    this.current = next;
    this.states.set(rev, next);
  }

  at(rev: number): Map<string, ModelObj> {
    let best = -1;
    for (const r of this.states.keys()) if (r <= rev && r > best) best = r;
    return this.states.get(best) as Map<string, ModelObj>;
  }

  has(key: string): boolean {
    return this.current.has(key);
  }
}

function show(o: KubeObject): string {
  return `${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`;
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storePagingPropertyCases(etcd: EtcdUnderTest): void {
  describe('etcd3 store paging (properties)', () => {
    // Memory only with RangeStream: it is etcd 3.7's; the etcd suite's 3.4 answers Unimplemented.
    for (const stream of etcd.kind === 'memory' ? [false, true] : [false]) {
      it(`following continue tokens returns the filtered list at the pinned revision (${stream ? 'RangeStream' : 'paging'})`, async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(writeArb, { minLength: 0, maxLength: 30 }),
            fc.integer({ min: 0, max: labelSelectors.length - 1 }),
            fc.integer({ min: 0, max: fieldSelectors.length - 1 }),
            fc.integer({ min: 0, max: 6 }),
            fc.array(fc.array(writeArb, { maxLength: 4 }), { maxLength: 12 }),
            async (initial, li, fi, limit, between) => {
              const t = await testSetup(
                etcd,
                stream
                  ? {
                      features: { EtcdRangeStream: true },
                      rangeStream: 'supported',
                      rangeStreamInitialChunk: 2,
                    }
                  : {},
              );
              const model = new Model(1);
              const write = async (w: Write) => {
                const key = keyOf(w.ns, w.name);
                if (w.op === 'put') {
                  const p = pod(w.ns, w.name);
                  p.metadata.labels = { tier: w.tier };
                  const rev = await t.etcd.put(key, JSON.stringify(p));
                  model.apply(rev, key, { ns: w.ns, name: w.name, tier: w.tier, rev });
                } else if (model.has(key)) {
                  model.apply(await t.etcd.delete(key), key, undefined);
                }
              };
              for (const w of initial) await write(w);
              const [label, matchLabel] = labelSelectors[li];
              const [field, matchField] = fieldSelectors[fi];
              const pages: ListResult[] = [];
              let cont = '';
              for (let i = 0; ; i++) {
                const page = await t.store.getList('/registry/pods/', {
                  predicate: { label, field, limit, continue: cont },
                });
                pages.push(page);
                if (limit > 0)
                  assert.ok(page.items.length <= limit, 'a page never exceeds the limit');
                if (!page.continue) break;
                cont = page.continue;
                for (const w of between[i] ?? []) await write(w);
                assert.ok(i < 200, 'terminates');
              }
              const rev = Number(pages[0].resourceVersion);
              for (const p of pages)
                assert.strictEqual(
                  p.resourceVersion,
                  pages[0].resourceVersion,
                  'every page at the pinned revision',
                );
              const expected = [...model.at(rev).entries()]
                .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
                .map(([, o]) => o)
                .filter((o) => matchLabel(o) && matchField(o))
                .map((o) => `${o.ns}/${o.name}@${o.rev}`);
              const got = pages.flatMap((p) => p.items.map(show));
              assert.deepStrictEqual(
                got,
                expected,
                'exactly the filtered list at the revision, in key order',
              );
              const empty = label === '' && field === '';
              pages.forEach((p, i) => {
                if (p.remainingItemCount !== undefined) {
                  assert.ok(empty, 'remainingItemCount only without selectors');
                  const rest = pages.slice(i + 1).reduce((n, q) => n + q.items.length, 0);
                  assert.strictEqual(
                    p.remainingItemCount,
                    rest,
                    `page ${i}: remainingItemCount = items of the remaining pages`,
                  );
                } else if (empty && p.continue) {
                  assert.fail(
                    `page ${i}: an unfiltered page with a continue token reports remainingItemCount`,
                  );
                }
              });
            },
          ),
          { numRuns: 150, seed: 20260723 },
        );
      });
    }
  });
}
