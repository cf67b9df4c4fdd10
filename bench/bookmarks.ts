// Benchmark: periodic bookmarks (heartbeats) with 100,000 watchers registered (allowWatchBookmarks,
// fast clients), through the public API on virtual time. The cacher keeps watchers in one-second
// buckets and a ~1s jittered timer pops the due ones (watcherBookmarkTimeBuckets).
//
// One resource, whose watchers are registered in three steps, so that each tick is compared with
// the same tick of the same cacher with fewer watchers registered (two resources in one process
// do not time alike: each runs on code and caches the other one shaped). Every watch's next
// heartbeat is 60s after it was opened; within each minute (virtual seconds):
//      100 watchers opened at 46s                            -> 100 due at 46s
//    1,200 more over [40, 53)s but 46s, 100 a second         -> ~100 due per tick over [40, 53)s
//   98,700 more over [0, 20)s, 4,935 a second                -> due over [0, 20)s
//   nothing is due over [28, 40)s (a margin for the ticks' drift, at most 1.25s a minute).
// Phase 1 (100 registered), phase 2 (1,300) and phase 3 (100,000): each is opened in one minute,
// then 2 minutes of warm-up, then `minutes` measured minutes; figures are medians over those (the
// phases run one after the other, so the later ones also run on code warmed for longer). The
// watches ask for a 2-hour timeout, so none ends during the run.
//   (a) O(due): ticks with nothing due (the 12s span [28,40)) with 100,000 registered next to the
//       same span with 100 registered: goal ratio < 1.5. Ticks with ~100 due (the span [40,52)),
//       100,000 next to 1,300 registered: goal ratio < 1.5. And, for information, ~100 due next to
//       nothing due, both with 100,000 registered (the cost of 100 heartbeats against an idle
//       tick: no goal, it grows with the heartbeats delivered, as it should).
//   (b) a whole virtual minute with 100,000 registered, in which every watcher gets exactly one
//       heartbeat (counted from the clients), next to 100,000 FakeClock timers on the same
//       schedule, each re-armed for the next minute when it fires (one timer per watcher),
//       measured in the same minutes.
//   node esbuild.js && node --expose-gc out/bench/bookmarks.js
import { FakeClock } from '../src/engine/clock';
import { SeededRandom } from '../src/engine/rand';
import { createResource, type OpenedWatch, type Resource } from '../src/engine/apiserver';
import {
  below,
  fmtInt,
  fmtMs,
  runAsScript,
  median,
  timeAsync,
  timeSync,
  type BenchRow,
} from './bench-util';

const minute = 60_000;
/** Spans within each minute, in seconds. */
const emptySpan = [28, 40] as const;
const lightSpan = [40, 52] as const;
/** Watchers opened per second of a minute, by phase. */
const phase1 = (s: number): number => (s === 46 ? 100 : 0);
const phase2 = (s: number): number => (s >= 40 && s < 53 && s !== 46 ? 100 : 0);
const phase3 = (s: number): number => (s < 20 ? 4_935 : 0);
/** Measured minutes per phase follow this many warm-up minutes. */
const warmupMinutes = 2;
/** Mean tick period: 1s plus half the 25% jitter. */
const meanTickSeconds = 1.125;

export interface BookmarksOptions {
  /** Measured minutes per phase. */
  minutes?: number;
  log?: (line: string) => void;
}

class Bench {
  readonly clock = new FakeClock(0);
  readonly r: Resource = createResource({ clock: this.clock, rand: new SeededRandom(11) });
  readonly watches: OpenedWatch[] = [];
  /** The RV the next watches start from. */
  rv = '';
  openMs = 0;

