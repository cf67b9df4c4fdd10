// Mirrors sigs.k8s.io/structured-merge-diff/v6 fieldpath/element.go and fieldpath/path.go
// (v6.3.3): one step into an object (a field name, a map-list key, a set value or an index), its
// ordering and printing, and a Path of them. A discriminated union replaces Go's four pointers.
import {
  compareFieldLists,
  compareStrings,
  compareValues,
  marshalValue,
  sortFieldList,
  valueEquals,
  valueToString,
  type FieldList,
  type Value,
} from './value';

export type PathElement =
  | { readonly fieldName: string }
  | { readonly key: FieldList }
  | { readonly value: Value }
  | { readonly index: number };

export type Path = readonly PathElement[];

export const fieldNameElement = (fieldName: string): PathElement => ({ fieldName });
export const valueElement = (value: Value): PathElement => ({ value });
export const indexElement = (index: number): PathElement => ({ index });
/** KeyElementByFields: `keyElement({ name: 'c' })`, the fields sorted. */
export const keyElement = (fields: Record<string, Value>): PathElement => ({
  key: sortFieldList(Object.entries(fields).map(([name, value]) => ({ name, value }))),
});

const kindOf = (pe: PathElement): number =>
  'fieldName' in pe ? 0 : 'key' in pe ? 1 : 'value' in pe ? 2 : 3;

/** PathElement.Compare: field names < keys < values < indexes, then by content. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  if ('fieldName' in a) return compareStrings(a.fieldName, (b as { fieldName: string }).fieldName);
  if ('key' in a) return compareFieldLists(a.key, (b as { key: FieldList }).key);
  if ('value' in a) return compareValues(a.value, (b as { value: Value }).value);
  const bi = (b as { index: number }).index;
  return a.index < bi ? -1 : a.index > bi ? 1 : 0;
}

export function pathElementEquals(a: PathElement, b: PathElement): boolean {
  if ('fieldName' in a) return 'fieldName' in b && a.fieldName === b.fieldName;
  if ('key' in a) {
    if (!('key' in b) || a.key.length !== b.key.length) return false;
    return a.key.every((f, i) => f.name === b.key[i].name && valueEquals(f.value, b.key[i].value));
  }
  if ('value' in a) return 'value' in b && valueEquals(a.value, b.value);
  return 'index' in b && a.index === b.index;
}

/** PathElement.String: `.name`, `[name="c",port=80]`, `[="x"]`, `[0]`. */
export function pathElementString(pe: PathElement): string {
  if ('fieldName' in pe) return '.' + pe.fieldName;
  if ('key' in pe)
    return '[' + pe.key.map((f) => `${f.name}=${valueToString(f.value)}`).join(',') + ']';
  if ('value' in pe) return `[=${valueToString(pe.value)}]`;
  return `[${pe.index}]`;
}

/** A string that is equal for equal elements: the key of a Map of elements (PathElementMap). */
export function pathElementKey(pe: PathElement): string {
  if ('fieldName' in pe) return 'f' + pe.fieldName;
  if ('key' in pe)
    return 'k' + pe.key.map((f) => `${JSON.stringify(f.name)}:${marshalValue(f.value)}`).join(',');
  if ('value' in pe) return 'v' + marshalValue(pe.value);
  return 'i' + String(pe.index);
}

/** Path.String: the elements' strings joined (`.spec.containers[name="c"].image`). */
export const pathString = (p: Path): string => p.map(pathElementString).join('');

/** Path.Compare: element by element; a prefix sorts first. */
export function comparePaths(a: Path, b: Path): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = comparePathElements(a[i], b[i]);
    if (c !== 0) return c;
  }
}

/**
 * MakePath for tests and fixed sets: a string is a field name, a number an index, a
 * `{ key: {...} }` a map-list key and a `{ value: v }` a set item.
 */
export function makePath(
  ...parts: Array<string | number | { key: Record<string, Value> } | { value: Value }>
): Path {
  return parts.map((p) =>
    typeof p === 'string'
      ? fieldNameElement(p)
      : typeof p === 'number'
        ? indexElement(p)
        : 'key' in p
          ? keyElement(p.key)
          : valueElement(p.value),
  );
}
