// Mirrors k8s.io/apiserver pkg/registry/rest/delete.go (release-1.36) BeforeDelete: the delete
// preconditions checked early, negative grace periods as 1, and a graceful strategy's
// deletionTimestamp and deletionGracePeriodSeconds (a pending graceful deletion may only be
// shortened). Times are the wall clock, passed in.
import type { KubeObject } from '../../engine';
import { newConflict, newInternalError } from '../../engine/http-face';
import type { DeleteOptions } from '../delete-options';
import { formatTime } from '../object-meta';
import type { DeleteStrategy } from './store-delete';

type Loose = Record<string, unknown>;

function metaOf(obj: KubeObject): Loose {
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  return obj.metadata as unknown as Loose;
}

// metav1.Time's second precision: deletionTimestamp as the API serializes it.
export function timeMs(value: unknown): number | undefined {
  return typeof value === 'string' ? Date.parse(value) : undefined;
}

/**
 * rest.BeforeDelete (after ValidateDeleteOptions, done by the handler): the early precondition
 * check, negative grace periods as 1, and for a graceful strategy the deletionTimestamp and
 * deletionGracePeriodSeconds (a pending graceful deletion may only be shortened). Mutates obj
 * and options as upstream does.
 */
export function beforeDelete(
  strategy: DeleteStrategy,
  obj: KubeObject,
  options: DeleteOptions,
  now: number,
): { graceful: boolean; gracefulPending: boolean } {
  const meta = metaOf(obj);
  const name = (meta.name as string | undefined) ?? '';
  const p = options.preconditions;
  const gr = { group: '', resource: strategy.kind };
  if (p?.uid !== undefined && p.uid !== null && p.uid !== (meta.uid ?? ''))
    throw newConflict(
      gr,
      name,
      new Error(
        `the UID in the precondition (${p.uid}) does not match the UID in record (${(meta.uid as string | undefined) ?? ''}). The object might have been deleted and then recreated`,
      ),
    );
  if (
    p?.resourceVersion !== undefined &&
    p.resourceVersion !== null &&
    p.resourceVersion !== (meta.resourceVersion ?? '')
  )
    throw newConflict(
      gr,
      name,
      new Error(
        `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${(meta.resourceVersion as string | undefined) ?? ''}). The object might have been modified`,
      ),
    );
  // Negative values are treated as 1s on the delete path.
  if (typeof options.gracePeriodSeconds === 'number' && options.gracePeriodSeconds < 0)
    options.gracePeriodSeconds = 1;
  if (typeof meta.deletionGracePeriodSeconds === 'number' && meta.deletionGracePeriodSeconds < 0)
    meta.deletionGracePeriodSeconds = 1;
  if (!strategy.checkGracefulDelete) return { graceful: false, gracefulPending: false };

  const deletionTimestamp = timeMs(meta.deletionTimestamp);
  if (deletionTimestamp !== undefined) {
    const existingGrace = meta.deletionGracePeriodSeconds as number | undefined | null;
    // Graceful deletion without a period (or an update that succeeded before a failed delete):
    // delete now.
    if (existingGrace === undefined || existingGrace === null || existingGrace === 0)
      return { graceful: false, gracefulPending: false };
    if (typeof options.gracePeriodSeconds === 'number') {
      let period = options.gracePeriodSeconds;
      if (period >= existingGrace) return { graceful: false, gracefulPending: true };
      // Only shorter: back by the old period, forward by the new one, never into the past.
      let next = deletionTimestamp - existingGrace * 1000 + period * 1000;
      if (next < now) {
        next = now;
        // A graceful request whose whole period has passed stays graceful, at the minimum.
        if (period !== 0) period = 1;
      }
      meta.deletionTimestamp = formatTime(next);
      meta.deletionGracePeriodSeconds = period;
      return { graceful: true, gracefulPending: false };
    }
    options.gracePeriodSeconds = existingGrace;
    return { graceful: false, gracefulPending: true };
  }

  if (!strategy.checkGracefulDelete(obj, options))
    return { graceful: false, gracefulPending: false };
  if (typeof options.gracePeriodSeconds !== 'number')
    throw newInternalError(new Error('options.GracePeriodSeconds should not be nil'));
  meta.deletionTimestamp = formatTime(now + options.gracePeriodSeconds * 1000);
  meta.deletionGracePeriodSeconds = options.gracePeriodSeconds;
  // The first graceful deletion bumps the generation (controllers see the change of behaviour).
  const generation = meta.generation as number | undefined;
  if (generation !== undefined && generation > 0) meta.generation = generation + 1;
  return { graceful: true, gracefulPending: false };
}
