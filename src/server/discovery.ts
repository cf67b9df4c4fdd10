// Mirrors k8s.io/apiserver pkg/endpoints/discovery (legacy.go, root.go, group.go, version.go) and
// pkg/endpoints/discovery/aggregated (wrapper.go, handler.go, etag.go, negotiation.go), release-1.36,
// with the parts of kube-apiserver that answer them: /apis and /apis/<group> come from
// kube-aggregator (APIGroupList and APIGroup keep their apiVersion, no serverAddressByClientCIDRs),
// a custom resource's group version from apiextensions-apiserver. Deliberate differences: only
// JSON is written (a clause asking for YAML or protobuf is passed over as if the serializer were
// missing, so an Accept naming nothing else gets the 406 upstream writes for an unknown type), and
// no pretty printing for curl.
import { createHash } from 'crypto';
import { compareKubeAwareVersionStrings } from './kube-aware-version';
import { acceptedMediaTypes, parseAccept, type AcceptClause } from './negotiation';
import { newNotAcceptableError } from './status';
import { subresourceVerbs } from './subresources';
import { groupVersionOf, type ServedResource } from './served-resource';
import type { ServedResponse } from './served-response';
import { storageVersionHash } from './storage-version-hash';

/**
 * What discovery reads of a resource: a served one's API facts, or a review resource's
 * (review-resources.ts: no storage, so no storageVersionHash).
 */
export type DiscoveredResource = Pick<
  ServedResource,
  | 'group'
  | 'version'
  | 'resource'
  | 'singularName'
  | 'kind'
  | 'namespaced'
  | 'shortNames'
  | 'categories'
  | 'verbs'
  | 'jsonOnly'
  | 'builtin'
  | 'storageVersion'
> & { stored?: false };

/** What discovery reads from a GET request. */
export interface DiscoveryRequest {
  /** The URL path, without the query. */
  path: string;
  accept?: string;
  ifNoneMatch?: string;
}

/** metav1.ServerAddressByClientCIDR. */
export interface ServerAddressByClientCIDR {
  clientCIDR: string;
  serverAddress: string;
}

/** metav1.GroupVersionForDiscovery. */
export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

/** metav1.APIGroup, in its JSON field order. */
export interface APIGroup {
  kind?: string;
  apiVersion?: string;
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

/** metav1.APIResource, in its JSON field order (omitempty fields absent). */
export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  /** A subresource answering another group version's kind (`/scale`: autoscaling v1 Scale). */
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

/** apidiscovery.k8s.io/v2 APIResourceDiscovery. */
export interface APIResourceDiscovery {
  resource: string;
  responseKind: { group: string; version: string; kind: string };
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

/** apidiscovery.k8s.io/v2 APISubresourceDiscovery. */
export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: { group: string; version: string; kind: string };
  verbs: string[];
}

/** apidiscovery.k8s.io/v2 APIGroupDiscovery. */
export interface APIGroupDiscovery {
  metadata: { name?: string };
  versions: { version: string; resources: APIResourceDiscovery[]; freshness: 'Current' }[];
}

const aggregatedGroup = 'apidiscovery.k8s.io';
const aggregatedKind = 'APIGroupDiscoveryList';

/**
 * Routes a GET to the discovery document it names: /api, /api/v1, /apis, /apis/<group>,
 * /apis/<group>/<version> (with or without a trailing slash). Undefined for any other path,
 * and for a group or version not served (the caller's 404).
 */
export function serveDiscovery(
  req: DiscoveryRequest,
  resources: readonly DiscoveredResource[],
  serverAddress: string,
): ServedResponse | undefined {
  const parts = req.path.replace(/\/$/, '').split('/').slice(1);
  const [root, group, version] = parts;
  if (root === 'api') {
    if (parts.length === 1) {
      const core = resources.filter((r) => r.group === '');
      return aggregatedOrLegacy(req, core, () =>
        writeLegacy(req, { kind: 'APIVersions', ...apiVersions(serverAddress) }),
      );
    }
    if (parts.length !== 2) return undefined;
    const served = resources.filter((r) => r.group === '' && r.version === group);
    if (served.length === 0) return undefined;
    // The core group keeps no apiVersion (keepUnversioned: the release-1.1 answer).
    return writeLegacy(req, { kind: 'APIResourceList', ...apiResourceList(group, served) });
  }
  if (root !== 'apis') return undefined;
  const named = resources.filter((r) => r.group !== '');
  if (parts.length === 1) {
    return aggregatedOrLegacy(req, named, () =>
      writeLegacy(req, { kind: 'APIGroupList', apiVersion: 'v1', groups: apiGroups(named) }),
    );
  }
  const inGroup = named.filter((r) => r.group === group);
  if (inGroup.length === 0) return undefined;
  if (parts.length === 2) {
    return writeLegacy(req, { kind: 'APIGroup', apiVersion: 'v1', ...apiGroups(inGroup)[0] });
  }
  if (parts.length !== 3) return undefined;
  const served = inGroup.filter((r) => r.version === version);
  if (served.length === 0) return undefined;
  return writeLegacy(req, {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    ...apiResourceList(`${group}/${version}`, served),
  });
}

/** The clients this server serves: 127.0.0.0/8. */
const loopbackClientCIDR = '127.0.0.0/8';

/**
 * /api: the legacy group's versions and one DefaultAddresses rule. kube-apiserver's rule covers
 * every client (the all-addresses /0 CIDR); this server accepts loopback clients only (the listener
 * binds 127.0.0.1, api-server.ts), so its rule names the loopback CIDR: the one true for every
 * client that can reach it.
 */
export function apiVersions(serverAddress: string): {
  versions: string[];
  serverAddressByClientCIDRs: ServerAddressByClientCIDR[];
} {
  return {
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: loopbackClientCIDR, serverAddress }],
  };
}

