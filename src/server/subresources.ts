// No upstream counterpart as one table: the subresources kube-apiserver's installer registers for
// the built-ins this server serves (pkg/registry/core/namespace/storage: namespaces/finalize,
// FinalizeREST, Update only), read by routing (routes.ts) and by discovery.
import type { ServedResource } from './served-resource';

/** `<resource>/<subresource>` and its verbs. */
export const builtInSubresources = {
  'namespaces/finalize': ['update'],
} as const satisfies Record<string, readonly string[]>;

export type BuiltInSubresource = keyof typeof builtInSubresources;

/** The subresources a resource serves and their verbs, sorted by name (what discovery lists). */
export function subresourceVerbs(served: ServedResource): Array<{ name: string; verbs: string[] }> {
  if (served.jsonOnly || served.group !== '') return [];
  return Object.entries(builtInSubresources)
    .filter(([path]) => path.startsWith(`${served.resource}/`))
    .map(([path, verbs]) => ({ name: path.slice(served.resource.length + 1), verbs: [...verbs] }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
