// Mirrors sigs.k8s.io/structured-merge-diff/v6 typed/helpers.go (v6.3.3): the errors the typed
// walkers report, atom deduction and dispatch, and how a list item becomes a path element (a
// map-list key or a set value).
import { keyElement, type PathElement } from './path-element';
import {
  resolveType,
  type Atom,
  type ListType,
  type MapType,
  type Scalar,
  type Schema,
  type TypeRef,
} from './schema';
import { isMap, valueToString, type Value } from './value';

export interface ValidationError {
  path: string;
  message: string;
}

/** typed.ValidationErrors: one line for one error, else `errors:` and an indented line each. */
export class ValidationErrors extends Error {
  constructor(readonly errors: ValidationError[]) {
    super(
      errors.length === 1
        ? errorString(errors[0])
        : ['errors:', ...errors.map((e) => '  ' + errorString(e))].join('\n'),
    );
  }
}

const errorString = (e: ValidationError): string =>
  e.path.length === 0 ? e.message : `${e.path}: ${e.message}`;

export const errorf = (message: string): ValidationError[] => [{ path: '', message }];

/** WithLazyPrefix: prepend the element's string to each error's path. */
export function withPrefix(errs: ValidationError[], prefix: string): ValidationError[] {
  for (const e of errs) e.path = prefix + e.path;
  return errs;
}

/** The three walkers' callbacks (typed.atomHandler). */
export interface AtomHandler {
  doScalar(t: Scalar): ValidationError[];
  doList(t: ListType): ValidationError[];
  doMap(t: MapType): ValidationError[];
}

/** deduceAtom: when a type allows several kinds of value, the one the value is. */
export function deduceAtom(atom: Atom, v: Value | undefined): Atom {
  if (v === undefined || v === null) return atom;
  if (Array.isArray(v)) return atom.list ? { list: atom.list } : atom;
  if (isMap(v)) return atom.map ? { map: atom.map } : atom;
  return atom.scalar ? { scalar: atom.scalar } : atom;
}

export function handleAtom(a: Atom, tr: TypeRef, ah: AtomHandler): ValidationError[] {
  if (a.map) return ah.doMap(a.map);
  if (a.scalar) return ah.doScalar(a.scalar);
  if (a.list) return ah.doList(a.list);
  return errorf(
    `schema error: invalid atom: ${tr.namedType !== undefined ? 'named type: ' + tr.namedType : 'inlined'}`,
  );
}

export function resolveSchema(
  schema: Schema,
  tr: TypeRef,
  v: Value | undefined,
  ah: AtomHandler,
): ValidationError[] {
  const a = resolveType(schema, tr);
  if (!a) return errorf(`schema error: no type found matching: ${tr.namedType ?? 'inlined type'}`);
  return handleAtom(deduceAtom(a, v), tr, ah);
}

/** atomEquals for the walkers' "lhs and rhs deduce to the same atom" check. */
export const atomEquals = (a: Atom, b: Atom): boolean =>
  a.scalar === b.scalar && a.list === b.list && a.map === b.map;

/** keyedAssociativeListItemToPathElement / setItemToPathElement / listItemToPathElement. */
export function listItemToPathElement(schema: Schema, list: ListType, child: Value): PathElement {
  if (list.elementRelationship !== 'associative')
    throw new Error('invalid indexing of non-associative list');
  if (list.keys.length > 0) {
    if (child === null) throw new Error('associative list with keys may not have a null element');
    if (!isMap(child)) throw new Error('associative list with keys may not have non-map elements');
    const key: Record<string, Value> = {};
    let n = 0;
    for (const name of list.keys) {
      if (name in child) {
        key[name] = child[name];
        n++;
      } else {
        const def = keyDefault(schema, list, name);
        if (def !== undefined && def !== null) {
          key[name] = def as Value;
          n++;
        }
      }
    }
    if (n === 0)
      throw new Error(
        `associative list with keys has an element that omits all key fields [${list.keys.map((k) => JSON.stringify(k)).join(' ')}] (and doesn't have default values for any key fields)`,
      );
    return keyElement(key);
  }
  if (isMap(child))
    throw new Error("associative list without keys has an element that's a map type");
  if (Array.isArray(child))
    throw new Error('not supported: associative list with lists as elements');
  if (child === null)
    throw new Error("associative list without keys has an element that's an explicit null");
  return { value: child };
}

/** getAssociativeKeyDefault: a key field's schema default (protocol: TCP for ports). */
function keyDefault(schema: Schema, list: ListType, fieldName: string): unknown {
  const atom = resolveType(schema, list.elementType);
  if (!atom)
    throw new Error(`couldn't find default value for ${fieldName}: invalid elementType for list`);
  if (!atom.map)
    throw new Error(
      `couldn't find default value for ${fieldName}: associative list may not have non-map types`,
    );
  return atom.map.fields.get(fieldName)?.default;
}

/** validateScalar. */
export function validateScalar(t: Scalar, v: Value | undefined, prefix: string): ValidationError[] {
  if (v === undefined || v === null) return [];
  switch (t) {
    case 'numeric':
      return typeof v === 'number'
        ? []
        : errorf(`${prefix}expected numeric (int or float), got ${goTypeName(v)}`);
    case 'string':
      return typeof v === 'string'
        ? []
        : errorf(`${prefix}expected string, got ${valueToString(v)}`);
    case 'boolean':
      return typeof v === 'boolean'
        ? []
        : errorf(`${prefix}expected boolean, got ${valueToString(v)}`);
    case 'untyped':
      return typeof v !== 'object'
        ? []
        : errorf(`${prefix}expected any scalar, got ${valueToString(v)}`);
  }
}

const goTypeName = (v: Value): string =>
  typeof v === 'string'
    ? 'string'
    : typeof v === 'boolean'
      ? 'bool'
      : Array.isArray(v)
        ? '[]interface {}'
        : 'map[string]interface {}';
