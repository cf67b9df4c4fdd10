// Mirrors sigs.k8s.io/structured-merge-diff/v6 typed/compare.go (v6.3.3): which fields a new
// value removed, modified and added relative to an old one, walking both with the schema. A leaf
// (scalar, atomic list or map, empty list or map) is compared whole; an associative list's items
// are matched by key, and a key the list holds more than once counts as one field.
import { pathElementKey, pathElementString, type Path, type PathElement } from './path-element';
import { FieldSet } from './set';
import { resolveType, type ListType, type Schema, type TypeRef } from './schema';
import {
  atomEquals,
  deduceAtom,
  errorf,
  handleAtom,
  listItemToPathElement,
  validateScalar,
  ValidationErrors,
  withPrefix,
  type AtomHandler,
  type ValidationError,
} from './typed-helpers';
import { isMap, valueEquals, type Value } from './value';

export interface Comparison {
  removed: FieldSet;
  modified: FieldSet;
  added: FieldSet;
}

export const isSame = (c: Comparison): boolean =>
  c.removed.empty() && c.modified.empty() && c.added.empty();

export function compareTyped(
  schema: Schema,
  tr: TypeRef,
  lhs: Value | undefined,
  rhs: Value | undefined,
): Comparison {
  const c: Comparison = {
    removed: new FieldSet(),
    modified: new FieldSet(),
    added: new FieldSet(),
  };
  const errors = compare(schema, c, [], tr, lhs, rhs);
  if (errors.length > 0) throw new ValidationErrors(errors);
  return c;
}

function compare(
  schema: Schema,
  c: Comparison,
  path: Path,
  tr: TypeRef,
  lhs: Value | undefined,
  rhs: Value | undefined,
): ValidationError[] {
  if (lhs === undefined && rhs === undefined)
    return errorf('at least one of lhs and rhs must be provided');
  const a = resolveType(schema, tr);
  if (!a) return errorf(`schema error: no type found matching: ${tr.namedType ?? 'inlined type'}`);
  const alhs = deduceAtom(a, lhs);
  const arhs = deduceAtom(a, rhs);
  const errors: ValidationError[] = [];
  const w = walker(schema, c, path, lhs, rhs);
  if (rhs === undefined) errors.push(...handleAtom(alhs, tr, w));
  else if (lhs === undefined || atomEquals(alhs, arhs)) errors.push(...handleAtom(arhs, tr, w));
  else {
    // Upstream walks the left's atom on a copy of the walker that shares the comparison.
    errors.push(...handleAtom(alhs, tr, walker(schema, c, path, lhs, rhs)));
    errors.push(...handleAtom(arhs, tr, w));
  }
  if (!w.inLeaf()) {
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
  }
  return errors;
}

interface CompareWalker extends AtomHandler {
  inLeaf(): boolean;
}

function walker(
  schema: Schema,
  c: Comparison,
  path: Path,
  lhs: Value | undefined,
  rhs: Value | undefined,
): CompareWalker {
  let inLeaf = false;
  const doLeaf = (): void => {
    if (inLeaf) return;
    inLeaf = true;
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
    else if (!valueEquals(rhs, lhs)) c.modified.insert(path);
  };
  return {
    inLeaf: () => inLeaf,
    doScalar(t) {
      const lerrs = validateScalar(t, lhs, 'lhs: ');
      const rerrs = validateScalar(t, rhs, 'rhs: ');
      if (lerrs.length > 0 && rerrs.length > 0) return [...lerrs, ...rerrs];
      doLeaf();
      return [];
    },
    doList(t) {
      const l = Array.isArray(lhs) ? lhs : undefined;
      const r = Array.isArray(rhs) ? rhs : undefined;
      if (
        t.elementRelationship === 'atomic' ||
        ((!l || l.length === 0) && (!r || r.length === 0))
      ) {
        doLeaf();
        return [];
      }
      return visitListItems(schema, c, path, t, l ?? [], r ?? []);
    },
    doMap(t) {
      const l = isMap(lhs) ? lhs : undefined;
      const r = isMap(rhs) ? rhs : undefined;
      const empty = (m: object | undefined): boolean => !m || Object.keys(m).length === 0;
      if (t.elementRelationship === 'atomic' || (empty(l) && empty(r))) {
        doLeaf();
        return [];
      }
      const errors: ValidationError[] = [];
      const keys = [
        ...Object.keys(l ?? {}),
        ...Object.keys(r ?? {}).filter((k) => !l || !(k in l)),
      ];
      for (const key of keys) {
        const fieldType = t.fields.get(key)?.type ?? t.elementType;
        errors.push(
          ...withPrefix(
            compare(schema, c, [...path, { fieldName: key }], fieldType, l?.[key], r?.[key]),
            '.' + key,
          ),
        );
      }
      return errors;
    },
  };
}

function visitListItems(
  schema: Schema,
  c: Comparison,
  path: Path,
  t: ListType,
  lhs: Value[],
  rhs: Value[],
): ValidationError[] {
  const errors: ValidationError[] = [];
  const all: PathElement[] = [];
  const index = (list: Value[], other: Map<string, Value[]> | undefined): Map<string, Value[]> => {
    const values = new Map<string, Value[]>();
    list.forEach((child, i) => {
      let pe: PathElement;
      try {
        pe = listItemToPathElement(schema, t, child);
      } catch (e) {
        errors.push(...errorf(`element ${i}: ${(e as Error).message}`));
        return;
      }
      const k = pathElementKey(pe);
      const seen = values.get(k);
      if (seen) seen.push(child);
      else {
        values.set(k, [child]);
        if (!other?.has(k)) all.push(pe);
      }
    });
    return values;
  };
  const lValues = index(lhs, undefined);
  const rValues = index(rhs, lValues);
  for (const pe of all) {
    const k = pathElementKey(pe);
    const lList = lValues.get(k) ?? [];
    const rList = rValues.get(k) ?? [];
    const item = (l: Value | undefined, r: Value | undefined): void => {
      errors.push(
        ...withPrefix(
          compare(schema, c, [...path, pe], t.elementType, l, r),
          pathElementString(pe),
        ),
      );
    };
    if (lList.length <= 1 && rList.length <= 1) item(lList[0], rList[0]);
    else if (lList.length >= 2 && rList.length >= 2) {
      const same = lList.length === rList.length && lList.every((v, i) => valueEquals(v, rList[i]));
      if (!same) c.modified.insert([...path, pe]);
    } else if (lList.length >= 2) {
      if (rList.length !== 0) item(undefined, rList[0]);
      c.removed.insert([...path, pe]);
    } else {
      if (lList.length !== 0) item(lList[0], undefined);
      c.added.insert([...path, pe]);
    }
  }
  return errors;
}
