// No upstream counterpart: the run context a scenario works in. It owns the virtual clock and the
// seeded randomness and the apiserver's request ids, hands the engine an inspector that records
// every event, records the scenario's own inputs (writes, lists, watches, each with its request
// id) in the same stream, and lets modelled clients list and watch while it notes what they got.
// Cancellation is checked between steps.
import {
  encodeStoredObject,
  FakeClock,
  settle,
  createResource,
  type CreateResourceOptions,
  type OpenedWatch,
  type Resource,
  type ResourceListRequest,
  type ResourceWatchRequest,
  profile136,
  profile137Preview,
  type SemanticsProfile,
  type ReadRate,
  isZeroLatency,
  zeroLatency,
  type LatencyModel,
  MemoryEtcd,
  type MemoryEtcdOptions,
  type ListResult,
  type EventSink,
  type EngineEvent,
  SeededRandom,
  RequestContexts,
  WatcherIds,
  requestPath,
  StatusError,
  errorToAPIStatus,
  type Status,
  makePod,
} from '../engine';
import type { LoggedAnswer } from '../run/run-model';
import type {
  ClientError,
  ScenarioInput,
  TraceRecord,
  WatcherFinal,
} from '../run/trace/trace-format';
import { RunSampler } from './run-sampler';

/** Thrown (as an AbortError) when the run's signal aborts it. */
export class ScenarioAbortedError extends Error {
  constructor(scenario: string, atMs: number) {
    super(`scenario ${scenario} cancelled at virtual ${(atMs / 1000).toFixed(1)} s`);
    this.name = 'AbortError';
  }
}

/**
 * Thrown between steps when the runner asked the run to stop early (its trace reached its cap):
 * the run ends there and what it did so far is kept.
 */
export class ScenarioStoppedError extends Error {
  constructor(
    scenario: string,
    readonly atMs: number,
    readonly reason: string,
  ) {
    super(`scenario ${scenario} stopped at virtual ${(atMs / 1000).toFixed(1)} s: ${reason}`);
    this.name = 'ScenarioStoppedError';
  }
}

export interface ScenarioRunOptions {
  scenario: string;
  seed: number;
  /** '1.36' or '1.37'. */
  profile: string;
  /** Every record of the run, in order (inputs, events, final metrics). */
  onRecord: (r: TraceRecord) => void;
  onProgress?: (fraction: number, message: string) => void;
  signal?: AbortSignal;
  /** Awaited between steps of virtual time (see RunScenarioOptions.yieldToHost). */
  yieldToHost?: () => Promise<void>;
  /** The cacher's fast paths (CacheOptions.fastPaths) in every resource; default true. */
  fastPaths?: boolean;
  /** The virtual time etcd requests take (default none). */
  etcdLatency?: LatencyModel;
  /** Asked between steps: a reason stops the run there (ScenarioStoppedError). */
  stopReason?: () => string | undefined;
}

/** What the engine answered a request, as a replay compares it with a log (list-end's figures). */
export interface EngineAnswer {
  status: number;
  items: number;
  continue: string;
  remainingItemCount?: number;
  error?: ClientError;
  /** A LIST's time to answer in the run's virtual time (a freshness wait, etcd's latency). */
  latencyMs?: number;
}

/** An imported request's log answer beside the engine's, for its trace input. */
export interface AnswerComparison {
  logged?: LoggedAnswer;
  disagrees?: string[];
}

/** A replayed watch's comparisons: when it is answered, and when its handler returns. */
export interface WatchComparison {
  opened(answer: EngineAnswer): AnswerComparison;
  closed(atMs: number): AnswerComparison;
}

/** A modelled client's watch, as the scenario keeps it. */
export interface ClientWatch {
  client: string;
  opened: OpenedWatch | undefined;
  /** The error the server answered with (an HTTP error or the single ERROR event). */
  error: ClientError | undefined;
  resource: Resource;
}

export function semanticsProfile(name: string): SemanticsProfile {
  return name === '1.37' ? profile137Preview : profile136;
}

