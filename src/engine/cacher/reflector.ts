// Mirrors k8s.io/client-go tools/cache/reflector.go (ListAndWatch as the cacher runs it: paged
// list, then watch from the list RV, UpdateResourceVersion after every event) with the pager's
// full-list fallback (tools/pager), k8s.io/apiserver pkg/storage/cacher/lister_watcher.go,
// ready.go and progress/watch_progress.go (release-1.36). Deliberate differences: the storage
// watch's events are pumped synchronously from its callback (no goroutine), pausing while the
// cacher's incoming queue is full; errors are values, not logs; times are Clock ms. Ours: pause,
// a fault hook that holds the watch's events for a while (a starved apiserver).
import { type GroupResource, groupResourceString } from '../storage/group-resource';
import type { Clock, Timer } from '../clock';
import { activeSink, type EventSink } from '../inspect/events';
import {
  errorToAPIStatus,
  isInternalError,
  isResourceExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
  StatusError,
  type Status,
} from '../storage/errors';
import { RequestContexts, type RequestContext } from '../request/request-context';
import { requestPath } from '../request/request-path';
import { newListOptions, type ListOptions } from '../storage/list-options';
import type { KubeObject } from '../storage/objects';
import { SelectionPredicate } from '../storage/selection-predicate';
import type { GetOptions, ListResult } from '../etcd3/store';
import type { StorageWatch, StorageWatchEvent, WatchOptions } from '../etcd3/watcher';
import { ChannelTimer } from './channel';

/** The cacher's page size for its initial (and re-) list of storage: 10000 objects per request. */
export const storageWatchListPageSize = 10000;

/** progressRequestPeriod: how often etcd is asked for a progress notification while a read waits for freshness. */
export const progressRequestPeriod = 100;

/** wait.Until's period in startCaching: a failed ListAndWatch is retried a second later. */
export const relistPeriod = 1000;

/** reflector.MaxInternalErrorRetryDuration for the cacher: re-watch after internal errors for up to 30s. */
export const maxInternalErrorRetryDuration = 30_000;

/** What the cacher needs from storage.Interface (the etcd3 EtcdStore fits). */
export interface CacherStorage {
  getList(key: string, opts: ListOptions, ctx?: RequestContext): Promise<ListResult>;
  getCurrentResourceVersion(ctx?: RequestContext): Promise<bigint | number>;
  watch(key: string, opts: WatchOptions, ctx?: RequestContext): Promise<StorageWatch>;
  get?(key: string, opts?: GetOptions, ctx?: RequestContext): Promise<KubeObject | undefined>;
}

/** The store a reflector fills (the watch cache). */
export interface ReflectorStore {
  replace(objects: readonly KubeObject[], resourceVersion: string): void;
  add(object: KubeObject): void;
  update(object: KubeObject): void;
  delete(object: KubeObject): void;
  /** ResourceVersionUpdater. */
  updateResourceVersion(resourceVersion: string): void;
}

/** Lets the reflector pause while the store's consumer (the cacher's incoming queue) is full. */
export interface ReflectorFlowControl {
  blocked(): boolean;
  /** Calls `resume` once, when not blocked any more. */
  onUnblocked(resume: () => void): void;
}

// ---------------------------------------------------------------- ready.go

export type ReadyState = 'Pending' | 'Ready' | 'Stopped';

/** What `check` / `checkAndReadGeneration` report: downtime = ms since the last state change. */
export interface ReadyCheck {
  generation: number;
  downtime: number;
  /** Set unless Ready: `storage is (re)initializing[: <last error>]` or `apiserver cacher is stopped`. */
  error?: Error;
}

/**
 * ready: a three-state condition (Pending <-> Ready -> Stopped). Requests check it: a not-ready
 * cache answers 429 (ResilientWatchCacheInitialization) with a Retry-After growing with the
 * downtime, which is why the time of the last state change is kept.
 */
export class Ready {
  state: ReadyState = 'Pending';
  lastErr: Error | undefined;
  /** Number of times the state became Ready. */
  generation = 0;
  lastStateChangeTime: number;
  private waiters: { resolve: () => void; reject: (e: Error) => void; cleanup: () => void }[] = [];
  private readonly clock: Pick<Clock, 'now'>;
  private readonly onChange: ((r: Ready) => void) | undefined;

