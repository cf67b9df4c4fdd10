// Mirrors k8s.io/apiserver pkg/storage/cacher/delegator.go (release-1.36): CacheDelegator.GetList,
// Get and Watch, i.e. which requests the watch cache serves and which go to etcd, the fallbacks
// and apiserver_watch_cache_consistent_read_total, and shouldDelegateListOnNotReadyCache. The 1.37
// ConsistentListFromCacheSkipTimeoutFallback gate (master) is honoured when switched on.
// Under DetectCacheInconsistency it starts the consistency checker's loop (consistency-checker.ts),
// given the random stream its jitter draws from. Deliberate difference: every decision is also reported to the event sink with the rule that made it (explain-delegation.ts).
import { activeSink, type DelegationRule, type EventSink } from '../inspect/events';
import type { SeededRandom } from '../rand';
import type { RequestContext } from '../request/request-context';
import {
  isResourceExpired,
  isTooLargeResourceVersion,
  newServiceUnavailable,
  newTooManyRequests,
} from '../storage/errors';
import {
  toStorageListOptions,
  type GetListOptions,
  type ListOptions,
} from '../storage/list-options';
import type { KubeObject } from '../storage/objects';
import { validateListOptions } from '../storage/validate-list-options';
import type { ListResult } from '../etcd3/store';
import type { WatchInterface } from './watch';
import type { Cacher, ListCallContext, WatchCallContext } from './cacher';
import { shouldDelegateList, type DelegationResult } from './delegator/interface';
import { explainListDelegation } from './explain-delegation';
import type { CacherStorage } from './reflector';
import { statusOf } from './reflector';
import { ConsistencyChecker } from './consistency-checker';

/** What the delegator needs from storage: the cacher's storage plus Get. */
export interface DelegatorStorage extends CacherStorage {
  get(
    key: string,
    opts?: { resourceVersion?: string; ignoreNotFound?: boolean },
    ctx?: RequestContext,
  ): Promise<KubeObject | undefined>;
}

export interface GetRequestOptions {
  /** '' = read etcd (most recent); otherwise served by the cache once it has reached it. */
  resourceVersion?: string;
  ignoreNotFound?: boolean;
}

/**
 * CacheDelegator: the storage.Interface the registry talks to. Lists go to the watch cache or to
 * etcd as ShouldDelegateList decides; the cache's failures fall back to etcd where upstream does.
 */
export class CacheDelegator {
  readonly cacher: Cacher;
  readonly storage: DelegatorStorage;
  private readonly eventSink: EventSink | undefined;
  /** Stops the consistency checker's loop; undefined when none runs. */
  private readonly stopChecking: (() => void) | undefined;

  /**
   * `consistencyCheckRand` is the consistency checker's jitter: with it, and DetectCacheInconsistency
   * on, the checker compares the cache with etcd every 5 to 7.5 minutes, as NewCacheDelegator starts
   * it. Without it (tests that build a delegator by hand) no loop runs.
   */
  constructor(
    cacher: Cacher,
    storage: DelegatorStorage,
    opts: { eventSink?: EventSink; consistencyCheckRand?: SeededRandom } = {},
  ) {
    this.cacher = cacher;
    this.storage = storage;
    this.eventSink = opts.eventSink ?? cacher.eventSink;
    if (cacher.gates.DetectCacheInconsistency && opts.consistencyCheckRand) {
      const checker = new ConsistencyChecker(
        cacher.resourcePrefix,
        cacher.groupResource,
        cacher,
        storage,
        cacher.registry,
      );
      this.stopChecking = checker.startChecking(cacher.clock, opts.consistencyCheckRand);
    }
  }

  /** Stop: ends the consistency checker's loop (the cacher is stopped on its own). */
  stop(): void {
    this.stopChecking?.();
  }

