// Mirrors apiextensions-apiserver pkg/apihelpers/helpers.go (release-1.36) SetCRDCondition,
// FindCRDCondition and CRDHasFinalizer: a CRD's status conditions, in Go's field order, with the
// lastTransitionTime moving only when the status does.
import type { KubeObject } from '../../engine';
import { formatTime } from '../object-meta';

type Loose = Record<string, unknown>;

/** apiextensionsv1.CustomResourceDefinitionCondition in Go's field order. */
export interface CustomResourceDefinitionCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

function statusOf(crd: KubeObject): Loose {
  const o = crd as unknown as Loose;
  if (typeof o.status !== 'object' || o.status === null) o.status = {};
  return o.status as Loose;
}

/** FindCRDCondition. */
export function findCRDCondition(
  crd: KubeObject,
  type: string,
): CustomResourceDefinitionCondition | undefined {
  const c = (crd as unknown as { status?: { conditions?: unknown } }).status?.conditions;
  return Array.isArray(c)
    ? (c as CustomResourceDefinitionCondition[]).find((x) => x.type === type)
    : undefined;
}

/** IsCRDConditionTrue. */
export function isCRDConditionTrue(crd: KubeObject, type: string): boolean {
  return findCRDCondition(crd, type)?.status === 'True';
}

/** SetCRDCondition at `now` (wall-clock ms). */
export function setCRDCondition(
  crd: KubeObject,
  c: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>,
  now: number,
): void {
  const time = formatTime(now);
  const existing = findCRDCondition(crd, c.type);
  if (!existing) {
    const status = statusOf(crd);
    const list = Array.isArray(status.conditions) ? status.conditions : [];
    status.conditions = [
      ...list,
      {
        type: c.type,
        status: c.status,
        lastTransitionTime: time,
        reason: c.reason,
        message: c.message,
      },
    ];
    return;
  }
  if (existing.status !== c.status || !existing.lastTransitionTime)
    existing.lastTransitionTime = time;
  existing.status = c.status;
  existing.reason = c.reason;
  existing.message = c.message;
}

/** CRDHasFinalizer. */
export function crdHasFinalizer(crd: KubeObject, finalizer: string): boolean {
  const f = (crd.metadata as { finalizers?: unknown }).finalizers;
  return Array.isArray(f) && f.includes(finalizer);
}