  constructor(clock: Pick<Clock, 'now'>, onChange?: (r: Ready) => void) {
    this.clock = clock;
    this.onChange = onChange;
    this.lastStateChangeTime = clock.now();
  }

  /** Resolves once Ready; rejects when Stopped, or with `context canceled` when the signal aborts. */
  wait(signal?: AbortSignal): Promise<void> {
    return this.waitAndReadGeneration(signal).then(() => undefined);
  }

  waitAndReadGeneration(signal?: AbortSignal): Promise<number> {
    if (this.state !== 'Pending') {
      const r = this.checkAndReadGeneration();
      return r.error ? Promise.reject(r.error) : Promise.resolve(r.generation);
    }
    if (signal?.aborted) return Promise.reject(new Error('context canceled'));
    return new Promise<number>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error('context canceled'));
      };
      const waiter = {
        resolve: () => {
          const r = this.checkAndReadGeneration();
          if (r.error) reject(r.error);
          else resolve(r.generation);
        },
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort);
      this.waiters.push(waiter);
    });
  }

  check(): ReadyCheck {
    return this.checkAndReadGeneration();
  }

  checkAndReadGeneration(): ReadyCheck {
    const downtime = this.clock.now() - this.lastStateChangeTime;
    switch (this.state) {
      case 'Pending': {
        const msg = this.lastErr
          ? `storage is (re)initializing: ${this.lastErr.message}`
          : 'storage is (re)initializing';
        return { generation: 0, downtime, error: new Error(msg) };
      }
      case 'Ready':
        return { generation: this.generation, downtime };
      case 'Stopped':
        return { generation: 0, downtime, error: new Error('apiserver cacher is stopped') };
    }
  }

  setReady(): void {
    this.set(true, undefined);
  }

  setError(err: Error | undefined): void {
    this.set(false, err);
  }

  /** Pending -> Ready (generation++), Ready -> Pending; nothing once Stopped. */
  private set(ok: boolean, err: Error | undefined): void {
    if (this.state === 'Stopped') return;
    this.lastErr = err;
    if (ok && this.state === 'Pending') {
      this.state = 'Ready';
      this.generation++;
      this.lastStateChangeTime = this.clock.now();
      this.onChange?.(this);
      this.release();
    } else if (!ok && this.state === 'Ready') {
      this.state = 'Pending';
      this.lastStateChangeTime = this.clock.now();
      this.onChange?.(this);
    }
  }

  /** Irreversible. */
  stop(): void {
    if (this.state !== 'Stopped') {
      this.state = 'Stopped';
      this.lastStateChangeTime = this.clock.now();
      this.onChange?.(this);
    }
    this.release();
  }

  private release(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) {
      w.cleanup();
      w.resolve();
    }
  }
}

// ---------------------------------------------------------------- progress/watch_progress.go

/**
 * ConditionalProgressRequester: while at least one read waits for the cache to become fresh, asks
 * etcd for a progress notification every progressRequestPeriod, so that the cache's RV catches up
 * with etcd's even when no object of this resource changes.
 */
export class ConditionalProgressRequester {
  private waiting = 0;
  private stopped = false;
  private timer: ChannelTimer | undefined;
  /** cond.Signal: wakes the loop waiting for a reader. */
  private wakeLoop: (() => void) | undefined;
  /** stopCh: ends the loop's wait for the timer. */
  private stopWait: (() => void) | undefined;
  private readonly clock: Clock;
  private readonly requestWatchProgress: () => void;
  private readonly onRequest: ((waiting: number) => void) | undefined;

  constructor(
    requestWatchProgress: () => void,
    clock: Clock,
    onRequest?: (waiting: number) => void,
  ) {
    this.requestWatchProgress = requestWatchProgress;
    this.clock = clock;
    this.onRequest = onRequest;
  }

  /** Starts the loop (upstream's Run goroutine); the timer starts now, as upstream's does. */
  run(): void {
    if (this.timer || this.stopped) return;
    this.timer = new ChannelTimer(this.clock, progressRequestPeriod);
    void this.loop(this.timer);
  }

