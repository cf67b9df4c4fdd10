// Reads an apiextensions.k8s.io/v1 CustomResourceDefinition manifest (YAML or JSON) into what the
// registry serves for it: group, storage version, scope, names and additionalPrinterColumns, as
// kubernetes/apiextensions-apiserver's crdHandler takes them from the CRD. One code path for a
// `--crd` file and a CRD created through the API (customresourcedefinition-controller.ts reads the
// stored object with customResourceDefinitionOf). Every version with served: true is served, each
// with its own schema, printer columns and subresources, over the one storage of the storage
// version (custom-resource-conversion.ts). Deliberate differences: a `--crd` file's schema is not
// validated (the API's is, in
// registry/customresourcedefinition-strategy.ts); custom objects are pruned by
// structural-pruning.ts.
import { loadAll } from 'js-yaml';
import type { PrinterColumn } from './served-resource';

/** What the registry needs from one CRD. */
export interface CustomResourceDefinition {
  /** metadata.name: `<plural>.<group>`. */
  name: string;
  group: string;
  /** The version with `storage: true`. */
  version: string;
  /** Whether any version is served: false stores the CRD without serving it (default true). */
  served?: boolean;
  /** Every version with served: true (the storage version's facts are also the fields below). */
  servedVersions?: CustomResourceDefinitionVersion[];
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames: string[];
  categories: string[];
  namespaced: boolean;
  printerColumns: PrinterColumn[];
  /** The storage version's schema.openAPIV3Schema, when it has one (the field manager's type). */
  openAPIV3Schema?: Record<string, unknown>;
  /** The storage version's subresources (status, scale), when it declares any. */
  subresources?: CustomResourceSubresources;
}

/** What one served version (apiextensions.k8s.io/v1 CustomResourceDefinitionVersion) brings. */
export interface CustomResourceDefinitionVersion {
  name: string;
  printerColumns: PrinterColumn[];
  openAPIV3Schema?: Record<string, unknown>;
  subresources?: CustomResourceSubresources;
}

/** apiextensions.k8s.io/v1 CustomResourceSubresources. */
export interface CustomResourceSubresources {
  /** `status: {}`: the `/status` subresource is served. */
  status: boolean;
  /** CustomResourceSubresourceScale: JSON paths (`.spec.replicas`) into the custom resource. */
  scale?: CustomResourceSubresourceScale;
}

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** A manifest that is not a CRD the server can serve: says where and what was expected. */
export class CrdError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'CrdError';
  }
}

/** Every CustomResourceDefinition in a manifest's text (one or more YAML documents, or JSON). */
export function parseCrdManifest(text: string, file: string): CustomResourceDefinition[] {
  let docs: unknown[];
  try {
    docs = loadAll(text).filter((d) => d !== null && d !== undefined);
  } catch (e) {
    throw new CrdError(file, `not YAML or JSON: ${(e as Error).message}`);
  }
  const items = docs.flatMap((d) => (isRecord(d) && d.kind === 'List' ? asArray(d.items) : [d]));
  if (items.length === 0) throw new CrdError(file, 'no CustomResourceDefinition in the file');
  return items.map((d, i) =>
    customResourceDefinitionOf(d, items.length > 1 ? `${file} (document ${i + 1})` : file),
  );
}

