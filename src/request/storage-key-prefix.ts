// Mirrors how kube-apiserver names a resource's etcd keys: kubernetes/kubernetes
// pkg/kubeapiserver/default_storage_factory_builder.go (SpecialDefaultResourcePrefixes),
// k8s.io/apiserver pkg/server/storage/storage_factory.go (DefaultStorageFactory.ResourcePrefix),
// pkg/server/options/etcd.go (SimpleStorageFactory.ResourcePrefix, for CRDs, CRDs' own API and
// APIServices) and pkg/registry/generic/registry/store.go (NamespaceKeyRootFunc) plus etcd3's
// prepareKey, which together give the keyPrefix a LIST hands to storage.DecodeContinue.
// The facts per resource are resource-storage.ts's table. Deliberate difference: a URL or list
// kind names no cluster, so the etcd prefix (kube-apiserver's --etcd-prefix) is a parameter,
// "/registry" by default.
import {
  builtinGroupRows,
  resourceStorage,
  resourceStorageRow,
  resourceStorageTable,
} from './resource-storage';

/** kube-apiserver's --etcd-prefix default (pkg/controlplane/apiserver/options DefaultEtcdPathPrefix). */
export const defaultEtcdPrefix = '/registry';

export interface GroupResourceName {
  /** "" for the core group. */
  group: string;
  resource: string;
}

/** A LIST: which resource, and the namespace when the request is namespaced (`/namespaces/NS/`). */
export interface ListScope extends GroupResourceName {
  namespace?: string;
}

/** Joins path parts with single slashes and a trailing one: ("/registry", "pods") -> "/registry/pods/". */
function joinPrefix(...parts: string[]): string {
  const inner = parts
    .flatMap((p) => p.split('/'))
    .filter((p) => p !== '')
    .join('/');
  return `/${inner}/`;
}

/** Whether a built-in resource is namespaced; undefined for a resource not in the table (a CRD's). */
export function builtinResourceNamespaced(gr: GroupResourceName): boolean | undefined {
  return resourceStorageRow(gr)?.[2];
}

/**
 * Resources whose etcd prefix is not `<resource>` (the rows of resource-storage.ts that say so),
 * each with the upstream file that sets it.
 */
export const resourcePrefixExceptions: ReadonlyArray<{
  group: string;
  resource: string;
  prefix: string;
  upstream: string;
}> = Object.entries(resourceStorageTable).flatMap(([group, rows]) =>
  rows.flatMap(([, resource, , storage]) =>
    storage?.prefix !== undefined
      ? [{ group, resource, prefix: storage.prefix, upstream: storage.upstream ?? '' }]
      : [],
  ),
);

/**
 * The etcd prefix of every object of a resource, with a trailing slash: `/registry/<resource>/` for
 * built-ins (or the prefix their row gives), `/registry/<group>/<resource>/` for custom resources.
 */
export function resourceKeyPrefix(gr: GroupResourceName, etcdPrefix = defaultEtcdPrefix): string {
  return joinPrefix(etcdPrefix, resourceStorage(gr).prefix);
}

/**
 * The keyPrefix a LIST decodes its continue token against: NamespaceKeyRootFunc appends "/" + the
 * namespace for a namespaced request, and etcd3's prepareKey adds the trailing "/" of a recursive
 * list. A cluster-wide list of a namespaced resource uses the resource prefix itself.
 */
export function listKeyPrefix(scope: ListScope, etcdPrefix = defaultEtcdPrefix): string {
  const prefix = resourceKeyPrefix(scope, etcdPrefix);
  return scope.namespace ? `${prefix}${scope.namespace}/` : prefix;
}

/** A list kind's resource: `PodList` in `v1` is pods; `namespaced` is known for built-ins only. */
export interface ListKindResource extends GroupResourceName {
  namespaced?: boolean;
  /** True when the resource name is apimachinery's UnsafeGuessKindToResource guess (a CRD's plural may differ). */
  guessed: boolean;
}

/**
 * The resource a list object names by its kind ("<Kind>List") and apiVersion ("v1",
 * "apps/v1", "stable.example.com/v1"); undefined when the kind is not a typed list (e.g. "List",
 * "Table").
 */
export function listKindResource(
  apiVersion: string | undefined,
  kind: string,
): ListKindResource | undefined {
  const m = /^([A-Z][A-Za-z0-9]*)List$/.exec(kind);
  if (!m) return undefined;
  const itemKind = m[1];
  if (apiVersion === undefined) {
    // The apiVersion was not seen: a built-in kind still names its resource when every group
    // serving that kind stores it alike (Event in core and events.k8s.io, Ingress in two groups).
    const matches = Object.entries(resourceStorageTable).flatMap(([group, kinds]) =>
      kinds
        .filter(([k]) => k === itemKind)
        .map(([, resource, namespaced]) => ({ group, resource, namespaced })),
    );
    const prefixes = new Set(matches.map((r) => resourceKeyPrefix(r)));
    return matches.length > 0 && prefixes.size === 1
      ? { ...matches[0], guessed: false }
      : undefined;
  }
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const known = builtinGroupRows(group)?.find(([k]) => k === itemKind);
  if (known) return { group, resource: known[1], namespaced: known[2], guessed: false };
  return { group, resource: unsafeGuessKindToResource(itemKind), guessed: true };
}

/** apimachinery pkg/api/meta/restmapper.go UnsafeGuessKindToResource (the plural only). */
export function unsafeGuessKindToResource(kind: string): string {
  const singular = kind.toLowerCase();
  if (singular === '' || singular.endsWith('endpoints')) return singular;
  if (singular.endsWith('s')) return singular + 'es';
  if (singular.endsWith('y')) return singular.slice(0, -1) + 'ies';
  return singular + 's';
}
