// Mirrors Go's unicode/utf8 (DecodeRune, EncodeRune): the byte<->string rules Go's encoders rely on.
// Go strings are bytes; JS strings are UTF-16. A lone surrogate in a JS string stands for bytes that
// are not valid UTF-8, which Go's encoders then treat as utf8.RuneError.

/** U+FFFD, Go's utf8.RuneError. */
export const runeError = 0xfffd;

/**
 * utf8.DecodeRune: the rune at bytes[i] and its width. Any invalid or truncated sequence decodes as
 * (RuneError, 1), exactly like Go (unlike TextDecoder, which replaces a maximal subpart at once).
 */
export function decodeRune(bytes: ArrayLike<number>, i: number): { rune: number; size: number } {
  const n = bytes.length - i;
  if (n < 1) return { rune: runeError, size: 0 };
  const b0 = bytes[i];
  if (b0 < 0x80) return { rune: b0, size: 1 };
  // Second-byte ranges per Go's acceptRanges (no overlongs, no surrogates, <= U+10FFFF).
  let size: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) size = 2;
  else if (b0 >= 0xe0 && b0 <= 0xef) {
    size = 3;
    if (b0 === 0xe0) lo = 0xa0;
    else if (b0 === 0xed) hi = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    size = 4;
    if (b0 === 0xf0) lo = 0x90;
    else if (b0 === 0xf4) hi = 0x8f;
  } else return { rune: runeError, size: 1 };
  if (n < 2 || bytes[i + 1] < lo || bytes[i + 1] > hi) return { rune: runeError, size: 1 };
  for (let k = 2; k < size; k++) {
    if (n <= k || bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return { rune: runeError, size: 1 };
  }
  if (size === 2) return { rune: ((b0 & 0x1f) << 6) | (bytes[i + 1] & 0x3f), size };
  if (size === 3)
    return {
      rune: ((b0 & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f),
      size,
    };
  return {
    rune:
      ((b0 & 0x07) << 18) |
      ((bytes[i + 1] & 0x3f) << 12) |
      ((bytes[i + 2] & 0x3f) << 6) |
      (bytes[i + 3] & 0x3f),
    size,
  };
}

/** Appends the UTF-8 encoding of rune r (a valid scalar value) to out. */
export function appendRune(out: number[], r: number): void {
  if (r < 0x80) out.push(r);
  else if (r < 0x800) out.push(0xc0 | (r >> 6), 0x80 | (r & 0x3f));
  else if (r < 0x10000) out.push(0xe0 | (r >> 12), 0x80 | ((r >> 6) & 0x3f), 0x80 | (r & 0x3f));
  else
    out.push(
      0xf0 | (r >> 18),
      0x80 | ((r >> 12) & 0x3f),
      0x80 | ((r >> 6) & 0x3f),
      0x80 | (r & 0x3f),
    );
}

/** The code points of a JS string; a lone surrogate yields -1 (bytes that are not valid UTF-8). */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
        i++;
        continue;
      }
    }
    out.push(c >= 0xd800 && c <= 0xdfff ? -1 : c);
  }
  return out;
}

/** UTF-8 bytes of a JS string, as Go's []byte(s) would hold it; a lone surrogate becomes EF BF BD. */
export function utf8Bytes(s: string): Uint8Array {
  const out: number[] = [];
  for (const r of codePoints(s)) appendRune(out, r < 0 ? runeError : r);
  return Uint8Array.from(out);
}

/** Decodes bytes to a JS string with Go's rules: each invalid byte becomes one U+FFFD. */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let s = '';
  for (let i = start; i < end;) {
    const { rune, size } = decodeRune(bytes.subarray(0, end), i);
    s += String.fromCodePoint(rune);
    i += size;
  }
  return s;
}
