// The key prefix the Lists tab decodes a LIST's continue token against: the LIST's own request
// path as the apiserver reads it (the resource's prefix, plus "<namespace>/" for a namespaced LIST:
// NamespaceKeyRootFunc), so the token's start key reads as etcd holds it. No upstream counterpart.
import { parseListPath } from '../../request/list-path';
import { listKeyPrefix } from '../../request/storage-key-prefix';
import type { RecentToken } from '../tokens/recent-tokens';

/**
 * `token` with the key prefix of the LIST `listRequest` (path and query) names; undefined when the
 * request is no LIST path (the watch cache's own reflector LIST): the caller then assumes the setting.
 */
export function listTokenRequest(
  token: string,
  listRequest: string,
  etcdPrefix: string,
): RecentToken | undefined {
  const list = parseListPath(listRequest);
  if (!list) return undefined;
  return {
    token,
    keyPrefix: listKeyPrefix(list, etcdPrefix),
    keyPrefixSource: 'url',
    keyPrefixDetail: `the LIST's request URL ${list.path}`,
  };
}
