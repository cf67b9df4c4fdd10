// Mirrors k8s.io/apiserver pkg/storage/etcd3/watcher.go and event.go (release-1.36; the sync
// through RangeStream behind EtcdRangeStream is master's syncStreamRecursive): the initial sync
// (pages of defaultWatcherMaxLimit keys at a pinned revision), then the etcd watch from that
// revision + 1; progress notifications become BOOKMARK events. Deliberate differences: events are
// decoded in order on one queue (no decode concurrency), and delivery is a callback or an async
// iterator instead of a Go channel (unbounded: a slow consumer does not block etcd).
import { fromUtf8ByteString } from '../encoding/byte-string';
import type { Clock } from '../clock';
import {
  EtcdError,
  prefixEnd,
  type KV,
  type KeyValue,
  type RangeRequest,
  type RangeResponse,
  type Watch,
  type WatchEvent,
  type WatchResponse,
} from '../etcd/kv';
import {
  activeSink,
  type EtcdOperation,
  type EtcdRequestEvent,
  type EventSink,
} from '../inspect/events';
import type { SeededRandom } from '../rand';
import type { StorageCodec } from './store';
import type { RequestContext } from '../request/request-context';
import { newTooLargeResourceVersionError, type Status } from '../storage/errors';
import type { GroupResource } from '../storage/group-resource';
import type { KubeObject } from '../storage/objects';
import { SelectionPredicate, type SelectionQuery } from '../storage/selection-predicate';
import type { Versioner } from '../storage/versioner';
import { interpretListError, watchErrorStatus } from './errors';
import type { FeatureSupportChecker } from './feature-support-checker';
import type { EtcdMetrics } from './metrics';

/** Page size of the watch's initial sync: watcher.go's defaultWatcherMaxLimit = maxLimit (10000). */
export const defaultWatcherMaxLimit = 10000;

/** metav1.InitialEventsAnnotationKey: marks the bookmark that ends the initial events. */
export const initialEventsAnnotationKey = 'k8s.io/initial-events-end';

export type StorageWatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** A watch.Event from storage: the object with its resourceVersion (0 for ERROR). */
export interface StorageWatchEvent {
  type: StorageWatchEventType;
  /** The object (with metadata.resourceVersion set), or the Status for ERROR. */
  object: KubeObject | Status;
  resourceVersion: number;
}

export interface WatchOptions {
  /** '' or '0': start with the current state (legacy); N: events after revision N. */
  resourceVersion?: string;
  /** Default true: every key under the prefix. */
  recursive?: boolean;
  /** Selectors as strings (as GetList's predicate), or a storage SelectionPredicate. */
  predicate?: Pick<SelectionQuery, 'label' | 'field'> | SelectionPredicate;
  /** Ask etcd for progress notifications (the watch cache does); they arrive as BOOKMARKs. */
  progressNotify?: boolean;
  /** WatchList: start with the current state; only honoured with the WatchList gate on. */
  sendInitialEvents?: boolean;
  /** With sendInitialEvents: end the initial events with an annotated BOOKMARK. */
  allowWatchBookmarks?: boolean;
}

/** watch.Interface: stop it, and consume its events with onEvent or async iteration (not both). */
export interface StorageWatch extends AsyncIterable<StorageWatchEvent> {
  onEvent(cb: (e: StorageWatchEvent) => void): void;
  /** Asks etcd for a progress notification (clientv3 RequestProgress). */
  requestWatchProgress(): void;
  stop(): void;
  readonly stopped: boolean;
}

/** event.go's event: a KV change as the watcher processes it. */
interface StorageEvent {
  key: string;
  value: string;
  prevValue: string | undefined;
  rev: number;
  isDeleted: boolean;
  isCreated: boolean;
  isProgressNotify: boolean;
  isInitialEventsEndBookmark: boolean;
}

