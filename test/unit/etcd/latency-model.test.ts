// Tests for src/engine/etcd/latency-model.ts and how MemoryEtcd spends it: the model's terms, its
// quantum, its checks; virtual time passing per request as modelled (reads, counted keys, writes
// through raft, read-only txns, RangeStream chunks); and the fit in scripts/measure-etcd-latency.mjs
// recovering known figures from synthetic points.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FakeClock } from '../../../src/engine/clock';
import { prefixEnd } from '../../../src/engine/etcd/kv';
import {
  isZeroLatency,
  latencyModel,
  latencyQuantumMs,
  measuredEtcd34Latency,
  requestLatency,
  scaledLatency,
  zeroLatency,
  type LatencyModel,
  type RequestWork,
} from '../../../src/engine/etcd/latency-model';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';

const root = path.resolve(__dirname, '../../../..');

/** Figures that are whole multiples of the quantum, so every sum below is exact. */
const model: LatencyModel = {
  perRequestMs: 0.5,
  perWriteMs: 0.5,
  perCountedKeyMs: 1 / 64,
  perKeyMs: 1 / 32,
  perByteMs: 1 / 128,
};

const read = (countedKeys: number, keys: number, bytes: number): RequestWork => ({
  write: false,
  countedKeys,
  keys,
  bytes,
});

describe('latency model', () => {
  it('adds the terms a request used', () => {
    const cases: Array<{ name: string; work: RequestWork; want: number }> = [
      { name: 'empty read', work: read(0, 0, 0), want: 0.5 },
      { name: '1-key get', work: read(1, 1, 128), want: 0.5 + 1 / 64 + 1 / 32 + 1 },
      { name: 'limit 2 of 64 keys', work: read(64, 2, 0), want: 0.5 + 1 + 1 / 16 },
      { name: 'count only', work: read(128, 0, 0), want: 2.5 },
      {
        name: 'write of one key',
        work: { write: true, countedKeys: 0, keys: 1, bytes: 128 },
        want: 1 + 1 / 32 + 1,
      },
      { name: 'a later stream chunk', work: { ...read(2, 2, 0), continued: true }, want: 3 / 32 },
    ];
    for (const c of cases) assert.strictEqual(requestLatency(model, c.work), c.want, c.name);
  });

  it('rounds to the quantum', () => {
    assert.strictEqual(latencyQuantumMs, 1 / 128);
    const m = latencyModel({ perRequestMs: 0.49 });
    assert.strictEqual(requestLatency(m, read(0, 0, 0)), 63 / 128, '0.49 ms -> 63/128 ms');
    assert.strictEqual(requestLatency(zeroLatency, read(100, 100, 10_000)), 0);
  });

  it('fills missing figures with zeros and rejects negative or non-finite ones', () => {
    assert.deepStrictEqual(latencyModel({ perKeyMs: 2 }), { ...zeroLatency, perKeyMs: 2 });
    for (const [k, v] of [
      ['perWriteMs', -1],
      ['perCountedKeyMs', Number.NaN],
      ['perByteMs', Number.POSITIVE_INFINITY],
    ] as const) {
      assert.throws(
        () => latencyModel({ [k]: v }),
        new RegExp(`latency model: ${k} must be a finite number >= 0, got ${String(v)}`),
        k,
      );
    }
  });

  it('scales every figure; zero is zero', () => {
    const s = scaledLatency(model, 2);
    for (const k of Object.keys(model) as Array<keyof LatencyModel>)
      assert.strictEqual(s[k], 2 * model[k], k);
    assert.ok(isZeroLatency(zeroLatency));
    assert.ok(!isZeroLatency(measuredEtcd34Latency));
    for (const [k, v] of Object.entries(measuredEtcd34Latency))
      assert.ok(v > 0, `measured ${k} is positive`);
  });
});

