// Test harness: load on a resource over a real etcd while a fault hits it (writers, informer-like
// watchers through the cacher and straight from etcd, paging LISTs, a consistent read from the
// watch cache), and the checks the fault tests make of what they saw. No upstream counterpart:
// etcd's own robustness tests (tests/robustness) check linearizability of raw KV traffic; this
// checks what an apiserver's clients see (client-go's reflector contract) over the engine.
import type { Resource } from '../../../src/engine/apiserver';
import type { EtcdMember } from '../../../src/engine/etcd/etcd-member';
import { SeededRandom } from '../../../src/engine/rand';
import { errorToAPIStatus, isResourceExpired } from '../../../src/engine/storage/errors';
import { newListOptions } from '../../../src/engine/storage/list-options';
import { makePod, type KubeObject } from '../../../src/engine/storage/objects';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import type { EngineEvent } from '../../../src/engine/inspect/events';

/** LISTWATCH_FAULT_SEED picks the fault's timing (default fixed, so a run is repeatable). */
export function faultSeed(defaultSeed = 1): number {
  const env = process.env.LISTWATCH_FAULT_SEED;
  if (env === undefined || env === '') return defaultSeed;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 0) throw new Error(`LISTWATCH_FAULT_SEED: not a seed: ${env}`);
  return n;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** A write the engine acknowledged: the object's key and the resourceVersion it was stored at. */
export interface AckedWrite {
  key: string;
  type: EventType;
  rv: number;
  startedAt: number;
  ackedAt: number;
}

/** Everything the writers did: acknowledged writes, and the keys a failed write left uncertain. */
export class WriteLog {
  readonly acked: AckedWrite[] = [];
  /** key -> the failed write's type: it may or may not have been applied (never written again). */
  readonly uncertain = new Map<string, EventType>();
  readonly errors: string[] = [];
  private byRV = new Map<number, AckedWrite>();
  private byKey = new Map<string, AckedWrite[]>();

  ack(w: AckedWrite): void {
    const other = this.byRV.get(w.rv);
    if (other) throw new Error(`two acknowledged writes at rv ${w.rv}: ${other.key}, ${w.key}`);
    this.acked.push(w);
    this.byRV.set(w.rv, w);
    const list = this.byKey.get(w.key) ?? [];
    list.push(w);
    this.byKey.set(w.key, list);
  }

  atRV(rv: number): AckedWrite | undefined {
    return this.byRV.get(rv);
  }

  /**
   * The key's state at `rv` as the acknowledged writes determine it: absent, present at an rv,
   * or undefined when a failed write makes it uncertain (it may have landed at or before `rv`).
   */
  stateAt(key: string, rv: number): { present: boolean; rv?: number } | undefined {
    const list = this.byKey.get(key) ?? [];
    let last: AckedWrite | undefined;
    for (const w of list) if (w.rv <= rv) last = w;
    const lastAcked = list[list.length - 1];
    if (this.uncertain.has(key) && (lastAcked === undefined || rv >= lastAcked.rv))
      return undefined;
    if (last === undefined || last.type === 'DELETED') return { present: false };
    return { present: true, rv: last.rv };
  }

  keys(): string[] {
    return [...new Set([...this.byKey.keys(), ...this.uncertain.keys()])].sort();
  }

  /** The first write started at or after `t` that was acknowledged. */
  firstAckedStartedAfter(t: number): AckedWrite | undefined {
    let best: AckedWrite | undefined;
    for (const w of this.acked)
      if (w.startedAt >= t && (!best || w.ackedAt < best.ackedAt)) best = w;
    return best;
  }
}

function rvOf(obj: KubeObject): number {
  return Number(obj.metadata?.resourceVersion ?? '0');
}

function keyOf(resource: Resource<EtcdMember>, obj: KubeObject): string {
  return resource.objectKey(obj.metadata?.namespace ?? '', obj.metadata?.name ?? '');
}

function describe(e: unknown): string {
  const st = errorToAPIStatus(e);
  return `${st.code} ${st.reason ?? ''}: ${st.message ?? String(e)}`;
}

