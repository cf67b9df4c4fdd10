// Mirrors k8s.io/apimachinery pkg/util/managedfields/internal/fieldmanager.go and the managers
// NewDefaultFieldManager stacks (versioncheck.go, skipnonapplied.go, capmanagers.go,
// buildmanagerinfo.go, managedfieldsupdater.go, stripmeta.go, structuredmerge.go; release-1.36):
// metadata.managedFields kept on every write, and server-side apply. One function per verb instead
// of a chain of wrappers; each step names the manager it mirrors. Deliberate differences: no
// version conversion (one served version per kind), no defaulting of the applied object, and the
// kubectl last-applied-configuration annotation is not kept in step (lastappliedmanager.go,
// lastappliedupdater.go). Time comes in as `now` (the server's clock, epoch milliseconds).
import { newBadRequest, newInternalError } from '../../../engine/http-face';
import { Conflicts } from '../merge/conflict';
import { Updater } from '../merge/update';
import { makePath } from '../path-element';
import type { ParseableType } from '../schema';
import { FieldSet } from '../set';
import { TypedValue } from '../typed-value';
import { isMap, type Value } from '../value';
import { fillZeroValues } from '../zero-value';
import { newConflictError } from './conflict';
import {
  buildManagerIdentifier,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  operationApply,
  operationUpdate,
  rfc3339,
  unixSeconds,
  type Managed,
  type ManagedFieldsEntry,
} from './managed-fields';

/** A JSON object (the kind's unstructured form). */
export type JsonObject = { [key: string]: Value };

/** What the field manager knows of the endpoint a write came through. */
export interface FieldManagerScope {
  /** The kind's type (TypeConverter.typeFor), or deducedParseableType for a kind without schema. */
  readonly type: ParseableType;
  /** The served group/version (`apps/v1`, `v1`) and kind. */
  readonly apiVersion: string;
  readonly kind: string;
  /** '' for the main resource, else `status`, `scale`. */
  readonly subresource?: string;
  /** Fields this endpoint resets (the strategy's GetResetFields): nobody owns them through it. */
  readonly resetFields?: FieldSet;
}

/** DefaultMaxUpdateManagers: past this many Update managers the oldest merge into one. */
export const defaultMaxUpdateManagers = 10;
/** capManagersManager's bucket for the oldest Update managers. */
export const oldUpdatesManagerName = 'ancient-changes';
/** skipNonAppliedManager: who owns what existed before the first apply. */
export const beforeApplyManagerName = 'before-first-apply';
/** managedFieldsUpdater's placeholder while the writer's own set is computed. */
const currentOperation = 'current-operation';

/** stripMetaManager's stripSet: fields nobody is said to own. */
const stripSet = FieldSet.of(
  makePath('apiVersion'),
  makePath('kind'),
  makePath('metadata'),
  makePath('metadata', 'name'),
  makePath('metadata', 'namespace'),
  makePath('metadata', 'creationTimestamp'),
  makePath('metadata', 'selfLink'),
  makePath('metadata', 'uid'),
  makePath('metadata', 'clusterName'),
  makePath('metadata', 'generation'),
  makePath('metadata', 'managedFields'),
  makePath('metadata', 'resourceVersion'),
);

export interface FieldManagerResult {
  /** The object to persist, metadata.managedFields set (absent when nobody manages anything). */
  readonly object: JsonObject;
  readonly managedFields: ManagedFieldsEntry[] | undefined;
}

const metadataOf = (o: JsonObject): JsonObject => (isMap(o.metadata) ? o.metadata : {});

function withManagedFields(o: JsonObject, entries: ManagedFieldsEntry[] | undefined): JsonObject {
  const metadata: JsonObject = { ...metadataOf(o) };
  if (entries) metadata.managedFields = entries as unknown as Value;
  else delete metadata.managedFields;
  return { ...o, metadata };
}

const gvString = (apiVersion: string): { group: string; version: string } => {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
};

/** objectGVKNN: `ns/name; apps/v1, Kind=Deployment` for the messages of failed conversions. */
function objectGVKNN(o: JsonObject): string {
  const m = metadataOf(o);
  const { group, version } = gvString(typeof o.apiVersion === 'string' ? o.apiVersion : '');
  const ns = typeof m.namespace === 'string' ? m.namespace : '';
  const name = typeof m.name === 'string' ? m.name : '';
  return `${ns}/${name}; ${group}/${version}, Kind=${typeof o.kind === 'string' ? o.kind : ''}`;
}

function typed(
  o: JsonObject,
  scope: FieldManagerScope,
  allowDuplicates: boolean,
  what: string,
): TypedValue {
  try {
    return TypedValue.of(o, scope.type, { allowDuplicates });
  } catch (e) {
    throw new Error(`${what} (${objectGVKNN(o)}): ${(e as Error).message}`);
  }
}

