// Mirrors k8s.io/apimachinery pkg/runtime/serializer/protobuf/protobuf.go (Decode: the `k8s\0`
// prefix and the runtime.Unknown envelope) and the generated.proto messages of k8s.io/api core/v1
// ConfigMap and Namespace with meta/v1 ObjectMeta (release-1.36): a protobuf request body read as
// the JSON object it encodes. kubectl's typed commands (`create configmap`, `create namespace`)
// send protobuf. Deliberate difference: only those two kinds are decoded (the others this server
// stores, Pod and custom resources, answer the 415); fields of ObjectMeta a create never sets
// (managedFields, deletion fields) are skipped.
import { setOwn, newBadRequest } from '../engine/http-face';

/** protobuf.go's serializer prefix: `k8s` and a zero byte. */
const protoEncodingPrefix = [0x6b, 0x38, 0x73, 0x00];

/** The kinds whose protobuf bodies are decoded. */
export const protobufBodyKinds: ReadonlySet<string> = new Set(['ConfigMap', 'Namespace']);

interface Field {
  num: number;
  wire: number;
  /** Varint value (wire 0). */
  int: bigint;
  /** Length-delimited bytes (wire 2). */
  bytes: Uint8Array;
}

/** The fields of one protobuf message, in order (unknown wire types are an error, as in gogo). */
function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= buf.length) throw new Error('unexpected EOF');
      const b = buf[i++];
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
      shift += 7n;
      if (shift > 63n) throw new Error('proto: integer overflow');
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const num = key >>> 3;
    const wire = key & 7;
    const f: Field = { num, wire, int: 0n, bytes: new Uint8Array() };
    if (wire === 0) f.int = varint();
    else if (wire === 2) {
      const n = Number(varint());
      if (n < 0 || i + n > buf.length) throw new Error('unexpected EOF');
      f.bytes = buf.subarray(i, i + n);
      i += n;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`proto: illegal wireType ${wire}`);
    if (i > buf.length) throw new Error('unexpected EOF');
    out.push(f);
  }
  return out;
}

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** A map<string, V> field's entries (key = 1, value = 2). */
function mapEntry(b: Uint8Array): [string, Uint8Array] {
  let key = '';
  let value: Uint8Array = new Uint8Array();
  for (const f of fields(b)) {
    if (f.num === 1) key = text(f.bytes);
    else if (f.num === 2) value = f.bytes;
  }
  return [key, value];
}

/** meta/v1 ObjectMeta, as far as a create or update sets it. */
function objectMeta(b: Uint8Array): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  const finalizers: string[] = [];
  const strings: Record<number, string> = {
    1: 'name',
    2: 'generateName',
    3: 'namespace',
    5: 'uid',
    6: 'resourceVersion',
  };
  for (const f of fields(b)) {
    if (strings[f.num] !== undefined && f.wire === 2) {
      const s = text(f.bytes);
      if (s !== '') m[strings[f.num]] = s;
    } else if (f.num === 7 && f.wire === 0 && f.int !== 0n) m.generation = Number(f.int);
    else if (f.num === 11) {
      const [k, v] = mapEntry(f.bytes);
      setOwn(labels, k, text(v));
    } else if (f.num === 12) {
      const [k, v] = mapEntry(f.bytes);
      setOwn(annotations, k, text(v));
    } else if (f.num === 14) finalizers.push(text(f.bytes));
  }
  if (Object.keys(labels).length > 0) m.labels = labels;
  if (Object.keys(annotations).length > 0) m.annotations = annotations;
  if (finalizers.length > 0) m.finalizers = finalizers;
  return m;
}

function configMap(b: Uint8Array, obj: Record<string, unknown>): void {
  const data: Record<string, string> = {};
  const binaryData: Record<string, string> = {};
  for (const f of fields(b)) {
    if (f.num === 1) obj.metadata = objectMeta(f.bytes);
    else if (f.num === 2) {
      const [k, v] = mapEntry(f.bytes);
      setOwn(data, k, text(v));
    } else if (f.num === 3) {
      const [k, v] = mapEntry(f.bytes);
      setOwn(binaryData, k, Buffer.from(v).toString('base64'));
    } else if (f.num === 4 && f.wire === 0) obj.immutable = f.int !== 0n;
  }
  if (Object.keys(data).length > 0) obj.data = data;
  if (Object.keys(binaryData).length > 0) obj.binaryData = binaryData;
}

function namespace(b: Uint8Array, obj: Record<string, unknown>): void {
  for (const f of fields(b)) {
    if (f.num === 1) obj.metadata = objectMeta(f.bytes);
    else if (f.num === 2) {
      const finalizers = fields(f.bytes)
        .filter((s) => s.num === 1)
        .map((s) => text(s.bytes));
      obj.spec = finalizers.length > 0 ? { finalizers } : {};
    } else if (f.num === 3) {
      const phase = fields(f.bytes).find((s) => s.num === 1);
      obj.status = phase ? { phase: text(phase.bytes) } : {};
    }
  }
}

/**
 * The object a `application/vnd.kubernetes.protobuf` body encodes, as JSON would carry it:
 * apiVersion and kind from the envelope's TypeMeta, then the fields. Throws upstream's 400 for a
 * body without the prefix or that does not parse.
 */
export function protobufBodyToObject(body: Uint8Array): Record<string, unknown> {
  if (body.length < protoEncodingPrefix.length || protoEncodingPrefix.some((b, i) => body[i] !== b))
    throw newBadRequest(
      `provided data does not appear to be a protobuf message, expected prefix [${protoEncodingPrefix.join(' ')}]`,
    );
  try {
    let apiVersion = '';
    let kind = '';
    let raw: Uint8Array = new Uint8Array();
    for (const f of fields(body.subarray(protoEncodingPrefix.length))) {
      if (f.num === 1)
        for (const t of fields(f.bytes)) {
          if (t.num === 1) apiVersion = text(t.bytes);
          else if (t.num === 2) kind = text(t.bytes);
        }
      else if (f.num === 2) raw = f.bytes;
    }
    const obj: Record<string, unknown> = { apiVersion, kind };
    if (kind === 'ConfigMap') configMap(raw, obj);
    else if (kind === 'Namespace') namespace(raw, obj);
    return obj;
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
}
