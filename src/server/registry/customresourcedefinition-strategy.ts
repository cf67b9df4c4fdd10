// Mirrors apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go (release-1.36)
// with the parts of pkg/apis/apiextensions/validation/validation.go and
// pkg/apiserver/schema/validation.go (ValidateStructural) it calls, and the v1 defaults
// (pkg/apis/apiextensions/v1/defaults.go): status cleared and storedVersions started on create,
// status kept and generation bumped by a spec change on update, the name `<plural>.<group>`, the
// spec's rules and a structural schema. Deliberate differences: the v1 defaults are applied here
// (no decoding step per kind); the validation covers the rules below (no CEL, defaults, list-type,
// conversion webhook, printer column JSONPath, subresource path checks); a bad value that is a Go
// struct is printed as the JSON the client sent (upstream prints the internal type).
import type { KubeObject } from '../../engine';
import {
  FieldPath,
  invalid,
  isDNS1123Subdomain,
  notSupported,
  required,
  type FieldError,
} from '../../engine/http-face';
import {
  nameIsDNSSubdomain,
  validateObjectMetaAccessor,
  type ValidateNameFunc,
} from '../object-meta';
import { statusStrategyOf } from './status-strategy';
import { deepEqual, fixedKind, strategyDefaults, type ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

/** apiextensions.CustomResourceCleanupFinalizer: its custom objects are deleted before it goes. */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

const isRecord = (v: unknown): v is Loose =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function specOf(obj: KubeObject): Loose {
  const o = obj as unknown as Loose;
  if (!isRecord(o.spec)) o.spec = {};
  return o.spec as Loose;
}

/** The spec's versions as objects (a non-object entry reads as an empty version). */
function versionsOf(spec: Loose): Loose[] {
  return asArray(spec.versions).map((v) => (isRecord(v) ? v : {}));
}

/** SetDefaults_CustomResourceDefinitionSpec and its versions' defaults (v1/defaults.go). */
function setDefaults(obj: KubeObject): void {
  const spec = specOf(obj);
  const names = isRecord(spec.names) ? spec.names : (spec.names = {});
  const kind = str(names.kind);
  if (str(names.singular) === '') names.singular = kind.toLowerCase();
  if (str(names.listKind) === '' && kind !== '') names.listKind = `${kind}List`;
  if (!isRecord(spec.conversion)) spec.conversion = { strategy: 'None' };
  if (spec.conversion && isRecord(spec.conversion) && spec.conversion.strategy === undefined)
    spec.conversion.strategy = 'None';
}

/** The storage version's name, or undefined when no version (or more than one) is marked. */
function storageVersion(spec: Loose): string | undefined {
  const storage = versionsOf(spec).filter((v) => v.storage === true);
  return storage.length >= 1 ? str(storage[0].name) : undefined;
}

/** Adds the storage version to status.storedVersions (IsStoredVersion, else append). */
function addStoredVersion(obj: KubeObject): void {
  const o = obj as unknown as Loose;
  const v = versionsOf(specOf(obj)).find((x) => x.storage === true);
  if (!v) return;
  const status = isRecord(o.status) ? o.status : (o.status = {});
  const stored = asArray(status.storedVersions).filter((s): s is string => typeof s === 'string');
  if (!stored.includes(str(v.name))) status.storedVersions = [...stored, str(v.name)];
}

/** strategy: the main resource of customresourcedefinitions. */
export const customResourceDefinitionStrategy: ObjectStrategy = {
  ...strategyDefaults,
  groupKind: fixedKind('apiextensions.k8s.io', 'CustomResourceDefinition'),
  namespaceScoped: false,
  allowUnconditionalUpdate: false,
  prepareForCreate(obj) {
    setDefaults(obj);
    (obj as unknown as Loose).status = {};
    obj.metadata.generation = 1;
    addStoredVersion(obj);
  },
  prepareForUpdate(obj, old) {
    setDefaults(obj);
    const o = obj as unknown as Loose;
    const prev = old as unknown as Loose;
    if (prev.status === undefined) delete o.status;
    else o.status = structuredClone(prev.status);
    if (!deepEqual(o.spec, prev.spec)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    addStoredVersion(obj);
  },
  validate: (obj) => validateCustomResourceDefinition(obj),
  // ValidateCustomResourceDefinitionUpdate: the same rules (its ratcheting options aside), plus the
  // metadata update rules rest.BeforeUpdate runs.
  validateUpdate: (obj) => validateCustomResourceDefinition(obj).filter(notMetadataName),
  resetFields: () => ({
    'apiextensions.k8s.io/v1': [['status']],
    'apiextensions.k8s.io/v1beta1': [['status']],
  }),
};

/**
 * statusStrategy: spec kept, status from the request; of the metadata only labels, annotations,
 * owner references and generation are kept (the finalizer controller removes its finalizer here).
 */
export const customResourceDefinitionStatusStrategy: ObjectStrategy = (() => {
  const base = statusStrategyOf(customResourceDefinitionStrategy, 'apiextensions.k8s.io/v1');
  return {
    ...base,
    prepareForUpdate(obj, old) {
      const finalizers = (obj.metadata as Loose).finalizers;
      base.prepareForUpdate(obj, old);
      const meta = obj.metadata as Loose;
      if (finalizers === undefined) delete meta.finalizers;
      else meta.finalizers = finalizers;
    },
    resetFields: () => ({
      'apiextensions.k8s.io/v1': [['spec']],
      'apiextensions.k8s.io/v1beta1': [['spec']],
    }),
  };
})();

// The name is immutable on update (the metadata update rules say so once).
const notMetadataName = (e: FieldError): boolean => e.field !== 'metadata.name';

/** ValidateCustomResourceDefinition. */
export function validateCustomResourceDefinition(obj: KubeObject): FieldError[] {
  const spec = isRecord((obj as unknown as Loose).spec) ? specOf(obj) : {};
  const names = isRecord(spec.names) ? spec.names : {};
  const nameFn: ValidateNameFunc = (name, prefix) => {
    const ret = nameIsDNSSubdomain(name, prefix);
    if (name !== `${str(names.plural)}.${str(spec.group)}`)
      ret.push('must be spec.names.plural+"."+spec.group');
    return ret;
  };
  const status = isRecord((obj as unknown as Loose).status)
    ? ((obj as unknown as Loose).status as Loose)
    : {};
  return [
    ...validateObjectMetaAccessor(obj.metadata, false, nameFn),
    ...validateSpec(spec, FieldPath.of('spec')),
    ...validateNames(
      isRecord(status.acceptedNames) ? status.acceptedNames : {},
      FieldPath.of('status', 'acceptedNames'),
    ),
    ...validateStoredVersions(status.storedVersions, versionsOf(spec)),
  ];
}

// validateCustomResourceDefinitionSpec, in upstream's order.
function validateSpec(spec: Loose, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const group = str(spec.group);
  if (group === '') errs.push(required(fldPath.child('group'), ''));
  else if (isDNS1123Subdomain(group).length > 0)
    errs.push(invalid(fldPath.child('group'), group, isDNS1123Subdomain(group).join(',')));
  else if (group.split('.').length < 2)
    errs.push(invalid(fldPath.child('group'), group, 'should be a domain with at least one dot'));
  const scope = str(spec.scope);
  if (scope === '') errs.push(required(fldPath.child('scope'), ''));
  else if (scope !== 'Cluster' && scope !== 'Namespaced')
    errs.push(notSupported(fldPath.child('scope'), scope, ['Cluster', 'Namespaced']));

  const versions = versionsOf(spec);
  const schemas = versions.map((v) =>
    isRecord(v.schema) && isRecord(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : undefined,
  );
  // The v1 → internal conversion moves per-version schemas that are all equal to the top-level
  // spec.validation, whose path the errors then name.
  const topLevel =
    schemas.length > 0 &&
    schemas[0] !== undefined &&
    schemas.every((s) => deepEqual(s, schemas[0]));
  if (schemas.every((s) => s === undefined) || !topLevel)
    schemas.forEach((s, i) => {
      if (s === undefined)
        errs.push(
          required(fldPath.child('versions').index(i).child('schema').child('openAPIV3Schema'), ''),
        );
    });
  let storageFlagCount = 0;
  const seen = new Set<string>();
  let uniqueNames = true;
  versions.forEach((v, i) => {
    if (v.storage === true) storageFlagCount++;
    const name = str(v.name);
    if (seen.has(name)) uniqueNames = false;
    seen.add(name);
    const nameErrs = isDNS1035Label(name);
    if (nameErrs.length > 0)
      errs.push(
        invalid(fldPath.child('versions').index(i).child('name'), name, nameErrs.join(',')),
      );
    if (!topLevel && schemas[i] !== undefined)
      errs.push(
        ...validateSchema(
          schemas[i],
          fldPath.child('versions').index(i).child('schema').child('openAPIV3Schema'),
        ),
      );
  });
  if (!uniqueNames)
    errs.push(
      invalid(fldPath.child('versions'), spec.versions, 'must contain unique version names'),
    );
  if (storageFlagCount !== 1)
    errs.push(
      invalid(
        fldPath.child('versions'),
        spec.versions ?? null,
        'must have exactly one version marked as storage version',
      ),
    );
  const namesPath = fldPath.child('names');
  const names = isRecord(spec.names) ? spec.names : {};
  for (const n of ['plural', 'singular', 'kind', 'listKind'])
    if (str(names[n]) === '') errs.push(required(namesPath.child(n), ''));
  errs.push(...validateNames(names, namesPath));
  if (topLevel)
    errs.push(...validateSchema(schemas[0]!, fldPath.child('validation').child('openAPIV3Schema')));
  return errs;
}

/** ValidateCustomResourceDefinitionNames. */
function validateNames(names: Loose, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const n of ['plural', 'singular']) {
    const v = str(names[n]);
    const e = isDNS1035Label(v);
    if (v !== '' && e.length > 0) errs.push(invalid(fldPath.child(n), v, e.join(',')));
  }
  for (const n of ['kind', 'listKind']) {
    const v = str(names[n]);
    const e = isDNS1035Label(v.toLowerCase());
    if (v !== '' && e.length > 0)
      errs.push(
        invalid(
          fldPath.child(n),
          v,
          'may have mixed case, but should otherwise match: ' + e.join(','),
        ),
      );
  }
  asArray(names.shortNames).forEach((s, i) => {
    const e = isDNS1035Label(str(s));
    if (e.length > 0) errs.push(invalid(fldPath.child('shortNames').index(i), s, e.join(',')));
  });
  if (str(names.kind) !== '' && names.kind === names.listKind)
    errs.push(
      invalid(fldPath.child('listKind'), names.listKind, 'kind and listKind may not be the same'),
    );
  asArray(names.categories).forEach((c, i) => {
    const e = isDNS1035Label(str(c));
    if (e.length > 0) errs.push(invalid(fldPath.child('categories').index(i), c, e.join(',')));
  });
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(storedVersions: unknown, versions: Loose[]): FieldError[] {
  const fldPath = FieldPath.of('status', 'storedVersions');
  const stored = asArray(storedVersions).filter((s): s is string => typeof s === 'string');
  if (stored.length === 0)
    return [
      invalid(fldPath, stored.length ? stored : null, 'must have at least one stored version'),
    ];
  const errs: FieldError[] = [];
  const left = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    const name = str(v.name);
    if (v.storage === true && !left.has(name))
      errs.push(invalid(fldPath, stored, `must have the storage version ${name}`));
    left.delete(name);
  }
  for (const [v, i] of left)
    errs.push(
      invalid(
        fldPath.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  return errs;
}

/** openapiV3Types, sorted as sets.String.List() gives them. */
const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

const enum Level {
  Root,
  Item,
  Field,
}

/**
 * The schema rules: ValidateStructural's invariants (errors sorted by their text, as upstream
 * sorts them), then ValidateCustomResourceDefinitionOpenAPISchema's type check.
 */
export function validateSchema(schema: Loose, fldPath: FieldPath): FieldError[] {
  const structural = structuralInvariants(schema, Level.Root, fldPath).sort((a, b) =>
    a.message < b.message ? -1 : a.message > b.message ? 1 : 0,
  );
  return [...structural, ...propertyTypes(schema, fldPath)];
}

// validateStructuralInvariants (the type and items rules).
function structuralInvariants(s: Loose, lvl: Level, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  if (type === 'array' && !isRecord(s.items))
    errs.push(required(fldPath.child('items'), 'must be specified'));
  if (isRecord(s.items))
    errs.push(...structuralInvariants(s.items, Level.Item, fldPath.child('items')));
  if (isRecord(s.properties))
    for (const [k, v] of Object.entries(s.properties))
      if (isRecord(v))
        errs.push(...structuralInvariants(v, Level.Field, fldPath.child('properties').key(k)));
  if (isRecord(s.additionalProperties))
    errs.push(
      ...structuralInvariants(
        s.additionalProperties,
        Level.Field,
        fldPath.child('additionalProperties'),
      ),
    );
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (embedded && type !== 'object') {
    if (type === '')
      errs.push(
        required(fldPath.child('type'), 'must be object if x-kubernetes-embedded-resource is true'),
      );
    else
      errs.push(
        invalid(
          fldPath.child('type'),
          type,
          'must be object if x-kubernetes-embedded-resource is true',
        ),
      );
  } else if (
    type === '' &&
    s['x-kubernetes-int-or-string'] !== true &&
    s['x-kubernetes-preserve-unknown-fields'] !== true
  ) {
    const detail =
      lvl === Level.Root
        ? 'must not be empty at the root'
        : lvl === Level.Item
          ? 'must not be empty for specified array items'
          : 'must not be empty for specified object fields';
    errs.push(required(fldPath.child('type'), detail));
  }
  if (lvl === Level.Root && type !== '' && type !== 'object')
    errs.push(invalid(fldPath.child('type'), type, 'must be object at the root'));
  return errs;
}

// ValidateCustomResourceDefinitionOpenAPISchema's requireValidPropertyType, depth first.
function propertyTypes(s: Loose, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  if (type !== '' && !openapiV3Types.includes(type))
    errs.push(notSupported(fldPath.child('type'), type, openapiV3Types));
  if (isRecord(s.properties))
    for (const k of Object.keys(s.properties).sort()) {
      const v = s.properties[k];
      if (isRecord(v)) errs.push(...propertyTypes(v, fldPath.child('properties').key(k)));
    }
  if (isRecord(s.items)) errs.push(...propertyTypes(s.items, fldPath.child('items')));
  if (isRecord(s.additionalProperties))
    errs.push(...propertyTypes(s.additionalProperties, fldPath.child('additionalProperties')));
  return errs;
}

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelRegexp = new RegExp(`^${dns1035LabelFmt}$`);

/** validation.IsDNS1035Label. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (new TextEncoder().encode(value).length > 63) errs.push('must be no more than 63 bytes');
  if (!dns1035LabelRegexp.test(value))
    errs.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '" +
        dns1035LabelFmt +
        "')",
    );
  return errs;
}

/** The storage version of a CRD object's spec (the served resource's version). */
export { storageVersion };