function updater(scope: FieldManagerScope): Updater {
  return new Updater({
    ignoredFields: scope.resetFields ? new Map([[scope.apiVersion, scope.resetFields]]) : undefined,
  });
}

/** stripMetaManager.stripFields. */
function stripFields(managed: Managed, manager: string): void {
  const vs = managed.fields.get(manager);
  if (!vs) return;
  const set = vs.set.difference(stripSet);
  if (set.empty()) managed.fields.delete(manager);
  else managed.fields.set(manager, { ...vs, set });
}

/**
 * The Update chain below skipNonApplied: buildManagerInfo → managedFieldsUpdater → stripMeta →
 * structuredMerge, then capManagers on the way out.
 */
function updateManaged(
  live: JsonObject,
  next: JsonObject,
  managed: Managed,
  manager: string,
  scope: FieldManagerScope,
  now: number,
): Managed {
  // buildManagerInfoManager.
  const id = buildManagerIdentifier({
    manager: manager || 'unknown',
    operation: operationUpdate,
    apiVersion: scope.apiVersion,
    subresource: scope.subresource,
  });
  // structuredMergeManager.Update as "current-operation", then stripMeta.
  // Typed Go objects carry their zero shape (status: {}, containers: null): see zero-value.ts.
  const r = updater(scope).update(
    typed(
      fillZeroValues(scope.type, live) as JsonObject,
      scope,
      true,
      'failed to convert live object',
    ),
    typed(
      fillZeroValues(scope.type, next) as JsonObject,
      scope,
      true,
      'failed to convert new object',
    ),
    scope.apiVersion,
    managed.fields,
    currentOperation,
  );
  const out: Managed = { fields: r.managers, times: new Map(managed.times) };
  stripFields(out, currentOperation);
  // managedFieldsUpdater: the operation's set joins what the manager owned.
  const vs = out.fields.get(currentOperation);
  if (vs) {
    out.fields.delete(currentOperation);
    const previous = out.fields.get(id);
    out.fields.set(id, previous ? { ...vs, set: vs.set.union(previous.set) } : vs);
    out.times.set(id, rfc3339(now));
  }
  return capUpdateManagers(out);
}

/** capManagersManager.capUpdateManagers: the oldest Update managers merge, per version, into one. */
function capUpdateManagers(managed: Managed): Managed {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([m]) => m);
  if (updaters.length <= defaultMaxUpdateManagers) return managed;
  updaters.sort(
    (a, b) =>
      unixSeconds(managed.times.get(a)) - unixSeconds(managed.times.get(b)) ||
      (a < b ? -1 : a > b ? 1 : 0),
  );
  const versionToFirstManager = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > defaultMaxUpdateManagers; i++) {
    const manager = updaters[i];
    const vs = managed.fields.get(manager)!;
    const time = managed.times.get(manager);
    const bucket = buildManagerIdentifier({
      manager: oldUpdatesManagerName,
      operation: operationUpdate,
      apiVersion: vs.apiVersion,
    });
    const first = versionToFirstManager.get(vs.apiVersion);
    if (first !== undefined) {
      if (!managed.fields.has(bucket)) {
        const s = managed.fields.get(first)!;
        managed.fields.delete(first);
        managed.fields.set(bucket, s);
      }
      managed.fields.set(bucket, { ...vs, set: vs.set.union(managed.fields.get(bucket)!.set) });
      managed.fields.delete(manager);
      length--;
      managed.times.set(bucket, time);
    } else {
      versionToFirstManager.set(vs.apiVersion, manager);
    }
  }
  return managed;
}

/** decodeLiveOrNew: the request's managedFields win unless empty or broken; a subresource keeps the live ones. */
function decodeLiveOrNew(live: JsonObject, next: JsonObject, ignoreRequest: boolean): Managed {
  const fromLive = (): Managed => {
    try {
      return decodeManagedFields(entriesOf(live));
    } catch {
      return emptyManaged();
    }
  };
  if (ignoreRequest) return fromLive();
  const requested = metadataOf(next).managedFields;
  if (isResetManagedFields(requested)) return emptyManaged();
  try {
    const managed = decodeManagedFields(entriesOf(next));
    return managed.fields.size === 0 ? fromLive() : managed;
  } catch {
    return fromLive();
  }
}

const entriesOf = (o: JsonObject): ManagedFieldsEntry[] => {
  const v = metadataOf(o).managedFields;
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Error('metadata.managedFields must be a list');
  return v as unknown as ManagedFieldsEntry[];
};

