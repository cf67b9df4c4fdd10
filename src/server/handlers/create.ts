// Mirrors k8s.io/apiserver pkg/endpoints/handlers/create.go (release-1.36) createHandler and the
// generic registry's Store.Create (pkg/registry/generic/registry/store.go, rest.BeforeCreate):
// decode the body, check its apiVersion and namespace, let NamespaceLifecycle admission refuse a
// missing namespace, set the system fields, and Create through the etcd3 store. 201 with the object.
import { randomUUID } from 'node:crypto';
import { newBadRequest, newInvalid, newNotFound } from '../../engine/storage/errors';
import { decodeBody } from '../json-body';
import { FieldPath, required } from '../../engine/storage/field-errors';
import { formatRFC3339, type KubeObject } from '../../engine/storage/objects';
import type { RequestContext } from '../../engine/request/request-context';
import { canonicalObject } from '../canonical-object';
import type { Registry } from '../registry';
import type { ServedResource } from '../served-resource';
import type { RequestScope } from './request-scope';
import { writeResult } from './response';

/**
 * The request body as an object of the scope's resource (Content-Type, kind and apiVersion checked
 * as the decoder does); strict-decoding findings go out as Warning headers.
 */
export async function decodeObject(scope: RequestScope): Promise<KubeObject> {
  const { served } = scope;
  const decoded = decodeBody(
    await scope.body(),
    {
      group: served.group,
      version: served.version,
      kind: served.kind,
      unstructured: served.jsonOnly,
    },
    {
      contentType: scope.req.headers['content-type'],
      fieldValidation: scope.query.get('fieldValidation')?.[0],
    },
  );
  if (decoded.warnings.length > 0)
    scope.res.setHeader(
      'Warning',
      decoded.warnings.map((w) => `299 - ${JSON.stringify(w)}`),
    );
  const obj = decoded.object;
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  return obj;
}

/**
 * rest.EnsureObjectNamespaceMatchesRequestNamespace: an object without a namespace takes the
 * request's; a cluster-scoped object loses its; any other mismatch is a 400.
 */
export function ensureObjectNamespaceMatchesRequestNamespace(
  requestNamespace: string,
  obj: KubeObject,
): void {
  const ns = obj.metadata.namespace ?? '';
  if (ns === requestNamespace) return;
  if (ns === '') obj.metadata.namespace = requestNamespace;
  else if (requestNamespace === '') delete obj.metadata.namespace;
  else
    throw newBadRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
}

/** NamespaceLifecycle admission: a namespaced object goes only into a namespace that exists. */
async function admitNamespace(
  registry: Registry,
  served: ServedResource,
  namespace: string,
  context: RequestContext,
): Promise<void> {
  if (!served.namespaced) return;
  const ns = await registry.namespaces.engine.get('', namespace, '', true, context);
  if (ns === undefined) throw newNotFound({ group: '', resource: 'namespaces' }, namespace);
}

/** Whether the resource's strategy sets metadata.generation (pods since 1.33, custom resources). */
export function tracksGeneration(served: ServedResource): boolean {
  return served.jsonOnly || (served.group === '' && served.resource === 'pods');
}

/** The alphabet and length of names.SimpleNameGenerator's suffix. */
const generatedSuffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const generatedSuffixLength = 5;

/**
 * rest.BeforeCreate: system fields wiped and set (uid, creationTimestamp from the wall clock,
 * generation 1 where the strategy tracks it), a generateName expanded.
 */
export function beforeCreate(served: ServedResource, obj: KubeObject): void {
  const m = obj.metadata as Record<string, unknown>;
  for (const f of [
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'selfLink',
  ])
    delete m[f];
  if (!m.name && typeof m.generateName === 'string' && m.generateName !== '') {
    let suffix = '';
    for (let i = 0; i < generatedSuffixLength; i++)
      suffix += generatedSuffixAlphabet[Math.floor(Math.random() * generatedSuffixAlphabet.length)];
    m.name = `${m.generateName}${suffix}`;
  }
  if (!m.name)
    throw newInvalid({ group: served.group, kind: served.kind }, '', [
      required(FieldPath.of('metadata', 'name'), 'name or generateName is required'),
    ]);
  m.uid = randomUUID();
  m.creationTimestamp = formatRFC3339(Date.now());
  if (tracksGeneration(served)) m.generation = 1;
  else delete m.generation;
}

/** POST to a collection: create the object the body holds. */
export async function createResource(scope: RequestScope): Promise<void> {
  const obj = await decodeObject(scope);
  const { registry, served, info, context } = scope;
  const created = await createObject(registry, served, info.namespace, obj, context);
  writeResult(scope, 201, created);
}

/**
 * The create path after decoding (also the server's own seeding): namespace, NamespaceLifecycle,
 * BeforeCreate with the strategy's PrepareForCreate, and the store's Create.
 */
export async function createObject(
  registry: Registry,
  served: ServedResource,
  namespace: string,
  obj: KubeObject,
  context: RequestContext,
): Promise<KubeObject> {
  const requestNamespace = served.namespaced ? namespace : '';
  ensureObjectNamespaceMatchesRequestNamespace(requestNamespace, obj);
  await admitNamespace(registry, served, requestNamespace, context);
  beforeCreate(served, obj);
  prepareForCreate(served, obj);
  return served.engine.create(canonicalObject(served, obj), context);
}

/**
 * The strategies' PrepareForCreate, for what clients read back: a pod starts Pending; a namespace
 * is Active with the kubernetes finalizer and (NamespaceDefaultLabelName) its name as a label.
 */
function prepareForCreate(served: ServedResource, obj: KubeObject): void {
  if (served.jsonOnly || served.group !== '') return;
  const o = obj as KubeObject & { spec?: Record<string, unknown>; status?: unknown };
  if (served.resource === 'pods') o.status = { phase: 'Pending' };
  if (served.resource === 'namespaces') {
    const name = obj.metadata.name ?? '';
    obj.metadata.labels = { ...obj.metadata.labels, 'kubernetes.io/metadata.name': name };
    o.spec = { finalizers: ['kubernetes'] };
    o.status = { phase: 'Active' };
  }
}