/**
 * Errors a client retries (client-go's reflector backs off and relists on any list error; these
 * are what the apiserver answers when etcd is unavailable, slow or has compacted the revision).
 */
export function isRetriableStatus(e: unknown): boolean {
  const code = errorToAPIStatus(e).code;
  return code === 410 || code === 429 || code === 500 || code === 503 || code === 504;
}

/** A writer: creates, updates (GuaranteedUpdate) and deletes its own pods until stopped. */
async function runWriter(
  resource: Resource<EtcdMember>,
  log: WriteLog,
  id: number,
  rand: SeededRandom,
  stop: () => boolean,
  pauseMs: number,
): Promise<void> {
  const live: string[] = [];
  let next = 0;
  while (!stop()) {
    const r = rand.float64();
    let name: string;
    let type: EventType;
    if (live.length === 0 || r < 0.4) {
      name = `w${id}-${next++}`;
      type = 'ADDED';
    } else {
      name = live[rand.intn(live.length)];
      type = r < 0.85 ? 'MODIFIED' : 'DELETED';
    }
    const key = resource.objectKey('default', name);
    const startedAt = Date.now();
    try {
      let obj: KubeObject;
      if (type === 'ADDED')
        obj = await resource.create(
          makePod({ namespace: 'default', name, labels: { gen: '0' } }),
          'faults-writer',
        );
      else if (type === 'MODIFIED')
        obj = await resource.update(
          'default',
          name,
          (o) => {
            (o.metadata as { labels?: Record<string, string> }).labels = { gen: String(startedAt) };
          },
          'faults-writer',
        );
      else obj = await resource.delete('default', name, 'faults-writer');
      log.ack({ key, type, rv: rvOf(obj), startedAt, ackedAt: Date.now() });
      if (type === 'ADDED') live.push(name);
      if (type === 'DELETED') live.splice(live.indexOf(name), 1);
    } catch (e) {
      // Applied or not: the key is never written again, and the checks leave its later state open.
      log.uncertain.set(key, type);
      log.errors.push(`${type} ${key}: ${describe(e)}`);
      const i = live.indexOf(name);
      if (i >= 0) live.splice(i, 1);
      await sleep(20);
    }
    if (pauseMs > 0) await sleep(pauseMs);
  }
}

/** How long an informer waits before it resumes an ended watch (the reflector backs off too). */
const resumeDelayMs = 20;

/** One watch event as an informer got it. */
interface SeenEvent {
  type: EventType;
  key: string;
  rv: number;
  at: number;
}

/** A stretch of one informer's stream: from a LIST (its RV and items) through every resumed watch. */
export interface Segment {
  listRV: number;
  listItems: { key: string; rv: number }[];
  listedAt: number;
  events: SeenEvent[];
  /** How it ended: a 410 (the informer relisted), or still open when the test stopped. */
  endedWith?: string;
}

/** What an informer did: its segments, the watches it resumed and why. */
export interface InformerRecord {
  name: string;
  via: 'cacher' | 'etcd';
  /**
   * Lags: drops its watch when the fault starts and resumes from its last RV only after the
   * compaction that follows it, so a 410 and a relist must follow.
   */
  lags: boolean;
  segments: Segment[];
  /** Why a watch ended without a 410 (the informer resumed from its last RV). */
  resumes: string[];
  listErrors: string[];
  lastRV: number;
  /** Every (time, rv) the informer reached: list RVs and events. */
  progress: { at: number; rv: number }[];
}

/**
 * An informer as client-go's reflector runs one: LIST, then WATCH from the list RV; a watch that
 * ends is resumed from the last RV seen; a 410 (Expired/Gone) relists. `via: 'cacher'` lists and
 * watches through the delegator (the watch cache serves both), `via: 'etcd'` through the etcd3
 * store directly (what a watch bypassing the cache gets: the etcd3 watcher over an etcd watch).
 */
