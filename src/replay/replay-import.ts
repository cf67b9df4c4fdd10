// No upstream counterpart: replays imported requests through the engine in virtual time. One
// engine Resource per resource the log addresses, over one in-memory etcd (as one apiserver
// shares its etcd), seeded before the first request with the objects the log implies; then each
// request is re-issued at its log time relative to the first: LISTs through the delegator with
// their query, WATCHes held open for their logged duration, writes rebuilt or synthesised. The
// log's answer is recorded beside the engine's on each request's trace input, and what differs
// is counted. The trace (scenario `import`) folds into a RunModel like any run.
import {
  provesRequestWatchProgressDisabled,
  requestWatchProgressProof,
} from '../run/request-watch-progress-proof';
import {
  encodeStoredObject,
  type Resource,
  type ResourceWatchRequest,
  MemoryEtcd,
  decodeContinue,
  encodeContinue,
  type KubeObject,
  SelectionPredicate,
} from '../engine';
import { RunModelBuilder } from '../run/build-run-model';
import type { RunModel } from '../run/run-model';
import { ScenarioRun, type AnswerComparison } from '../sim/scenario-run';
import { resourceStorage } from '../request/resource-storage';
import { resourceKeyPrefix } from '../request/storage-key-prefix';
import {
  listOpts,
  parseQuery,
  toResourceListRequest,
  toResourceWatchRequest,
} from '../request/list-query';
import {
  traceFormat,
  traceVersion,
  type TraceHeader,
  type TraceRecord,
} from '../run/trace/trace-format';
import type { ImportedRequest } from '../run/imported-request';
import type { LoggedAnswer } from '../run/run-model';
import { compareList, compareWatch, watchExpiredInLog } from './logged-answer';
import {
  labelSynthesisedCreates,
  planSeeds,
  rebuiltObject,
  type CreateAttributes,
  seedAttributes,
  seededName,
  synthesisedObject,
  type ResourceSeed,
} from './replay-objects';
import { replayParams, type ReplayOptions, type ReplaySummary } from './replay-options';
import { resourceKey, scheduleRequests } from './replay-schedule';
import { asWatchLists, type ReplayStep } from './replay-watch-list';
import { answeredWithToken, linkChains, type ChainPlace } from './replay-chains';
import { seedingShortOf, whatIfOf } from '../run/views/replay-count';
import { formatCount, plural } from '../format/count-text';
import { checkReplaySpan } from './replay-span';

import { importScenario } from '../run/views/run-clock';
export { importScenario };

/** One line of a trace: the header first, then records. */
export type TraceLine = TraceHeader | TraceRecord;

/** The annotation a synthesised update sets, so that it changes the object (and makes an event). */
export const replayedAnnotation = 'listwatch.dev/replayed-request';

const fixedNotes = [
  'resourceVersions and continue tokens are never compared by value: the engine has its own etcd revisions',
  "a chain's later pages are re-issued with the engine's own continue token from its previous page (the log's tokens name the real cluster's RVs); a page sent again with the same token (a retry) with the engine token its first try was sent with",
  "the log does not say seeded objects' labels: each filtered LIST's selectors are given to as many of them as its answers matched, so filtered LISTs page through etcd as they did; items are still compared only for LISTs without selectors (selectors that overlap or contradict each other cannot all be matched exactly)",
];

/**
 * The log's resourceVersions name the real cluster's etcd revisions, which the engine's etcd does
 * not have: a request's RV is mapped to the engine's (the engine's answer to the LIST whose logged
 * answer had that RV; else the engine's answer to the client's latest LIST of the resource, which
 * is where a reflector's WATCH resumes; else the engine's current revision).
 */
class ResourceVersions {
  private readonly byLoggedRv = new Map<string, string>();
  private readonly lastListRv = new Map<string, string>();
  mapped = 0;

  noteList(s: ReplayStep, engineRv: string): void {
    const logged = s.request.response?.resourceVersion;
    if (logged) this.byLoggedRv.set(`${resourceKey(s.group, s.resource)}\u0000${logged}`, engineRv);
    this.lastListRv.set(this.clientKey(s), engineRv);
  }

  /** The engine's RV for the request's `resourceVersion` ("" and "0" are kept: they name none). */
  map(s: ReplayStep, rv: string | undefined, resource: Resource): string | undefined {
    if (rv === undefined || rv === '' || rv === '0') return rv;
    this.mapped++;
    return (
      this.byLoggedRv.get(`${resourceKey(s.group, s.resource)}\u0000${rv}`) ??
      this.lastListRv.get(this.clientKey(s)) ??
      String(resource.etcd.currentRevision())
    );
  }