  /**
   * GetList: validate; delegate as ShouldDelegateList says; a not-ready cache sends paginated,
   * unfiltered lists to etcd (others get its 429); a 410 from the cache (no snapshot any more) goes
   * to etcd; a consistent read that timed out waiting for the cache falls back to etcd (or, with
   * ConsistentListFromCacheSkipTimeoutFallback, answers 429). `call.request` is the request: its
   * id tags every decision, wait and storage call made for it.
   */
  async getList(
    key: string,
    input?: ListOptions | GetListOptions,
    call: ListCallContext = {},
  ): Promise<ListResult> {
    const cacher = this.cacher;
    const gates = cacher.gates;
    const ctx = call.request;
    const opts = toStorageListOptions(input, cacher.groupResource.resource);
    try {
      validateListOptions(cacher.resourcePrefix, cacher.versioner, opts);
    } catch (e) {
      this.decision(
        ctx,
        key,
        opts,
        'rejected',
        { shouldDelegate: false, consistentRead: false },
        'invalid-options',
        e,
      );
      throw e;
    }
    const result = shouldDelegateList(opts, cacher);
    if (result.shouldDelegate) {
      this.decision(ctx, key, opts, 'etcd', result);
      return this.storage.getList(key, opts, ctx);
    }
    const listRV = Number(cacher.versioner.parseResourceVersion(opts.resourceVersion));
    if (gates.ResilientWatchCacheInitialization) {
      if (!cacher.isReady() && shouldDelegateListOnNotReadyCache(opts)) {
        // Paginated, unfiltered lists are cheap for etcd (KEP-4568); the rest get a 429.
        this.decision(ctx, key, opts, 'etcd', result, 'not-ready-paginated-unfiltered');
        return this.storage.getList(key, opts, ctx);
      }
    } else if (listRV === 0 && !cacher.isReady()) {
      this.decision(ctx, key, opts, 'etcd', result, 'not-ready');
      return this.storage.getList(key, opts, ctx);
    }
    this.decision(ctx, key, opts, 'cache', result, cacher.isReady() ? undefined : 'not-ready');

    let list: ListResult | undefined;
    let err: unknown;
    try {
      list = await cacher.getList(key, opts, call);
    } catch (e) {
      err = e;
    }
    let success = 'true';
    let fallback: 'false' | 'true' | 'skipped' = 'false';
    if (err !== undefined) {
      if (isResourceExpired(err) && gates.ListFromCacheSnapshot) {
        // The snapshot for the exact RV went away between the decision and the read.
        return this.fallbackToStorage(ctx, key, opts, 'resource-expired');
      }
      if (result.consistentRead) {
        if (isTooLargeResourceVersion(err)) {
          if (gates.ConsistentListFromCacheSkipTimeoutFallback) {
            fallback = 'skipped';
            err = newTooManyRequests((err as Error).message, 1);
            this.emitFallback(ctx, key, 'too-large-resource-version', 'skipped', false, err);
          } else {
            fallback = 'true';
            try {
              list = await this.storage.getList(key, opts, ctx);
              err = undefined;
            } catch (e) {
              err = e;
            }
            this.emitFallback(
              ctx,
              key,
              'too-large-resource-version',
              'true',
              err === undefined,
              err,
            );
          }
        }
        if (err !== undefined) success = 'false';
        this.recordConsistentRead(ctx, key, success, fallback);
      }
      if (err !== undefined) throw err;
      return list as ListResult;
    }
    if (result.consistentRead) this.recordConsistentRead(ctx, key, success, fallback);
    return list as ListResult;
  }

  /** Get: RV "" reads etcd; a not-ready cache sends gets to etcd; otherwise the cache once it has reached the RV. */
  async get(
    key: string,
    opts: GetRequestOptions = {},
    ctx?: RequestContext,
  ): Promise<KubeObject | undefined> {
    const cacher = this.cacher;
    const rv = opts.resourceVersion ?? '';
    if (rv === '') {
      this.getDecision(ctx, key, rv, 'etcd', 'rv-unset');
      return this.storage.get(key, { ignoreNotFound: opts.ignoreNotFound }, ctx);
    }
    if (cacher.gates.ResilientWatchCacheInitialization) {
      if (!cacher.isReady()) {
        this.getDecision(ctx, key, rv, 'etcd', 'not-ready');
        return this.storage.get(key, opts, ctx);
      }
    }
    const getRV = Number(cacher.versioner.parseResourceVersion(rv));
    if (!cacher.gates.ResilientWatchCacheInitialization) {
      if (getRV === 0 && !cacher.isReady()) {
        this.getDecision(ctx, key, rv, 'etcd', 'not-ready');
        return this.storage.get(key, opts, ctx);
      }
      try {
        await cacher.waitReady();
      } catch (e) {
        throw newServiceUnavailable((e as Error).message);
      }
    }
    this.getDecision(ctx, key, rv, 'cache', 'served-from-cache');
    return cacher.get(key, opts, ctx);
  }

