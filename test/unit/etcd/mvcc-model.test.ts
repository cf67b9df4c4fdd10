// Property test for src/engine/etcd/memory-etcd.ts: for random write/compact sequences, every range
// at every non-compacted revision, and every watch replay, equals a naive model that keeps the full
// key space after each revision.
import * as assert from 'assert';
import fc from 'fast-check';
import { FakeClock, settle } from '../../../src/engine/clock';
import { EtcdError, type KeyValue, type WatchEvent } from '../../../src/engine/etcd/kv';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';

// Includes keys whose UTF-16 and UTF-8 orders differ, to check byte order.
const keys = ['/a', '/a/b', '/a0', '/b', '/b/c', '/c', '/\uE000', '/\uD83D\uDE00', '/\u00e9'];

type Op =
  | { kind: 'put'; key: string; value: string }
  | { kind: 'delete'; key: string; end?: string }
  | { kind: 'txn'; puts: string[]; value: string }
  | { kind: 'compact'; back: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('put' as const),
      key: fc.constantFrom(...keys),
      value: fc.string({ maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      key: fc.constantFrom(...keys),
      end: fc.option(fc.constantFrom(...keys, '\0'), { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('txn' as const),
      puts: fc.uniqueArray(fc.constantFrom(...keys), { minLength: 1, maxLength: 3 }),
      value: fc.string({ maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), back: fc.nat(4) }) },
);

function byteOrder(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The naive model: the whole key space after every revision, and each revision's events. */
class Model {
  states: Map<string, KeyValue>[] = [new Map(), new Map()]; // index = revision; revision 1 = empty
  events: WatchEvent[][] = [[], []];
  compacted = -1;

  get rev(): number {
    return this.states.length - 1;
  }

  write(puts: [string, string][], deletes: (k: string) => boolean): void {
    const next = new Map(this.states[this.rev]);
    const rev = this.rev + 1;
    const evs: WatchEvent[] = [];
    // Deletes first, in key order, then puts in request order (etcd applies ops in order; the
    // generated txns never mix them).
    for (const k of [...next.keys()].sort(byteOrder)) {
      if (!deletes(k)) continue;
      next.delete(k);
      evs.push({
        type: 'DELETE',
        kv: { key: k, value: '', createRevision: 0, modRevision: rev, version: 0 },
      });
    }
    for (const [k, v] of puts) {
      const prev = next.get(k);
      const kv = {
        key: k,
        value: v,
        createRevision: prev ? prev.createRevision : rev,
        modRevision: rev,
        version: prev ? prev.version + 1 : 1,
      };
      next.set(k, kv);
      evs.push({ type: 'PUT', kv });
    }
    if (evs.length === 0) return; // nothing changed: no new revision
    this.states.push(next);
    this.events.push(evs);
  }

  range(start: string, end: string | undefined, rev: number): KeyValue[] {
    return [...this.states[rev].values()]
      .filter(
        (kv) => byteOrder(kv.key, start) >= 0 && (end === undefined || byteOrder(kv.key, end) < 0),
      )
      .sort((a, b) => byteOrder(a.key, b.key));
  }
}

describe('MemoryEtcd against a naive MVCC model (property)', () => {
  it('ranges at every non-compacted revision and watch replays match the model', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 40 }),
        fc.nat(5),
        async (ops, limit) => {
          const etcd = new MemoryEtcd({ clock: new FakeClock() });
          const model = new Model();
          for (const op of ops) {
            if (op.kind === 'put') {
              assert.strictEqual(etcd.put(op.key, op.value), model.rev + 1);
              model.write([[op.key, op.value]], () => false);
            } else if (op.kind === 'delete') {
              const end = op.end;
              const inRange = (k: string) =>
                end === undefined
                  ? k === op.key
                  : byteOrder(k, op.key) >= 0 && (end === '\0' || byteOrder(k, end) < 0);
              const resp = await etcd.deleteRange({ key: op.key, rangeEnd: end });
              model.write([], inRange);
              assert.strictEqual(resp.header.revision, model.rev, 'delete revision');
            } else if (op.kind === 'txn') {
              const resp = await etcd.txn({
                success: op.puts.map((key) => ({ requestPut: { key, value: op.value } })),
              });
              model.write(
                op.puts.map((k) => [k, op.value]),
                () => false,
              );
              assert.strictEqual(resp.header.revision, model.rev, 'txn revision');
            } else {
              const target = model.rev - op.back;
              if (target <= model.compacted) {
                // etcd: at or below the last compaction fails (even 0 is allowed once, as in mvcc).
                assert.throws(() => etcd.compact(target), EtcdError);
              } else {
                etcd.compact(target);
                model.compacted = target;
              }
            }
          }
          assert.strictEqual(etcd.currentRevision(), model.rev);
          const bounds: [string, string | undefined][] = [
            ['/', undefined],
            ['/a', '/b'],
            ['/a/', '/a0'],
            ['/b', undefined],
            ['/\u00e9', '/\uFFFF'],
          ];
          for (let rev = Math.max(1, model.compacted); rev <= model.rev; rev++) {
            for (const [start, end] of bounds) {
              const want = model.range(start, end, rev);
              const r = await etcd.range({
                key: start,
                rangeEnd: end ?? '\0',
                revision: rev,
                limit,
              });
              const name = `[${start}, ${end ?? '∞'}) @${rev} limit ${limit}`;
              assert.deepStrictEqual(r.kvs, limit ? want.slice(0, limit) : want, `${name}: kvs`);
              assert.strictEqual(r.count, want.length, `${name}: count`);
              assert.strictEqual(r.more, limit > 0 && want.length > limit, `${name}: more`);
            }
            for (const k of keys) {
              assert.deepStrictEqual(
                etcd.get(k, rev),
                model.states[rev].get(k),
                `get ${k} @${rev}`,
              );
            }
          }
          if (model.compacted > 1) {
            await assert.rejects(
              etcd.range({ key: '/', rangeEnd: '\0', revision: model.compacted - 1 }),
              /required revision has been compacted/,
            );
          }
          // Watch replay from the oldest readable revision: every event after it, in order
          // (a delete exactly at the compaction revision is gone, as in etcd).
          const from = Math.max(2, model.compacted);
          const got: WatchEvent[] = [];
          etcd
            .watch({ key: '/', rangeEnd: '\0', startRevision: from })
            .onResponse((r) => got.push(...r.events));
          await settle();
          const want = model.events
            .slice(from)
            .flat()
            .filter((e) => !(e.type === 'DELETE' && e.kv.modRevision === model.compacted));
          assert.deepStrictEqual(
            got.map((e) => [e.type, e.kv.key, e.kv.modRevision]),
            want.map((e) => [e.type, e.kv.key, e.kv.modRevision]),
            'watch replay',
          );
        },
      ),
      { numRuns: 150, seed: 20260723 },
    );
  });
});