async function runInformer(
  resource: Resource<EtcdMember>,
  rec: InformerRecord,
  stop: () => boolean,
  lagging: () => boolean,
): Promise<void> {
  const prefix = resource.collectionKey();
  const see = (s: Segment, type: string, obj: KubeObject): void => {
    if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return;
    const rv = rvOf(obj);
    s.events.push({ type, key: keyOf(resource, obj), rv, at: Date.now() });
    rec.lastRV = rv;
    rec.progress.push({ at: Date.now(), rv });
  };
  while (!stop()) {
    let list;
    try {
      list =
        rec.via === 'cacher'
          ? await resource.list({}, `faults-${rec.name}`)
          : await resource.store.getList(prefix, {
              resourceVersion: '',
              recursive: true,
              predicate: {},
            });
    } catch (e) {
      rec.listErrors.push(describe(e));
      await sleep(100);
      continue;
    }
    const seg: Segment = {
      listRV: Number(list.resourceVersion),
      listItems: list.items.map((o) => ({ key: keyOf(resource, o), rv: rvOf(o) })),
      listedAt: Date.now(),
      events: [],
    };
    rec.segments.push(seg);
    rec.lastRV = seg.listRV;
    rec.progress.push({ at: Date.now(), rv: seg.listRV });
    while (!stop() && seg.endedWith === undefined) {
      while (rec.lags && lagging() && !stop()) await sleep(20);
      const rv = String(rec.lastRV);
      if (rec.via === 'cacher') {
        let ended: string | undefined;
        try {
          const opened = await resource.watch(
            { resourceVersion: rv, onEvent: (e) => see(seg, e.type, e.object) },
            `faults-${rec.name}`,
          );
          const timer = setInterval(() => {
            if (stop()) opened.client.disconnect();
          }, 50);
          const reason = await opened.client.finished;
          clearInterval(timer);
          const errorStatus = opened.client.firstError;
          if (errorStatus !== undefined) {
            const st = errorStatus as { code?: number; message?: string };
            ended = `${st.code}: ${st.message}`;
            if (st.code === 410) seg.endedWith = ended;
          } else ended = reason;
        } catch (e) {
          ended = describe(e);
          if (isResourceExpired(e) || errorToAPIStatus(e).code === 410) seg.endedWith = ended;
          else await sleep(100);
        }
        if (seg.endedWith === undefined && !stop()) {
          rec.resumes.push(ended ?? 'closed');
          await sleep(resumeDelayMs);
        }
      } else {
        let ended = 'closed';
        try {
          const w = await resource.store.watch(prefix, { resourceVersion: rv, recursive: true });
          const timer = setInterval(() => {
            if (stop() || (rec.lags && lagging())) w.stop();
          }, 50);
          try {
            for await (const e of w) {
              if (e.type === 'ERROR') {
                const st = e.object as { code?: number; message?: string };
                ended = `${st.code}: ${st.message}`;
                if (st.code === 410) seg.endedWith = ended;
                w.stop();
                break;
              }
              see(seg, e.type, e.object as KubeObject);
            }
          } finally {
            clearInterval(timer);
          }
        } catch (e) {
          ended = describe(e);
          if (errorToAPIStatus(e).code === 410) seg.endedWith = ended;
          else await sleep(100);
        }
        if (seg.endedWith === undefined && !stop()) {
          rec.resumes.push(ended);
          await sleep(resumeDelayMs);
        }
      }
    }
  }
}

/** One paged LIST (limit + continue) from its first page to its last, or the error that ended it. */
export interface PagedList {
  via: 'delegator' | 'etcd';
  rv: number;
  items: { key: string; rv: number }[];
  pages: number;
  error?: unknown;
}

/** Between two paged LISTs: a pager is a client, not a busy loop. */
const pagerPauseMs = 10;

