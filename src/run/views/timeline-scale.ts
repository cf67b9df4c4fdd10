// The timeline's scale for a run of a given length: tick marks at round virtual times, and the
// playback speeds that fit it (a 12-minute run and a 2-second one need different speeds; a run
// that happens within one instant has nothing to play). No upstream counterpart. Shared by the
// webview's timeline and its tests.
import type { VirtualMs } from '../run-model';
import { formatVirtualTime } from './watcher-states';

/** How long (real seconds) a whole run takes to play at each offered speed, slowest first. */
const playSeconds = [120, 30, 10, 3];

/** 1, 2 or 5 times a power of ten, the nearest at or below `x` (x > 0). */
function niceBelow(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

/**
 * Playback speeds (virtual ms per real ms) for a run of `durationMs`: round numbers at which the
 * whole run plays in about 2 min, 30 s, 10 s and 3 s, real time (1×) first when the run is short
 * enough to watch at it. Empty for a run of no length.
 */
export function playbackSpeedsFor(durationMs: VirtualMs): number[] {
  if (!(durationMs > 0)) return [];
  const speeds = new Set<number>();
  if (durationMs <= playSeconds[0] * 1000) speeds.add(1);
  for (const s of playSeconds) {
    const v = durationMs / (s * 1000);
    speeds.add(v >= 1 ? niceBelow(v) : Number(niceBelow(v).toPrecision(1)));
  }
  return [...speeds].sort((a, b) => a - b);
}

/** The offered speed nearest to `wanted` (a speed kept from another run), by ratio. */
export function nearestSpeed(speeds: readonly number[], wanted: number): number | undefined {
  let best: number | undefined;
  for (const s of speeds)
    if (best === undefined || Math.abs(Math.log(s / wanted)) < Math.abs(Math.log(best / wanted)))
      best = s;
  return best;
}

/** How a speed reads: "10×", "0.5×". */
export function speedLabel(speed: number): string {
  return `${Number(speed.toPrecision(3)).toLocaleString('en-US')}×`;
}

const tickSteps = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000,
  300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000,
];

/** A virtual time as an axis label, in the unit its step calls for: "500 ms", "1.5 s", "1:30", "2 min". */
export function tickLabel(ms: VirtualMs, stepMs: number): string {
  if (ms === 0) return '0';
  if (stepMs < 1000) return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(3))} s`;
  if (stepMs < 60_000) {
    if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
    const s = Math.round((ms % 60_000) / 1000);
    return `${Math.floor(ms / 60_000)}:${String(s).padStart(2, '0')}`;
  }
  return `${Number((ms / 60_000).toFixed(1))} min`;
}

/** Ticks at round times across [0, durationMs], at most `maxTicks` of them (0 included). */
export function timeTicks(
  durationMs: VirtualMs,
  maxTicks: number,
): Array<{ at: VirtualMs; label: string }> {
  if (!(durationMs > 0) || maxTicks < 2) return [{ at: 0, label: '0' }];
  const step =
    tickSteps.find((s) => durationMs / s <= maxTicks - 1) ??
    Math.ceil(durationMs / (maxTicks - 1) / 3_600_000) * 3_600_000;
  const ticks: Array<{ at: VirtualMs; label: string }> = [];
  for (let at = 0; at <= durationMs + 1e-9; at += step)
    ticks.push({ at, label: tickLabel(at, step) });
  return ticks;
}

/**
 * A chart's time axis over [0, durationMs]: the round ticks of timeTicks, less one too near the
 * end to be read beside it (within half a step), and the run's end labelled with the run's length
 * (`end`): the axis says where it ends, which a last round tick far before it does not.
 */
export function chartTimeTicks(
  durationMs: VirtualMs,
  maxTicks: number,
): Array<{ at: VirtualMs; label: string; end?: true }> {
  if (!(durationMs > 0)) return [{ at: 0, label: '0' }];
  const round = timeTicks(durationMs, maxTicks);
  const step = round.length > 1 ? round[1].at : durationMs;
  return [
    ...round.filter((t) => t.at === 0 || durationMs - t.at >= step / 2),
    { at: durationMs, label: formatVirtualTime(durationMs), end: true },
  ];
}
