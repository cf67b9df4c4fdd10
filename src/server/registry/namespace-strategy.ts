// Mirrors kubernetes pkg/registry/core/namespace/strategy.go (release-1.36): namespaceStrategy
// (cluster-scoped, DNS-1123 label names, phase Active and the `kubernetes` finalizer on create,
// spec.finalizers and status kept on update, the kubernetes.io/metadata.name label as its
// Canonicalize), namespaceStatusStrategy and namespaceFinalizeStrategy (the finalize subresource:
// spec from the request, status kept, ValidateNamespaceFinalizeUpdate).
import { FieldPath, invalid, isLabelKey, type FieldError } from '../../engine/http-face';
import { nameIsDNSLabel, validateObjectMetaAccessor } from '../object-meta';
import { statusStrategyOf } from './status-strategy';
import { fixedKind, strategyDefaults, type ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

/** namespace.Strategy. */
export const namespaceStrategy: ObjectStrategy = {
  ...strategyDefaults,
  groupKind: fixedKind('', 'Namespace'),
  namespaceScoped: false,
  allowUnconditionalUpdate: true,
  prepareForCreate(obj) {
    const o = obj as unknown as Loose;
    o.status = { phase: 'Active' };
    const spec = (o.spec && typeof o.spec === 'object' ? o.spec : {}) as Loose;
    const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : [];
    if (!finalizers.includes('kubernetes')) spec.finalizers = [...finalizers, 'kubernetes'];
    o.spec = spec;
  },
  prepareForUpdate(obj, old) {
    const o = obj as unknown as Loose;
    const prev = old as unknown as Loose;
    const oldSpec = (prev.spec ?? {}) as Loose;
    const spec = (o.spec && typeof o.spec === 'object' ? o.spec : {}) as Loose;
    if (oldSpec.finalizers === undefined) delete spec.finalizers;
    else spec.finalizers = oldSpec.finalizers;
    o.spec = spec;
    if (prev.status === undefined) delete o.status;
    else o.status = prev.status;
  },
  // ValidateNamespace: ValidateObjectMeta(ValidateNamespaceName); the update repeats it.
  validate: (obj) => validateObjectMetaAccessor(obj.metadata, false, nameIsDNSLabel),
  validateUpdate: (obj) => validateObjectMetaAccessor(obj.metadata, false, nameIsDNSLabel),
  // Canonicalize (NamespaceDefaultLabelName): the name as the kubernetes.io/metadata.name label.
  canonicalize(obj) {
    obj.metadata.labels = {
      ...obj.metadata.labels,
      'kubernetes.io/metadata.name': obj.metadata.name ?? '',
    };
  },
  resetFields: () => ({ v1: [['status']] }),
};

/** namespace.StatusStrategy: the conditions and phase the namespace controller writes. */
export const namespaceStatusStrategy: ObjectStrategy = statusStrategyOf(namespaceStrategy, 'v1');

/**
 * namespace.FinalizeStrategy (the finalize subresource): spec from the request, status kept;
 * ValidateNamespaceFinalizeUpdate: the metadata update rules and each spec.finalizers name.
 */
export const namespaceFinalizeStrategy: ObjectStrategy = {
  ...namespaceStrategy,
  prepareForUpdate(obj, old) {
    const o = obj as unknown as Loose;
    const prev = old as unknown as Loose;
    if (prev.status === undefined) delete o.status;
    else o.status = prev.status;
  },
  validateUpdate(obj) {
    const path = FieldPath.of('spec', 'finalizers');
    const f = ((obj as unknown as Loose).spec as Loose | undefined)?.finalizers;
    const errs: FieldError[] = [];
    (Array.isArray(f) ? (f as string[]) : []).forEach((name, i) => {
      for (const m of isLabelKey(name)) errs.push(invalid(path.index(i), name, m));
      // validateFinalizerName: a name without a '/' must be a standard one (kubernetes).
      if (!name.includes('/') && name !== 'kubernetes')
        errs.push(
          invalid(
            path.index(i),
            name,
            'name is neither a standard finalizer name nor is it fully qualified',
          ),
        );
    });
    return errs;
  },
  // namespaceFinalizeStrategy.GetResetFields.
  resetFields: () => ({ v1: [['status']] }),
};
