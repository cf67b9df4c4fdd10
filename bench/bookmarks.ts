// Benchmark: periodic bookmarks (heartbeats) with 100,000 watchers registered (allowWatchBookmarks,
// fast clients), through the public API on virtual time. The cacher keeps watchers in one-second
// buckets and a ~1s jittered timer pops the due ones (watcherBookmarkTimeBuckets).
//
// Schedule (virtual seconds; every watch's next heartbeat is 60s after it was opened):
//   98,700 watchers opened over [0, 20)s, 4,935 a second  -> due over [60k, 60k+20)s of minute k
//    1,300 watchers opened over [40, 53)s, 100 a second   -> ~100 due per tick over [60k+40, 60k+53)s
//   nothing is due over [60k+28, 60k+40)s (a margin for the ticks' drift, at most 1.25s a minute)
// Two more resources on the same clock schedule: one with only the 1,300, one with only 100
// watchers (opened at 45s). Figures: medians over 15 minutes after 1 warm-up (the watches' random
// deadlines, 30 to 60 minutes out, are never reached); the medians of the per-minute ratios are
// logged as well.
//   (a) O(due): ticks with nothing due (the 12s span [28,40)) with 100,000 registered next to the
//       same span with 100 registered: goal ratio < 1.5. The same for ticks with ~100 due (the
//       span [40,52)), 100,000 next to 1,300 registered: goal ratio < 1.5. And, for information,
//       ~100 due next to nothing due, both with 100,000 registered (the cost of 100 heartbeats
//       against an idle tick: no goal, it grows with the heartbeats delivered, as it should).
//   (b) a whole virtual minute, in which every watcher gets exactly one heartbeat (100,000, counted
//       from the clients), next to 100,000 FakeClock timers on the same schedule, each re-armed for
//       the next minute when it fires (one timer per watcher).
//   node esbuild.js && node --expose-gc out/bench/bookmarks.js
import { FakeClock } from '../src/engine/clock';
import { SeededRandom } from '../src/engine/rand';
import { createResource, type OpenedWatch, type Resource } from '../src/engine/apiserver';
import { below, fmtInt, fmtMs, runAsScript, median, timeAsync, timeSync, type BenchRow } from './bench-util';

/** One group of watchers opened at whole virtual seconds. */
interface Group {
  /** First and last+1 second they are opened at. */
  from: number;
  to: number;
  perSecond: number;
}

const minute = 60_000;
const heavy: Group = { from: 0, to: 20, perSecond: 4_935 };
const light: Group = { from: 40, to: 53, perSecond: 100 };
const tiny: Group = { from: 45, to: 46, perSecond: 100 };
/** Spans within each minute, in seconds. */
const emptySpan = [28, 40] as const;
const lightSpan = [40, 52] as const;

function total(groups: Group[]): number {
  return groups.reduce((s, g) => s + (g.to - g.from) * g.perSecond, 0);
}

/** A resource with the groups' watchers opened on schedule, its clock at 60s (minute 1 starts). */
async function openScheduled(groups: Group[], seed: number): Promise<{ r: Resource; clock: FakeClock; watches: OpenedWatch[]; openMs: number }> {
  const clock = new FakeClock(0);
  const r = createResource({ clock, rand: new SeededRandom(seed) });
  r.start();
  await r.waitReady();
  const rv = String(r.etcd.currentRevision());
  const watches: OpenedWatch[] = [];
  let openMs = 0;
  for (let second = 0; second < 60; second++) {
    await r.step(second * 1000 - clock.now());
    for (const g of groups) {
      if (second < g.from || second >= g.to) continue;
      openMs += await timeAsync(async () => {
        for (let i = 0; i < g.perSecond; i++) {
          watches.push(await r.watch({ resourceVersion: rv, allowWatchBookmarks: true, keepEvents: false }));
        }
      });
    }
  }
  // One write: bookmarks carry the RV of the last event, and a watcher only gets bookmarks newer
  // than the RV it started from (cacheWatcher.process).
  await r.step(59_000 - clock.now());
  await r.createPod({ name: 'heartbeat-anchor', namespace: 'bench' });
  await r.step(minute - clock.now());
  return { r, clock, watches, openMs };
}