async function runPager(
  resource: Resource<EtcdMember>,
  via: 'delegator' | 'etcd',
  out: PagedList[],
  stop: () => boolean,
  limit: number,
): Promise<void> {
  const prefix = resource.collectionKey();
  while (!stop()) {
    const pl: PagedList = { via, rv: 0, items: [], pages: 0 };
    let cont = '';
    try {
      do {
        const page =
          via === 'delegator'
            ? await resource.list({ limit, continue: cont || undefined }, 'faults-pager')
            : await resource.store.getList(prefix, {
                resourceVersion: '',
                recursive: true,
                predicate: { limit, continue: cont || undefined },
              });
        if (pl.pages === 0) pl.rv = Number(page.resourceVersion);
        pl.pages++;
        for (const o of page.items) pl.items.push({ key: keyOf(resource, o), rv: rvOf(o) });
        cont = page.continue ?? '';
      } while (cont !== '' && !stop());
      if (cont !== '') return; // stopped mid-list: not a completed list
    } catch (e) {
      pl.error = e;
      await sleep(50);
    }
    out.push(pl);
    await sleep(pagerPauseMs);
  }
}

/**
 * A consistent LIST served by the watch cache (Cacher.GetList with RV "": it asks etcd for its
 * revision and waits until the cache has caught up), compared with etcd's own LIST at that exact
 * revision. Resolves with the time it first matched.
 */
async function probeCacheFresh(
  resource: Resource<EtcdMember>,
  after: number,
  stop: () => boolean,
  failures: string[],
): Promise<{ at: number; rv: number } | undefined> {
  const prefix = resource.collectionKey();
  while (!stop()) {
    try {
      if (resource.cacher.isReady()) {
        const fromCache = await resource.cacher.getList(
          prefix,
          newListOptions({
            resourceVersion: '',
            recursive: true,
            predicate: new SelectionPredicate({}),
          }),
        );
        const rv = Number(fromCache.resourceVersion);
        if (rv > after) {
          const at = Date.now();
          const fromEtcd = await resource.store.getList(prefix, {
            resourceVersion: String(rv),
            resourceVersionMatch: 'Exact',
            recursive: true,
            predicate: {},
          });
          const a = fromCache.items.map((o) => `${keyOf(resource, o)}@${rvOf(o)}`).join(',');
          const b = fromEtcd.items.map((o) => `${keyOf(resource, o)}@${rvOf(o)}`).join(',');
          if (a === b) return { at, rv };
          failures.push(`cache at rv ${rv} differs from etcd at rv ${rv}`);
        }
      }
    } catch (e) {
      failures.push(describe(e));
    }
    await sleep(50);
  }
  return undefined;
}

/** The reflector's own events ('cacher/reflector'), from an inspector passed to createResource. */
export class ReflectorEvents {
  readonly events: { at: number; phase: string; detail: string }[] = [];
  readonly inspector = {
    listening: true,
    emit: (e: EngineEvent): void => {
      if (e.type !== 'cacher/reflector') return;
      const x = e as unknown as {
        phase: string;
        resourceVersion?: number;
        error?: { code: number; message: string };
      };
      this.events.push({
        at: e.at,
        phase: x.phase,
        detail: x.error ? `${x.error.code} ${x.error.message}` : `rv ${x.resourceVersion ?? ''}`,
      });
    },
  };
  /** The reflector's phases since `t`, counted: `watch-ended ×3 (500 …no leader), watching ×3`. */
  since(t: number): string[] {
    const counts = new Map<string, number>();
    for (const e of this.events) {
      if (e.at < t) continue;
      const what = e.detail.startsWith('rv ') ? e.phase : `${e.phase} (${e.detail})`;
      counts.set(what, (counts.get(what) ?? 0) + 1);
    }
    return [...counts].map(([what, n]) => (n > 1 ? `${what} ×${n}` : what));
  }
}

export interface FaultLoadOptions {
  resource: Resource<EtcdMember>;
  seed: number;
  /** The fault: resolves once it has been applied (e.g. the leader killed, or etcd restarted). */
  fault: () => Promise<void>;
  informersViaCacher?: number;
  informersViaEtcd?: number;
  writers?: number;
  /**
   * After recovery, compact etcd at its current revision (as the apiserver's compactor does every
   * 5 minutes), while one more informer straight from etcd ('etcd-lagging') has dropped its watch
   * since the fault: it must get a 410 when it resumes, and relist.
   */
  compactAfterFault?: boolean;
  /** Paging LISTs' page size. */
  limit?: number;
  log: (line: string) => void;
}

