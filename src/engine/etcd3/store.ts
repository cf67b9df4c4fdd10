// Mirrors k8s.io/apiserver pkg/storage/etcd3/store.go (release-1.36: GetList paging loop with page
// doubling, getList, Get, Create, GuaranteedUpdate, Delete, GetCurrentResourceVersion,
// validateMinimumResourceVersion, prepareKey) and etcd3/errors.go (interpretListError), plus the
// master (1.37-pre) RangeStream list path behind the EtcdRangeStream gate (shouldStream,
// streamChunks, the Unimplemented fallback) and, for kubernetesVersion 1.37, master's
// GetCurrentResourceVersion, minimum-RV check and metrics. Deliberate differences: keys may be
// given as full etcd keys (`/registry/pods/ns/`) or upstream-style (`/pods/ns/`); objects are JSON
// values; no transformer (encryption) and no lease manager; time comes from the injected Clock.
import { encodeStoredObject, fromUtf8ByteString } from '../encoding/byte-string';
import type { GroupResource } from '../storage/group-resource';
import type { Clock } from '../clock';
import { SeededRandom } from '../rand';
import {
  EtcdError,
  prefixEnd,
  type KV,
  type KeyValue,
  type RangeRequest,
  type RangeResponse,
  type TxnResponse,
} from '../etcd/kv';
import type { KubernetesVersion } from '../features';
import { MetricsRegistry } from '../metrics/registry';
import type { RequestContext } from '../request/request-context';
import { activeSink, type EtcdOperation, type EventSink } from '../inspect/events';
import { prepareContinueToken } from '../storage/continue';
import {
  StatusError,
  errorToAPIStatus,
  newBadRequest,
  newInvalidObjError,
  newNotFound,
  newTooLargeResourceVersionError,
  plainError,
  withStatus,
  type Status,
} from '../storage/errors';
import { prepareKey } from '../storage/keys';
import {
  newListOptions,
  toStorageListOptions,
  type GetListOptions,
  type ListOptions,
} from '../storage/list-options';
import type { KubeObject } from '../storage/objects';
import { SelectionPredicate } from '../storage/selection-predicate';
import { validateListOptions } from '../storage/validate-list-options';
import { APIObjectVersioner, type Versioner } from '../storage/versioner';
import { interpretListError } from './errors';
import { FeatureSupportChecker } from './feature-support-checker';
import { EtcdMetrics } from './metrics';
import { EtcdWatcher, type StorageWatch, type WatchOptions } from './watcher';

/**
 * The largest page the apiserver itself grows to while filling a filtered page (it doubles the
 * etcd limit after every short page). A client limit above it is sent unchanged.
 */
export const maxLimit = 10000;

/** Feature gates of the etcd3 store (release-1.36 defaults: all off). */
export interface EtcdStoreFeatures {
  /** 1.37 preview: serve unfiltered (or unpaged) recursive lists with one etcd RangeStream. */
  EtcdRangeStream?: boolean;
  /** Watch-list semantics (sendInitialEvents): the WatchList gate, Beta and on by default since 1.34. */
  WatchList?: boolean;
}

export interface EtcdStoreOptions {
  etcd: KV;
  clock: Clock;
  groupResource: GroupResource;
  /** etcd path prefix (apiserver --etcd-prefix), default `/registry`; normalised to end in '/'. */
  pathPrefix?: string;
  /**
   * Upstream's resourcePrefix (e.g. `/pods`): keys must lie under it, and the current revision is
   * read from it. Default `/<resource>`, not enforced unless given.
   */
  resourcePrefix?: string;
  versioner?: Versioner;
  /** Shared metrics registry; a private one by default. */
  metrics?: MetricsRegistry;
  /** Whose code to follow where no gate switches it (metrics, minimum-RV check): default 1.36. */
  kubernetesVersion?: KubernetesVersion;
  features?: EtcdStoreFeatures;
  /** RangeStream support memory; share one across stores talking to the same etcd. */
  featureSupportChecker?: FeatureSupportChecker;
  eventSink?: EventSink;
  /** Seeded randomness (watch retry jitter). */
  random?: SeededRandom;
  /** The resource's empty object (etcd3.New's newFunc): what watch BOOKMARK events carry. */
  newFunc?: () => KubeObject;
  /** The storage codec's conversion (default: objects are stored as served). */
  codec?: StorageCodec;
}

