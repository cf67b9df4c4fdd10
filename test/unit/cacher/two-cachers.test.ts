// Two cachers in one process (pods and configmaps, each over its own etcd, on one clock): what a
// dispatch needs is the cacher's own (src/engine/cacher/cacher.ts, in-place-delivery.ts,
// watcher-run.ts), never a module's, so their dispatches, interleaved (one waits for a slow
// watcher while the other dispatches), give each cacher exactly what it gives when it runs alone:
// every watcher's counts, every client's counts and kept events, the metrics and, when someone
// listens, every engine event. With the fast paths on and off.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { EventHub } from '../../../src/engine/inspect/events';
import { CacheWatcher } from '../../../src/engine/cacher/cache-watcher';
import { contentTypeJSON, contentTypeProtobuf } from '../../../src/engine/cacher/object-encoders';
import type { ReadRate, WatchContentType } from '../../../src/engine/clients/watch-client';
import { createResource, type OpenedWatch, type Resource } from '../../../src/engine/apiserver';
import type { GroupResource } from '../../../src/engine/storage/group-resource';
import type { KubeObject } from '../../../src/engine/storage/objects';

const podsGR: GroupResource = { group: '', resource: 'pods' };
const configMapsGR: GroupResource = { group: '', resource: 'configmaps' };

type Op =
  | { op: 'write'; ns: string; name: string; app: string; del: boolean }
  | {
      op: 'watch';
      ns: string | undefined;
      selector: string | undefined;
      contentType: WatchContentType | undefined;
      keep: boolean;
      rate: ReadRate;
      n: number;
    }
  | { op: 'rate'; watch: number; rate: ReadRate }
  | { op: 'disconnect'; watch: number };

const rates: ReadRate[] = [
  { kind: 'fast' },
  { kind: 'fast' },
  { kind: 'fast' },
  { kind: 'slow', eventsPerSecond: 20 },
  { kind: 'stalled' },
];

/** A resource's ops per 100 ms tick, drawn from its own seed. */
function workload(seed: number, ticks: number): Op[][] {
  const rand = new SeededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[rand.intn(xs.length)];
  const out: Op[][] = [];
  for (let t = 0; t < ticks; t++) {
    const ops: Op[] = [];
    for (let k = rand.intn(4); k > 0; k--) {
      const x = rand.intn(10);
      if (x < 6)
        ops.push({
          op: 'write',
          ns: pick(['a', 'b']),
          name: pick(['o0', 'o1', 'o2']),
          app: pick(['web', 'db']),
          del: rand.intn(4) === 0,
        });
      else if (x < 8)
        ops.push({
          op: 'watch',
          ns: pick([undefined, 'a']),
          selector: pick([undefined, undefined, 'app=web']),
          contentType: pick([undefined, contentTypeJSON, contentTypeProtobuf]),
          keep: rand.intn(2) === 0,
          rate: pick(rates),
          // Several alike, so that runs form.
          n: pick([1, 1, 6]),
        });
      else if (x < 9) ops.push({ op: 'rate', watch: rand.intn(50), rate: pick(rates) });
      else ops.push({ op: 'disconnect', watch: rand.intn(50) });
    }
    out.push(ops);
  }
  return out;
}

function object(gr: GroupResource, ns: string, name: string, app: string): KubeObject {
  if (gr.resource === 'pods') return { ...makePodLike(ns, name, app) };
  return {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name, namespace: ns, labels: { app } },
    data: { app },
  } as KubeObject;
}

function makePodLike(ns: string, name: string, app: string): KubeObject {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, namespace: ns, labels: { app } },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
  } as KubeObject;
}

/** One resource under test: its ops, its watches, what it reports. */
class Subject {
  readonly r: Resource;
  readonly watches: OpenedWatch[] = [];
  readonly events: string[] = [];

  constructor(
    readonly gr: GroupResource,
    clock: FakeClock,
    fastPaths: boolean,
    listen: boolean,
    private readonly ops: Op[][],
  ) {
    const hub = new EventHub();
    if (listen) hub.subscribe((e) => this.events.push(JSON.stringify(e)));
    this.r = createResource({
      clock,
      rand: new SeededRandom(gr.resource.length),
      groupResource: gr,
      eventSink: hub,
      cache: { bookmarkFrequency: 2000, fastPaths },
    });
  }