/** APIResourceList of one group version: resources sorted by name (the installer's sorted paths). */
export function apiResourceList(
  groupVersion: string,
  resources: readonly DiscoveredResource[],
): { groupVersion: string; resources: APIResource[] } {
  // A subresource follows its resource (the installer's paths, sorted), with no storage version.
  return {
    groupVersion,
    resources: byName(resources).flatMap((r) => [
      apiResource(r),
      ...subresourceVerbs(r).map((s): APIResource => ({
        name: `${r.resource}/${s.name}`,
        singularName: '',
        namespaced: r.namespaced,
        ...(s.responseKind ? { group: s.responseKind.group, version: s.responseKind.version } : {}),
        kind: s.responseKind?.kind ?? r.kind,
        verbs: s.verbs,
      })),
    ]),
  };
}

function apiResource(r: DiscoveredResource): APIResource {
  const out: APIResource = {
    name: r.resource,
    singularName: r.singularName,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: [...r.verbs],
  };
  if (r.shortNames.length) out.shortNames = [...r.shortNames];
  if (r.categories.length) out.categories = [...r.categories];
  // The installer sets a hash for a StorageVersionProvider only: a review's creater has none.
  if (r.stored === false) return out;
  // The hash names the version objects are stored as (events.k8s.io's events are core/v1 Events).
  // A custom resource's every version names its CRD's storage version.
  const [group, version] = splitGroupVersion(
    r.builtin?.storageVersion ??
      groupVersionOf(r.storageVersion ? { group: r.group, version: r.storageVersion } : r),
  );
  out.storageVersionHash = storageVersionHash(group, version, r.kind);
  return out;
}

/** `apps/v1` -> [apps, v1]; `v1` -> ['', v1]. */
function splitGroupVersion(gv: string): [string, string] {
  const slash = gv.indexOf('/');
  return slash < 0 ? ['', gv] : [gv.slice(0, slash), gv.slice(slash + 1)];
}

/**
 * The named groups, as kube-aggregator lists them (SortedByGroupAndVersion: a custom resource's
 * APIService has GroupPriorityMinimum 1000, so among them by name), each group's versions in
 * kube-aware order, the first preferred.
 */
export function apiGroups(resources: readonly DiscoveredResource[]): APIGroup[] {
  return groupNames(resources).map((name) => {
    const versions = [
      ...new Set(resources.filter((r) => r.group === name).map((r) => r.version)),
    ].sort((a, b) => compareKubeAwareVersionStrings(b, a));
    const gvs = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
    return { name, versions: gvs, preferredVersion: gvs[0] };
  });
}

/**
 * The aggregated document of /api (the core group, no name) or /apis (the named groups): each
 * group's versions in kube-aware order, their resources sorted by name. A built-in's responseKind
 * carries only its kind (the installer's APIResource has no group or version for it); a custom
 * resource's names its group and version, as apiextensions-apiserver fills it.
 */
export function aggregatedDiscovery(resources: readonly DiscoveredResource[]): APIGroupDiscovery[] {
  return groupNames(resources).map((group) => {
    const inGroup = resources.filter((r) => r.group === group);
    const versions = [...new Set(inGroup.map((r) => r.version))].sort((a, b) =>
      compareKubeAwareVersionStrings(b, a),
    );
    return {
      metadata: group === '' ? {} : { name: group },
      versions: versions.map((version) => ({
        version,
        resources: byName(inGroup.filter((r) => r.version === version)).map(resourceDiscovery),
        freshness: 'Current' as const,
      })),
    };
  });
}