export interface ListResult {
  /** Never null: an empty list is []. */
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface GetOptions {
  /** Minimum resourceVersion the read must satisfy ('' = none). */
  resourceVersion?: string;
  /** Return undefined instead of throwing 404 for a missing key. */
  ignoreNotFound?: boolean;
}

/** storage.Preconditions. */
export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/** storage.UpdateFunc: the new object for the current one (given with its resourceVersion set). */
export type UpdateFunc = (current: KubeObject, meta: { resourceVersion: bigint }) => KubeObject;

export interface GuaranteedUpdateOptions {
  ignoreNotFound?: boolean;
  preconditions?: Preconditions;
}

/**
 * The conversion half of etcd3.New's codec: a resource served in one version and stored in
 * another (events.k8s.io/v1 Events stored as core/v1 Events, upstream's cohabiting resources)
 * converts each object on its way into and out of etcd.
 */
export interface StorageCodec {
  /** The served object as stored. */
  encode(obj: KubeObject): KubeObject;
  /** A stored object as served. */
  decode(obj: KubeObject): KubeObject;
}

/** The identity codec: objects are stored as served. */
export const identityCodec: StorageCodec = { encode: (o) => o, decode: (o) => o };

/** A decoded etcd value: the object state a write loop works from. */
interface ObjState {
  obj: KubeObject;
  rev: number;
  data: string;
  exists: boolean;
}

/** One batch of kvs from a list read: a page of paged Range calls or a chunk of a RangeStream. */
interface ListChunk {
  kvs: KeyValue[];
  /** The revision the chunk was read at, when known (the pinned list revision). */
  revision: number | undefined;
  count: number;
  hasMore: boolean;
  /** The etcd limit this chunk was asked with. */
  limit: number;
}

/** The chunks of one RangeStream; close() ends it early (its etcd request is then recorded). */
interface ListChunkStream {
  next(): Promise<IteratorResult<ListChunk>>;
  close(): void;
}

/** etcd requests made on behalf of one LIST (nested current-revision lookups included). */
interface RequestCost {
  requests: number;
}

const errNoResultsButMore =
  'no results were found, but etcd indicated there were more values remaining';

function isEtcdError(err: unknown, which: 'compacted' | 'futureRev' | 'unimplemented'): boolean {
  if (!(err instanceof EtcdError)) return false;
  return which === 'compacted'
    ? err.isCompacted
    : which === 'futureRev'
      ? err.isFutureRev
      : err.isUnimplemented;
}

/** int64 -> uint64 as Go's uint64(int64) conversion (for the list RV and TooLarge messages). */
function toUint64(n: bigint): bigint {
  return BigInt.asUintN(64, n);
}

/** etcd's read revision for a list revision: 0 (latest) for <= 0, as etcd treats them. */
function etcdRevision(withRev: bigint): number {
  return withRev > 0n ? Number(withRev) : 0;
}

/** The etcd3 storage.Interface implementation for one resource. */
export class EtcdStore {
  readonly etcd: KV;
  readonly clock: Clock;
  readonly groupResource: GroupResource;
  readonly pathPrefix: string;
  readonly resourcePrefix: string;
  readonly versioner: Versioner;
  /** The Prometheus registry the store records into (`store.metrics.text()`). */
  readonly metrics: MetricsRegistry;
  readonly etcdMetrics: EtcdMetrics;
  readonly kubernetesVersion: KubernetesVersion;
  readonly features: Readonly<Required<EtcdStoreFeatures>>;
  readonly featureSupportChecker: FeatureSupportChecker;
  readonly eventSink: EventSink | undefined;
  readonly random: SeededRandom;
  readonly newFunc: () => KubeObject;
  readonly codec: StorageCodec;
  private readonly enforceResourcePrefix: boolean;
  private readonly watcher: EtcdWatcher;

  constructor(opts: EtcdStoreOptions) {
    if (!opts || !opts.etcd)
      throw new TypeError('EtcdStore: options.etcd (a KV such as MemoryEtcd) is required');
    if (!opts.clock)
      throw new TypeError('EtcdStore: options.clock (e.g. new FakeClock()) is required');
    const gr = opts.groupResource;
    if (
      !gr ||
      typeof gr.resource !== 'string' ||
      gr.resource === '' ||
      typeof gr.group !== 'string'
    ) {
      throw new TypeError(
        `EtcdStore: options.groupResource must be { group: string, resource: non-empty string }, got ${JSON.stringify(gr)}`,
      );
    }
    this.etcd = opts.etcd;
    this.clock = opts.clock;
    this.groupResource = { group: gr.group, resource: gr.resource };
    // path.Join("/", prefix) + "/" as upstream New: '' and '/' give '/', 'registry' gives '/registry/'.
    this.pathPrefix = normalizePathPrefix(opts.pathPrefix ?? '/registry');
    if (opts.resourcePrefix !== undefined) {
      const rp = opts.resourcePrefix;
      if (rp === '') throw new Error('resourcePrefix cannot be empty');
      if (rp === '/') throw new Error('resourcePrefix cannot be /');
      if (!rp.startsWith('/')) throw new Error('resourcePrefix needs to start from /');
    }
    this.resourcePrefix = opts.resourcePrefix ?? `/${gr.resource}`;
    this.enforceResourcePrefix = opts.resourcePrefix !== undefined;
    this.versioner = opts.versioner ?? new APIObjectVersioner();
    this.metrics = opts.metrics ?? new MetricsRegistry();
    this.kubernetesVersion = opts.kubernetesVersion ?? '1.36';
    this.etcdMetrics = new EtcdMetrics(this.metrics, this.kubernetesVersion);
    this.features = {
      EtcdRangeStream: !!opts.features?.EtcdRangeStream,
      WatchList: !!opts.features?.WatchList,
    };
    this.featureSupportChecker =
      opts.featureSupportChecker ?? new FeatureSupportChecker(opts.clock);
    this.eventSink = opts.eventSink;
    this.random = opts.random ?? new SeededRandom(1);
    this.newFunc = opts.newFunc ?? (() => ({ metadata: {} }));
    this.codec = opts.codec ?? identityCodec;
    this.watcher = new EtcdWatcher({
      client: this.etcd,
      groupResource: this.groupResource,
      newFunc: this.newFunc,
      codec: this.codec,
      versioner: this.versioner,
      getCurrentStorageRV: (ctx) => this.getCurrentResourceVersion(ctx),
      range: (operation, req, ctx) => this.range(operation, req, undefined, ctx),
      requestEvent: (...args) => this.requestEvent(...args),
      features: this.features,
      featureSupportChecker: this.featureSupportChecker,
      etcdMetrics: this.etcdMetrics,
      eventSink: this.eventSink,
      clock: this.clock,
      random: this.random,
    });
  }

