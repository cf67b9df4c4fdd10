// Mirrors sigs.k8s.io/structured-merge-diff/v6 merge/conflict.go (v6.3.3): a field an apply would
// change that another manager owns, and the error listing them grouped by manager.
import { comparePaths, pathString, type Path } from '../path-element';
import type { ManagedFields } from '../managers';
import { quote } from '../../../engine/http-face';
import { compareStrings } from '../value';

export interface Conflict {
  readonly manager: string;
  readonly path: Path;
}

/** merge.Conflicts as an error: `conflict with "m": .a` for one, grouped by sorted manager else. */
export class Conflicts extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(conflictsMessage(conflicts));
  }
}

function conflictsMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1)
    return `conflict with ${quote(conflicts[0].manager)}: ${pathString(conflicts[0].path)}`;
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts)
    byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${quote(manager)}:`);
    for (const p of byManager.get(manager)!) lines.push(`- ${pathString(p)}`);
  }
  return lines.join('\n');
}

/**
 * ConflictsFromManagers: one conflict per path of each manager's set. Upstream ranges over a Go
 * map (random order); managers are taken sorted here so the message is stable, paths in set order.
 */
export function conflictsFromManagers(sets: ManagedFields): Conflicts {
  const conflicts: Conflict[] = [];
  for (const manager of [...sets.keys()].sort(compareStrings)) {
    sets.get(manager)!.set.iterate((path) => conflicts.push({ manager, path }));
  }
  return new Conflicts(conflicts);
}

export const sortConflicts = (c: readonly Conflict[]): Conflict[] =>
  [...c].sort((a, b) => compareStrings(a.manager, b.manager) || comparePaths(a.path, b.path));
