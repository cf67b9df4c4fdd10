// Mirrors k8s.io/apiserver pkg/storage/cacher/util.go (release-1.36): hasPathPrefix and
// calculateRetryAfterForUnreadyCache (downtime in ms here).

/**
 * True when `s` equals `pathPrefix` or continues it at a path-segment boundary ("a/b" has "a",
 * "ns2" does not have "ns"). No normalisation: "a/c/../b/" does not have "a/b/".
 */
export function hasPathPrefix(s: string, pathPrefix: string): boolean {
  if (!s.startsWith(pathPrefix)) return false;
  if (s.length === pathPrefix.length) return true; // exact match
  if (pathPrefix.endsWith('/')) return true; // the prefix already ends at a boundary
  return s[pathPrefix.length] === '/';
}

/**
 * Retry-After seconds for the 429 a not-ready cache answers: grows exponentially with how long the
 * cache has been down (e^(0.06·s)), from 1s up to 30s, so clients back off more the longer it lasts.
 */
export function calculateRetryAfterForUnreadyCache(downtime: number): number {
  const factor = 0.06;
  let result = Math.exp(factor * (downtime / 1000));
  result = Math.min(30, Math.max(1, result));
  return Math.trunc(result);
}
