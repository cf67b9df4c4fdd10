// Mirrors k8s.io/apimachinery pkg/runtime/serializer/protobuf/protobuf.go (Decode: the `k8s\0`
// prefix, the runtime.Unknown envelope, copyKindDefaults) and the gogo-generated Unmarshal of
// k8s.io/api's messages (release-1.36): a protobuf request body read, through protobufjs' Reader
// and the field table of protobuf-messages.ts, as the JSON object the same body would be in JSON
// (encoding/json over the Go types: omitempty, pointers, inline structs, Time, IntOrString, Quantity,
// bytes as base64). Deliberate differences: a field number the table does not know is an error
// (gogo skips it), so nothing a client sent is silently dropped; a Quantity is checked against
// ParseQuantity's pattern but kept as sent (not canonicalised; clients send canonical strings).
import { Reader } from 'protobufjs/minimal';
import { setOwn } from '../engine/http-face';
import { protobufKinds, protobufMessages } from './protobuf-messages';

/** protobuf.go's serializer prefix: `k8s` and a zero byte. */
const protoEncodingPrefix = [0x6b, 0x38, 0x73, 0x00];

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/**
 * A body the protobuf serializer could not decode. gvk is the kind Decode returned with the error
 * (undefined when the envelope itself failed), which transformDecodeError puts in its message.
 */
export class ProtobufDecodeError extends Error {
  constructor(
    message: string,
    readonly gvk?: GroupVersionKind,
  ) {
    super(message);
  }
}

/** Whether a kind's protobuf bodies are decoded here (negotiation refuses the others with a 415). */
export function hasProtobufMessage(gvk: GroupVersionKind): boolean {
  return Object.hasOwn(protobufKinds, `${gvk.group}/${gvk.version}/${gvk.kind}`);
}

// The envelope's own messages (k8s.io/apimachinery pkg/runtime/generated.proto).
const envelopeMessages: Readonly<Record<string, string>> = {
  Unknown: `1 typeMeta TypeMeta e; 2 raw bytes e; 3 contentEncoding string e; 4 contentType string e`,
  TypeMeta: `1 apiVersion string; 2 kind string`,
};

export interface FieldSpec {
  num: number;
  json: string;
  goName: string;
  /** Scalar or message name, without `[]` or `map<…>`. */
  base: string;
  repeated: boolean;
  map: boolean;
  pointer: boolean;
  emitEmpty: boolean;
  omitZero: boolean;
  inline: boolean;
}

export interface MessageSpec {
  name: string;
  fields: FieldSpec[];
  byNumber: Map<number, FieldSpec>;
}

const scalars = new Set(['string', 'bool', 'int32', 'int64', 'bytes']);

/** Messages gogo decodes through another message's generated code (errors name that one). */
const errorNames: Readonly<Record<string, string>> = { Time: 'Timestamp', MicroTime: 'Timestamp' };

function parseMessage(name: string, text: string): MessageSpec {
  const fields: FieldSpec[] = [];
  for (const part of text.split(';')) {
    const [num, json, type, ...rest] = part.trim().split(/\s+/);
    const flags = rest.find((t) => /^[a-z]+$/.test(t)) ?? '';
    const mapType = /^map<string,(\w+)>$/.exec(type);
    const repeated = type.startsWith('[]');
    const base = mapType ? mapType[1] : repeated ? type.slice(2) : type;
    const inline = flags.includes('i');
    const goName =
      rest.find((t) => /^[A-Z]/.test(t)) ??
      (inline ? base : json.charAt(0).toUpperCase() + json.slice(1));
    fields.push({
      num: Number(num),
      json: inline ? '' : json,
      goName,
      base,
      repeated,
      map: mapType !== null,
      pointer: flags.includes('p'),
      emitEmpty: flags.includes('e'),
      omitZero: flags.includes('z'),
      inline,
    });
  }
  return {
    name: errorNames[name] ?? name.replace(/^\w+_/, ''),
    fields,
    byNumber: new Map(fields.map((f) => [f.num, f])),
  };
}

const parsed = new Map<string, MessageSpec>();
function message(name: string): MessageSpec {
  let m = parsed.get(name);
  if (!m) {
    const text = protobufMessages[name] ?? envelopeMessages[name];
    if (text === undefined) throw new Error(`protobuf message ${name} is not in the table`);
    m = parseMessage(name, text);
    parsed.set(name, m);
  }
  return m;
}

