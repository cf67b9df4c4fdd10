// No upstream counterpart as one file: what an explained URL addresses, read the way kube-apiserver
// reads it (RequestInfoFactory.NewRequestInfo, src/request/request-info.ts) and the resource's etcd
// prefix (src/request/storage-key-prefix.ts, from the storage table src/request/resource-storage.ts). Only LIST and WATCH of a collection (or of one named
// object through metadata.name) are explained.
import type { GroupResource } from '../engine';
import { resourceStorage, resourceStorageRow } from '../request/resource-storage';
import { resourceKeyPrefix } from '../request/storage-key-prefix';
import { parseQuery, type QueryValues } from '../request/list-query';
import { RequestInfoFactory, splitRequestTarget, type RequestInfo } from '../request/request-info';

/** A URL that is not a LIST or WATCH the explainer can answer for (not a Kubernetes error). */
export class ExplainInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExplainInputError';
  }
}

export interface RequestTarget {
  kind: 'list' | 'watch';
  /** The request-target: path and query, without scheme and host. */
  requestUri: string;
  path: string;
  query: QueryValues;
  info: RequestInfo;
  groupResource: GroupResource;
  /** API version from the path (v1, apps/v1's v1, a CRD's version). */
  version: string;
  /** The resource's keys under /registry, e.g. `/pods`, `/services/specs`, `/example.com/widgets`. */
  resourcePrefix: string;
  /** A custom resource (a group kube-apiserver does not serve itself). */
  custom: boolean;
  /** Who serves the resource: see ServedResource. */
  served: ServedResource;
}

/**
 * builtin: a row of kube-apiserver's storage table (resource-storage.ts); custom: a group it does
 * not serve itself, so a CustomResourceDefinition (or an aggregated server) must, which explain
 * assumes; none: a group kube-apiserver serves with no such resource in it, or a cluster-scoped
 * resource under /namespaces/NS/, which it answers 404.
 */
export type ServedResource = 'builtin' | 'custom' | 'none';

const requestInfoFactory = new RequestInfoFactory();

/** Reads a full URL or a path with its query; throws ExplainInputError for anything but a LIST or WATCH. */
export function requestTarget(url: string): RequestTarget {
  const text = url.trim();
  if (text === '')
    throw new ExplainInputError(
      'empty URL; expected e.g. /api/v1/namespaces/default/pods?limit=500',
    );
  let requestUri = text;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(requestUri);
  if (scheme) requestUri = requestUri.slice(scheme[0].length) || '/';
  const hash = requestUri.indexOf('#');
  if (hash >= 0) requestUri = requestUri.slice(0, hash);
  if (!requestUri.startsWith('/'))
    throw new ExplainInputError(
      `${JSON.stringify(text)} is not a URL or path; expected e.g. /api/v1/namespaces/default/pods?limit=500`,
    );
  let info: RequestInfo;
  try {
    info = requestInfoFactory.newRequestInfo('GET', requestUri);
  } catch (e) {
    throw new ExplainInputError(`cannot read ${JSON.stringify(text)}: ${(e as Error).message}`);
  }
  if (!info.isResourceRequest || info.resource === '')
    throw new ExplainInputError(
      `${JSON.stringify(info.path)} is not an API resource path; expected /api/v1/… or /apis/GROUP/VERSION/…`,
    );
  if (info.subresource !== '' || (info.verb !== 'list' && info.verb !== 'watch'))
    throw new ExplainInputError(
      `GET ${info.path} is a ${info.subresource ? `${info.subresource} subresource request` : info.verb}, not a LIST or WATCH of a collection`,
    );
  const groupResource = { group: info.apiGroup, resource: info.resource };
  const keyPrefix = resourceKeyPrefix(groupResource, '');
  const custom = !resourceStorage(groupResource).builtin;
  const row = resourceStorageRow(groupResource);
  // A cluster-scoped resource has no namespaced route (/api/v1/namespaces/NS/nodes): 404 too.
  const served: ServedResource = custom
    ? 'custom'
    : row && (row[2] || info.namespace === '')
      ? 'builtin'
      : 'none';
  return {
    kind: info.verb === 'watch' ? 'watch' : 'list',
    requestUri,
    path: info.path,
    query: parseQuery(splitRequestTarget(requestUri).rawQuery),
    info,
    groupResource,
    version: info.apiVersion,
    resourcePrefix: keyPrefix.replace(/\/$/, ''),
    custom,
    served,
  };
}
