// No upstream counterpart as one file: Go's []byte(s) and string(b) at the etcd boundary. etcd keys
// and values are bytes; the KV interface (etcd/kv.ts) carries them as byte strings, one char per
// byte (0–255), so a real etcd's values survive byte for byte and keys sort as etcd sorts them.
// The etcd3 store writes its JSON as UTF-8 bytes and reads them back, as its codec does upstream.

// Any char above 0x7f: only then is there something to encode.
const nonAscii = /[^\x00-\x7f]/; // eslint-disable-line no-control-regex
const encoder = new TextEncoder();
// Not fatal: invalid UTF-8 decodes to U+FFFD, as Go's encoding/json does with a string's bytes.
const decoder = new TextDecoder('utf-8');

/** A JS string as its UTF-8 bytes, one char per byte. ASCII (every Kubernetes key) is unchanged. */
export function utf8ByteString(s: string): string {
  if (!nonAscii.test(s)) return s;
  return bytesToByteString(encoder.encode(s));
}

/** Bytes (one char per byte) read back as UTF-8 text. */
export function fromUtf8ByteString(b: string): string {
  if (!nonAscii.test(b)) return b;
  return decoder.decode(byteStringToBytes(b));
}

/** The byte string of some bytes (what a gRPC client receives). */
export function bytesToByteString(bytes: Uint8Array): string {
  let out = '';
  // In chunks: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 8192)
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/** The bytes of a byte string; a char above 0xff is not a byte (RangeError). */
export function byteStringToBytes(b: string): Uint8Array {
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i);
    if (c > 0xff) throw new RangeError(`not a byte string: char ${i} is U+${c.toString(16)}`);
    out[i] = c;
  }
  return out;
}

/** What the etcd3 store writes for an object: its JSON, as UTF-8 bytes. */
export function encodeStoredObject(obj: unknown): string {
  return utf8ByteString(JSON.stringify(obj));
}