  add(): void {
    this.waiting++;
    const w = this.wakeLoop;
    this.wakeLoop = undefined;
    w?.();
  }

  remove(): void {
    this.waiting--;
  }

  /** Readers currently waiting (for tests and inspectors). */
  get waitingReaders(): number {
    return this.waiting;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.timer?.stop();
    const w = this.wakeLoop;
    this.wakeLoop = undefined;
    w?.();
    const s = this.stopWait;
    this.stopWait = undefined;
    s?.();
  }

  private async loop(timer: ChannelTimer): Promise<void> {
    for (;;) {
      while (this.waiting === 0 && !this.stopped) {
        await new Promise<void>((resolve) => {
          this.wakeLoop = resolve;
        });
      }
      if (this.stopped) return;
      // select { case <-timer.C(): … case <-stopCh: return }
      const fired = await new Promise<boolean>((resolve) => {
        const cancel = timer.c.waitRecv(() => {
          this.stopWait = undefined;
          resolve(true);
        });
        this.stopWait = () => {
          if (cancel()) resolve(false);
        };
      });
      if (!fired || this.stopped) return;
      if (!(this.waiting > 0)) {
        timer.reset(0);
        continue;
      }
      timer.reset(progressRequestPeriod);
      this.onRequest?.(this.waiting);
      this.requestWatchProgress();
    }
  }
}

// ---------------------------------------------------------------- reflector.go

export interface ReflectorOptions {
  storage: CacherStorage;
  /** lister_watcher.go's resourcePrefix: the key listed and watched (e.g. `/pods`). */
  resourcePrefix: string;
  store: ReflectorStore;
  clock: Clock;
  groupResource: GroupResource;
  /** WatchListPageSize; default storageWatchListPageSize. */
  pageSize?: number;
  flowControl?: ReflectorFlowControl;
  eventSink?: EventSink;
  /** The apiserver's request ids, for the reflector's own LISTs and WATCHes (default: its own sequence). */
  requests?: RequestContexts;
  /** klog sink (utilruntime.HandleError, warnings). */
  log?: (message: string) => void;
}

interface WatchRun {
  watch: StorageWatch;
  queue: StorageWatchEvent[];
  head: number;
  pumping: boolean;
  waitingRoom: boolean;
  done: boolean;
  eventCount: number;
  finish: (err: Error | undefined) => void;
}

/** errorStopRequested: the watch ended because the reflector was stopped. */
const errorStopRequested = new Error('stop requested');

/**
 * The cacher's reflector: lists the resource prefix page by page (a consistent list from etcd,
 * because lister_watcher.go never passes the RV on), replaces the watch cache with the result,
 * then watches from the list RV with progress notifications, feeding every event to the watch
 * cache followed by UpdateResourceVersion (which is also how etcd progress notifications reach it).
 * An ERROR event ends ListAndWatch (the cacher relists a second later); an internal error re-watches
 * from the last RV for up to 30s.
 */
export class Reflector {
  /** The RV of the last list or event (LastSyncResourceVersion). */
  lastSyncResourceVersion = '';
  private isLastSyncResourceVersionUnavailable = false;
  private readonly storage: CacherStorage;
  private readonly resourcePrefix: string;
  private readonly store: ReflectorStore;
  private readonly clock: Clock;
  private readonly groupResource: GroupResource;
  private readonly pageSize: number;
  private readonly flow: ReflectorFlowControl | undefined;
  private readonly eventSink: EventSink | undefined;
  private readonly requests: RequestContexts;
  /** The reflector's name (cacher.go: "storage/cacher.go:" + resourcePrefix): its requests' client. */
  private readonly name: string;
  private readonly log: ((message: string) => void) | undefined;
  private run: WatchRun | undefined;
  /** Clock ms until which watch events stay queued (a fault: the watch cache falls behind etcd). */
  private pausedUntilMs = -Infinity;
  private resumeTimer: Timer | undefined;
  private stopped = false;
  private stopWaiters: (() => void)[] = [];
  // retry.After / ShouldRetry state of NewRetryWithDeadline(30s, 1min, IsInternalError).
  private firstInternalErrorAt: number | undefined;
  private lastErrorAt: number | undefined;

