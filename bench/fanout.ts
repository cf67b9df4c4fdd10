// Benchmark: one event fanned out to 10,000 watchers across two content types (half JSON, half
// protobuf), end to end through the public API (an etcd write, the reflector, the watch cache, the
// dispatcher, every watcher and its fast client encoding the object). Figure: deliveries per
// second; baseline, measured in the same run and interleaved: pushing the same pre-encoded bytes to
// 10,000 arrays (new ones for the timed runs, so each holds what those runs pushed). Both are
// measured warm: the per-event paths (the etcd write, the watch cache, the two encodes) run once
// per event, so V8 optimizes them only after some hundreds of events, while the per-watcher paths
// and the baseline's loop are hot at once. The encodes are counted from the inspector's
// serialization events (one extra, untimed event with a subscriber): exactly two per event, one
// per content type. Every delivery is checked from the clients' `received` counts.
// Measured twice: watchers alike but for their content type (the case, goal >= 0.5: they
// take the event as one WatcherRun, each reading its share of the counts when asked), and every
// other pair of watchers with another selector that matches the same pods (no runs: each watcher
// takes the event in place, one by one; information only).
//   node esbuild.js && node --expose-gc out/bench/fanout.js [watchers]
import { FakeClock } from '../src/engine/clock';
import { SeededRandom } from '../src/engine/rand';
import { EventHub, type SerializationEvent } from '../src/engine/inspect/events';
import { createResource, type OpenedWatch } from '../src/engine/apiserver';
import {
  contentTypeJSON,
  contentTypeProtobuf,
  newJSONEncoder,
  newProtobufEncoder,
} from '../src/engine/cacher/object-encoders';
import { makePod } from '../src/engine/storage/objects';
import {
  atLeast,
  fmtInt,
  fmtMs,
  fmtRate,
  runAsScript,
  median,
  scriptArgs,
  timeAsync,
  timeSync,
  type BenchRow,
} from './bench-util';

export interface FanoutOptions {
  watchers?: number;
  /** Timed events (odd: a true median). */
  repeats?: number;
  warmup?: number;
  log?: (line: string) => void;
}

/** One measured configuration. */
interface FanoutRun {
  ourRate: number;
  baseRate: number;
  ratio: number;
  pairRatio: number;
  encodes: number;
  hits: number;
}

/**
 * Opens `n` watches (JSON and protobuf alternating; with `mixSelectors`, every other one with a
 * different label selector that matches the same pods) and measures one event to all of them.
 */
