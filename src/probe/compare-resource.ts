// No upstream counterpart (kubectl's RESTMapper does this from discovery): which collection a
// `probe --compare --resource R` names. R is a built-in resource as kubectl spells it (`pods`,
// `deployments.apps`, a short name such as `cm`), read from builtin-api-resources.ts, or a
// collection path (`/apis/example.com/v1/widgets`) for anything else (a CRD's, an aggregated one's),
// used as given (--namespace names no namespace in it: whether it is namespaced is not known here).
import { builtinAPIResources } from '../request/builtin-api-resources';
import { parseListPath } from '../request/list-path';
import { resourceStorage } from '../request/resource-storage';
import { listKeyPrefix } from '../request/storage-key-prefix';
import { ProbeError } from './probe-error';

/** One resource to compare: the collection's path and what its storage is. */
export interface CompareResource {
  /** As the report names it: `pods`, `deployments.apps`. */
  name: string;
  /** The collection path (in the namespace, when one was given and the resource is namespaced). */
  path: string;
  /** The etcd key prefix its continue tokens are relative to. */
  keyPrefix: string;
  /** false: kube-apiserver gives it no watch cache (events), so etcd serves both lists. */
  watchCache: boolean;
}

/** What `--compare` reads when no `--resource` is given: common, cached, not secret. */
export const defaultCompareResources: readonly string[] = [
  'pods',
  'configmaps',
  'services',
  'deployments.apps',
];

/** Resolves `spec` (see the header) in `namespace` (all namespaces when undefined). */
export function compareResource(spec: string, namespace?: string): CompareResource {
  const s = spec.trim();
  if (s.startsWith('/')) {
    const l = parseListPath(s);
    if (!l || s.includes('?'))
      throw new ProbeError(
        `--resource ${JSON.stringify(spec)}: not a collection path such as /apis/example.com/v1/widgets (no query)`,
      );
    return {
      name: l.group ? `${l.resource}.${l.group}` : l.resource,
      path: l.path,
      keyPrefix: listKeyPrefix(l),
      watchCache: resourceStorage(l).watchCache,
    };
  }
  const dot = s.indexOf('.');
  const resource = (dot < 0 ? s : s.slice(0, dot)).toLowerCase();
  const group = dot < 0 ? undefined : s.slice(dot + 1).toLowerCase();
  const r = builtinAPIResources.find(
    (x) =>
      (group === undefined || x.group === group) &&
      (x.resource === resource || x.shortNames.includes(resource) || x.singularName === resource),
  );
  if (!r)
    throw new ProbeError(
      `--resource ${JSON.stringify(spec)}: not a built-in resource (e.g. pods, deployments.apps, cm); give a custom resource as its collection path, e.g. /apis/example.com/v1/widgets`,
    );
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const inNamespace = r.namespaced && namespace !== undefined;
  const path = inNamespace
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${r.resource}`
    : `${base}/${r.resource}`;
  return {
    name: r.group ? `${r.resource}.${r.group}` : r.resource,
    path,
    keyPrefix: listKeyPrefix({
      group: r.group,
      resource: r.resource,
      ...(inNamespace ? { namespace } : {}),
    }),
    watchCache: r.watchCache,
  };
}