  constructor(o: ReflectorOptions) {
    this.storage = o.storage;
    this.resourcePrefix = o.resourcePrefix;
    this.store = o.store;
    this.clock = o.clock;
    this.groupResource = o.groupResource;
    this.pageSize = o.pageSize ?? storageWatchListPageSize;
    this.flow = o.flowControl;
    this.eventSink = o.eventSink;
    this.requests = o.requests ?? new RequestContexts();
    this.name = `storage/cacher.go:${o.resourcePrefix}`;
    this.log = o.log;
  }

  /** The storage watch the reflector currently reads (progress requests go to it). */
  get currentWatch(): StorageWatch | undefined {
    return this.run?.watch;
  }

  /** Asks etcd for a progress notification on the current watch (storage.RequestWatchProgress). */
  requestWatchProgress(): void {
    this.run?.watch.requestWatchProgress();
  }

  /**
   * Holds the storage watch's events (progress notifications included) for `ms` from now, then
   * applies them in order: the watch cache falls behind etcd as it does when the apiserver is
   * starved, so consistent reads wait for freshness and WatchList waits for its bookmark. A
   * second pause ends at the later of both times.
   */
  pause(ms: number): void {
    const until = this.clock.now() + ms;
    if (until <= this.pausedUntilMs) return;
    this.pausedUntilMs = until;
    this.resumeTimer?.stop();
    this.resumeTimer = this.clock.afterFunc(ms, () => {
      this.resumeTimer = undefined;
      const r = this.run;
      if (r) this.pump(r);
    });
  }

  /** Ms until the paused events are applied (0 when not paused). */
  pausedFor(): number {
    return Math.max(0, this.pausedUntilMs - this.clock.now());
  }

  /** Storage watch events received and not yet applied to the store. */
  queuedEvents(): number {
    const r = this.run;
    return r ? r.queue.length - r.head : 0;
  }

  /** Ends the current ListAndWatch and makes later ones return at once. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.resumeTimer?.stop();
    this.resumeTimer = undefined;
    const r = this.run;
    if (r) r.finish(errorStopRequested);
    const ws = this.stopWaiters;
    this.stopWaiters = [];
    for (const w of ws) w();
  }

  /** ListAndWatch: resolves with the error that ended it (undefined: ended without one). */
  async listAndWatch(): Promise<Error | undefined> {
    if (this.stopped) return undefined;
    try {
      await this.list();
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      this.emit('list-failed', { error: statusOf(err) });
      return err;
    }
    if (this.stopped) return undefined;
    return this.watch();
  }

  /** list: the pager's pages, then Replace with the first page's RV. */
  private async list(): Promise<void> {
    let result: { items: KubeObject[]; resourceVersion: string };
    try {
      result = await this.listPages();
    } catch (e) {
      if (isResourceExpired(e) || isTooLargeResourceVersion(e)) {
        // The relist RV is unavailable: retry at once with RV "" (a consistent list).
        this.isLastSyncResourceVersionUnavailable = true;
        result = await this.listPages().catch((e2) => {
          throw wrapListError(this.groupResource, e2);
        });
      } else {
        throw wrapListError(this.groupResource, e);
      }
    }
    this.isLastSyncResourceVersionUnavailable = false;
    this.store.replace(result.items, result.resourceVersion);
    this.lastSyncResourceVersion = result.resourceVersion;
    this.emit('listed', {
      resourceVersion: Number(result.resourceVersion),
      items: result.items.length,
    });
  }

