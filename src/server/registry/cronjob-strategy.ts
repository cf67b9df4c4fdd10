// Mirrors kubernetes pkg/registry/batch/cronjob/strategy.go (release-1.36): generation 1 on
// create and +1 when the spec changes. Deliberate difference: of ValidateCronJob only the
// metadata and a non-empty schedule are checked (no cron parsing, no job template rules).
import { FieldPath, required, type FieldError } from '../../engine/http-face';
import type { KubeObject } from '../../engine';
import { specStrategy } from './spec-strategy';

type Loose = Record<string, unknown>;

function validateCronJobSpec(obj: KubeObject): FieldError[] {
  const spec = ((obj as unknown as Loose).spec ?? {}) as Loose;
  return typeof spec.schedule === 'string' && spec.schedule !== ''
    ? []
    : [required(FieldPath.of('spec', 'schedule'), '')];
}

/** cronjob.Strategy. */
export const cronJobStrategy = specStrategy({
  group: 'batch',
  kind: 'CronJob',
  validateSpec: validateCronJobSpec,
});
