// Mirrors the status strategies of kubernetes pkg/registry/*/strategy.go and
// apiextensions-apiserver pkg/registry/customresource/status_strategy.go (release-1.36), with
// apimachinery's metav1.ResetObjectMetaForStatus: the strategy of a kind's `/status` subresource,
// built from its main strategy. An update through it takes status from the request and keeps
// everything else (spec, and the metadata ResetObjectMetaForStatus names) from the stored object;
// its reset fields are spec. Deliberate difference: one shape for every kind (upstream's per-kind
// status strategies also validate the status itself; here the main ValidateUpdate runs unless the
// kind gives validateStatusUpdate).
import type { KubeObject } from '../../engine';
import { setOwn } from '../../engine/http-face';
import type { ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

/** The metadata fields a status write may not change (ResetObjectMetaForStatus). */
const metadataKeptForStatus = [
  'deletionTimestamp',
  'generation',
  'selfLink',
  'labels',
  'annotations',
  'finalizers',
  'ownerReferences',
] as const;

/** metav1.ResetObjectMetaForStatus: `meta` takes these fields from `existing` (absent stays absent). */
export function resetObjectMetaForStatus(meta: Loose, existing: Loose): void {
  for (const k of metadataKeptForStatus) {
    if (existing[k] === undefined) delete meta[k];
    else meta[k] = existing[k];
  }
}

/** The `/status` strategy of `main`, for the kind served as `apiVersion`. */
export function statusStrategyOf(main: ObjectStrategy, apiVersion: string): ObjectStrategy {
  return {
    ...main,
    allowCreateOnUpdate: false,
    prepareForCreate() {},
    prepareForUpdate(obj: KubeObject, old: KubeObject) {
      const o = obj as unknown as Loose;
      const prev = old as unknown as Loose;
      const status = o.status;
      for (const k of Object.keys(o))
        if (k !== 'metadata' && k !== 'kind' && k !== 'apiVersion') delete o[k];
      for (const [k, v] of Object.entries(prev))
        if (k !== 'metadata' && k !== 'kind' && k !== 'apiVersion' && k !== 'status')
          setOwn(o, k, structuredClone(v));
      if (status !== undefined) o.status = status;
      resetObjectMetaForStatus((o.metadata ?? {}) as Loose, (prev.metadata ?? {}) as Loose);
    },
    validateUpdate: main.validateStatusUpdate ?? main.validateUpdate,
    warningsOnUpdate: () => [],
    resetFields: () => ({ [apiVersion]: [['spec']] }),
  };
}
