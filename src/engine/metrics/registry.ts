// Mirrors k8s.io/component-base/metrics (counter.go, gauge.go, histogram.go, opts.go) and the
// Prometheus text exposition 0.0.4 that client_golang's expfmt writes. Deliberate difference: no
// goroutine-safety or collectors; a metric is a map from label values to a number.

/** component-base stability levels; the HELP text is prefixed with `[LEVEL] `. */
export type StabilityLevel = 'INTERNAL' | 'ALPHA' | 'BETA' | 'STABLE';

export type MetricType = 'counter' | 'gauge' | 'histogram';

export type Labels = Readonly<Record<string, string>>;

export interface MetricOptions {
  /** Default ALPHA, as in component-base (opts.go: an unset level is ALPHA). */
  stabilityLevel?: StabilityLevel;
  /** e.g. '1.36.0': HELP becomes `[ALPHA] (Deprecated since 1.36.0) help` (markDeprecated, then annotateStabilityLevel). */
  deprecatedVersion?: string;
}

/** One cumulative bucket of a histogram series. */
export interface HistogramBucket {
  /** Upper bound; Infinity for the implicit +Inf bucket. */
  le: number;
  /** Cumulative count of observations <= le. */
  count: number;
}

export interface HistogramSnapshot {
  buckets: HistogramBucket[];
  sum: number;
  count: number;
}

/** A counter bound to one label set (client_golang's WithLabelValues result): the cheap hot path. */
export interface CounterChild {
  inc(v?: number): void;
  get(): number;
}

export interface GaugeChild {
  set(v: number): void;
  inc(v?: number): void;
  dec(v?: number): void;
  get(): number;
}

export interface HistogramChild {
  observe(v: number): void;
  snapshot(): HistogramSnapshot;
}

interface HistogramState {
  /** Non-cumulative counts per declared bucket; observations above the last bound only count in `count`. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * Label values -> child, as nested maps keyed by each value in declared label order, so looking a
 * series up never builds a string and values containing any character cannot collide.
 */
abstract class MetricVec<C> {
  readonly labelNames: readonly string[];
  private readonly sortedLabelIdx: number[];
  private root: Map<string, unknown> | C | undefined;
  private readonly order: { values: string[]; child: C }[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    labelNames: readonly string[],
    readonly type: MetricType,
    readonly options: MetricOptions,
  ) {
    this.labelNames = [...labelNames];
    this.sortedLabelIdx = this.labelNames
      .map((_, i) => i)
      .sort((a, b) => cmp(this.labelNames[a], this.labelNames[b]));
  }

  protected abstract newChild(): C;

  // Created lazily: subclasses finish initialising after super() returns.
  private unlabeled(): C {
    if (this.root === undefined) this.root = this.newChild();
    return this.root as C;
  }

  /** The child for `labels`, created on first use (client_golang With). */
  with(labels?: Labels): C {
    const n = this.labelNames.length;
    if (n === 0) {
      if (labels && Object.keys(labels).length) this.badLabels(labels);
      return this.unlabeled();
    }
    if (!labels) return this.badLabels({});
    if (this.root === undefined) this.root = new Map<string, unknown>();
    let m = this.root as Map<string, unknown>;
    for (let i = 0; i < n - 1; i++) {
      const v = labels[this.labelNames[i]];
      let next = m.get(v) as Map<string, unknown> | undefined;
      if (next === undefined) {
        if (typeof v !== 'string') return this.badLabels(labels);
        next = new Map<string, unknown>();
        m.set(v, next);
      }
      m = next;
    }
    const last = labels[this.labelNames[n - 1]];
    let child = m.get(last) as C | undefined;
    if (child === undefined) {
      // Validate only when a series is created: the hot path stays a few map lookups.
      this.checkLabels(labels);
      child = this.newChild();
      m.set(last, child);
      this.order.push({ values: this.labelNames.map((k) => labels[k]), child });
    }
    return child;
  }

  /** The child for `labels` if that series exists. */
  peek(labels?: Labels): C | undefined {
    if (this.labelNames.length === 0) return this.unlabeled();
    let m: unknown = this.root;
    for (const k of this.labelNames) {
      if (!(m instanceof Map)) return undefined;
      m = m.get(labels?.[k]);
    }
    return m === undefined ? undefined : (m as C);
  }

