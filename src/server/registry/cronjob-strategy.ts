// Mirrors kubernetes pkg/registry/batch/cronjob/strategy.go (release-1.36): generation 1 on
// create and +1 when the spec changes. Of ValidateCronJob the metadata and the schedule
// (validateScheduleFormat: required, cron.ParseStandard's error, no TZ= or CRON_TZ= in it) are
// checked, and spec.timeZone (validateTimeZone). Deliberate differences: no job template rules, and
// an update may not keep a TZ its stored schedule had (upstream allows it; this server never
// stores one).
import { FieldPath, invalid, required, type FieldError } from '../../engine/http-face';
import type { KubeObject } from '../../engine';
import { loadLocationError, parseStandardError } from '../cron-schedule';
import { specStrategy } from './spec-strategy';

type Loose = Record<string, unknown>;

/** validateScheduleFormat with allowTZInSchedule false. */
function validateScheduleFormat(schedule: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const err = parseStandardError(schedule);
  if (err !== undefined) errs.push(invalid(path, schedule, err));
  if (schedule.includes('TZ'))
    errs.push(
      invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'),
    );
  return errs;
}

// The characters of one part of an IANA name; 0-9 and + for legacy names (validTimeZoneCharacters).
const validTimeZoneCharacters = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateTimeZone. */
function validateTimeZone(timeZone: unknown, path: FieldPath): FieldError[] {
  if (typeof timeZone !== 'string') return [];
  if (timeZone.length === 0)
    return [invalid(path, timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/'))
    if (
      part === '.' ||
      part === '..' ||
      part.startsWith('-') ||
      !validTimeZoneCharacters.test(part)
    )
      return [invalid(path, timeZone, `unknown time zone ${timeZone}`)];
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local')
    errs.push(
      invalid(
        path,
        timeZone,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    );
  const err = loadLocationError(timeZone);
  if (err !== undefined) errs.push(invalid(path, timeZone, err));
  return errs;
}

function validateCronJobSpec(obj: KubeObject): FieldError[] {
  const spec = ((obj as unknown as Loose).spec ?? {}) as Loose;
  const path = FieldPath.of('spec', 'schedule');
  return [
    ...(typeof spec.schedule === 'string' && spec.schedule !== ''
      ? validateScheduleFormat(spec.schedule, path)
      : [required(path, '')]),
    ...validateTimeZone(spec.timeZone, FieldPath.of('spec', 'timeZone')),
  ];
}

/** cronjob.Strategy. */
export const cronJobStrategy = specStrategy({
  group: 'batch',
  kind: 'CronJob',
  validateSpec: validateCronJobSpec,
});