/** Every message of the table and the envelope, parsed (for the tests: protobufjs Types of them). */
export function protobufMessageSpecs(): ReadonlyMap<string, MessageSpec> {
  for (const name of [...Object.keys(protobufMessages), ...Object.keys(envelopeMessages)])
    message(name);
  return parsed;
}

const varintTypes = new Set(['bool', 'int32', 'int64']);

// A field's wire type as gogo writes it: varints for bool and integers, length-delimited otherwise.
function wireType(f: FieldSpec): number {
  return !f.map && varintTypes.has(f.base) ? 0 : 2;
}

function readScalar(r: Reader, base: string): unknown {
  switch (base) {
    case 'string':
      return r.string();
    case 'bool':
      return r.bool();
    case 'int32':
      return r.int32();
    case 'int64': {
      // A Long when the long package is loaded, else already a number.
      const v: unknown = r.int64();
      return typeof v === 'number' ? v : (v as { toNumber(): number }).toNumber();
    }
    default:
      return r.bytes();
  }
}

/** What one message's bytes carried, per field number (repeated and map fields accumulate). */
type FieldValues = Map<number, unknown>;

function readFields(bytes: Uint8Array, spec: MessageSpec): FieldValues {
  const r = Reader.create(bytes);
  const values: FieldValues = new Map();
  while (r.pos < r.len) {
    const tag = r.uint32();
    const num = tag >>> 3;
    const wire = tag & 7;
    if (wire === 4) throw new Error(`proto: ${spec.name}: wiretype end group for non-group`);
    if (num <= 0) throw new Error(`proto: ${spec.name}: illegal tag ${num} (wire type ${wire})`);
    const f = spec.byNumber.get(num);
    if (!f) throw new Error(`proto: ${spec.name}: unknown field ${num} (wire type ${wire})`);
    const packed = f.repeated && varintTypes.has(f.base) && wire === 2;
    if (wire !== wireType(f) && !packed)
      throw new Error(`proto: wrong wireType = ${wire} for field ${f.goName}`);
    if (f.map) {
      const entries = (values.get(num) as Map<string, unknown> | undefined) ?? new Map();
      const [k, v] = readMapEntry(r.bytes(), f.base, `${spec.name}.${f.json}`);
      entries.set(k, v);
      values.set(num, entries);
    } else if (f.repeated) {
      const list = (values.get(num) as unknown[] | undefined) ?? [];
      if (packed) {
        const inner = Reader.create(r.bytes());
        while (inner.pos < inner.len) list.push(readScalar(inner, f.base));
      } else list.push(readScalar(r, scalars.has(f.base) ? f.base : 'bytes'));
      values.set(num, list);
    } else if (scalars.has(f.base) && f.base !== 'bytes') values.set(num, readScalar(r, f.base));
    else {
      // A message field seen twice merges, as gogo's Unmarshal into the same struct does.
      const b = r.bytes();
      const prev = values.get(num) as Uint8Array | undefined;
      values.set(num, prev && !scalars.has(f.base) ? Buffer.concat([prev, b]) : b);
    }
  }
  return values;
}

const mapKey: FieldSpec = {
  num: 1,
  json: 'key',
  goName: 'Key',
  base: 'string',
  repeated: false,
  map: false,
  pointer: false,
  emitEmpty: false,
  omitZero: false,
  inline: false,
};

// A map entry: key = 1, value = 2 (gogo's generated map decoding; both default to zero).
function readMapEntry(bytes: Uint8Array, valueType: string, mapName: string): [string, unknown] {
  const value: FieldSpec = { ...mapKey, num: 2, json: 'value', goName: 'Value', base: valueType };
  const spec: MessageSpec = {
    // Errors name the map (`ConfigMap.data`): an entry has no message name of its own.
    name: mapName,
    fields: [mapKey, value],
    byNumber: new Map([
      [1, mapKey],
      [2, value],
    ]),
  };
  const values = readFields(bytes, spec);
  const key = (values.get(1) as string | undefined) ?? '';
  const raw = values.get(2);
  // An entry without a value holds the zero value (a message's: undefined here).
  return [key, scalars.has(valueType) ? (raw ?? zeroScalar(valueType)) : raw];
}

function zeroScalar(base: string): unknown {
  return base === 'string' ? '' : base === 'bool' ? false : base === 'bytes' ? new Uint8Array() : 0;
}

/** A scalar's JSON form ([]byte is base64, as encoding/json writes it). */
function scalarJSON(base: string, v: unknown): unknown {
  return base === 'bytes' ? Buffer.from(v as Uint8Array).toString('base64') : v;
}

