// No upstream counterpart. The apiserver's field manager compares typed Go objects: a live object
// read from storage and the empty object a create starts from (runtime.ObjectCreater.New) carry
// every non-pointer struct as `{}` and every field without omitempty (null for a nil slice, map or
// pointer). Which fields an Update adds, and so where a FieldsV1 entry has `".":{}`, depends on
// it. Our objects are unstructured JSON, so before an Update the field manager fills in that zero
// shape from the schema (StructField.zero); the filled values never reach the stored object.
import { resolveType, type ParseableType, type Schema, type TypeRef } from './schema';
import { isMap, type Value } from './value';

/** The value with its Go zero shape filled in where absent (a copy; the input is not modified). */
export function fillZeroValues(type: ParseableType, v: Value): Value {
  return fill(type.schema, type.typeRef, v, 0);
}

// Recursive types (JSONSchemaProps) never recurse through a zero `{}` forever: the value bounds
// the walk except where a struct is filled in, and a filled struct of the same type would be
// filled again; the depth cap stops that.
const maxFillDepth = 32;

function fill(schema: Schema, tr: TypeRef, v: Value, depth: number): Value {
  if (depth > maxFillDepth) return v;
  const atom = resolveType(schema, tr);
  if (!atom) return v;
  if (Array.isArray(v)) {
    const list = atom.list;
    if (!list || list.elementRelationship === 'atomic') return v;
    return v.map((item) => fill(schema, list.elementType, item, depth + 1));
  }
  if (
    !isMap(v) ||
    !atom.map ||
    atom.map.fields.size === 0 ||
    atom.map.elementRelationship === 'atomic'
  )
    return v;
  const out: { [key: string]: Value } = { ...v };
  for (const [name, field] of atom.map.fields) {
    if (name in out) {
      out[name] = fill(schema, field.type, out[name], depth + 1);
    } else if (field.zero !== undefined) {
      out[name] = isMap(field.zero) ? fill(schema, field.type, {}, depth + 1) : field.zero;
    }
  }
  return out;
}
