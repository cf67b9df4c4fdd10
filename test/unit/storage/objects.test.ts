// Tests for src/engine/storage/objects.ts: pod shapes in Go's JSON order, keys, timestamps and the seeded pod generator.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import {
  PodGenerator,
  formatRFC3339,
  makePod,
  newUID,
  objectEpochMs,
  podKey,
  sortedMap,
} from '../../../src/engine/storage/objects';

describe('objects: makePod and keys', () => {
  it('writes a minimal pod as the apiserver would (containers null, empty status)', () => {
    assert.strictEqual(
      JSON.stringify(makePod({ name: 'foo', namespace: 'ns' })),
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"foo","namespace":"ns"},"spec":{"containers":null},"status":{}}',
    );
  });

  it('orders every field as Go does and sorts labels', () => {
    const pod = makePod({
      name: 'p',
      namespace: 'ns',
      uid: 'u',
      resourceVersion: '5',
      creationTimestamp: '2024-01-01T00:00:00Z',
      labels: { z: '1', a: '2', 'app.kubernetes.io/name': 'x' },
      annotations: { b: '1', a: '2' },
      containers: [{ name: 'c', image: 'i', resources: {} }],
      restartPolicy: 'Always',
      serviceAccountName: 'default',
      nodeName: 'n',
      hostNetwork: true,
      schedulerName: 'default-scheduler',
      phase: 'Running',
      nominatedNodeName: 'm',
      hostIP: '192.168.0.1',
      podIP: '10.0.0.1',
    });
    assert.strictEqual(
      JSON.stringify(pod),
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"ns","uid":"u","resourceVersion":"5","creationTimestamp":"2024-01-01T00:00:00Z",' +
        '"labels":{"a":"2","app.kubernetes.io/name":"x","z":"1"},"annotations":{"a":"2","b":"1"}},' +
        '"spec":{"containers":[{"name":"c","image":"i","resources":{}}],"restartPolicy":"Always","serviceAccountName":"default","nodeName":"n","hostNetwork":true,"schedulerName":"default-scheduler"},' +
        '"status":{"phase":"Running","nominatedNodeName":"m","hostIP":"192.168.0.1","podIP":"10.0.0.1"}}',
    );
  });

  const keys: [string, string, string, string][] = [
    ['/registry/pods', 'default', 'web-1', '/registry/pods/default/web-1'],
    ['/registry/pods/', 'default', 'web-1', '/registry/pods/default/web-1'],
    ['/pods', '', 'pod-0', '/pods//pod-0'],
  ];
  for (const [prefix, ns, name, want] of keys) {
    it(`podKey(${prefix}, ${JSON.stringify(ns)}, ${name}) = ${want}`, () =>
      assert.strictEqual(podKey(prefix, ns, name), want));
  }

  it('sortedMap orders keys bytewise', () => {
    assert.deepStrictEqual(Object.keys(sortedMap({ b: '', a: '', B: '' })), ['B', 'a', 'b']);
  });
});

describe('objects: timestamps', () => {
  const cases: [number, string][] = [
    [0, '1970-01-01T00:00:00Z'],
    [objectEpochMs, '2024-01-01T00:00:00Z'],
    [objectEpochMs + 59 * 86400000 + 999, '2024-02-29T00:00:00Z'],
    [951782400000, '2000-02-29T00:00:00Z'],
    [4102444799000, '2099-12-31T23:59:59Z'],
    [-1000, '1969-12-31T23:59:59Z'],
  ];
  for (const [ms, want] of cases) {
    it(`formats ${ms} as ${want}`, () => assert.strictEqual(formatRFC3339(ms), want));
  }

  it('agrees with Date#toISOString truncated to seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799000 }), (ms) => {
        const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
        assert.strictEqual(formatRFC3339(ms), iso);
      }),
    );
  });
});

