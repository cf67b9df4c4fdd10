// Mirrors the text format of k8s.io/klog/v2 (klog.go's header, internal/serialize's key/value
// pairs): `I1201 19:07:58.536195    6667 round_trippers.go:553] message`, where a structured
// message is `"Msg" key="Go-quoted" key=42 key=<` with a multi-line value continued on
// tab-indented lines and closed by ` >`. Parsing only: what a line says is the parsers' business.

/** A klog line's header and message. */
export interface KlogLine {
  severity: 'I' | 'W' | 'E' | 'F';
  /** Epoch ms in `year`, UTC (klog prints neither). */
  time: number;
  /** The process id klog prints (one kubectl run, one controller). */
  pid: string;
  /** The Go file that logged it, `round_trippers.go`. */
  file: string;
  message: string;
}

const headerRe =
  /^([IWEF])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6})\s+(\d+) ([^\s\]:]+):(\d+)\] ?(.*)$/s;
/** The start of a header: a line that begins so and fails headerRe breaks the format. */
const headerStartRe = /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d/;

export const klogHeaderExpected =
  'expected a klog header `Lmmdd hh:mm:ss.uuuuuu PID file.go:N] message`';

/**
 * The header of `text` read in `year`: a KlogLine, undefined when the line is not klog's (a
 * stack trace, kubectl's own output), or a reason when it starts like a header and breaks it.
 */
export function parseKlogLine(text: string, year: number): KlogLine | string | undefined {
  const m = headerRe.exec(text);
  if (!m) return headerStartRe.test(text) ? klogHeaderExpected : undefined;
  const [month, day, h, min, s] = [m[2], m[3], m[4], m[5], m[6]].map(Number);
  const time = Date.UTC(year, month - 1, day, h, min, s);
  const date = new Date(time);
  if (
    month < 1 ||
    month > 12 ||
    date.getUTCDate() !== day ||
    date.getUTCMonth() !== month - 1 ||
    h > 23 ||
    min > 59 ||
    s > 59
  )
    return `expected a valid klog time, got ${m[2]}${m[3]} ${m[4]}:${m[5]}:${m[6]} in ${year}`;
  return {
    severity: m[1] as KlogLine['severity'],
    time: time + Number(m[7]) / 1000,
    pid: m[8],
    file: m[9],
    message: m[11],
  };
}

/** A structured message: `"Msg" k=v …` with the values decoded. */
export interface KlogStructured {
  msg: string;
  values: Map<string, string>;
}

/** The result of reading a structured message that may go on over the following lines. */
export type StructuredRead =
  | { kind: 'done'; entry: KlogStructured }
  /** A `key=<` block is open: the entry continues on the next lines. */
  | { kind: 'open' }
  | { kind: 'error'; reason: string };

/** True for a message that is a structured one (it starts with a Go-quoted string). */
export function isStructuredMessage(message: string): boolean {
  return message.startsWith('"');
}

/**
 * Reads a structured message whose continuation lines (tab-indented, closed by ` >`) are joined
 * to it with `\n`. Answers `open` while a `key=<` block has not been closed yet.
 */
