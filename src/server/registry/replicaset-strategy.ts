// Mirrors kubernetes pkg/registry/apps/replicaset/strategy.go (release-1.36): generation 1 on
// create and +1 when the spec changes; ValidateReplicaSet (the selector and template rules of
// apps-validation.ts; upstream's empty-selector message names a deployment here too) and, for
// apps/v1, the immutable selector.
import type { KubeObject } from '../../engine';
import { FieldPath, type FieldError } from '../../engine/http-face';
import {
  validateNonnegativeField,
  validateSelectorAndTemplate,
  validateSelectorImmutable,
} from '../apps-validation';
import { specStrategy } from './spec-strategy';

type Loose = Record<string, unknown>;

function validateReplicaSetSpec(obj: KubeObject): FieldError[] {
  const spec = ((obj as unknown as Loose).spec ?? {}) as Loose;
  const path = FieldPath.of('spec');
  return [
    ...validateNonnegativeField(spec.replicas, path.child('replicas')),
    ...validateNonnegativeField(spec.minReadySeconds, path.child('minReadySeconds')),
    ...validateSelectorAndTemplate(spec, path, {
      emptyName: 'deployment',
      selectorRequired: true,
      activeDeadlineKind: 'ReplicaSet',
    }),
  ];
}

/** replicaset.Strategy. */
export const replicaSetStrategy = specStrategy({
  group: 'apps',
  kind: 'ReplicaSet',
  validateSpec: validateReplicaSetSpec,
  validateUpdate: (obj, old) =>
    validateSelectorImmutable(obj as unknown as Loose, old as unknown as Loose),
});