async function measure(
  n: number,
  repeats: number,
  warmup: number,
  mixSelectors: boolean,
  log: (line: string) => void,
): Promise<FanoutRun> {
  const clock = new FakeClock(0);
  const hub = new EventHub();
  const r = createResource({ clock, rand: new SeededRandom(7), eventSink: hub });
  r.start();
  await r.waitReady();
  await r.step(20);
  const rv = String(r.etcd.currentRevision());
  const watches: OpenedWatch[] = [];
  const openMs = await timeAsync(async () => {
    for (let i = 0; i < n; i++) {
      const contentType = i % 2 === 0 ? contentTypeJSON : contentTypeProtobuf;
      // `!absent` matches every pod, through a filter of its own.
      const labelSelector = mixSelectors && i % 4 >= 2 ? '!absent' : undefined;
      watches.push(
        await r.watch({ resourceVersion: rv, contentType, labelSelector, keepEvents: false }),
      );
    }
  });
  const received = (): number => {
    let s = 0;
    for (const w of watches) s += w.client.received;
    return s;
  };

  // The baseline's input: the bytes a client of each type gets, encoded once.
  const sample = makePod({ name: 'sample', namespace: 'bench' });
  const jsonBytes = newJSONEncoder('v1').encode(sample);
  const protoBytes = newProtobufEncoder('v1').encode(sample);
  const sinks: Uint8Array[][] = Array.from({ length: n }, () => []);
  const baseline = (): void => {
    for (let i = 0; i < n; i++) sinks[i].push(i % 2 === 0 ? jsonBytes : protoBytes);
  };

  let seq = 0;
  const oneEvent = async (): Promise<void> => {
    await r.createPod({ name: `p-${seq++}`, namespace: 'bench' });
    await r.settle();
  };
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < warmup + repeats; i++) {
    const before = received();
    const ms = await timeAsync(oneEvent);
    const got = received() - before;
    if (got !== n) throw new Error(`fanout: event ${seq - 1} reached ${got} of ${n} watchers`);
    const bms = timeSync(baseline);
    // The timed runs push into new arrays, not into the ones the warm-up filled.
    if (i === warmup - 1) for (let k = 0; k < n; k++) sinks[k] = [];
    if (i >= warmup) {
      ours.push(ms);
      base.push(bms);
    }
  }

  // One more event with a subscriber: count what the caching object encoded for it.
  const encodes: SerializationEvent[] = [];
  const unsubscribe = hub.subscribe((e) => {
    if (e.type === 'serialization/encode') encodes.push(e);
  });
  await oneEvent();
  r.flushEvents();
  unsubscribe();
  const totalEncodes = encodes.reduce((s, e) => s + e.encodes, 0);
  const totalHits = encodes.reduce((s, e) => s + e.hits, 0);
  const identifiers = new Set(encodes.map((e) => e.identifier)).size;
  r.stop();

  const ourMs = median(ours);
  const baseMs = median(base);
  const ourRate = n / (ourMs / 1000);
  const baseRate = n / (baseMs / 1000);
  // Each event is timed next to one baseline run: the median of those pairs' ratios, for steadiness.
  const pairRatio = median(ours.map((x, i) => base[i] / x));
  log(
    `fanout${mixSelectors ? ' (two selectors, interleaved)' : ''}: ${fmtInt(n)} watchers opened in ${fmtMs(openMs)}; one event to all of them, median of ${repeats} after ${warmup} warm-up (interleaved with the baseline)`,
  );
  log(
    `  ours: ${fmtMs(ourMs)} per event (etcd write to last delivery) = ${fmtRate(ourRate)} deliveries; baseline (push pre-encoded bytes to ${fmtInt(n)} arrays): ${fmtMs(baseMs)} = ${fmtRate(baseRate)}`,
  );
  log(
    `  ratio of the rates ${(ourRate / baseRate).toFixed(3)}; median of the per-event ratios ${pairRatio.toFixed(3)}`,
  );
  log(
    `  encodes for one event: ${totalEncodes} (${identifiers} content types), cache hits ${fmtInt(totalHits)}${totalEncodes === 2 ? '' : '  <-- expected exactly 2'}`,
  );
  return {
    ourRate,
    baseRate,
    ratio: ourRate / baseRate,
    pairRatio,
    encodes: totalEncodes,
    hits: totalHits,
  };
}

export async function runFanout(o: FanoutOptions = {}): Promise<BenchRow[]> {
  const n = o.watchers ?? 10_000;
  const repeats = o.repeats ?? 51;
  const warmup = o.warmup ?? 1000;
  const log = o.log ?? console.log;
  // The case: watchers alike but for their content type. Consecutive watchers with one
  // filter that take events in place are dispatched as one run (WatcherRun).
  const same = await measure(n, repeats, warmup, false, log);
  // Every other pair of watchers with another filter: no runs, each watcher takes the event in place.
  const mixed = await measure(n, repeats, warmup, true, log);
  return [
    {
      bench: 'fanout',
      measure: `1 event -> ${fmtInt(n)} watchers (json+protobuf), deliveries/s`,
      figure: fmtRate(same.ourRate),
      baseline: fmtRate(same.baseRate),
      ratio: same.ratio,
      goal: atLeast(same.ratio, 0.5),
      note: `${same.encodes} encodes, ${fmtInt(same.hits)} hits`,
    },
    {
      bench: 'fanout',
      measure: '  the same, two selectors interleaved (no runs)',
      figure: fmtRate(mixed.ourRate),
      baseline: fmtRate(mixed.baseRate),
      ratio: mixed.ratio,
      note: `${mixed.encodes} encodes, ${fmtInt(mixed.hits)} hits`,
    },
  ];
}

runAsScript('fanout', () =>
  runFanout({ watchers: scriptArgs()[0] ? Number(scriptArgs()[0]) : undefined }),
);
