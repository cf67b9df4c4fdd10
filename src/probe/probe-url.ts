// No upstream counterpart: the LIST a probe sends, from the user's path and query. It must be a
// LIST as k8s.io/apiserver's RequestInfoFactory reads it (verb "list"), its options must decode as
// the apiserver's ParameterCodec decodes them (src/request/list-query.ts, the same 400 texts), and
// the probe itself adds `continue` (page by page) and the watch parameters, so the user gives
// neither. The URL of every page and of the watch is built here, once.
import { RequestInfoFactory, splitRequestTarget } from '../request/request-info';
import { decodeListOptions, parseQuery } from '../request/list-query';
import { listKeyPrefix } from '../request/storage-key-prefix';
import { parseListPath } from '../request/list-path';
import { ProbeError } from './probe-error';

export interface ProbeUrl {
  /** The path, as given (percent-encoded as sent). */
  path: string;
  /** The query's `k=v` pairs as given (raw, in order). */
  pairs: string[];
  /** The resource the LIST names, e.g. `pods` in `default`. */
  resource: string;
  namespace?: string;
  /** The etcd key prefix its continue tokens are relative to (storage.DecodeContinue's keyPrefix). */
  keyPrefix: string;
  limit: number;
  labelSelector: string;
  fieldSelector: string;
}

/** Parameters the probe sets itself: a user's value would be overwritten or make no sense. */
const probeOwned = ['continue', 'watch', 'allowWatchBookmarks', 'sendInitialEvents'];

function rawKey(pair: string): string {
  const eq = pair.indexOf('=');
  const k = eq < 0 ? pair : pair.slice(0, eq);
  try {
    return decodeURIComponent(k.replace(/\+/g, ' '));
  } catch {
    return k;
  }
}

/** Checks `input` (e.g. `/api/v1/namespaces/default/pods?limit=2&labelSelector=app%3Dweb`). */
export function parseProbeUrl(input: string): ProbeUrl {
  const url = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url))
    throw new ProbeError(
      `${JSON.stringify(url)}: give the path and query only (e.g. /api/v1/pods?limit=500): the server is the kubeconfig's`,
    );
  if (!url.startsWith('/'))
    throw new ProbeError(
      `${JSON.stringify(url)}: expected a path starting with /api/ or /apis/, e.g. /api/v1/namespaces/default/pods?limit=500`,
    );
  let verb: string;
  try {
    verb = new RequestInfoFactory().newRequestInfo('GET', url).verb;
  } catch (e) {
    throw new ProbeError(`${JSON.stringify(url)}: ${(e as Error).message}`);
  }
  const { rawPath: path, rawQuery } = splitRequestTarget(url);
  const pairs = rawQuery.split('&').filter((p) => p !== '');
  const owned = pairs.map(rawKey).filter((k) => probeOwned.includes(k));
  if (owned.length)
    throw new ProbeError(
      `${JSON.stringify(url)}: leave out ${owned.join(', ')}: the probe sends continue page by page, and the watch parameters with --watch`,
    );
  const listPath = parseListPath(path);
  if (verb !== 'list' || !listPath)
    throw new ProbeError(
      `${JSON.stringify(url)}: not a LIST (the apiserver reads it as verb "${verb}"): expected a collection such as /api/v1/pods or /apis/apps/v1/namespaces/default/deployments`,
    );
  let opts: ReturnType<typeof decodeListOptions>;
  try {
    opts = decodeListOptions(parseQuery(pairs.join('&')));
  } catch (e) {
    throw new ProbeError(`${JSON.stringify(url)}: ${(e as Error).message}`);
  }
  if (opts.limit < 0)
    throw new ProbeError(`${JSON.stringify(url)}: limit must not be negative, got ${opts.limit}`);
  return {
    path,
    pairs,
    resource: listPath.resource,
    ...(listPath.namespace !== undefined ? { namespace: listPath.namespace } : {}),
    keyPrefix: listKeyPrefix(listPath),
    limit: opts.limit,
    labelSelector: opts.labelSelector,
    fieldSelector: opts.fieldSelector,
  };
}

/** A page's path and query: the user's, plus `continue` after the first page. */
export function pageUrl(u: ProbeUrl, continueToken?: string): string {
  const pairs = continueToken
    ? [...u.pairs, `continue=${encodeURIComponent(continueToken)}`]
    : u.pairs;
  return pairs.length ? `${u.path}?${pairs.join('&')}` : u.path;
}

export interface WatchUrlOptions {
  /** Start after this RV (the LIST's, as a reflector does); ignored with sendInitialEvents. */
  resourceVersion?: string;
  /** A watch-list: sendInitialEvents=true&resourceVersionMatch=NotOlderThan. */
  sendInitialEvents?: boolean;
}

/**
 * The watch's path and query: the user's selectors (not limit, resourceVersion or its match, which
 * a watch sets its own way), `allowWatchBookmarks=true&watch=true`, and where it starts.
 */
export function watchUrl(u: ProbeUrl, o: WatchUrlOptions): string {
  const dropped = ['limit', 'resourceVersion', 'resourceVersionMatch'];
  const pairs = u.pairs.filter((p) => !dropped.includes(rawKey(p)));
  pairs.push('allowWatchBookmarks=true', 'watch=true');
  if (o.sendInitialEvents)
    pairs.push('sendInitialEvents=true', 'resourceVersionMatch=NotOlderThan');
  else if (o.resourceVersion)
    pairs.push(`resourceVersion=${encodeURIComponent(o.resourceVersion)}`);
  return `${u.path}?${pairs.join('&')}`;
}