/** parseKV: a key from the initial sync is a synthetic creation. */
function parseKV(kv: KeyValue): StorageEvent {
  return {
    key: kv.key,
    value: kv.value,
    prevValue: undefined,
    rev: kv.modRevision,
    isDeleted: false,
    isCreated: true,
    isProgressNotify: false,
    isInitialEventsEndBookmark: false,
  };
}

/** parseEvent: an etcd watch event; a non-create without prevKv (compacted away) is an error. */
function parseEvent(e: WatchEvent): StorageEvent {
  const isCreate = e.type === 'PUT' && e.kv.createRevision === e.kv.modRevision;
  if (!isCreate && e.prevKv === undefined) {
    throw new Error(
      `etcd event received with PrevKv=nil (key=${JSON.stringify(e.kv.key)}, modRevision=${e.kv.modRevision}, type=${e.type})`,
    );
  }
  return {
    key: e.kv.key,
    value: e.kv.value,
    prevValue: e.prevKv?.value,
    rev: e.kv.modRevision,
    isDeleted: e.type === 'DELETE',
    isCreated: isCreate,
    isProgressNotify: false,
    isInitialEventsEndBookmark: false,
  };
}

function progressNotifyEvent(rev: number): StorageEvent {
  return {
    key: '',
    value: '',
    prevValue: undefined,
    rev,
    isDeleted: false,
    isCreated: false,
    isProgressNotify: true,
    isInitialEventsEndBookmark: false,
  };
}

/**
 * What the watcher takes from its store: watcher.go's watcher struct (client, groupResource,
 * versioner, getCurrentStorageRV), plus what upstream reads from globals (feature gates, metrics,
 * time, jitter), the event sink, and the store's instrumented Range for the paged sync. No codec or
 * transformer: values are JSON, stored in the clear.
 */
export interface EtcdWatcherOptions {
  client: KV;
  groupResource: GroupResource;
  /** The resource's empty object (etcd3.New's newFunc): what BOOKMARK events carry. */
  newFunc: () => KubeObject;
  /** The store's codec conversion (stored object → served object). */
  codec: StorageCodec;
  versioner: Versioner;
  /** store.GetCurrentResourceVersion (an etcd `get`, counted as a LIST). */
  getCurrentStorageRV: (ctx?: RequestContext) => Promise<bigint>;
  /** The store's Range: the KV call with its etcd_request metrics and etcd/request event. */
  range: (
    operation: EtcdOperation,
    req: RangeRequest,
    ctx?: RequestContext,
  ) => Promise<RangeResponse>;
  /** The store's etcd/request event for a RangeStream, which the watcher records itself. */
  requestEvent: (
    ctx: RequestContext | undefined,
    operation: EtcdOperation,
    req: RangeRequest,
    start: number,
    headerRevision: number,
    kvs: number,
    count: number,
    err: unknown,
    unimplemented: boolean,
    latencyMs?: number,
  ) => EtcdRequestEvent;
  features: { readonly WatchList: boolean; readonly EtcdRangeStream: boolean };
  featureSupportChecker: FeatureSupportChecker;
  etcdMetrics: EtcdMetrics;
  eventSink: EventSink | undefined;
  clock: Clock;
  /** The watch's retry jitter (wait.Jitter). */
  random: SeededRandom;
}

/** The etcd3 watcher of one store. */
export class EtcdWatcher {
  readonly client: KV;
  readonly groupResource: GroupResource;
  readonly newFunc: () => KubeObject;
  readonly codec: StorageCodec;
  readonly versioner: Versioner;
  readonly getCurrentStorageRV: (ctx?: RequestContext) => Promise<bigint>;
  readonly range: EtcdWatcherOptions['range'];
  readonly requestEvent: EtcdWatcherOptions['requestEvent'];
  readonly features: EtcdWatcherOptions['features'];
  readonly featureSupportChecker: FeatureSupportChecker;
  readonly etcdMetrics: EtcdMetrics;
  readonly eventSink: EventSink | undefined;
  readonly clock: Clock;
  readonly random: SeededRandom;
  /** Open watches: clientv3 RequestProgress asks the shared watch stream, i.e. all of them. */
  private readonly open = new Set<WatchChan>();

