// Mirrors k8s.io/apiserver pkg/storage/cacher/cacher.go getBookmarkAfterResourceVersionLockedFunc,
// isListWatchRequest and getWatchCacheResourceVersion (release-1.36): the resource versions a new
// cache watch is anchored to. Resource versions are JS numbers.

/** The parts of storage.ListOptions these rules read. */
export interface WatchStartOptions {
  readonly resourceVersion: string;
  /** undefined = not set (Go nil). */
  readonly sendInitialEvents?: boolean;
  readonly predicate: { readonly allowWatchBookmarks?: boolean };
}

/**
 * A watch-list request (sendInitialEvents=true with bookmarks): the client wants the initial state
 * and the "initial-events-end" bookmark. Mirrored by the HTTP handler (endpoints/handlers/get.go).
 */
export function isListWatchRequest(opts: WatchStartOptions): boolean {
  return opts.sendInitialEvents === true && opts.predicate.allowWatchBookmarks === true;
}

/**
 * The RV after which the watcher's initial-events-end bookmark may be sent (0 = none awaited). The
 * returned function is called under the watch-cache lock, when the watcher is registered, because
 * for RV "0" the answer is the cache's RV at that moment.
 * - not a watch-list request → 0;
 * - RV "" → requiredResourceVersion (etcd's current RV the cache had to reach);
 * - RV "0" → the watch cache's current RV;
 * - otherwise → the requested RV.
 */
export function getBookmarkAfterResourceVersionLockedFunc(
  parsedResourceVersion: number,
  requiredResourceVersion: number,
  opts: WatchStartOptions,
  watchCacheResourceVersion: () => number,
): () => number {
  if (!isListWatchRequest(opts)) return () => 0;
  if (opts.resourceVersion.length === 0) return () => requiredResourceVersion;
  if (parsedResourceVersion === 0) return watchCacheResourceVersion;
  return () => parsedResourceVersion;
}

/**
 * The RV the watch cache must reach before the watch starts:
 * - RV set → that RV (exact when > 0, any when 0);
 * - RV "" without sendInitialEvents → 0 (legacy: served from the cache as it is; the
 *   WatchFromStorageWithoutResourceVersion gate that sent these to etcd is gone in 1.36);
 * - RV "" with sendInitialEvents set (true or false) → etcd's current RV (most recent).
 */
export async function getWatchCacheResourceVersion(
  parsedWatchResourceVersion: number,
  opts: WatchStartOptions,
  getCurrentResourceVersion: () => Promise<number>,
): Promise<number> {
  if (opts.resourceVersion.length !== 0) return parsedWatchResourceVersion;
  if (opts.sendInitialEvents === undefined) return 0;
  return getCurrentResourceVersion();
}
