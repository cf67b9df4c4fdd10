// Mirrors kubernetes pkg/registry/core/configmap/strategy.go (release-1.36): no generation, no
// status, unconditional updates; ValidateConfigMap and ValidateConfigMapUpdate
// (configmap-validation.ts: keys, size, immutability).
import { nameIsDNSSubdomain, validateObjectMetaAccessor } from '../object-meta';
import { validateConfigMapData, validateConfigMapImmutable } from '../configmap-validation';
import { fixedKind, strategyDefaults, type ObjectStrategy } from './strategy';

/** configmap.Strategy. */
export const configMapStrategy: ObjectStrategy = {
  ...strategyDefaults,
  groupKind: fixedKind('', 'ConfigMap'),
  namespaceScoped: true,
  allowUnconditionalUpdate: true,
  prepareForCreate() {},
  prepareForUpdate() {},
  // ValidateConfigMap: ValidateObjectMeta(ValidateConfigMapName), then keys and size.
  validate: (obj) => [
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSSubdomain),
    ...validateConfigMapData(obj),
  ],
  // ValidateConfigMapUpdate: the immutable rule, then ValidateConfigMap again.
  validateUpdate: (obj, old) => [
    ...validateConfigMapImmutable(obj, old),
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSSubdomain),
    ...validateConfigMapData(obj),
  ],
  resetFields: () => ({}),
};
