// No upstream counterpart: what the analysis of an import reads from a request's URI: its query
// parameters (as the apiserver's ListOptions decoding names them), the resource it lists or
// watches (src/request/list-path.ts's parseListPath, as RequestInfoFactory reads the path), the
// key prefix its continue tokens decode against, and the token itself decoded with
// storage.DecodeContinue (src/engine/storage/continue.ts).
import { decodeContinue } from '../engine';
import { parseListPath, type ListPath } from '../request/list-path';
import { splitRequestTarget } from '../request/request-info';
import { listKeyPrefix } from '../request/storage-key-prefix';
import type { ImportedRequest } from '../run/imported-request';

/**
 * The path (as logged) and the query parameters of a request URI. The query is read by
 * URLSearchParams, not by list-query.ts's url.ParseQuery: the analysis shows every parameter as
 * logged, a pair the apiserver drops (one with ';' or a bad %-escape) included.
 */
export function splitRequestURI(requestURI: string): { path: string; query: URLSearchParams } {
  const { rawPath, rawQuery } = splitRequestTarget(requestURI);
  return { path: rawPath, query: new URLSearchParams(rawQuery) };
}

/** The resource a LIST or WATCH names: from its path, else from the audit objectRef. */
export function requestScope(r: ImportedRequest): ListPath | undefined {
  const fromPath = parseListPath(splitRequestURI(r.requestURI).path);
  if (fromPath) return fromPath;
  const ref = r.objectRef;
  if (!ref?.resource || ref.name || ref.subresource) return undefined;
  const scope: ListPath = {
    group: ref.apiGroup ?? '',
    version: ref.apiVersion ?? '',
    resource: ref.resource,
    path: splitRequestURI(r.requestURI).path,
  };
  if (ref.namespace) scope.namespace = ref.namespace;
  return scope;
}

/** `group/resource` plus the namespace when namespaced: what "the same resource" means for a relist. */
export function resourceKey(scope: ListPath): string {
  const gr = scope.group ? `${scope.resource}.${scope.group}` : scope.resource;
  return scope.namespace !== undefined ? `${gr} in ${scope.namespace}` : gr;
}

/** A continue token as storage.DecodeContinue reads it against the LIST's key prefix. */
export type DecodedContinue =
  | {
      /** The token's resource version (-1: the inconsistent continuation a 410 hands out). */
      resourceVersion: string;
      /** The start key relative to the key prefix, as the token carries it. */
      startKey: string;
      /** The etcd key the page starts from (keyPrefix + startKey). */
      fromKey: string;
    }
  | { error: string };

export function decodeContinueToken(token: string, scope: ListPath | undefined): DecodedContinue {
  // A URL that names no resource still decodes: the key is then relative to "/".
  const keyPrefix = scope ? listKeyPrefix(scope) : '/';
  try {
    const d = decodeContinue(token, keyPrefix);
    return {
      resourceVersion: String(d.resourceVersion),
      startKey: d.fromKey.slice(keyPrefix.length),
      fromKey: d.fromKey,
    };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** Parameters whose value decides how a request is served; the rest only say whether they were sent. */
const valueParams = new Set([
  'watch',
  'resourceVersionMatch',
  'sendInitialEvents',
  'allowWatchBookmarks',
]);
/** Parameters that do not change how a request is served. */
const ignoredParams = new Set(['timeoutSeconds', 'timeout', 'pretty']);

/**
 * A request's shape: the verb, the path with the namespace generalised, and the parameters that
 * decide how it is served (resourceVersion as unset, 0 or a number; limit, continue and the
 * selectors as sent or not). Requests of one shape are served alike under a profile.
 */
export function requestShape(r: ImportedRequest): string {
  const { path, query } = splitRequestURI(r.requestURI);
  const general = path.replace(/\/namespaces\/[^/]+\/(?=[^/])/, '/namespaces/{namespace}/');
  const params: string[] = [];
  const names = [...new Set(query.keys())].sort();
  for (const name of names) {
    if (ignoredParams.has(name)) continue;
    const value = query.get(name) ?? '';
    if (name === 'resourceVersion')
      params.push(`resourceVersion=${value === '' || value === '0' ? value : 'N'}`);
    else if (valueParams.has(name)) params.push(`${name}=${value}`);
    else params.push(`${name}=…`);
  }
  return `${r.verb.toUpperCase()} ${general}${params.length ? `?${params.join('&')}` : ''}`;
}