export function readRateText(r: ReadRate | undefined): string {
  if (!r || r.kind === 'fast') return 'fast';
  return r.kind === 'slow' ? `${r.eventsPerSecond}/s` : 'stalled';
}

function clientError(status: Status): ClientError {
  return { code: status.code ?? 500, reason: status.reason ?? '', message: status.message ?? '' };
}

function errorOf(e: unknown): ClientError {
  if (e instanceof StatusError) return clientError(e.status);
  return clientError(errorToAPIStatus(e));
}

export class ScenarioRun {
  readonly clock = new FakeClock(0);
  readonly rand: SeededRandom;
  readonly profile: SemanticsProfile;
  readonly scenario: string;
  readonly eventSink: EventSink;
  /** The apiserver's request ids: every resource of the run shares them, so an id is unique in the trace. */
  readonly requests = new RequestContexts();
  /** The watcher ids: every resource of the run (and a restarted cacher) shares them, as the requests'. */
  readonly watcherIds = new WatcherIds();
  readonly resources: Resource[] = [];
  readonly watches: ClientWatch[] = [];
  private readonly onRecord: (r: TraceRecord) => void;
  private readonly onProgress: ((fraction: number, message: string) => void) | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly yieldToHost: (() => Promise<void>) | undefined;
  private readonly fastPaths: boolean;
  private readonly etcdLatency: LatencyModel;
  private readonly stopReason: (() => string | undefined) | undefined;
  private lastFraction = -1;
  private lastMessage = '';
  private listSeq = 0;
  private readonly sampler: RunSampler;

  constructor(o: ScenarioRunOptions) {
    this.scenario = o.scenario;
    this.rand = new SeededRandom(o.seed);
    this.profile = semanticsProfile(o.profile);
    const sampler = new RunSampler(this.watches, this.resources, o.onRecord);
    this.sampler = sampler;
    this.onRecord = (r) => {
      sampler.note(r);
      o.onRecord(r);
    };
    this.clock.onInstantEnd = (at, next) => sampler.instantEnded(at, next);
    this.onProgress = o.onProgress;
    this.signal = o.signal;
    this.yieldToHost = o.yieldToHost;
    this.fastPaths = o.fastPaths ?? true;
    this.etcdLatency = o.etcdLatency ?? zeroLatency;
    this.stopReason = o.stopReason;
    const record = this.onRecord;
    this.eventSink = {
      listening: true,
      emit: (event: EngineEvent) => record({ kind: 'event', event }),
    };
  }

  /** The options of an in-memory etcd on this run's clock that takes this run's etcd latency. */
  etcdOptions(): MemoryEtcdOptions {
    return { clock: this.clock, ...this.latencyOptions() };
  }

  private latencyOptions(): Pick<MemoryEtcdOptions, 'latency' | 'simulateLatency'> {
    return { latency: this.etcdLatency, simulateLatency: !isZeroLatency(this.etcdLatency) };
  }

  /** A resource (etcd + store + cacher + delegator) on this run's clock, randomness and inspector. */
  createResource(o: Partial<CreateResourceOptions> = {}): Resource {
    const r = createResource({
      profile: this.profile,
      ...o,
      cache: { ...o.cache, fastPaths: this.fastPaths },
      etcd: o.etcd instanceof MemoryEtcd ? o.etcd : { ...this.latencyOptions(), ...o.etcd },
      clock: this.clock,
      rand: this.rand,
      eventSink: this.eventSink,
      requests: this.requests,
      watcherIds: this.watcherIds,
    });
    this.resources.push(r);
    return r;
  }

  /** Records one scenario action at the current virtual time. */
  input(input: ScenarioInput): void {
    this.onRecord({ kind: 'input', at: this.clock.now(), ...input });
  }

  phase(name: string, text: string): void {
    this.input({ action: 'phase', name, text });
  }

