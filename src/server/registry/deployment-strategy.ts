// Mirrors kubernetes pkg/registry/apps/deployment/strategy.go (release-1.36): generation 1 on
// create and +1 when the spec or the annotations change; ValidateDeployment (the selector and
// template rules of apps-validation.ts, the non-negative counts, progressDeadlineSeconds above
// minReadySeconds) and, for apps/v1, the immutable selector. The status reset is status-kept.ts's
// (strategy-for.ts wraps every kind served with /status).
import { FieldPath, invalid, type FieldError } from '../../engine/http-face';
import {
  validateNonnegativeField,
  validateSelectorAndTemplate,
  validateSelectorImmutable,
} from '../apps-validation';
import { specStrategy } from './spec-strategy';
import type { KubeObject } from '../../engine';

type Loose = Record<string, unknown>;

function validateDeploymentSpec(obj: KubeObject): FieldError[] {
  const spec = ((obj as unknown as Loose).spec ?? {}) as Loose;
  const path = FieldPath.of('spec');
  const errs = [
    ...validateNonnegativeField(spec.replicas, path.child('replicas')),
    ...validateSelectorAndTemplate(spec, path, {
      emptyName: 'deployment',
      selectorRequired: true,
      activeDeadlineKind: 'ReplicaSet',
    }),
    ...validateNonnegativeField(spec.minReadySeconds, path.child('minReadySeconds')),
    ...validateNonnegativeField(spec.revisionHistoryLimit, path.child('revisionHistoryLimit')),
  ];
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(
      ...validateNonnegativeField(
        spec.progressDeadlineSeconds,
        path.child('progressDeadlineSeconds'),
      ),
    );
    const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (spec.progressDeadlineSeconds <= minReady)
      errs.push(
        invalid(
          path.child('progressDeadlineSeconds'),
          spec.progressDeadlineSeconds,
          'must be greater than minReadySeconds',
        ),
      );
  }
  return errs;
}

/** deployment.Strategy. */
export const deploymentStrategy = specStrategy({
  group: 'apps',
  kind: 'Deployment',
  annotationsBumpGeneration: true,
  validateSpec: validateDeploymentSpec,
  validateUpdate: (obj, old) =>
    validateSelectorImmutable(obj as unknown as Loose, old as unknown as Loose),
});