/** What the registry serves for one CRD object (`where` names it in a CrdError). */
export function customResourceDefinitionOf(doc: unknown, where: string): CustomResourceDefinition {
  if (!isRecord(doc)) throw new CrdError(where, 'expected an object');
  if (doc.apiVersion !== 'apiextensions.k8s.io/v1' || doc.kind !== 'CustomResourceDefinition')
    throw new CrdError(
      where,
      `expected apiVersion apiextensions.k8s.io/v1, kind CustomResourceDefinition, got ${JSON.stringify(doc.apiVersion)}, ${JSON.stringify(doc.kind)}`,
    );
  const spec = record(doc.spec, where, 'spec');
  const names = record(spec.names, where, 'spec.names');
  const group = str(spec.group, where, 'spec.group');
  const plural = str(names.plural, where, 'spec.names.plural');
  const kind = str(names.kind, where, 'spec.names.kind');
  const scope = str(spec.scope, where, 'spec.scope');
  if (scope !== 'Namespaced' && scope !== 'Cluster')
    throw new CrdError(where, `spec.scope: expected "Namespaced" or "Cluster", got "${scope}"`);
  const versions = asArray(spec.versions).filter(isRecord);
  const storage = versions.filter((v) => v.storage === true);
  if (storage.length !== 1)
    throw new CrdError(
      where,
      `spec.versions: expected exactly one version with storage: true, got ${storage.length}`,
    );
  const version = str(storage[0].name, where, 'spec.versions[].name');
  const name = doc.metadata && isRecord(doc.metadata) ? doc.metadata.name : undefined;
  if (name !== undefined && name !== `${plural}.${group}`)
    throw new CrdError(where, `metadata.name: must be spec.names.plural+"."+spec.group`);
  const servedVersions = versions
    .filter((v) => v.served !== false)
    .map((v) => {
      const n = str(v.name, where, 'spec.versions[].name');
      return {
        name: n,
        printerColumns: printerColumnsOf(v, where, n),
        openAPIV3Schema: schemaOf(v),
        ...subresourcesOf(v, where, n),
      };
    });
  return {
    name: `${plural}.${group}`,
    group,
    version,
    served: servedVersions.length > 0,
    servedVersions,
    plural,
    singular: typeof names.singular === 'string' ? names.singular : kind.toLowerCase(),
    kind,
    listKind: typeof names.listKind === 'string' ? names.listKind : `${kind}List`,
    shortNames: asArray(names.shortNames).filter((s): s is string => typeof s === 'string'),
    categories: asArray(names.categories).filter((s): s is string => typeof s === 'string'),
    namespaced: scope === 'Namespaced',
    printerColumns: printerColumnsOf(storage[0], where, version),
    openAPIV3Schema: schemaOf(storage[0]),
    ...subresourcesOf(storage[0], where, version),
  };
}

// The version's additionalPrinterColumns.
function printerColumnsOf(
  version: Record<string, unknown>,
  where: string,
  name: string,
): PrinterColumn[] {
  return asArray(version.additionalPrinterColumns).map((c, i) =>
    printerColumnOf(c, where, `spec.versions[${name}].additionalPrinterColumns[${i}]`),
  );
}

// The version's subresources (per version, or the deprecated spec.subresources is v1beta1's only).
function subresourcesOf(
  version: Record<string, unknown>,
  where: string,
  name: string,
): { subresources?: CustomResourceSubresources } {
  if (version.subresources === undefined || version.subresources === null) return {};
  const field = `spec.versions[${name}].subresources`;
  const sub = record(version.subresources, where, field);
  const out: CustomResourceSubresources = { status: isRecord(sub.status) };
  if (sub.scale !== undefined && sub.scale !== null) {
    const scale = record(sub.scale, where, `${field}.scale`);
    out.scale = {
      specReplicasPath: str(scale.specReplicasPath, where, `${field}.scale.specReplicasPath`),
      statusReplicasPath: str(scale.statusReplicasPath, where, `${field}.scale.statusReplicasPath`),
    };
    if (typeof scale.labelSelectorPath === 'string' && scale.labelSelectorPath !== '')
      out.scale.labelSelectorPath = scale.labelSelectorPath;
  }
  return { subresources: out };
}

// The version's schema.openAPIV3Schema as the manifest gives it (not validated here).
function schemaOf(version: Record<string, unknown>): Record<string, unknown> | undefined {
  const schema = version.schema as Record<string, unknown> | undefined;
  const v3 = schema?.openAPIV3Schema;
  return v3 && typeof v3 === 'object' && !Array.isArray(v3)
    ? (v3 as Record<string, unknown>)
    : undefined;
}

function printerColumnOf(c: unknown, where: string, field: string): PrinterColumn {
  const col = record(c, where, field);
  const out: PrinterColumn = {
    name: str(col.name, where, `${field}.name`),
    type: str(col.type, where, `${field}.type`),
    jsonPath: str(col.jsonPath, where, `${field}.jsonPath`),
  };
  if (typeof col.format === 'string') out.format = col.format;
  if (typeof col.description === 'string') out.description = col.description;
  if (typeof col.priority === 'number') out.priority = col.priority;
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function record(v: unknown, where: string, field: string): Record<string, unknown> {
  if (!isRecord(v)) throw new CrdError(where, `${field}: expected an object`);
  return v;
}

function str(v: unknown, where: string, field: string): string {
  if (typeof v !== 'string' || v === '')
    throw new CrdError(where, `${field}: expected a non-empty string`);
  return v;
}
