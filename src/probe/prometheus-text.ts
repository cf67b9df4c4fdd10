// Mirrors github.com/prometheus/common expfmt/text_parse.go (TextParser) for what a scrape needs:
// the samples of the text format 0.0.4 that kube-apiserver's /metrics serves, each as
// `name{label="value",…}` -> value, labels sorted by name with `le` and `quantile` last, escaped as
// the format escapes them: the keys the engine's own registry gives (metrics/registry.ts samples()),
// so the Metrics tab reads a cluster's scrape as it reads a run's. Timestamps are dropped;
// non-finite values (NaN quantiles, +Inf) cannot be JSON numbers and are counted instead.

export interface ScrapedSamples {
  samples: Record<string, number>;
  /** `# TYPE` of each family that has one. */
  types: Record<string, string>;
  /** Samples whose value was NaN or ±Inf, by key (kept out of `samples`). */
  nonFinite: string[];
}

/** A line that is not the text format: its number and what was expected. */
export class PrometheusTextError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'PrometheusTextError';
  }
}

const nameRe = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const labelNameRe = /^[a-zA-Z_][a-zA-Z0-9_]*/;

function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** Go's strconv.ParseFloat as expfmt uses it (Inf, NaN spelled either way). */
function parseValue(text: string): number | undefined {
  if (/^[+-]?inf$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) && !/^[+-]?0x[0-9a-f]+$/i.test(text))
    return undefined;
  return Number(text);
}

/** The labels of `{…}` starting at `s[0] === '{'`: the pairs and the rest of the line. */
function parseLabels(s: string, line: number): { pairs: [string, string][]; rest: string } {
  const pairs: [string, string][] = [];
  let i = 1;
  for (;;) {
    while (s[i] === ' ' || s[i] === ',') i++;
    if (s[i] === '}') return { pairs, rest: s.slice(i + 1) };
    const m = labelNameRe.exec(s.slice(i));
    if (!m) throw new PrometheusTextError(line, `expected a label name at column ${i + 1}`);
    i += m[0].length;
    while (s[i] === ' ') i++;
    if (s[i] !== '=' || s[i + 1] !== '"')
      throw new PrometheusTextError(line, `expected ="…" after label ${m[0]}`);
    i += 2;
    let value = '';
    for (;;) {
      const c = s[i];
      if (c === undefined)
        throw new PrometheusTextError(line, `unterminated value of label ${m[0]}`);
      i++;
      if (c === '"') break;
      if (c === '\\') {
        const e = s[i++];
        value += e === 'n' ? '\n' : (e ?? '');
      } else value += c;
    }
    pairs.push([m[0], value]);
  }
}

/** Sorted by name, `le` and `quantile` last (as the registry writes its keys). */
function sampleKey(name: string, pairs: [string, string][]): string {
  if (pairs.length === 0) return name;
  const last = (k: string): number => (k === 'le' || k === 'quantile' ? 1 : 0);
  const sorted = [...pairs].sort(([a], [b]) => last(a) - last(b) || (a < b ? -1 : a > b ? 1 : 0));
  return `${name}{${sorted.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`;
}

/** Parses the whole exposition; throws PrometheusTextError on a malformed line. */
export function parsePrometheusText(text: string): ScrapedSamples {
  const out: ScrapedSamples = { samples: {}, types: {}, nonFinite: [] };
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n].replace(/\r$/, '');
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^#\s+TYPE\s+(\S+)\s+(\S+)/.exec(line);
      if (m) out.types[m[1]] = m[2];
      continue;
    }
    const name = nameRe.exec(line);
    if (!name)
      throw new PrometheusTextError(
        n + 1,
        `expected a metric name, got ${JSON.stringify(line.slice(0, 40))}`,
      );
    let rest = line.slice(name[0].length);
    let pairs: [string, string][] = [];
    if (rest.startsWith('{')) ({ pairs, rest } = parseLabels(rest, n + 1));
    const fieldsAfter = rest.trim().split(/\s+/);
    const value = parseValue(fieldsAfter[0] ?? '');
    if (value === undefined)
      throw new PrometheusTextError(
        n + 1,
        `expected a float value after ${name[0]}, got ${JSON.stringify(fieldsAfter[0] ?? '')}`,
      );
    const key = sampleKey(name[0], pairs);
    if (Number.isFinite(value)) out.samples[key] = value;
    else out.nonFinite.push(key);
  }
  return out;
}