  /** Every series: declared-order label values and the child. */
  series(): { values: string[]; child: C }[] {
    if (this.labelNames.length === 0) return [{ values: [], child: this.unlabeled() }];
    return this.order;
  }

  /** Series sorted like client_golang's MetricSorter: by label values in label-name order. */
  sortedSeries(): { pairs: [string, string][]; child: C }[] {
    const out = this.series().map((s) => ({
      pairs: this.sortedLabelIdx.map((i) => [this.labelNames[i], s.values[i]] as [string, string]),
      child: s.child,
    }));
    out.sort((a, b) => {
      for (let i = 0; i < a.pairs.length; i++) {
        const c = cmp(a.pairs[i][1], b.pairs[i][1]);
        if (c) return c;
      }
      return 0;
    });
    return out;
  }

  /** component-base Reset: drops every labelled series; an unlabelled metric goes back to zero. */
  reset(): void {
    this.root = undefined;
    this.order.length = 0;
  }

  private checkLabels(labels: Labels): void {
    const keys = Object.keys(labels);
    if (
      keys.length !== this.labelNames.length ||
      this.labelNames.some((k) => typeof labels[k] !== 'string')
    ) {
      this.badLabels(labels);
    }
  }

  private badLabels(labels: Labels): never {
    throw new Error(
      `metric ${this.name}: labels {${Object.keys(labels).join(',')}} do not match the declared labels ` +
        `{${this.labelNames.join(',')}} (every declared label needs a string value, and no others)`,
    );
  }
}

export class Counter extends MetricVec<CounterChild> {
  constructor(name: string, help: string, labelNames: readonly string[], options: MetricOptions) {
    super(name, help, labelNames, 'counter', options);
  }

  protected newChild(): CounterChild {
    let value = 0;
    const name = this.name;
    return {
      inc(v = 1) {
        // client_golang panics on a decrease; a counter only goes up.
        if (!(v >= 0))
          throw new Error(`metric ${name}: counter cannot decrease in value (inc by ${v})`);
        value += v;
      },
      get: () => value,
    };
  }

  inc(labels?: Labels, v = 1): void {
    this.with(labels).inc(v);
  }

  /** The current value, 0 for a series never incremented. */
  get(labels?: Labels): number {
    return this.peek(labels)?.get() ?? 0;
  }
}

export class Gauge extends MetricVec<GaugeChild> {
  constructor(name: string, help: string, labelNames: readonly string[], options: MetricOptions) {
    super(name, help, labelNames, 'gauge', options);
  }

  protected newChild(): GaugeChild {
    let value = 0;
    return {
      set(v) {
        value = v;
      },
      inc(v = 1) {
        value += v;
      },
      dec(v = 1) {
        value -= v;
      },
      get: () => value,
    };
  }

  set(labels: Labels | undefined, v: number): void {
    this.with(labels).set(v);
  }

  inc(labels?: Labels, v = 1): void {
    this.with(labels).inc(v);
  }

  dec(labels?: Labels, v = 1): void {
    this.with(labels).dec(v);
  }

  get(labels?: Labels): number {
    return this.peek(labels)?.get() ?? 0;
  }
}

export class Histogram extends MetricVec<HistogramChild> {
  readonly buckets: readonly number[];

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    buckets: readonly number[],
    options: MetricOptions,
  ) {
    // client_golang drops a trailing +Inf (it is implicit) and requires strictly increasing bounds.
    const b = buckets.filter((x, i) => !(x === Infinity && i === buckets.length - 1));
    for (let i = 0; i < b.length; i++) {
      if (Number.isNaN(b[i]) || (i > 0 && !(b[i] > b[i - 1]))) {
        throw new Error(
          `metric ${name}: histogram buckets must be in increasing order, got [${buckets.join(', ')}] at index ${i}`,
        );
      }
    }
    super(name, help, labelNames, 'histogram', options);
    this.buckets = b;
  }