  private clientKey(s: ReplayStep): string {
    return `${s.client}\u0000${resourceKey(s.group, s.resource)}`;
  }
}

interface ChainState {
  /** The engine's continue token from the chain's previous page ('' : the engine's chain ended). */
  token: string;
  /**
   * The engine token each log token was re-issued with: a page sent again with the same token (a
   * retry after a 429 or 5xx) is the same page, so it is re-issued with the same engine token.
   */
  sent: Map<string, string>;
}

/** The etcd3 key prefix of a resource in the engine (`/pods`, `/example.com/widgets`). */
function enginePrefix(group: string, resource: string): string {
  return resourceKeyPrefix({ group, resource }).slice('/registry'.length, -1);
}

function writeVerb(verb: string): 'create' | 'update' | 'delete' {
  return verb === 'create' ? 'create' : verb === 'delete' ? 'delete' : 'update';
}

/** What has been counted of one request (a WATCH is compared twice: when answered, when it ends). */
interface Tallied {
  compared: boolean;
  disagrees: boolean;
}

function tally(summary: ReplaySummary, c: AnswerComparison, seen?: Tallied): AnswerComparison {
  const once = seen ?? { compared: false, disagrees: false };
  if (c.logged && !once.compared) {
    once.compared = true;
    summary.compared++;
  }
  if (c.logged?.notModelled && c.logged.status !== undefined)
    summary.notModelled[c.logged.status] = (summary.notModelled[c.logged.status] ?? 0) + 1;
  if (c.logged?.notReproduced !== undefined) summary.notReproduced.push(c.logged.notReproduced);
  if (c.disagrees?.length) {
    if (!once.disagrees) summary.disagreements++;
    once.disagrees = true;
    for (const d of c.disagrees) summary.disagreementsBy[d] = (summary.disagreementsBy[d] ?? 0) + 1;
    const short = seedingShortOf(c.logged);
    if (short) summary.seedingShort.push(short);
  }
  return c;
}

/**
 * Objects a LIST's logged answer proves exist where it looks, at least: its items and the
 * remainingItemCount after them; an unfiltered page with a continue token (its body's, or the
 * next page's token) was full at its limit, as was each earlier page of its chain that answered
 * with one, and etcd had more (remainingItemCount more, when the answer says).
 */
function provenObjects(
  logged: LoggedAnswer,
  unfilteredLimit: number | undefined,
  fullPages: number,
): number | undefined {
  const atLimit =
    logged.continue && unfilteredLimit !== undefined && unfilteredLimit > 0
      ? Math.max(1, fullPages) * unfilteredLimit + Math.max(1, logged.remainingItemCount ?? 1)
      : undefined;
  if (logged.items !== undefined)
    return Math.max(logged.items + (logged.remainingItemCount ?? 0), atLimit ?? 0);
  return atLimit;
}

/** The pages of a LIST's chain up to it (itself included) the log proves answered with a token. */
function fullPagesTo(place: ChainPlace | undefined): number {
  if (!place) return 0;
  let n = 0;
  for (let page = 0; page <= place.page; page++)
    if (answeredWithToken({ chain: place.chain, page })) n++;
  return n;
}

/** Objects seeded where a request looks: its namespace's, or all of the resource's. */
function seededIn(seed: ResourceSeed | undefined, namespace: string): number {
  if (!seed) return 0;
  if (namespace) return seed.byNamespace.get(namespace)?.total ?? 0;
  return [...seed.byNamespace.values()].reduce((n, slot) => n + slot.total, 0);
}

function skip(summary: ReplaySummary, reason: string): void {
  summary.skipped[reason] = (summary.skipped[reason] ?? 0) + 1;
}

/**
 * Replays `requests` through the engine, writing the trace line by line to `write`. Deterministic:
 * the same requests, options and seed give the same trace, byte for byte.
 */
