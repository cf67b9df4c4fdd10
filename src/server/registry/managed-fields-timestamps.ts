// Mirrors k8s.io/apiserver pkg/endpoints/handlers/fieldmanager/equality.go (release-1.36)
// IgnoreManagedFieldsTimestampsTransformer, which Store.Update calls after BeforeUpdate: a write
// whose only change is its managedFields' timestamps keeps the old ones, so the storage sees no
// change and writes nothing (a repeated `kubectl apply --server-side` keeps its resourceVersion).
// Equality is Go's DeepEqual of the unstructured form: nil differs from empty.
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../engine';

type Entry = Record<string, unknown>;

function entriesOf(obj: KubeObject): Entry[] {
  const mf = (obj.metadata as Record<string, unknown> | undefined)?.managedFields;
  return Array.isArray(mf) ? (mf as Entry[]) : [];
}

const withoutTime = (e: Entry): Entry => {
  const rest = { ...e };
  delete rest.time;
  return rest;
};

// equalIgnoringValueAtPath(metadata.managedFields).
function equalBesidesManagedFields(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject): unknown => {
    const meta = { ...(o.metadata as Record<string, unknown>) };
    delete meta.managedFields;
    return { ...o, metadata: meta };
  };
  return isDeepStrictEqual(strip(a), strip(b));
}

/** newObj, its managedFields' times set back to oldObj's when nothing else differs. */
export function ignoreManagedFieldsTimestamps(newObj: KubeObject, oldObj: KubeObject): KubeObject {
  const oldEntries = entriesOf(oldObj);
  const newEntries = entriesOf(newObj);
  if (oldEntries.length !== newEntries.length || newEntries.length === 0) return newObj;
  if (newEntries.every((e, i) => e.time === oldEntries[i].time)) return newObj;
  if (!newEntries.every((e, i) => isDeepStrictEqual(withoutTime(e), withoutTime(oldEntries[i]))))
    return newObj;
  if (!equalBesidesManagedFields(newObj, oldObj)) return newObj;
  newEntries.forEach((e, i) => {
    if (oldEntries[i].time === undefined) delete e.time;
    else e.time = oldEntries[i].time;
  });
  return newObj;
}
