// No upstream counterpart: which collection a LIST or WATCH URL names, for readers that hold a URL
// rather than a request (a log line, an audit requestURI, a user's input). The path is read by
// RequestInfoFactory.NewRequestInfo (request-info.ts), as the apiserver reads it; this file only
// finds the path in the URL and says which RequestInfos are a LIST or WATCH of a collection.
import { RequestInfoFactory, type RequestInfo } from './request-info';
import type { ListScope } from './storage-key-prefix';

/** A LIST request path, as the apiserver's RequestInfoFactory splits it. */
export interface ListPath extends ListScope {
  version: string;
  /** The path itself, from /api or /apis (no scheme, host or query), as sent. */
  path: string;
}

const requestInfoFactory = new RequestInfoFactory();

/**
 * The resource (and namespace) a LIST URL or path names; undefined for anything else (discovery,
 * a single object, a subresource). Accepts a full URL, a path, or a path with a query; anything
 * may come before /api or /apis (a proxy's own path): the first of them that reads as a LIST wins.
 */
export function parseListPath(urlOrPath: string): ListPath | undefined {
  let path = urlOrPath;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length);
  const end = path.search(/[?#]/);
  if (end >= 0) path = path.slice(0, end);
  let start = 0;
  for (const segment of path.split('/')) {
    if (segment === 'api' || segment === 'apis') {
      const list = listPathOf(`/${path.slice(start)}`.replace(/\/$/, ''));
      if (list) return list;
    }
    start += segment.length + 1;
  }
  return undefined;
}

/** The collection `path` (from /api or /apis on) lists or watches, as NewRequestInfo reads it. */
function listPathOf(path: string): ListPath | undefined {
  // A URL in a log ends at white space; an empty segment (`//`, two trailing slashes) is no route.
  if (!/^(?:\/[^/\s]+)+$/.test(path)) return undefined;
  let info: RequestInfo;
  try {
    info = requestInfoFactory.newRequestInfo('GET', path);
  } catch {
    // A special verb with nothing after it (`/api/v1/watch`), or a path that does not decode.
    return undefined;
  }
  // parts is [resource]: no name or subresource in the path (`/namespaces/NS/status` included).
  if (!info.isResourceRequest || info.parts.length !== 1) return undefined;
  if (info.verb !== 'list' && info.verb !== 'watch') return undefined;
  // The core group serves v1 only, and namespaces are not namespaced (`/namespaces/NS/namespaces`).
  if (info.apiPrefix === 'api' && info.apiVersion !== 'v1') return undefined;
  if (info.resource === 'namespaces' && info.namespacedPath) return undefined;
  const list: ListPath = {
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    path,
  };
  if (info.namespacedPath) list.namespace = info.namespace;
  return list;
}