export async function replayImport(
  requests: readonly ImportedRequest[],
  options: ReplayOptions,
  write: (line: TraceLine) => void,
): Promise<ReplaySummary> {
  // Refused before anything is written: a span of a year would run for minutes.
  checkReplaySpan(requests);
  const schedule = scheduleRequests(requests);
  const places = linkChains(schedule.requests);
  const creates = labelSynthesisedCreates(schedule.requests, places);
  const seeds = planSeeds(schedule.requests, options.objects, places, creates);
  const { steps, pairs } = options.watchList
    ? asWatchLists(schedule.requests)
    : { steps: schedule.requests as ReplayStep[], pairs: 0 };
  const summary: ReplaySummary = {
    requests: requests.length,
    replayed: 0,
    compared: 0,
    lists: 0,
    watches: 0,
    writes: 0,
    rebuilt: [],
    synthesised: [],
    skipped: { ...schedule.skipped },
    untimed: schedule.untimed,
    seeded: seeds.map((s) => s.seeded),
    disagreements: 0,
    disagreementsBy: {},
    seedingShort: [],
    notModelled: {},
    notReproduced: [],
    latencyNotReproduced: [],
    watchListPairs: pairs,
    notes: [...fixedNotes],
  };
  const whatIf = whatIfOf({ params: replayParams(options), profile: options.profile });
  if (whatIf) summary.whatIf = whatIf;
  if (schedule.untimed > 0)
    summary.notes.push(
      `${schedule.untimed} request(s) have no time in the log: each keeps its place after the previous timed request`,
    );
  if (options.watchCacheSize !== undefined)
    summary.notes.push(
      `what-if: the watch cache's history fixed at ${options.watchCacheSize} events (upstream sizes it dynamically)`,
    );
  if (pairs > 0)
    summary.notes.push(
      `what-if: ${pairs} LIST+WATCH pair(s) replayed as one WatchList watch each (sendInitialEvents=true, resourceVersionMatch=NotOlderThan), at the LIST's time`,
    );

  const header: TraceHeader = {
    format: traceFormat,
    version: traceVersion,
    scenario: importScenario,
    profile: options.profile,
    seed: options.seed,
    params: replayParams(options),
  };
  write(header);
  if (options.report) write({ kind: 'input', at: 0, action: 'imported', report: options.report });
  let recording = true;
  const run = new ScenarioRun({
    scenario: importScenario,
    seed: options.seed,
    profile: options.profile,
    onRecord: (r) => {
      if (recording) write(r);
    },
    onProgress: options.onProgress,
    signal: options.signal,
    yieldToHost: options.yieldToHost,
  });
  try {
    const etcd = new MemoryEtcd({
      ...run.etcdOptions(),
      // master pairs with etcd 3.7, which has RangeStream; release-1.36 with etcd 3.6.
      rangeStream: options.profile === '1.37' ? 'supported' : 'unimplemented',
    });
    // What the log proves of the server's etcd: the storage feature check's answer.
    const noProgress = requests.find(provesRequestWatchProgressDisabled);
    if (noProgress)
      summary.notes.push(
        `the log proves etcd lacked RequestWatchProgress (its client logged "${requestWatchProgressProof(noProgress).message}" at ${requestWatchProgressProof(noProgress).at}: an etcd older than 3.4.31, or 3.5.0-3.5.12): the replay runs as kube-apiserver does then (the storage feature check), WatchList watches end with that error and consistent LISTs are read from etcd`,
      );
    const resources = new Map<string, Resource>();
    const seedsByResource = new Map<string, ResourceSeed>();
    // Objects created and deleted by replayed writes, per resource and namespace: what the engine
    // holds where a LIST looks is the seeding plus these (said apart from the seeding).
    const written = new Map<string, { created: number; deleted: number }>();
    for (const seed of seeds) {
      seedsByResource.set(seed.seeded.resource, seed);
      // The storage table's facts: key prefix, scope (KeyFunc), watch cache (none for events).
      const storage = resourceStorage(seed);
      const resource = run.createResource({
        groupResource: { group: seed.group, resource: seed.resource },
        etcd,
        resourcePrefix: enginePrefix(seed.group, seed.resource),
        namespaced: storage.namespaced ?? true,
        watchCache: storage.watchCache,
        ...(noProgress ? { cache: { requestWatchProgressSupported: false } } : {}),
      });
      if (options.watchCacheSize !== undefined) {
        const h = resource.watchCache.history;
        h.lowerBoundCapacity = options.watchCacheSize;
        h.upperBoundCapacity = options.watchCacheSize;
        h.doCacheResizeLocked(options.watchCacheSize);
      }
      resources.set(seed.seeded.resource, resource);
      seedObjects(run, resource, seed);
    }
    // Scheduled, not yet re-issued: a step can still be skipped (ReplaySummary.skipped).
    run.phase('replay', `${steps.length} imported request(s) scheduled at their log times`);
    for (const r of resources.values()) r.start();
    await run.drive(Promise.all([...resources.values()].map((r) => r.waitReady())));

    const closes: Array<{ atMs: number; close: () => void }> = [];
    const runCloses = async (until: number): Promise<void> => {
      closes.sort((a, b) => a.atMs - b.atMs);
      while (closes.length > 0 && closes[0].atMs <= until) {
        const c = closes.shift() as { atMs: number; close: () => void };
        await run.advanceTo(c.atMs);
        c.close();
        await run.settle();
      }
    };
    const chains = new Map<number, ChainState>();
    const rvs = new ResourceVersions();
    let endMs = 0;
    for (const [i, s] of steps.entries()) {
      await runCloses(s.atMs);
      await run.advanceTo(s.atMs);
      endMs = Math.max(endMs, s.atMs);
      run.progress(i / Math.max(1, steps.length), `request ${i + 1}/${steps.length}`);
      const resource = resources.get(resourceKey(s.group, s.resource)) as Resource;
      const key = resourceKey(s.group, s.resource);
      if (s.verb === 'list') {
        const before = { created: 0, deleted: 0 };
        for (const [k, w] of written)
          if (
            k === `${key}\u0000${s.namespace}` ||
            (!s.namespace && k.startsWith(`${key}\u0000`))
          ) {
            before.created += w.created;
            before.deleted += w.deleted;
          }
        const seeded = seededIn(seedsByResource.get(key), s.namespace);
        await replayList(run, resource, s, places.get(s), chains, rvs, summary, seeded, before);
      } else if (s.verb === 'watch') {
        const closeAt = await replayWatch(
          run,
          resource,
          s,
          schedule.originMs,
          rvs,
          summary,
          closes,
          options.watchCacheSize,
        );
        if (closeAt !== undefined) endMs = Math.max(endMs, closeAt);
      } else if (await replayWrite(run, resource, s, summary, creates.attrs)) {
        const k = `${key}\u0000${s.namespace}`;
        const w = written.get(k) ?? { created: 0, deleted: 0 };
        if (s.verb === 'create') w.created++;
        if (s.verb === 'delete') w.deleted++;
        written.set(k, w);
      }
    }
    await runCloses(endMs);
    await run.advanceTo(endMs);
    await run.settle();
    // The scheduled steps the engine could not take when their time came, said where the phase
    // above counted them: the scheduled count less these is the Replay tab's.
    const dropped = Object.entries(summary.skipped)
      .map(([why, n]) => [why, n - (schedule.skipped[why] ?? 0)] as const)
      .filter(([, n]) => n > 0);
    if (dropped.length > 0)
      run.phase(
        'replay-dropped',
        `of the ${formatCount(steps.length)} scheduled, not sent when their time came: ${dropped.map(([why, n]) => `${n} × ${why}`).join('; ')}`,
      );
    if (rvs.mapped > 0)
      summary.notes.push(
        `${rvs.mapped} resourceVersion(s) in requests mapped to the engine's (the log's name the real cluster's revisions)`,
      );
    run.finish();
    options.onProgress?.(1, 'done');
  } finally {
    // What stopping the resources emits is not part of the run.
    recording = false;
    run.stop();
  }
  return summary;
}

