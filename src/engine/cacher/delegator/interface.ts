// Mirrors k8s.io/apiserver pkg/storage/cacher/delegator/interface.go (release-1.36):
// ShouldDelegateList, ShouldDelegateListMeta, Helper, Result, CacheWithoutSnapshots and
// ConsistentReadSupported. Decisions only: the Cacher's side of Helper is cacher-delegation.ts,
// serving the list is the cacher's job. Errors are thrown instead of returned.
import type { FeatureGates } from '../../features';
import {
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
} from '../../storage/list-options';

/** The parts of storage.ListOptions the decisions read. */
export interface DelegationListOptions {
  readonly resourceVersion: string;
  /** '' | 'Exact' | 'NotOlderThan'; anything else is delegated. */
  readonly resourceVersionMatch?: string;
  readonly recursive: boolean;
  readonly predicate: { readonly continue?: string; readonly limit?: number };
}

/** Result of the delegator decision. */
export interface DelegationResult {
  /** The request cannot be served by the cache and goes to etcd. */
  readonly shouldDelegate: boolean;
  /**
   * The request is a consistent read: the delegator gets the current RV from etcd first, counts it
   * in apiserver_watch_cache_consistent_read_total and may fall back to etcd on a timeout.
   */
  readonly consistentRead: boolean;
}

/** delegator.Helper: what ShouldDelegateList asks the cache. Errors are thrown. */
export interface DelegatorHelper {
  shouldDelegateExactRV(resourceVersion: string, recursive: boolean): DelegationResult;
  shouldDelegateContinue(continueToken: string, recursive: boolean): DelegationResult;
  shouldDelegateConsistentRead(): DelegationResult;
}

const delegate: DelegationResult = Object.freeze({ shouldDelegate: true, consistentRead: false });
const serveFromCache: DelegationResult = Object.freeze({
  shouldDelegate: false,
  consistentRead: false,
});

/**
 * Whether a LIST goes to etcd or to the watch cache (see the semantics for get and list in the
 * API concepts docs):
 * - Exact → the cache decides (snapshots); NotOlderThan → cache;
 * - no match: continue → the cache decides; legacy exact (limit > 0, RV not ""/"0") → the cache
 *   decides; RV "" → consistent read; RV "0" or RV=N without limit → cache;
 * - an unknown match → etcd.
 */
export function shouldDelegateList(
  opts: DelegationListOptions,
  cache: DelegatorHelper,
): DelegationResult {
  const match = opts.resourceVersionMatch ?? '';
  switch (match) {
    case resourceVersionMatchExact:
      return cache.shouldDelegateExactRV(opts.resourceVersion, opts.recursive);
    case resourceVersionMatchNotOlderThan:
      return serveFromCache;
    case '': {
      const cont = opts.predicate.continue ?? '';
      if (cont.length > 0) return cache.shouldDelegateContinue(cont, opts.recursive);
      const limit = opts.predicate.limit ?? 0;
      if (limit > 0 && opts.resourceVersion.length > 0 && opts.resourceVersion !== '0') {
        return cache.shouldDelegateExactRV(opts.resourceVersion, opts.recursive); // legacy exact match
      }
      if (opts.resourceVersion === '') return cache.shouldDelegateConsistentRead();
      return serveFromCache;
    }
    default:
      return delegate;
  }
}

/** metav1.ListOptions form (always recursive), as the APF list work estimator calls it. */
export function shouldDelegateListMeta(
  opts: {
    readonly resourceVersion?: string;
    readonly resourceVersionMatch?: string;
    readonly continue?: string;
    readonly limit?: number;
  },
  cache: DelegatorHelper,
): DelegationResult {
  return shouldDelegateList(
    {
      resourceVersion: opts.resourceVersion ?? '',
      resourceVersionMatch: opts.resourceVersionMatch ?? '',
      predicate: { continue: opts.continue ?? '', limit: opts.limit ?? 0 },
      recursive: true,
    },
    cache,
  );
}

/**
 * Whether the cache can serve reads at an RV it has not observed yet (consistent reads, future
 * exact RVs): it needs etcd progress notifications to catch up. 1.33–1.36 also require the
 * ConsistentListFromCache gate (locked on since 1.34; master dropped the gate).
 */
export function consistentReadSupported(
  gates: Pick<FeatureGates, 'ConsistentListFromCache'>,
  requestWatchProgressSupported: boolean,
): boolean {
  return gates.ConsistentListFromCache && requestWatchProgressSupported;
}

/**
 * The helper used where no cache is at hand (the APF list work estimator): exact RVs and continues
 * always go to etcd (a continue token cannot be parsed without the key prefix).
 */
export class CacheWithoutSnapshots implements DelegatorHelper {
  private readonly isConsistentReadSupported: () => boolean;
  constructor(isConsistentReadSupported: () => boolean) {
    this.isConsistentReadSupported = isConsistentReadSupported;
  }
  shouldDelegateContinue(): DelegationResult {
    return delegate;
  }
  shouldDelegateExactRV(): DelegationResult {
    return delegate;
  }
  shouldDelegateConsistentRead(): DelegationResult {
    return { shouldDelegate: !this.isConsistentReadSupported(), consistentRead: true };
  }
}
