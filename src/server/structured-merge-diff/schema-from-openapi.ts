// Mirrors k8s.io/kube-openapi pkg/schemaconv/openapi.go and smd.go (ToSchemaFromOpenAPI,
// getListElementRelationship, getMapElementRelationship, convertPrimitive) and the gvk index of
// k8s.io/apimachinery pkg/util/managedfields/internal/typeconverter.go (release-1.36): OpenAPI
// definitions (v2 `definitions` or v3 `components.schemas`, plain JSON) into an SMD schema.
// Unions (x-kubernetes-unions) are not read.
import {
  deducedName,
  untypedAtom,
  untypedName,
  deducedAtom,
  type Atom,
  type ElementRelationship,
  type ListType,
  type MapType,
  type ParseableType,
  type Schema,
  type StructField,
  type TypeRef,
} from './schema';
import type { Value } from './value';

/** An OpenAPI schema object as JSON. */
export type OpenAPISchema = { readonly [key: string]: unknown };

const quantityResource = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const rawExtensionResource = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

/** The conversion failed: one line per problem, each naming the definition (upstream's format). */
export class SchemaConversionError extends Error {}

class Convert {
  readonly errors: string[] = [];
  constructor(
    readonly preserveUnknownFields: boolean,
    readonly currentName: string,
  ) {}

  reportError(message: string): void {
    this.errors.push(`${this.currentName}: ${message}`);
  }

  push(name: string, preserve = this.preserveUnknownFields): Convert {
    return new Convert(preserve, name);
  }

  pop(c2: Convert): void {
    this.errors.push(...c2.errors);
  }

  visitSpec(m: OpenAPISchema): Atom {
    const c =
      m['x-kubernetes-preserve-unknown-fields'] === true ? this.push(this.currentName, true) : this;
    const atom = c.parseSchema(m);
    if (c !== this) this.pop(c);
    return atom;
  }

  parseSchema(m: OpenAPISchema): Atom {
    const type = Array.isArray(m.type)
      ? String(m.type[0] ?? '')
      : typeof m.type === 'string'
        ? m.type
        : '';
    switch (type) {
      case '':
        return { scalar: 'untyped', list: this.parseList(m), map: this.parseObject(m) };
      case 'object':
        return { map: this.parseObject(m) };
      case 'array':
        return { list: this.parseList(m) };
      case 'integer':
      case 'number':
        return { scalar: 'numeric' };
      case 'boolean':
        return { scalar: 'boolean' };
      case 'string':
        return {
          scalar:
            m.format === undefined || m.format === '' || m.format === 'byte' ? 'string' : 'untyped',
        };
      default:
        this.reportError(`unrecognized type: '${type}'`);
        return { scalar: 'untyped' };
    }
  }

  makeOpenAPIRef(s: OpenAPISchema): TypeRef {
    let ref = typeof s.$ref === 'string' ? s.$ref : '';
    const allOf = s.allOf;
    if (ref === '' && Array.isArray(allOf) && allOf.length === 1) {
      const only = allOf[0] as OpenAPISchema;
      if (typeof only.$ref === 'string') ref = only.$ref;
    }
    const name = ref.slice(ref.lastIndexOf('/') + 1);
    if (name.length > 0) {
      const rel = this.mapElementRelationship(s);
      return rel ? { namedType: name, elementRelationship: rel } : { namedType: name };
    }
    const c2 = this.push(`inlined in ${this.currentName}`);
    const inlined = c2.visitSpec(s);
    this.pop(c2);
    return { inlined };
  }

  parseObject(s: OpenAPISchema): MapType {
    const fields = new Map<string, StructField>();
    const properties = (s.properties ?? {}) as Record<string, OpenAPISchema>;
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    for (const [name, member] of Object.entries(properties)) {
      const zero = zeroOf(member, required.has(name));
      fields.set(name, {
        name,
        type: this.makeOpenAPIRef(member),
        default: member.default,
        ...(zero !== undefined ? { zero } : {}),
      });
    }
    const ap = s.additionalProperties;
    let elementType: TypeRef;
    if (ap === undefined || ap === null) {
      elementType =
        this.preserveUnknownFields || fields.size === 0 ? { namedType: deducedName } : {};
    } else if (typeof ap === 'object') {
      elementType = this.makeOpenAPIRef(ap as OpenAPISchema);
    } else if (ap === true) {
      elementType = { namedType: deducedName };
    } else {
      elementType = {};
    }
    return { fields, elementType, elementRelationship: this.mapElementRelationship(s) ?? '' };
  }

  parseList(s: OpenAPISchema): ListType {
    const { relationship, keys } = this.listElementRelationship(s);
    let elementType: TypeRef;
    const items = s.items;
    if (items !== undefined && items !== null) {
      if (Array.isArray(items)) {
        this.reportError('structural schema arrays must have exactly one member subtype');
        elementType = { namedType: deducedName };
      } else {
        elementType = this.makeOpenAPIRef(items as OpenAPISchema);
      }
    } else {
      if (typeof s.type === 'string' && s.type.length > 0)
        this.reportError('`items` must be specified on arrays');
      elementType = { namedType: untypedName };
    }
    return { elementType, elementRelationship: relationship, keys };
  }

