// No upstream counterpart: the inspector's delegation rules (DelegationRule) in upstream's words,
// the one table every face prints them from (the run model, `listwatch explain`, the hover).
import type { DelegationRule } from '../engine';

/** DelegationRule, in upstream's words (delegator.ShouldDelegateList and the Cacher's helpers). */
export const delegationRuleText: Readonly<Record<DelegationRule, string>> = {
  'invalid-options': 'rejected by ValidateListOptions (400)',
  'not-recursive':
    'exact RV or continue on a single object: etcd (the cache serves no exact RV there)',
  'snapshots-disabled': 'exact RV or continue without watch-cache snapshots: etcd',
  'future-rv': 'an RV newer than the cache: the cache waits for it (consistent reads supported)',
  'future-rv-unsupported': 'an RV newer than the cache, and consistent reads unsupported: etcd',
  'snapshot-available': 'a watch-cache snapshot at or below the RV exists: cache',
  'no-snapshot': 'no watch-cache snapshot at or below the RV: etcd',
  'consistent-read':
    'consistent read (RV ""): the cache, once it has caught up with etcd\'s revision',
  'consistent-read-unsupported': 'consistent read without etcd progress notifications: etcd',
  'served-from-cache': 'RV "0", NotOlderThan or RV=N without a limit: cache',
  'unknown-match': 'unknown resourceVersionMatch: etcd',
  'not-ready-paginated-unfiltered':
    'cache not ready; a paginated, unfiltered list is cheap enough for etcd',
  'not-ready': 'cache not ready: 429 from the cacher',
  'rv-unset': 'a GET without resourceVersion reads etcd',
};
