// No upstream counterpart: explains one LIST or WATCH by running it. The request goes through the
// handler's listOpts (get.go, src/request/list-query.ts) and then into a freshly built engine in
// the assumed ClusterState (engine-in-state.ts); the answer is read from the engine events the
// request causes (the delegator's decision and rule, etcd ranges, list pages, freshness waits,
// the cacher's watch and its errors). No rule is decided here: where the answer depends on the
// state, the request is run again in the states that change it (possibleErrors, mayWait).
import {
  type OpenedWatch,
  type Resource,
  type FeatureName,
  type ProfileVersion,
  type SemanticsProfile,
  isProfileVersion,
  profiles,
  profileVersions,
  withGates,
  type CacheListEvent,
  type DelegationDecisionEvent,
  type DelegationFallbackEvent,
  type EngineEvent,
  type ListDoneEvent,
  decodeContinue,
  StatusError,
  type Status,
  type FakeClock,
  statusOf,
} from '../engine';
import { newGenericNotFound } from '../engine/http-face';
import { delegationRuleText } from '../run/delegation-rule-text';
import { builtinGroupRows, resourceStorage, resourceStorageRow } from '../request/resource-storage';
import {
  customResourceFieldLabelConversion,
  listOpts,
  toResourceListRequest,
  toResourceWatchRequest,
  type InternalListOptions,
} from '../request/list-query';
import { ClusterStateError, formatClusterState, type ClusterState } from './cluster-state';
import { engineInState, resolveClusterState, type EngineTarget } from './engine-in-state';
import { profileAssumptions } from './profile-assumptions';
import {
  ExplainInputError,
  requestTarget,
  type RequestTarget,
  type ServedResource,
} from './request-target';

/** The most objects an explanation writes into its etcd (each explanation builds its own). */
export const maxExplainObjects = 100_000;

/** Objects written for the runs that only look for errors (their messages do not depend on the count). */
const possibleErrorObjects = 100;

/** How long (virtual ms) a request is driven before the explainer stops waiting for it. */
const requestHorizonMs = 60_000;

export interface ExplainOptions {
  /**
   * Semantics: release-1.36 (default), master's 1.37 preview, or 1.33-1.35's gate defaults on the
   * 1.36 code.
   */
  profile?: ProfileVersion;
  /** Gates set on top of the profile's defaults (withGates: unknown or locked ones are refused). */
  gates?: Partial<Record<FeatureName, boolean>>;
  /** Objects of the resource in etcd (default 0; at most maxExplainObjects). */
  objects?: number;
  /** Fraction of the objects the request's selectors match (default 1). */
  matchRatio?: number;
  /** The cluster state; every key left out takes its documented default. */
  state?: Partial<ClusterState>;
  /** Also run the states that make the request fail (default true). */
  possibleErrors?: boolean;
}

export interface EtcdCall {
  operation: string;
  key: string;
  rangeEnd?: string;
  /** 0 = no limit. */
  limit: number;
  /** 0 = the latest revision. */
  revision: number;
  returnedKeys: number;
  /** etcd's More: keys beyond the limit remain in the range. */
  more: boolean;
  error?: string;
}

export interface PossibleError {
  code: number;
  reason?: string;
  message: string;
  /** The state it was met in (only the keys that differ from the assumed state). */
  state: Partial<ClusterState>;
  /** The state in words. */
  when: string;
}

export interface WatchExplanation {
  /**
   * Watches are served by the cacher from the watch cache, or by the etcd3 store for a resource
   * without one; `none` when the watch failed.
   */
  startsFrom: 'cache' | 'etcd' | 'none';
  sendInitialEvents: boolean | null;
  allowWatchBookmarks: boolean;
  /** The RV the cache had to reach before the watch started (etcd's current revision for a consistent start). */
  requiredResourceVersion?: number;
  initialEvents: number;
  /** The `k8s.io/initial-events-end` bookmark closed the initial events. */
  initialEventsEndBookmark: boolean;
}