  protected newChild(): HistogramChild {
    const bounds = this.buckets;
    const st: HistogramState = {
      counts: new Array<number>(bounds.length).fill(0),
      sum: 0,
      count: 0,
    };
    return {
      observe(v) {
        // Upper bounds are inclusive (le), as in client_golang.
        let lo = 0;
        let hi = bounds.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (v <= bounds[mid]) hi = mid;
          else lo = mid + 1;
        }
        if (lo < bounds.length) st.counts[lo]++;
        st.sum += v;
        st.count++;
      },
      snapshot() {
        let acc = 0;
        const buckets: HistogramBucket[] = bounds.map((le, i) => ({
          le,
          count: (acc += st.counts[i]),
        }));
        buckets.push({ le: Infinity, count: st.count });
        return { buckets, sum: st.sum, count: st.count };
      },
    };
  }

  observe(labels: Labels | undefined, v: number): void {
    this.with(labels).observe(v);
  }

  /** Cumulative buckets (incl. +Inf), sum and count; undefined for a series never observed. */
  get(labels?: Labels): HistogramSnapshot | undefined {
    return this.peek(labels)?.snapshot();
  }
}

export type Metric = Counter | Gauge | Histogram;

/**
 * A set of metrics shared by the components of one simulated apiserver (component-base's
 * legacyregistry). Registering a name again returns the metric already there, so every
 * component can declare what it records.
 */
export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();

  counter(
    name: string,
    help: string,
    labelNames: readonly string[] = [],
    options: MetricOptions = {},
  ): Counter {
    return this.register(
      name,
      'counter',
      labelNames,
      () => new Counter(name, help, labelNames, options),
    ) as Counter;
  }

  gauge(
    name: string,
    help: string,
    labelNames: readonly string[] = [],
    options: MetricOptions = {},
  ): Gauge {
    return this.register(
      name,
      'gauge',
      labelNames,
      () => new Gauge(name, help, labelNames, options),
    ) as Gauge;
  }

  histogram(
    name: string,
    help: string,
    labelNames: readonly string[],
    buckets: readonly number[],
    options: MetricOptions = {},
  ): Histogram {
    const h = this.register(
      name,
      'histogram',
      labelNames,
      () => new Histogram(name, help, labelNames, buckets, options),
    ) as Histogram;
    const want = new Histogram(name, help, labelNames, buckets, options).buckets;
    if (want.length !== h.buckets.length || want.some((b, i) => b !== h.buckets[i])) {
      throw new Error(
        `metric ${name} is already registered with buckets [${h.buckets.join(', ')}], not [${want.join(', ')}]`,
      );
    }
    return h;
  }

  /** The metric registered under `name`, if any. */
  get(name: string): Metric | undefined {
    return this.metrics.get(name);
  }

  /** Registered names, sorted. */
  names(): string[] {
    return [...this.metrics.keys()].sort(cmp);
  }

  /**
   * Prometheus text exposition 0.0.4, as client_golang writes it: families sorted by name, series
   * sorted by label values, labels sorted by name (`le` last), families without series omitted.
   * `names` limits the output to those families (like testutil.GatherAndCompare's metricNames).
   */
  text(names?: readonly string[]): string {
    const want = names ? new Set(names) : undefined;
    let out = '';
    for (const name of this.names()) {
      if (want && !want.has(name)) continue;
      const m = this.metrics.get(name) as Metric;
      const series = m.sortedSeries() as {
        pairs: [string, string][];
        child: CounterChild | GaugeChild | HistogramChild;
      }[];
      if (series.length === 0) continue;
      out += `# HELP ${name} ${escapeHelp(fullHelp(m))}\n# TYPE ${name} ${m.type}\n`;
      for (const s of series) {
        if (m instanceof Histogram) {
          const snap = (s.child as HistogramChild).snapshot();
          for (const b of snap.buckets) {
            out += `${name}_bucket${labelText(s.pairs, formatFloat(b.le))} ${formatFloat(b.count)}\n`;
          }
          out += `${name}_sum${labelText(s.pairs)} ${formatFloat(snap.sum)}\n`;
          out += `${name}_count${labelText(s.pairs)} ${formatFloat(snap.count)}\n`;
        } else {
          out += `${name}${labelText(s.pairs)} ${formatFloat((s.child as CounterChild).get())}\n`;
        }
      }
    }
    return out;
  }

  /**
   * Every sample as `name{a="x",b="y"}` -> value (labels sorted by name, escaped as in the text
   * format, no braces without labels); histograms as `name_bucket{…,le="…"}`, `name_sum`, `name_count`.
   */
  samples(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const name of this.names()) {
      const m = this.metrics.get(name) as Metric;
      const series = m.sortedSeries() as {
        pairs: [string, string][];
        child: CounterChild | GaugeChild | HistogramChild;
      }[];
      for (const s of series) {
        if (m instanceof Histogram) {
          const snap = (s.child as HistogramChild).snapshot();
          for (const b of snap.buckets)
            out[`${name}_bucket${labelText(s.pairs, formatFloat(b.le))}`] = b.count;
          out[`${name}_sum${labelText(s.pairs)}`] = snap.sum;
          out[`${name}_count${labelText(s.pairs)}`] = snap.count;
        } else {
          out[`${name}${labelText(s.pairs)}`] = (s.child as CounterChild).get();
        }
      }
    }
    return out;
  }

  /** Clears every series of every metric; registrations stay (component-base Registry.Reset). */
  reset(): void {
    for (const m of this.metrics.values()) m.reset();
  }

  private register(
    name: string,
    type: MetricType,
    labelNames: readonly string[],
    make: () => Metric,
  ): Metric {
    const existing = this.metrics.get(name);
    if (existing) {
      if (existing.type !== type || existing.labelNames.join(',') !== labelNames.join(',')) {
        throw new Error(
          `metric ${name} is already registered as a ${existing.type} with labels {${existing.labelNames.join(',')}}; ` +
            `cannot register it as a ${type} with labels {${labelNames.join(',')}}`,
        );
      }
      return existing;
    }
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) {
      throw new Error(
        `invalid metric name ${JSON.stringify(name)}: expected [a-zA-Z_:][a-zA-Z0-9_:]*`,
      );
    }
    for (const l of labelNames) {
      if (
        !/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(l) ||
        l.startsWith('__') ||
        (type === 'histogram' && l === 'le')
      ) {
        throw new Error(
          `metric ${name}: invalid label name ${JSON.stringify(l)}: expected [a-zA-Z_][a-zA-Z0-9_]*, not reserved`,
        );
      }
    }
    if (new Set(labelNames).size !== labelNames.length) {
      throw new Error(`metric ${name}: duplicate label names in {${labelNames.join(',')}}`);
    }
    const m = make();
    this.metrics.set(name, m);
    return m;
  }
}