export function readStructured(text: string): StructuredRead {
  const msg = readQuoted(text, 0);
  if (typeof msg === 'string') return { kind: 'error', reason: msg };
  const values = new Map<string, string>();
  let i = msg.end;
  while (i < text.length) {
    if (text[i] !== ' ')
      return { kind: 'error', reason: `expected a space before a key=value at column ${i + 1}` };
    i++;
    const eq = text.indexOf('=', i);
    const key = eq < 0 ? '' : text.slice(i, eq);
    // Keys are what the caller passed: controller-runtime writes `worker count=1`.
    if (key === '' || /["\n]/.test(key))
      return { kind: 'error', reason: `expected key=value at column ${i + 1}` };
    i = eq + 1;
    if (text[i] === '"') {
      const v = readQuoted(text, i);
      if (typeof v === 'string') return { kind: 'error', reason: `${key}: ${v}` };
      values.set(key, v.value);
      i = v.end;
    } else if (text[i] === '<' && (i + 1 === text.length || text[i + 1] === '\n')) {
      const block = readBlock(text, i + 1);
      if (block === undefined) return { kind: 'open' };
      if (typeof block === 'string') return { kind: 'error', reason: `${key}=<: ${block}` };
      values.set(key, block.value);
      i = block.end;
    } else {
      let j = i;
      while (j < text.length && text[j] !== ' ' && text[j] !== '\n') j++;
      if (text[j] === '\n')
        return { kind: 'error', reason: `${key}: expected a value on one line, or key=<` };
      values.set(key, text.slice(i, j));
      i = j;
    }
  }
  return { kind: 'done', entry: { msg: msg.value, values } };
}

/**
 * A `<` block from just after the `<`: `\n\tline` … `\n >`. Undefined while it is still open
 * (no closing line yet); a reason when a line in it is neither tab-indented nor the closing one.
 */
function readBlock(
  text: string,
  from: number,
): { value: string; end: number } | string | undefined {
  const lines: string[] = [];
  let i = from;
  for (;;) {
    if (i >= text.length) return undefined;
    // text[i] is the '\n' before the next line.
    const next = text.indexOf('\n', i + 1);
    const line = text.slice(i + 1, next < 0 ? text.length : next);
    if (line.startsWith(' >')) return { value: lines.join('\n'), end: i + 1 + 2 };
    if (!line.startsWith('\t'))
      return `expected a tab-indented line or " >" closing the block, got ${JSON.stringify(line.slice(0, 40))}`;
    lines.push(line.slice(1));
    if (next < 0) return undefined;
    i = next;
  }
}

const simpleEscapes: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
};

const utf8 = new TextDecoder();

/**
 * A Go double-quoted string (strconv.Unquote: `\xNN` and octal `\NNN` are bytes, read as UTF-8
 * together with their neighbours) starting at `from`, or why it is not one.
 */
export function readQuoted(text: string, from: number): { value: string; end: number } | string {
  if (text[from] !== '"') return `expected a quoted string at column ${from + 1}`;
  let out = '';
  let bytes: number[] = [];
  const flushBytes = (): void => {
    if (bytes.length) out += utf8.decode(new Uint8Array(bytes));
    bytes = [];
  };
  let i = from + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      flushBytes();
      return { value: out, end: i + 1 };
    }
    if (c === '\n') break;
    if (c !== '\\') {
      flushBytes();
      out += c;
      i++;
      continue;
    }
    const e = text[i + 1];
    if (e !== undefined && e in simpleEscapes) {
      flushBytes();
      out += simpleEscapes[e];
      i += 2;
      continue;
    }
    const octal = e !== undefined && e >= '0' && e <= '7';
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    const digits = octal ? text.slice(i + 1, i + 4) : text.slice(i + 2, i + 2 + width);
    if (
      octal
        ? !/^[0-7]{3}$/.test(digits)
        : width === 0 || !new RegExp(`^[0-9a-fA-F]{${width}}$`).test(digits)
    )
      return `expected a Go escape sequence at column ${i + 1}, got ${JSON.stringify(text.slice(i, i + 4))}`;
    const n = parseInt(digits, octal ? 8 : 16);
    if (octal || e === 'x') {
      if (n > 0xff) return `expected a byte (octal 377 at most) at column ${i + 1}`;
      bytes.push(n);
      i += 4;
      continue;
    }
    if (n > 0x10ffff) return `expected a Unicode code point at column ${i + 1}`;
    flushBytes();
    out += String.fromCodePoint(n);
    i += 2 + width;
  }
  return `expected a closing quote for the string at column ${from + 1} (the line is cut short?)`;
}

/**
 * The time of a klog line read in `year` (LineFormat.yearlessTime): undefined for a line that is
 * not klog's, or whose date does not exist in that year (0229 outside a leap year).
 */
export function klogTimeIn(text: string, year: number): number | undefined {
  const k = parseKlogLine(text, year);
  return typeof k === 'object' ? k.time : undefined;
}
