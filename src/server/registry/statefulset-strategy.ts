// Mirrors kubernetes pkg/registry/apps/statefulset/strategy.go (release-1.36): generation 1 on
// create and +1 when the spec changes; ValidateStatefulSet (podManagementPolicy, the selector and
// template rules of apps-validation.ts) and ValidateStatefulSetUpdate (only some spec fields may
// change; apps/v1's selector among those that may not).
import type { KubeObject } from '../../engine';
import { FieldPath, forbidden, invalid, required, type FieldError } from '../../engine/http-face';
import { validateNonnegativeField, validateSelectorAndTemplate } from '../apps-validation';
import { deepEqual } from './strategy';
import { specStrategy } from './spec-strategy';

type Loose = Record<string, unknown>;

const specOf = (obj: KubeObject): Loose => ((obj as unknown as Loose).spec ?? {}) as Loose;

function validateStatefulSetSpec(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const path = FieldPath.of('spec');
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy;
  if (policy === undefined || policy === null || policy === '')
    errs.push(required(path.child('podManagementPolicy'), ''));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel')
    errs.push(
      invalid(path.child('podManagementPolicy'), policy, `must be 'OrderedReady' or 'Parallel'`),
    );
  errs.push(
    ...validateNonnegativeField(spec.replicas, path.child('replicas')),
    ...validateNonnegativeField(spec.minReadySeconds, path.child('minReadySeconds')),
    ...validateSelectorAndTemplate(spec, path, {
      emptyName: 'statefulset',
      selectorRequired: true,
      activeDeadlineKind: 'StatefulSet',
    }),
  );
  return errs;
}

/** The spec fields ValidateStatefulSetUpdate lets an update change. */
const mutableSpecFields = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

function validateStatefulSetUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const rest = (spec: Loose): Loose =>
    Object.fromEntries(Object.entries(spec).filter(([k]) => !mutableSpecFields.includes(k)));
  if (deepEqual(rest(specOf(obj)), rest(specOf(old)))) return [];
  return [
    forbidden(
      FieldPath.of('spec'),
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

/** statefulset.Strategy. */
export const statefulSetStrategy = specStrategy({
  group: 'apps',
  kind: 'StatefulSet',
  validateSpec: validateStatefulSetSpec,
  validateUpdate: validateStatefulSetUpdate,
});