export interface RequestExplanation {
  url: string;
  kind: 'list' | 'watch';
  profile: ProfileVersion;
  /** The gates set on top of the profile (only when some were given). */
  gates?: Partial<Record<FeatureName, boolean>>;
  resource: { group: string; version: string; resource: string; namespace: string };
  /** Who serves the resource: built in, a CRD explain assumes, or none (404). */
  servedResource: ServedResource;
  servedBy: 'cache' | 'cache-snapshot' | 'etcd' | 'error';
  /** The resource has a watch cache (false: every LIST and WATCH goes to etcd; see the rule). */
  watchCache: boolean;
  /** The delegation rule that decided, in upstream's words. */
  rule: string;
  /** The inspector's rule id (DelegationRule), when the delegator decided. */
  ruleId?: string;
  /** The limit the client sent; null when none. */
  limit: number | null;
  limitHonoured: boolean | null;
  consistentRead: boolean;
  /** The request may wait up to 3 s (blockTimeout) for the watch cache to catch up. */
  mayWait: boolean;
  /** Virtual ms the request waited in the assumed state. */
  waitedMs: number;
  errorCode?: number;
  reason?: string;
  message?: string;
  /** The cache's answer failed and etcd was asked instead (or, with the 1.37 gate, was not). */
  fallback?: { reason: string; toEtcd: boolean };
  etcdCalls: EtcdCall[];
  /** Keys read from etcd or the cache, and items returned (when objects were given). */
  fetched?: number;
  returned?: number;
  resourceVersion?: string;
  continue?: string;
  watch?: WatchExplanation;
  assumed: ClusterState;
  objects: number;
  matchRatio: number;
  /** Objects of the resource the selectors match. */
  matchingObjects: number;
  notes: string[];
  /**
   * What is assumed about the code (a release run on 1.36's code, a gate the release lacks, known
   * code differences); only when there is something to say.
   */
  assumptions?: string[];
  possibleErrors: PossibleError[];
}

export { ExplainInputError, ClusterStateError };

/** Explains `url` (a full URL or a path with its query) under `options`. */
export async function explainRequest(
  url: string,
  options: ExplainOptions = {},
): Promise<RequestExplanation> {
  const target = requestTarget(url);
  const profile = options.profile ?? '1.36';
  if (!isProfileVersion(profile))
    throw new ExplainInputError(
      `profile ${JSON.stringify(profile)}: expected one of ${profileVersions.join(', ')}`,
    );
  const overrides = options.gates ?? {};
  // Throws FeatureGateError with component-base's message for an unknown or locked gate.
  const semantics = withGates(profiles[profile], overrides);
  const objects = options.objects ?? 0;
  if (!Number.isSafeInteger(objects) || objects < 0 || objects > maxExplainObjects)
    throw new ExplainInputError(
      `objects ${JSON.stringify(objects)}: expected a whole number from 0 to ${maxExplainObjects}`,
    );
  const matchRatio = options.matchRatio ?? 1;
  if (!(typeof matchRatio === 'number' && matchRatio >= 0 && matchRatio <= 1))
    throw new ExplainInputError(
      `match ratio ${JSON.stringify(matchRatio)}: expected a fraction from 0 to 1, e.g. 0.01`,
    );
  const request = new ExplainedRequest(target, profile, semantics, objects, matchRatio);
  const given = options.state ?? {};
  const assumed = resolveClusterState(given, request.stateInputs(objects));
  const assumptions = profileAssumptions(profiles[profile], overrides, request.assumedRequest());
  const withProfile = (a: RequestExplanation): RequestExplanation => {
    if (Object.keys(overrides).length > 0) a.gates = { ...overrides };
    if (assumptions.length > 0) a.assumptions = assumptions;
    return a;
  };
  // kube-apiserver routes the path before anything else: no handler, no storage, whatever the state.
  if (target.served === 'none')
    return withProfile(unknownResourceAnswer(target, profile, assumed, request));
  const run = await request.run(assumed, objects);
  const answer = withProfile(request.answer(run, assumed));
  if (options.possibleErrors ?? true) {
    answer.mayWait = run.waited || (await request.waitsWhenCacheLags(assumed));
    answer.possibleErrors = await request.possibleErrors(given, answer);
  } else {
    answer.mayWait = run.waited;
  }
  return answer;
}

/** One run of the request in one state: the events it caused and how it ended. */
interface RequestRun {
  events: EngineEvent[];
  error?: { code: number; reason?: string; message: string };
  /** Rejected by the handler (get.go listOpts) before storage was asked. */
  rejectedByHandler: boolean;
  waited: boolean;
  waitedMs: number;
  resourceVersion?: string;
  continue?: string;
  items?: number;
  watch?: OpenedWatch;
  matchingObjects: number;
  notes: string[];
}

