// Test harness: reads the Prometheus text exposition (0.0.4) that /metrics serves, enough to sum a
// counter's series. No upstream counterpart (client_golang's expfmt parser, cut down to samples).

export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample line (`name{l="v",…} value`); comments and blank lines are skipped. */
export function parseMetrics(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const labelRe = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
    for (let l = labelRe.exec(m[2] ?? ''); l; l = labelRe.exec(m[2] ?? '')) {
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of `name`'s samples whose labels include every one of `match`. */
export function sumMetric(
  samples: readonly MetricSample[],
  name: string,
  match: Record<string, string> = {},
): number {
  let sum = 0;
  for (const s of samples) {
    if (s.name !== name) continue;
    if (Object.entries(match).every(([k, v]) => s.labels[k] === v)) sum += s.value;
  }
  return sum;
}
