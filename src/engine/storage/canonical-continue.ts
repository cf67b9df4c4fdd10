// No upstream counterpart: a fast path for DecodeContinue (pkg/storage/continue.go) on the one
// shape EncodeContinue writes, {"v":"meta.k8s.io/v1","rv":N,"start":"..."}: base64 decoded to
// bytes and the JSON scanned by hand, allocating only the bytes and the result. It answers only
// where the exact port in continue.ts would succeed with the same result; on anything unusual
// (padding, line breaks, another alphabet, other keys, key order or spacing, surrogate escapes,
// invalid UTF-8, an rv of 0, with leading zeros or beyond 2^53-1, an empty or unclean start key)
// it answers undefined and the exact port decides, errors included.
// test/unit/storage/continue-fuzz.test.ts holds it to that.
import { rawUrlDecodeMap, rawUrlEncoding } from '../encoding/go-base64';
import { decodeRune, runeError, utf8Bytes } from '../encoding/go-utf8';

// 27 bytes, a whole number of 3-byte quanta: every canonical token starts with these 36 symbols.
const tokenHead = rawUrlEncoding.encodeToString(utf8Bytes('{"v":"meta.k8s.io/v1","rv":'));
// What follows the resource version, and how the token ends.
const startKeyOpen: readonly number[] = Array.from(utf8Bytes(',"start":"'));
const objectEnd = 0x7d;

const quote = 0x22;
const backslash = 0x5c;
const slash = 0x2f;
const dot = 0x2e;

/**
 * DecodeContinue(token, keyPrefix) when the token is canonical, else undefined. The resource
 * version is always a number here (|rv| <= 2^53-1); bigints are the exact port's.
 */
export function decodeCanonicalContinue(
  token: string,
  keyPrefix: string,
): { fromKey: string; resourceVersion: number } | undefined {
  if (!token.startsWith(tokenHead)) return undefined;
  const b = decodeSymbols(token, tokenHead.length);
  if (b === undefined) return undefined;
  const n = b.length;

  // rv: -?[1-9][0-9]* within ±(2^53-1). Below 2^53 every step is exact, and a value that reaches
  // 2^53 rounds to at least 2^53 and stays there, so the bound check is exact at any length.
  let p = 0;
  const negative = n > 0 && b[0] === 0x2d;
  if (negative) p++;
  const digitsFrom = p;
  let rv = 0;
  while (p < n && b[p] >= 0x30 && b[p] <= 0x39) rv = rv * 10 + (b[p++] - 0x30);
  const digits = p - digitsFrom;
  if (digits === 0 || b[digitsFrom] === 0x30 || rv > Number.MAX_SAFE_INTEGER) return undefined;

  if (p + startKeyOpen.length > n) return undefined;
  for (let k = 0; k < startKeyOpen.length; k++) if (b[p++] !== startKeyOpen[k]) return undefined;

  // The start key, decoded as Go's unquote would, without its leading '/' (DecodeContinue roots the
  // key and returns cleaned[1:]). Its segments are checked on the way: path.Clean leaves the rooted
  // key unchanged exactly when no segment is empty, "." or "..", the bare "/" aside.
  let start = '';
  let chars = 0;
  let segment = 0;
  let segmentDots = 0;
  for (;;) {
    if (p >= n) return undefined;
    let c = b[p++];
    if (c === quote) break;
    if (c === backslash) {
      if (p >= n) return undefined;
      const e = b[p++];
      c = shortEscape(e);
      if (c < 0) {
        if (e !== 0x75 || p + 4 > n) return undefined;
        c = hex4(b, p);
        p += 4;
        // Unpaired surrogates become U+FFFD upstream, pairs combine: both are the exact port's.
        if (c < 0 || (c >= 0xd800 && c < 0xe000)) return undefined;
      }
    } else if (c >= 0x80) {
      const r = decodeRune(b, p - 1);
      if (r.rune === runeError && r.size === 1) return undefined;
      c = r.rune;
      p += r.size - 1;
    } else if (c < 0x20) return undefined;
    chars++;
    if (c === slash) {
      if (chars === 1) continue;
      if (uncleanSegment(segment, segmentDots)) return undefined;
      segment = 0;
      segmentDots = 0;
    } else {
      segment++;
      if (c === dot) segmentDots++;
    }
    start += c < 0x10000 ? String.fromCharCode(c) : String.fromCodePoint(c);
  }
  // EmptyStartKey, and a last segment that is empty, "." or ".." (the bare "/" is clean).
  if (chars === 0) return undefined;
  if (start !== '' && uncleanSegment(segment, segmentDots)) return undefined;

  if (p + 1 !== n || b[p] !== objectEnd) return undefined;
  return { fromKey: keyPrefix + start, resourceVersion: negative ? -rv : rv };
}

/** A path segment of `length` characters, `dots` of them '.', that path.Clean would change. */
function uncleanSegment(length: number, dots: number): boolean {
  return length === 0 || (length <= 2 && dots === length);
}

/**
 * RawURLEncoding of token[from:] when it holds only the alphabet's symbols, else undefined. As in
 * Go's non-strict decoding, the bits left over in the last symbol are ignored.
 */
function decodeSymbols(token: string, from: number): number[] | undefined {
  const n = token.length;
  // A lone last symbol cannot carry a byte: Go's CorruptInputError.
  if ((n - from) % 4 === 1) return undefined;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = from; i < n; i++) {
    const c = token.charCodeAt(i);
    const v = c < 0x80 ? rawUrlDecodeMap[c] : 0xff;
    if (v === 0xff) return undefined;
    acc = ((acc << 6) | v) & 0xfff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return out;
}

/** The character of a one-letter JSON escape (\" \\ \/ \b \f \n \r \t), or -1. */
function shortEscape(e: number): number {
  switch (e) {
    case 0x22:
    case 0x5c:
    case 0x2f:
      return e;
    case 0x62:
      return 0x08;
    case 0x66:
      return 0x0c;
    case 0x6e:
      return 0x0a;
    case 0x72:
      return 0x0d;
    case 0x74:
      return 0x09;
  }
  return -1;
}

/** The four hex digits at b[p..p+4) as a number, or -1. */
function hex4(b: readonly number[], p: number): number {
  let r = 0;
  for (let k = p; k < p + 4; k++) {
    const c = b[k];
    const d =
      c >= 0x30 && c <= 0x39
        ? c - 0x30
        : c >= 0x61 && c <= 0x66
          ? c - 0x57
          : c >= 0x41 && c <= 0x46
            ? c - 0x37
            : -1;
    if (d < 0) return -1;
    r = r * 16 + d;
  }
  return r;
}