  /** Opens the watchers of one minute's schedule, starting at the clock's minute. */
  async open(perSecond: (s: number) => number): Promise<void> {
    const start = Math.floor(this.clock.now() / minute) * minute;
    for (let s = 0; s < 60; s++) {
      const n = perSecond(s);
      if (n === 0) continue;
      await this.to(start + s * 1000);
      this.openMs += await timeAsync(async () => {
        for (let i = 0; i < n; i++) {
          this.watches.push(
            await this.r.watch({
              resourceVersion: this.rv,
              allowWatchBookmarks: true,
              keepEvents: false,
              timeoutSeconds: 7200,
            }),
          );
        }
      });
    }
    // One write after them: bookmarks carry the RV of the last event, and a watcher only gets
    // bookmarks newer than the RV it started from (cacheWatcher.process).
    await this.to(start + 59_000);
    await this.r.createPod({ name: `heartbeat-anchor-${this.watches.length}`, namespace: 'bench' });
    this.rv = String(this.r.etcd.currentRevision());
    await this.to(start + minute);
  }

  /** Steps to `t` (ms), untimed. */
  async to(t: number): Promise<void> {
    if (t > this.clock.now()) await this.r.step(t - this.clock.now());
  }

  /** Steps to `t`, timing it and counting the heartbeats delivered on the way. */
  async span(t: number): Promise<{ ms: number; heartbeats: number }> {
    const before = this.received();
    const ms = await timeAsync(() => this.to(t));
    return { ms, heartbeats: this.received() - before };
  }

  received(): number {
    let s = 0;
    for (const w of this.watches) s += w.client.received;
    return s;
  }
}