  // ---------------------------------------------------------------- keys

  /**
   * prepareKey: storage.PrepareKey (against resourcePrefix when one was given), then the path
   * prefix. A key that already starts with the path prefix (e.g. `/registry/pods/ns/`) is taken as
   * a full etcd key: the rules apply to the part after it.
   */
  prepareKey(key: string, recursive: boolean): string {
    if (typeof key !== 'string')
      throw plainError(`invalid key: expected a string, got ${typeof key}`);
    let rel = key;
    if (this.pathPrefix !== '/' && key.startsWith(this.pathPrefix))
      rel = '/' + key.slice(this.pathPrefix.length);
    rel = prepareKey(this.enforceResourcePrefix ? this.resourcePrefix : '', rel, recursive);
    // pathPrefix ends in '/', so a leading '/' of the key is skipped.
    return this.pathPrefix + (rel[0] === '/' ? rel.slice(1) : rel);
  }

  // ---------------------------------------------------------------- list

  /**
   * GetList (release-1.36 store.go): the paging loop. Pages start at the client's limit and double
   * (up to maxLimit) while a selector leaves the page short; the first response pins the revision;
   * the continue token starts after the last key examined. `ctx` names the request (its id tags
   * every engine event and etcd request made for it).
   */
  async getList(
    key: string,
    options?: GetListOptions | ListOptions,
    ctx?: RequestContext,
  ): Promise<ListResult> {
    try {
      return await this.getListInternal(key, options, undefined, ctx);
    } catch (e) {
      // Plain errors (500s upstream) get the Status the HTTP layer would send.
      throw withStatus(e);
    }
  }

  private async getListInternal(
    key: string,
    options: GetListOptions | ListOptions | undefined,
    parentCost: RequestCost | undefined,
    ctx: RequestContext | undefined,
  ): Promise<ListResult> {
    // The library-friendly options or storage ListOptions (predicate a SelectionPredicate).
    const opts = toStorageListOptions(options, this.groupResource.resource);
    const keyPrefix = this.prepareKey(key, opts.recursive);
    const pred = opts.predicate;
    let limit = pred.limit > 0 ? pred.limit : 0;
    const paging = pred.limit > 0;
    const validated = validateListOptions(keyPrefix, this.versioner, opts);
    let withRev = validated.withRev;
    let continueKey = validated.continueKey;

    // From here on the LIST counts in the cost metrics, even when it fails (upstream's defer).
    const startedAt = this.clock.now();
    const cost: RequestCost = { requests: 0 };
    const items: KubeObject[] = [];
    let numFetched = 0;
    let numEvald = 0;
    let lastKey: string | undefined;
    let hasMore = false;
    let count = 0;
    let streamed = false;
    let result: ListResult | undefined;
    let failure: unknown;
    let chunks: ListChunkStream | undefined;
    try {
      if (this.shouldStream(opts, keyPrefix, 'list', ctx)) {
        chunks = await this.streamChunks(keyPrefix, withRev, limit, continueKey, 'list', cost, ctx);
        streamed = chunks !== undefined;
      }
      let page = 0;
      for (;;) {
        let chunk: ListChunk;
        if (chunks) {
          const n = await chunks.next();
          if (n.done) break;
          chunk = n.value;
        } else {
          chunk = await this.pagedChunk(keyPrefix, opts, withRev, limit, continueKey, cost, ctx);
        }
        page++;
        numFetched += chunk.kvs.length;
        if (chunk.revision !== undefined && chunk.revision > 0) {
          const revision = BigInt(chunk.revision);
          if (withRev === 0n) {
            this.validateMinimumResourceVersion(opts.resourceVersion, revision);
            withRev = revision;
          } else if (!streamed && this.kubernetesVersion === '1.36') {
            // release-1.36 checks the minimum against every page's header revision; master only
            // where the list pins its revision (a pinned page reports withRev itself).
            this.validateMinimumResourceVersion(opts.resourceVersion, revision);
          } else if (streamed && revision !== withRev) {
            throw plainError(
              `etcd returned revision ${chunk.revision} for a list read at revision ${withRev}`,
            );
          }
        }
        hasMore = chunk.hasMore;
        if (chunk.kvs.length === 0 && hasMore) throw plainError(errNoResultsButMore);
        count = chunk.count;

        // Take items until the bucket is full, filtering as we go.
        const before = items.length;
        let evaluated = 0;
        let limitReached = false;
        const kvs = chunk.kvs;
        for (let i = 0; i < kvs.length; i++) {
          if (paging && items.length >= pred.limit) {
            hasMore = true;
            limitReached = true;
            break;
          }
          const kv = kvs[i];
          lastKey = kv.key;
          const obj = this.decodeListItem(kv);
          let matched = false;
          try {
            matched = pred.matches(obj);
          } catch {
            // Being unable to get the attributes does not abort the list; the object is skipped.
          }
          if (matched) {
            this.versioner.updateObject(obj, BigInt(kv.modRevision));
            items.push(obj);
          }
          evaluated++;
          // Counted per item: a later decode error must not lose the ones already tested.
          numEvald++;
          // Free the kv early, as upstream does: long pages take a while to decode.
          (kvs as (KeyValue | undefined)[])[i] = undefined;
        }
        if (lastKey !== undefined) continueKey = lastKey + '\x00';
        const insp = activeSink(this.eventSink);
        if (insp) {
          insp.emit({
            type: 'list/page',
            at: this.clock.now(),
            groupResource: this.groupResource,
            requestId: ctx?.requestId,
            keyPrefix,
            page,
            limitAsked: chunk.limit,
            clientLimit: pred.limit,
            revision: Number(toUint64(withRev)),
            fetched: kvs.length,
            evaluated,
            matched: items.length - before,
            itemsSoFar: items.length,
            count: chunk.count,
            hasMore,
            limitReached,
            streamed,
          });
        }

        if (streamed) {
          if (limitReached || !chunk.hasMore) break;
          if (paging && items.length >= pred.limit) break;
          continue;
        }
        // No more results remain, or we did not ask for paging.
        if (!hasMore || !paging) break;
        // We're paging and the bucket is full.
        if (items.length >= pred.limit) break;
        if (limit < maxLimit) {
          // A selector dropped objects: double the page size to need fewer etcd calls.
          const from = limit;
          limit *= 2;
          if (limit > maxLimit) limit = maxLimit;
          insp?.emit({
            type: 'list/page-size',
            at: this.clock.now(),
            groupResource: this.groupResource,
            requestId: ctx?.requestId,
            keyPrefix,
            from,
            to: limit,
            decision: limit === from * 2 ? 'doubled' : 'capped',
            missing: pred.limit - items.length,
          });
        } else {
          insp?.emit({
            type: 'list/page-size',
            at: this.clock.now(),
            groupResource: this.groupResource,
            requestId: ctx?.requestId,
            keyPrefix,
            from: limit,
            to: limit,
            decision: 'at-cap',
            missing: pred.limit - items.length,
          });
        }
      }

      const prepared = prepareContinueToken(lastKey ?? '', keyPrefix, withRev, count, hasMore, {
        predicate: pred,
      });
      const rv = toUint64(withRev);
      if (rv === 0n) throw plainError(`illegal resource version from storage: ${rv}`);
      result = { items, resourceVersion: rv.toString() };
      if (prepared.continue) result.continue = prepared.continue;
      if (prepared.remainingItemCount !== undefined)
        result.remainingItemCount = prepared.remainingItemCount;
      return result;
    } catch (e) {
      failure = withStatus(e);
      throw failure;
    } finally {
      // A list that leaves the stream before its end still counts it (the stream's deferred record).
      chunks?.close();
      if (parentCost) parentCost.requests += cost.requests;
      this.etcdMetrics.recordStorageListMetrics(
        this.groupResource,
        '',
        numFetched,
        numEvald,
        items.length,
      );
      this.etcdMetrics.recordListLatency(
        this.groupResource,
        streamed,
        (this.clock.now() - startedAt) / 1000,
      );
      const insp = activeSink(this.eventSink);
      if (insp) {
        const status = failure === undefined ? undefined : errorToAPIStatus(failure);
        insp.emit({
          type: 'list/done',
          at: this.clock.now(),
          groupResource: this.groupResource,
          requestId: ctx?.requestId,
          keyPrefix,
          recursive: opts.recursive,
          streamed,
          etcdRequests: cost.requests,
          fetched: numFetched,
          evaluated: numEvald,
          returned: items.length,
          resourceVersion: result?.resourceVersion,
          continue: result?.continue,
          remainingItemCount: result?.remainingItemCount,
          error: status ? { code: status.code ?? 500, message: status.message ?? '' } : undefined,
          latencyMs: this.clock.now() - startedAt,
        });
      }
    }
  }