/** Writes a resource's seed objects straight into etcd, one seed input per namespace. */
function seedObjects(run: ScenarioRun, resource: Resource, seed: ResourceSeed): void {
  let i = 0;
  for (const [ns, slot] of [...seed.byNamespace].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const { names, total } = slot;
    const attrs = seedAttributes(slot);
    // What each selector really matches among the objects written (overlaps can change it).
    const predicates = slot.selectors.map((s) => ({
      s,
      p: SelectionPredicate.from({ label: s.labelSelector, field: s.fieldSelector }, seed.resource),
      n: 0,
    }));
    let rev = resource.etcd.currentRevision();
    for (let k = 0; k < total; k++) {
      const name = k < names.length ? names[k] : seededName(++i);
      const obj = synthesisedObject(seed.group, seed.resource, ns, name, attrs[k]);
      for (const q of predicates) if (q.p.matches(obj)) q.n++;
      rev = resource.etcd.put(
        resource.store.prepareKey(resource.objectKey(ns, name), false),
        encodeStoredObject(obj),
      );
    }
    if (total === 0) continue;
    const matched = predicates.map(
      (q) =>
        `${[q.s.labelSelector, q.s.fieldSelector].filter((x) => x !== '').join(' ')}${ns ? ` in ${ns}` : ''}: ${q.n} match${q.n === q.s.matching ? '' : ` (the log's answers: ${q.s.matching})`}`,
    );
    if (matched.length) (seed.seeded.matched ??= []).push(...matched);
    run.input({
      action: 'seed',
      objects: total,
      keyPrefix: resource.store.prepareKey(resource.collectionKey(ns), true),
      revision: rev,
      text: `${total} ${seed.seeded.resource} written straight into etcd${ns ? ` in namespace ${ns}` : ''} (${seed.seeded.text})${matched.length ? `; ${matched.join('; ')}` : ''}`,
    });
  }
}

async function replayList(
  run: ScenarioRun,
  resource: Resource,
  s: ReplayStep,
  place: ChainPlace | undefined,
  chains: Map<number, ChainState>,
  rvs: ResourceVersions,
  summary: ReplaySummary,
  seeded: number,
  before: { created: number; deleted: number },
): Promise<void> {
  const query = parseQuery(s.query);
  let opts;
  try {
    opts = listOpts(query, { resource: s.resource, watchList: resource.gates.WatchList });
  } catch (e) {
    skip(summary, `list query rejected by the handler: ${(e as Error).message}`);
    return;
  }
  const req = toResourceListRequest(opts, s.namespace || undefined);
  const rv = rvs.map(s, req.resourceVersion, resource);
  if (rv !== undefined) req.resourceVersion = rv;
  // The log's chain (replay-chains.ts): interleaved chains of one client keep their own tokens.
  const chainId = place?.chain.id ?? -1;
  const logToken = req.continue ?? '';
  const state = chains.get(chainId);
  const retried = logToken ? state?.sent.get(logToken) : undefined;
  if (retried !== undefined) req.continue = retried;
  else if (req.continue) {
    if (state && state.token === '') {
      skip(summary, "continue page: the engine's chain had already ended");
      return;
    }
    if (state) req.continue = state.token;
    else {
      // Its chain began before the file: resume from the log token's key at the engine's RV.
      const keyPrefix = resource.store.prepareKey(resource.collectionKey(s.namespace), true);
      try {
        const { fromKey } = decodeContinue(req.continue, keyPrefix);
        req.continue = encodeContinue(fromKey, keyPrefix, resource.etcd.currentRevision());
      } catch (e) {
        skip(summary, `continue page of a chain begun before the file: ${(e as Error).message}`);
        return;
      }
    }
  }
  if (req.continue && s.request.code === 410) recreateCompaction(run, resource, req.continue, s);
  const compareItems = !req.labelSelector && !req.fieldSelector;
  const compare = compareList(s.request, compareItems, place ? answeredWithToken(place) : false);
  const res = await run.drive(
    run.list(resource, req, 'delegator', s.client, (a) => {
      const c = compare(a);
      if (!c.logged) return tally(summary, c);
      const latency = c.logged.latencyNotReproduced;
      if (latency)
        summary.latencyNotReproduced.push({
          request: `${s.request.method ?? 'GET'} ${s.request.requestURI}`,
          ...latency,
        });
      const proven = provenObjects(
        c.logged,
        compareItems ? req.limit : undefined,
        fullPagesTo(place),
      );
      return tally(summary, {
        ...c,
        logged: {
          ...c.logged,
          seeded,
          ...(before.created ? { created: before.created } : {}),
          ...(before.deleted ? { deleted: before.deleted } : {}),
          ...(proven !== undefined ? { proven } : {}),
        },
      });
    }),
  );
  summary.replayed++;
  summary.lists++;
  const sent = logToken && state ? state.sent : new Map<string, string>();
  if (logToken) sent.set(logToken, req.continue ?? '');
  chains.set(chainId, { token: res.result?.continue ?? '', sent });
  if (res.result) rvs.noteList(s, res.result.resourceVersion);
  await run.settle();
}

/**
 * etcd3/compact.go's key: the apiserver's compactor writes it (a revision of its own) before each
 * Compact, so a compaction always moves past the revisions read before it.
 */
const compactRevKey = 'compact_rev_key';

/**
 * The log's 410 Expired on a continue page proves etcd had compacted past its chain's RV by then:
 * the replay compacts the engine's etcd there too (as the compactor does, after a write of its
 * key when nothing else moved the revision on), and the cacher drops the snapshots below it, so
 * the engine answers the page as the real apiserver did.
 */
function recreateCompaction(
  run: ScenarioRun,
  resource: Resource,
  token: string,
  s: ReplayStep,
): void {
  const keyPrefix = resource.store.prepareKey(resource.collectionKey(s.namespace), true);
  let chainRv: number;
  try {
    chainRv = Number(decodeContinue(token, keyPrefix).resourceVersion);
  } catch {
    return;
  }
  if (resource.etcd.currentRevision() <= chainRv) resource.etcd.put(compactRevKey, String(chainRv));
  const revision = resource.etcd.currentRevision();
  resource.etcd.compact(revision);
  resource.cacher.compactIfNeeded();
  const src = s.request.sources[0];
  run.input({
    action: 'fault',
    name: 'compaction',
    params: { revision, chainResourceVersion: chainRv },
    text: `the log's 410 Expired (${src ? `${src.file}:${src.line}` : s.request.id}) proves etcd had compacted past the chain's RV: the replay compacts the engine's etcd at revision ${revision} (its chain read at ${chainRv}) before that page`,
  });
}

/**
 * The log's 410 on a watch of a resource without a watch cache (events: the storage table) proves
 * etcd had compacted past the watch's resourceVersion: the etcd3 store watches etcd from rv+1, and
 * etcd answers a start below its compacted revision with ErrCompacted, the store's 410 `The
 * resourceVersion for the provided watch is too old.` (etcd3/errors.go interpretWatchError). The
 * replay compacts the engine's etcd there as the apiserver's compactor does (compactor.go: each
 * tick writes its key, then compacts to the revision of its previous tick), so with no write since
 * the watch's RV the compactor's own writes move the revision on; the compaction is global, as
 * etcd's is.
 */
function recreateWatchCompaction(
  run: ScenarioRun,
  resource: Resource,
  rv: number,
  at: string,
  what: string,
): void {
  // The watch starts at rv+1, which must be below the compacted revision.
  while (resource.etcd.currentRevision() < rv + 2)
    resource.etcd.put(compactRevKey, String(resource.etcd.currentRevision()));
  const revision = resource.etcd.currentRevision();
  if (resource.etcd.compactRevision() < revision) resource.etcd.compact(revision);
  run.input({
    action: 'fault',
    name: 'compaction',
    params: { revision, watchResourceVersion: rv },
    text: `the log's 410 on a watch of ${what} (${at}), which the etcd3 store serves (no watch cache), proves etcd had compacted past the watch's resourceVersion: the replay compacts the engine's etcd at revision ${revision} (the watch's resourceVersion ${rv}) before it`,
  });
}

function position(r: ImportedRequest): string {
  const src = r.sources[0];
  return src ? `${src.file}:${src.line}` : r.id;
}

/**
 * The log's 410 on a watch (its status, or the `too old resource version` its client logged)
 * proves the watch cache's history no longer held the watch's resourceVersion then. The baseline
 * re-creates that with the expire-history fault's event (WatchCache.expireHistory), not with
 * writes that push the window: the history sizes itself (it doubles while its events are younger
 * than eventFreshDuration, up to 102,400), so how many writes pushed it out depends on writes the
 * log does not hold; that the history was gone is all the log proves. A what-if watch cache size
 * is left to decide over the writes the log holds (a big one keeps them: the watch opens). With no
 * write of the resource since the resourceVersion, nothing could have pushed the history: returns
 * why the replay cannot reproduce the 410 (undefined: reproduced, or the engine's own history had
 * already lost it).
 */
function recreateHistoryExpiry(
  run: ScenarioRun,
  resource: Resource,
  resourceVersion: string | undefined,
  s: ReplayStep,
  summary: ReplaySummary,
  watchCacheSize: number | undefined,
): string | undefined {
  const at = position(s.request);
  const what = `the log's 410 on the watch at ${at}`;
  const rv = Number(resourceVersion);
  if (!resourceVersion || resourceVersion === '0' || !Number.isInteger(rv))
    return `${what}: the watch named no resourceVersion ${resource.watchCacheEnabled ? 'a history' : 'etcd'} could have lost`;
  if (!resource.watchCacheEnabled) {
    recreateWatchCompaction(run, resource, rv, at, s.resource);
    return undefined;
  }
  const wc = resource.watchCache;
  const lost = rv < wc.historyWindow().oldestResourceVersion;
  const since = wc.history.events().filter((e) => e.resourceVersion > rv).length;
  const noWrite = `${what}: the log holds no write of ${s.resource} since its resourceVersion, so nothing could have pushed the watch cache's history past it`;
  if (watchCacheSize !== undefined) {
    summary.notes.push(
      `what-if: ${what} is left to the watch cache of ${watchCacheSize} events: ${lost ? "its history no longer holds the watch's resourceVersion either" : `it still holds the ${plural(since, 'event')} the log's writes made since the watch's resourceVersion, so the watch opens`}`,
    );
    return lost || since > 0 ? undefined : noWrite;
  }
  if (lost) return undefined;
  if (since === 0) return noWrite;
  const dropped = wc.expireHistory();
  run.input({
    action: 'fault',
    name: 'expire-history',
    params: { resourceVersion: rv, droppedEvents: dropped, eventsSince: since },
    text: `the log's 410 on a watch (${at}) proves the watch cache's history no longer held its resourceVersion: the replay drops the engine's watch cache history before it (expire-history: ${plural(dropped, 'event')}, ${formatCount(since)} since the watch's resourceVersion ${rv}); how many writes the real cache missed, the log does not say`,
  });
  return undefined;
}

/**
 * How much later than its answer a watch's 410 may come and still be its answer: the watch cache's
 * error watcher sends it at once, the etcd3 store's after etcd's next sync of its unsynced
 * watchers (100 ms); beyond it the log shows the 410 inside the stream.
 */
const answerSlackMs = 1000;

/**
 * Why the replay cannot reproduce a 410 the log shows arriving inside a watch's stream, seconds
 * after the watch was answered (the time its client logged the ERROR), or undefined when the log
 * shows it at the watch's answer (or says no time). The watch cache sends its 410 only as a
 * watch's first event (cacher.go Watch: newErrWatcher), and a watcher that falls out of its history
 * is closed without one (cache_watcher.go processInterval: the client's next watch gets the 410);
 * the etcd3 store's watch gets etcd's compaction inside its stream only when it fell behind etcd
 * (an unsynced etcd watcher), which the log cannot show. So no cause the replay could re-create
 * gives the open watch its 410: it stays open until the log's 410, where the replay closes it.
 */
function expiredInStreamText(r: ImportedRequest, watchCache: boolean): string | undefined {
  const end = r.watchEnd;
  if (r.code === 410 || end?.at === undefined || r.receivedAt === undefined) return undefined;
  const intoMs = end.at - r.receivedAt;
  if (intoMs <= answerSlackMs) return undefined;
  const asked = new URLSearchParams(r.requestURI.split('?')[1] ?? '').get('resourceVersion');
  const named = /too old resource version: (\d+)/.exec(end.message)?.[1];
  const other =
    named !== undefined && asked && named !== asked
      ? `; its message names resourceVersion ${named}, the watch asked from ${asked}: a watch the log does not show`
      : '';
  const why = watchCache
    ? "the watch cache sends its 410 (too old resource version) only as a watch's first event (cacher.go Watch), and closes a watcher that falls out of its history without one (cache_watcher.go processInterval)"
    : "the etcd3 store's watch gets etcd's compaction inside its stream only when it fell behind etcd (an unsynced etcd watcher), which the log does not show";
  return `the log's 410 on the watch at ${position(r)}: it came ${Number((intoMs / 1000).toFixed(3))} s into the stream (${end.source.file}:${end.source.line}), and ${why}${other}; the replay keeps the watch open until then`;
}

async function replayWatch(
  run: ScenarioRun,
  resource: Resource,
  s: ReplayStep,
  originMs: number,
  rvs: ResourceVersions,
  summary: ReplaySummary,
  closes: Array<{ atMs: number; close: () => void }>,
  watchCacheSize: number | undefined,
): Promise<number | undefined> {
  let req: ResourceWatchRequest;
  try {
    const opts = listOpts(parseQuery(s.query), {
      resource: s.resource,
      name: s.name || undefined,
      watchList: resource.gates.WatchList,
    });
    // The engine adds metadata.name for a named watch: only when no field selector says it (as the
    // server's watchResource), since an audit event's objectRef names the object its selector names.
    const named = opts.fieldSelector ? undefined : s.name || undefined;
    req = toResourceWatchRequest(opts, s.namespace || undefined, named);
  } catch (e) {
    skip(summary, `watch query rejected by the handler: ${(e as Error).message}`);
    return undefined;
  }
  const rv = rvs.map(s, req.resourceVersion, resource);
  if (rv !== undefined) req.resourceVersion = rv;
  if (s.watchList) {
    req = {
      ...req,
      resourceVersion: '',
      resourceVersionMatch: 'NotOlderThan',
      sendInitialEvents: true,
      allowWatchBookmarks: true,
    };
  }
  const inStream = expiredInStreamText(s.request, resource.watchCacheEnabled);
  const notReproduced = watchExpiredInLog(s.request)
    ? (inStream ??
      recreateHistoryExpiry(run, resource, req.resourceVersion, s, summary, watchCacheSize))
    : undefined;
  const openedAt = run.clock.now();
  const compare = compareWatch(s.request, () => openedAt, notReproduced);
  const seen: Tallied = { compared: false, disagrees: false };
  const cw = await run.drive(
    run.watch(resource, s.client, req, {
      opened: (a) => tally(summary, compare.opened(a), seen),
      closed: (at) => tally(summary, compare.closed(at), seen),
    }),
  );
  summary.replayed++;
  summary.watches++;
  await run.settle();
  const end = s.request.completedAt;
  if (!s.request.endInFile || end === undefined) return undefined;
  const closeAt = Math.max(openedAt, end - originMs);
  closes.push({ atMs: closeAt, close: () => cw.opened?.client.disconnect() });
  return closeAt;
}

/** A replayed write in words: what it wrote, and whether the object is the log's or made up. */
function writeText(s: ReplayStep, name: string, rebuilt: boolean): string {
  const src = s.request.sources[0];
  const at = src ? ` (${src.file}:${src.line})` : '';
  const what = `${s.verb} ${name}${s.namespace ? ` in ${s.namespace}` : ''}`;
  if (s.verb === 'delete') return `${what}${at}`;
  if (rebuilt) return `${what}: the object the log carries${at}`;
  return s.verb === 'create'
    ? `${what}: a minimal object with the name the log gives (the log has no body)${at}`
    : `${what}: the current object, annotated ${replayedAnnotation} (the log has no body)${at}`;
}

async function replayWrite(
  run: ScenarioRun,
  resource: Resource,
  s: ReplayStep,
  summary: ReplaySummary,
  createAttrs: CreateAttributes,
): Promise<boolean> {
  const rebuilt = s.verb === 'delete' ? undefined : rebuiltObject(s);
  const name = rebuilt?.metadata?.name ?? s.name;
  if (!name) {
    skip(summary, `${s.verb} without an object name in the log`);
    return false;
  }
  const ns = s.namespace;
  if (s.verb !== 'delete') (rebuilt ? summary.rebuilt : summary.synthesised).push(s.request.id);
  try {
    let stored: KubeObject;
    if (s.verb === 'create')
      stored = await run.drive(
        resource.create(
          rebuilt ?? synthesisedObject(s.group, s.resource, ns, name, createAttrs.get(s)),
          s.client,
        ),
      );
    else if (s.verb === 'delete') stored = await run.drive(resource.delete(ns, name, s.client));
    else
      stored = await run.drive(
        resource.update(
          ns,
          name,
          (cur) => {
            if (rebuilt) return rebuilt;
            const meta = cur.metadata as Record<string, unknown>;
            meta.annotations = {
              ...(meta.annotations as Record<string, string> | undefined),
              [replayedAnnotation]: s.request.id,
            };
          },
          s.client,
        ),
      );
    run.input({
      action: 'writes',
      count: 1,
      verb: writeVerb(s.verb),
      keyPrefix: resource.store.prepareKey(resource.collectionKey(ns), true),
      revision: Number(stored.metadata?.resourceVersion ?? resource.etcd.currentRevision()),
      text: writeText(s, name, rebuilt !== undefined),
    });
    summary.replayed++;
    summary.writes++;
  } catch (e) {
    // The log says it succeeded (failed writes are not replayed): the engine disagrees. Not
    // re-issued, so not in the count: said among the skipped, with what failed.
    summary.disagreementsBy.write = (summary.disagreementsBy.write ?? 0) + 1;
    skip(summary, `${s.verb} failed in the engine: ${(e as Error).message}`);
    await run.settle();
    return false;
  }
  await run.settle();
  return true;
}

/** Replays and folds the trace into its RunModel; every line also goes to `also` (a trace file). */
export async function replayToModel(
  requests: readonly ImportedRequest[],
  options: ReplayOptions,
  also?: (line: TraceLine) => void,
): Promise<{ model: RunModel; summary: ReplaySummary }> {
  let builder: RunModelBuilder | undefined;
  const summary = await replayImport(requests, options, (line) => {
    also?.(line);
    if ('format' in line) builder = new RunModelBuilder(line);
    else builder?.add(line);
  });
  return { model: (builder as RunModelBuilder).finish(), summary };
}
