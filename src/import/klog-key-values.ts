// Mirrors how k8s.io/klog/v2 writes a structured line (InfoS: `"msg" key="value" key=42`,
// textlogger's KVListFormat): string values quoted as Go's strconv.Quote does, a string with a
// newline as a block (`key=<` then tab-indented lines then ` >`), other values bare. Reads
// such key/value lists and Go quoted strings back; the kubectl and httplog parsers share it.

/** A klog header: `I1201 10:00:00.000000       1 httplog.go:134] message`. */
export interface KlogLine {
  severity: 'I' | 'W' | 'E' | 'F';
  /** Epoch ms in the given year, UTC (klog prints neither). */
  time: number;
  pid: string;
  /** `httplog.go:134`. */
  caller: string;
  message: string;
}

const klogRe =
  /^([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?\s+(\d+) ([^\]\s]+)\] ?(.*)$/;

export function parseKlogLine(text: string, year: number): KlogLine | undefined {
  const m = klogRe.exec(text);
  if (!m) return undefined;
  const frac = m[7] ?? '';
  const time =
    Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) +
    (frac === '' ? 0 : Number(frac) / 10 ** (frac.length - 3));
  return {
    severity: m[1] as KlogLine['severity'],
    time,
    pid: m[8],
    caller: m[9],
    message: m[10],
  };
}

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

const simpleEscapes: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/**
 * strconv.Unquote for a double-quoted Go string; undefined when it is not one. A `\xNN` byte
 * (strconv.Quote writes one for invalid UTF-8) becomes U+FFFD unless the bytes form UTF-8.
 */
export function unquoteGo(s: string): string | undefined {
  if (s.length < 2 || s[0] !== '"' || s[s.length - 1] !== '"') return undefined;
  const body = s.slice(1, -1);
  if (!body.includes('\\')) return body.includes('"') ? undefined : body;
  let out = '';
  let bytes: number[] = [];
  const flushBytes = (): void => {
    if (bytes.length) out += Buffer.from(bytes).toString('utf8');
    bytes = [];
  };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '"') return undefined;
    if (ch !== '\\') {
      flushBytes();
      out += ch;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return undefined;
    if (e in simpleEscapes) {
      flushBytes();
      out += simpleEscapes[e];
    } else if (e === 'x' || (e >= '0' && e <= '7')) {
      const hex = e === 'x';
      const digits = hex ? body.slice(i + 1, i + 3) : body.slice(i, i + 3);
      if (!(hex ? /^[0-9a-fA-F]{2}$/ : /^[0-7]{3}$/).test(digits)) return undefined;
      bytes.push(parseInt(digits, hex ? 16 : 8));
      i += hex ? 2 : 2;
    } else if (e === 'u' || e === 'U') {
      const len = e === 'u' ? 4 : 8;
      const digits = body.slice(i + 1, i + 1 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(digits)) return undefined;
      const cp = parseInt(digits, 16);
      if (cp > 0x10ffff) return undefined;
      flushBytes();
      out += String.fromCodePoint(cp);
      i += len;
    } else return undefined;
  }
  flushBytes();
  return out;
}

/** time.Duration.String() (`2.31ms`, `5m0s`, `1h2m3.5s`, `850µs`) in milliseconds. */
export function parseGoDuration(s: string): number | undefined {
  if (s === '0' || s === '0s') return 0;
  const m = /^(-)?((?:\d+(?:\.\d+)?(?:h|m|s|ms|µs|μs|us|ns))+)$/.exec(s);
  if (!m) return undefined;
  const unit: Record<string, number> = {
    h: 3_600_000,
    m: 60_000,
    s: 1000,
    ms: 1,
    µs: 1e-3,
    μs: 1e-3,
    us: 1e-3,
    ns: 1e-6,
  };
  let ms = 0;
  for (const part of m[2].matchAll(/(\d+(?:\.\d+)?)(ms|µs|μs|us|ns|h|m|s)/g))
    ms += Number(part[1]) * unit[part[2]];
  return m[1] ? -ms : ms;
}