/** HELP as component-base exposes it: `[ALPHA] (Deprecated since X) help`. */
function fullHelp(m: Metric): string {
  const o = m.options;
  let help = m.help;
  if (o.deprecatedVersion) help = `(Deprecated since ${o.deprecatedVersion}) ${help}`;
  return `[${o.stabilityLevel ?? 'ALPHA'}] ${help}`;
}

function labelText(pairs: [string, string][], le?: string): string {
  if (pairs.length === 0 && le === undefined) return '';
  const parts = pairs.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`);
  if (le !== undefined) parts.push(`le="${le}"`);
  return `{${parts.join(',')}}`;
}

/** Text format: label values escape backslash, double quote and line feed. */
export function escapeLabelValue(v: string): string {
  return v.replace(/[\\"\n]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : '\\n'));
}

/** Text format: HELP escapes backslash and line feed only. */
function escapeHelp(v: string): string {
  return v.replace(/[\\\n]/g, (c) => (c === '\\' ? '\\\\' : '\\n'));
}

/** Go strconv.FormatFloat(v, 'g', -1, 64) as expfmt uses it, with Prometheus' +Inf/-Inf/NaN. */
export function formatFloat(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mant, expStr] = v.toExponential().split('e');
  const exp = Number(expStr);
  // %e when the exponent is < -4 or >= 6 (shortest precision uses 6 for this decision).
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  return String(v);
}

/** Byte-order comparison for ASCII names and values (Go's sort on strings). */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The samples of `now` that differ from `previous` (key order sorted), or undefined when none do: what a periodic scrape records. */
export function changedSamples(
  previous: Readonly<Record<string, number>>,
  now: Readonly<Record<string, number>>,
): Record<string, number> | undefined {
  const changed: Record<string, number> = {};
  let any = false;
  for (const k of Object.keys(now).sort()) {
    if (previous[k] === now[k]) continue;
    changed[k] = now[k];
    any = true;
  }
  return any ? changed : undefined;
}