/** Why a resource without a watch cache is served by etcd (its registry storage has no cacher). */
const noWatchCacheRule =
  'no watch cache (kube-apiserver DefaultWatchCacheSizes sets it to 0): the registry storage is undecorated, every LIST and WATCH goes to etcd';

class ExplainedRequest {
  /** The resource has a watch cache (resource-storage.ts). */
  private readonly watchCache: boolean;
  private readonly handlerOptions: InternalListOptions | undefined;
  private readonly handlerError: { code: number; reason?: string; message: string } | undefined;

  constructor(
    readonly target: RequestTarget,
    readonly profile: ProfileVersion,
    /** The gates and code the engine runs. */
    readonly semantics: SemanticsProfile,
    readonly objects: number,
    readonly matchRatio: number,
  ) {
    const t = target;
    this.watchCache = resourceStorage(t.groupResource).watchCache;
    try {
      this.handlerOptions = listOpts(t.query, {
        resource: t.groupResource.resource,
        convertFieldLabel: t.custom ? customResourceFieldLabelConversion(false) : undefined,
        name: t.info.name || undefined,
        // Off in 1.33: sendInitialEvents is refused and RV ""/"0" watches are not defaulted to it.
        watchList: semantics.gates.WatchList,
      });
    } catch (e) {
      this.handlerError = errorOf(e);
    }
  }

  /** The RV the request names: resourceVersion, or the continue token's. */
  requestRV(): number {
    const o = this.handlerOptions;
    if (!o) return 0;
    if (/^\d+$/.test(o.resourceVersion)) return Number(o.resourceVersion);
    if (o.continue) {
      try {
        const prefix = `/registry${this.target.resourcePrefix}/${this.target.info.namespace ? `${this.target.info.namespace}/` : ''}`;
        return Math.max(0, Number(decodeContinue(o.continue, prefix).resourceVersion));
      } catch {
        return 0;
      }
    }
    return 0;
  }

  stateInputs(objects: number): { profile: ProfileVersion; objects: number; requestRV: number } {
    return { profile: this.profile, objects, requestRV: this.requestRV() };
  }

  /** The request as the known code differences see it (profile-assumptions.ts). */
  assumedRequest(): { kind: 'list' | 'watch'; watchList: boolean } {
    const o = this.handlerOptions;
    return {
      kind: this.target.kind,
      watchList: o?.sendInitialEvents === true && o.allowWatchBookmarks,
    };
  }

  private engineTarget(objects: number): EngineTarget {
    const t = this.target;
    const storage = resourceStorage(t.groupResource);
    const namespaced = storage.namespaced ?? true;
    return {
      target: t,
      profile: this.semantics,
      namespaced,
      watchCache: storage.watchCache,
      namespace: t.info.namespace || (namespaced ? 'default' : ''),
      objects,
      matchRatio: this.matchRatio,
      labelSelector: this.handlerOptions?.labelSelector ?? '',
      fieldSelector: this.handlerOptions?.fieldSelector ?? '',
    };
  }

  /** Builds the engine in `state` and sends the request. */
  async run(state: ClusterState, objects: number): Promise<RequestRun> {
    const engine = await engineInState(this.engineTarget(objects), state);
    const { resource, eventSink, seeded } = engine;
    const run: RequestRun = {
      events: [],
      rejectedByHandler: false,
      waited: false,
      waitedMs: 0,
      matchingObjects: seeded.matching,
      notes: seeded.note ? [seeded.note] : [],
    };
    try {
      if (this.handlerError || !this.handlerOptions) {
        run.error = this.handlerError;
        run.rejectedByHandler = true;
        return run;
      }
      const ctx = resource.requests.newContext('listwatch-explain', 'GET', this.target.requestUri);
      const unsubscribe = eventSink.subscribe((e) => {
        if ('requestId' in e && e.requestId === ctx.requestId) run.events.push(e);
      });
      try {
        if (this.target.kind === 'list') await this.runList(resource, ctx, run);
        else await this.runWatch(resource, ctx, run);
      } finally {
        unsubscribe();
      }
      for (const e of run.events) {
        if (e.type === 'watchcache/wait' && e.outcome !== 'fresh') {
          run.waited = true;
          run.waitedMs += e.waitedMs;
        }
      }
      return run;
    } finally {
      resource.stop();
    }
  }

