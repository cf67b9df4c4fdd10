// Mirrors k8s.io/apimachinery pkg/util/managedfields/scalehandler.go (release-1.36) ScaleHandler:
// a `/scale` write's managedFields. ToSubresource gives the Scale the parent's owners of the
// replicas field (as owners of spec.replicas in autoscaling/v1); ToParent folds the Scale's
// entries back: a manager the Scale no longer lists loses the parent's replicas path, a manager
// new to the Scale owns it in the parent's version.
import type { ManagedFields, VersionedSet } from '../managers';
import { makePath, type Path } from '../path-element';
import { FieldSet } from '../set';
import {
  decodeManagedFields,
  encodeManagedFields,
  type Managed,
  type ManagedFieldsEntry,
} from './managed-fields';

/** scaleGroupVersion: what a Scale's entries name. */
const scaleGroupVersion = 'autoscaling/v1';
/** replicasPathInScale. */
const replicasPathInScale = makePath('spec', 'replicas');

/** ResourcePathMappings: the replicas path of the parent per API version (undefined: none). */
export type ResourcePathMappings = ReadonlyMap<string, Path | undefined>;

export class ScaleHandler {
  constructor(
    private readonly parentEntries: readonly ManagedFieldsEntry[],
    /** The parent's group/version (`apps/v1`). */
    private readonly groupVersion: string,
    private readonly mappings: ResourcePathMappings,
  ) {}

  /** ToSubresource: the Scale's managedFields from the parent's. */
  toSubresource(): ManagedFieldsEntry[] {
    const managed = decodeManagedFields(this.parentEntries);
    const out: Managed = { fields: new Map(), times: new Map() };
    for (const [manager, versionedSet] of managed.fields) {
      const path = this.mappings.get(versionedSet.apiVersion);
      // Skip the entry if the APIVersion is unknown.
      if (path === undefined) continue;
      if (versionedSet.set.has(path)) {
        out.fields.set(manager, {
          set: FieldSet.of(replicasPathInScale),
          apiVersion: scaleGroupVersion,
          applied: versionedSet.applied,
        });
        out.times.set(manager, managed.times.get(manager));
      }
    }
    return encodeManagedFields(out) ?? [];
  }

  /** ToParent: the parent's managedFields once the Scale's entries are `scaleEntries`. */
  toParent(scaleEntries: readonly ManagedFieldsEntry[]): ManagedFieldsEntry[] {
    const parent = decodeManagedFields(this.parentEntries);
    const scale = decodeManagedFields(scaleEntries);
    const scaleFields: ManagedFields = new Map(scale.fields);
    const fields: ManagedFields = new Map();
    const times = new Map<string, string | undefined>();
    for (const [manager, versionedSet] of parent.fields) {
      // Drop the entry if the APIVersion is unknown.
      if (!this.mappings.has(versionedSet.apiVersion)) continue;
      const path = this.mappings.get(versionedSet.apiVersion);
      // An entry without the replicas path is kept as it is.
      if (path === undefined || !versionedSet.set.has(path)) {
        fields.set(manager, versionedSet);
        times.set(manager, parent.times.get(manager));
        continue;
      }
      if (!scaleFields.has(manager)) {
        // "Steal" the replicas path from the main resource entry.
        const newSet = versionedSet.set.difference(FieldSet.of(path));
        if (!newSet.empty()) {
          fields.set(manager, { ...versionedSet, set: newSet });
          times.set(manager, parent.times.get(manager));
        }
      } else {
        // Field wasn't stolen: keep the entry as it is.
        fields.set(manager, versionedSet);
        times.set(manager, parent.times.get(manager));
        scaleFields.delete(manager);
      }
    }
    for (const [manager, versionedSet] of scaleFields) {
      if (!versionedSet.set.has(replicasPathInScale)) continue;
      const path = this.mappings.get(this.groupVersion);
      if (path === undefined) continue;
      const parentSet: VersionedSet = {
        set: FieldSet.of(path),
        apiVersion: this.groupVersion,
        applied: versionedSet.applied,
      };
      fields.set(manager, parentSet);
      times.set(manager, scale.times.get(manager));
    }
    return encodeManagedFields({ fields, times }) ?? [];
  }
}