export interface FaultLoadResult {
  seed: number;
  log: WriteLog;
  informers: InformerRecord[];
  lists: PagedList[];
  /** Wall-clock ms (Date.now) of the fault's start. */
  faultAt: number;
  firstWriteAfterFault?: AckedWrite;
  cacheFresh?: { at: number; rv: number };
  cacheProbeFailures: string[];
  /** The revision compacted after the fault (compactAfterFault). */
  compactedAt?: number;
  /** The last acknowledged write (written after the load stopped): every informer must reach it. */
  sentinel: AckedWrite;
  /** The final LIST from etcd, at the end. */
  final: { rv: number; items: { key: string; rv: number }[] };
}

/**
 * Runs the load, applies the fault at a seeded moment, keeps the load going until writes are
 * acknowledged again and the cache is fresh, then stops the writers, writes a sentinel and waits
 * until every informer has seen it.
 */
export async function runFaultLoad(o: FaultLoadOptions): Promise<FaultLoadResult> {
  const rand = new SeededRandom(o.seed);
  const { resource } = o;
  const log = new WriteLog();
  const informers: InformerRecord[] = [];
  const lists: PagedList[] = [];
  let stopWriters = false;
  let stopReaders = false;
  const tasks: Promise<void>[] = [];

  for (let i = 0; i < 10; i++) {
    const obj = await resource.create(
      makePod({ namespace: 'default', name: `seed-${i}`, labels: { gen: '0' } }),
    );
    log.ack({
      key: keyOf(resource, obj),
      type: 'ADDED',
      rv: rvOf(obj),
      startedAt: Date.now(),
      ackedAt: Date.now(),
    });
  }
  let faultStarted = false;
  let compacted = false;
  const newInformer = (name: string, via: 'cacher' | 'etcd', lags = false): InformerRecord => {
    const rec: InformerRecord = {
      name,
      via,
      lags,
      segments: [],
      resumes: [],
      listErrors: [],
      lastRV: 0,
      progress: [],
    };
    informers.push(rec);
    tasks.push(
      runInformer(
        resource,
        rec,
        () => stopReaders,
        () => faultStarted && !compacted,
      ),
    );
    return rec;
  };
  for (let i = 0; i < (o.informersViaCacher ?? 3); i++) newInformer(`cacher-${i}`, 'cacher');
  for (let i = 0; i < (o.informersViaEtcd ?? 2); i++) newInformer(`etcd-${i}`, 'etcd');
  const lagger = o.compactAfterFault ? newInformer('etcd-lagging', 'etcd', true) : undefined;
  for (const via of ['delegator', 'etcd'] as const)
    tasks.push(runPager(resource, via, lists, () => stopReaders, o.limit ?? 7));
  const writers: Promise<void>[] = [];
  for (let i = 0; i < (o.writers ?? 3); i++)
    writers.push(
      runWriter(resource, log, i, new SeededRandom(rand.intn(4294967296)), () => stopWriters, 5),
    );

  // The fault's moment: seeded, after the informers have listed and the writers have started.
  const beforeMs = 300 + rand.intn(1200);
  const afterMs = 500 + rand.intn(1500);
  o.log(
    `seed ${o.seed}: fault after ${beforeMs} ms of load, load kept ${afterMs} ms after recovery`,
  );
  await sleep(beforeMs);
  const rvBefore = resource.etcd.currentRevision();
  const faultAt = Date.now();
  faultStarted = true;
  const cacheProbeFailures: string[] = [];
  let stopProbe = false;
  const probe = probeCacheFresh(
    resource,
    rvBefore,
    () => stopProbe || stopReaders,
    cacheProbeFailures,
  );
  await o.fault();
  // Load continues until a write started after the fault is acknowledged and the cache is fresh.
  while (log.firstAckedStartedAfter(faultAt) === undefined) await sleep(20);
  const cacheFresh = await probe;
  stopProbe = true;
  let compactedAt: number | undefined;
  if (lagger) {
    // Past the lagging informer's next revision: its resumed watch starts inside the compacted history.
    while (resource.etcd.currentRevision() <= lagger.lastRV + 1) await sleep(20);
    compactedAt = await resource.compact();
    compacted = true;
    o.log(`compacted at rv ${compactedAt}; etcd-lagging stopped at rv ${lagger.lastRV}`);
  }
  await sleep(afterMs);
  stopWriters = true;
  await Promise.all(writers);

  let sentinel: AckedWrite | undefined;
  while (sentinel === undefined) {
    const startedAt = Date.now();
    try {
      const obj = await resource.create(makePod({ namespace: 'default', name: 'sentinel' }));
      sentinel = {
        key: keyOf(resource, obj),
        type: 'ADDED',
        rv: rvOf(obj),
        startedAt,
        ackedAt: Date.now(),
      };
      log.ack(sentinel);
    } catch (e) {
      o.log(`sentinel: ${describe(e)}`);
      await sleep(100);
    }
  }
  while (informers.some((r) => r.lastRV < sentinel.rv)) await sleep(20);
  stopReaders = true;
  await Promise.all(tasks);

  const prefix = resource.collectionKey();
  const finalList = await resource.store.getList(prefix, {
    resourceVersion: '',
    recursive: true,
    predicate: {},
  });
  return {
    seed: o.seed,
    log,
    informers,
    lists,
    faultAt,
    firstWriteAfterFault: log.firstAckedStartedAfter(faultAt),
    cacheFresh,
    cacheProbeFailures,
    compactedAt,
    sentinel,
    final: {
      rv: Number(finalList.resourceVersion),
      items: finalList.items.map((x) => ({ key: keyOf(resource, x), rv: rvOf(x) })),
    },
  };
}

