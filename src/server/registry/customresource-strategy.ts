// Mirrors apiextensions-apiserver pkg/registry/customresource/strategy.go (release-1.36):
// generation 1 on create and +1 for any change outside metadata; no unconditional updates;
// Validate checks the TypeMeta (`kind: Invalid value: "X": must be Widget`) and the metadata.
// The object is pruned per its CRD's structural schema (structural-pruning.ts) before the generation
// is compared and again as its canonical form (a `/status` write keeps the main strategy's).
// Deliberate difference: no schema validation; status-kept.ts adds the status subresource's rules.
import type { KubeObject } from '../../engine';
import { FieldPath, invalid, setOwn, type FieldError } from '../../engine/http-face';
import { nameIsDNSSubdomain, validateObjectMetaAccessor } from '../object-meta';
import { pruneCustomResource } from '../structural-pruning';
import { deepEqual, strategyDefaults, type ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

function nonMetadata(obj: KubeObject): Loose {
  const out: Loose = {};
  for (const [k, v] of Object.entries(obj)) if (k !== 'metadata') setOwn(out, k, v);
  return out;
}

/** customResourceStrategy for one served version of a CRD. */
export function customResourceStrategy(
  group: string,
  version: string,
  kind: string,
  namespaceScoped: boolean,
  openAPIV3Schema?: Readonly<Loose>,
): ObjectStrategy {
  // Without a schema (a `--crd` file may omit it) nothing is pruned.
  const prune = (obj: KubeObject): void => {
    if (openAPIV3Schema) pruneCustomResource(obj as unknown as Loose, openAPIV3Schema as Loose);
  };
  const apiVersion = group === '' ? version : `${group}/${version}`;
  const validateTypeMeta = (obj: KubeObject): FieldError[] => {
    const errs: FieldError[] = [];
    if (obj.kind !== kind)
      errs.push(invalid(FieldPath.of('kind'), obj.kind ?? '', `must be ${kind}`));
    if (obj.apiVersion !== apiVersion)
      errs.push(
        invalid(FieldPath.of('apiVersion'), obj.apiVersion ?? '', `must be ${group}/${version}`),
      );
    return errs;
  };
  return {
    ...strategyDefaults,
    groupKind: (obj) => ({
      group: (obj.apiVersion ?? '').includes('/') ? (obj.apiVersion ?? '').split('/')[0] : '',
      kind: obj.kind ?? '',
    }),
    namespaceScoped,
    allowUnconditionalUpdate: false,
    prepareForCreate(obj) {
      prune(obj);
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      prune(obj);
      if (!deepEqual(nonMetadata(obj), nonMetadata(old)))
        obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    // customResourceValidator.Validate: TypeMeta, then ValidateObjectMetaAccessor(NameIsDNSSubdomain).
    validate: (obj) => [
      ...validateTypeMeta(obj),
      ...validateObjectMetaAccessor(obj.metadata, namespaceScoped, nameIsDNSSubdomain),
    ],
    validateUpdate: (obj) => validateTypeMeta(obj),
    canonicalize: prune,
    resetFields: () => ({}),
  };
}
