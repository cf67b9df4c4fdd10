// Mirrors the ScaleREST of kubernetes pkg/registry/apps/{deployment,replicaset,statefulset}/
// storage/storage.go (scaleFromDeployment, scaleUpdatedObjectInfo) with apimachinery's
// metav1.FormatLabelSelector, and apiextensions-apiserver pkg/registry/customresource/etcd.go's
// ScaleREST (scaleFromCustomResource, specReplicasPath / statusReplicasPath / labelSelectorPath),
// release-1.36: the autoscaling/v1 Scale of an object, and the object a Scale writes.
// Deliberate difference: a CRD's JSON paths are read as plain `.a.b` field paths (what the CRD
// validation allows: no indexes or filters).
import type { KubeObject } from '../../engine';
import { FieldPath, invalid, newInvalid, setOwn } from '../../engine/http-face';
import type { CustomResourceSubresourceScale } from '../crd';

type Loose = Record<string, unknown>;

/** Where a kind keeps what its Scale shows. */
export type ScalePaths = CustomResourceSubresourceScale;

/** The apps/v1 kinds: spec.replicas, status.replicas, spec.selector (a LabelSelector). */
export const appsScalePaths: ScalePaths = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
};

function fieldsOf(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function nested(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const f of fieldsOf(path)) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, f))
      return undefined;
    v = (v as Loose)[f];
  }
  return v;
}

function setNested(obj: Loose, path: string, value: unknown): void {
  const fs = fieldsOf(path);
  let o = obj;
  for (const f of fs.slice(0, -1)) {
    const next = Object.hasOwn(o, f) ? o[f] : undefined;
    if (typeof next !== 'object' || next === null || Array.isArray(next)) setOwn(o, f, {});
    o = o[f] as Loose;
  }
  setOwn(o, fs[fs.length - 1], value);
}

const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);

/** metav1.FormatLabelSelector: `a=b,c in (d,e)`, sorted by key; `<none>` when it selects all. */
export function formatLabelSelector(selector: unknown): string {
  if (typeof selector !== 'object' || selector === null) return '<none>';
  const s = selector as { matchLabels?: Loose; matchExpressions?: Loose[] };
  const reqs: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(s.matchLabels ?? {})) reqs.push([k, `${k}=${String(v)}`]);
  for (const e of s.matchExpressions ?? []) {
    const key = String(e.key);
    const values = [...((e.values as string[] | undefined) ?? [])].sort().join(',');
    const op = String(e.operator);
    if (op === 'In') reqs.push([key, `${key} in (${values})`]);
    else if (op === 'NotIn') reqs.push([key, `${key} notin (${values})`]);
    else if (op === 'Exists') reqs.push([key, key]);
    else if (op === 'DoesNotExist') reqs.push([key, `!${key}`]);
  }
  // labels.Selector.String() sorts its requirements by key (a stable sort).
  reqs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out = reqs.map((r) => r[1]).join(',');
  return out === '' ? '<none>' : out;
}

/**
 * scaleFromDeployment / scaleFromCustomResource: the Scale of `obj`. `labelSelectorPath`
 * undefined with apps paths means spec.selector formatted; a CRD's names a string field.
 */
export function scaleOf(obj: KubeObject, paths: ScalePaths, apps: boolean): KubeObject {
  const m = obj.metadata;
  const metadata: Loose = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const)
    if (m[k] !== undefined && m[k] !== '') metadata[k] = m[k];
  const specReplicas = int(nested(obj, paths.specReplicasPath));
  const status: Loose = { replicas: int(nested(obj, paths.statusReplicasPath)) };
  const selector = apps
    ? formatLabelSelector(nested(obj, '.spec.selector'))
    : paths.labelSelectorPath
      ? nested(obj, paths.labelSelectorPath)
      : undefined;
  if (typeof selector === 'string' && selector !== '') status.selector = selector;
  // ScaleSpec.replicas is omitempty.
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: specReplicas === 0 ? {} : { replicas: specReplicas },
    status,
  } as unknown as KubeObject;
}

/**
 * scaleUpdatedObjectInfo.UpdatedObject's second half: `scale` validated (ValidateScale:
 * replicas >= 0), its replicas written into a copy of `obj` with the Scale's resourceVersion (the
 * Store's precondition).
 */
export function objectWithScale(obj: KubeObject, scale: KubeObject, paths: ScalePaths): KubeObject {
  const spec = (scale as unknown as Loose).spec as Loose | undefined;
  const replicas = spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, scale.metadata?.name ?? '', [
      invalid(
        FieldPath.of('spec').child('replicas'),
        replicas,
        'must be greater than or equal to 0',
      ),
    ]);
  const out = structuredClone(obj);
  setNested(out as unknown as Loose, paths.specReplicasPath, replicas);
  const rv = scale.metadata?.resourceVersion;
  if (rv !== undefined) out.metadata.resourceVersion = rv;
  return out;
}