  constructor(opts: EtcdWatcherOptions) {
    this.client = opts.client;
    this.groupResource = opts.groupResource;
    this.newFunc = opts.newFunc;
    this.codec = opts.codec;
    this.versioner = opts.versioner;
    this.getCurrentStorageRV = opts.getCurrentStorageRV;
    this.range = opts.range;
    this.requestEvent = opts.requestEvent;
    this.features = opts.features;
    this.featureSupportChecker = opts.featureSupportChecker;
    this.etcdMetrics = opts.etcdMetrics;
    this.eventSink = opts.eventSink;
    this.clock = opts.clock;
    this.random = opts.random;
  }

  /** store.RequestWatchProgress: a progress notification on every open watch (if etcd is synced). */
  requestWatchProgress(): void {
    for (const wc of this.open) {
      if (wc.stopped) this.open.delete(wc);
      else wc.requestWatchProgress();
    }
  }

  /**
   * watcher.Watch: resolves the start revision, then runs the watch (for `ctx`'s request) in the
   * background. Once `ctx.signal` (the request context's Done) fires, the watch ends, without an
   * ERROR event.
   */
  async watch(
    preparedKey: string,
    rev: bigint,
    opts: WatchOptions,
    ctx?: RequestContext,
  ): Promise<StorageWatch> {
    const recursive = opts.recursive ?? true;
    if (recursive && !preparedKey.endsWith('/'))
      throw new Error('recursive key needs to end with "/"');
    const pred = toPredicate(opts.predicate, this.groupResource.resource);
    const startWatchRV = await this.getStartWatchResourceVersion(rev, opts, ctx);
    const wc = new WatchChan(
      this,
      preparedKey,
      Number(startWatchRV),
      recursive,
      !!opts.progressNotify,
      pred,
      ctx,
    );
    this.open.add(wc);
    if (ctx?.signal) wc.stopOnAbort(ctx.signal);
    void wc.run(
      this.isInitialEventsEndBookmarkRequired(opts),
      this.areInitialEventsRequired(rev, opts),
    );
    return wc;
  }

  /** getStartWatchResourceVersion: the requested RV, or 0 (sync first), or the current RV (WatchList, no initial events). */
  private async getStartWatchResourceVersion(
    rev: bigint,
    opts: WatchOptions,
    ctx: RequestContext | undefined,
  ): Promise<bigint> {
    if (rev > 0n) return rev;
    if (!this.features.WatchList) return 0n;
    if (opts.sendInitialEvents === undefined || opts.sendInitialEvents) return 0n;
    return this.getCurrentStorageRV(ctx);
  }

  private isInitialEventsEndBookmarkRequired(opts: WatchOptions): boolean {
    if (!this.features.WatchList) return false;
    const pred = opts.predicate;
    const allow =
      opts.allowWatchBookmarks ??
      (pred instanceof SelectionPredicate ? pred.allowWatchBookmarks : false);
    return opts.sendInitialEvents === true && allow;
  }

  private areInitialEventsRequired(rev: bigint, opts: WatchOptions): boolean {
    if (opts.sendInitialEvents === undefined && rev === 0n) return true; // legacy case
    if (!this.features.WatchList) return false;
    return opts.sendInitialEvents === true;
  }
}

function toPredicate(p: WatchOptions['predicate'], resource: string): SelectionPredicate {
  if (p instanceof SelectionPredicate) return p;
  return SelectionPredicate.from({ label: p?.label, field: p?.field }, resource);
}