  /** Throws if the run was cancelled, or asked to stop. */
  checkAborted(): void {
    if (this.signal?.aborted) throw new ScenarioAbortedError(this.scenario, this.clock.now());
    const reason = this.stopReason?.();
    if (reason !== undefined)
      throw new ScenarioStoppedError(this.scenario, this.clock.now(), reason);
  }

  /** Reports progress (at most once per percent, or when the message changes). */
  progress(fraction: number, message: string): void {
    if (!this.onProgress) return;
    const f = Math.max(0, Math.min(1, fraction));
    if (f - this.lastFraction < 0.01 && message === this.lastMessage) return;
    this.lastFraction = f;
    this.lastMessage = message;
    this.onProgress(f, message);
  }

  /** Lets work queued at the current instant run (timers due now, promise continuations). Main flow only. */
  async settle(): Promise<void> {
    for (let i = 0; i < 3; i++) await this.clock.stepAsync(0);
  }

  /**
   * Moves virtual time forward by `ms`, in steps of at most `chunkMs`, firing every timer due on
   * the way; checks for cancellation between steps.
   */
  async advance(ms: number, chunkMs = 1000): Promise<void> {
    const end = this.clock.now() + ms;
    while (this.clock.now() < end) {
      if (this.yieldToHost) await this.yieldToHost();
      this.checkAborted();
      await this.clock.advanceToAsync(Math.min(end, this.clock.now() + chunkMs));
    }
    this.checkAborted();
  }

  /**
   * Awaits `p`, something the main flow waits for (a request, the cache's readiness), moving
   * virtual time from one due timer to the next while it is pending: etcd answers after its
   * modelled latency, and only the main flow moves the clock. Work that needs no virtual time
   * finishes before the clock moves (it has 1,000 microtask turns), so with no latency a run is
   * the same as with a plain await.
   */
  async drive<T>(p: Promise<T>): Promise<T> {
    let done = false;
    const mark = (): void => {
      done = true;
    };
    p.then(mark, mark);
    for (;;) {
      for (let i = 0; i < 1000 && !done; i++) await Promise.resolve();
      const due = this.clock.nextDue();
      // Nothing can move it: wait as a plain await would.
      if (done || due === undefined) return p;
      if (this.yieldToHost) await this.yieldToHost();
      this.checkAborted();
      await this.clock.advanceToAsync(due);
    }
  }

  /** Moves virtual time to `t` (never back). */
  async advanceTo(t: number, chunkMs = 1000): Promise<void> {
    if (t > this.clock.now()) await this.advance(t - this.clock.now(), chunkMs);
  }

  // ------------------------------------------------------------ writes

  /**
   * Writes `count` pods straight into etcd (before or beside the apiserver: no request is made
   * through the store), recorded as one input. Returns etcd's revision after the last one.
   */
  seedPods(
    resource: Resource,
    count: number,
    o: {
      namespace?: string;
      name: (i: number) => string;
      labels?: (i: number) => Record<string, string>;
    },
  ): number {
    const ns = o.namespace ?? 'default';
    let rev = resource.etcd.currentRevision();
    for (let i = 0; i < count; i++) {
      const name = o.name(i);
      const pod = makePod({ name, namespace: ns, labels: o.labels?.(i) });
      rev = resource.etcd.put(
        resource.store.prepareKey(resource.objectKey(ns, name), false),
        encodeStoredObject(pod),
      );
    }
    this.input({
      action: 'seed',
      objects: count,
      keyPrefix: resource.store.prepareKey(resource.collectionKey(ns), true),
      revision: rev,
      text: `${count} pods written straight into etcd`,
    });
    return rev;
  }

  // ------------------------------------------------------------ modelled clients

