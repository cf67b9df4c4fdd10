// Mirrors kubernetes pkg/registry/batch/job/strategy.go (release-1.36): generation 1 on create
// and +1 when the spec changes; without manualSelector: true, generateSelector (the job-name and
// controller-uid labels on the template, the selector on batch.kubernetes.io/controller-uid);
// ValidateJob's selector rules and restartPolicy (OnFailure or Never), the immutable selector.
// Deliberate difference: the rest of ValidateJobSpec and ValidateJobUpdate (completions, indexes,
// pod failure policy, the mostly immutable template) is not modelled.
import type { KubeObject } from '../../engine';
import { FieldPath, notSupported, required, type FieldError } from '../../engine/http-face';
import {
  validateNonnegativeField,
  validatePodSpecContainers,
  validateSelectorImmutable,
  sortedMap,
} from '../apps-validation';
import { labels as labelSelectors } from '../../engine';
import { invalid } from '../../engine/http-face';
import { labelSelectorString } from '../label-selector-string';
import { specStrategy } from './spec-strategy';

type Loose = Record<string, unknown>;

/** batch.LegacyJobNameLabel, batch.JobNameLabel. */
const jobNameLabels = ['job-name', 'batch.kubernetes.io/job-name'];
/** batch.LegacyControllerUidLabel, batch.ControllerUidLabel. */
const controllerUidLabels = ['controller-uid', 'batch.kubernetes.io/controller-uid'];
const controllerUidLabel = 'batch.kubernetes.io/controller-uid';

const objectOf = (v: unknown): Loose | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : undefined;

function ensure(o: Loose, key: string): Loose {
  const v = objectOf(o[key]);
  if (v) return v;
  const created: Loose = {};
  o[key] = created;
  return created;
}

/** generateSelector: labels the job's pods with its name and uid and selects on the uid. */
export function generateSelector(obj: KubeObject): void {
  const spec = ensure(obj as unknown as Loose, 'spec');
  const templateLabels = ensure(ensure(ensure(spec, 'template'), 'metadata'), 'labels');
  // A label the user set is kept: a conflict is validation's to refuse.
  for (const l of jobNameLabels)
    if (!Object.hasOwn(templateLabels, l)) templateLabels[l] = obj.metadata.name ?? '';
  for (const l of controllerUidLabels)
    if (!Object.hasOwn(templateLabels, l)) templateLabels[l] = obj.metadata.uid ?? '';
  const matchLabels = ensure(ensure(spec, 'selector'), 'matchLabels');
  if (!Object.hasOwn(matchLabels, controllerUidLabel))
    matchLabels[controllerUidLabel] = obj.metadata.uid ?? '';
}

function validateJobSpec(obj: KubeObject): FieldError[] {
  const spec = ((obj as unknown as Loose).spec ?? {}) as Loose;
  const path = FieldPath.of('spec');
  const errs = [
    ...validateNonnegativeField(spec.parallelism, path.child('parallelism')),
    ...validateNonnegativeField(spec.completions, path.child('completions')),
    ...validateNonnegativeField(spec.activeDeadlineSeconds, path.child('activeDeadlineSeconds')),
    ...validateNonnegativeField(spec.backoffLimit, path.child('backoffLimit')),
  ];
  const template = objectOf(spec.template);
  const templateLabels = objectOf(objectOf(template?.metadata)?.labels);
  if (!objectOf(spec.selector)) errs.push(required(path.child('selector'), ''));
  else {
    const text = labelSelectorString(spec.selector);
    const selector = text === undefined ? undefined : labelSelectors.parse(text);
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(templateLabels ?? {})) labels[k] = String(v);
    if (selector && !selector.matches(labels))
      errs.push(
        invalid(
          path.child('template', 'metadata', 'labels'),
          templateLabels ? sortedMap(templateLabels) : null,
          '`selector` does not match template `labels`',
        ),
      );
  }
  const podSpec = objectOf(template?.spec);
  errs.push(...validatePodSpecContainers(podSpec, path.child('template', 'spec')));
  const restartPolicy = podSpec?.restartPolicy;
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never')
    errs.push(
      notSupported(path.child('template', 'spec', 'restartPolicy'), restartPolicy ?? '', [
        'OnFailure',
        'Never',
      ]),
    );
  return errs;
}

/** job.Strategy. */
export const jobStrategy = specStrategy({
  group: 'batch',
  kind: 'Job',
  prepareForCreate(obj) {
    const manualSelector = objectOf((obj as unknown as Loose).spec)?.manualSelector;
    if (manualSelector !== true) generateSelector(obj);
  },
  validateSpec: validateJobSpec,
  validateUpdate: (obj, old) =>
    validateSelectorImmutable(obj as unknown as Loose, old as unknown as Loose),
});
