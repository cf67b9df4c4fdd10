// Mirrors kubernetes pkg/apis/apps/validation/validation.go (release-1.36) as far as a controller
// notices it: a workload's selector (required, not empty, a valid selector) and its pod template
// (the selector matches the template's labels, restartPolicy Always, containers with a name and an
// image), the non-negative counts, and apps/v1's immutable selector. Deliberate differences: of
// ValidatePodTemplateSpec only the containers' name and image are checked; keys are reported in
// sorted order (Go marshals a map that way too).
import { labels as labelSelectors } from '../engine';
import {
  FieldPath,
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldError,
} from '../engine/http-face';
import { labelSelectorString } from './label-selector-string';
import { deepEqual } from './registry/strategy';

type Loose = Record<string, unknown>;

const objectOf = (v: unknown): Loose | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : undefined;

/** A map as Go's json.Marshal prints it: keys sorted. */
export function sortedMap(v: unknown): unknown {
  const m = objectOf(v);
  if (!m) return v ?? null;
  return Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, m[k]]),
  );
}

/** A *metav1.LabelSelector as json.Marshal prints it (matchLabels sorted, empty fields omitted). */
export function selectorValue(v: unknown): unknown {
  const s = objectOf(v);
  if (!s) return v ?? null;
  const out: Loose = {};
  if (objectOf(s.matchLabels) && Object.keys(s.matchLabels as Loose).length > 0)
    out.matchLabels = sortedMap(s.matchLabels);
  if (Array.isArray(s.matchExpressions) && s.matchExpressions.length > 0)
    out.matchExpressions = s.matchExpressions;
  return out;
}

/** ValidateNonnegativeField. */
export function validateNonnegativeField(value: unknown, path: FieldPath): FieldError[] {
  return typeof value === 'number' && value < 0
    ? [invalid(path, value, 'must be greater than or equal to 0')]
    : [];
}

/** A minimal ValidatePodSpec: containers are required, each with a name and an image. */
export function validatePodSpecContainers(spec: unknown, path: FieldPath): FieldError[] {
  const containersPath = path.child('containers');
  const containers = objectOf(spec)?.containers;
  if (!Array.isArray(containers) || containers.length === 0) return [required(containersPath, '')];
  const errs: FieldError[] = [];
  containers.forEach((c: unknown, i) => {
    const container = objectOf(c);
    if (typeof container?.name !== 'string' || container.name === '')
      errs.push(required(containersPath.index(i).child('name'), ''));
    if (typeof container?.image !== 'string' || container.image === '')
      errs.push(required(containersPath.index(i).child('image'), ''));
  });
  return errs;
}

/** LabelSelectorAsSelector: undefined when the selector does not convert (labels.Nothing for nil). */
function asSelector(selector: unknown): labelSelectors.Selector | undefined {
  if (selector === undefined || selector === null) return labelSelectors.nothing();
  const text = labelSelectorString(selector);
  if (text === undefined) return undefined;
  try {
    return labelSelectors.parse(text);
  } catch {
    return undefined;
  }
}

export interface SelectorRules {
  /** The kind named in "empty selector is invalid for <kind>" (a ReplicaSet's names a deployment). */
  emptyName: string;
  /** A missing selector is `Required value` (all but a DaemonSet, whose nil selector matches nothing). */
  selectorRequired: boolean;
  /** The kind in "activeDeadlineSeconds in <kind> is not Supported". */
  activeDeadlineKind: string;
}

/**
 * The selector and template rules of ValidateDeploymentSpec / ValidateReplicaSetSpec /
 * ValidateStatefulSetSpec / ValidateDaemonSetSpec and ValidatePodTemplateSpecForReplicaSet,
 * for the spec at `path`.
 */
export function validateSelectorAndTemplate(
  spec: Loose,
  path: FieldPath,
  rules: SelectorRules,
): FieldError[] {
  const errs: FieldError[] = [];
  const selectorPath = path.child('selector');
  const selector = objectOf(spec.selector);
  if (!selector) {
    if (rules.selectorRequired) errs.push(required(selectorPath, ''));
  } else {
    const matchLabels = Object.keys(objectOf(selector.matchLabels) ?? {}).length;
    const matchExpressions = Array.isArray(selector.matchExpressions)
      ? selector.matchExpressions.length
      : 0;
    if (matchLabels + matchExpressions === 0)
      errs.push(
        invalid(
          selectorPath,
          selectorValue(selector),
          `empty selector is invalid for ${rules.emptyName}`,
        ),
      );
  }
  const parsed = asSelector(spec.selector);
  const templatePath = path.child('template');
  if (!parsed) errs.push(invalid(selectorPath, selectorValue(selector), 'invalid label selector'));
  else {
    const template = objectOf(spec.template);
    const templateLabels = objectOf(objectOf(template?.metadata)?.labels);
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(templateLabels ?? {})) labels[k] = String(v);
    // labels.Nothing is not Empty, and matches nothing.
    if (!parsed.empty() && !parsed.matches(labels))
      errs.push(
        invalid(
          templatePath.child('metadata', 'labels'),
          templateLabels ? sortedMap(templateLabels) : null,
          '`selector` does not match template `labels`',
        ),
      );
    const podSpec = objectOf(template?.spec);
    errs.push(...validatePodSpecContainers(podSpec, templatePath.child('spec')));
    if (podSpec?.restartPolicy !== 'Always')
      errs.push(
        notSupported(templatePath.child('spec', 'restartPolicy'), podSpec?.restartPolicy ?? '', [
          'Always',
        ]),
      );
    if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null)
      errs.push(
        forbidden(
          templatePath.child('spec', 'activeDeadlineSeconds'),
          `activeDeadlineSeconds in ${rules.activeDeadlineKind} is not Supported`,
        ),
      );
  }
  return errs;
}

/** apps/v1's ValidateImmutableField on spec.selector (the strategies' ValidateUpdate). */
export function validateSelectorImmutable(obj: Loose, old: Loose): FieldError[] {
  const now = objectOf(obj.spec)?.selector;
  const before = objectOf(old.spec)?.selector;
  return deepEqual(now ?? null, before ?? null)
    ? []
    : [invalid(FieldPath.of('spec', 'selector'), selectorValue(now), 'field is immutable')];
}
