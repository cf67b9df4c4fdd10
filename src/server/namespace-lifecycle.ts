// Mirrors k8s.io/apiserver pkg/admission/plugin/namespace/lifecycle/admission.go (release-1.36)
// NamespaceLifecycle: the immortal namespaces (default, kube-system, kube-public) may not be
// deleted; namespaced content goes only into a namespace that exists and is not terminating.
// The plugin's namespace informer is the namespaces watch cache here (a get at resourceVersion
// "0", no etcd call), and a namespace it does not hold is looked up live (resourceVersion "", from
// etcd), as the plugin does. Deliberate difference: no missingNamespaceWait and no
// force-live-lookup cache of recent deletions.
import type { RequestContext, KubeObject } from '../engine';
import { newForbidden, newNotFound } from '../engine/http-face';
import type { ServedResources } from './served-resources';
import type { ServedResource } from './served-resource';

/** metav1.NamespaceDefault, NamespaceSystem, NamespacePublic: what the plugin registers as immortal. */
export const immortalNamespaces: ReadonlySet<string> = new Set([
  'default',
  'kube-system',
  'kube-public',
]);

/** v1.NamespaceTerminatingCause. */
export const namespaceTerminatingCause = 'NamespaceTerminating';

/** Admit for a namespace's delete: 403 `namespaces "default" is forbidden: this namespace may not be deleted`. */
export function admitNamespaceDelete(name: string): void {
  if (immortalNamespaces.has(name))
    throw newForbidden(
      { group: '', resource: 'namespaces' },
      name,
      new Error('this namespace may not be deleted'),
    );
}

/**
 * Admit for a create of namespaced content: 404 for a missing namespace, 403 with the
 * NamespaceTerminating cause for a terminating one. The name is admission's
 * extractResourceName: the object's name, its generateName, or `Unknown`.
 */
export async function admitCreate(
  resources: ServedResources,
  served: ServedResource,
  namespace: string,
  obj: KubeObject,
  context: RequestContext,
): Promise<void> {
  if (!served.namespaced) return;
  const ns =
    (await resources.namespaces.engine.get('', namespace, '0', true, context)) ??
    (await resources.namespaces.engine.get('', namespace, '', true, context));
  if (ns === undefined) throw newNotFound({ group: '', resource: 'namespaces' }, namespace);
  const phase = ((ns as unknown as { status?: { phase?: string } }).status ?? {}).phase;
  if (phase !== 'Terminating') return;
  const name = obj.metadata?.name || obj.metadata?.generateName || 'Unknown';
  const err = newForbidden(
    { group: served.group, resource: served.resource },
    name,
    new Error(
      `unable to create new content in namespace ${namespace} because it is being terminated`,
    ),
  );
  const details = (err.status.details ??= {});
  details.causes = [
    ...(details.causes ?? []),
    {
      reason: namespaceTerminatingCause,
      message: `namespace ${namespace} is being terminated`,
      field: 'metadata.namespace',
    },
  ];
  throw err;
}
