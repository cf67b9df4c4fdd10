// Mirrors sigs.k8s.io/structured-merge-diff/v6 value/value.go, value/scalar.go, value/list.go,
// value/map.go and value/fields.go (v6.3.3, k8s 1.36): the ordering, equality and printing of
// unstructured values. Values are plain JSON data here (JSON has no int/float split, so a number
// is one kind; upstream compares ints and floats numerically too).
import { compareStrings, goJsonMarshal, quote, type GoJsonValue } from '../../engine/http-face';

export { compareStrings };

/** An unstructured value as JSON.parse returns it. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/** A map of field names to values, sorted by name (value.FieldList). */
export type FieldList = ReadonlyArray<{ readonly name: string; readonly value: Value }>;

export const isMap = (v: Value | undefined): v is { [key: string]: Value } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** value.Compare: numbers < strings < booleans < lists < maps < null. */
export function compareValues(lhs: Value, rhs: Value): number {
  const rank = (v: Value): number =>
    typeof v === 'number'
      ? 0
      : typeof v === 'string'
        ? 1
        : typeof v === 'boolean'
          ? 2
          : Array.isArray(v)
            ? 3
            : v === null
              ? 5
              : 4;
  const lr = rank(lhs);
  const rr = rank(rhs);
  if (lr !== rr) return lr < rr ? -1 : 1;
  switch (lr) {
    case 0:
      return cmp(lhs as number, rhs as number);
    case 1:
      return compareStrings(lhs as string, rhs as string);
    case 2:
      return lhs === rhs ? 0 : lhs ? 1 : -1;
    case 3: {
      const l = lhs as Value[];
      const r = rhs as Value[];
      for (let i = 0; ; i++) {
        if (i >= l.length && i >= r.length) return 0;
        if (i >= l.length) return -1;
        if (i >= r.length) return 1;
        const c = compareValues(l[i], r[i]);
        if (c !== 0) return c;
      }
    }
    case 4:
      return compareMaps(lhs as { [key: string]: Value }, rhs as { [key: string]: Value });
    default:
      return 0;
  }
}

const cmp = (a: number, b: number): number => (a > b ? 1 : a < b ? -1 : 0);

/** value.MapCompare: zip the keys in lexical order; the first difference decides. */
function compareMaps(lhs: { [key: string]: Value }, rhs: { [key: string]: Value }): number {
  const lk = Object.keys(lhs);
  const rk = Object.keys(rhs);
  if (lk.length === 0 && rk.length === 0) return 0;
  const keys = [...new Set([...lk, ...rk])].sort(compareStrings);
  let i = 0;
  for (const k of keys) {
    let c: number;
    if (i === lk.length) c = -1;
    else if (i === rk.length) c = 1;
    else if (!(k in lhs)) c = 1;
    else if (!(k in rhs)) c = -1;
    else c = compareValues(lhs[k], rhs[k]);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

/** value.Equals: deep equality (key order does not matter). */
export function valueEquals(lhs: Value, rhs: Value): boolean {
  if (lhs === rhs) return true;
  if (Array.isArray(lhs)) {
    if (!Array.isArray(rhs) || lhs.length !== rhs.length) return false;
    return lhs.every((v, i) => valueEquals(v, rhs[i]));
  }
  if (isMap(lhs)) {
    if (!isMap(rhs)) return false;
    const lk = Object.keys(lhs);
    if (lk.length !== Object.keys(rhs).length) return false;
    return lk.every((k) => k in rhs && valueEquals(lhs[k], rhs[k]));
  }
  return false;
}

/** value.ToString: how a path element prints a key or set value (`"c"`, `80`, `true`). */
export function valueToString(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return goFloatString(v);
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(valueToString).join(',') + ']';
  return Object.keys(v)
    .map((k) => `${k}=${valueToString(v[k])}`)
    .join('');
}

/** fmt's %v of a float64: shortest digits, exponent form from 1e21 and below 1e-4. */
function goFloatString(f: number): string {
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return String(f);
  const abs = Math.abs(f);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e21)) {
    const [m, e] = f.toExponential().split('e');
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(f);
}

/** value.FieldList.Compare: by name, then by value, field by field; the shorter list first. */
export function compareFieldLists(lhs: FieldList, rhs: FieldList): number {
  for (let i = 0; ; i++) {
    if (i >= lhs.length && i >= rhs.length) return 0;
    if (i >= lhs.length) return -1;
    if (i >= rhs.length) return 1;
    const c = compareStrings(lhs[i].name, rhs[i].name);
    if (c !== 0) return c;
    const v = compareValues(lhs[i].value, rhs[i].value);
    if (v !== 0) return v;
  }
}

/** value.FieldList.Sort: by name, then by value. */
export function sortFieldList(fields: FieldList): FieldList {
  return [...fields].sort(
    (a, b) => compareStrings(a.name, b.name) || compareValues(a.value, b.value),
  );
}

/**
 * A value as json-iterator's ConfigCompatibleWithStandardLibrary writes it inside a FieldsV1 key:
 * encoding/json's escaping (HTML characters too) and map keys sorted.
 */
export function marshalValue(v: Value): string {
  return goJsonMarshal(sortKeys(v) as GoJsonValue);
}

function sortKeys(v: Value): Value {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isMap(v)) return v;
  const out: { [key: string]: Value } = {};
  for (const k of Object.keys(v).sort(compareStrings)) out[k] = sortKeys(v[k]);
  return out;
}
