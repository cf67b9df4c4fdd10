// Mirrors sigs.k8s.io/structured-merge-diff/v6 fieldpath/managers.go (v6.3.3): the fields each
// manager owns, with the API version it used and whether it applied them (Apply) or wrote them
// (Update). Managers are identified by an opaque string (the apiserver uses a JSON identifier,
// see field-manager/managed-fields.ts).
import type { FieldSet } from './set';

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** fieldpath.ManagedFields: manager identifier → owned fields. Insertion order carries no meaning. */
export type ManagedFields = Map<string, VersionedSet>;

export function managedFieldsEqual(lhs: ManagedFields, rhs: ManagedFields): boolean {
  if (lhs.size !== rhs.size) return false;
  for (const [manager, left] of lhs) {
    const right = rhs.get(manager);
    if (!right || left.apiVersion !== right.apiVersion || left.applied !== right.applied)
      return false;
    if (!left.set.equals(right.set)) return false;
  }
  return true;
}