  /** One page of the paging loop: store.getList (Range for recursive, Get otherwise). */
  private async pagedChunk(
    keyPrefix: string,
    opts: ListOptions,
    withRev: bigint,
    limit: number,
    continueKey: string,
    cost: RequestCost,
    ctx: RequestContext | undefined,
  ): Promise<ListChunk> {
    let resp: RangeResponse;
    try {
      if (opts.recursive) {
        // kubernetes.Client.List: [continue || prefix, prefixEnd(prefix)) at the revision.
        resp = await this.range(
          'list',
          {
            key: continueKey || keyPrefix,
            rangeEnd: prefixEnd(keyPrefix),
            limit,
            revision: etcdRevision(withRev),
          },
          cost,
          ctx,
        );
      } else {
        // kubernetes.Client.Get: a single key; Kvs=[kv], Count=1 or none.
        resp = await this.range(
          'get',
          { key: keyPrefix, revision: etcdRevision(withRev) },
          cost,
          ctx,
        );
      }
    } catch (e) {
      throw await this.listReadError(
        e,
        withRev,
        opts.predicate.continue.length > 0,
        continueKey,
        keyPrefix,
        cost,
        ctx,
      );
    }
    // release-1.36: hasMore = len(Kvs) < Count (not etcd's More).
    return {
      kvs: resp.kvs,
      revision: resp.header.revision,
      count: resp.count,
      hasMore: resp.kvs.length < resp.count,
      limit,
    };
  }

  /**
   * The error GetList returns for a failed read: a future revision is TooLargeResourceVersion with
   * the current revision read from etcd; a compacted one is a 410 (with a fresh rv=-1 continue
   * token when the client was paging).
   */
  private async listReadError(
    err: unknown,
    withRev: bigint,
    paging: boolean,
    continueKey: string,
    keyPrefix: string,
    cost: RequestCost,
    ctx: RequestContext | undefined,
  ): Promise<unknown> {
    if (isEtcdError(err, 'futureRev')) {
      let currentRV = 0n;
      try {
        currentRV = await this.getCurrentResourceVersion(ctx, cost);
      } catch {
        // If the current revision cannot be read, upstream reports 0.
        currentRV = 0n;
      }
      return newTooLargeResourceVersionError(toUint64(withRev), currentRV, 0);
    }
    return interpretListError(err, paging, continueKey, keyPrefix);
  }

