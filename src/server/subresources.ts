// No upstream counterpart as one table: the subresources this server serves of each resource. A
// built-in's are those of its row in the API table (builtin-api-resources.ts: upstream's storage
// map) among status, scale and namespaces/finalize; a custom resource's are those its CRD's
// storage version declares (apiextensions-apiserver's crdHandler: status with get, patch, update;
// scale answering autoscaling/v1 Scale). Read by routing (routes.ts) and discovery.
import type { BuiltinSubresource } from '../request/builtin-api-resources';
import type { ServedResource } from './served-resource';

/** The subresources served for a built-in: `<name>` for every kind, `<resource>/<name>` for one. */
const servedBuiltInSubresources = new Set(['status', 'scale', 'namespaces/finalize']);

const getPatchUpdate: readonly string[] = ['get', 'patch', 'update'];

/**
 * The subresources a resource serves, sorted by name (what discovery lists): its name, verbs, and
 * the kind it answers when not the resource's own.
 */
export function subresourceVerbs(
  served: Pick<ServedResource, 'resource' | 'builtin' | 'crdSubresources' | 'jsonOnly'>,
): Array<{ name: string; verbs: string[]; responseKind?: BuiltinSubresource['responseKind'] }> {
  if (served.jsonOnly) {
    const sub = served.crdSubresources;
    const out: Array<{
      name: string;
      verbs: string[];
      responseKind?: BuiltinSubresource['responseKind'];
    }> = [];
    if (sub?.scale)
      out.push({
        name: 'scale',
        verbs: [...getPatchUpdate],
        responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      });
    if (sub?.status) out.push({ name: 'status', verbs: [...getPatchUpdate] });
    return out;
  }
  return (served.builtin?.subresources ?? [])
    .filter(
      (s) =>
        servedBuiltInSubresources.has(s.name) ||
        servedBuiltInSubresources.has(`${served.resource}/${s.name}`),
    )
    .map((s) => ({
      name: s.name,
      verbs: [...s.verbs],
      ...(s.responseKind ? { responseKind: s.responseKind } : {}),
    }));
}
