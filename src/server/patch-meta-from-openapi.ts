// Mirrors k8s.io/apimachinery pkg/util/strategicpatch/meta.go PatchMetaFromOpenAPI (with
// types.go's kindItem and sliceItem) over openapi-definitions.ts, for the built-in kinds outside
// the core group, whose struct tags patch-meta.ts does not write out: kube-openapi publishes each
// tag as x-kubernetes-patch-strategy / x-kubernetes-patch-merge-key, so the schema gives what the
// struct would. Deliberate difference (as patch-meta.ts): a field the schema does not know is
// treated as untagged, where upstream fails with `unable to find api field …`.
import { getOpenAPIDefinitions, type Schema } from './openapi-definitions';
import type { LookupPatchMeta, PatchMeta } from './patch-meta';

const noMeta: PatchMeta = { patchStrategies: [], patchMergeKey: '' };
const refPrefix = '#/definitions/';

/** The schema a `$ref` (or a lone `allOf: [{$ref}]`) names, else the schema itself. */
function resolve(s: Schema | undefined): Schema | undefined {
  let cur = s;
  for (let i = 0; cur && i < 32; i++) {
    const allOf = cur.allOf as Schema[] | undefined;
    const ref =
      typeof cur.$ref === 'string'
        ? cur.$ref
        : allOf?.length === 1 && typeof allOf[0].$ref === 'string'
          ? (allOf[0].$ref as string)
          : undefined;
    if (ref === undefined || !ref.startsWith(refPrefix)) return cur;
    cur = getOpenAPIDefinitions()[ref.slice(refPrefix.length)];
  }
  return cur;
}

/** The patch metadata of one property, from its extensions (kindItem.VisitKind). */
function patchMetaOf(property: Schema): PatchMeta {
  const strategy = property['x-kubernetes-patch-strategy'];
  const key = property['x-kubernetes-patch-merge-key'];
  return {
    // strings.Split of the extension: an untagged field has the one strategy "".
    patchStrategies: (typeof strategy === 'string' ? strategy : '').split(','),
    patchMergeKey: typeof key === 'string' ? key : '',
  };
}

/** strategicpatch.PatchMetaFromOpenAPI: one schema (undefined: nothing known below here). */
export class PatchMetaFromOpenAPI implements LookupPatchMeta {
  constructor(private readonly schema: Schema | undefined) {}

  /** The definition of a built-in kind, by its definition name (`io.k8s.api.apps.v1.Deployment`). */
  static forDefinition(name: string): PatchMetaFromOpenAPI | undefined {
    const s = getOpenAPIDefinitions()[name];
    return s ? new PatchMetaFromOpenAPI(s) : undefined;
  }

  /** The property `key` of an object, or the values of a map (additionalProperties). */
  private property(key: string): Schema | undefined {
    const s = this.schema;
    if (!s) return undefined;
    const properties = s.properties as Record<string, Schema> | undefined;
    if (properties && Object.prototype.hasOwnProperty.call(properties, key)) return properties[key];
    const additional = s.additionalProperties;
    return typeof additional === 'object' && additional !== null
      ? (additional as Schema)
      : undefined;
  }

  lookupPatchMetadataForStruct(key: string): [LookupPatchMeta, PatchMeta] {
    if (this.schema?.type === 'array')
      throw new Error('merging an object in json but data type is not struct, instead is: slice');
    const p = this.property(key);
    if (!p) return [new PatchMetaFromOpenAPI(undefined), noMeta];
    return [new PatchMetaFromOpenAPI(resolve(p)), patchMetaOf(p)];
  }

  lookupPatchMetadataForSlice(key: string): [LookupPatchMeta, PatchMeta] {
    const p = this.property(key);
    if (!p) return [new PatchMetaFromOpenAPI(undefined), noMeta];
    const field = resolve(p);
    if (field && field.type !== 'array' && field.type !== undefined)
      throw new Error(`expected slice or array type, but got: ${this.name()}`);
    // sliceItem.VisitArray: the elements' schema.
    return [new PatchMetaFromOpenAPI(resolve(field?.items as Schema | undefined)), patchMetaOf(p)];
  }

  name(): string {
    return this.schema?.type === 'array' ? 'slice' : 'struct';
  }
}
