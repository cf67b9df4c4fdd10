// Mirrors kubernetes pkg/apis/batch/v1/defaults.go (release-1.36): SetDefaults_Job and
// SetDefaults_CronJob, and the generated defaulter's walk into the pod templates
// (core-v1-defaults.ts), a CronJob's jobTemplate's included.
import { ensureObject, objectOf, setDefaultsPodTemplate } from './core-v1-defaults';

type Loose = Record<string, unknown>;

const unset = (v: unknown): boolean => v === undefined || v === null || v === '';

/** math.MaxInt32: the backoffLimit of a Job with a backoffLimitPerIndex. */
const maxInt32 = 2147483647;

/** SetDefaults_Job. */
export function setDefaultsJob(obj: Loose): void {
  const spec = ensureObject(obj, 'spec');
  // A non-parallel job may leave both unset; both are then 1.
  if (unset(spec.completions) && unset(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (unset(spec.parallelism)) spec.parallelism = 1;
  if (unset(spec.backoffLimit)) spec.backoffLimit = unset(spec.backoffLimitPerIndex) ? 6 : maxInt32;
  const templateLabels = objectOf(objectOf(objectOf(spec.template)?.metadata)?.labels);
  const meta = ensureObject(obj, 'metadata');
  if (templateLabels && Object.keys(objectOf(meta.labels) ?? {}).length === 0)
    meta.labels = { ...templateLabels };
  if (unset(spec.completionMode)) spec.completionMode = 'NonIndexed';
  if (unset(spec.suspend)) spec.suspend = false;
  const podFailurePolicy = objectOf(spec.podFailurePolicy);
  if (podFailurePolicy && Array.isArray(podFailurePolicy.rules))
    for (const rule of podFailurePolicy.rules as unknown[])
      for (const pattern of (objectOf(rule)?.onPodConditions as unknown[] | undefined) ?? []) {
        const p = objectOf(pattern);
        if (p && unset(p.status)) p.status = 'True';
      }
  if (unset(spec.podReplacementPolicy))
    spec.podReplacementPolicy = podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  setDefaultsPodTemplate(spec);
}

/** SetDefaults_CronJob. */
export function setDefaultsCronJob(obj: Loose): void {
  const spec = ensureObject(obj, 'spec');
  if (unset(spec.concurrencyPolicy)) spec.concurrencyPolicy = 'Allow';
  if (unset(spec.suspend)) spec.suspend = false;
  if (unset(spec.successfulJobsHistoryLimit)) spec.successfulJobsHistoryLimit = 3;
  if (unset(spec.failedJobsHistoryLimit)) spec.failedJobsHistoryLimit = 1;
  setDefaultsPodTemplate(objectOf(objectOf(spec.jobTemplate)?.spec));
}