describe('MemoryEtcd with a latency model', () => {
  /** Resolves `p` while stepping the clock one quantum at a time; returns when it resolved. */
  async function resolvedAt<T>(clock: FakeClock, p: Promise<T>): Promise<{ at: number; value: T }> {
    let got: { at: number; value: T } | undefined;
    void p.then((value) => {
      got = { at: clock.now(), value };
    });
    for (let i = 0; i < 100_000 && !got; i++) await clock.stepAsync(latencyQuantumMs);
    assert.ok(got, 'resolved');
    return got;
  }

  function etcdWithPods(n: number): { clock: FakeClock; etcd: MemoryEtcd } {
    const clock = new FakeClock(1000);
    const etcd = new MemoryEtcd({ clock, latency: model, simulateLatency: true });
    // 12-char keys (/pods/p0000.) and 4-char values: 16 bytes a key.
    for (let i = 0; i < n; i++) etcd.put(`/pods/p${String(i).padStart(4, '0')}.`, 'vvvv');
    return { clock, etcd };
  }

  it('passes virtual time on the injected clock per request, as modelled', async () => {
    const cases: Array<{
      name: string;
      call: (etcd: MemoryEtcd) => Promise<{ latencyMs?: number }>;
      want: number;
    }> = [
      {
        name: 'get 1 key',
        call: (e) => e.range({ key: '/pods/p0003.' }),
        want: 0.5 + 1 / 64 + 1 / 32 + 16 / 128,
      },
      {
        // etcd 3.4 counts all 64 keys in the range for a limit=2 page.
        name: 'range limit=2 of 64',
        call: (e) => e.range({ key: '/pods/', rangeEnd: prefixEnd('/pods/'), limit: 2 }),
        want: 0.5 + 64 / 64 + 2 / 32 + 32 / 128,
      },
      {
        name: 'count only',
        call: (e) => e.range({ key: '/pods/', rangeEnd: prefixEnd('/pods/'), countOnly: true }),
        want: 0.5 + 1,
      },
      {
        name: 'create txn (through raft)',
        call: (e) =>
          e.txn({
            compare: [{ key: '/pods/new', target: 'modRevision', result: 'equal', value: 0 }],
            success: [{ requestPut: { key: '/pods/new', value: 'vvvvvvvvvvvv' } }],
          }),
        want: 0.5 + 0.5 + 1 / 32 + 21 / 128,
      },
      {
        name: 'failed update txn: still a write, its Get is read',
        call: (e) =>
          e.txn({
            compare: [{ key: '/pods/p0001.', target: 'modRevision', result: 'equal', value: 1 }],
            success: [{ requestPut: { key: '/pods/p0001.', value: 'x' } }],
            failure: [{ requestRange: { key: '/pods/p0001.' } }],
          }),
        want: 0.5 + 0.5 + 1 / 64 + 1 / 32 + 16 / 128,
      },
      {
        name: 'read-only txn: no raft',
        call: (e) => e.txn({ success: [{ requestRange: { key: '/pods/p0001.' } }] }),
        want: 0.5 + 1 / 64 + 1 / 32 + 16 / 128,
      },
      {
        name: 'deleteRange of 2 keys',
        call: (e) => e.deleteRange({ key: '/pods/p0000.', rangeEnd: '/pods/p0002.' }),
        want: 0.5 + 0.5 + 2 / 64 + 2 / 32 + 32 / 128,
      },
      { name: 'compaction', call: (e) => e.compaction({ revision: 10 }), want: 1 },
    ];
    for (const c of cases) {
      const { clock, etcd } = etcdWithPods(64);
      const start = clock.now();
      const { at, value } = await resolvedAt(clock, c.call(etcd));
      assert.strictEqual(value.latencyMs, c.want, `${c.name}: reported latency`);
      assert.strictEqual(at - start, c.want, `${c.name}: virtual time until the answer`);
    }
  });

  it('without simulateLatency reports the model but answers at once', async () => {
    const clock = new FakeClock(0);
    const etcd = new MemoryEtcd({ clock, latency: model });
    etcd.put('/a', 'b');
    const r = await etcd.range({ key: '/a' });
    assert.strictEqual(r.latencyMs, 0.5 + 1 / 64 + 1 / 32 + 3 / 128);
    assert.strictEqual(clock.now(), 0);
  });

  it('charges a RangeStream one round trip and each chunk its keys', async () => {
    const clock = new FakeClock(0);
    const etcd = new MemoryEtcd({
      clock,
      latency: model,
      simulateLatency: true,
      rangeStream: 'supported',
      rangeStreamInitialChunk: 2,
    });
    for (let i = 0; i < 6; i++) etcd.put(`/pods/p${String(i).padStart(4, '0')}.`, 'vvvv');
    const chunks: Array<{ at: number; kvs: number; latencyMs: number }> = [];
    const reading = (async () => {
      for await (const r of etcd.rangeStream({ key: '/pods/', rangeEnd: prefixEnd('/pods/') }))
        chunks.push({ at: clock.now(), kvs: r.kvs.length, latencyMs: r.latencyMs ?? 0 });
    })();
    await resolvedAt(clock, reading);
    const perKey = 1 / 64 + 1 / 32 + 16 / 128;
    // Chunks of 2 then 4 keys (the chunk doubles while well under maxRequestBytes).
    assert.deepStrictEqual(chunks, [
      { at: 0.5 + 2 * perKey, kvs: 2, latencyMs: 0.5 + 2 * perKey },
      { at: 0.5 + 6 * perKey, kvs: 4, latencyMs: 4 * perKey },
    ]);
  });
});