/** watchChan: one running watch. */
class WatchChan implements StorageWatch {
  private initialRev: number;
  private readonly pred: SelectionPredicate;
  private etcdWatch: Watch | undefined;
  private ended = false;
  private readonly queue: StorageWatchEvent[] = [];
  private head = 0;
  private consumer: ((e: StorageWatchEvent) => void) | undefined;
  private waiter: ((r: IteratorResult<StorageWatchEvent>) => void) | undefined;
  private flushScheduled = false;
  private syncedObjects = 0;
  private readonly watcher: EtcdWatcher;
  private readonly key: string;
  private readonly recursive: boolean;
  private readonly progressNotify: boolean;
  private abortSignal: AbortSignal | undefined;
  /** The watch request: its id tags this watch's etcd requests and lifecycle events. */
  private readonly ctx: RequestContext | undefined;

  constructor(
    watcher: EtcdWatcher,
    key: string,
    rev: number,
    recursive: boolean,
    progressNotify: boolean,
    pred: SelectionPredicate,
    ctx: RequestContext | undefined,
  ) {
    this.watcher = watcher;
    this.key = key;
    this.initialRev = rev;
    this.recursive = recursive;
    this.progressNotify = progressNotify;
    this.pred = pred;
    this.ctx = ctx;
  }

  get stopped(): boolean {
    return this.ended;
  }

  // ---- consumer side ----

  onEvent(cb: (e: StorageWatchEvent) => void): void {
    if (this.consumer)
      throw new Error('watch: onEvent was already called; a watch has one consumer');
    this.consumer = cb;
    this.scheduleFlush();
  }

  [Symbol.asyncIterator](): AsyncIterator<StorageWatchEvent> {
    if (this.consumer)
      throw new Error('watch: onEvent was already called; a watch has one consumer');
    return {
      next: () => {
        const e = this.take();
        if (e) return Promise.resolve({ value: e, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiter = resolve;
        });
      },
      return: () => {
        this.stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  requestWatchProgress(): void {
    this.etcdWatch?.requestProgress();
  }

  /** The context's cancellation (wc.ctx derives from the request's ctx): it stops the watch. */
  stopOnAbort(signal: AbortSignal): void {
    if (signal.aborted) {
      this.stop();
      return;
    }
    this.abortSignal = signal;
    signal.addEventListener('abort', this.onAbort);
  }

  private readonly onAbort = (): void => this.stop();

  stop(): void {
    if (this.ended) return;
    this.ended = true;
    this.abortSignal?.removeEventListener('abort', this.onAbort);
    this.etcdWatch?.cancel();
    this.emitPhase('stopped', this.initialRev);
    if (this.waiter && this.head >= this.queue.length) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: undefined, done: true });
    }
  }

  private take(): StorageWatchEvent | undefined {
    if (this.head >= this.queue.length) return undefined;
    const e = this.queue[this.head++];
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
    return e;
  }