// ParseQuantity's ErrFormatWrong, and the pattern behind it (k8s.io/apimachinery api/resource).
const quantityPattern = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const errFormatWrong = `quantities must match the regular expression '${quantityPattern.source}'`;

/** Unix seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
const minRFC3339Seconds = -62135596800;
const maxRFC3339Seconds = 253402300799;

/** Go's time.Time formatted as RFC3339 (seconds) or RFC3339Micro, in UTC. */
function formatTime(seconds: number, micros: number | undefined): string {
  // RFC3339 has four-digit years; Go would write others, this server refuses them (0001-9999).
  if (seconds < minRFC3339Seconds || seconds > maxRFC3339Seconds)
    throw new Error(`proto: Timestamp: seconds ${seconds} is outside years 0001 to 9999`);
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micros === undefined ? `${iso}Z` : `${iso}.${String(micros).padStart(6, '0')}Z`;
}

/**
 * The JSON value of a message with its own MarshalJSON (Time, MicroTime, IntOrString, Quantity,
 * RawExtension, FieldsV1), or undefined for an ordinary message. bytes undefined: the zero value.
 */
function specialJSON(base: string, bytes: Uint8Array | undefined): { value: unknown } | undefined {
  switch (base) {
    case 'Time':
    case 'MicroTime': {
      // Time.Unmarshal: no bytes is the zero time (null); Time keeps seconds, MicroTime micros.
      if (!bytes || bytes.length === 0) return { value: null };
      const v = readFields(bytes, message(base));
      const seconds = (v.get(1) as number | undefined) ?? 0;
      const nanos = (v.get(2) as number | undefined) ?? 0;
      const micros = base === 'Time' ? undefined : Math.trunc(nanos / 1000);
      // time.Unix at 0001-01-01T00:00:00Z is Go's zero time, which MarshalJSON writes as null.
      if (seconds === minRFC3339Seconds && !micros) return { value: null };
      return { value: formatTime(seconds, micros) };
    }
    case 'IntOrString': {
      const v = bytes ? readFields(bytes, message(base)) : new Map();
      return { value: v.get(1) === 1 ? ((v.get(3) as string | undefined) ?? '') : (v.get(2) ?? 0) };
    }
    case 'Quantity': {
      // Quantity.Unmarshal parses only a string it was sent; without one it stays zero.
      const s = bytes ? readFields(bytes, message(base)).get(1) : undefined;
      if (typeof s !== 'string') return { value: '0' };
      if (!quantityPattern.test(s)) throw new Error(errFormatWrong);
      return { value: s };
    }
    case 'RawExtension':
    case 'FieldsV1': {
      // Their MarshalJSON writes Raw as it is: JSON text, or null when there is none.
      const raw = bytes ? readFields(bytes, message(base)).get(1) : undefined;
      if (!(raw instanceof Uint8Array)) return { value: null };
      try {
        return { value: JSON.parse(new TextDecoder().decode(raw)) as unknown };
      } catch (e) {
        throw new Error(`proto: ${base}: raw is not JSON: ${(e as Error).message}`);
      }
    }
    default:
      return undefined;
  }
}

/** A message's bytes (undefined: its zero value) as encoding/json writes the Go struct. */
function messageJSON(name: string, bytes: Uint8Array | undefined): unknown {
  const special = specialJSON(name, bytes);
  if (special) return special.value;
  const spec = message(name);
  const values = bytes ? readFields(bytes, spec) : new Map<number, unknown>();
  const out: Record<string, unknown> = {};
  for (const f of spec.fields) {
    const present = values.has(f.num);
    const v = values.get(f.num);
    if (f.inline) {
      Object.assign(out, messageJSON(f.base, v as Uint8Array | undefined));
      continue;
    }
    const isMessage = !scalars.has(f.base);
    if (f.map || f.repeated) {
      const empty =
        !present || (f.map ? (v as Map<string, unknown>).size : (v as unknown[]).length) === 0;
      if (empty) {
        if (f.emitEmpty) out[f.json] = null;
        continue;
      }
      if (f.map) {
        const obj: Record<string, unknown> = {};
        for (const k of [...(v as Map<string, unknown>).keys()].sort()) {
          const e = (v as Map<string, unknown>).get(k);
          // A key from the client (`__proto__` too) is data: an own property, never a prototype.
          setOwn(
            obj,
            k,
            isMessage ? messageJSON(f.base, e as Uint8Array | undefined) : scalarJSON(f.base, e),
          );
        }
        out[f.json] = obj;
      } else
        out[f.json] = (v as unknown[]).map((e) =>
          isMessage ? messageJSON(f.base, e as Uint8Array) : scalarJSON(f.base, e),
        );
      continue;
    }
    if (f.pointer) {
      if (present)
        out[f.json] = isMessage ? messageJSON(f.base, v as Uint8Array) : scalarJSON(f.base, v);
      else if (f.emitEmpty) out[f.json] = null;
      continue;
    }
    if (isMessage) {
      // encoding/json never omits a struct for omitempty; omitzero does when it is zero.
      const zero = !present || (v as Uint8Array).length === 0;
      if (!(f.omitZero && zero)) out[f.json] = messageJSON(f.base, v as Uint8Array | undefined);
      continue;
    }
    const value = present ? v : zeroScalar(f.base);
    const zero =
      f.base === 'bytes' ? (value as Uint8Array).length === 0 : value === zeroScalar(f.base);
    if (zero && !f.emitEmpty) continue;
    out[f.json] = f.base === 'bytes' && zero ? null : scalarJSON(f.base, value);
  }
  return out;
}

