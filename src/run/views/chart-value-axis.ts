// A chart's value axis: round steps from the lowest to the highest value, each tick labelled by
// the chart's own formatter. No upstream counterpart. Shared by the webview's charts and its tests.

export interface ValueAxisSpec {
  /** Every value drawn (series points and markers). */
  values: readonly number[];
  /** Lowest value on the axis (0 or the lowest value, whichever is lower, unless given). */
  yMin?: number;
  /** The values are counts: axis steps are whole numbers. */
  integer?: boolean;
  /**
   * The least span the axis covers, in the values' unit: a flat series (every age 0 ms) still gets
   * an axis a person reads (0 s, 0.5 s, 1 s for ms, not 0 s, 0 s, 0 s).
   */
  minRange?: number;
}

export interface ValueAxis {
  min: number;
  max: number;
  step: number;
  /** The ticks from min to max, with their labels. */
  ticks: Array<{ value: number; label: string }>;
}

/** Round axis steps: 1, 2, 5 × 10^n. */
function niceStep(range: number, ticks: number): number {
  const raw = range / Math.max(1, ticks);
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** The next round step above `step`: 1 -> 2 -> 5 -> 10. */
function nextStep(step: number): number {
  const p = 10 ** Math.floor(Math.log10(step));
  const m = Math.round(step / p);
  return (m < 2 ? 2 : m < 5 ? 5 : 10) * p;
}

/**
 * The axis for `spec`'s values, each tick labelled by `format`: about four round steps, at least
 * `minRange` from bottom to top, and a larger step while two labels would read the same (a step
 * finer than the formatter's precision labels ticks with values they do not have).
 */
export function chartValueAxis(spec: ValueAxisSpec, format: (v: number) => string): ValueAxis {
  const low = spec.yMin ?? Math.min(0, ...spec.values);
  const high = Math.max(low + Math.max(spec.minRange ?? 1, Number.MIN_VALUE), ...spec.values);
  let step = niceStep(high - low, 4);
  if (spec.integer) step = Math.max(1, step);
  for (;;) {
    const min = Math.floor(low / step) * step;
    const max = Math.max(min + step, Math.ceil(high / step) * step);
    const ticks: ValueAxis['ticks'] = [];
    // Counted, not summed: adding a fractional step again and again drifts off the round values.
    for (let i = 0; min + i * step <= max + step / 2; i++) {
      const value = Number((min + i * step).toPrecision(12));
      ticks.push({ value, label: format(value) });
    }
    if (new Set(ticks.map((t) => t.label)).size === ticks.length || !Number.isFinite(step))
      return { min, max, step, ticks };
    step = nextStep(step);
  }
}

/** A duration in ms as the Watch cache tab writes it: `0.5 s`, `12 s`. */
export function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