/** A LIST's items against the acknowledged writes' state at its RV: the differences found. */
export function checkListAt(
  log: WriteLog,
  rv: number,
  items: { key: string; rv: number }[],
  what: string,
): string[] {
  const problems: string[] = [];
  for (let i = 1; i < items.length; i++)
    if (items[i - 1].key >= items[i].key)
      problems.push(`${what}: keys not strictly ascending at ${items[i].key}`);
  const got = new Map(items.map((x) => [x.key, x.rv]));
  const keys = log.keys();
  const written = new Set(keys);
  for (const x of items) {
    if (x.rv > rv) problems.push(`${what}: ${x.key}@${x.rv} is newer than the list's rv ${rv}`);
    if (!written.has(x.key)) problems.push(`${what}: ${x.key} was never written`);
  }
  for (const key of keys) {
    const want = log.stateAt(key, rv);
    if (want === undefined) continue;
    const have = got.get(key);
    if (want.present && have !== want.rv)
      problems.push(`${what} at rv ${rv}: ${key} should be at ${want.rv}, is ${have ?? 'absent'}`);
    if (!want.present && have !== undefined)
      problems.push(`${what} at rv ${rv}: ${key} should be absent, is at ${have}`);
  }
  return problems;
}

/**
 * An informer's stream: each segment's events strictly increasing after its list RV, every
 * acknowledged write inside the segment's range seen exactly once (with its key and type), no
 * event that is neither an acknowledged write nor a failed write's key; each segment but the last
 * ended with a 410; the last reached the sentinel.
 */
