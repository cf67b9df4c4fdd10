// Mirrors k8s.io/kube-openapi pkg/handler/handler.go (/openapi/v2) and pkg/handler3/handler.go
// (/openapi/v3 and its per group-version documents) as kube-apiserver release-1.36 serves them,
// with apiextensions-apiserver's builder for a custom resource's definition
// (`com.example.stable.v1.CronTab`: its openAPIV3Schema plus apiVersion, kind and metadata). The
// documents are compact: the built-in definitions of openapi-definitions.ts and, per resource, the
// REST operations with the operation ids, x-kubernetes-action and x-kubernetes-group-version-kind
// kube-apiserver gives them, and the query parameters kubectl looks for (fieldValidation on PATCH
// tells kubectl ≥ 1.27 the server validates fields). /openapi/v2 is JSON or gnostic protobuf (what
// kubectl ≤ 1.28 validates and explains with). Deliberate difference: a v3 document is JSON only;
// an Accept asking only for its protobuf gets the 406 (no body) kube-openapi answers for an Accept
// it cannot serve.
import { createHash } from 'crypto';
import {
  builtInDefinitionName,
  builtInDefinitions,
  definitionClosure,
  listMetaDefinition,
  objectMetaDefinition,
  patchDefinition,
  statusDefinition,
  type Schema,
} from './openapi-definitions';
import { encodeOpenAPIV2Document } from './openapi-v2-protobuf';
import type { ServedResource } from './served-resource';
import type { ServedResponse } from './served-response';

export interface OpenAPIRequest {
  /** The URL path, without the query. */
  path: string;
  query: URLSearchParams;
  accept?: string;
  ifNoneMatch?: string;
}

export interface OpenAPIOptions {
  /** info.version: the server's gitVersion. */
  gitVersion: string;
  /** Wall-clock now (ms), for the Expires header of a hashed v3 document. */
  now: number;
}

/** `apis/stable.example.com/v1` or `api/v1`: the v3 index key of a group version. */
export function openAPIV3Path(r: Pick<ServedResource, 'group' | 'version'>): string {
  return r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
}

/** apiextensions' definition name: the group reversed, then version and kind. */
export function definitionName(r: ServedResource): string {
  if (!r.jsonOnly) return builtInDefinitionName(r.kind);
  return `${r.group.split('.').reverse().join('.')}.${r.version}.${r.kind}`;
}

/** A list kind's definition name: the item's with the list kind. */
function listDefinitionName(r: ServedResource): string {
  return definitionName(r).replace(/[^.]+$/, r.listKind);
}

/**
 * The definitions the resources' operations need: the built-ins they use, one per custom
 * resource, each kind's list and the meta/v1 Patch and Status bodies.
 */
function definitionsFor(resources: readonly ServedResource[]): Record<string, Schema> {
  const all: Record<string, Schema> = { ...builtInDefinitions };
  for (const r of resources) {
    if (r.jsonOnly) all[definitionName(r)] = customResourceSchema(r);
    all[listDefinitionName(r)] = listSchema(r);
  }
  const roots = [patchDefinition, statusDefinition];
  for (const r of resources) roots.push(definitionName(r), listDefinitionName(r));
  const names = definitionClosure(roots, all);
  return Object.fromEntries(names.map((n) => [n, all[n]]));
}

function listSchema(r: ServedResource): Schema {
  const standard = standardProperties();
  return {
    type: 'object',
    description: `${r.listKind} is a list of ${r.kind}`,
    required: ['items'],
    properties: {
      apiVersion: standard.apiVersion,
      items: {
        type: 'array',
        description: `List of ${r.resource}.`,
        items: { $ref: `#/definitions/${definitionName(r)}`, default: {} },
      },
      kind: standard.kind,
      metadata: { $ref: `#/definitions/${listMetaDefinition}`, default: {} },
    },
    'x-kubernetes-group-version-kind': [{ group: r.group, kind: r.listKind, version: r.version }],
  };
}

function standardProperties(): Record<string, Schema> {
  return builtInDefinitions[builtInDefinitionName('Pod')].properties as Record<string, Schema>;
}

/**
 * A custom resource's definition as apiextensions-apiserver builds it: the manifest's schema,
 * with apiVersion, kind and metadata as every kind has them, and its group-version-kind.
 */
function customResourceSchema(r: ServedResource): Schema {
  const schema = (r.openAPIV3Schema ?? { type: 'object' }) as Schema;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const standard = standardProperties();
  return {
    ...schema,
    type: 'object',
    properties: {
      ...properties,
      apiVersion: standard.apiVersion,
      kind: standard.kind,
      metadata: { $ref: `#/definitions/${objectMetaDefinition}` },
    },
    'x-kubernetes-group-version-kind': [{ group: r.group, kind: r.kind, version: r.version }],
  };
}