  /**
   * A LIST by `client`, through the delegator (as the registry sends it) or straight to the etcd3
   * store; the request (with its id) and its outcome are recorded. Never throws for an API error:
   * it is the outcome.
   */
  async list(
    resource: Resource,
    req: ResourceListRequest,
    via: 'delegator' | 'store',
    client: string,
    compare?: (answer: EngineAnswer) => AnswerComparison,
  ): Promise<{ id: string; result?: ListResult; error?: ClientError }> {
    this.checkAborted();
    const id = `list-${++this.listSeq}`;
    const ctx = resource.listContext(req, client);
    const requestId = ctx.requestId;
    this.input({
      action: 'list',
      id,
      requestId,
      request: requestPath(resource.groupResource, req.namespace, req, false),
      via,
      client,
    });
    const startedAt = this.clock.now();
    try {
      const result =
        via === 'delegator'
          ? await resource.list(req, ctx)
          : await resource.store.getList(
              resource.collectionKey(req.namespace),
              resource.listOptionsOf(req),
              ctx,
            );
      const answer: EngineAnswer = {
        status: 200,
        items: result.items.length,
        continue: result.continue ?? '',
        ...(result.remainingItemCount !== undefined
          ? { remainingItemCount: result.remainingItemCount }
          : {}),
        latencyMs: this.clock.now() - startedAt,
      };
      this.input({
        action: 'list-end',
        id,
        requestId,
        status: 200,
        items: result.items.length,
        resourceVersion: result.resourceVersion,
        continue: result.continue ?? '',
        ...(result.remainingItemCount !== undefined
          ? { remainingItemCount: result.remainingItemCount }
          : {}),
        ...compare?.(answer),
      });
      return { id, result };
    } catch (e) {
      const error = errorOf(e);
      this.input({
        action: 'list-end',
        id,
        requestId,
        status: error.code,
        items: 0,
        resourceVersion: '',
        continue: '',
        error,
        ...compare?.({
          status: error.code,
          items: 0,
          continue: '',
          error,
          latencyMs: this.clock.now() - startedAt,
        }),
      });
      return { id, error };
    }
  }

  /**
   * A WATCH by a modelled client: the request, the answer (a watcher id or an error) and the
   * handler's return are recorded; the client's last RV is tracked for the final report.
   */
  async watch(
    resource: Resource,
    client: string,
    req: ResourceWatchRequest,
    compare?: WatchComparison,
  ): Promise<ClientWatch> {
    this.checkAborted();
    const cw: ClientWatch = { client, opened: undefined, error: undefined, resource };
    const ctx = resource.watchContext(req, client);
    const requestId = ctx.requestId;
    this.input({
      action: 'watch',
      client,
      requestId,
      request: requestPath(resource.groupResource, req.namespace, req, true),
      ...(req.contentType !== undefined ? { contentType: req.contentType } : {}),
      readRate: readRateText(req.readRate),
    });
    const userOnClose = req.onClose;
    /** Answered with a stream that stays open (a cacher's watcher, or the etcd3 store's watch). */
    let started = false;
    let opened: OpenedWatch;
    try {
      // No callback per event: the client keeps its newest RV and first ERROR itself, so a fast
      // one lets the watcher deliver in place.
      opened = await resource.watch(
        {
          keepEvents: false,
          ...req,
          onClose: (reason, at) => {
            if (cw.opened !== undefined && cw.error === undefined && started) {
              this.input({
                action: 'watch-closed',
                client,
                requestId,
                ...(cw.opened.watcherId !== undefined ? { watcherId: cw.opened.watcherId } : {}),
                reason,
                received: cw.opened.client.received,
                ...compare?.closed(at),
              });
            }
            userOnClose?.(reason, at);
          },
        },
        ctx,
      );
    } catch (e) {
      cw.error = errorOf(e);
      this.input({
        action: 'watch-opened',
        client,
        requestId,
        error: cw.error,
        ...compare?.opened({ status: cw.error.code, items: 0, continue: '', error: cw.error }),
      });
      this.watches.push(cw);
      return cw;
    }
    cw.opened = opened;
    if (opened.watcherId === undefined) {
      // An error watcher: its single ERROR event is read at once (or the stream closed at once).
      // Or the etcd3 store's watch of a resource without a watch cache (events): an open stream,
      // unless etcd refused its start at once (a compacted revision: the ERROR event of
      // interpretWatchError's 410). Only promise continuations run here: this may be one of
      // several concurrent clients, and only the scenario's main flow moves the clock.
      await settle();
      const status = opened.client.firstError as unknown as Status | undefined;
      if (status === undefined && !opened.client.closed) {
        started = true;
        this.input({
          action: 'watch-opened',
          client,
          requestId,
          ...compare?.opened({ status: 200, items: 0, continue: '' }),
        });
        this.watches.push(cw);
        return cw;
      }
      cw.error =
        status !== undefined
          ? clientError(status)
          : {
              code: 0,
              reason: '',
              message: 'the watch closed at once (registered while the cache was unready)',
            };
      this.input({
        action: 'watch-opened',
        client,
        requestId,
        error: cw.error,
        // The error watcher's ERROR event, in a 200 stream.
        ...(status !== undefined ? { inStream: true as const } : {}),
        ...compare?.opened({ status: cw.error.code, items: 0, continue: '', error: cw.error }),
      });
    } else {
      started = true;
      this.input({
        action: 'watch-opened',
        client,
        requestId,
        watcherId: opened.watcherId,
        ...compare?.opened({ status: 200, items: 0, continue: '' }),
      });
    }
    this.watches.push(cw);
    return cw;
  }

