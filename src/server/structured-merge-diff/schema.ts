// Mirrors sigs.k8s.io/structured-merge-diff/v6 schema/elements.go (v6.3.3) and the deduced schema
// of typed/parser.go (DeducedParseableType): named types made of atoms (scalar, list, map), type
// references with an optional element-relationship override, and their resolution. Unions are
// left out (the apiserver's schemas for built-ins carry none that SMD acts on).
import type { Value } from './value';

export type Scalar = 'numeric' | 'string' | 'boolean' | 'untyped';

/** associative: keyed or set-like list items; atomic: one leaf; separable: a granular map. */
export type ElementRelationship = 'associative' | 'atomic' | 'separable';

export interface TypeRef {
  readonly namedType?: string;
  readonly inlined?: Atom;
  readonly elementRelationship?: ElementRelationship;
}

export interface StructField {
  readonly name: string;
  readonly type: TypeRef;
  readonly default?: unknown;
  /**
   * Not upstream's: what the field holds in the Go zero value of its struct, when the JSON of that
   * zero value has it (a non-pointer struct: `{}`; a field without omitempty, which the OpenAPI
   * marks required: null or the scalar's zero). See zero-value.ts.
   */
  readonly zero?: Value;
}

export interface MapType {
  /** The declared fields (a struct); other keys take elementType. */
  readonly fields: ReadonlyMap<string, StructField>;
  readonly elementType: TypeRef;
  /** Empty means separable (granular). */
  readonly elementRelationship: ElementRelationship | '';
}

export interface ListType {
  readonly elementType: TypeRef;
  readonly elementRelationship: ElementRelationship | '';
  /** The map keys of an associative list of maps; empty for a set. */
  readonly keys: readonly string[];
}

export interface Atom {
  readonly scalar?: Scalar;
  readonly list?: ListType;
  readonly map?: MapType;
}

export interface Schema {
  readonly types: ReadonlyMap<string, Atom>;
}

/** A type within a schema: what the typed walkers start from (typed.ParseableType). */
export interface ParseableType {
  readonly schema: Schema;
  readonly typeRef: TypeRef;
}

/** Schema.Resolve: the atom a reference names, with its element-relationship override applied. */
export function resolveType(schema: Schema, tr: TypeRef): Atom | undefined {
  const atom = tr.namedType !== undefined ? schema.types.get(tr.namedType) : (tr.inlined ?? {});
  if (!atom || tr.elementRelationship === undefined) return atom;
  if (atom.map) return { map: { ...atom.map, elementRelationship: tr.elementRelationship } };
  if (atom.list) return { list: { ...atom.list, elementRelationship: tr.elementRelationship } };
  return undefined;
}

export const untypedName = '__untyped_atomic_';
export const deducedName = '__untyped_deduced_';

/** schemaconv's untypedDef: any value, one atomic leaf. */
export const untypedAtom: Atom = {
  scalar: 'untyped',
  list: { elementType: { namedType: untypedName }, elementRelationship: 'atomic', keys: [] },
  map: {
    fields: new Map(),
    elementType: { namedType: untypedName },
    elementRelationship: 'atomic',
  },
};

/** schemaconv's deducedDef: maps are granular all the way down, lists and scalars are leaves. */
export const deducedAtom: Atom = {
  scalar: 'untyped',
  list: { elementType: { namedType: untypedName }, elementRelationship: 'atomic', keys: [] },
  map: {
    fields: new Map(),
    elementType: { namedType: deducedName },
    elementRelationship: 'separable',
  },
};

/** typed.DeducedParseableType: the type of an object without a schema (a CRD without one). */
export const deducedParseableType: ParseableType = {
  schema: {
    types: new Map([
      [untypedName, untypedAtom],
      [deducedName, deducedAtom],
    ]),
  },
  typeRef: { namedType: deducedName },
};
