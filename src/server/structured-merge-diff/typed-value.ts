// Mirrors sigs.k8s.io/structured-merge-diff/v6 typed/typed.go and typed/validate.go (v6.3.3): a
// value paired with its schema type and the operations on it. A value is plain JSON; `undefined`
// stands for Go's absent (nil) Value, `null` for an explicit JSON null.
import { pathElementString, type PathElement } from './path-element';
import { FieldSet } from './set';
import type { ParseableType, Schema, TypeRef } from './schema';
import { compareStrings, isMap, valueToString, type FieldList, type Value } from './value';
import { compareTyped, type Comparison } from './typed-compare';
import {
  errorf,
  listItemToPathElement,
  resolveSchema,
  validateScalar,
  ValidationErrors,
  withPrefix,
  type ValidationError,
} from './typed-helpers';
import { mergeValues } from './typed-merge';
import { removeItemsWithSchema } from './typed-remove';
import { toFieldSet } from './typed-to-field-set';

/** The validating walker (typed/validate.go). */
function validate(
  schema: Schema,
  tr: TypeRef,
  v: Value | undefined,
  allowDuplicates: boolean,
): ValidationError[] {
  return resolveSchema(schema, tr, v, {
    doScalar: (t) => validateScalar(t, v, ''),
    doList: (t) => {
      if (v === null || v === undefined) return [];
      if (!Array.isArray(v)) return errorf(`expected list, got ${valueToString(v)}`);
      const errs: ValidationError[] = [];
      const observed = new FieldSet();
      for (let i = 0; i < v.length; i++) {
        let pe: PathElement = { index: i };
        if (t.elementRelationship === 'associative') {
          try {
            pe = listItemToPathElement(schema, t, v[i]);
          } catch (e) {
            errs.push(...errorf(`element ${i}: ${(e as Error).message}`));
            return errs;
          }
          if (observed.hasMember(pe) && !allowDuplicates)
            errs.push(...errorf(`duplicate entries for key ${pathElementString(pe)}`));
          observed.insertMember(pe);
        }
        errs.push(
          ...withPrefix(
            validate(schema, t.elementType, v[i], allowDuplicates),
            pathElementString(pe),
          ),
        );
      }
      return errs;
    },
    doMap: (t) => {
      if (v === null || v === undefined) return [];
      if (!isMap(v)) return errorf(`expected map, got ${valueToString(v)}`);
      const errs: ValidationError[] = [];
      for (const key of Object.keys(v)) {
        const sf = t.fields.get(key);
        const elementTypeEmpty = !t.elementType.namedType && !t.elementType.inlined;
        if (!sf && elementTypeEmpty) {
          errs.push(...withPrefix(errorf('field not declared in schema'), '.' + key));
          break;
        }
        errs.push(
          ...withPrefix(
            validate(schema, sf ? sf.type : t.elementType, v[key], allowDuplicates),
            '.' + key,
          ),
        );
      }
      return errs;
    },
  });
}

/** typed.TypedValue: immutable; every operation returns a new one. */
export class TypedValue {
  constructor(
    readonly value: Value | undefined,
    readonly schema: Schema,
    readonly typeRef: TypeRef,
  ) {}

  /** AsTyped: the value, validated against its type (duplicates refused unless allowed). */
  static of(
    value: Value,
    type: ParseableType,
    opts: { allowDuplicates?: boolean } = {},
  ): TypedValue {
    const tv = new TypedValue(value, type.schema, type.typeRef);
    const errs = validate(tv.schema, tv.typeRef, value, opts.allowDuplicates ?? false);
    if (errs.length > 0) throw new ValidationErrors(errs);
    return tv;
  }

  /** The set of fields the value sets (the field set an applier owns). */
  toFieldSet(): FieldSet {
    const { set, errors } = toFieldSet(this);
    if (errors.length > 0) throw new ValidationErrors(errors);
    return set;
  }

  /** Merge: the value with pso merged over it (pso's scalars win, lists and maps per schema). */
  merge(pso: TypedValue): TypedValue {
    if (pso.schema !== this.schema)
      throw new ValidationErrors(errorf('expected objects with types from the same schema'));
    return this.withValue(mergeValues(this.schema, this.typeRef, this.value, pso.value));
  }

  /** Compare: which fields pso removed, modified and added relative to this value. */
  compare(rhs: TypedValue): Comparison {
    if (rhs.schema !== this.schema)
      throw new ValidationErrors(errorf('expected objects with types from the same schema'));
    return compareTyped(this.schema, this.typeRef, this.value, rhs.value);
  }

  /** RemoveItems: the value without the given fields (and list items). */
  removeItems(items: FieldSet): TypedValue {
    return new TypedValue(
      removeItemsWithSchema(this.value, items, this.schema, this.typeRef, false),
      this.schema,
      this.typeRef,
    );
  }

  /** ExtractItems: only the given fields (and list items). */
  extractItems(items: FieldSet): TypedValue {
    return new TypedValue(
      removeItemsWithSchema(this.value, items, this.schema, this.typeRef, true),
      this.schema,
      this.typeRef,
    );
  }

  withValue(value: Value | undefined): TypedValue {
    return new TypedValue(value, this.schema, this.typeRef);
  }
}

/** FieldList keys as a plain object (for tests and printing). */
export const fieldListObject = (key: FieldList): Record<string, Value> =>
  Object.fromEntries(
    [...key].sort((a, b) => compareStrings(a.name, b.name)).map((f) => [f.name, f.value]),
  );