  /** shouldStream (master): recursive, no filtered page, gate on, RangeStream believed supported. */
  private shouldStream(
    opts: ListOptions,
    keyPrefix: string,
    origin: 'list' | 'watch-sync',
    ctx: RequestContext | undefined,
  ): boolean {
    if (!this.features.EtcdRangeStream) return false;
    const insp = activeSink(this.eventSink);
    let reason:
      'not-recursive' | 'filtered-page' | 'marked-unsupported' | 'supported' | 'recheck-due';
    let stream = false;
    if (!opts.recursive) reason = 'not-recursive';
    else if (opts.predicate.limit > 0 && !opts.predicate.empty()) reason = 'filtered-page';
    else if (this.featureSupportChecker.supports('RangeStream')) {
      stream = true;
      reason =
        this.featureSupportChecker.recheckAt('RangeStream') === undefined
          ? 'supported'
          : 'recheck-due';
    } else reason = 'marked-unsupported';
    insp?.emit({
      type: 'list/stream-decision',
      at: this.clock.now(),
      groupResource: this.groupResource,
      requestId: ctx?.requestId,
      keyPrefix,
      origin,
      decision: stream ? 'stream' : 'paged',
      reason,
      recheckAt: this.featureSupportChecker.recheckAt('RangeStream'),
    });
    return stream;
  }

  /**
   * streamChunks (master): one RangeStream for [continue || prefix, prefixEnd) pinned to withRev
   * when non-zero and capped at limit; undefined when etcd answers Unimplemented (the capability
   * is then marked unsupported and the caller pages instead).
   */
  async streamChunks(
    keyPrefix: string,
    withRev: bigint,
    limit: number,
    continueKey: string,
    origin: 'list' | 'watch-sync',
    cost: RequestCost,
    ctx: RequestContext | undefined,
  ): Promise<ListChunkStream | undefined> {
    const paging = continueKey !== '';
    const req: RangeRequest = {
      key: paging ? continueKey : keyPrefix,
      rangeEnd: prefixEnd(keyPrefix),
    };
    if (withRev > 0n) req.revision = Number(withRev);
    if (limit > 0) req.limit = limit;
    const start = this.clock.now();
    const it = this.etcd.rangeStream(req)[Symbol.asyncIterator]();
    let first: IteratorResult<RangeResponse> | undefined;
    let firstErr: unknown;
    try {
      first = await it.next();
    } catch (e) {
      firstErr = e;
    }
    if (firstErr !== undefined && isEtcdError(firstErr, 'unimplemented')) {
      // The probe is not counted in etcd_requests_total, only reported to the event sink.
      cost.requests++;
      this.featureSupportChecker.markUnsupported('RangeStream');
      const insp = activeSink(this.eventSink);
      if (insp) {
        insp.emit(this.requestEvent(ctx, 'listStream', req, start, 0, 0, 0, firstErr, true));
        insp.emit({
          type: 'list/stream-fallback',
          at: this.clock.now(),
          groupResource: this.groupResource,
          requestId: ctx?.requestId,
          keyPrefix,
          origin,
          recheckAt: this.featureSupportChecker.recheckAt('RangeStream') ?? 0,
        });
      }
      return undefined;
    }
    cost.requests++;
    let kvsTotal = 0;
    let lastCount = 0;
    let lastLatency = 0;
    let revision: number | undefined = withRev > 0n ? Number(withRev) : undefined;
    let recorded = false;
    const finish = (err: unknown) => {
      if (recorded) return;
      recorded = true;
      const latencyMs = Math.max(this.clock.now() - start, lastLatency);
      this.etcdMetrics.recordEtcdRequest(
        'listStream',
        this.groupResource,
        err !== undefined,
        latencyMs / 1000,
      );
      activeSink(this.eventSink)?.emit(
        this.requestEvent(
          ctx,
          'listStream',
          req,
          start,
          revision ?? 0,
          kvsTotal,
          lastCount,
          err,
          false,
          latencyMs,
        ),
      );
    };
    let pending: IteratorResult<RangeResponse> | undefined = first;
    let pendingErr: unknown = firstErr;
    return {
      close: () => finish(undefined),
      next: async (): Promise<IteratorResult<ListChunk>> => {
        if (pendingErr !== undefined) {
          const err = pendingErr;
          pendingErr = undefined;
          finish(err);
          throw await this.listReadError(err, withRev, paging, continueKey, keyPrefix, cost, ctx);
        }
        const cur = pending;
        if (cur === undefined || cur.done) {
          finish(undefined);
          if (revision === undefined && cur !== undefined) {
            throw plainError(
              `rangeStream for ${JSON.stringify(keyPrefix)} completed without a revision`,
            );
          }
          return { done: true, value: undefined };
        }
        const resp = cur.value;
        kvsTotal += resp.kvs.length;
        lastCount = resp.count;
        lastLatency += resp.latencyMs ?? 0;
        // The revision comes from the first header that carries one; a pinned stream keeps withRev.
        if (revision === undefined && resp.header && resp.header.revision > 0)
          revision = resp.header.revision;
        // Peek at the next chunk: on the final one, More means the limit truncated the range.
        pending = undefined;
        try {
          pending = await it.next();
        } catch (e) {
          pendingErr = e;
        }
        const nextOk = pendingErr !== undefined || (pending !== undefined && !pending.done);
        if (!nextOk) finish(undefined);
        return {
          done: false,
          value: {
            kvs: resp.kvs,
            revision,
            count: resp.count,
            hasMore: nextOk || resp.more,
            limit,
          },
        };
      },
    };
  }