export function checkInformer(log: WriteLog, rec: InformerRecord, sentinelRV: number): string[] {
  const problems: string[] = [];
  const name = `${rec.name} (via ${rec.via})`;
  rec.segments.forEach((s, i) => {
    const what = `${name} segment ${i} (listed at rv ${s.listRV})`;
    problems.push(...checkListAt(log, s.listRV, s.listItems, `${what} LIST`));
    let prev = s.listRV;
    const seen = new Map<number, number>();
    for (const e of s.events) {
      if (e.rv <= prev)
        problems.push(`${what}: rv ${e.rv} after ${prev} (not strictly increasing)`);
      prev = Math.max(prev, e.rv);
      seen.set(e.rv, (seen.get(e.rv) ?? 0) + 1);
      const w = log.atRV(e.rv);
      if (w && (w.key !== e.key || w.type !== e.type))
        problems.push(`${what}: event ${e.type} ${e.key}@${e.rv}, acknowledged ${w.type} ${w.key}`);
      if (!w && !log.uncertain.has(e.key))
        problems.push(`${what}: event ${e.type} ${e.key}@${e.rv} matches no write`);
    }
    const last = prev;
    for (const w of log.acked) {
      if (w.rv <= s.listRV || w.rv > last) continue;
      const n = seen.get(w.rv) ?? 0;
      if (n !== 1) problems.push(`${what}: ${w.type} ${w.key}@${w.rv} seen ${n} times`);
    }
    const isLast = i === rec.segments.length - 1;
    if (!isLast && s.endedWith === undefined) problems.push(`${what}: relisted without a 410`);
    if (isLast && last < sentinelRV)
      problems.push(`${what}: ended at rv ${last}, before the sentinel's ${sentinelRV}`);
  });
  return problems;
}

/** Every check of a run; empty when everything held. */
export function checkFaultLoad(r: FaultLoadResult): string[] {
  const problems: string[] = [];
  for (const rec of r.informers) {
    problems.push(...checkInformer(r.log, rec, r.sentinel.rv));
    if (rec.lags && !rec.segments.some((s) => s.endedWith?.startsWith('410')))
      problems.push(`${rec.name}: resumed inside the compacted history without a 410 and a relist`);
  }
  for (const pl of r.lists) {
    if (pl.error !== undefined) {
      if (!isRetriableStatus(pl.error))
        problems.push(`paged LIST via ${pl.via} failed with ${describe(pl.error)}: not retriable`);
      continue;
    }
    problems.push(
      ...checkListAt(r.log, pl.rv, pl.items, `paged LIST via ${pl.via} (${pl.pages} pages)`),
    );
  }
  problems.push(...checkListAt(r.log, r.final.rv, r.final.items, 'final LIST from etcd'));
  // No acknowledged write lost: every key's last acknowledged state is what etcd has (or later,
  // for a key a failed write touched afterwards).
  const finalRV = new Map(r.final.items.map((x) => [x.key, x.rv]));
  for (const w of r.log.acked) {
    const have = finalRV.get(w.key);
    if (r.log.uncertain.has(w.key)) {
      if (have !== undefined && have < w.rv)
        problems.push(`lost: ${w.type} ${w.key}@${w.rv}, etcd has ${have}`);
    }
  }
  if (r.cacheFresh === undefined)
    problems.push('the watch cache never served a fresh consistent LIST');
  if (r.firstWriteAfterFault === undefined) problems.push('no write acknowledged after the fault');
  return problems;
}

/** The recovery times, as one line the lead can quote. */
export function recoveryLine(label: string, r: FaultLoadResult): string {
  const ms = (t: number | undefined): string => (t === undefined ? 'never' : `${t - r.faultAt} ms`);
  const firstRV = r.firstWriteAfterFault?.rv ?? r.sentinel.rv;
  const caughtUp = r.informers.map((rec) => rec.progress.find((p) => p.rv >= firstRV)?.at);
  const all = caughtUp.some((t) => t === undefined)
    ? undefined
    : Math.max(...(caughtUp as number[]));
  const relists = r.informers.map((rec) => `${rec.name}:${rec.segments.length - 1}`).join(' ');
  const resumes = r.informers.map((rec) => `${rec.name}:${rec.resumes.length}`).join(' ');
  const listErrors = r.lists.filter((l) => l.error !== undefined).length;
  return (
    `${label} recovery: kill->first write acked ${ms(r.firstWriteAfterFault?.ackedAt)}, ` +
    `kill->every watcher caught up ${ms(all)}, kill->cache ready and fresh ${ms(r.cacheFresh?.at)}; ` +
    `writes acked ${r.log.acked.length}, failed ${r.log.uncertain.size}; ` +
    `relists ${relists}; resumed watches ${resumes}; paged LISTs ${r.lists.length} (${listErrors} failed)`
  );
}
