// Mirrors the parts of k8s.io/apiserver pkg/storage/cacher/cacher.go (release-1.36) that say how
// the watch cache can serve a list: the Cacher's delegator.Helper methods (ShouldDelegateExactRV,
// ShouldDelegateContinue, ShouldDelegateConsistentRead, the unexported shouldDelegateExactRV) and
// computeListLimit. Deliberate difference: they read the watch cache through a small view, so the
// ShouldDelegateList table can be tested without a running cacher.
import { decodeContinue } from '../storage/continue';
import { APIObjectVersioner } from '../storage/versioner';
import type { DelegationResult, DelegatorHelper } from './delegator/interface';

const defaultVersioner = new APIObjectVersioner();

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
    if (!recursive || !this.view.snapshottingEnabled())
      return { shouldDelegate: true, consistentRead: false };
    return this.shouldDelegateExactParsedRV(this.parseRV(resourceVersion));
  }

  shouldDelegateContinue(continueToken: string, recursive: boolean): DelegationResult {
    if (!recursive || !this.view.snapshottingEnabled())
      return { shouldDelegate: true, consistentRead: false };
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