  /** getListElementRelationship: list-type first, then the patch strategy, else atomic. */
  listElementRelationship(s: OpenAPISchema): { relationship: ElementRelationship; keys: string[] } {
    if ('x-kubernetes-list-type' in s) {
      const val = s['x-kubernetes-list-type'];
      switch (val) {
        case 'atomic':
          return { relationship: 'atomic', keys: [] };
        case 'set':
          return { relationship: 'associative', keys: [] };
        case 'map': {
          const keys = s['x-kubernetes-list-map-keys'];
          if (keys === undefined) {
            this.reportError('missing map keys');
            return { relationship: 'associative', keys: [] };
          }
          if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string')) {
            this.reportError(`uninterpreted map keys: ${JSON.stringify(keys)}`);
            return { relationship: 'associative', keys: [] };
          }
          return { relationship: 'associative', keys: keys as string[] };
        }
        default:
          this.reportError(`unknown list type ${String(val)}`);
          return { relationship: 'atomic', keys: [] };
      }
    }
    if ('x-kubernetes-patch-strategy' in s) {
      const val = s['x-kubernetes-patch-strategy'];
      switch (val) {
        case 'merge':
        case 'merge,retainKeys': {
          if ('x-kubernetes-patch-merge-key' in s) {
            const key = s['x-kubernetes-patch-merge-key'];
            if (typeof key !== 'string') {
              this.reportError(`uninterpreted merge key: ${JSON.stringify(key)}`);
              return { relationship: 'associative', keys: [] };
            }
            return { relationship: 'associative', keys: [key] };
          }
          // No merge key: a set.
          return { relationship: 'associative', keys: [] };
        }
        case 'retainKeys':
          return { relationship: 'atomic', keys: [] };
        default:
          this.reportError(`unknown patch strategy ${String(val)}`);
          return { relationship: 'atomic', keys: [] };
      }
    }
    return { relationship: 'atomic', keys: [] };
  }

  /** getMapElementRelationship: x-kubernetes-map-type, or nothing. */
  mapElementRelationship(s: OpenAPISchema): ElementRelationship | undefined {
    if (!('x-kubernetes-map-type' in s)) return undefined;
    const val = s['x-kubernetes-map-type'];
    if (val === 'atomic') return 'atomic';
    if (val === 'granular') return 'separable';
    this.reportError(`unknown map type ${String(val)}`);
    return undefined;
  }
}

/**
 * The field's value in the JSON of its Go struct's zero value (what the apiserver's typed objects
 * carry and an unstructured one lacks): `{}` for a non-pointer struct (openapi-gen gives those a
 * `default: {}`), the zero of a required (non-omitempty) field, else nothing.
 */
function zeroOf(member: OpenAPISchema, required: boolean): Value | undefined {
  const d = member.default;
  if (typeof d === 'object' && d !== null && !Array.isArray(d) && Object.keys(d).length === 0)
    return {};
  if (!required) return undefined;
  const type = Array.isArray(member.type) ? member.type[0] : member.type;
  if (type === 'string') return member.format === 'byte' ? null : '';
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return false;
  return null;
}

/** ToSchemaFromOpenAPI: every definition becomes a named type, plus the two untyped ones. */
export function schemaFromOpenAPI(
  models: Readonly<Record<string, OpenAPISchema>>,
  preserveUnknownFields = false,
): Schema {
  const types = new Map<string, Atom>();
  const errors: string[] = [];
  for (const [name, spec] of Object.entries(models)) {
    if (typeof spec.$ref === 'string' && spec.$ref.length > 0) continue;
    let atom: Atom;
    if (name === quantityResource) atom = { scalar: 'untyped' };
    else if (name === rawExtensionResource) atom = untypedAtom;
    else {
      const c = new Convert(preserveUnknownFields, name);
      atom = c.visitSpec(spec);
      errors.push(...c.errors);
    }
    if (atom.scalar || atom.list || atom.map) types.set(name, atom);
  }
  if (errors.length > 0) throw new SchemaConversionError(errors.join('\n'));
  types.set(untypedName, untypedAtom);
  types.set(deducedName, deducedAtom);
  return { types };
}

/** typeconverter.go: the type of each group/version/kind, from x-kubernetes-group-version-kind. */
export class TypeConverter {
  private readonly byGvk = new Map<string, ParseableType>();

  constructor(models: Readonly<Record<string, OpenAPISchema>>, preserveUnknownFields = false) {
    const schema = schemaFromOpenAPI(models, preserveUnknownFields);
    for (const [name, model] of Object.entries(models)) {
      const gvks = model['x-kubernetes-group-version-kind'];
      if (!Array.isArray(gvks)) continue;
      for (const g of gvks as Array<Record<string, unknown>>) {
        if (typeof g.kind !== 'string' || g.kind.length === 0) continue;
        const key = gvkKey(String(g.group ?? ''), String(g.version ?? ''), g.kind);
        this.byGvk.set(key, { schema, typeRef: { namedType: name } });
      }
    }
  }

  /** The type of apiVersion/kind, or undefined when the definitions have none. */
  typeFor(apiVersion: string, kind: string): ParseableType | undefined {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    return this.byGvk.get(gvkKey(group, version, kind));
  }
}

const gvkKey = (group: string, version: string, kind: string): string =>
  `${group}/${version}/${kind}`;