  private async runList(
    resource: Resource,
    ctx: ReturnType<Resource['requests']['newContext']>,
    run: RequestRun,
  ): Promise<void> {
    const o = this.handlerOptions as InternalListOptions;
    const req = toResourceListRequest(o, this.target.info.namespace || undefined);
    let done = false;
    const p = resource.list(req, ctx).then(
      (list) => {
        run.resourceVersion = list.resourceVersion;
        if (list.continue) run.continue = list.continue;
        run.items = list.items.length;
      },
      (e: unknown) => {
        run.error = errorOf(e);
      },
    );
    void p.finally(() => (done = true));
    await drive(resource, () => done, requestHorizonMs);
    if (!done) run.notes.push(`the request had not finished after ${requestHorizonMs / 1000} s`);
  }

  private async runWatch(
    resource: Resource,
    ctx: ReturnType<Resource['requests']['newContext']>,
    run: RequestRun,
  ): Promise<void> {
    const o = this.handlerOptions as InternalListOptions;
    const ns = this.target.info.namespace || undefined;
    const req = {
      ...toResourceWatchRequest(o, ns, this.target.info.name || undefined),
      keepEvents: true,
    };
    let done = false;
    const p = resource.watch(req, ctx).then(
      (w) => {
        run.watch = w;
      },
      (e: unknown) => {
        run.error = errorOf(e);
      },
    );
    void p.finally(() => (done = true));
    await drive(resource, () => done, requestHorizonMs);
    const w = run.watch;
    if (!w) return;
    await drive(resource, () => w.client.events.some(isErrorEvent), watchFollowMs);
    const error = w.client.events.find(isErrorEvent);
    if (error) run.error = errorOf(error.object);
  }

