// Mirrors runtime.Scheme.Default as kube-apiserver's codecs call it when they decode a request body
// (and a patched object) of a built-in kind: the defaulting functions registered per
// group/version/kind (pkg/apis/<group>/v1/defaults.go, core-v1-defaults.ts and its siblings).
// Deliberate difference: only the kinds with a file of defaults here are defaulted.
import type { KubeObject } from '../../engine';
import {
  setDefaultsDaemonSet,
  setDefaultsDeployment,
  setDefaultsReplicaSet,
  setDefaultsStatefulSet,
} from './apps-v1-defaults';
import { setDefaultsCronJob, setDefaultsJob } from './batch-v1-defaults';
import { setDefaultsPod, setDefaultsSecret, setDefaultsService } from './core-v1-defaults';

type Loose = Record<string, unknown>;

/** The defaulting function of each kind, by `group/version/Kind` (`/v1/Secret` for core). */
const defaulters: Readonly<Record<string, (obj: Loose) => void>> = {
  '/v1/Pod': setDefaultsPod,
  '/v1/Secret': setDefaultsSecret,
  '/v1/Service': setDefaultsService,
  'apps/v1/Deployment': setDefaultsDeployment,
  'apps/v1/ReplicaSet': setDefaultsReplicaSet,
  'apps/v1/StatefulSet': setDefaultsStatefulSet,
  'apps/v1/DaemonSet': setDefaultsDaemonSet,
  'batch/v1/Job': setDefaultsJob,
  'batch/v1/CronJob': setDefaultsCronJob,
};

/** Scheme.Default: `obj` (of the built-in kind group/version/kind) with its defaults, in place. */
export function schemeDefault(
  gvk: { group: string; version: string; kind: string },
  obj: KubeObject,
): KubeObject {
  const key = `${gvk.group}/${gvk.version}/${gvk.kind}`;
  if (Object.hasOwn(defaulters, key)) defaulters[key](obj as unknown as Loose);
  return obj;
}
