// Mirrors sigs.k8s.io/structured-merge-diff/v6 typed/tofieldset.go (v6.3.3): the set of fields a
// value sets. Leaves (scalars, atomic lists and maps, nulls, empty maps) are members, and so are
// list items and map keys that are not declared struct fields; duplicated list items are owned as
// a whole.
import { pathElementKey, type Path, type PathElement } from './path-element';
import { FieldSet } from './set';
import { listItemToPathElement, resolveSchema, type ValidationError } from './typed-helpers';
import type { TypedValue } from './typed-value';
import type { Schema, TypeRef } from './schema';
import { isMap, type Value } from './value';

export function toFieldSet(tv: TypedValue): { set: FieldSet; errors: ValidationError[] } {
  const set = new FieldSet();
  const errors = walk(tv.schema, set, [], tv.typeRef, tv.value);
  return { set, errors };
}

function walk(
  schema: Schema,
  set: FieldSet,
  path: Path,
  tr: TypeRef,
  v: Value | undefined,
): ValidationError[] {
  return resolveSchema(schema, tr, v, {
    doScalar: () => {
      set.insert(path);
      return [];
    },
    doList: (t) => {
      if (t.elementRelationship === 'atomic') {
        set.insert(path);
        return [];
      }
      if (!Array.isArray(v)) return [];
      const pes: Array<PathElement | undefined> = v.map((child) => {
        try {
          return listItemToPathElement(schema, t, child);
        } catch {
          return undefined;
        }
      });
      const seen = new Set<string>();
      const duplicates = new Set<string>();
      for (const pe of pes) {
        if (!pe) continue;
        const k = pathElementKey(pe);
        if (!seen.has(k)) seen.add(k);
        else if (!duplicates.has(k)) {
          set.insert([...path, pe]);
          duplicates.add(k);
        }
      }
      const errs: ValidationError[] = [];
      v.forEach((child, i) => {
        const pe = pes[i];
        if (!pe || duplicates.has(pathElementKey(pe))) return;
        errs.push(...walk(schema, set, [...path, pe], t.elementType, child));
        set.insert([...path, pe]);
      });
      return errs;
    },
    doMap: (t) => {
      if (t.elementRelationship === 'atomic') {
        set.insert(path);
        return [];
      }
      if (!isMap(v)) return [];
      const errs: ValidationError[] = [];
      for (const [key, val] of Object.entries(v)) {
        const sf = t.fields.get(key);
        const childPath = [...path, { fieldName: key }];
        errs.push(...walk(schema, set, childPath, sf ? sf.type : t.elementType, val));
        if (val === null || (isMap(val) && Object.keys(val).length === 0)) set.insert(childPath);
        else if (!sf) set.insert(childPath);
      }
      return errs;
    },
  });
}