  /** Watch: always the cacher; sendInitialEvents is dropped while the WatchList gate is off. */
  watch(key: string, opts: ListOptions, call: WatchCallContext = {}): Promise<WatchInterface> {
    let o = opts;
    if (!this.cacher.gates.WatchList && o.sendInitialEvents !== undefined)
      o = { ...o, sendInitialEvents: undefined };
    return this.cacher.watch(key, o, call);
  }

  private async fallbackToStorage(
    ctx: RequestContext | undefined,
    key: string,
    opts: ListOptions,
    reason: 'resource-expired',
  ): Promise<ListResult> {
    try {
      const list = await this.storage.getList(key, opts, ctx);
      this.emitFallback(ctx, key, reason, 'true', true, undefined);
      return list;
    } catch (e) {
      this.emitFallback(ctx, key, reason, 'true', false, e);
      throw e;
    }
  }

  private recordConsistentRead(
    ctx: RequestContext | undefined,
    key: string,
    success: string,
    fallback: 'false' | 'true' | 'skipped',
  ): void {
    const gr = this.cacher.groupResource;
    this.cacher.metrics.consistentReadTotal.inc({
      group: gr.group,
      resource: gr.resource,
      success,
      fallback,
    });
    activeSink(this.eventSink)?.emit({
      type: 'delegator/consistent-read',
      at: this.cacher.clock.now(),
      groupResource: gr,
      requestId: ctx?.requestId,
      key,
      success: success === 'true',
      fallback,
    });
  }

  private emitFallback(
    ctx: RequestContext | undefined,
    key: string,
    reason: 'resource-expired' | 'too-large-resource-version',
    fallback: 'true' | 'skipped',
    success: boolean,
    err: unknown,
  ): void {
    const insp = activeSink(this.eventSink);
    if (!insp) return;
    insp.emit({
      type: 'delegator/fallback',
      at: this.cacher.clock.now(),
      groupResource: this.cacher.groupResource,
      requestId: ctx?.requestId,
      key,
      reason,
      fallback,
      success,
      ...(err !== undefined ? { error: statusOf(err) } : {}),
    });
  }

  private getDecision(
    ctx: RequestContext | undefined,
    key: string,
    resourceVersion: string,
    target: 'etcd' | 'cache',
    rule: DelegationRule,
  ): void {
    const insp = activeSink(this.eventSink);
    if (!insp) return;
    insp.emit({
      type: 'delegator/decision',
      at: this.cacher.clock.now(),
      groupResource: this.cacher.groupResource,
      requestId: ctx?.requestId,
      operation: 'get',
      key,
      resourceVersion,
      resourceVersionMatch: '',
      limit: 0,
      hasContinue: false,
      recursive: false,
      path: 'get',
      rule,
      target,
      consistentRead: false,
    });
  }

  private decision(
    ctx: RequestContext | undefined,
    key: string,
    opts: ListOptions,
    target: 'etcd' | 'cache' | 'rejected',
    result: DelegationResult,
    rule?: DelegationRule,
    err?: unknown,
  ): void {
    const insp = activeSink(this.eventSink);
    if (!insp) return;
    const why = explainListDelegation(opts, this.cacher);
    insp.emit({
      type: 'delegator/decision',
      at: this.cacher.clock.now(),
      groupResource: this.cacher.groupResource,
      requestId: ctx?.requestId,
      operation: 'list',
      key,
      resourceVersion: opts.resourceVersion,
      resourceVersionMatch: opts.resourceVersionMatch,
      limit: opts.predicate.limit,
      hasContinue: opts.predicate.continue.length > 0,
      recursive: opts.recursive,
      path: why.path,
      rule: rule ?? why.rule,
      target,
      consistentRead: result.consistentRead,
      ...(err !== undefined ? { error: statusOf(err) } : {}),
    });
  }
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