  /** The tick's ops, in order, all at the same instant. */
  async tick(t: number): Promise<void> {
    for (const o of this.ops[t]) {
      switch (o.op) {
        case 'write': {
          const r = this.r;
          const exists = (await r.get(o.ns, o.name, '', true)) !== undefined;
          if (!exists) await r.create(object(this.gr, o.ns, o.name, o.app));
          else if (o.del) await r.delete(o.ns, o.name);
          else await r.setLabels(o.ns, o.name, { app: o.app });
          break;
        }
        case 'watch':
          for (let i = 0; i < o.n; i++) {
            this.watches.push(
              await this.r.watch({
                namespace: o.ns,
                labelSelector: o.selector,
                resourceVersion: String(this.r.etcd.currentRevision()),
                allowWatchBookmarks: true,
                contentType: o.contentType,
                keepEvents: o.keep,
                readRate: o.rate,
              }),
            );
          }
          break;
        case 'rate':
          if (this.watches.length > 0)
            this.watches[o.watch % this.watches.length].client.setReadRate(o.rate);
          break;
        case 'disconnect':
          if (this.watches.length > 0)
            this.watches[o.watch % this.watches.length].client.disconnect();
          break;
      }
    }
  }

  /** Everything a user can read of this resource. */
  report(): string[] {
    this.r.flushEvents();
    const out = this.watches.map((w, i) => {
      const counts = w.watcher instanceof CacheWatcher ? JSON.stringify(w.watcher.counts) : '';
      const c = w.client;
      return `#${i} received=${c.received} bytes=${c.bytesEncoded} lastRv=${c.lastResourceVersion} kept=${c.events.map((e) => `${e.type}@${e.resourceVersion}`).join(',')} closed=${c.closeReason ?? '-'} ${counts}`;
    });
    out.push(this.r.metrics.text(), ...this.events);
    return out;
  }
}

/** Runs the given resources' workloads on one clock, tick by tick; returns each one's report. */
async function runTogether(
  subjects: Array<{ gr: GroupResource; ops: Op[][] }>,
  fastPaths: boolean,
  listen: boolean,
): Promise<string[][]> {
  const clock = new FakeClock(0);
  const ss = subjects.map((s) => new Subject(s.gr, clock, fastPaths, listen, s.ops));
  for (const s of ss) s.r.start();
  for (const s of ss) await s.r.waitReady();
  await clock.stepAsync(20);
  const ticks = subjects[0].ops.length;
  for (let t = 0; t < ticks; t++) {
    for (const s of ss) await s.tick(t);
    await clock.stepAsync(100);
  }
  await clock.stepAsync(5000);
  const reports = ss.map((s) => s.report());
  for (const s of ss) s.r.stop();
  return reports;
}

describe('two cachers in one process (pods and configmaps)', () => {
  const cases: Array<{ name: string; fastPaths: boolean; listen: boolean }> = [
    { name: 'fast paths on, nobody listening', fastPaths: true, listen: false },
    { name: 'fast paths on, an inspector listening', fastPaths: true, listen: true },
    { name: 'fast paths off', fastPaths: false, listen: false },
  ];
  for (const c of cases) {
    it(`interleaved, each gives what it gives alone (${c.name})`, async () => {
      let delivered = 0;
      let terminated = 0;
      for (const seed of [1, 2, 3]) {
        const pods = { gr: podsGR, ops: workload(seed, 40) };
        const configMaps = { gr: configMapsGR, ops: workload(seed + 100, 40) };
        const [podsAlone] = await runTogether([pods], c.fastPaths, c.listen);
        const [configMapsAlone] = await runTogether([configMaps], c.fastPaths, c.listen);
        const [podsTogether, configMapsTogether] = await runTogether(
          [pods, configMaps],
          c.fastPaths,
          c.listen,
        );
        assert.deepStrictEqual(podsTogether, podsAlone, `seed ${seed}: pods`);
        assert.deepStrictEqual(configMapsTogether, configMapsAlone, `seed ${seed}: configmaps`);
        for (const l of podsAlone) {
          delivered += Number(/received=(\d+)/.exec(l)?.[1] ?? 0);
          // A termination means a dispatch waited out its budget: the other cacher ran meanwhile.
          if (l.includes('"terminated":1')) terminated++;
        }
      }
      assert.ok(delivered > 200, `pods delivered ${delivered} events`);
      assert.ok(terminated > 0, `${terminated} pods watchers were terminated`);
    });
  }
});