describe('objects: PodGenerator', () => {
  it('is deterministic for a seed and differs for another seed', () => {
    const gen = (seed: number) =>
      new PodGenerator(new SeededRandom(seed), new FakeClock())
        .take(50)
        .map((p) => JSON.stringify(p));
    assert.deepStrictEqual(gen(1), gen(1));
    assert.notDeepStrictEqual(gen(1), gen(2));
  });

  it('takes creation time from the clock and UIDs from the seed', () => {
    const clock = new FakeClock();
    const g = new PodGenerator(new SeededRandom(7), clock);
    const a = g.next();
    clock.step(90_500);
    const b = g.next();
    assert.strictEqual(a.metadata.creationTimestamp, '2024-01-01T00:00:00Z');
    assert.strictEqual(b.metadata.creationTimestamp, '2024-01-01T00:01:30Z');
    for (const p of [a, b])
      assert.match(
        p.metadata.uid ?? '',
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    assert.notStrictEqual(a.metadata.uid, b.metadata.uid);
    assert.strictEqual(g.generated(), 2);
  });

  it('gives unique, valid, Deployment-style names and consistent labels', () => {
    const pods = new PodGenerator(new SeededRandom(3), new FakeClock(), {
      namespaces: ['a'],
      apps: ['web'],
      nodes: 3,
    }).take(20000);
    const keys = new Set(
      pods.map((p) => podKey('/registry/pods', p.metadata.namespace ?? '', p.metadata.name ?? '')),
    );
    assert.strictEqual(keys.size, pods.length);
    const hash = pods[0].metadata.labels?.['pod-template-hash'];
    for (const p of pods) {
      assert.match(
        p.metadata.name ?? '',
        /^web-[bcdfghjklmnpqrstvwxz2456789]{9}-[bcdfghjklmnpqrstvwxz2456789]{5}$/,
      );
      assert.deepStrictEqual(p.metadata.labels, { app: 'web', 'pod-template-hash': hash });
      assert.strictEqual(
        p.status.podIP !== undefined,
        p.status.phase === 'Running',
        p.metadata.name,
      );
      assert.strictEqual(
        p.spec.nodeName === undefined,
        p.status.phase === 'Pending',
        p.metadata.name,
      );
    }
    const running = pods.filter((p) => p.status.phase === 'Running').length;
    assert.ok(running > 17000 && running < 19000, `about 90% running, got ${running}`);
  });

  it('keeps pods compact', () => {
    const p = new PodGenerator(new SeededRandom(1), new FakeClock()).next();
    assert.ok(JSON.stringify(p).length < 500, JSON.stringify(p));
  });

  it('rejects empty option lists with a clear message', () => {
    assert.throws(
      () => new PodGenerator(new SeededRandom(1), new FakeClock(), { namespaces: [] }),
      /namespaces must not be empty/,
    );
    assert.throws(
      () => new PodGenerator(new SeededRandom(1), new FakeClock(), { nodes: 0 }),
      /nodes must be positive, got 0/,
    );
  });

  it('newUID draws 128 bits from the seed', () => {
    assert.strictEqual(newUID(new SeededRandom(5)), newUID(new SeededRandom(5)));
  });

  // The same seed keeps giving the same UIDs (traces and seeded servers replay byte for byte):
  // the first two UIDs of each seed, as the four-digit table wrote them before the two-digit one.
  const uidCases: { seed: number; uids: [string, string] }[] = [
    {
      seed: 0,
      uids: ['4434b462-0015-4c37-b928-5b08256d8104', '77a2cbd4-8b88-4631-9d81-1d5fa623e7e6'],
    },
    {
      seed: 1,
      uids: ['a087eaf3-00b3-49c9-8706-c4ebfb2627fd', 'f7e79d2b-47f6-4630-9ce3-01f0b8829f5c'],
    },
    {
      seed: 5,
      uids: ['b09516ac-c5d2-40cf-b842-637e9f88a5b5', '15cb8d37-9798-4f1c-b858-9eeb75465153'],
    },
    {
      seed: 42,
      uids: ['99e1ef7c-72c3-4b8a-9a3b-32c0ab73b0ad', '2cc09a8a-86ce-44d3-85f2-45149fef4401'],
    },
    {
      seed: 4294967295,
      uids: ['e57bf3d3-3081-45a4-b735-0390f1ade904', 'd8616a2f-8a05-4437-ae35-198d79bf17c9'],
    },
  ];
  for (const c of uidCases) {
    it(`newUID of seed ${c.seed}: the same UIDs as ever`, () => {
      const r = new SeededRandom(c.seed);
      assert.deepStrictEqual([newUID(r), newUID(r)], c.uids);
    });
  }
});