describe('scripts/measure-etcd-latency.mjs --refit', () => {
  it('recovers the figures of synthetic points, and drops a term that would come out negative', () => {
    const truth = { perRequestMs: 0.5, perWriteMs: 0.4, perCountedKeyMs: 1.5e-4, perKeyMs: 1e-3 };
    const shapes = [
      { kind: 'read', count: 1, kvs: 1, bytes: 1500 },
      { kind: 'read', count: 100_000, kvs: 10, bytes: 15_000 },
      { kind: 'read', count: 100_000, kvs: 1000, bytes: 1_500_000 },
      { kind: 'read', count: 1000, kvs: 1000, bytes: 100_000 },
      { kind: 'read', count: 10_000, kvs: 0, bytes: 0 },
      { kind: 'read', count: 10, kvs: 10, bytes: 1000 },
      { kind: 'write', count: 0, kvs: 1, bytes: 100 },
      { kind: 'write', count: 0, kvs: 1, bytes: 32_000 },
    ];
    // Bytes cost nothing here: with a little noise, per byte must come out as 0, not below.
    const points = shapes.map((s, i) => {
      const t =
        truth.perRequestMs +
        (s.kind === 'write' ? truth.perWriteMs : 0) +
        s.count * truth.perCountedKeyMs +
        s.kvs * truth.perKeyMs;
      const wobble = i % 2 === 0 ? 0.99 : 1.01;
      return { name: `shape ${i}`, ...s, samplesMs: [t * wobble, t * wobble, t * wobble] };
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latency-fit-'));
    try {
      const file = path.join(dir, 'points.json');
      fs.writeFileSync(file, JSON.stringify({ etcdVersion: 'synthetic', points }));
      const r = spawnSync(
        process.execPath,
        [path.join(root, 'scripts/measure-etcd-latency.mjs'), '--refit', file, '--json'],
        { encoding: 'utf8' },
      );
      assert.strictEqual(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as {
        fit: Record<string, number>;
        quality: { all: { r2: number } };
      };
      for (const [k, v] of Object.entries(truth)) {
        assert.ok(Math.abs(out.fit[k] - v) / v < 0.05, `${k}: ${out.fit[k]} within 5% of ${v}`);
      }
      assert.ok(out.fit.perByteMs >= 0, `perByteMs ${out.fit.perByteMs} is not negative`);
      assert.ok(out.fit.perByteMs < 1e-7, `perByteMs ${out.fit.perByteMs} is about 0`);
      assert.ok(out.quality.all.r2 > 0.99, `R² ${out.quality.all.r2}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
