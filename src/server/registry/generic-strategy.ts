// No single upstream counterpart: the strategy of a built-in kind served without a file of its own
// (registry/<kind>-strategy.ts), so that a kind added to the served table is writable through the
// Store at once. It is what every upstream strategy shares: rest.BeforeCreate/BeforeUpdate's
// metadata handling (rest-create.ts, rest-update.ts) and ValidateObjectMeta with the name as a
// DNS-1123 subdomain (most kinds' ValidateXName; rbac's ValidateRBACName is a path segment),
// unconditional updates, no create on update.
// With `specGeneration`, the generation rule of the kinds with a spec upstream tracks (1 on create,
// +1 per spec change). Deliberate differences: no status reset here (status-kept.ts) and no
// kind-specific validation until the kind gets its own strategy.
import {
  nameIsDNSSubdomain,
  validateObjectMetaAccessor,
  validatePathSegment,
} from '../object-meta';
import {
  bumpGenerationOnSpecChange,
  fixedKind,
  strategyDefaults,
  type ObjectStrategy,
} from './strategy';

/** The default strategy of the built-in `kind` in `group`. */
export function genericStrategy(
  group: string,
  kind: string,
  namespaceScoped: boolean,
  specGeneration = false,
): ObjectStrategy {
  const nameFn = group === 'rbac.authorization.k8s.io' ? validatePathSegment : nameIsDNSSubdomain;
  return {
    ...strategyDefaults,
    groupKind: fixedKind(group, kind),
    namespaceScoped,
    allowUnconditionalUpdate: true,
    prepareForCreate(obj) {
      if (specGeneration) obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      if (specGeneration) bumpGenerationOnSpecChange(obj, old);
    },
    validate: (obj) => validateObjectMetaAccessor(obj.metadata, namespaceScoped, nameFn),
    validateUpdate: () => [],
    resetFields: () => ({}),
  };
}