  /** pager.List with FullListIfExpired: pages of pageSize; an expired continue falls back to one full list. */
  private async listPages(): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    const items: KubeObject[] = [];
    let cont = '';
    let resourceVersion = '';
    let pages = 0;
    for (;;) {
      if (this.stopped) throw errorStopRequested;
      let page: ListResult;
      const ctx = this.listContext(this.pageSize, cont);
      try {
        page = await this.storage.getList(
          this.resourcePrefix,
          this.listOptions(this.pageSize, cont),
          ctx,
        );
      } catch (e) {
        if (!isResourceExpired(e) || cont === '') throw e;
        // The list expired while paging: one full list at the requested RV.
        const fullCtx = this.listContext(0, '');
        const full = await this.storage.getList(
          this.resourcePrefix,
          this.listOptions(0, ''),
          fullCtx,
        );
        this.emit('list-page', {
          requestId: fullCtx.requestId,
          resourceVersion: Number(full.resourceVersion),
          items: full.items.length,
          pages: pages + 1,
        });
        return { items: full.items, resourceVersion: full.resourceVersion };
      }
      pages++;
      if (resourceVersion === '') resourceVersion = page.resourceVersion;
      for (const it of page.items) items.push(it);
      this.emit('list-page', {
        requestId: ctx.requestId,
        resourceVersion: Number(page.resourceVersion),
        items: page.items.length,
        pages,
      });
      if (!page.continue) return { items, resourceVersion };
      cont = page.continue;
    }
  }

  /** The request one page of the list is: what client-go's pager would send. */
  private listContext(limit: number, cont: string): RequestContext {
    const path = requestPath(
      this.groupResource,
      undefined,
      { limit: limit || undefined, continue: cont },
      false,
    );
    return this.requests.newContext(this.name, 'GET', path);
  }

  private listOptions(limit: number, cont: string): ListOptions {
    // lister_watcher.go: everything, paged; the RV is not passed on (a consistent list).
    return newListOptions({
      recursive: true,
      predicate: new SelectionPredicate({ limit, continue: cont }),
    });
  }

  /** watch: (re)starts the storage watch from the last sync RV until an exit condition. */
  private async watch(): Promise<Error | undefined> {
    for (;;) {
      if (this.stopped) return undefined;
      let w: StorageWatch;
      const ctx = this.requests.newContext(
        this.name,
        'GET',
        requestPath(
          this.groupResource,
          undefined,
          { resourceVersion: this.lastSyncResourceVersion, allowWatchBookmarks: true },
          true,
        ),
      );
      try {
        w = await this.storage.watch(
          this.resourcePrefix,
          {
            resourceVersion: this.lastSyncResourceVersion,
            recursive: true,
            progressNotify: true,
            allowWatchBookmarks: true,
            predicate: new SelectionPredicate({ allowWatchBookmarks: true }),
          },
          ctx,
        );
      } catch (e) {
        // isWatchErrorRetriable (connection refused, 429) is not modelled by the storage: fail.
        const err = e instanceof Error ? e : new Error(String(e));
        this.emit('watch-ended', { requestId: ctx.requestId, error: statusOf(err) });
        return err;
      }
      if (this.stopped) {
        w.stop();
        return undefined;
      }
      this.emit('watching', {
        requestId: ctx.requestId,
        resourceVersion: Number(this.lastSyncResourceVersion || '0'),
      });
      const err = await this.handleWatch(w);
      this.afterWatchError(err);
      if (err === undefined) continue; // closed without error: watch again from the last RV
      if (err === errorStopRequested) return undefined;
      this.emit('watch-ended', {
        requestId: ctx.requestId,
        error: statusOf(err),
        resourceVersion: Number(this.lastSyncResourceVersion || '0'),
      });
      if (isResourceExpired(err)) return undefined; // relist
      if (isTooManyRequests(err)) {
        await this.sleep(1000);
        continue;
      }
      if (isInternalErrorStatus(err) && this.shouldRetry()) continue;
      this.log?.(`Warning: watch ended with error: ${err.message}`);
      return undefined;
    }
  }

  /** handleWatch: feeds events to the store until an ERROR event or a stop. */
  private handleWatch(w: StorageWatch): Promise<Error | undefined> {
    return new Promise<Error | undefined>((resolve) => {
      const run: WatchRun = {
        watch: w,
        queue: [],
        head: 0,
        pumping: false,
        waitingRoom: false,
        done: false,
        eventCount: 0,
        finish: (err) => {
          if (run.done) return;
          run.done = true;
          if (this.run === run) this.run = undefined;
          w.stop();
          resolve(err);
        },
      };
      this.run = run;
      w.onEvent((e) => {
        if (run.done) return;
        run.queue.push(e);
        this.pump(run);
      });
    });
  }

  private pump(run: WatchRun): void {
    if (run.pumping) return;
    run.pumping = true;
    try {
      while (!run.done && run.head < run.queue.length) {
        if (this.clock.now() < this.pausedUntilMs) return; // the resume timer pumps again
        if (this.flow?.blocked()) {
          if (!run.waitingRoom) {
            run.waitingRoom = true;
            this.flow.onUnblocked(() => {
              run.waitingRoom = false;
              this.pump(run);
            });
          }
          return;
        }
        const e = run.queue[run.head++];
        if (run.head === run.queue.length) {
          run.queue.length = 0;
          run.head = 0;
        }
        this.handleEvent(run, e);
      }
    } finally {
      run.pumping = false;
    }
  }

  /** One event of handleAnyWatch. */
  private handleEvent(run: WatchRun, e: StorageWatchEvent): void {
    if (e.type === 'ERROR') {
      // apierrors.FromObject: a Status becomes its StatusError; anything else is unexpected.
      const o = e.object as Partial<Status> | undefined;
      const isStatus =
        o !== undefined && o !== null && (o.kind === 'Status' || typeof o.code === 'number');
      run.finish(
        isStatus
          ? new StatusError(o as Status)
          : new Error(`unexpected object: ${JSON.stringify(e.object)}`),
      );
      return;
    }
    const obj = e.object as KubeObject;
    const rv = obj.metadata?.resourceVersion ?? '';
    try {
      switch (e.type) {
        case 'ADDED':
          this.store.add(obj);
          break;
        case 'MODIFIED':
          this.store.update(obj);
          break;
        case 'DELETED':
          this.store.delete(obj);
          break;
        case 'BOOKMARK':
          // A bookmark means the watch has synced here: only the RV moves (below).
          break;
      }
    } catch (err) {
      this.log?.(`Unable to apply ${e.type} watch event to store: ${(err as Error).message}`);
    }
    run.eventCount++;
    // The watch started at a known RV (not "" or "0"), so the RV propagates after every event.
    this.lastSyncResourceVersion = rv;
    this.store.updateResourceVersion(rv);
  }

  private afterWatchError(err: Error | undefined): void {
    const now = this.clock.now();
    if (err !== undefined && isInternalErrorStatus(err)) {
      if (
        this.firstInternalErrorAt === undefined ||
        (this.lastErrorAt !== undefined && now - this.lastErrorAt > 60_000)
      ) {
        this.firstInternalErrorAt = now;
      }
      this.lastErrorAt = now;
    } else if (err === undefined) {
      this.firstInternalErrorAt = undefined;
    }
  }

  private shouldRetry(): boolean {
    if (this.firstInternalErrorAt === undefined) return false;
    return this.clock.now() - this.firstInternalErrorAt < maxInternalErrorRetryDuration;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = this.clock.afterFunc(ms, done);
      this.stopWaiters.push(done);
      function done(): void {
        t.stop();
        resolve();
      }
    });
  }

  private emit(
    phase: 'list-page' | 'listed' | 'watching' | 'watch-ended' | 'list-failed',
    extra: {
      requestId?: number;
      resourceVersion?: number;
      items?: number;
      pages?: number;
      error?: { code: number; message: string };
    },
  ): void {
    const insp = activeSink(this.eventSink);
    if (!insp) return;
    insp.emit({
      type: 'cacher/reflector',
      at: this.clock.now(),
      groupResource: this.groupResource,
      phase,
      ...extra,
    });
  }

  /** Whether the next list should skip the last sync RV (it was unavailable). */
  get lastSyncResourceVersionUnavailable(): boolean {
    return this.isLastSyncResourceVersionUnavailable;
  }
}

function wrapListError(gr: GroupResource, e: unknown): Error {
  const msg = e instanceof Error ? e.message : String(e);
  const err = new Error(`failed to list ${groupResourceString(gr)}: ${msg}`);
  (err as Error & { cause?: unknown }).cause = e;
  return err;
}

function isInternalErrorStatus(err: unknown): boolean {
  return err instanceof StatusError && isInternalError(err);
}

/** A Status summary {code, message} for engine events. */
export function statusOf(err: unknown): { code: number; message: string } {
  const s = errorToAPIStatus(err);
  return { code: s.code ?? 500, message: s.message ?? '' };
}
