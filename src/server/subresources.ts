// No upstream counterpart as one table: the subresources of the built-ins this server serves
// (pkg/registry/core/namespace/storage: namespaces/finalize, FinalizeREST, Update only), read by
// routing (routes.ts) and, with the API table's facts of each, by discovery.
import type { BuiltinSubresource } from '../request/builtin-api-resources';
import type { ServedResource } from './served-resource';

/** `<resource>/<subresource>` and its verbs. */
export const builtInSubresources = {
  'namespaces/finalize': ['update'],
} as const satisfies Record<string, readonly string[]>;

export type BuiltInSubresource = keyof typeof builtInSubresources;

/**
 * The subresources a resource serves, sorted by name (what discovery lists): those of its row in
 * the API table (builtin-api-resources.ts: upstream's verbs and response kind) that are served here.
 */
export function subresourceVerbs(
  served: Pick<ServedResource, 'resource' | 'builtin'>,
): Array<{ name: string; verbs: string[]; responseKind?: BuiltinSubresource['responseKind'] }> {
  return (served.builtin?.subresources ?? [])
    .filter((s) => Object.hasOwn(builtInSubresources, `${served.resource}/${s.name}`))
    .map((s) => ({
      name: s.name,
      verbs: [...s.verbs],
      ...(s.responseKind ? { responseKind: s.responseKind } : {}),
    }));
}
