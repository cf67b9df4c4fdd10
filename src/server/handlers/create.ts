// Mirrors k8s.io/apiserver pkg/endpoints/handlers/create.go (release-1.36) createHandler: decode
// the body, let NamespaceLifecycle admission (namespace-lifecycle.ts) refuse a missing or
// terminating namespace, then the resource's registry Store.Create (registry/store.ts: BeforeCreate,
// the dry run, storage). The options (write-options.ts) are checked after the body is read and
// before it is decoded, as there. 201.
import {
  builtinBodyMediaTypes,
  customResourceBodyMediaTypes,
  decodeBody,
  negotiateInputMediaType,
} from '../json-body';
import type { KubeObject } from '../../engine';
import { fieldManagerScope, managerOrUserAgent } from '../field-manager';
import { admitCreate } from '../namespace-lifecycle';
import { update as updateManagedFields, type JsonObject } from '../structured-merge-diff';
import { isDryRun } from '../registry/dry-run';
import { schemeDefault } from '../defaults/scheme-defaults';
import { writeOptionsOf, type WriteOptions } from '../write-options';
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
      ...(served.openAPIV3Schema ? { openAPIV3Schema: served.openAPIV3Schema } : {}),
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
  // The codec defaults what it decodes (Scheme.Default), before the field manager sees it.
  if (!served.jsonOnly) schemeDefault(served, obj);
  scope.audit?.logRequestObject(
    obj.metadata,
    { group: served.group, version: served.version, resource: served.resource },
    scope.info.subresource,
  );
  return obj;
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

/**
 * warning.AddWarning: a strategy's warning appended to the Warning headers (once: the recorder
 * drops a repeat, as a GuaranteedUpdate's retry would send one).
 */
export function addWarning(scope: RequestScope, warning: string): void {
  const prior = scope.res.getHeader('Warning');
  const list = prior === undefined ? [] : Array.isArray(prior) ? prior : [String(prior)];
  const header = `299 - ${JSON.stringify(warning)}`;
  if (!list.includes(header)) scope.res.setHeader('Warning', [...list, header]);
}

/**
 * FieldManager.UpdateNoErrors with managerOrUserAgent: `next` with the managedFields of the
 * request's field manager (its fieldManager, else its User-Agent's prefix) owning what it set.
 * live undefined for a create.
 */
export function withManagedFields(
  scope: RequestScope,
  live: KubeObject | undefined,
  next: KubeObject,
  manager: string | undefined,
): KubeObject {
  const { object } = updateManagedFields(
    live as unknown as JsonObject | undefined,
    next as unknown as JsonObject,
    managerOrUserAgent(manager, scope.req.headers['user-agent'] ?? ''),
    fieldManagerScope(scope.served, scope.info.subresource ?? ''),
    scope.served.store.now(),
  );
  return object as unknown as KubeObject;
}

/**
 * POST to a collection: decode, the field manager's Update entry, admit (NamespaceLifecycle),
 * the Store's Create, 201.
 */
export async function createResource(scope: RequestScope): Promise<void> {
  const options = await writeOptionsBeforeDecode(scope, 'CreateOptions');
  const obj = withManagedFields(scope, undefined, await decodeObject(scope), options.fieldManager);
  const { resources, served, info, context } = scope;
  const namespace = served.namespaced ? info.namespace : '';
  await admitCreate(resources, served, namespace, obj, context);
  const created = await served.store.create(namespace, obj, {
    context,
    dryRun: isDryRun(options),
    warn: (w) => addWarning(scope, w),
  });
  writeResult(scope, 201, created);
}
