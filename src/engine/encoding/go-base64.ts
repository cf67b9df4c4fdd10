// Mirrors Go's encoding/base64 RawURLEncoding (decodeQuantum, CorruptInputError), written by hand:
// Node's base64url decoder accepts padding, '+', '/', spaces and bad lengths that Go rejects.
import { utf8Bytes } from './go-utf8';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Byte -> symbol value (0..63), 0xff for a byte outside the URL-safe alphabet. Never written to. */
export const rawUrlDecodeMap = new Uint8Array(256).fill(0xff);
for (let i = 0; i < alphabet.length; i++) rawUrlDecodeMap[alphabet.charCodeAt(i)] = i;

/** Go's base64.CorruptInputError: `offset` is the byte index Go reports. */
export class Base64CorruptInputError extends Error {
  readonly offset: number;
  constructor(offset: number) {
    super(`illegal base64 data at input byte ${offset}`);
    this.name = 'CorruptInputError';
    this.offset = offset;
  }
}

/**
 * One quantum of up to 4 symbols, as Go's decodeQuantum with padChar = NoPadding and strict = false.
 * Returns the next source index and the decoded bytes, or throws at the byte Go names.
 */
function decodeQuantum(out: number[], src: Uint8Array, si: number): number {
  const dbuf = [0, 0, 0, 0];
  let dlen = 4;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) {
      if (j === 0) return si;
      // A single symbol cannot carry a whole byte: Go reports len(src)-1 here (si - j with j = 1).
      if (j === 1) throw new Base64CorruptInputError(si - j);
      dlen = j;
      break;
    }
    const c = src[si];
    si++;
    const v = rawUrlDecodeMap[c];
    if (v !== 0xff) {
      dbuf[j] = v;
      continue;
    }
    // Go skips line breaks anywhere, for MIME-wrapped input.
    if (c === 0x0a || c === 0x0d) {
      j--;
      continue;
    }
    // Anything else, '=' included (the raw encoding has no padding character), is corrupt.
    throw new Base64CorruptInputError(si - 1);
  }
  const val = (dbuf[0] << 18) | (dbuf[1] << 12) | (dbuf[2] << 6) | dbuf[3];
  // Non-strict: leftover bits in the last symbol are ignored, as Go's RawURLEncoding does.
  if (dlen >= 2) out.push((val >> 16) & 0xff);
  if (dlen >= 3) out.push((val >> 8) & 0xff);
  if (dlen === 4) out.push(val & 0xff);
  return si;
}

/** base64.RawURLEncoding.DecodeString(s): the bytes, or a Base64CorruptInputError. */
function decodeString(s: string | Uint8Array): Uint8Array {
  const src = typeof s === 'string' ? utf8Bytes(s) : s;
  const out: number[] = [];
  let si = 0;
  while (si < src.length) si = decodeQuantum(out, src, si);
  return Uint8Array.from(out);
}

/** base64.RawURLEncoding.EncodeToString(b). */
function encodeToString(bytes: Uint8Array): string {
  let s = '';
  let i = 0;
  for (; i + 3 <= bytes.length; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    s +=
      alphabet[(v >> 18) & 63] +
      alphabet[(v >> 12) & 63] +
      alphabet[(v >> 6) & 63] +
      alphabet[v & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = bytes[i] << 16;
    s += alphabet[(v >> 18) & 63] + alphabet[(v >> 12) & 63];
  } else if (rest === 2) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
    s += alphabet[(v >> 18) & 63] + alphabet[(v >> 12) & 63] + alphabet[(v >> 6) & 63];
  }
  return s;
}

/** Go's base64.RawURLEncoding: URL-safe alphabet, no padding, '\r'/'\n' skipped, trailing bits ignored. */
export const rawUrlEncoding = { decodeString, encodeToString } as const;
