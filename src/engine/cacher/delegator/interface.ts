// Mirrors k8s.io/apiserver pkg/storage/cacher/delegator/interface.go (ShouldDelegateList, Helper,
// CacheWithoutSnapshots, ConsistentReadSupported), the Cacher's ShouldDelegate* methods and
// computeListLimit from cacher/cacher.go, and shouldDelegateListOnNotReadyCache from
// cacher/delegator.go (release-1.36). Decisions only: serving the list is the cacher's job.
// Resource versions are JS numbers (etcd revisions, exact up to 2^53).
import { decodeContinue } from '../../storage/continue';
import { APIObjectVersioner } from '../../storage/versioner';
import type { FeatureGates } from '../../features';

export const resourceVersionMatchExact = 'Exact';
export const resourceVersionMatchNotOlderThan = 'NotOlderThan';

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

const defaultVersioner = new APIObjectVersioner();

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

/** What the Cacher's decisions read from its watch cache. */
export interface CacherDelegationView {
  /** e.g. "/pods/": the prefix continue tokens are decoded against. */
  readonly resourcePrefix: string;
  /** 1.36: `watchCache.snapshots != nil` (ListFromCacheSnapshot on, not marked inconsistent). */
  snapshottingEnabled(): boolean;
  /** `watchCache.notFresh(rv)`: rv is newer than anything the cache has seen. */
  notFresh(resourceVersion: number): boolean;
  /** `snapshots.GetLessOrEqual(rv)` finds a snapshot, i.e. the cache can serve the list at exactly rv. */
  canServeExactRV(resourceVersion: number): boolean;
  /** `delegator.ConsistentReadSupported()`; see consistentReadSupported. */
  consistentReadSupported(): boolean;
}

export interface CacherDelegationDeps {
  /** storage.Versioner.ParseResourceVersion (default: APIObjectVersioner's, throwing its InvalidError). */
  readonly parseResourceVersion?: (resourceVersion: string) => number;
  /** storage.DecodeContinue, resource version only (default: src/engine/storage/continue.ts). */
  readonly decodeContinueResourceVersion?: (token: string, keyPrefix: string) => number;
}

/**
 * The Cacher's side of delegator.Helper. Non-recursive exact/continue requests always go to etcd
 * (exact RV is not implemented for single-object reads); so does everything without snapshots.
 */
export class CacherDelegation implements DelegatorHelper {
  private readonly view: CacherDelegationView;
  private readonly parseRV: (resourceVersion: string) => number;
  private readonly continueRV: (token: string, keyPrefix: string) => number;

  constructor(view: CacherDelegationView, deps: CacherDelegationDeps = {}) {
    this.view = view;
    this.parseRV =
      deps.parseResourceVersion ?? ((rv) => Number(defaultVersioner.parseResourceVersion(rv)));
    this.continueRV =
      deps.decodeContinueResourceVersion ??
      ((token, prefix) => Number(decodeContinue(token, prefix).resourceVersion));
  }

  shouldDelegateExactRV(resourceVersion: string, recursive: boolean): DelegationResult {
    if (!recursive || !this.view.snapshottingEnabled()) return delegate;
    return this.shouldDelegateExactParsedRV(this.parseRV(resourceVersion));
  }

  shouldDelegateContinue(continueToken: string, recursive: boolean): DelegationResult {
    if (!recursive || !this.view.snapshottingEnabled()) return delegate;
    const rv = this.continueRV(continueToken, this.view.resourcePrefix);
    if (rv > 0) return this.shouldDelegateExactParsedRV(rv);
    return this.shouldDelegateConsistentRead(); // a continue at RV -1 means "at the latest RV"
  }

  shouldDelegateConsistentRead(): DelegationResult {
    return { consistentRead: true, shouldDelegate: !this.view.consistentReadSupported() };
  }

  /** Upstream's unexported shouldDelegateExactRV(rv uint64). */
  shouldDelegateExactParsedRV(rv: number): DelegationResult {
    // A future RV needs consistent-read support (the cache waits to catch up) but is not itself a consistent read.
    if (this.view.notFresh(rv))
      return { shouldDelegate: !this.view.consistentReadSupported(), consistentRead: false };
    return { shouldDelegate: !this.view.canServeExactRV(rv), consistentRead: false };
  }
}

/**
 * The limit the cacher applies to a list it serves. The limit is ignored for RV "0" (legacy
 * behaviour, upstream TODO #108003); match and continue were already checked by shouldDelegateList.
 */
export function computeListLimit(opts: {
  readonly resourceVersion: string;
  readonly predicate: { readonly limit?: number };
}): number {
  const limit = opts.predicate.limit ?? 0;
  if (limit <= 0 || opts.resourceVersion === '0') return 0;
  return limit;
}

/**
 * With ResilientWatchCacheInitialization, a list that would be served by a not-ready cache goes to
 * etcd only when it is paginated and unfiltered (cheap for etcd); every other one gets a 429.
 */
export function shouldDelegateListOnNotReadyCache(opts: {
  readonly predicate: {
    readonly limit?: number;
    readonly label?: SelectorLike;
    readonly field?: SelectorLike;
  };
}): boolean {
  const p = opts.predicate;
  const noLabelSelector = p.label === undefined || p.label.empty();
  const noFieldSelector = p.field === undefined || p.field.empty();
  return noLabelSelector && noFieldSelector && (p.limit ?? 0) > 0;
}

/** labels.Selector / fields.Selector as far as the not-ready rule needs them. */
export interface SelectorLike {
  empty(): boolean;
}
