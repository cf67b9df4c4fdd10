// Mirrors sigs.k8s.io/structured-merge-diff/v6 merge/update.go (v6.3.3): the Updater that keeps
// managed fields for writes (Update) and merges appliers' configurations (Apply), with conflict
// detection, force, and pruning of what an applier stopped applying. Deliberate differences: there
// is no version conversion (every version's object is the same object here: the server stores
// one version per kind), so reconcileManagedFieldsWithSchemaChanges and the per-version
// comparisons collapse to one; ignored fields are exclude sets per API version (IgnoredFields).
import { FieldSet } from '../set';
import type { ManagedFields, VersionedSet } from '../managers';
import { isSame, type Comparison } from '../typed-compare';
import type { TypedValue } from '../typed-value';
import { valueEquals } from '../value';
import { conflictsFromManagers } from './conflict';

export interface UpdaterOptions {
  /** Fields no manager owns through this endpoint, per API version (the strategy's reset fields). */
  readonly ignoredFields?: ReadonlyMap<string, FieldSet>;
  /** Return the input object when an apply changes nothing, instead of undefined. */
  readonly returnInputOnNoop?: boolean;
}

export class Updater {
  constructor(private readonly options: UpdaterOptions = {}) {}

  private ignore(version: string, set: FieldSet): FieldSet {
    const ignored = this.options.ignoredFields?.get(version);
    return ignored ? set.recursiveDifference(ignored) : set;
  }

  private compare(oldObject: TypedValue, newObject: TypedValue, version: string): Comparison {
    const c = oldObject.compare(newObject);
    const ignored = this.options.ignoredFields?.get(version);
    if (!ignored || ignored.empty()) return c;
    return {
      removed: c.removed.recursiveDifference(ignored),
      modified: c.modified.recursiveDifference(ignored),
      added: c.added.recursiveDifference(ignored),
    };
  }

  /**
   * update: take the fields the change touches away from the other managers (conflicts without
   * force), and the removed ones from everyone. Returns the managers and the comparison.
   */
  private updateManagers(
    oldObject: TypedValue,
    newObject: TypedValue,
    version: string,
    managers: ManagedFields,
    workflow: string,
    force: boolean,
  ): { managers: ManagedFields; compare: Comparison } {
    const compare = this.compare(oldObject, newObject, version);
    const conflicts: ManagedFields = new Map();
    const removed: ManagedFields = new Map();
    const changed = compare.modified.union(compare.added);
    for (const [manager, managerSet] of managers) {
      if (manager === workflow) continue;
      const conflictSet = managerSet.set.intersection(changed);
      if (!conflictSet.empty())
        conflicts.set(manager, {
          set: conflictSet,
          apiVersion: managerSet.apiVersion,
          applied: false,
        });
      if (!compare.removed.empty())
        removed.set(manager, {
          set: compare.removed,
          apiVersion: managerSet.apiVersion,
          applied: false,
        });
    }
    if (!force && conflicts.size > 0) throw conflictsFromManagers(conflicts);
    const out: ManagedFields = new Map(managers);
    for (const [manager, taken] of [...conflicts, ...removed]) {
      const vs = out.get(manager)!;
      out.set(manager, { ...vs, set: vs.set.difference(taken.set) });
    }
    for (const [manager, vs] of out) if (vs.set.empty()) out.delete(manager);
    return { managers: out, compare };
  }

  /**
   * Update: after a CREATE/UPDATE/PATCH, newObject is what will be persisted and liveObject what
   * was (empty for a create). The writer gains what it changed; the others lose it.
   */
  update(
    liveObject: TypedValue,
    newObject: TypedValue,
    version: string,
    managers: ManagedFields,
    manager: string,
  ): { object: TypedValue; managers: ManagedFields } {
    const { managers: out, compare } = this.updateManagers(
      liveObject,
      newObject,
      version,
      managers,
      manager,
      true,
    );
    const previous: VersionedSet = out.get(manager) ?? {
      set: new FieldSet(),
      apiVersion: version,
      applied: false,
    };
    const set = this.ignore(
      version,
      previous.set.difference(compare.removed).union(compare.modified).union(compare.added),
    );
    out.set(manager, { set, apiVersion: version, applied: false });
    if (set.empty()) out.delete(manager);
    return { object: newObject, managers: out };
  }

  /**
   * Apply: merge configObject over liveObject as manager. Throws Conflicts when another manager
   * owns a field the configuration changes, unless force (then the field changes hands). The
   * object is undefined when nothing changed (unless returnInputOnNoop).
   */
  apply(
    liveObject: TypedValue,
    configObject: TypedValue,
    version: string,
    managers: ManagedFields,
    manager: string,
    force: boolean,
  ): { object: TypedValue | undefined; managers: ManagedFields } {
    let newObject = liveObject.merge(configObject);
    const lastSet = managers.get(manager);
    const set = this.ignore(version, configObject.toFieldSet());
    const withApplier: ManagedFields = new Map(managers);
    withApplier.set(manager, { set, apiVersion: version, applied: true });
    newObject = this.prune(newObject, withApplier, lastSet);
    const { managers: out } = this.updateManagers(
      liveObject,
      newObject,
      version,
      withApplier,
      manager,
      force,
    );
    if (
      !this.options.returnInputOnNoop &&
      valueEquals(liveObject.value ?? null, newObject.value ?? null)
    )
      return { object: undefined, managers: out };
    return { object: newObject, managers: out };
  }

  /**
   * prune removes a field, list or map item iff the applier applied it last time, does not apply
   * it now, and no other manager owns it.
   */
  private prune(
    merged: TypedValue,
    managers: ManagedFields,
    lastSet: VersionedSet | undefined,
  ): TypedValue {
    if (!lastSet || lastSet.set.empty()) return merged;
    const sc = merged.schema;
    const tr = merged.typeRef;
    let pruned = merged.removeItems(lastSet.set.ensureNamedFieldsAreMembers(sc, tr));
    pruned = this.addBackOwnedItems(merged, pruned, managers);
    return this.addBackDanglingItems(merged, pruned, lastSet);
  }

  /** addBackOwnedItems: put back what prune removed that any manager (this one's new set too) owns. */
  private addBackOwnedItems(
    merged: TypedValue,
    pruned: TypedValue,
    managers: ManagedFields,
  ): TypedValue {
    let managed = new FieldSet();
    for (const vs of managers.values()) managed = managed.union(vs.set);
    const sc = merged.schema;
    const tr = merged.typeRef;
    const mergedSet = merged.toFieldSet().ensureNamedFieldsAreMembers(sc, tr);
    const prunedSet = pruned.toFieldSet().ensureNamedFieldsAreMembers(sc, tr);
    return merged.removeItems(
      mergedSet.difference(prunedSet.union(managed.ensureNamedFieldsAreMembers(sc, tr))),
    );
  }

  /**
   * addBackDanglingItems: only what the applier owned last time may go; fields prune removed that
   * nobody owned, or that updaters own, come back.
   */
  private addBackDanglingItems(
    merged: TypedValue,
    pruned: TypedValue,
    lastSet: VersionedSet,
  ): TypedValue {
    const sc = merged.schema;
    const tr = merged.typeRef;
    const prunedSet = pruned.toFieldSet().ensureNamedFieldsAreMembers(sc, tr);
    const mergedSet = merged.toFieldSet().ensureNamedFieldsAreMembers(sc, tr);
    const last = lastSet.set.ensureNamedFieldsAreMembers(sc, tr);
    return merged.removeItems(mergedSet.difference(prunedSet).intersection(last));
  }
}

export { isSame };