/** isResetManagedFields: `[]` or `[{}]` asks to drop every manager. */
function isResetManagedFields(v: Value | undefined): boolean {
  if (!Array.isArray(v)) return false;
  if (v.length === 0) return true;
  return v.length === 1 && isMap(v[0]) && Object.keys(v[0]).length === 0;
}

/**
 * FieldManager.UpdateNoErrors for a CREATE (live undefined), UPDATE or PATCH: the object to
 * persist with its managedFields, the writer owning what it changed. Never fails: on an internal
 * error the object goes out without managedFields (upstream logs "[SHOULD NOT HAPPEN]").
 */
export function update(
  live: JsonObject | undefined,
  next: JsonObject,
  manager: string,
  scope: FieldManagerScope,
  now: number,
): FieldManagerResult & { error?: Error } {
  const liveObj = live ?? {};
  const managed = decodeLiveOrNew(liveObj, next, (scope.subresource ?? '') !== '');
  const newObj = withManagedFields(next, undefined);
  try {
    // skipNonAppliedManager: an existing object nobody tracked stays untracked.
    if (
      managed.fields.size === 0 &&
      typeof metadataOf(liveObj).uid === 'string' &&
      metadataOf(liveObj).uid !== ''
    )
      return { object: newObj, managedFields: undefined };
    const out = updateManaged(
      withManagedFields(liveObj, undefined),
      newObj,
      managed,
      manager,
      scope,
      now,
    );
    const entries = encodeManagedFields(out);
    return { object: withManagedFields(newObj, entries), managedFields: entries };
  } catch (e) {
    return { object: newObj, managedFields: undefined, error: e as Error };
  }
}

/**
 * FieldManager.Apply: merge the applied configuration into the live object (an empty one for a
 * create: pass undefined) as manager. Throws a StatusError: 409 Conflict naming the conflicting
 * managers and fields unless force, 400 for a patch of another kind or carrying managedFields,
 * 500 for an object that does not fit the schema.
 */
export function apply(
  live: JsonObject | undefined,
  patch: JsonObject,
  manager: string,
  force: boolean,
  scope: FieldManagerScope,
  now: number,
): FieldManagerResult {
  let liveObj: JsonObject = live ?? { apiVersion: scope.apiVersion, kind: scope.kind };
  let managed: Managed;
  try {
    managed = decodeManagedFields(entriesOf(liveObj));
  } catch (e) {
    throw newInternalError(new Error(`failed to decode managed fields: ${(e as Error).message}`));
  }
  // versionCheckManager.
  const patchGV = gvString(typeof patch.apiVersion === 'string' ? patch.apiVersion : '');
  const patchKind = typeof patch.kind === 'string' ? patch.kind : '';
  const scopeGV = gvString(scope.apiVersion);
  if (
    patchGV.group !== scopeGV.group ||
    patchGV.version !== scopeGV.version ||
    patchKind !== scope.kind
  )
    throw newBadRequest(
      `invalid object type: ${patchGV.group}/${patchGV.version}, Kind=${patchKind}`,
    );
  // structuredMergeManager.Apply's checks on the patch.
  const patchMeta = metadataOf(patch).managedFields;
  if (patchMeta !== undefined && patchMeta !== null)
    throw newBadRequest('metadata.managedFields must be nil');
  try {
    // skipNonAppliedManager: what exists before the first apply belongs to before-first-apply.
    if (managed.fields.size === 0) {
      managed = updateManaged(
        { apiVersion: scope.apiVersion, kind: scope.kind },
        withManagedFields(liveObj, undefined),
        managed,
        beforeApplyManagerName,
        scope,
        now,
      );
      liveObj = withManagedFields(liveObj, undefined);
    }
    // buildManagerInfoManager.
    const id = buildManagerIdentifier({
      manager: manager || 'unknown',
      operation: operationApply,
      subresource: scope.subresource,
    });
    // structuredMergeManager.Apply.
    const liveTyped = typed(liveObj, scope, true, 'failed to create typed live object');
    const patchTyped = typed(patch, scope, false, 'failed to create typed patch object');
    const r = updater(scope).apply(
      liveTyped,
      patchTyped,
      scope.apiVersion,
      managed.fields,
      id,
      force,
    );
    const out: Managed = { fields: r.managers, times: new Map(managed.times) };
    stripFields(out, id);
    // managedFieldsUpdater.Apply: the time moves only when the object changed.
    let object: JsonObject;
    if (r.object) {
      out.times.set(id, rfc3339(now));
      object = r.object.value as JsonObject;
    } else {
      object = liveObj;
    }
    const entries = encodeManagedFields(out);
    return { object: withManagedFields(object, entries), managedFields: entries };
  } catch (e) {
    if (e instanceof Conflicts) throw newConflictError(e.conflicts);
    throw newInternalError(e as Error);
  }
}
