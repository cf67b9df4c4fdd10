// Mirrors sigs.k8s.io/structured-merge-diff/v6 fieldpath/serialize.go and serialize-pe.go
// (v6.3.3) and k8s.io/apimachinery pkg/util/managedfields/internal/fields.go: a field set as the
// FieldsV1 JSON of metadata.managedFields. Each path element is a key (`f:name`,
// `k:{"name":"c"}`, `v:"x"`, `i:0`); a key whose path is itself in the set holds `".":{}` when it
// has children too. Keys come out in the set's order, so equal sets serialize to equal bytes.
import { goJsonMarshal } from '../../engine/http-face';
import { comparePathElements, type PathElement } from './path-element';
import { FieldSet } from './set';
import { compareStrings, marshalValue, isMap, type Value } from './value';

/** fieldpath.ErrUnknownPathElementType: a key of a type this version does not know is skipped. */
export class UnknownPathElementTypeError extends Error {
  constructor() {
    super('unknown path element type');
  }
}

/** SerializePathElement. A field name is written raw (upstream's WriteRaw), not JSON-quoted. */
export function serializePathElement(pe: PathElement): string {
  if ('fieldName' in pe) return 'f:' + pe.fieldName;
  if ('key' in pe)
    return (
      'k:{' + pe.key.map((f) => `${goJsonMarshal(f.name)}:${marshalValue(f.value)}`).join(',') + '}'
    );
  if ('value' in pe) return 'v:' + marshalValue(pe.value);
  return 'i:' + String(pe.index);
}

/** DeserializePathElement, with upstream's messages. */
export function deserializePathElement(s: string): PathElement {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { fieldName: rest };
    case 'v':
      return { value: JSON.parse(rest) as Value };
    case 'k': {
      const obj = JSON.parse(rest) as unknown;
      if (!isMap(obj as Value))
        throw new Error(`ReadObjectCB: expect { or n, but found ${rest[0] ?? ''}`);
      const fields = Object.entries(obj as Record<string, Value>)
        .map(([name, value]) => ({ name, value }))
        .sort((a, b) => compareStrings(a.name, b.name));
      return { key: fields };
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(rest))
        throw new Error(`strconv.Atoi: parsing ${JSON.stringify(rest)}: invalid syntax`);
      return { index: Number(rest) };
    }
    default:
      throw new UnknownPathElementTypeError();
  }
}

/** The FieldsV1 JSON object of a set (emitContentsV1), as a plain object in the set's order. */
export function setToFieldsV1(s: FieldSet): Record<string, unknown> {
  return emit(s, false);
}

/** Set.ToJSON: the FieldsV1 bytes as text, encoding/json's escaping. */
export function setToJSON(s: FieldSet): string {
  return write(setToFieldsV1(s));
}

function write(o: Record<string, unknown>): string {
  return (
    '{' +
    Object.entries(o)
      .map(([k, v]) => `${goJsonMarshal(k)}:${write(v as Record<string, unknown>)}`)
      .join(',') +
    '}'
  );
}

function emit(s: FieldSet, includeSelf: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (includeSelf && (s.members.length > 0 || s.children.length > 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  const ms = s.members;
  const cs = s.children;
  while (mi < ms.length || ci < cs.length) {
    const c =
      mi >= ms.length ? 1 : ci >= cs.length ? -1 : comparePathElements(ms[mi], cs[ci].pathElement);
    if (c < 0) {
      out[serializePathElement(ms[mi++])] = {};
    } else if (c > 0) {
      out[serializePathElement(cs[ci].pathElement)] = emit(cs[ci].set, false);
      ci++;
    } else {
      out[serializePathElement(cs[ci].pathElement)] = emit(cs[ci].set, true);
      mi++;
      ci++;
    }
  }
  return out;
}

/**
 * Set.FromJSON / FieldsToSet on parsed FieldsV1 JSON. A key of an unknown element type is skipped;
 * a malformed key fails the whole decode, as upstream reports the error after reading.
 */
export function setFromFieldsV1(fields: unknown): FieldSet {
  if (!isMap(fields as Value)) throw new Error('FieldsV1 must be a JSON object');
  const { children } = read(fields as Record<string, unknown>);
  return children ?? new FieldSet();
}

/** readIterV1: the set below this object, and whether the path to it is itself a member. */
function read(o: Record<string, unknown>): { children?: FieldSet; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const [key, val] of Object.entries(o)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe: PathElement;
    try {
      pe = deserializePathElement(key);
    } catch (e) {
      if (e instanceof UnknownPathElementTypeError) continue;
      throw new Error(`parsing key as path element: ${(e as Error).message}`);
    }
    if (!isMap(val as Value))
      throw new Error(`ReadMapCB: expect { or n, but found ${JSON.stringify(val)}`);
    const sub = read(val as Record<string, unknown>);
    if (sub.isMember) (children ??= new FieldSet()).insertMember(pe);
    if (sub.children) {
      children ??= new FieldSet();
      const target = children.descend(pe);
      target.members = sub.children.members;
      target.children = sub.children.children;
    }
  }
  if (!children) isMember = true;
  return { children, isMember };
}
