// Mirrors the decision of k8s.io/apiserver pkg/storage/cacher/delegator/interface.go
// ShouldDelegateList with the Cacher's Helper (cacher.go, release-1.36), through the engine's own
// shouldDelegateList and CacherDelegation, for the requests probe --compare sends to a real
// cluster. Deliberate difference: the cache's state is not seen from outside, so it is assumed
// healthy (caught up with etcd, its snapshot at the list's RV still kept, etcd supporting
// RequestWatchProgress); `profileAssumption` says so wherever the answer is shown.
import { CacherDelegation, shouldDelegateList, type SemanticsProfile } from '../engine';
import { delegationRuleText } from '../run/delegation-rule-text';

/** Who answers a LIST: the watch cache's current state, one of its snapshots, or etcd. */
export type ServedBy = 'cache' | 'cache-snapshot' | 'etcd';

export interface ProfileServing {
  servedBy: ServedBy;
  /** The rule that decided, in upstream's words (delegation-rule-text.ts). */
  rule: string;
  /** A consistent read: the cache first waits until it has etcd's current revision. */
  consistentRead: boolean;
  /** The cache ignores limit for resourceVersion=0 (computeListLimit): one page, every item. */
  limitIgnored: boolean;
}

/** The LIST a side of the comparison sends, as the delegator reads it. */
export interface ComparedList {
  resourceVersion: string;
  resourceVersionMatch?: '' | 'Exact';
  limit: number;
  /** A continue page: the resourceVersion its token carries. */
  continueResourceVersion?: number;
}

/** What the profile's answer takes for granted about a cluster it cannot see into. */
export const profileAssumption =
  "assuming a healthy watch cache: caught up with etcd, its snapshot at the list's resourceVersion still kept (snapshots go with the cache's event history, on a restart, and while DetectCacheInconsistency finds the cache inconsistent: then etcd serves the Exact list), and etcd supporting RequestWatchProgress";

const noWatchCache =
  'no watch cache (kube-apiserver DefaultWatchCacheSizes sets it to 0): every LIST goes to etcd';

/** Who `profile` says serves `list` of a resource with (or without) a watch cache. */
export function servedByProfile(
  profile: SemanticsProfile,
  watchCache: boolean,
  list: ComparedList,
): ProfileServing {
  if (!watchCache)
    return { servedBy: 'etcd', rule: noWatchCache, consistentRead: false, limitIgnored: false };
  const snapshots = profile.gates.ListFromCacheSnapshot;
  const consistent = profile.gates.ConsistentListFromCache;
  const helper = new CacherDelegation(
    {
      resourcePrefix: '',
      hasSnapshots: () => snapshots,
      notFresh: () => false,
      canServeExactRV: () => snapshots,
      consistentReadSupported: () => consistent,
    },
    { decodeContinueResourceVersion: () => list.continueResourceVersion ?? 0 },
  );
  const isContinue = list.continueResourceVersion !== undefined;
  const result = shouldDelegateList(
    {
      resourceVersion: list.resourceVersion,
      resourceVersionMatch: list.resourceVersionMatch ?? '',
      recursive: true,
      predicate: { continue: isContinue ? 'token' : '', limit: list.limit },
    },
    helper,
  );
  // The branch shouldDelegateList took, named as the inspector names it.
  const atExactRV =
    list.resourceVersionMatch === 'Exact' ||
    (isContinue && (list.continueResourceVersion ?? 0) > 0) ||
    (list.limit > 0 && list.resourceVersion !== '' && list.resourceVersion !== '0');
  const ruleId = atExactRV
    ? snapshots
      ? 'snapshot-available'
      : 'snapshots-disabled'
    : list.resourceVersion === ''
      ? consistent
        ? 'consistent-read'
        : 'consistent-read-unsupported'
      : 'served-from-cache';
  const servedBy: ServedBy = result.shouldDelegate
    ? 'etcd'
    : atExactRV
      ? 'cache-snapshot'
      : 'cache';
  return {
    servedBy,
    rule: delegationRuleText[ruleId],
    consistentRead: result.consistentRead,
    limitIgnored: servedBy === 'cache' && list.resourceVersion === '0' && list.limit > 0,
  };
}

/** `the watch cache`, `a watch-cache snapshot`, `etcd`. */
export function servedByText(s: ServedBy): string {
  return s === 'cache'
    ? 'the watch cache'
    : s === 'cache-snapshot'
      ? 'a watch-cache snapshot'
      : 'etcd';
}
