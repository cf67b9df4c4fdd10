// Mirrors kubernetes pkg/registry/apps/daemonset/strategy.go (release-1.36): generation 1 and
// templateGeneration 1 on create (apps/v1 carries templateGeneration as the
// deprecated.daemonset.template.generation annotation, Convert_apps_DaemonSet_To_v1_DaemonSet);
// on update a template change bumps both, any other spec change the generation;
// ValidateDaemonSet (the selector and template rules of apps-validation.ts: a nil selector is no
// Required error here, only a template it cannot match) and apps/v1's immutable selector.
import type { KubeObject } from '../../engine';
import { FieldPath, type FieldError } from '../../engine/http-face';
import {
  validateNonnegativeField,
  validateSelectorAndTemplate,
  validateSelectorImmutable,
} from '../apps-validation';
import { deepEqual } from './strategy';
import { specStrategy } from './spec-strategy';

type Loose = Record<string, unknown>;

/** apps.DeprecatedTemplateGeneration: where apps/v1 keeps spec.templateGeneration. */
const deprecatedTemplateGeneration = 'deprecated.daemonset.template.generation';

const specOf = (obj: KubeObject): Loose => ((obj as unknown as Loose).spec ?? {}) as Loose;

function templateGeneration(obj: KubeObject): number {
  const v = Number(obj.metadata.annotations?.[deprecatedTemplateGeneration] ?? 0);
  return Number.isInteger(v) ? v : 0;
}

function setTemplateGeneration(obj: KubeObject, generation: number): void {
  obj.metadata.annotations = {
    ...obj.metadata.annotations,
    [deprecatedTemplateGeneration]: String(generation),
  };
}

function validateDaemonSetSpec(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const path = FieldPath.of('spec');
  return [
    ...validateSelectorAndTemplate(spec, path, {
      emptyName: 'daemonset',
      selectorRequired: false,
      activeDeadlineKind: 'DaemonSet',
    }),
    ...validateNonnegativeField(spec.minReadySeconds, path.child('minReadySeconds')),
    ...validateNonnegativeField(spec.revisionHistoryLimit, path.child('revisionHistoryLimit')),
  ];
}

/** daemonset.Strategy. */
export const daemonSetStrategy = specStrategy({
  group: 'apps',
  kind: 'DaemonSet',
  prepareForCreate(obj) {
    if (templateGeneration(obj) < 1) setTemplateGeneration(obj, 1);
  },
  prepareForUpdate(obj, old) {
    // An update may not set templateGeneration.
    setTemplateGeneration(obj, templateGeneration(old));
    if (!deepEqual(specOf(obj).template ?? null, specOf(old).template ?? null)) {
      setTemplateGeneration(obj, templateGeneration(old) + 1);
      obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
      return;
    }
    if (!deepEqual(specOf(obj), specOf(old)))
      obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validateSpec: validateDaemonSetSpec,
  validateUpdate: (obj, old) =>
    validateSelectorImmutable(obj as unknown as Loose, old as unknown as Loose),
});