/** kube's operation id stem: `CoreV1` or `StableExampleComV1`. */
function operationGroup(r: ServedResource): string {
  const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
  const group = r.group === '' ? 'core' : r.group;
  return group.split(/[.-]/).map(cap).join('') + cap(r.version);
}

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  action: string;
  operationId: string;
  /** Query parameters besides the path's. */
  query: readonly string[];
  /** The operation takes the object as its body. */
  body?: 'object' | 'patch' | 'delete';
  responseSchema: string;
}

const writeParams = ['dryRun', 'fieldManager', 'fieldValidation'];
const listParams = [
  'allowWatchBookmarks',
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
  'watch',
];

/** The REST paths of one resource and their operations, as the installer registers them. */
function restPaths(r: ServedResource): { path: string; pathParams: string[]; ops: Operation[] }[] {
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const og = operationGroup(r);
  const scoped = r.namespaced ? 'Namespaced' : '';
  const collection = r.namespaced
    ? `${prefix}/namespaces/{namespace}/${r.resource}`
    : `${prefix}/${r.resource}`;
  const ns = r.namespaced ? ['namespace'] : [];
  const self = definitionName(r);
  const list = listDefinitionName(r);
  const has = (v: string): boolean => r.verbs.includes(v);
  const out: { path: string; pathParams: string[]; ops: Operation[] }[] = [];
  const collectionOps: Operation[] = [];
  if (has('list'))
    collectionOps.push({
      method: 'get',
      action: 'list',
      operationId: `list${og}${scoped}${r.kind}`,
      query: listParams,
      responseSchema: list,
    });
  if (has('create'))
    collectionOps.push({
      method: 'post',
      action: 'post',
      operationId: `create${og}${scoped}${r.kind}`,
      query: writeParams,
      body: 'object',
      responseSchema: self,
    });
  if (has('deletecollection'))
    collectionOps.push({
      method: 'delete',
      action: 'deletecollection',
      operationId: `delete${og}Collection${scoped}${r.kind}`,
      query: ['dryRun', ...listParams.filter((p) => p !== 'watch' && p !== 'allowWatchBookmarks')],
      body: 'delete',
      responseSchema: statusDefinition,
    });
  out.push({ path: collection, pathParams: ns, ops: collectionOps });
  const itemOps: Operation[] = [];
  if (has('get'))
    itemOps.push({
      method: 'get',
      action: 'get',
      operationId: `read${og}${scoped}${r.kind}`,
      query: [],
      responseSchema: self,
    });
  if (has('update'))
    itemOps.push({
      method: 'put',
      action: 'put',
      operationId: `replace${og}${scoped}${r.kind}`,
      query: writeParams,
      body: 'object',
      responseSchema: self,
    });
  if (has('delete'))
    itemOps.push({
      method: 'delete',
      action: 'delete',
      operationId: `delete${og}${scoped}${r.kind}`,
      query: ['dryRun', 'gracePeriodSeconds', 'propagationPolicy'],
      body: 'delete',
      responseSchema: statusDefinition,
    });
  if (has('patch'))
    itemOps.push({
      method: 'patch',
      action: 'patch',
      operationId: `patch${og}${scoped}${r.kind}`,
      query: [...writeParams, 'force'],
      body: 'patch',
      responseSchema: self,
    });
  out.push({ path: `${collection}/{name}`, pathParams: [...ns, 'name'], ops: itemOps });
  if (r.namespaced && has('list'))
    out.push({
      path: `${prefix}/${r.resource}`,
      pathParams: [],
      ops: [
        {
          method: 'get',
          action: 'list',
          operationId: `list${og}${r.kind}ForAllNamespaces`,
          query: listParams,
          responseSchema: list,
        },
      ],
    });
  return out;
}

const paramTypes: Record<string, string> = {
  allowWatchBookmarks: 'boolean',
  force: 'boolean',
  gracePeriodSeconds: 'integer',
  limit: 'integer',
  sendInitialEvents: 'boolean',
  timeoutSeconds: 'integer',
  watch: 'boolean',
};

const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

function gvkOf(r: ServedResource): Schema {
  return { group: r.group, kind: r.kind, version: r.version };
}

