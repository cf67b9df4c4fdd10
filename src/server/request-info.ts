// Mirrors k8s.io/apiserver pkg/endpoints/request/requestinfo.go (release-1.36): RequestInfoFactory.
// NewRequestInfo, what every filter and handler knows about a request from its method and URL.
// Deliberate differences: the request is its method and raw request-target (Node's req.url), the
// query's ListOptions are decoded only as far as the verb and name need (watch, metadata.name),
// and the AuthorizeWithSelectors selectors are always filled in (the gate is on since 1.34).
import { parseSelector } from '../engine/storage/fields';
import { parse as parseLabelSelector } from '../engine/storage/labels';

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
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const path = decodeURIComponent(rawPath);
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
        if (parts.length > 2 && !namespaceSubresources.has(parts[2])) parts = parts.slice(2);
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
      info.fieldSelector = query.get('fieldSelector') ?? '';
      info.labelSelector = query.get('labelSelector') ?? '';
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

/** splitPath: the segments of a path, without leading and trailing slashes. */
function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

/**
 * The part of ParameterCodec.DecodeParameters(query, &metainternalversion.ListOptions{}) that
 * NewRequestInfo reads: `watch` and the name a fieldSelector requires. Any parameter that fails
 * to convert (a non-integer limit, a bad selector) discards them all except `watch`, read raw.
 */
function decodeListParameters(query: URLSearchParams): {
  watch: boolean;
  fieldSelectorName?: string;
} {
  try {
    for (const p of ['limit', 'timeoutSeconds']) {
      const v = query.get(p);
      if (v !== null) parseInt64(v);
    }
    const label = query.get('labelSelector');
    if (label !== null) parseLabelSelector(label);
    const field = query.get('fieldSelector');
    const fieldSelector = field !== null ? parseSelector(field) : undefined;
    return {
      watch: convertBool(query.get('watch')),
      fieldSelectorName: fieldSelector?.requiresExactMatch('metadata.name'),
    };
  } catch {
    const watch = query.get('watch');
    return { watch: watch !== null && watch.toLowerCase() !== 'false' && watch !== '0' };
  }
}

/** runtime.Convert_Slice_string_To_bool: absent, "0", "f" or "false" (any case) is false. */
function convertBool(v: string | null): boolean {
  if (v === null) return false;
  const l = v.toLowerCase();
  return !(v === '0' || l === 'f' || l === 'false');
}

/** strconv.ParseInt(v, 10, 64), throwing on what it rejects. */
function parseInt64(v: string): bigint {
  if (!/^[+-]?[0-9]+$/.test(v)) throw new Error(`strconv.ParseInt: parsing "${v}": invalid syntax`);
  const n = BigInt(v);
  if (n > 9223372036854775807n || n < -9223372036854775808n)
    throw new Error(`strconv.ParseInt: parsing "${v}": value out of range`);
  return n;
}

/** content.IsPathSegmentName found nothing wrong: not `.` or `..`, no `/` or `%`. */
function isPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}