  /** Changes how fast a client reads. */
  setReadRate(w: ClientWatch, rate: ReadRate): void {
    if (!w.opened) return;
    this.input({
      action: 'read-rate',
      client: w.client,
      requestId: w.opened.request.requestId,
      readRate: readRateText(rate),
    });
    w.opened.client.setReadRate(rate);
  }

  // ------------------------------------------------------------ the end of a run

  /** Emits what is still aggregated, then the final metrics and per-watcher gauges. */
  finish(): void {
    for (const r of this.resources) r.flushEvents();
    const at = this.clock.now();
    this.sampler.finish(at);
    const samples: Record<string, number> = {};
    const texts: string[] = [];
    const seen = new Set<unknown>();
    for (const r of this.resources) {
      if (seen.has(r.metrics)) continue;
      seen.add(r.metrics);
      Object.assign(samples, r.metrics.samples());
      texts.push(r.metrics.text());
    }
    const sorted: Record<string, number> = {};
    for (const k of Object.keys(samples).sort()) sorted[k] = samples[k];
    this.onRecord({
      kind: 'metrics',
      scope: 'resource',
      at,
      samples: sorted,
      text: texts.join(''),
    });
    const buckets = new Map<Resource, Map<string, number>>();
    for (const w of this.watches) {
      const o = w.opened;
      if (!o || o.watcherId === undefined) continue;
      let byId = buckets.get(w.resource);
      if (!byId) {
        byId = new Map();
        const b = w.resource.cacher.bookmarkWatchers;
        for (const [bucketId, ws] of b.watchersBuckets) {
          for (const cw of ws)
            if (!cw.stopped) byId.set(String(cw.id), (b.createTime + bucketId * 1000) / 1000);
        }
        buckets.set(w.resource, byId);
      }
      const watcher = o.watcher as { input?: { len(): number; capacity: number } };
      const final: WatcherFinal = {
        id: String(o.watcherId),
        client: w.client,
        received: o.client.received,
        lastRv: o.client.lastResourceVersion,
        bufferFill: watcher.input ? watcher.input.len() : 0,
        bufferCapacity: watcher.input ? watcher.input.capacity : 0,
      };
      const next = byId.get(final.id);
      if (next !== undefined && !o.client.closed) final.nextBookmarkSecond = next;
      this.onRecord({ kind: 'metrics', scope: 'watcher', at, watcher: final });
    }
  }

  /** Stops every resource (every watch ends); safe to call twice. */
  stop(): void {
    for (const r of this.resources) {
      try {
        r.stop();
      } catch {
        // Stopping is best effort at the end of a run.
      }
    }
  }
}
