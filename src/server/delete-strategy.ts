// Mirrors kubernetes pkg/registry/core/pod/strategy.go (release-1.36) CheckGracefulDelete: the
// delete strategy of each served resource. Pods are deleted gracefully: the period is the
// options', else spec.terminationGracePeriodSeconds, else 30 (the SetDefaults_PodSpec value that
// kube-apiserver stores on create and this server does not); 0 for a pod no scheduler has bound
// (no spec.nodeName) and for a Failed or Succeeded one. Everything else has no graceful strategy.
import type { KubeObject } from '../engine';
import type { DeleteOptions } from './delete-options';
import type { DeleteStrategy } from './store-delete';
import type { ServedResource } from './served-resource';

/** v1.DefaultTerminationGracePeriodSeconds. */
export const defaultTerminationGracePeriodSeconds = 30;

/** podStrategy.CheckGracefulDelete: always graceful, with the period written into the options. */
export function podCheckGracefulDelete(obj: KubeObject, options: DeleteOptions): boolean {
  const pod = obj as unknown as {
    spec?: { nodeName?: string; terminationGracePeriodSeconds?: number | null };
    status?: { phase?: string };
  };
  let period =
    typeof options.gracePeriodSeconds === 'number'
      ? options.gracePeriodSeconds
      : (pod.spec?.terminationGracePeriodSeconds ?? defaultTerminationGracePeriodSeconds);
  if (!pod.spec?.nodeName) period = 0;
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  if (period < 0) period = 1;
  options.gracePeriodSeconds = period;
  return true;
}

/** The resource's RESTDeleteStrategy. */
export function deleteStrategyOf(served: ServedResource): DeleteStrategy {
  if (!served.jsonOnly && served.group === '' && served.resource === 'pods')
    return { kind: served.kind, checkGracefulDelete: podCheckGracefulDelete };
  return { kind: served.kind };
}
