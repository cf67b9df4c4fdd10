// Mirrors k8s.io/apiserver pkg/endpoints/handlers/create.go (release-1.36) createHandler and the
// generic registry's Store.Create (pkg/registry/generic/registry/store.go, rest.BeforeCreate):
// decode the body, let NamespaceLifecycle admission (namespace-lifecycle.ts) refuse a missing or
// terminating namespace, object-meta.ts's
// beforeCreate (system fields, name validation), and Create through dry-run.ts's storage (the
// etcd3 store, or nothing written for ?dryRun=All). The options (write-options.ts) are checked
// after the body is read and before it is decoded, as there. 201.
import { randomInt } from 'node:crypto';
import {
  builtinBodyMediaTypes,
  customResourceBodyMediaTypes,
  decodeBody,
  negotiateInputMediaType,
} from '../json-body';
import type { KubeObject, RequestContext } from '../../engine';
import {
  beforeCreate,
  configMapStrategy,
  customResourceStrategy,
  nameIsDNSSubdomain,
  namespaceStrategy,
  podStrategy,
  validateObjectMetaAccessor,
  validatePathSegment,
  type ObjectStrategy,
  type RandomSource,
} from '../object-meta';
import { admitCreate } from '../namespace-lifecycle';
import { dryRunnableStorage, isDryRun } from '../dry-run';
import { writeOptionsOf, type WriteOptions } from '../write-options';
import type { Registry } from '../registry';
import type { ServedResource } from '../served-resource';
import type { RequestScope } from './request-scope';
import { writeResult } from './response';

/**
 * The request body as an object of the scope's resource (Content-Type, kind and apiVersion checked
 * as the decoder does); strict-decoding findings go out as Warning headers, and the audit event
 * learns the object's name (audit.LogRequestObject).
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
  scope.audit?.logRequestObject(
    obj.metadata,
    { group: served.group, version: served.version, resource: served.resource },
    scope.info.subresource,
  );
  return obj;
}

/** The strategy (rest.RESTCreateStrategy/RESTUpdateStrategy) of a served resource. */
export function objectStrategy(served: ServedResource): ObjectStrategy {
  if (served.jsonOnly)
    return customResourceStrategy(served.group, served.version, served.kind, served.namespaced);
  switch (served.resource) {
    case 'pods':
      return podStrategy;
    case 'configmaps':
      return configMapStrategy;
    case 'namespaces':
      return namespaceStrategy;
  }
  return builtinDefaultStrategy(served);
}

/**
 * Every other built-in kind until it has a strategy of its own: its kind, its scope, the name rule
 * of its validation (rbac's ValidateRBACName is a path segment, the rest a DNS subdomain) and
 * unconditional updates, as most built-in strategies allow. Deliberately nothing else: no
 * generation, no status reset, no spec validation.
 */
function builtinDefaultStrategy(served: ServedResource): ObjectStrategy {
  const nameFn =
    served.group === 'rbac.authorization.k8s.io' ? validatePathSegment : nameIsDNSSubdomain;
  return {
    groupKind: () => ({ group: served.group, kind: served.kind }),
    namespaceScoped: served.namespaced,
    allowUnconditionalUpdate: true,
    prepareForCreate() {},
    prepareForUpdate() {},
    validate: (obj) => validateObjectMetaAccessor(obj.metadata, served.namespaced, nameFn),
    validateUpdate: () => [],
  };
}

/** Node's CSPRNG as object-meta's RandomSource (uids and generated names in a live server). */
export const cryptoRandom: RandomSource = { intn: (n) => randomInt(n) };

/**
 * namespace.Strategy's Canonicalize (NamespaceDefaultLabelName): a namespace carries its name as
 * the kubernetes.io/metadata.name label, after create and every update.
 */
export function canonicalize(served: ServedResource, obj: KubeObject): void {
  if (served.jsonOnly || served.resource !== 'namespaces') return;
  obj.metadata.labels = {
    ...obj.metadata.labels,
    'kubernetes.io/metadata.name': obj.metadata.name ?? '',
  };
}

/**
 * The steps before the body is decoded, in create.go's and update.go's order: the Content-Type
 * (NegotiateInputSerializer, 415), the body read (413), then the options (400, 422).
 */
export async function writeOptionsBeforeDecode(
  scope: RequestScope,
  kind: 'CreateOptions' | 'UpdateOptions',
): Promise<WriteOptions> {
  negotiateInputMediaType(
    scope.req.headers['content-type'],
    scope.served.jsonOnly ? customResourceBodyMediaTypes : builtinBodyMediaTypes,
  );
  await scope.body();
  return writeOptionsOf(scope.query, kind);
}

/** POST to a collection: create the object the body holds. */
export async function createResource(scope: RequestScope): Promise<void> {
  const options = await writeOptionsBeforeDecode(scope, 'CreateOptions');
  const obj = await decodeObject(scope);
  const { registry, served, info, context } = scope;
  const created = await createObject(
    registry,
    served,
    info.namespace,
    obj,
    context,
    isDryRun(options),
  );
  writeResult(scope, 201, created);
}

/**
 * The create path after decoding (also the server's own seeding): NamespaceLifecycle, object-meta's
 * beforeCreate (system fields, generateName, namespace, PrepareForCreate, validation) on the wall
 * clock and crypto randomness, Canonicalize, and the store's Create (a dry run: the object as it
 * would be stored, with a uid and no resourceVersion).
 */
export async function createObject(
  registry: Registry,
  served: ServedResource,
  namespace: string,
  obj: KubeObject,
  context: RequestContext,
  dryRun = false,
): Promise<KubeObject> {
  const requestNamespace = served.namespaced ? namespace : '';
  await admitCreate(registry, served, requestNamespace, obj, context);
  beforeCreate(objectStrategy(served), obj, requestNamespace, {
    now: registry.clock.now(),
    rand: cryptoRandom,
  });
  canonicalize(served, obj);
  const storage = dryRunnableStorage(
    served,
    obj.metadata.namespace ?? '',
    obj.metadata.name ?? '',
    context,
    dryRun,
  );
  return storage.create(obj);
}
