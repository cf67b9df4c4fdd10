// Mirrors Go's strconv (ParseUint, ParseInt, Quote) and byte-wise string order (sort.Strings), as the storage layer's messages and orderings depend on them.
// Deliberate difference: JS strings are UTF-16, so a lone surrogate stands in for Go's invalid
// UTF-8 byte and is treated as U+FFFD (what encoding the string as UTF-8 would produce).

const maxUint64 = (1n << 64n) - 1n;

/** strconv.NumError: `strconv.<Func>: parsing "<num>": <err>`. */
export class NumError extends Error {
  constructor(
    readonly func: 'ParseUint' | 'ParseInt',
    readonly num: string,
    readonly err: 'invalid syntax' | 'value out of range',
  ) {
    super(`strconv.${func}: parsing ${quote(num)}: ${err}`);
    this.name = 'NumError';
  }
}

/**
 * strconv.ParseUint(s, 10, bitSize): only ASCII digits (no sign, no spaces, no underscores for an
 * explicit base), leading zeros allowed. Errors are reported left to right exactly as Go does:
 * an overflow is detected before a later bad character.
 */
export function parseUint(s: string, bitSize = 64): bigint {
  if (s.length === 0) throw new NumError('ParseUint', s, 'invalid syntax');
  const maxVal = (1n << BigInt(bitSize)) - 1n;
  // Accumulate in a plain number while it is exact, then switch to bigint.
  let n = 0n;
  let small = 0;
  let useSmall = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) throw new NumError('ParseUint', s, 'invalid syntax');
    const d = c - 0x30;
    if (useSmall) {
      small = small * 10 + d;
      if (small > Number.MAX_SAFE_INTEGER / 10 - 10) {
        n = BigInt(small);
        useSmall = false;
        if (n > maxVal) throw new NumError('ParseUint', s, 'value out of range');
      }
      continue;
    }
    n = n * 10n + BigInt(d);
    if (n > maxVal) throw new NumError('ParseUint', s, 'value out of range');
  }
  if (useSmall) {
    n = BigInt(small);
    if (n > maxVal) throw new NumError('ParseUint', s, 'value out of range');
  }
  return n;
}

/** strconv.ParseInt(s, 10, 64): an optional leading '+' or '-', then ParseUint's digits. */
export function parseInt64(s: string): bigint {
  if (s.length === 0) throw new NumError('ParseInt', s, 'invalid syntax');
  let body = s;
  let neg = false;
  if (s[0] === '+') body = s.slice(1);
  else if (s[0] === '-') {
    neg = true;
    body = s.slice(1);
  }
  let un: bigint;
  try {
    un = parseUint(body, 64);
  } catch (e) {
    if (e instanceof NumError && e.err === 'invalid syntax')
      throw new NumError('ParseInt', s, 'invalid syntax');
    throw new NumError('ParseInt', s, 'value out of range');
  }
  const cutoff = 1n << 63n;
  if (!neg && un >= cutoff) throw new NumError('ParseInt', s, 'value out of range');
  if (neg && un > cutoff) throw new NumError('ParseInt', s, 'value out of range');
  return neg ? -un : un;
}

/** The largest uint64, 18446744073709551615. */
export const maxUint64Value = maxUint64;

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space only.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** unicode.IsPrint of one code point (given as its string). */
export function isPrint(r: string): boolean {
  return printable.test(r);
}
const hex = '0123456789abcdef';

/** strconv.Quote (what fmt's %q prints for a string). */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let r = ch.codePointAt(0) as number;
    if (r >= 0xd800 && r <= 0xdfff) r = 0xfffd; // lone surrogate ~ invalid UTF-8 -> U+FFFD
    if (r === 0x22 || r === 0x5c) {
      out += '\\' + String.fromCodePoint(r);
      continue;
    }
    const c = String.fromCodePoint(r);
    if (printable.test(c)) {
      out += c;
      continue;
    }
    switch (r) {
      case 0x07:
        out += '\\a';
        continue;
      case 0x08:
        out += '\\b';
        continue;
      case 0x0c:
        out += '\\f';
        continue;
      case 0x0a:
        out += '\\n';
        continue;
      case 0x0d:
        out += '\\r';
        continue;
      case 0x09:
        out += '\\t';
        continue;
      case 0x0b:
        out += '\\v';
        continue;
    }
    if (r < 0x20 || r === 0x7f) {
      out += '\\x' + hex[r >> 4] + hex[r & 0xf];
    } else if (r < 0x10000) {
      out += '\\u' + r.toString(16).padStart(4, '0');
    } else {
      out += '\\U' + r.toString(16).padStart(8, '0');
    }
  }
  return out + '"';
}

/**
 * Go compares strings byte by byte (UTF-8). That equals code point order, which differs from JS's
 * UTF-16 order only between surrogate pairs and U+E000..U+FFFF.
 */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** len(s) in Go: the UTF-8 byte length (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
