// Where the apiserver serves the next page of a continued LIST, for a semantics profile. Mirrors
// the decision in k8s.io/apiserver pkg/storage/cacher/delegator.go (shouldDelegateContinue ->
// shouldDelegateExactRV / shouldDelegateConsistentRead, release-1.36) and the 410 of
// pkg/storage/etcd3/store.go once etcd has compacted the token's revision.
import { profile136, type SemanticsProfile } from '../engine';

/** One sentence on where the page after a token with this rv comes from; undefined for rv 0 (rejected). */
export function nextPageSource(
  rv: bigint,
  profile: SemanticsProfile = profile136,
): string | undefined {
  const version = profile.kubernetesVersion;
  if (rv > 0n) {
    const compacted = `410 Expired (with a fresh rv -1 token) once etcd has compacted revision ${rv}`;
    if (profile.gates.ListFromCacheSnapshot) {
      return (
        `${version} (ListFromCacheSnapshot on): a watch-cache snapshot at revision ${rv} when the ` +
        `cache holds one, otherwise etcd at revision ${rv}; ${compacted}`
      );
    }
    return `${version} (ListFromCacheSnapshot off): etcd at revision ${rv}; ${compacted}`;
  }
  if (rv < 0n) {
    return profile.gates.ConsistentListFromCache
      ? `${version}: a consistent read at the latest revision, from the watch cache once it has caught up with etcd (otherwise etcd); the list may not match the earlier pages`
      : `${version}: etcd at the latest revision; the list may not match the earlier pages`;
  }
  return undefined;
}
