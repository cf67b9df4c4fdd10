// No upstream counterpart: a run's progress with its total and the time left, as the CLI's
// progress line and the extension's notification show it. The time left starts from the estimate
// and moves to the rate the run is really going at once it has gone far enough to tell; the
// caller passes the wall time elapsed (no clock here).
import { wallText, type RunEstimate } from './run-estimate';

// Below this fraction (or this much wall time) the run's own rate says little (the engine's code is
// still warming up): the estimate decides.
const trustRateAfterFraction = 0.05;
const trustRateAfterMs = 2000;

/** Wall ms left, from the fraction done and the time elapsed, and the estimate while too early to tell. */
export function remainingMs(fraction: number, elapsedMs: number, estimate: RunEstimate): number {
  if (fraction >= 1) return 0;
  if (fraction >= trustRateAfterFraction && elapsedMs >= trustRateAfterMs)
    return (elapsedMs * (1 - fraction)) / fraction;
  return Math.max(estimate.wallMs - elapsedMs, 0);
}

/** `12 s of about 30 s, 18 s left`: the wall time so far, the total it points to, what is left. */
export function etaText(fraction: number, elapsedMs: number, estimate: RunEstimate): string {
  const left = remainingMs(fraction, elapsedMs, estimate);
  return `${wallText(elapsedMs)} of about ${wallText(elapsedMs + left)}, ${wallText(left)} left`;
}