  /** Decodes a list item: the object with metadata.resourceVersion set later (only if kept). */
  private decodeListItem(kv: KeyValue): KubeObject {
    let obj: KubeObject;
    try {
      obj = JSON.parse(fromUtf8ByteString(kv.value)) as KubeObject;
    } catch (e) {
      this.etcdMetrics.recordDecodeError(this.groupResource);
      // abortOnFirstError: the first decode error ends the LIST.
      throw plainError(`unable to decode ${JSON.stringify(kv.key)}: ${(e as Error).message}`);
    }
    if (typeof obj !== 'object' || Array.isArray(obj)) {
      this.etcdMetrics.recordDecodeError(this.groupResource);
      throw plainError(
        `unable to decode ${JSON.stringify(kv.key)}: expected a JSON object, got ${Array.isArray(obj) ? 'an array' : typeof obj}`,
      );
    }
    // Like Go's decoder: null is an empty object, and a missing metadata is the zero ObjectMeta.
    if (obj === null) obj = { metadata: {} };
    else if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
    return this.codec.decode(obj);
  }

  /**
   * validateMinimumResourceVersion: TooLargeResourceVersion (retry 0) when the requested minimum is
   * above the revision etcd served.
   */
  validateMinimumResourceVersion(minimumResourceVersion: string, actualRevision: bigint): void {
    if (minimumResourceVersion === '') return;
    let minimumRV: bigint;
    try {
      minimumRV = this.versioner.parseResourceVersion(minimumResourceVersion);
    } catch (e) {
      throw newBadRequest(`invalid resource version: ${(e as Error).message}`);
    }
    if (minimumRV > actualRevision)
      throw newTooLargeResourceVersionError(minimumRV, actualRevision, 0);
  }

  /**
   * GetCurrentResourceVersion. release-1.36: a non-recursive GetList of the resource prefix with
   * limit 1, so it costs one etcd `get` and counts as a LIST in the storage metrics. master: one
   * Get of the resource prefix, recorded as its own `getCurrentResourceVersion` operation. It is
   * made on behalf of `ctx`'s request (a consistent read, a watch, a LIST that asked for a future RV).
   */
  async getCurrentResourceVersion(ctx?: RequestContext, parentCost?: RequestCost): Promise<bigint> {
    if (this.kubernetesVersion !== '1.36') {
      let revision: number;
      try {
        const preparedKey = this.prepareKey(this.resourcePrefix, false);
        const resp = await this.range(
          'getCurrentResourceVersion',
          { key: preparedKey },
          parentCost,
          ctx,
        );
        revision = resp.header.revision;
      } catch (e) {
        throw withStatus(e);
      }
      if (revision === 0) throw plainError('the current resource version must be greater than 0');
      return BigInt(revision);
    }
    let list: ListResult;
    try {
      list = await this.getListInternal(
        this.resourcePrefix,
        newListOptions({ recursive: false, predicate: new SelectionPredicate({ limit: 1 }) }),
        parentCost,
        ctx,
      );
    } catch (e) {
      throw withStatus(e);
    }
    const rv = BigInt(list.resourceVersion);
    if (rv === 0n) throw plainError('the current resource version must be greater than 0');
    return rv;
  }

  // ---------------------------------------------------------------- single objects

  /** Get: the object at key (latest revision), checked against a minimum resourceVersion. */
  async get(
    key: string,
    opts: GetOptions = {},
    ctx?: RequestContext,
  ): Promise<KubeObject | undefined> {
    const preparedKey = this.prepareKey(key, false);
    const resp = await this.range('get', { key: preparedKey }, undefined, ctx);
    this.validateMinimumResourceVersion(opts.resourceVersion ?? '', BigInt(resp.header.revision));
    const kv = resp.kvs[0];
    if (!kv) {
      if (opts.ignoreNotFound) return undefined;
      throw this.notFound(preparedKey);
    }
    return this.decode(kv.value, kv.modRevision, preparedKey);
  }

  /** Create: writes obj at key if absent (409 AlreadyExists otherwise); returns it with its resourceVersion. */
  async create(key: string, obj: KubeObject, ctx?: RequestContext): Promise<KubeObject> {
    const preparedKey = this.prepareKey(key, false);
    const copy = cloneObject(obj);
    if (this.versioner.objectResourceVersion(copy) !== 0n) {
      throw plainError('resourceVersion should not be set on objects to be created');
    }
    this.versioner.prepareObjectForStorage(copy);
    const data = encodeStoredObject(this.codec.encode(copy));
    const resp = await this.optimisticPut('create', preparedKey, data, 0, false, ctx);
    if (!resp.succeeded) throw this.alreadyExists(preparedKey);
    return this.decode(data, resp.header.revision, preparedKey);
  }

