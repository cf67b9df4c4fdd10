// Protobuf bytes for the server's tests, encoded field by field as gogo-protobuf writes them: a
// field's tag and length, strings, bools, map entries, and the k8s\0 + runtime.Unknown envelope.
const enc = new TextEncoder();

export function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** A length-delimited field (wire type 2). */
export const bytes = (num: number, b: number[] | Uint8Array): number[] => [
  ...varint((num << 3) | 2),
  ...varint(b.length),
  ...b,
];
export const str = (num: number, s: string): number[] => bytes(num, [...enc.encode(s)]);
export const bool = (num: number, v: boolean): number[] => [...varint(num << 3), v ? 1 : 0];
/** One entry of a map<string, string> field. */
export const entry = (num: number, k: string, v: string): number[] =>
  bytes(num, [...str(1, k), ...str(2, v)]);

/** The body a typed client sends: the `k8s\0` magic, then runtime.Unknown {typeMeta, raw}. */
export const envelope = (
  apiVersion: string,
  kind: string,
  raw: number[],
): Uint8Array<ArrayBuffer> =>
  Uint8Array.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...bytes(1, [...str(1, apiVersion), ...str(2, kind)]),
    ...bytes(2, raw),
  ]);
