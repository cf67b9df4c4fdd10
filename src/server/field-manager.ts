// Mirrors the field manager kube-apiserver gives each endpoint (release-1.36): installer.go's
// managedfields.NewDefaultFieldManager over the server's OpenAPI type converter for a built-in,
// apiextensions-apiserver customresource_handler.go's over the CRD's structural schema (or
// NewDeducedTypeConverter without one), and rest.go's managerOrUserAgent / prefixFromUserAgent.
// The merge itself is structured-merge-diff/'s.
import { isPrint, utf8Length } from '../engine/http-face';
import { getOpenAPIDefinitions, objectMetaDefinition } from './openapi-definitions';
import { statusStrategyFor } from './registry/strategy-for';
import type { ServedResource } from './served-resource';
import {
  TypeConverter,
  deducedParseableType,
  FieldSet,
  makePath,
  type FieldManagerScope,
  type OpenAPISchema,
  type ParseableType,
} from './structured-merge-diff';
import { fieldManagerMaxLength } from './write-options';

/**
 * The server's OpenAPI definitions of the built-in kinds: the one place the field manager reads
 * them, so a change of where they come from reaches it.
 */
export function openAPIModels(): Readonly<Record<string, OpenAPISchema>> {
  return getOpenAPIDefinitions();
}

let builtIn: { models: object; converter: TypeConverter } | undefined;

/** The built-ins' TypeConverter, built once from openAPIModels(). */
function builtInTypeConverter(): TypeConverter {
  const models = openAPIModels();
  if (builtIn?.models !== models) builtIn = { models, converter: new TypeConverter(models) };
  return builtIn.converter;
}

// One per CRD schema object (a CRD update brings a new object).
const customResourceTypes = new WeakMap<object, ParseableType>();

// A custom resource's type from its openAPIV3Schema, as apiextensions-apiserver builds its
// model: the schema with apiVersion, kind and ObjectMeta's metadata, named by its GVK.
function customResourceType(r: ServedResource): ParseableType {
  const schema = r.openAPIV3Schema;
  if (!schema) return deducedParseableType;
  const cached = customResourceTypes.get(schema);
  if (cached) return cached;
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  const name = `${r.group}.${r.version}.${r.kind}`;
  const models: Record<string, OpenAPISchema> = {
    ...openAPIModels(),
    [name]: {
      ...schema,
      type: 'object',
      properties: {
        ...props,
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { $ref: `#/definitions/${objectMetaDefinition}` },
      },
      'x-kubernetes-group-version-kind': [{ group: r.group, version: r.version, kind: r.kind }],
    },
  };
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const type = new TypeConverter(models, preserve).typeFor(gv(r), r.kind) ?? deducedParseableType;
  customResourceTypes.set(schema, type);
  return type;
}

function gv(r: Pick<ServedResource, 'group' | 'version'>): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** The field manager's view of a write to `served` (subresource '' for the main resource). */
export function fieldManagerScope(served: ServedResource, subresource = ''): FieldManagerScope {
  const type = served.jsonOnly
    ? customResourceType(served)
    : (builtInTypeConverter().typeFor(gv(served), served.kind) ?? deducedParseableType);
  const resetFields = resetFieldsOf(served, subresource);
  return {
    type,
    apiVersion: gv(served),
    kind: served.kind,
    subresource,
    ...(resetFields ? { resetFields } : {}),
  };
}

/** The field manager of a `/scale` endpoint: autoscaling/v1 Scale's type, subresource scale. */
export function scaleFieldManagerScope(): FieldManagerScope {
  return {
    type: builtInTypeConverter().typeFor('autoscaling/v1', 'Scale') ?? deducedParseableType,
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    subresource: 'scale',
  };
}

/**
 * The reset fields of the endpoint's strategy (fieldmanager.NewDefaultFieldManager's
 * resetFields): status on a main resource with `/status`, spec on `/status`; none elsewhere.
 */
function resetFieldsOf(served: ServedResource, subresource: string): FieldSet | undefined {
  const strategy =
    subresource === ''
      ? served.store.createStrategy
      : subresource === 'status'
        ? statusStrategyFor(served, served.store.createStrategy)
        : undefined;
  const paths = strategy?.resetFields()[gv(served)];
  return paths && paths.length > 0 ? FieldSet.of(...paths.map((p) => makePath(...p))) : undefined;
}

/**
 * prefixFromUserAgent: what precedes the first `/`, unprintable characters dropped, cut to the
 * field manager's length limit (`kubectl/v1.35.0 (linux/amd64) …` → `kubectl`).
 */
export function prefixFromUserAgent(userAgent: string): string {
  const m = userAgent.split('/')[0];
  let out = '';
  let len = 0;
  for (const r of m) {
    if (!isPrint(r)) continue;
    const n = utf8Length(r);
    if (len + n > fieldManagerMaxLength) break;
    out += r;
    len += n;
  }
  return out;
}

/** managerOrUserAgent: the request's fieldManager, else its User-Agent's prefix. */
export function managerOrUserAgent(manager: string | undefined, userAgent: string): string {
  return manager ? manager : prefixFromUserAgent(userAgent);
}