/** One group version's OpenAPI v3 document (handler3's per-group-version answer). */
export function openAPIV3Document(
  resources: readonly ServedResource[],
  gitVersion: string,
): Schema {
  const paths: Record<string, Schema> = {};
  const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
  for (const r of [...resources].sort((a, b) => (a.resource < b.resource ? -1 : 1))) {
    for (const p of restPaths(r)) {
      if (p.ops.length === 0) continue;
      const item: Schema = {};
      for (const op of p.ops) {
        const o: Schema = {
          description: `${op.action} ${r.kind}`,
          operationId: op.operationId,
          parameters: op.query.map((name) => ({
            name,
            in: 'query',
            schema: { type: paramTypes[name] ?? 'string', uniqueItems: true },
          })),
          responses: {
            '200': {
              description: 'OK',
              content: { 'application/json': { schema: ref(op.responseSchema) } },
            },
            '401': { description: 'Unauthorized' },
          },
          'x-kubernetes-action': op.action,
          'x-kubernetes-group-version-kind': gvkOf(r),
        };
        if (op.body === 'object')
          o.requestBody = {
            content: { '*/*': { schema: ref(definitionName(r)) } },
            required: true,
          };
        if (op.body === 'patch')
          o.requestBody = {
            content: Object.fromEntries(
              patchTypes.map((t) => [t, { schema: ref(patchDefinition) }]),
            ),
            required: true,
          };
        item[op.method] = o;
      }
      item.parameters = p.pathParams.map((name) => ({
        name,
        in: 'path',
        required: true,
        description:
          name === 'name'
            ? `name of the ${r.kind}`
            : 'object name and auth scope, such as for teams and projects',
        schema: { type: 'string', uniqueItems: true },
      }));
      paths[p.path] = item;
    }
  }
  const schemas: Record<string, Schema> = {};
  for (const [name, s] of Object.entries(definitionsFor(resources)))
    schemas[name] = v3Refs(s) as Schema;
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: gitVersion },
    paths,
    components: {
      schemas,
      securitySchemes: {
        BearerToken: {
          type: 'apiKey',
          description: 'Bearer Token authentication',
          name: 'authorization',
          in: 'header',
        },
      },
    },
  };
}

function v3Refs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(v3Refs);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string'
          ? v.replace('#/definitions/', '#/components/schemas/')
          : v3Refs(v),
      ]),
    );
  }
  return node;
}

/** The /openapi/v2 document: every served resource's paths and definitions. */
export function openAPIV2Document(
  resources: readonly ServedResource[],
  gitVersion: string,
): Schema {
  const paths: Record<string, Schema> = {};
  const ref = (name: string): Schema => ({ $ref: `#/definitions/${name}` });
  for (const r of resources) {
    for (const p of restPaths(r)) {
      if (p.ops.length === 0) continue;
      const item: Schema = {};
      for (const op of p.ops) {
        const parameters: Schema[] = op.query.map((name) => ({
          uniqueItems: true,
          type: paramTypes[name] ?? 'string',
          name,
          in: 'query',
        }));
        if (op.body === 'object')
          parameters.unshift({
            name: 'body',
            in: 'body',
            required: true,
            schema: ref(definitionName(r)),
          });
        if (op.body === 'patch')
          parameters.unshift({
            name: 'body',
            in: 'body',
            required: true,
            schema: ref(patchDefinition),
          });
        const o: Schema = {
          description: `${op.action} ${r.kind}`,
          consumes: op.body === 'patch' ? patchTypes : ['*/*'],
          produces: ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
          schemes: ['https'],
          operationId: op.operationId,
          parameters,
          responses: {
            '200': { description: 'OK', schema: ref(op.responseSchema) },
            '401': { description: 'Unauthorized' },
          },
          'x-kubernetes-action': op.action,
          'x-kubernetes-group-version-kind': gvkOf(r),
        };
        item[op.method] = o;
      }
      item.parameters = p.pathParams.map((name) => ({
        uniqueItems: true,
        type: 'string',
        name,
        in: 'path',
        required: true,
      }));
      paths[p.path] = item;
    }
  }
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: gitVersion },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1))),
    definitions: definitionsFor(resources),
    securityDefinitions: {
      BearerToken: {
        description: 'Bearer Token authentication',
        type: 'apiKey',
        name: 'authorization',
        in: 'header',
      },
    },
    security: [{ BearerToken: [] }],
  };
}

/** computeETag: the upper-case hex SHA-512 of the document bytes. */
function computeETag(data: string): string {
  return createHash('sha512').update(data).digest('hex').toUpperCase();
}

