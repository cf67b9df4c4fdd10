// Mirrors apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go (release-1.36): a
// custom object keeps only the fields its CRD's structural schema specifies (properties, or
// additionalProperties), unless x-kubernetes-preserve-unknown-fields keeps the unknown ones; at the
// root, and inside x-kubernetes-embedded-resource, apiVersion, kind and metadata always stay.
// unknownFieldPaths is PruneWithOptions' TrackUnknownFieldPaths (what fieldValidation reports).
// Deliberate differences: the schema is read as the CRD's JSON (no Structural type); metadata is
// not coerced to ObjectMeta's fields here (the object-meta rules check it).

type Loose = Record<string, unknown>;

const isRecord = (v: unknown): v is Loose =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * structuralpruning.PruneWithOptions(obj, schema, isResourceRoot: true): `obj` pruned in place
 * per the openAPIV3Schema `schema`.
 */
export function pruneCustomResource(obj: Loose, schema: Loose): void {
  prune(obj, schema, true, '', undefined);
}

/** The paths pruning would drop from `obj` (`spec.items[0].x`), sorted; `obj` is left as it was. */
export function unknownFieldPaths(obj: Loose, schema: Loose): string[] {
  const unknown: string[] = [];
  prune(structuredClone(obj), schema, true, '', unknown);
  return unknown.sort();
}

const keyPath = (parent: string, k: string): string => (parent === '' ? k : `${parent}.${k}`);

// prune: what `schema` (undefined: no schema, everything unknown) does not specify goes.
function prune(
  x: unknown,
  schema: Loose | undefined,
  isResourceRoot: boolean,
  path: string,
  unknown: string[] | undefined,
): void {
  if (schema?.['x-kubernetes-preserve-unknown-fields'] === true)
    return skipPrune(x, schema, isResourceRoot, path, unknown);
  if (Array.isArray(x)) {
    x.forEach((item, i) => prune(item, itemsOf(schema), false, `${path}[${i}]`, unknown));
    return;
  }
  if (!isRecord(x)) return;
  if (schema === undefined && !isResourceRoot) {
    for (const k of Object.keys(x)) {
      unknown?.push(keyPath(path, k));
      delete x[k];
    }
    return;
  }
  const embedded = isResourceRoot || schema?.['x-kubernetes-embedded-resource'] === true;
  for (const k of Object.keys(x)) {
    if (embedded && metaFields.has(k)) continue;
    const next = specified(schema, k);
    if (next === 'unspecified') {
      unknown?.push(keyPath(path, k));
      delete x[k];
    } else prune(x[k], next, false, keyPath(path, k), unknown);
  }
}

// skipPrune: unknown fields stay; the specified ones are pruned below.
function skipPrune(
  x: unknown,
  schema: Loose,
  isResourceRoot: boolean,
  path: string,
  unknown: string[] | undefined,
): void {
  if (Array.isArray(x)) {
    const items = itemsOf(schema);
    if (items) x.forEach((item, i) => skipPrune(item, items, false, `${path}[${i}]`, unknown));
    return;
  }
  if (!isRecord(x)) return;
  const embedded = isResourceRoot || schema['x-kubernetes-embedded-resource'] === true;
  for (const k of Object.keys(x)) {
    if (embedded && metaFields.has(k)) continue;
    const next = specified(schema, k);
    if (next !== 'unspecified') prune(x[k], next, false, keyPath(path, k), unknown);
  }
}

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

function itemsOf(schema: Loose | undefined): Loose | undefined {
  return schema && isRecord(schema.items) ? schema.items : undefined;
}

// The schema of field `k`: its property's, else additionalProperties' (a bare `true` specifies
// nothing below), else unspecified.
function specified(schema: Loose | undefined, k: string): Loose | undefined | 'unspecified' {
  const properties = schema && isRecord(schema.properties) ? schema.properties : {};
  if (Object.hasOwn(properties, k)) {
    const p = properties[k];
    return isRecord(p) ? p : undefined;
  }
  const additional = schema?.additionalProperties;
  if (isRecord(additional)) return additional;
  if (additional === true) return { 'x-kubernetes-preserve-unknown-fields': true };
  return 'unspecified';
}