  /** Reads the answer off a run. */
  answer(run: RequestRun, assumed: ClusterState): RequestExplanation {
    const t = this.target;
    const o = this.handlerOptions;
    const limit = o && o.limit > 0 && t.kind === 'list' ? o.limit : null;
    const events = run.events;
    const decision = events.find(
      (e): e is DelegationDecisionEvent => e.type === 'delegator/decision',
    );
    const fallback = events.find(
      (e): e is DelegationFallbackEvent => e.type === 'delegator/fallback',
    );
    const cacheList = events.find((e): e is CacheListEvent => e.type === 'cacher/list');
    const listDone = events.find((e): e is ListDoneEvent => e.type === 'list/done');
    const etcdCalls: EtcdCall[] = events.flatMap((e) =>
      e.type === 'etcd/request'
        ? [
            {
              operation: e.operation,
              key: e.key,
              ...(e.rangeEnd !== undefined ? { rangeEnd: e.rangeEnd } : {}),
              limit: e.limit,
              revision: e.revision,
              returnedKeys: e.kvs,
              more: e.count > e.kvs,
              ...(e.error !== undefined ? { error: e.error } : {}),
            },
          ]
        : [],
    );
    const explanation: RequestExplanation = {
      url: t.requestUri,
      kind: t.kind,
      profile: this.profile,
      servedResource: t.served,
      resource: {
        group: t.groupResource.group,
        version: t.version,
        resource: t.groupResource.resource,
        namespace: t.info.namespace,
      },
      servedBy: 'error',
      watchCache: this.watchCache,
      rule: '',
      limit,
      limitHonoured: null,
      consistentRead: false,
      mayWait: run.waited,
      waitedMs: run.waitedMs,
      etcdCalls,
      assumed,
      objects: this.objects,
      matchRatio: this.matchRatio,
      matchingObjects: run.matchingObjects,
      notes: run.notes,
      possibleErrors: [],
    };
    if (t.custom) explanation.notes.push(customResourceNote(t));
    if (run.rejectedByHandler) {
      explanation.rule = 'rejected by the handler (get.go listOpts) before storage is asked';
    } else if (!this.watchCache) {
      explanation.rule = noWatchCacheRule;
      explanation.notes.push(
        `${t.groupResource.group ? `${t.groupResource.group}/` : ''}${t.groupResource.resource} have no watch cache: the state's cache keys do not apply`,
      );
      const etcdWatch = events.filter((e) => e.type === 'etcd/watch');
      if (t.kind === 'list') {
        if (listDone) explanation.servedBy = 'etcd';
        if (limit !== null && listDone) explanation.limitHonoured = true;
        if (listDone && listDone.error === undefined) {
          explanation.fetched = listDone.fetched;
          explanation.returned = listDone.returned;
        }
        explanation.consistentRead = etcdCalls.length > 0 && etcdCalls[0].revision === 0;
      } else {
        const started = etcdWatch.some((e) => e.type === 'etcd/watch' && e.phase === 'watching');
        if (started) explanation.servedBy = 'etcd';
        // The store's initial sync (if any) reads etcd at its latest revision.
        explanation.consistentRead = etcdCalls.some((c) => c.revision === 0);
        const received = run.watch?.client.events ?? [];
        const endIndex = received.findIndex(isInitialEventsEnd);
        explanation.watch = {
          startsFrom: started ? 'etcd' : 'none',
          sendInitialEvents: o?.sendInitialEvents ?? null,
          allowWatchBookmarks: o?.allowWatchBookmarks ?? false,
          initialEvents: countInitialEvents(received, endIndex, o),
          initialEventsEndBookmark: endIndex >= 0,
        };
      }
    } else if (t.kind === 'list') {
      if (decision) {
        explanation.ruleId = decision.rule;
        explanation.rule = delegationRuleText[decision.rule] ?? decision.rule;
        explanation.consistentRead = decision.consistentRead;
        if (decision.target === 'etcd') explanation.servedBy = 'etcd';
        // Which store the cache read is the watch cache's to say (an exact RV is read from a
        // snapshot, also after waiting for a future RV), not the delegator's rule.
        else if (decision.target === 'cache')
          explanation.servedBy = cacheList?.snapshot ? 'cache-snapshot' : 'cache';
      }
      if (fallback) {
        explanation.fallback = { reason: fallback.reason, toEtcd: fallback.fallback === 'true' };
        if (fallback.fallback === 'true') explanation.servedBy = 'etcd';
      }
      if (limit !== null) {
        if (explanation.servedBy === 'etcd') explanation.limitHonoured = listDone !== undefined;
        else if (cacheList) explanation.limitHonoured = cacheList.limit > 0;
      }
      const served = explanation.servedBy === 'etcd' ? listDone : cacheList;
      if (served && served.error === undefined) {
        explanation.fetched = served.fetched;
        explanation.returned = served.returned;
      }
    } else {
      const watch = events.find((e) => e.type === 'cacher/watch');
      const started = watch?.type === 'cacher/watch' && watch.outcome === 'started';
      explanation.rule = started
        ? 'watches are served by the cacher from the watch cache (CacheDelegator.Watch)'
        : 'the cacher refused the watch';
      if (started) explanation.servedBy = 'cache';
      // The cacher asks etcd for nothing but its current revision, and only for a consistent start.
      explanation.consistentRead = etcdCalls.length > 0;
      const received = run.watch?.client.events ?? [];
      const endIndex = received.findIndex(isInitialEventsEnd);
      explanation.watch = {
        startsFrom: started ? 'cache' : 'none',
        sendInitialEvents: o?.sendInitialEvents ?? null,
        allowWatchBookmarks: o?.allowWatchBookmarks ?? false,
        ...(watch?.type === 'cacher/watch' && watch.requiredResourceVersion !== undefined
          ? { requiredResourceVersion: watch.requiredResourceVersion }
          : {}),
        initialEvents: countInitialEvents(received, endIndex, o),
        initialEventsEndBookmark: endIndex >= 0,
      };
      const cacheWatch = watch?.type === 'cacher/watch' ? watch : undefined;
      if (cacheWatch?.outcome === 'error' && !run.error && cacheWatch.error)
        run.error = { code: cacheWatch.error.code, message: cacheWatch.error.message };
    }
    if (run.error) {
      explanation.servedBy = 'error';
      explanation.errorCode = run.error.code;
      if (run.error.reason) explanation.reason = run.error.reason;
      explanation.message = run.error.message;
    }
    if (run.resourceVersion !== undefined) explanation.resourceVersion = run.resourceVersion;
    if (run.continue !== undefined) explanation.continue = run.continue;
    return explanation;
  }