  /**
   * GuaranteedUpdate: reads the current object, applies tryUpdate and writes it if the stored
   * revision is unchanged, retrying on conflicts. An unchanged serialization writes nothing.
   */
  async guaranteedUpdate(
    key: string,
    tryUpdate: UpdateFunc,
    opts: GuaranteedUpdateOptions = {},
    ctx?: RequestContext,
  ): Promise<KubeObject> {
    const preparedKey = this.prepareKey(key, false);
    let state = await this.getCurrentState(preparedKey, !!opts.ignoreNotFound, ctx);
    for (;;) {
      checkPreconditions(preparedKey, opts.preconditions, state);
      const input = cloneObject(state.obj);
      const ret = cloneObject(tryUpdate(input, { resourceVersion: BigInt(state.rev) }));
      this.versioner.prepareObjectForStorage(ret);
      const data = encodeStoredObject(this.codec.encode(ret));
      if (state.exists && data === state.data)
        return this.decode(state.data, state.rev, preparedKey);
      const resp = await this.optimisticPut('update', preparedKey, data, state.rev, true, ctx);
      if (!resp.succeeded) {
        state = this.stateFromTxnFailure(resp, preparedKey, !!opts.ignoreNotFound);
        continue;
      }
      return this.decode(data, resp.header.revision, preparedKey);
    }
  }

  /** Delete: removes the object at key if unchanged since read (retrying on conflict); returns it. */
  async delete(
    key: string,
    opts: { preconditions?: Preconditions } = {},
    ctx?: RequestContext,
  ): Promise<KubeObject> {
    const preparedKey = this.prepareKey(key, false);
    let state = await this.getCurrentState(preparedKey, false, ctx);
    for (;;) {
      checkPreconditions(preparedKey, opts.preconditions, state);
      const resp = await this.txn(
        'delete',
        {
          compare: [{ key: preparedKey, target: 'modRevision', result: 'equal', value: state.rev }],
          success: [{ requestDeleteRange: { key: preparedKey } }],
          failure: [{ requestRange: { key: preparedKey } }],
        },
        ctx,
      );
      if (!resp.succeeded) {
        state = this.stateFromTxnFailure(resp, preparedKey, false);
        continue;
      }
      return this.decode(state.data, resp.header.revision, preparedKey);
    }
  }

  // ---------------------------------------------------------------- watch

  /**
   * Watch: the initial sync (when asked for) and then the etcd watch from its revision + 1. A
   * recursive key must end in '/' after preparation (it always does here). `ctx` is the watch
   * request: its id tags the watch's etcd requests and lifecycle events, and its `signal` ends the
   * watch (without an ERROR event) when the request context is done.
   */
  async watch(key: string, opts: WatchOptions = {}, ctx?: RequestContext): Promise<StorageWatch> {
    const recursive = opts.recursive ?? true;
    const preparedKey = this.prepareKey(key, recursive);
    let rev: bigint;
    try {
      rev = this.versioner.parseResourceVersion(opts.resourceVersion ?? '');
    } catch (e) {
      throw withStatus(e);
    }
    return this.watcher.watch(preparedKey, rev, { ...opts, recursive }, ctx);
  }

  /** RequestWatchProgress: asks etcd for a progress notification on this store's open watches. */
  requestWatchProgress(): void {
    this.watcher.requestWatchProgress();
  }

  // ---------------------------------------------------------------- etcd calls

  /** One Range with metrics and an engine event. */
  async range(
    operation: EtcdOperation,
    req: RangeRequest,
    cost?: RequestCost,
    ctx?: RequestContext,
  ): Promise<RangeResponse> {
    const start = this.clock.now();
    if (cost) cost.requests++;
    let resp: RangeResponse;
    try {
      resp = await this.etcd.range(req);
    } catch (e) {
      const latencyMs = this.clock.now() - start;
      this.etcdMetrics.recordEtcdRequest(operation, this.groupResource, true, latencyMs / 1000);
      activeSink(this.eventSink)?.emit(
        this.requestEvent(ctx, operation, req, start, 0, 0, 0, e, false, latencyMs),
      );
      throw e;
    }
    const latencyMs = Math.max(this.clock.now() - start, resp.latencyMs ?? 0);
    this.etcdMetrics.recordEtcdRequest(operation, this.groupResource, false, latencyMs / 1000);
    const insp = activeSink(this.eventSink);
    if (insp)
      insp.emit(
        this.requestEvent(
          ctx,
          operation,
          req,
          start,
          resp.header.revision,
          resp.kvs.length,
          resp.count,
          undefined,
          false,
          latencyMs,
        ),
      );
    return resp;
  }

  private async txn(
    operation: EtcdOperation,
    req: Parameters<KV['txn']>[0],
    ctx: RequestContext | undefined,
  ): Promise<TxnResponse> {
    const start = this.clock.now();
    const key = firstTxnKey(req);
    let resp: TxnResponse;
    try {
      resp = await this.etcd.txn(req);
    } catch (e) {
      const latencyMs = this.clock.now() - start;
      this.etcdMetrics.recordEtcdRequest(operation, this.groupResource, true, latencyMs / 1000);
      activeSink(this.eventSink)?.emit(
        this.requestEvent(ctx, operation, { key }, start, 0, 0, 0, e, false, latencyMs),
      );
      throw withStatus(e);
    }
    const latencyMs = Math.max(this.clock.now() - start, resp.latencyMs ?? 0);
    this.etcdMetrics.recordEtcdRequest(operation, this.groupResource, false, latencyMs / 1000);
    activeSink(this.eventSink)?.emit(
      this.requestEvent(
        ctx,
        operation,
        { key },
        start,
        resp.header.revision,
        resp.succeeded ? 1 : 0,
        0,
        undefined,
        false,
        latencyMs,
      ),
    );
    return resp;
  }