function groupNames(resources: readonly DiscoveredResource[]): string[] {
  return [...new Set(resources.map((r) => r.group))].sort();
}

function resourceDiscovery(r: DiscoveredResource): APIResourceDiscovery {
  const out: APIResourceDiscovery = {
    resource: r.resource,
    responseKind: r.jsonOnly
      ? { group: r.group, version: r.version, kind: r.kind }
      : { group: '', version: '', kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName,
    verbs: [...r.verbs],
  };
  if (r.shortNames.length) out.shortNames = [...r.shortNames];
  if (r.categories.length) out.categories = [...r.categories];
  const subresources = subresourceVerbs(r);
  if (subresources.length)
    out.subresources = subresources.map((s) => ({
      subresource: s.name,
      responseKind: s.responseKind ?? out.responseKind,
      verbs: s.verbs,
    }));
  return out;
}

function byName<R extends DiscoveredResource>(resources: readonly R[]): R[] {
  return [...resources].sort((a, b) =>
    a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0,
  );
}

/** The g/v/as conversion a clause asks for (MediaTypeOptions.Convert), or undefined for none. */
function convertOf(c: AcceptClause): { group: string; version: string; kind: string } | undefined {
  const [g, v, as] = ['g', 'v', 'as'].map((k) => c.params.get(k));
  if (g === undefined && v === undefined && as === undefined) return undefined;
  return { group: g ?? '', version: v ?? '', kind: as ?? '' };
}

function acceptsJson(c: AcceptClause): boolean {
  return (
    (c.type === 'application' && (c.subType === 'json' || c.subType === '*')) ||
    (c.type === '*' && c.subType === '*')
  );
}

/**
 * NegotiateMediaTypeOptions over the JSON serializer: the first clause (in goautoneg's order)
 * that accepts JSON and whose conversion the endpoint allows. `aggregated` is
 * DiscoveryEndpointRestrictions (only apidiscovery.k8s.io/v2 APIGroupDiscoveryList: v2beta1 is
 * gone, AggregatedDiscoveryRemoveBetaType is locked on since 1.35), otherwise
 * DefaultEndpointRestrictions (no conversion at all). An empty Accept takes the default.
 */
function negotiate(accept: string | undefined, aggregated: boolean): boolean {
  if (!accept) return !aggregated;
  return parseAccept(accept).some((c) => {
    if (!acceptsJson(c)) return false;
    const stream = c.params.get('stream');
    if (stream && stream !== 'watch') return false;
    const convert = convertOf(c);
    if (!aggregated) return convert === undefined;
    return (
      convert !== undefined &&
      convert.group === aggregatedGroup &&
      convert.version === 'v2' &&
      convert.kind === aggregatedKind
    );
  });
}

/** WrapAggregatedDiscoveryToHandler: the aggregated document when Accept asks for it. */
function aggregatedOrLegacy(
  req: DiscoveryRequest,
  resources: readonly DiscoveredResource[],
  legacy: () => ServedResponse,
): ServedResponse {
  if (!negotiate(req.accept, true)) return legacy();
  const items = aggregatedDiscovery(resources);
  // calculateETag: the JSON of the list as Go marshals it, without kind and apiVersion.
  const etag = createHash('sha512')
    .update(JSON.stringify({ metadata: {}, items }))
    .digest('hex')
    .toUpperCase();
  const quoted = `"${etag}"`;
  const headers: Record<string, string> = {
    ETag: quoted,
    Vary: 'Accept',
    'Cache-Control': 'public',
  };
  if (req.ifNoneMatch === quoted) return { status: 304, headers, body: '' };
  headers['Content-Type'] = `application/json;g=${aggregatedGroup};v=v2;as=${aggregatedKind}`;
  const list = { kind: aggregatedKind, apiVersion: `${aggregatedGroup}/v2`, metadata: {}, items };
  return { status: 200, headers, body: JSON.stringify(list) + '\n' };
}

/** WriteObjectNegotiated with DefaultEndpointRestrictions: JSON, or the 406 WriteRawJSON writes. */
function writeLegacy(req: DiscoveryRequest, object: object): ServedResponse {
  if (!negotiate(req.accept, false)) return notAcceptable();
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(object) + '\n',
  };
}

/** errNotAcceptable through ErrorToAPIStatus, written by WriteRawJSON (indented). */
function notAcceptable(): ServedResponse {
  return {
    status: 406,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(newNotAcceptableError(acceptedMediaTypes).status, null, 2),
  };
}