  private send(e: StorageWatchEvent): void {
    this.queue.push(e);
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: this.take() as StorageWatchEvent, done: false });
    } else this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (!this.consumer || this.flushScheduled || this.head >= this.queue.length) return;
    this.flushScheduled = true;
    void Promise.resolve().then(() => {
      this.flushScheduled = false;
      for (let e = this.take(); e && this.consumer; e = this.take()) this.consumer(e);
    });
  }

  // ---- producer side ----

  /** run + startWatching: sync if required, the initial-events-end bookmark, then the etcd watch. */
  async run(initialEventsEndBookmarkRequired: boolean, forceInitialEvents: boolean): Promise<void> {
    // A cancelled context fails the first etcd call with context.Canceled, which sends nothing.
    if (this.ended) return;
    try {
      if (this.initialRev > 0 && forceInitialEvents) {
        const current = await this.watcher.getCurrentStorageRV(this.ctx);
        if (BigInt(this.initialRev) > current) {
          // wait.Jitter(1s, 3): 1s + up to 3s more, truncated to whole seconds.
          const retry = Math.floor(1 + this.watcher.random.float64() * 3);
          this.sendError(newTooLargeResourceVersionError(BigInt(this.initialRev), current, retry));
          return;
        }
      }
      if (forceInitialEvents) {
        await this.sync();
        this.emitPhase('sync-done', this.initialRev, this.syncedObjects);
      }
      if (this.ended) return;
      if (initialEventsEndBookmarkRequired) {
        const e = progressNotifyEvent(this.initialRev);
        e.isInitialEventsEndBookmark = true;
        this.queueEvent(e);
      }
      this.etcdWatch = this.watcher.client.watch({
        key: this.key,
        rangeEnd: this.recursive ? prefixEnd(this.key) : undefined,
        startRevision: this.initialRev + 1,
        prevKv: true,
        progressNotify: this.progressNotify,
      });
      this.emitPhase('watching', this.initialRev);
      this.etcdWatch.onResponse((r) => this.onWatchResponse(r));
    } catch (e) {
      this.sendError(e);
    }
  }

  private onWatchResponse(r: WatchResponse): void {
    if (this.ended) return;
    const err = watchResponseError(r);
    if (err) {
      this.sendError(err);
      return;
    }
    if (r.progressNotify || (r.events.length === 0 && r.header.revision !== 0)) {
      this.watcher.etcdMetrics.recordEtcdBookmark(this.watcher.groupResource);
      this.emitPhase('progress-notify', r.header.revision);
      this.queueEvent(progressNotifyEvent(r.header.revision));
      return;
    }
    for (const e of r.events) {
      this.watcher.etcdMetrics.recordEtcdEvent(this.watcher.groupResource);
      let parsed: StorageEvent;
      try {
        parsed = parseEvent(e);
      } catch (err2) {
        this.sendError(err2);
        return;
      }
      this.queueEvent(parsed);
      if (this.ended) return;
    }
  }

  /** sync: the current state as synthetic ADDED events; sets initialRev to the read revision. */
  private async sync(): Promise<void> {
    const w = this.watcher;
    if (this.recursive && w.features.EtcdRangeStream) {
      const checker = w.featureSupportChecker;
      const supported = checker.supports('RangeStream');
      activeSink(w.eventSink)?.emit({
        type: 'list/stream-decision',
        at: w.clock.now(),
        groupResource: w.groupResource,
        requestId: this.ctx?.requestId,
        keyPrefix: this.key,
        origin: 'watch-sync',
        decision: supported ? 'stream' : 'paged',
        reason: supported
          ? checker.recheckAt('RangeStream') === undefined
            ? 'supported'
            : 'recheck-due'
          : 'marked-unsupported',
        recheckAt: checker.recheckAt('RangeStream'),
      });
      if (supported) {
        if (await this.syncStreamRecursive()) return;
        checker.markUnsupported('RangeStream');
        activeSink(w.eventSink)?.emit({
          type: 'list/stream-fallback',
          at: w.clock.now(),
          groupResource: w.groupResource,
          requestId: this.ctx?.requestId,
          keyPrefix: this.key,
          origin: 'watch-sync',
          recheckAt: checker.recheckAt('RangeStream') ?? 0,
        });
      }
    }
    await this.syncPaginated();
  }

  /** The release-1.36 sync: pages of defaultWatcherMaxLimit keys, pinned to the first page's revision. */
  private async syncPaginated(): Promise<void> {
    let preparedKey = this.key;
    let withRev = 0;
    for (;;) {
      let resp: RangeResponse;
      try {
        resp = this.recursive
          ? await this.watcher.range(
              'list',
              {
                key: preparedKey,
                rangeEnd: prefixEnd(this.key),
                limit: defaultWatcherMaxLimit,
                revision: withRev,
              },
              this.ctx,
            )
          : await this.watcher.range('get', { key: preparedKey, revision: withRev }, this.ctx);
      } catch (e) {
        throw interpretListError(e, true, preparedKey, this.key);
      }
      // clientv3's raw Get: etcd's More flag decides (not len < Count).
      if (resp.kvs.length === 0 && resp.more)
        throw new Error(
          'no results were found, but etcd indicated there were more values remaining',
        );
      let lastKey = '';
      for (const kv of resp.kvs) {
        lastKey = kv.key;
        this.queueEvent(parseKV(kv));
        this.syncedObjects++;
      }
      if (withRev === 0) this.initialRev = resp.header.revision;
      if (!resp.more) return;
      preparedKey = lastKey + '\x00';
      if (withRev === 0) withRev = resp.header.revision;
    }
  }

  /** master syncStreamRecursive: one RangeStream; false when etcd answered Unimplemented. */
  private async syncStreamRecursive(): Promise<boolean> {
    const w = this.watcher;
    const req = { key: this.key, rangeEnd: prefixEnd(this.key) };
    const start = w.clock.now();
    const it = w.client.rangeStream(req)[Symbol.asyncIterator]();
    let initialRev = 0;
    let kvs = 0;
    let count = 0;
    let latency = 0;
    const record = (err: unknown) => {
      const latencyMs = Math.max(w.clock.now() - start, latency);
      w.etcdMetrics.recordEtcdRequest(
        'listStream',
        w.groupResource,
        err !== undefined,
        latencyMs / 1000,
      );
      activeSink(w.eventSink)?.emit(
        w.requestEvent(
          this.ctx,
          'listStream',
          req,
          start,
          initialRev,
          kvs,
          count,
          err,
          false,
          latencyMs,
        ),
      );
    };
    for (;;) {
      let n: IteratorResult<RangeResponse>;
      try {
        n = await it.next();
      } catch (e) {
        if (e instanceof EtcdError && e.isUnimplemented) {
          // The probe is not counted in the metrics.
          activeSink(w.eventSink)?.emit(
            w.requestEvent(this.ctx, 'listStream', req, start, 0, 0, 0, e, true),
          );
          return false;
        }
        record(e);
        // paging=false: a compaction mid-stream cannot be resumed, so it is a plain 410 (relist).
        throw interpretListError(e, false, this.key, this.key);
      }
      if (n.done) break;
      const resp = n.value;
      for (const kv of resp.kvs) {
        this.queueEvent(parseKV(kv));
        this.syncedObjects++;
      }
      kvs += resp.kvs.length;
      count = resp.count;
      latency += resp.latencyMs ?? 0;
      if (initialRev === 0 && resp.header) initialRev = resp.header.revision;
    }
    record(undefined);
    if (initialRev === 0)
      throw new Error(`rangeStream for ${JSON.stringify(this.key)} completed without a revision`);
    this.initialRev = initialRev;
    return true;
  }

  /** queueEvent + transform: decodes and filters, then hands the result to the consumer. */
  private queueEvent(e: StorageEvent): void {
    if (this.ended) return;
    let res: StorageWatchEvent | undefined;
    try {
      res = this.transform(e);
    } catch (err) {
      this.sendError(err);
      return;
    }
    if (res) this.send(res);
  }

  private transform(e: StorageEvent): StorageWatchEvent | undefined {
    if (e.isProgressNotify) {
      const object = this.watcher.newFunc();
      this.watcher.versioner.updateObject(object, BigInt(e.rev));
      if (e.isInitialEventsEndBookmark)
        object.metadata.annotations = {
          ...object.metadata.annotations,
          [initialEventsAnnotationKey]: 'true',
        };
      return { type: 'BOOKMARK', object, resourceVersion: e.rev };
    }
    const acceptAll = this.pred.empty();
    const curObj = e.isDeleted ? undefined : this.decodeObj(e.value, e.rev, e.key);
    // The previous value is needed for a deletion, or to tell whether a filtered object moved in or out.
    const oldObj =
      e.prevValue !== undefined && e.prevValue.length > 0 && (e.isDeleted || !acceptAll)
        ? this.decodeObj(e.prevValue, e.rev, e.key)
        : undefined;
    if (e.isDeleted) {
      if (!oldObj || !this.filter(oldObj)) return undefined;
      return { type: 'DELETED', object: oldObj, resourceVersion: e.rev };
    }
    const cur = curObj as KubeObject;
    if (e.isCreated) {
      if (!this.filter(cur)) return undefined;
      return { type: 'ADDED', object: cur, resourceVersion: e.rev };
    }
    if (acceptAll) return { type: 'MODIFIED', object: cur, resourceVersion: e.rev };
    const curPasses = this.filter(cur);
    const oldPasses = oldObj !== undefined && this.filter(oldObj);
    if (curPasses && oldPasses) return { type: 'MODIFIED', object: cur, resourceVersion: e.rev };
    if (curPasses && !oldPasses) return { type: 'ADDED', object: cur, resourceVersion: e.rev };
    if (!curPasses && oldPasses)
      return { type: 'DELETED', object: oldObj as KubeObject, resourceVersion: e.rev };
    return undefined;
  }

  /** decodeObj: the object with its resourceVersion set to the event's revision. */
  private decodeObj(data: string, rev: number, key: string): KubeObject {
    let obj: KubeObject;
    try {
      obj = JSON.parse(fromUtf8ByteString(data)) as KubeObject;
    } catch (e) {
      this.watcher.etcdMetrics.recordDecodeError(this.watcher.groupResource);
      throw new Error(`unable to decode ${JSON.stringify(key)}: ${(e as Error).message}`);
    }
    if (typeof obj !== 'object' || Array.isArray(obj)) {
      this.watcher.etcdMetrics.recordDecodeError(this.watcher.groupResource);
      throw new Error(`unable to decode ${JSON.stringify(key)}: expected a JSON object`);
    }
    if (obj === null) obj = { metadata: {} };
    else if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
    obj = this.watcher.codec.decode(obj);
    this.watcher.versioner.updateObject(obj, BigInt(rev));
    return obj;
  }

  private filter(obj: KubeObject): boolean {
    if (this.pred.empty()) return true;
    try {
      return this.pred.matches(obj);
    } catch {
      return false;
    }
  }

  /** sendError: one ERROR event with the Status (interpretWatchError), then the watch ends. */
  private sendError(err: unknown): void {
    if (this.ended) return;
    const status = watchErrorStatus(err);
    this.emitPhase('error', this.initialRev, undefined, status);
    this.send({ type: 'ERROR', object: status, resourceVersion: 0 });
    this.ended = true;
    this.abortSignal?.removeEventListener('abort', this.onAbort);
    this.etcdWatch?.cancel();
    if (this.waiter && this.head >= this.queue.length) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: undefined, done: true });
    }
  }

  private emitPhase(
    phase: 'sync-done' | 'watching' | 'progress-notify' | 'error' | 'stopped',
    revision: number,
    initialObjects?: number,
    status?: Status,
  ): void {
    const insp = activeSink(this.watcher.eventSink);
    if (!insp) return;
    insp.emit({
      type: 'etcd/watch',
      at: this.watcher.clock.now(),
      groupResource: this.watcher.groupResource,
      requestId: this.ctx?.requestId,
      key: this.key,
      phase,
      revision,
      initialObjects,
      error: status ? { code: status.code ?? 500, message: status.message ?? '' } : undefined,
    });
  }
}

/** clientv3 WatchResponse.Err(): ErrCompacted for a compacted start, the cancel reason otherwise. */
function watchResponseError(r: WatchResponse): unknown {
  if (r.compactRevision) return EtcdError.compacted();
  if (r.canceled) {
    if (r.cancelReason === EtcdError.compacted().message) return EtcdError.compacted();
    return new Error(r.cancelReason || 'watch canceled');
  }
  return undefined;
}