  /** kubernetes.Client.OptimisticPut: put if the key's modRevision equals expected (0 = absent). */
  private optimisticPut(
    operation: EtcdOperation,
    key: string,
    value: string,
    expectedRevision: number,
    getOnFailure: boolean,
    ctx: RequestContext | undefined,
  ): Promise<TxnResponse> {
    return this.txn(
      operation,
      {
        compare: [{ key, target: 'modRevision', result: 'equal', value: expectedRevision }],
        success: [{ requestPut: { key, value } }],
        failure: getOnFailure ? [{ requestRange: { key } }] : [],
      },
      ctx,
    );
  }

  private async getCurrentState(
    key: string,
    ignoreNotFound: boolean,
    ctx: RequestContext | undefined,
  ): Promise<ObjState> {
    const resp = await this.range('get', { key }, undefined, ctx);
    return this.stateFromKv(resp.kvs[0], key, ignoreNotFound);
  }

  private stateFromTxnFailure(resp: TxnResponse, key: string, ignoreNotFound: boolean): ObjState {
    const r = resp.responses[0];
    const kv = r && 'responseRange' in r ? r.responseRange.kvs[0] : undefined;
    return this.stateFromKv(kv, key, ignoreNotFound);
  }

  private stateFromKv(kv: KeyValue | undefined, key: string, ignoreNotFound: boolean): ObjState {
    if (!kv) {
      if (!ignoreNotFound) throw this.notFound(key);
      return { obj: { metadata: {} }, rev: 0, data: '', exists: false };
    }
    return {
      obj: this.decode(kv.value, kv.modRevision, key),
      rev: kv.modRevision,
      data: kv.value,
      exists: true,
    };
  }

  private decode(data: string, rev: number, key: string): KubeObject {
    let obj: KubeObject;
    try {
      obj = JSON.parse(fromUtf8ByteString(data)) as KubeObject;
    } catch (e) {
      this.etcdMetrics.recordDecodeError(this.groupResource);
      throw plainError(`unable to decode ${JSON.stringify(key)}: ${(e as Error).message}`);
    }
    if (typeof obj !== 'object' || Array.isArray(obj)) {
      this.etcdMetrics.recordDecodeError(this.groupResource);
      throw plainError(`unable to decode ${JSON.stringify(key)}: expected a JSON object`);
    }
    if (obj === null) obj = { metadata: {} };
    else if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
    obj = this.codec.decode(obj);
    this.versioner.updateObject(obj, BigInt(rev));
    return obj;
  }

  private notFound(preparedKey: string): StatusError {
    return newNotFound(this.groupResource, preparedKey.slice(preparedKey.lastIndexOf('/') + 1));
  }

  private alreadyExists(preparedKey: string): StatusError {
    const name = preparedKey.slice(preparedKey.lastIndexOf('/') + 1);
    const gr = this.groupResource;
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `${gr.group ? `${gr.resource}.${gr.group}` : gr.resource} ${JSON.stringify(name)} already exists`,
      reason: 'AlreadyExists',
      details: { name, ...(gr.group ? { group: gr.group } : {}), kind: gr.resource },
      code: 409,
    };
    return new StatusError(status);
  }

  /** @internal An etcd/request engine event, made on behalf of `ctx`'s request. */
  requestEvent(
    ctx: RequestContext | undefined,
    operation: EtcdOperation,
    req: RangeRequest,
    start: number,
    headerRevision: number,
    kvs: number,
    count: number,
    err: unknown,
    unimplemented: boolean,
    latencyMs = this.clock.now() - start,
  ) {
    return {
      type: 'etcd/request' as const,
      at: start,
      groupResource: this.groupResource,
      requestId: ctx?.requestId,
      operation,
      key: req.key,
      rangeEnd: req.rangeEnd,
      limit: req.limit ?? 0,
      revision: req.revision ?? 0,
      headerRevision,
      kvs,
      count,
      latencyMs,
      error: err === undefined ? undefined : err instanceof Error ? err.message : String(err),
      unimplemented: unimplemented || undefined,
    };
  }
}

function normalizePathPrefix(prefix: string): string {
  // path.Join("/", prefix): collapse duplicate slashes, drop a trailing one; then append '/'.
  const parts = prefix.split('/').filter((p) => p !== '' && p !== '.');
  const joined = '/' + parts.join('/');
  return joined.endsWith('/') ? joined : joined + '/';
}

function cloneObject(obj: KubeObject): KubeObject {
  if (obj === null || typeof obj !== 'object')
    throw plainError(`expected an object, got ${obj === null ? 'null' : typeof obj}`);
  const copy = JSON.parse(JSON.stringify(obj)) as KubeObject;
  if (typeof copy.metadata !== 'object' || copy.metadata === null) copy.metadata = {};
  return copy;
}

function checkPreconditions(key: string, p: Preconditions | undefined, state: ObjState): void {
  if (!p) return;
  const meta = state.obj.metadata as { uid?: string; resourceVersion?: string };
  if (p.uid !== undefined && p.uid !== (meta.uid ?? '')) {
    throw newInvalidObjError(
      key,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${meta.uid ?? ''}`,
    );
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== (meta.resourceVersion ?? '')) {
    throw newInvalidObjError(
      key,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
}

function firstTxnKey(req: Parameters<KV['txn']>[0]): string {
  const op = (req.success ?? [])[0] ?? (req.failure ?? [])[0];
  if (op && 'requestPut' in op) return op.requestPut.key;
  if (op && 'requestDeleteRange' in op) return op.requestDeleteRange.key;
  if (op && 'requestRange' in op) return op.requestRange.key;
  return req.compare?.[0]?.key ?? '';
}