  /** Whether the request waits for the cache when the cache is one revision behind etcd (and catches up). */
  async waitsWhenCacheLags(assumed: ClusterState): Promise<boolean> {
    if (!this.watchCache || !assumed.cacheReady || this.handlerError) return false;
    const lagging = {
      ...assumed,
      etcdRV: assumed.etcdRV + 1,
      cacheCatchesUp: true,
    };
    const run = await this.run(lagging, Math.min(this.objects, possibleErrorObjects));
    return run.waited;
  }

  /** Runs the request in the states that make requests fail; one entry per distinct error. */
  async possibleErrors(
    given: Partial<ClusterState>,
    answer: RequestExplanation,
  ): Promise<PossibleError[]> {
    const out: PossibleError[] = [];
    const seen = new Set<string>();
    if (answer.errorCode !== undefined && answer.message !== undefined) {
      seen.add(`${answer.errorCode}\u0000${answer.message}`);
      out.push({
        code: answer.errorCode,
        ...(answer.reason ? { reason: answer.reason } : {}),
        message: answer.message,
        state: {},
        when: 'in the assumed state',
      });
    }
    if (this.handlerError) return out;
    const objects = Math.min(this.objects, possibleErrorObjects);
    for (const variant of this.errorStates(given, objects)) {
      let state: ClusterState;
      try {
        state = resolveClusterState(variant.state, this.stateInputs(variant.objects));
      } catch {
        continue;
      }
      const run = await this.run(state, variant.objects);
      const a = this.answer(run, state);
      if (a.errorCode === undefined || a.message === undefined) continue;
      const key = `${a.errorCode}\u0000${a.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        code: a.errorCode,
        ...(a.reason ? { reason: a.reason } : {}),
        message: a.message,
        state: variant.state,
        when: `${variant.when} (--state ${formatClusterState(variant.state)})`,
      });
    }
    return out;
  }

  /** The states that make LISTs and WATCHes fail (each as a --state the user could pass). */
  private errorStates(
    given: Partial<ClusterState>,
    objects: number,
  ): { state: Partial<ClusterState>; objects: number; when: string }[] {
    const seedRV = 1 + objects;
    const rv = this.requestRV();
    // The etcd capabilities the user gave stay; the RVs and readiness are the variant's.
    const base: Partial<ClusterState> = {};
    if (given.consistentReadsSupported !== undefined)
      base.consistentReadsSupported = given.consistentReadsSupported;
    if (given.rangeStreamSupported !== undefined)
      base.rangeStreamSupported = given.rangeStreamSupported;
    const states: { state: Partial<ClusterState>; objects: number; when: string }[] = [];
    // Without a watch cache only etcd's own states matter.
    if (this.watchCache)
      states.push(
        { state: { ...base, cacheReady: false }, objects, when: 'the watch cache is not ready' },
        {
          state: {
            ...base,
            cacheRV: Math.max(seedRV, rv),
            etcdRV: Math.max(seedRV, rv) + 1,
            cacheCatchesUp: false,
          },
          objects,
          when: 'the watch cache is behind etcd and does not catch up within 3 s',
        },
        {
          state: { ...base, consistentReadsSupported: false },
          objects,
          when: 'etcd does not support RequestWatchProgress',
        },
      );
    if (rv > 0) {
      const past = Math.max(seedRV, rv + 1);
      states.push({
        state: {
          ...base,
          oldestWatchRV: past,
          oldestSnapshotRV: past,
          compactedRV: past,
          etcdRV: past,
        },
        objects,
        when: `${this.watchCache ? 'etcd and the watch cache have' : 'etcd has'} compacted past resourceVersion ${rv}`,
      });
      if (rv >= 3) {
        const behind = Math.min(objects, rv - 2);
        states.push({
          state: { ...base, etcdRV: rv - 1 },
          objects: behind,
          when: `the cluster has not reached resourceVersion ${rv} yet`,
        });
      }
    }
    return states;
  }
}

/** What explain assumes for a resource kube-apiserver does not serve itself. */
function customResourceNote(t: RequestTarget): string {
  const gr = `${t.groupResource.group}/${t.groupResource.resource}`;
  return (
    `${gr} is not a built-in resource: explain assumes a CustomResourceDefinition serves it ` +
    `(namespaced, stored under /registry/${gr}, with a watch cache); without one kube-apiserver ` +
    `answers 404 ${newGenericNotFound().status.message ?? ''}`
  );
}

/**
 * A built-in group with no such resource: kube-apiserver's router finds no handler and answers
 * 404 (the go-restful ServiceErrorHandler's NewGenericServerResponse), before any storage is asked.
 */
function unknownResourceAnswer(
  t: RequestTarget,
  profile: ProfileVersion,
  assumed: ClusterState,
  request: ExplainedRequest,
): RequestExplanation {
  const { status } = newGenericNotFound();
  const group = t.groupResource.group;
  const served = (builtinGroupRows(group) ?? []).map(([, resource]) => resource);
  const error = {
    code: status.code ?? 404,
    ...(status.reason ? { reason: status.reason } : {}),
    message: status.message ?? '',
  };
  return {
    url: t.requestUri,
    kind: t.kind,
    profile,
    servedResource: 'none',
    resource: {
      group,
      version: t.version,
      resource: t.groupResource.resource,
      namespace: t.info.namespace,
    },
    servedBy: 'error',
    watchCache: false,
    rule: resourceStorageRow(t.groupResource)
      ? `${JSON.stringify(t.groupResource.resource)} are cluster-scoped: kube-apiserver serves them ` +
        'at no namespaced path, so no handler serves it and it answers 404 before any storage is asked'
      : `not a known resource: kube-apiserver serves no ${JSON.stringify(t.groupResource.resource)} in ` +
        `${group === '' ? 'the core group' : `the group ${group}`} (its storage table), so no handler ` +
        'serves the path and it answers 404 before any storage is asked',
    limit: null,
    limitHonoured: null,
    consistentRead: false,
    mayWait: false,
    waitedMs: 0,
    errorCode: error.code,
    ...(error.reason ? { reason: error.reason } : {}),
    message: error.message,
    etcdCalls: [],
    assumed,
    objects: request.objects,
    matchRatio: request.matchRatio,
    matchingObjects: 0,
    notes: [
      `${group === '' ? 'the core group' : group} serves: ${served.join(', ')}`,
      'the cluster state does not matter: the request reaches no storage',
    ],
    possibleErrors: [{ ...error, state: {}, when: 'in every state: no such resource' }],
  };
}

/** A started watch is followed this long: its initial events, the initial-events-end bookmark, an ERROR. */
const watchFollowMs = 4_000;

/** Moves virtual time timer by timer until `done()` or `horizonMs` have passed. */
async function drive(resource: Resource, done: () => boolean, horizonMs: number): Promise<void> {
  const clock = resource.clock as FakeClock;
  const end = clock.now() + horizonMs;
  await resource.settle();
  while (!done() && clock.now() < end) {
    const next = clock.nextDue();
    await clock.advanceToAsync(
      next === undefined ? end : Math.min(Math.max(next, clock.now()), end),
    );
    await resource.settle();
  }
}

function errorOf(e: unknown): { code: number; reason?: string; message: string } {
  // A watch's ERROR event carries the Status itself; a rejected call throws a StatusError.
  const status: Partial<Status> | undefined =
    e instanceof StatusError
      ? e.status
      : e !== null && typeof e === 'object' && (e as { kind?: string }).kind === 'Status'
        ? (e as Partial<Status>)
        : undefined;
  if (status)
    return {
      code: status.code ?? 500,
      ...(status.reason ? { reason: status.reason } : {}),
      message: status.message ?? '',
    };
  return statusOf(e);
}

type ReceivedEvent = OpenedWatch['client']['events'][number];

function isErrorEvent(e: ReceivedEvent): boolean {
  return e.type === 'ERROR';
}

function isInitialEventsEnd(e: ReceivedEvent): boolean {
  return (
    e.type === 'BOOKMARK' &&
    e.object.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true'
  );
}

/** ADDED events before the initial-events-end bookmark (or, for a legacy RV "0" watch, the first burst). */
function countInitialEvents(
  received: readonly ReceivedEvent[],
  endIndex: number,
  o: InternalListOptions | undefined,
): number {
  if (endIndex >= 0) return received.slice(0, endIndex).filter((e) => e.type === 'ADDED').length;
  if (o?.sendInitialEvents === true || o?.resourceVersion === '0' || o?.resourceVersion === '')
    return received.filter((e) => e.type === 'ADDED').length;
  return 0;
}