export async function runBookmarks(o: BookmarksOptions = {}): Promise<BenchRow[]> {
  const minutes = o.minutes ?? 10;
  const log = o.log ?? console.log;
  const b = new Bench();
  b.r.start();
  await b.r.waitReady();
  b.rv = String(b.r.etcd.currentRevision());

  /** Runs the phase's minutes; `each` measures one minute starting at its argument (ms). */
  const measure = async (
    each: (start: number, measured: boolean) => Promise<void>,
  ): Promise<void> => {
    for (let m = 0; m < warmupMinutes + minutes; m++) {
      const start = Math.floor(b.clock.now() / minute) * minute;
      await each(start, m >= warmupMinutes);
      await b.to(start + minute);
    }
  };

  /** One span of every measured minute of a phase: its times, and the heartbeats in all. */
  const spanEachMinute = async (
    from: number,
    to: number,
  ): Promise<{ ms: number[]; heartbeats: number }> => {
    const out = { ms: [] as number[], heartbeats: 0 };
    await measure(async (start, measured) => {
      await b.to(start + from * 1000);
      const s = await b.span(start + to * 1000);
      if (!measured) return;
      out.ms.push(s.ms);
      out.heartbeats += s.heartbeats;
    });
    return out;
  };

  // Phase 1: 100 registered.
  await b.open(phase1);
  const idle100 = await spanEachMinute(emptySpan[0], emptySpan[1]);

  // Phase 2: 1,300 registered.
  await b.open(phase2);
  const light1300 = await spanEachMinute(lightSpan[0], lightSpan[1]);

  // Phase 3: 100,000 registered; whole minutes timed too, next to one timer per watcher.
  await b.open(phase3);
  const n = b.watches.length;
  // On the same clock times: armed over the minute the watchers were opened in.
  const tclock = new FakeClock(b.clock.now() - minute);
  let fired = 0;
  const fire = (): void => {
    fired++;
    tclock.afterFunc(minute, fire);
  };
  {
    // The same schedule: one timer per watcher, first due a minute after "opening".
    const start = tclock.now();
    for (let s = 0; s < 60; s++) {
      tclock.advanceTo(start + s * 1000);
      const k = phase1(s) + phase2(s) + phase3(s);
      for (let i = 0; i < k; i++) tclock.afterFunc(minute, fire);
    }
    tclock.advanceTo(start + minute);
  }
  const idle100k: number[] = [];
  const light100k: number[] = [];
  const perMinute: number[] = [];
  const heartbeats: number[] = [];
  const baseMinute: number[] = [];
  const baseFired: number[] = [];
  let idle100kHeartbeats = 0;
  let light100kHeartbeats = 0;
  await measure(async (start, measured) => {
    const head = await b.span(start + emptySpan[0] * 1000);
    const idle = await b.span(start + emptySpan[1] * 1000);
    const light = await b.span(start + lightSpan[1] * 1000);
    const rest = await b.span(start + minute);
    const f0 = fired;
    const bms = timeSync(() => tclock.advanceTo(start + minute));
    if (!measured) return;
    idle100k.push(idle.ms);
    light100k.push(light.ms);
    idle100kHeartbeats += idle.heartbeats;
    light100kHeartbeats += light.heartbeats;
    perMinute.push(head.ms + idle.ms + light.ms + rest.ms);
    heartbeats.push(head.heartbeats + idle.heartbeats + light.heartbeats + rest.heartbeats);
    baseMinute.push(bms);
    baseFired.push(fired - f0);
  });
  b.r.stop();

  const ticks = (lightSpan[1] - lightSpan[0]) / meanTickSeconds;
  const i100 = median(idle100.ms);
  const l1300 = median(light1300.ms);
  const i100k = median(idle100k);
  const l100k = median(light100k);
  const pm = median(perMinute);
  const bm = median(baseMinute);
  const exact = heartbeats.every((h) => h === n) && baseFired.every((f) => f === n);
  log(
    `bookmarks: ${fmtInt(n)} watchers (allowWatchBookmarks, fast clients) registered in three steps (100, 1,300, 100,000), opened in ${fmtMs(b.openMs)}; medians of ${minutes} virtual minutes per step after ${warmupMinutes} of warm-up`,
  );
  log(
    `  heartbeats per minute at 100,000: ${heartbeats.map(fmtInt).join(', ')}${exact ? ' (exactly one per watcher)' : `  <-- expected ${fmtInt(n)} each`}`,
  );
  log(
    `  (a) 12s of ticks (~${ticks.toFixed(0)} ticks), nothing due: ${fmtMs(i100k)} with 100,000 registered, ${fmtMs(i100)} with 100 (${idle100kHeartbeats} and ${idle100.heartbeats} heartbeats in all)`,
  );
  log(
    `      ~100 due per tick: ${fmtMs(l100k)} with 100,000 registered, ${fmtMs(l1300)} with 1,300 (${fmtInt(light100kHeartbeats)} and ${fmtInt(light1300.heartbeats)} heartbeats in all)`,
  );
  log(
    `  (b) one virtual minute: ${fmtMs(pm)} (${fmtMs(pm / n)} per heartbeat) vs ${fmtInt(n)} FakeClock timers: ${fmtMs(bm)} (${baseFired.map(fmtInt).join(', ')} fired)`,
  );
  /** A row comparing two 12s spans per tick (goal < 1.5 unless `info`). */
  const tickRow = (
    measure: string,
    ours: number,
    base: number,
    note: string,
    info = false,
  ): BenchRow => ({
    bench: 'bookmarks',
    measure,
    figure: fmtMs(ours / ticks),
    baseline: fmtMs(base / ticks),
    ratio: ours / base,
    ...(info ? {} : { goal: below(ours / base, 1.5) }),
    note,
  });
  return [
    // The issue's goal: with 100,000 registered, an idle tick costs what it costs with 100.
    tickRow(
      '(a) tick, nothing due: 100,000 / 100 registered',
      i100k,
      i100,
      'an idle tick does not look at idle watchers',
    ),
    tickRow(
      '(a) tick, ~100 due: 100,000 / 1,300 registered',
      l100k,
      l1300,
      'O(due), not O(registered)',
    ),
    tickRow(
      '(a) tick, ~100 due / nothing due (100,000 registered)',
      l100k,
      i100k,
      `${fmtInt(light100kHeartbeats / minutes)} / ${idle100kHeartbeats / minutes} heartbeats per 12s`,
      true,
    ),
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
