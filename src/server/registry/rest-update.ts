// Mirrors k8s.io/apiserver pkg/registry/rest/update.go (release-1.36) BeforeUpdate: what every
// kind's update keeps from the stored object and checks before (and after) the strategy's own rules.
import type { KubeObject } from '../../engine';
import { newInvalid } from '../../engine/http-face';
import {
  orderMetadata,
  validateObjectMetaAccessor,
  validateObjectMetaAccessorUpdate,
  validatePathSegment,
} from '../object-meta';
import { ensureMetadata, ensureObjectNamespaceMatchesRequestNamespace } from './rest-create';
import type { ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

/**
 * rest.BeforeUpdate: namespace, generation from the stored object, PrepareForUpdate, uid and
 * creationTimestamp (and deletion fields) kept from the stored object, then the common metadata
 * validation and ValidateObjectMetaAccessorUpdate. Mutates and returns obj; throws 400 or 422.
 * Call it after checkUpdateResourceVersion (with the resourceVersion stamped when unconditional).
 */
export function beforeUpdate(
  strategy: ObjectStrategy,
  obj: KubeObject,
  old: KubeObject,
  requestNamespace: string,
  warn: (warning: string) => void = () => {},
): KubeObject {
  const meta = ensureMetadata(obj);
  const oldMeta = old.metadata ?? {};
  ensureObjectNamespaceMatchesRequestNamespace(strategy, requestNamespace, meta);
  if (oldMeta.generation === undefined) delete meta.generation;
  else meta.generation = oldMeta.generation;
  strategy.prepareForUpdate(obj, old);
  if ((meta.uid ?? '') === '' && oldMeta.uid !== undefined) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  const loose = meta as Loose;
  const oldLoose = oldMeta as Loose;
  if (
    oldLoose.deletionGracePeriodSeconds !== undefined &&
    loose.deletionGracePeriodSeconds === undefined
  )
    loose.deletionGracePeriodSeconds = oldLoose.deletionGracePeriodSeconds;
  // validateCommonFields, then the kind's ValidateUpdate.
  const errs = [
    ...validateObjectMetaAccessor(meta, strategy.namespaceScoped, validatePathSegment),
    ...validateObjectMetaAccessorUpdate(meta, oldMeta),
    ...strategy.validateUpdate(obj, old),
  ];
  if (errs.length > 0) throw newInvalid(strategy.groupKind(obj), meta.name ?? '', errs);
  for (const w of strategy.warningsOnUpdate(obj, old)) warn(w);
  obj.metadata = orderMetadata(meta);
  strategy.canonicalize(obj);
  return obj;
}
