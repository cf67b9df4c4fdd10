// protobufjs Types built from the field table of src/server/protobuf-messages.ts, and the JSON form
// of an object turned into what those Types encode (Time as seconds, IntOrString as its three
// fields, bytes from base64, inline structs as their own message): what a typed Go client writes.
import * as protobuf from 'protobufjs';
import { protobufKinds } from '../../../src/server/protobuf-messages';
import { protobufMessageSpecs } from '../../../src/server/protobuf-body';

const scalars = new Set(['string', 'bool', 'int32', 'int64', 'bytes']);

/** The proto field name of a table field: its JSON name, or the Go name of an inline struct. */
const protoName = (f: { json: string; goName: string; inline: boolean }): string =>
  f.inline ? f.goName : f.json;

let root: protobuf.Root | undefined;

/** Every table message as a protobufjs Type (packed: repeated integers written packed). */
export function protobufRoot(packed = false): protobuf.Root {
  if (root && !packed) return root;
  const r = new protobuf.Root();
  for (const [name, spec] of protobufMessageSpecs()) {
    const t = new protobuf.Type(name);
    for (const f of spec.fields) {
      if (f.map) t.add(new protobuf.MapField(protoName(f), f.num, 'string', f.base));
      else {
        const field = new protobuf.Field(
          protoName(f),
          f.num,
          f.base,
          f.repeated ? 'repeated' : 'optional',
        );
        if (packed && f.repeated && scalars.has(f.base)) field.setOption('packed', true);
        t.add(field);
      }
    }
    r.add(t);
  }
  r.resolveAll();
  if (!packed) root = r;
  return r;
}

/** A JSON object of message `name` as the plain object protobufjs encodes for that Type. */
export function jsonToProto(name: string, json: unknown): unknown {
  switch (name) {
    case 'Time':
      return { seconds: Date.parse(json as string) / 1000 };
    case 'MicroTime': {
      const ms = Date.parse(json as string);
      const micros = Number(/\.(\d{6})Z$/.exec(json as string)?.[1] ?? 0);
      return { seconds: Math.floor(ms / 1000), nanos: micros * 1000 };
    }
    case 'IntOrString':
      return typeof json === 'string' ? { type: 1, strVal: json } : { type: 0, intVal: json };
    case 'Quantity':
      return { string: json };
    case 'RawExtension':
      return { raw: new TextEncoder().encode(JSON.stringify(json)) };
    case 'FieldsV1':
      return { Raw: new TextEncoder().encode(JSON.stringify(json)) };
  }
  const spec = protobufMessageSpecs().get(name);
  if (!spec) throw new Error(`no message ${name}`);
  const obj = json as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const value = (base: string, v: unknown): unknown =>
    base === 'bytes'
      ? Buffer.from(v as string, 'base64')
      : scalars.has(base)
        ? v
        : jsonToProto(base, v);
  for (const f of spec.fields) {
    if (f.inline) {
      out[f.goName] = jsonToProto(f.base, obj);
      continue;
    }
    const v = obj[f.json];
    if (v === undefined || v === null) continue;
    if (f.map)
      out[f.json] = Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, e]) => [k, value(f.base, e)]),
      );
    else if (f.repeated) out[f.json] = (v as unknown[]).map((e) => value(f.base, e));
    else out[f.json] = value(f.base, v);
  }
  return out;
}

/** The body a typed client sends for a JSON object: `k8s\0` and runtime.Unknown around the message. */
export function encodeBody(json: Record<string, unknown>, packed = false): Uint8Array {
  const apiVersion = json.apiVersion as string;
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const version = apiVersion.split('/').pop() as string;
  const name = protobufKinds[`${group}/${version}/${json.kind as string}`];
  const t = protobufRoot(packed).lookupType(name);
  const raw = t.encode(t.fromObject(jsonToProto(name, json) as Record<string, unknown>)).finish();
  const unknown = protobufRoot().lookupType('Unknown');
  const envelope = unknown
    .encode(unknown.fromObject({ typeMeta: { apiVersion, kind: json.kind }, raw }))
    .finish();
  return Buffer.concat([Buffer.from('k8s\0'), envelope]);
}
