// Mirrors k8s.io/apiserver pkg/registry/rest/create.go and meta.go (release-1.36) BeforeCreate,
// WipeObjectMetaSystemFields, FillObjectMetaSystemFields, EnsureObjectNamespaceMatchesRequestNamespace:
// what every kind's create does to its metadata before the strategy's own rules, and the order in
// which they run. Wall-clock time and randomness are parameters (CreateEnvironment).
import { randomInt } from 'node:crypto';
import type { KubeObject, ObjectMeta } from '../../engine';
import { newBadRequest, newInvalid } from '../../engine/http-face';
import {
  formatTime,
  generateName,
  newUUID,
  orderMetadata,
  validateObjectMetaAccessor,
  validatePathSegment,
  type RandomSource,
} from '../object-meta';
import type { ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

/** Node's CSPRNG as a RandomSource (uids and generated names in a live server). */
export const cryptoRandom: RandomSource = { intn: (n) => randomInt(n) };

/** rest.EnsureObjectNamespaceMatchesRequestNamespace, with ExpectedNamespaceForScope. */
export function ensureObjectNamespaceMatchesRequestNamespace(
  strategy: Pick<ObjectStrategy, 'namespaceScoped'>,
  requestNamespace: string,
  meta: ObjectMeta,
): void {
  const expected = strategy.namespaceScoped ? requestNamespace : '';
  const objNamespace = meta.namespace ?? '';
  if (objNamespace === expected) return;
  if (objNamespace === '') meta.namespace = expected;
  else if (expected === '') delete meta.namespace;
  else
    throw newBadRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
}

export function ensureMetadata(obj: KubeObject): ObjectMeta {
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
  return obj.metadata;
}

/** Time and randomness for create: the wall clock and a random source (seeded in tests). */
export interface CreateEnvironment {
  /** Milliseconds since the epoch. */
  now: number;
  rand: RandomSource;
}

/**
 * What generic/registry Store.create does before storage.Create: FillObjectMetaSystemFields
 * (creationTimestamp, uid), the generated name, then rest.BeforeCreate (namespace, PrepareForCreate,
 * the kind's Validate, ValidateObjectMetaAccessor with the path-segment rule). Mutates and returns
 * obj; throws 400 (namespace mismatch) or 422 `Pod "Bad_Name" is invalid: metadata.name: …`.
 * A resourceVersion is left for storage to refuse (`resourceVersion should not be set on objects to
 * be created`, a 500 as upstream).
 */
export function beforeCreate(
  strategy: ObjectStrategy,
  obj: KubeObject,
  requestNamespace: string,
  env: CreateEnvironment,
  warn: (warning: string) => void = () => {},
): KubeObject {
  const meta = ensureMetadata(obj);
  // The create handler's WipeObjectMetaSystemFields, then FillObjectMetaSystemFields.
  const loose = meta as Loose;
  delete loose.deletionTimestamp;
  delete loose.deletionGracePeriodSeconds;
  delete loose.selfLink;
  meta.creationTimestamp = formatTime(env.now);
  meta.uid = newUUID(env.rand);
  if ((meta.generateName ?? '') !== '' && (meta.name ?? '') === '')
    meta.name = generateName(meta.generateName as string, env.rand);
  ensureObjectNamespaceMatchesRequestNamespace(strategy, requestNamespace, meta);
  strategy.prepareForCreate(obj);
  const name = meta.name ?? '';
  const errs = strategy.validate(obj);
  if (errs.length > 0) throw newInvalid(strategy.groupKind(obj), name, errs);
  // Common validation after the kind's own, so that its more specific messages win.
  const pathErrs = validateObjectMetaAccessor(meta, strategy.namespaceScoped, validatePathSegment);
  if (pathErrs.length > 0) throw newInvalid(strategy.groupKind(obj), name, pathErrs);
  for (const w of strategy.warningsOnCreate(obj)) warn(w);
  obj.metadata = orderMetadata(meta);
  strategy.canonicalize(obj);
  return obj;
}
