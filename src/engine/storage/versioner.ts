// Mirrors k8s.io/apiserver pkg/storage/api_object_versioner.go and the Versioner interface of pkg/storage/interfaces.go (release-1.36).
// Resource versions are uint64 upstream, so they are bigint here and never lose precision.
import { setOwn } from '../encoding/own-key';
import { InvalidError } from './errors';
import { FieldPath, invalid } from './field-errors';
import { parseUint } from './go-strings';
import { objectMetaFieldOrder, type KubeList, type KubeObject, type ObjectMeta } from './objects';

/** storage.Versioner: how storage metadata is read from and written into API objects. */
export interface Versioner {
  /** Sets metadata.resourceVersion (0 clears it). */
  updateObject(obj: KubeObject, resourceVersion: bigint): void;
  /** Sets the list's resourceVersion, continue token and remainingItemCount (undefined omits it). */
  updateList(
    list: KubeList<unknown>,
    resourceVersion: bigint,
    continueValue: string,
    remainingItemCount: number | undefined,
  ): void;
  /** Clears resourceVersion and selfLink before the object is written to etcd. */
  prepareObjectForStorage(obj: KubeObject): void;
  /** The object's resourceVersion as a number (0 when unset); throws strconv's NumError when malformed. */
  objectResourceVersion(obj: KubeObject): bigint;
  /** A resourceVersion parameter as a storage revision; throws InvalidError when malformed. */
  parseResourceVersion(resourceVersion: string): bigint;
}

// Sets (or, for '', removes: omitempty) a metadata field, keeping Go's field order so that
// JSON.stringify of the object stays byte-identical to the apiserver's output.
function setMetaField(meta: ObjectMeta, field: keyof ObjectMeta, value: string): void {
  const m = meta as Record<string, unknown>;
  if (value === '') {
    delete m[field];
    return;
  }
  if (field in m) {
    m[field] = value;
    return;
  }
  const rank = objectMetaFieldOrder.indexOf(field);
  const later = Object.keys(m).filter((k) => {
    const r = objectMetaFieldOrder.indexOf(k);
    return r > rank || r < 0;
  });
  // Re-append the fields that must come after the new one.
  const saved = later.map((k) => [k, m[k]] as const);
  for (const k of later) delete m[k];
  m[field] = value;
  for (const [k, v] of saved) setOwn(m, k, v);
}

/** APIObjectVersioner: versioning for objects with ObjectMeta / ListMeta. */
export class APIObjectVersioner implements Versioner {
  updateObject(obj: KubeObject, resourceVersion: bigint): void {
    setMetaField(
      obj.metadata,
      'resourceVersion',
      resourceVersion !== 0n ? resourceVersion.toString() : '',
    );
  }

  updateList(
    list: KubeList<unknown>,
    resourceVersion: bigint,
    continueValue: string,
    remainingItemCount: number | undefined,
  ): void {
    if (resourceVersion === 0n)
      throw new Error(`illegal resource version from storage: ${resourceVersion}`);
    // Rebuilt in ListMeta's field order: selfLink, resourceVersion, continue, remainingItemCount.
    const meta: KubeList['metadata'] = {};
    if (list.metadata?.selfLink) meta.selfLink = list.metadata.selfLink;
    meta.resourceVersion = resourceVersion.toString();
    if (continueValue) meta.continue = continueValue;
    if (remainingItemCount !== undefined) meta.remainingItemCount = remainingItemCount;
    list.metadata = meta;
  }

  prepareObjectForStorage(obj: KubeObject): void {
    setMetaField(obj.metadata, 'resourceVersion', '');
    setMetaField(obj.metadata, 'selfLink', '');
  }

  objectResourceVersion(obj: KubeObject): bigint {
    const version = obj.metadata?.resourceVersion ?? '';
    if (version.length === 0) return 0n;
    return parseUint(version, 64);
  }

  parseResourceVersion(resourceVersion: string): bigint {
    if (resourceVersion === '' || resourceVersion === '0') return 0n;
    try {
      return parseUint(resourceVersion, 64);
    } catch (e) {
      // Upstream: storage.InvalidError{field.Invalid(field.NewPath("resourceVersion"), rv, err.Error())}.
      throw new InvalidError([
        invalid(FieldPath.of('resourceVersion'), resourceVersion, (e as Error).message),
      ]);
    }
  }

  /** -1, 0 or 1 as lhs's resourceVersion is lower, equal or higher than rhs's. */
  compareResourceVersion(lhs: KubeObject, rhs: KubeObject): number {
    const l = this.objectResourceVersion(lhs);
    const r = this.objectResourceVersion(rhs);
    return l === r ? 0 : l < r ? -1 : 1;
  }
}