// gogo's errors for bytes that end early or a varint longer than 64 bits, in place of protobufjs'.
function gogoError(e: unknown): Error {
  if (e instanceof RangeError && e.message.startsWith('index out of range'))
    return new Error('unexpected EOF');
  const message = (e as Error).message;
  if (message === 'invalid varint encoding') return new Error('proto: integer overflow');
  return e as Error;
}

// schema.ParseGroupVersion for the envelope's apiVersion (an unparsable one has no version).
function parseGroupVersion(gv: string): { group: string; version: string } {
  const parts = gv.split('/');
  if (gv === '' || gv === '/' || parts.length > 2) return { group: '', version: '' };
  return parts.length === 1 ? { group: '', version: gv } : { group: parts[0], version: parts[1] };
}

/**
 * The object a `application/vnd.kubernetes.protobuf` body encodes, as JSON would carry it: kind
 * and apiVersion from the envelope's TypeMeta (defaulted from the endpoint's kind, as
 * copyKindDefaults does), then the message's fields. A kind the table does not cover is returned
 * with no fields, for the caller's kind check to refuse. `messageOf` names the message of a kind
 * outside the table (metav1's DeleteOptions, registered in every group version). Throws
 * ProtobufDecodeError.
 */
export function protobufBodyToObject(
  body: Uint8Array,
  defaultGVK: GroupVersionKind,
  messageOf: (gvk: GroupVersionKind) => string | undefined = () => undefined,
): Record<string, unknown> {
  if (body.length === 0) throw new ProtobufDecodeError('empty data');
  if (body.length < protoEncodingPrefix.length || protoEncodingPrefix.some((b, i) => body[i] !== b))
    throw new ProtobufDecodeError(
      `provided data does not appear to be a protobuf message, expected prefix [${protoEncodingPrefix.join(' ')}]`,
    );
  if (body.length === protoEncodingPrefix.length) throw new ProtobufDecodeError('empty body');

  let raw: Uint8Array;
  const actual: GroupVersionKind = { group: '', version: '', kind: '' };
  try {
    const unknown = readFields(body.subarray(protoEncodingPrefix.length), message('Unknown'));
    raw = (unknown.get(2) as Uint8Array | undefined) ?? new Uint8Array();
    const typeMeta = unknown.get(1) as Uint8Array | undefined;
    const tm = typeMeta ? readFields(typeMeta, message('TypeMeta')) : new Map<number, unknown>();
    Object.assign(actual, parseGroupVersion((tm.get(1) as string | undefined) ?? ''));
    actual.kind = (tm.get(2) as string | undefined) ?? '';
  } catch (e) {
    throw new ProtobufDecodeError(gogoError(e).message);
  }
  // copyKindDefaults, from the request's default and then from the endpoint's type.
  if (actual.kind === '') actual.kind = defaultGVK.kind;
  if (actual.version === '' && defaultGVK.version !== '') {
    actual.group = defaultGVK.group;
    actual.version = defaultGVK.version;
  }
  const apiVersion = actual.group === '' ? actual.version : `${actual.group}/${actual.version}`;
  const object: Record<string, unknown> = { kind: actual.kind, apiVersion };
  const name =
    protobufKinds[`${actual.group}/${actual.version}/${actual.kind}`] ?? messageOf(actual);
  if (name === undefined) return object;
  try {
    Object.assign(object, messageJSON(name, raw));
  } catch (e) {
    throw new ProtobufDecodeError(gogoError(e).message, actual);
  }
  return object;
}