function received(watches: readonly OpenedWatch[]): number {
  let s = 0;
  for (const w of watches) s += w.client.received;
  return s;
}

/** Steps from the clock's time to `to` (ms), timing it and counting the heartbeats delivered. */
async function span(r: Resource, clock: FakeClock, watches: readonly OpenedWatch[], to: number): Promise<{ ms: number; heartbeats: number }> {
  const before = received(watches);
  const ms = await timeAsync(() => r.step(to - clock.now()));
  return { ms, heartbeats: received(watches) - before };
}

export interface BookmarksOptions {
  /** Minutes measured after the warm-up minute. */
  minutes?: number;
  log?: (line: string) => void;
}

export async function runBookmarks(o: BookmarksOptions = {}): Promise<BenchRow[]> {
  const minutes = o.minutes ?? 15;
  const log = o.log ?? console.log;
  const n = total([heavy, light]);

  // The 100,000-watcher resource, and one with only the light group (same schedule).
  const big = await openScheduled([heavy, light], 11);
  const small = await openScheduled([light], 11);
  const tinyR = await openScheduled([tiny], 11);

  // Baseline: one FakeClock timer per watcher, on the same schedule, re-armed when it fires.
  const tclock = new FakeClock(0);
  let fired = 0;
  const fire = (): void => {
    fired++;
    tclock.afterFunc(minute, fire);
  };
  for (const g of [heavy, light]) {
    for (let second = g.from; second < g.to; second++) {
      tclock.advanceTo(second * 1000);
      for (let i = 0; i < g.perSecond; i++) tclock.afterFunc(minute, fire);
    }
  }
  tclock.advanceTo(minute);

  const perMinute: number[] = [];
  const baseMinute: number[] = [];
  const emptyMs: number[] = [];
  const lightMs: number[] = [];
  const smallLightMs: number[] = [];
  const tinyEmptyMs: number[] = [];
  const heartbeats: number[] = [];
  const baseFired: number[] = [];
  let lightHeartbeats = 0;
  let emptyHeartbeats = 0;
  // Two spans measured back to back, in the other order every other minute, so neither always
  // runs on the caches the other one warmed.
  const pair = async (
    first: boolean,
    x: () => Promise<{ ms: number; heartbeats: number }>,
    y: () => Promise<{ ms: number; heartbeats: number }>,
  ): Promise<[{ ms: number; heartbeats: number }, { ms: number; heartbeats: number }]> => {
    if (first) {
      const sx = await x();
      return [sx, await y()];
    }
    const sy = await y();
    return [await x(), sy];
  };
  for (let m = 1; m <= minutes + 1; m++) {
    const start = m * minute;
    const at = (s: number): number => start + s * 1000;
    // The big resource's whole minute is timed, in four spans: (b) adds them up.
    const heavySpan = await span(big.r, big.clock, big.watches, at(emptySpan[0]));
    await small.r.step(at(lightSpan[0]) - small.clock.now());
    await tinyR.r.step(at(emptySpan[0]) - tinyR.clock.now());
    const [empty, te] = await pair(
      m % 2 === 0,
      () => span(big.r, big.clock, big.watches, at(emptySpan[1])),
      () => span(tinyR.r, tinyR.clock, tinyR.watches, at(emptySpan[1])),
    );
    const [light, sl] = await pair(
      m % 2 === 1,
      () => span(big.r, big.clock, big.watches, at(lightSpan[1])),
      () => span(small.r, small.clock, small.watches, at(lightSpan[1])),
    );
    const rest = await span(big.r, big.clock, big.watches, start + minute);
    await small.r.step(start + minute - small.clock.now());
    await tinyR.r.step(start + minute - tinyR.clock.now());
    const f0 = fired;
    const bms = timeSync(() => tclock.advanceTo(start + minute));
    if (m > 1) {
      perMinute.push(heavySpan.ms + empty.ms + light.ms + rest.ms);
      heartbeats.push(heavySpan.heartbeats + empty.heartbeats + light.heartbeats + rest.heartbeats);
      emptyMs.push(empty.ms);
      emptyHeartbeats = empty.heartbeats;
      lightMs.push(light.ms);
      lightHeartbeats = light.heartbeats;
      baseMinute.push(bms);
      baseFired.push(fired - f0);
      smallLightMs.push(sl.ms);
      tinyEmptyMs.push(te.ms);
    }
  }
  big.r.stop();
  small.r.stop();
  tinyR.r.stop();

  // The table's ratios are of the medians; the medians of the per-minute ratios (measurements
  // taken close together, so a burst of load spoils one pair, not the comparison) are logged too.
  const pairA0 = median(emptyMs.map((x, i) => x / tinyEmptyMs[i]));
  const pairA1 = median(lightMs.map((x, i) => x / emptyMs[i]));
  const pairA2 = median(lightMs.map((x, i) => x / smallLightMs[i]));
  const pairB = median(perMinute.map((x, i) => x / baseMinute[i]));
  const exact = heartbeats.every(h => h === n);
  const lightTicks = (lightSpan[1] - lightSpan[0]) / 1.125; // mean tick period: 1s + 25% jitter / 2
  const e = median(emptyMs);
  const l = median(lightMs);
  const sl = median(smallLightMs);
  const te = median(tinyEmptyMs);
  const pm = median(perMinute);
  const bm = median(baseMinute);
  log(`bookmarks: ${fmtInt(n)} watchers opened in ${fmtMs(big.openMs)} (allowWatchBookmarks, fast clients); median of ${minutes} virtual minutes after 1 warm-up`);
  log(`  heartbeats per minute: ${heartbeats.map(fmtInt).join(', ')}${exact ? ` (exactly one per watcher)` : `  <-- expected ${fmtInt(n)} each`}`);
  log(`  (a) ${lightSpan[1] - lightSpan[0]}s of ticks (~${lightTicks.toFixed(0)} ticks): nothing due ${fmtMs(e)} (${emptyHeartbeats} heartbeats), ~100 due per tick ${fmtMs(l)} (${fmtInt(lightHeartbeats)} heartbeats); ` +
    `same ~100 due with only ${fmtInt(total([light]))} registered: ${fmtMs(sl)}; nothing due with only ${fmtInt(total([tiny]))} registered: ${fmtMs(te)}`);
  log(`  medians of the per-minute ratios: (a) ${pairA0.toFixed(2)}, ${pairA2.toFixed(2)} and ${pairA1.toFixed(2)}, (b) ${pairB.toFixed(2)}`);
  log(`  (b) one virtual minute: ${fmtMs(pm)} (${fmtMs(pm / n)} per heartbeat) vs ${fmtInt(n)} FakeClock timers: ${fmtMs(bm)} (${baseFired.map(fmtInt).join(', ')} fired)`);
  return [
    {
      // The issue's goal: with 100,000 registered, an idle tick costs what it costs with 100.
      bench: 'bookmarks',
      measure: `(a) tick, nothing due: ${fmtInt(n)} / ${fmtInt(total([tiny]))} registered`,
      figure: fmtMs(e / lightTicks),
      baseline: fmtMs(te / lightTicks),
      ratio: e / te,
      goal: below(e / te, 1.5),
      note: 'an idle tick does not look at idle watchers',
    },
    {
      bench: 'bookmarks',
      measure: `(a) tick, ~100 due: ${fmtInt(n)} / ${fmtInt(total([light]))} registered`,
      figure: fmtMs(l / lightTicks),
      baseline: fmtMs(sl / lightTicks),
      ratio: l / sl,
      goal: below(l / sl, 1.5),
      note: 'O(due), not O(registered)',
    },
    {
      bench: 'bookmarks',
      measure: `(a) tick, ~100 due / nothing due (${fmtInt(n)} registered)`,
      figure: fmtMs(l / lightTicks),
      baseline: fmtMs(e / lightTicks),
      ratio: l / e,
      note: `${fmtInt(lightHeartbeats)} / ${emptyHeartbeats} heartbeats per ${lightSpan[1] - lightSpan[0]}s`,
    },
    {
      bench: 'bookmarks',
      measure: '(b) 1 virtual minute of heartbeats / 1 timer per watcher',
      figure: fmtMs(pm),
      baseline: fmtMs(bm),
      ratio: pm / bm,
      note: `${fmtInt(median(heartbeats))} heartbeats${exact ? ' (1 per watcher)' : ' (NOT 1 per watcher)'}`,
    },
  ];
}

runAsScript('bookmarks', () => runBookmarks());
