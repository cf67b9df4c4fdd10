// Mirrors how k8s.io/klog/v2 writes a structured line (InfoS: `"msg" key="value" key=42`,
// textlogger's KVListFormat): string values quoted as Go's strconv.Quote does, a string with a
// newline as a block (`key=<` then tab-indented lines then ` >`), other values bare. Reads
// such key/value lists and Go quoted strings back for the httplog parser (the header is
// klog-entry.ts's parseKlogLine, which every klog format shares).
import { readQuoted } from './klog-entry';

/** What a key/value list held; `block` names a key whose value continues on the next lines. */
export interface KlogKeyValues {
  values: Map<string, string>;
  /** The key of a `key=<` block left open at the end of the text. */
  block?: string;
  /** Where reading stopped (text.length when every pair was read). */
  end: number;
}

/** Reads ` key=value` pairs from `start`; stops at the first thing that is not one. */
export function parseKlogKeyValues(text: string, start: number): KlogKeyValues {
  const values = new Map<string, string>();
  let i = start;
  const n = text.length;
  for (;;) {
    while (i < n && text.charCodeAt(i) === 32) i++;
    if (i >= n) return { values, end: n };
    const eq = text.indexOf('=', i);
    if (eq <= i) return { values, end: i };
    const key = text.slice(i, eq);
    if (/[\s"]/.test(key)) return { values, end: i };
    let j = eq + 1;
    if (text.charCodeAt(j) === 34 /* " */) {
      const close = closingQuote(text, j);
      if (close < 0) return { values, end: i };
      values.set(key, unquoteGo(text.slice(j, close + 1)) ?? text.slice(j + 1, close));
      i = close + 1;
    } else if (text.charCodeAt(j) === 60 /* < */ && j + 1 === n) {
      return { values, block: key, end: n };
    } else {
      while (j < n && text.charCodeAt(j) !== 32) j++;
      values.set(key, text.slice(eq + 1, j));
      i = j;
    }
  }
}

/** The index of the quote closing the Go string starting at `open`, or -1. */
function closingQuote(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 34) return i;
  }
  return -1;
}

/** strconv.Unquote for a double-quoted Go string (klog-entry.ts's readQuoted); undefined when it is not one. */
export function unquoteGo(s: string): string | undefined {
  const r = readQuoted(s, 0);
  return typeof r === 'object' && r.end === s.length ? r.value : undefined;
}

/** Milliseconds per unit of Go's time.Duration String (`1h2m3.5s`, `45.639079ms`, `812µs`). */
const durationUnits: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  µs: 1e-3,
  μs: 1e-3,
  us: 1e-3,
  ns: 1e-6,
};

/**
 * A Go time.Duration as printed (`2.31ms`, `5m0s`, `1h2m3.5s`, `850µs`; time.ParseDuration's
 * grammar, so `.5s` too), in milliseconds; undefined if it is not one.
 */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const m = /^(-?)((?:\d+(?:\.\d*)?|\.\d+)(?:h|m|s|ms|µs|μs|us|ns))+$/.exec(text);
  if (!m) return undefined;
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(h|ms|m|s|µs|μs|us|ns)/g))
    ms += Number(n) * durationUnits[unit];
  return m[1] === '-' ? -ms : ms;
}
