// Mirrors sigs.k8s.io/structured-merge-diff/v6 typed/remove.go (v6.3.3): a value without the
// fields of a set (RemoveItems), or with only them (ExtractItems). As upstream, a list or map
// left with nothing becomes null, and atomic lists and maps are removed or kept whole.
import { FieldSet } from './set';
import { resolveSchema, listItemToPathElement } from './typed-helpers';
import type { Schema, TypeRef } from './schema';
import { isMap, type Value } from './value';

export function removeItemsWithSchema(
  val: Value | undefined,
  toRemove: FieldSet,
  schema: Schema,
  tr: TypeRef,
  shouldExtract: boolean,
): Value {
  let out: Value = null;
  resolveSchema(schema, tr, val, {
    doScalar: () => {
      out = val ?? null;
      return [];
    },
    doList: (t) => {
      if (!Array.isArray(val)) return [];
      if (val.length === 0 || t.elementRelationship === 'atomic') {
        if (shouldExtract) out = val;
        return [];
      }
      const items: Value[] = [];
      for (let item of val) {
        let pe;
        try {
          pe = listItemToPathElement(schema, t, item);
        } catch {
          // Upstream's zero path element matches nothing: the item stays.
          if (!shouldExtract) items.push(item);
          continue;
        }
        const exact = toRemove.hasMember(pe);
        const below = toRemove.withPrefix(pe);
        const prefix = !below.empty();
        if (shouldExtract) {
          if (prefix) item = removeItemsWithSchema(item, below, schema, t.elementType, true);
          if (exact || prefix) items.push(item);
        } else {
          if (exact) continue;
          if (prefix) item = removeItemsWithSchema(item, below, schema, t.elementType, false);
          items.push(item);
        }
      }
      if (items.length > 0) out = items;
      return [];
    },
    doMap: (t) => {
      if (!isMap(val)) return [];
      if (Object.keys(val).length === 0 || t.elementRelationship === 'atomic') {
        if (shouldExtract) out = val;
        return [];
      }
      const m: { [key: string]: Value } = {};
      for (const [k, v] of Object.entries(val)) {
        const pe = { fieldName: k };
        const fieldType = t.fields.get(k)?.type ?? t.elementType;
        if (toRemove.hasMember(pe)) {
          // Upstream extracts a whole owned field by walking it with the whole set.
          if (shouldExtract) m[k] = removeItemsWithSchema(v, toRemove, schema, fieldType, true);
          continue;
        }
        const subset = toRemove.withPrefix(pe);
        if (!subset.empty())
          m[k] = removeItemsWithSchema(v, subset, schema, fieldType, shouldExtract);
        else if (!shouldExtract) m[k] = v;
      }
      if (Object.keys(m).length > 0) out = m;
      return [];
    },
  });
  return out;
}
