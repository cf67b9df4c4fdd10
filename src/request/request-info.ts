// Mirrors k8s.io/apiserver pkg/endpoints/request/requestinfo.go (release-1.36): RequestInfoFactory.
// NewRequestInfo, what every filter and handler knows about a request from its method and URL.
// Deliberate differences: the request is its method and raw request-target (Node's req.url), and
// the AuthorizeWithSelectors selectors are always filled in (the gate is on since 1.34).
import { decodeListOptions, parseQuery, type QueryValues } from './list-query';
import { isPathSegmentName } from '../engine/http-face';

/** RequestInfo: what a request addresses. */
export interface RequestInfo {
  /** For an API resource or subresource (else a non-resource path: /healthz, /api, /version). */
  isResourceRequest: boolean;
  /** The URL path, percent-decoded. */
  path: string;
  /** The kube verb (list, watch, get, create, …); for non-resource requests the lower-case HTTP method. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** The path parts, starting with resource/name. */
  parts: string[];
  /**
   * Not upstream's: the resource came after `/namespaces/<ns>/`, the shape of go-restful's routes
   * for namespaced resources (requestinfo.go reads `/namespaces/x` alone as namespace x too).
   */
  namespacedPath: boolean;
  /** The raw fieldSelector of a list, watch or deletecollection. */
  fieldSelector: string;
  labelSelector: string;
}

/** Path segments used for actions that are not CRUD on an object (specialVerbs). */
const specialVerbs = new Set(['proxy', 'watch']);
/** Root verbs that allow no subresources (specialVerbsNoSubresources). */
const specialVerbsNoSubresources = new Set(['proxy']);
/** Subresources of a namespace: they tell `/namespaces/x/status` apart from a namespaced resource. */
const namespaceSubresources = new Set(['status', 'finalize']);
/** Verbs that honour fieldSelector and labelSelector (verbsWithSelectors). */
const verbsWithSelectors = new Set(['list', 'watch', 'deletecollection']);

/** RequestInfoFactory: the API prefixes (`api`, `apis`) and those without a group (`api`). */
export class RequestInfoFactory {
  constructor(
    readonly apiPrefixes: ReadonlySet<string> = new Set(['api', 'apis']),
    readonly grouplessAPIPrefixes: ReadonlySet<string> = new Set(['api']),
  ) {}

  /**
   * NewRequestInfo for `method` and the raw request-target `url` (`/api/v1/pods?watch=true`).
   * Throws what upstream returns as an error (a special verb with nothing after it); a path that
   * cannot be percent-decoded throws a URIError (Go's server refuses it before any handler).
   */
  newRequestInfo(method: string, url: string): RequestInfo {
    const { rawPath, rawQuery } = splitRequestTarget(url);
    const query = parseQuery(rawQuery);
    // Only a path with an escape has anything to decode (or can fail to).
    const path = rawPath.includes('%') ? decodeURIComponent(rawPath) : rawPath;
    const info: RequestInfo = {
      isResourceRequest: false,
      path,
      verb: method.toLowerCase(),
      apiPrefix: '',
      apiGroup: '',
      apiVersion: '',
      namespace: '',
      resource: '',
      subresource: '',
      name: '',
      parts: [],
      namespacedPath: false,
      fieldSelector: '',
      labelSelector: '',
    };
    let parts = splitPath(path);
    if (parts.length < 3 || !this.apiPrefixes.has(parts[0])) return info;
    info.apiPrefix = parts[0];
    parts = parts.slice(1);
    if (!this.grouplessAPIPrefixes.has(info.apiPrefix)) {
      // The prefix is consumed: this asks for group, version and at least one more part.
      if (parts.length < 3) return info;
      info.apiGroup = parts[0];
      parts = parts.slice(1);
    }
    info.isResourceRequest = true;
    info.apiVersion = parts[0];
    parts = parts.slice(1);

    let verbViaPathPrefix = false;
    if (specialVerbs.has(parts[0])) {
      if (parts.length < 2)
        throw new Error(`unable to determine kind and namespace from url, ${url}`);
      info.verb = parts[0];
      parts = parts.slice(1);
      verbViaPathPrefix = true;
    } else {
      info.verb = verbOfMethod[method] ?? '';
    }

    if (parts[0] === 'namespaces') {
      if (parts.length > 1) {
        info.namespace = parts[1];
        if (parts.length > 2 && !namespaceSubresources.has(parts[2])) {
          parts = parts.slice(2);
          info.namespacedPath = true;
        }
      }
    }
    info.parts = parts;
    if (parts.length >= 3 && !specialVerbsNoSubresources.has(info.verb))
      info.subresource = parts[2];
    if (parts.length >= 2) info.name = parts[1];
    if (parts.length >= 1) info.resource = parts[0];

    // No name on a get: a list or a watch, as the query's ListOptions say.
    if (info.name === '' && info.verb === 'get') {
      const opts = decodeListParameters(query);
      info.verb = opts.watch ? 'watch' : 'list';
      const name = opts.fieldSelectorName;
      if (name !== undefined && isPathSegmentName(name)) info.name = name;
    }
    if (info.name === '' && info.verb === 'delete') info.verb = 'deletecollection';

    if (!verbViaPathPrefix && verbsWithSelectors.has(info.verb)) {
      info.fieldSelector = query.get('fieldSelector')?.[0] ?? '';
      info.labelSelector = query.get('labelSelector')?.[0] ?? '';
    }
    return info;
  }
}

const verbOfMethod: Readonly<Record<string, string>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * A request-target split at its first '?', as Go's url.URL holds it: the path as sent (still
 * percent-encoded) and the raw query. Every reader of a request-target splits it here.
 */
export function splitRequestTarget(target: string): { rawPath: string; rawQuery: string } {
  const q = target.indexOf('?');
  return q < 0
    ? { rawPath: target, rawQuery: '' }
    : { rawPath: target.slice(0, q), rawQuery: target.slice(q + 1) };
}

/** splitPath: the segments of a path, without leading and trailing slashes. */
function splitPath(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path[start] === '/') start++;
  while (end > start && path[end - 1] === '/') end--;
  return start === end ? [] : path.slice(start, end).split('/');
}

/**
 * ParameterCodec.DecodeParameters(query, &metainternalversion.ListOptions{}) as NewRequestInfo
 * reads it: `watch` and the name the fieldSelector requires. When any parameter fails to convert
 * (a non-integer limit, a bad selector), only `watch` is read, raw.
 */
function decodeListParameters(query: QueryValues): { watch: boolean; fieldSelectorName?: string } {
  // No parameters: what decoding them gives, without building empty selectors (most LISTs).
  if (query.size === 0) return { watch: false };
  try {
    const opts = decodeListOptions(query);
    return {
      watch: opts.watch,
      fieldSelectorName: opts.parsedFieldSelector.requiresExactMatch('metadata.name'),
    };
  } catch {
    const watch = query.get('watch')?.[0];
    return { watch: watch !== undefined && watch.toLowerCase() !== 'false' && watch !== '0' };
  }
}
