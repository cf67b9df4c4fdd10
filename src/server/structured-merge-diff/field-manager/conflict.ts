// Mirrors k8s.io/apimachinery pkg/util/managedfields/internal/conflict.go (release-1.36) and
// errors.NewApplyConflict: the 409 an apply with conflicts answers, naming each conflicting
// manager (and how it wrote the field) and the fields.
import type { StatusError } from '../../../engine';
import { failure, quote, StatusReason } from '../../../engine/http-face';
import type { Conflict } from '../merge/conflict';
import { pathString, type Path } from '../path-element';
import { compareStrings } from '../value';
import { operationUpdate, parseManagerIdentifier } from './managed-fields';

/** metav1.CauseTypeFieldManagerConflict. */
export const causeTypeFieldManagerConflict = 'FieldManagerConflict';

/** NewConflictError. */
export function newConflictError(conflicts: readonly Conflict[]): StatusError {
  const causes = conflicts.map((c) => ({
    reason: causeTypeFieldManagerConflict,
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  return failure(409, StatusReason.Conflict, getConflictMessage(conflicts), { causes });
}

function getConflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1)
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${pathString(conflicts[0].path)}`;
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts)
    byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager)!) lines.push(`- ${pathString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** printManager: `"kubectl"`, `"m" with subresource "status"`, `"m" using apps/v1 [at <time>]`. */
export function printManager(manager: string): string {
  const e = parseManagerIdentifier(manager);
  if (!e) return quote(manager);
  let s = quote(e.manager ?? '');
  if (e.subresource) s = `${s} with subresource ${quote(e.subresource)}`;
  if (e.operation === operationUpdate) {
    if (!e.time) return `${s} using ${e.apiVersion ?? ''}`;
    return `${s} using ${e.apiVersion ?? ''} at ${new Date(Date.parse(e.time)).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
  }
  return s;
}