/** The group versions served, each with its resources, in index order. */
function groupVersions(resources: readonly ServedResource[]): Map<string, ServedResource[]> {
  const out = new Map<string, ServedResource[]>();
  for (const r of [...resources].sort((a, b) => (openAPIV3Path(a) < openAPIV3Path(b) ? -1 : 1))) {
    const key = openAPIV3Path(r);
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

type OpenAPIFormat = 'json' | 'protobuf';

// kube-openapi's accepted types, in its order; a v3 document is served as JSON only here.
const v2Formats: [string, string, OpenAPIFormat][] = [
  ['application', 'json', 'json'],
  ['application', 'com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
  ['application', 'com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
];
const v3Formats = v2Formats.slice(0, 1);

/** The protobuf v2 document's Content-Type (kube-openapi's ReturnedContentType). */
export const openAPIV2ProtobufContentType =
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** The first format a clause of the Accept header (goautoneg's order) matches. */
function negotiateFormat(
  accept: string | undefined,
  formats: readonly [string, string, OpenAPIFormat][],
): OpenAPIFormat | undefined {
  const header = accept && accept.trim() !== '' ? accept : '*/*';
  const clauses = header
    .split(',')
    .map((part) => {
      const [range, ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const [type, subType = type === '*' ? '*' : ''] = range.trim().split('/');
      return { type: type.trim(), subType: subType.trim(), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((c) => c.subType !== '')
    .sort((a, b) => b.q - a.q);
  for (const c of clauses) {
    for (const [type, subType, format] of formats) {
      if ((c.type === type || c.type === '*') && (c.subType === subType || c.subType === '*'))
        return format;
    }
  }
  return undefined;
}

/** 406 with no body: what kube-openapi writes when no clause matches. */
const notAcceptable: ServedResponse = { status: 406, headers: { Vary: 'Accept' }, body: '' };

/**
 * GET /openapi/v2, /openapi/v3 and /openapi/v3/<group-version path>; undefined for any other
 * path and for a group version not served.
 */
export function serveOpenAPI(
  req: OpenAPIRequest,
  resources: readonly ServedResource[],
  o: OpenAPIOptions,
): ServedResponse | undefined {
  // A built-in whose schema is not here yet is left out: a reference to a missing definition
  // breaks every client that validates with the document (kubectl 1.20's SchemaError).
  resources = resources.filter(
    (r) => r.jsonOnly || Object.hasOwn(builtInDefinitions, definitionName(r)),
  );
  const path = req.path.replace(/\/$/, '');
  if (path === '/openapi/v2') {
    const format = negotiateFormat(req.accept, v2Formats);
    if (!format) return notAcceptable;
    const doc = openAPIV2Document(resources, o.gitVersion);
    const json = JSON.stringify(doc);
    // One ETag for both forms: kube-openapi hashes the JSON, and Vary keeps caches apart.
    const etag = `"${computeETag(json)}"`;
    const body = format === 'json' ? json : encodeOpenAPIV2Document(doc);
    const headers = {
      Vary: 'Accept',
      'Content-Type': format === 'json' ? 'application/json' : openAPIV2ProtobufContentType,
      Etag: etag,
    };
    if (req.ifNoneMatch === etag)
      return { status: 304, headers: { Vary: 'Accept', Etag: etag }, body: '' };
    return { status: 200, headers, body };
  }
  if (!path.startsWith('/openapi/v3')) return undefined;
  const gvs = groupVersions(resources);
  const documents = new Map(
    [...gvs].map(([key, rs]) => [key, JSON.stringify(openAPIV3Document(rs, o.gitVersion))]),
  );
  if (path === '/openapi/v3') {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const [key, doc] of documents)
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${computeETag(doc)}` };
    return {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ paths }),
    };
  }
  const key = path.slice('/openapi/v3/'.length);
  const doc = documents.get(key);
  if (doc === undefined) return undefined;
  if (!negotiateFormat(req.accept, v3Formats)) return notAcceptable;
  const etag = computeETag(doc);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Etag: `"${etag}"` };
  const hash = req.query.get('hash');
  if (hash) {
    // An old hash: the document changed since the client read the index.
    if (hash !== etag)
      return { status: 301, headers: { Location: `/openapi/v3/${key}?hash=${etag}` }, body: '' };
    headers.Vary = 'Accept';
    headers['Cache-Control'] = 'public, immutable';
    headers.Expires = new Date(o.now + 365 * 24 * 3600 * 1000).toUTCString();
  }
  if (req.ifNoneMatch === `"${etag}"`) return { status: 304, headers, body: '' };
  return { status: 200, headers, body: doc };
}
