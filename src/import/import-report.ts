// No upstream counterpart: the analysis of an import, the storage-level story of the user's own
// logs. An ImportReportBuilder is fed the imported requests one at a time (import-files.ts's sink:
// in completion order) and keeps per-client aggregates only, so millions of requests cost what a
// few thousand do: per client (each process a client log names, else a user agent) its
// requests, LIST pagination chains with their decoded tokens (pagination-chains.ts), watches and
// how they ended (watch-durations.ts), relists (relists.ts), latency, and the relist storms across clients (relist-storms.ts); per request
// shape how the chosen profile would serve it (the explainer, injected). `finish()` returns the
// ImportReport that `listwatch import --json` prints and RunModel.imported carries.
import {
  provesRequestWatchProgressDisabled,
  requestWatchProgressProof,
} from '../run/request-watch-progress-proof';
import {
  importReportFormat,
  importReportVersion,
  type ExplainedRequest,
  type ImportProfile,
  type ImportReport,
  type ImportedClient,
  type ImportedWatch,
  type ListMode,
  type PaginationChain,
  type Relist,
  type ServedAs,
  type Summary,
  type WatchEnd,
} from '../run/import-report';
import type { ImportAssumptions, ImportedRequest, RejectedLine } from '../run/imported-request';
import type { RequestFields } from './line-parser';
import { Distribution } from './distribution';
import { chainRule, PaginationChains } from './pagination-chains';
import { timeJoinRule } from './time-verb-url-join';
import { importRelistRule, RelistDetector, type FoundRelist } from './relists';
import { RelistStormDetector, stormRule } from './relist-storms';
import { requestScope, requestShape, resourceKey, splitRequestURI } from './request-query';
import { Retained } from './retained';
import { importedClientName } from '../run/views/client-name';
import {
  expiredInStream,
  sendsInitialEvents,
  watchEnds,
  watchOutcome,
  type WatchOutcome,
} from './watch-durations';

/** Per client: the users kept by name, the watches and relists kept one by one. */
export const maxUsersPerClient = 20;
export const maxWatchesPerClient = 50;
export const maxRelistsPerClient = 50;
/** Distinct request shapes explained; requests of further shapes are counted (shapesDropped). */
export const maxShapes = 500;
/** Rejected lines kept with their reasons; every one is counted. */
export const maxRejectedSamples = 20;

/** explainRequest(url, options) as the explain engineer exports it. */
export type ExplainRequest = (
  url: string,
  options: { profile: ImportProfile; state?: { consistentReadsSupported: boolean } },
) => Promise<ExplainedRequest>;

/** What the reader and merger tell about the input (import-files.ts ImportResult). */
export interface ImportTotals {
  records: number;
  lines: number;
  skipped: number;
  rejected?: number;
  files: ReadonlyArray<unknown>;
  assumptions: ImportAssumptions;
  rejectedSamples?: readonly RejectedLine[];
}

function emptyEnds(): Record<WatchEnd, number> {
  const out = {} as Record<WatchEnd, number>;
  for (const e of watchEnds) out[e] = 0;
  return out;
}

function bump(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

function line(r: ImportedRequest): string {
  const s = r.sources[0];
  return s ? `${s.file}:${s.line}` : r.id;
}

const seconds = (v: number) => Math.round(v * 1000) / 1000;
const millis = (v: number) => Math.round(v * 1000) / 1000;

function summaries(
  m: Map<string, Distribution>,
  round: (v: number) => number,
): Record<string, Summary> {
  const out: Record<string, Summary> = {};
  for (const k of [...m.keys()].sort()) out[k] = (m.get(k) as Distribution).summary(round);
  return out;
}

function latencyOf(r: ImportedRequest): number | undefined {
  if (r.stageLatencyMs !== undefined) return r.stageLatencyMs;
  if (r.startInFile && r.receivedAt !== undefined && r.completedAt !== undefined)
    return Math.max(0, r.completedAt - r.receivedAt);
  return r.latencyMs;
}

/**
 * How long a WatchList watch's list took: to the bookmark that ended its initial events, as its
 * client's reflector measured it (from just before it sent the request), else from the request's
 * start in the log to that line.
 */
function initialListMsOf(r: ImportedRequest): number | undefined {
  const end = r.initialEventsEnd;
  if (!end) return undefined;
  if (end.durationMs !== undefined) return end.durationMs;
  if (r.startInFile && r.receivedAt !== undefined) return Math.max(0, end.at - r.receivedAt);
  return undefined;
}

/**
 * Whether a WatchList watch's initial events ended: yes when its client logged their end, no when
 * it was refused; undefined when the log does not say (an audit log).
 */
function initialEventsEndedOf(r: ImportedRequest): boolean | undefined {
  if (r.initialEventsEnd) return true;
  if (r.code !== undefined && r.code >= 300) return false;
  if (r.watchEnd?.beforeInitialEvents) return false;
  return undefined;
}

class ClientFold {
  readonly users = new Set<string>();
  usersDropped = 0;
  requests = 0;
  readonly byVerb: Record<string, number> = {};
  readonly byCode: Record<string, number> = {};
  lists = 0;
  watches = 0;
  watchLists = 0;
  http410 = 0;
  http429 = 0;
  http504 = 0;
  firstAt: number | null = null;
  lastAt: number | null = null;
  readonly durations = new Distribution();
  startedBeforeLog = 0;
  openAtEnd = 0;
  readonly ends = emptyEnds();
  readonly watchSamples = new Retained<ImportedWatch>(maxWatchesPerClient);
  readonly latency = new Map<string, Distribution>();
  readonly chains: PaginationChains;
  readonly relists = new Retained<Relist>(maxRelistsPerClient);
  /** Remembers each LIST from scratch with its chain, for a watch whose end is read later. */
  readonly relistDetector = new RelistDetector<PaginationChain>();

  constructor(
    /** The first User-Agent its requests named ('' until one does). */
    public userAgent: string,
    readonly process: string | undefined,
    nextChainId: () => number,
  ) {
    this.chains = new PaginationChains(nextChainId);
  }

  finish(): ImportedClient {
    const chains = this.chains.finish();
    const mode: ListMode =
      this.watchLists > 0
        ? this.lists > 0
          ? 'watch-list+list'
          : 'watch-list'
        : this.lists > 0
          ? this.watches > 0
            ? 'list-watch'
            : 'list-only'
          : this.watches > 0
            ? 'watch-only'
            : 'none';
    return {
      userAgent: this.userAgent,
      ...(this.process !== undefined ? { process: this.process } : {}),
      users: [...this.users].sort(),
      usersDropped: this.usersDropped,
      requests: this.requests,
      byVerb: { ...this.byVerb },
      byCode: { ...this.byCode },
      lists: this.lists,
      watches: this.watches,
      watchLists: this.watchLists,
      mode,
      http410: this.http410,
      http429: this.http429,
      http504: this.http504,
      firstAt: this.firstAt,
      lastAt: this.lastAt,
      watchDurationsSeconds: this.durations.summary(seconds),
      watchesStartedBeforeLog: this.startedBeforeLog,
      watchesOpenAtEnd: this.openAtEnd,
      watchEnds: { ...this.ends },
      watchSamples: this.watchSamples.items(),
      watchSamplesDropped: this.watchSamples.dropped,
      latencyMs: summaries(this.latency, millis),
      paginationChains: chains.chains,
      chainsTotal: chains.total,
      chainsDropped: chains.dropped,
      singleLists: chains.singleLists,
      singleListsRetried: chains.singleListsRetried,
      relists: this.relists.total,
      relistDetails: this.relists.items(),
      relistsDropped: this.relists.dropped,
    };
  }
}

/**
 * Folds imported requests into an ImportReport. It is the sink import-files.ts writes to:
 * `request(r)` per merged request, `reject(r)` per rejected line.
 */
export class ImportReportBuilder {
  private readonly clients = new Map<string, ClientFold>();
  private readonly byVerb: Record<string, number> = {};
  private readonly byCode: Record<string, number> = {};
  private total = 0;
  private readonly joins = { auditID: 0, timeVerbURL: 0 };
  private readonly latency = new Map<string, Distribution>();
  private readonly watchDurations = new Distribution();
  private readonly initialLists = new Distribution();
  private readonly watchTotals = {
    total: 0,
    watchLists: 0,
    startedBeforeLog: 0,
    openAtEnd: 0,
    byEnd: emptyEnds(),
  };
  private from: number | null = null;
  private to: number | null = null;
  private readonly storms = new RelistStormDetector();
  private readonly shapes = new Map<string, ServedAs>();
  private shapesDropped = 0;
  private etcdProven: ImportReport['etcdProven'];
  private rejectedCount = 0;
  private readonly rejectedSamples: RejectedLine[] = [];
  private chainSeq = 0;

  constructor(private readonly profile: ImportProfile = '1.36') {}

  reject(r: RejectedLine): void {
    this.rejectedCount++;
    if (this.rejectedSamples.length < maxRejectedSamples) this.rejectedSamples.push(r);
  }

  /**
   * A watch began and is still open (the import emits it when it ends, after the LISTs that end
   * first): its client's relist rule learns now that a WATCH was received.
   */
  watchOpened(fields: RequestFields): void {
    const r = fields as ImportedRequest;
    const at = r.receivedAt ?? r.responseStartedAt;
    const key = at !== undefined ? this.relistKey(r) : undefined;
    if (key !== undefined && at !== undefined)
      this.client(r.userAgent ?? '', r.clientProcess).relistDetector.opened(key, at);
  }

  request(r: ImportedRequest): void {
    this.total++;
    if (!this.etcdProven && provesRequestWatchProgressDisabled(r))
      this.etcdProven = { requestWatchProgressSupported: false, ...requestWatchProgressProof(r) };
    if (r.joinedBy === 'audit-id') this.joins.auditID++;
    else if (r.joinedBy === 'time-verb-url') this.joins.timeVerbURL++;
    bump(this.byVerb, r.verb);
    const code = r.code !== undefined ? String(r.code) : 'unknown';
    bump(this.byCode, code);
    const c = this.client(r.userAgent, r.clientProcess);
    c.requests++;
    bump(c.byVerb, r.verb);
    bump(c.byCode, code);
    if (r.user !== undefined && !c.users.has(r.user)) {
      if (c.users.size < maxUsersPerClient) c.users.add(r.user);
      else c.usersDropped++;
    }
    if (r.code === 410) c.http410++;
    else if (r.code === 429) c.http429++;
    else if (r.code === 504) c.http504++;
    for (const t of [r.receivedAt, r.completedAt, r.watchEnd?.at]) {
      if (t === undefined) continue;
      if (this.from === null || t < this.from) this.from = t;
      if (this.to === null || t > this.to) this.to = t;
      if (c.firstAt === null || t < c.firstAt) c.firstAt = t;
      if (c.lastAt === null || t > c.lastAt) c.lastAt = t;
    }
    this.noteShape(r);
    if (r.verb === 'watch') this.watch(c, r);
    else {
      const ms = latencyOf(r);
      if (ms !== undefined) {
        this.distribution(this.latency, r.verb).add(ms);
        this.distribution(c.latency, r.verb).add(ms);
      }
      if (r.verb === 'list') this.list(c, r);
    }
  }

  finish(totals?: ImportTotals): ImportReport {
    // A client with no request was only named by a watch's opening (watchOpened) that was then
    // joined to another file's record of it, under that record's user agent (a client log's
    // watch without one, joined to its audit event): it is no client of the import.
    const clients = [...this.clients.values()]
      .map((c) => c.finish())
      .filter((c) => c.requests > 0)
      .sort((a, b) => {
        const x = importedClientName(a);
        const y = importedClientName(b);
        return b.requests - a.requests || (x < y ? -1 : x > y ? 1 : 0);
      });
    const storms = this.storms.finish();
    const rejectedCount = Math.max(totals?.rejected ?? 0, this.rejectedCount);
    const samples = this.rejectedSamples.length
      ? this.rejectedSamples.slice()
      : (totals?.rejectedSamples ?? []).slice(0, maxRejectedSamples);
    return {
      format: importReportFormat,
      version: importReportVersion,
      profile: this.profile,
      files: totals ? [...totals.files] : [],
      records: totals?.records ?? this.total,
      lines: totals?.lines ?? 0,
      skipped: totals?.skipped ?? 0,
      rejected: { count: rejectedCount, samples },
      assumptions: totals?.assumptions ?? { timeZone: 'UTC' },
      span: { from: this.from, to: this.to },
      rules: { relist: importRelistRule, chains: chainRule, storms: stormRule },
      requests: { total: this.total, byVerb: { ...this.byVerb }, byCode: { ...this.byCode } },
      joins: { ...this.joins, rule: timeJoinRule },
      latencyMs: summaries(this.latency, millis),
      watches: {
        ...this.watchTotals,
        byEnd: { ...this.watchTotals.byEnd },
        durationsSeconds: this.watchDurations.summary(seconds),
        initialListsSeconds: this.initialLists.summary(seconds),
      },
      clients,
      storms: storms.storms,
      stormsDropped: storms.dropped,
      servedAs: [...this.shapes.values()].map((s) => ({ ...s })),
      ...(this.etcdProven ? { etcdProven: this.etcdProven } : {}),
      shapesDropped: this.shapesDropped,
    };
  }

  /**
   * A request's client: the process its client log names (each process is one, whatever the
   * User-Agent says: two kubectl runs share one), else its User-Agent (a server's log alone).
   */
  private client(userAgent: string, process: string | undefined): ClientFold {
    const key = process !== undefined ? `process\0${process}` : `agent\0${userAgent}`;
    let c = this.clients.get(key);
    if (!c) {
      c = new ClientFold(userAgent, process, () => ++this.chainSeq);
      this.clients.set(key, c);
    }
    // -v=6 lines of a process show no User-Agent; its -v=8 lines, or its audit events, do.
    if (c.userAgent === '' && userAgent !== '') c.userAgent = userAgent;
    return c;
  }

  private distribution(m: Map<string, Distribution>, key: string): Distribution {
    let d = m.get(key);
    if (!d) {
      d = new Distribution();
      m.set(key, d);
    }
    return d;
  }

  private noteShape(r: ImportedRequest): void {
    if (r.verb !== 'list' && r.verb !== 'watch') return;
    const shape = requestShape(r);
    const known = this.shapes.get(shape);
    if (known) known.requests++;
    else if (this.shapes.size < maxShapes)
      this.shapes.set(shape, { shape, verb: r.verb, example: r.requestURI, requests: 1 });
    else this.shapesDropped++;
  }

  private relistKey(r: ImportedRequest): string | undefined {
    const scope = requestScope(r);
    return scope ? `${r.user ?? ''}\n${resourceKey(scope)}` : undefined;
  }

  private noteRelist(
    c: ClientFold,
    r: ImportedRequest,
    found: Omit<Relist, 'resource' | 'user'>,
  ): Relist {
    const scope = requestScope(r);
    const relist: Relist = {
      ...found,
      resource: scope ? resourceKey(scope) : '',
      ...(r.user !== undefined ? { user: r.user } : {}),
    };
    // Storms are by User-Agent (stormRule): a process that names none is known by itself.
    const agent = c.userAgent || (c.process ?? '');
    this.storms.add(found.at, agent, `${importedClientName(c)}\n${r.user ?? ''}`);
    return relist;
  }

  private list(c: ClientFold, r: ImportedRequest): void {
    c.lists++;
    const scope = requestScope(r);
    const fromScratch = !splitRequestURI(r.requestURI).query.get('continue');
    const key = this.relistKey(r);
    const chain = c.chains.add(r, scope);
    const found =
      fromScratch && key !== undefined
        ? c.relistDetector.list(key, r.receivedAt ?? r.completedAt, line(r), chain, r.clientProcess)
        : undefined;
    if (found) this.noteListRelist(c, r, found, chain);
  }

  /** A LIST from scratch found to be a relist (when read, or later by the watch it followed). */
  private noteListRelist(
    c: ClientFold,
    r: ImportedRequest,
    found: FoundRelist,
    chain: PaginationChain,
  ): void {
    c.chains.relisted(chain);
    const relist = this.noteRelist(c, r, found);
    relist.chain = chain.id;
    c.relists.add(relist, true);
  }

  private watch(c: ClientFold, r: ImportedRequest): void {
    c.watches++;
    const watchList = sendsInitialEvents(r);
    if (watchList) {
      c.watchLists++;
      this.watchTotals.watchLists++;
    }
    this.watchTotals.total++;
    const outcome: WatchOutcome = watchOutcome(r);
    c.ends[outcome.how]++;
    this.watchTotals.byEnd[outcome.how]++;
    // A 410 inside the stream (the ERROR event the reflector logged; the response itself was 200).
    if (expiredInStream(r, outcome)) c.http410++;
    if (!r.startInFile) {
      c.startedBeforeLog++;
      this.watchTotals.startedBeforeLog++;
    }
    if (!r.endInFile) {
      c.openAtEnd++;
      this.watchTotals.openAtEnd++;
    }
    if (outcome.durationMs !== undefined) {
      c.durations.add(outcome.durationMs / 1000);
      this.watchDurations.add(outcome.durationMs / 1000);
    }
    const initialListMs = initialListMsOf(r);
    if (initialListMs !== undefined) this.initialLists.add(initialListMs / 1000);
    const key = this.relistKey(r);
    if (key !== undefined) {
      const found = c.relistDetector.watch(
        key,
        r.startInFile ? r.receivedAt : undefined,
        outcome,
        watchList,
        line(r),
        initialEventsEndedOf(r),
        r.clientProcess,
      );
      if (found.relist) c.relists.add(this.noteRelist(c, r, found.relist), true);
      if (found.listedBefore)
        this.noteListRelist(c, r, found.listedBefore.relist, found.listedBefore.ref);
    }
    const w: ImportedWatch = {
      receivedAt: r.startInFile ? (r.receivedAt ?? null) : null,
      endedAt: outcome.endedAt ?? null,
      durationSeconds: outcome.durationMs !== undefined ? seconds(outcome.durationMs / 1000) : null,
      how: outcome.how,
      requestURI: r.requestURI,
      ...(r.user !== undefined ? { user: r.user } : {}),
      resourceVersion: splitRequestURI(r.requestURI).query.get('resourceVersion') ?? '',
      watchList,
      initialListSeconds: initialListMs !== undefined ? seconds(initialListMs / 1000) : null,
      ...(r.code !== undefined ? { code: r.code } : {}),
      ...(outcome.text !== undefined ? { text: outcome.text } : {}),
      line: line(r),
    };
    c.watchSamples.add(w, !['timeout', 'open', 'client-closed'].includes(outcome.how));
  }
}

/**
 * Fills `servedAs[].explained` with the explainer's answer for each shape's first request, under
 * the report's profile and what the log proves of its etcd (a cluster whose etcd lacks
 * RequestWatchProgress reads consistent LISTs from etcd and refuses WatchList). Shapes are few (at
 * most maxShapes): one call each, in order.
 */
export async function explainShapes(report: ImportReport, explain: ExplainRequest): Promise<void> {
  const state = report.etcdProven ? { consistentReadsSupported: false } : undefined;
  for (const s of report.servedAs) {
    try {
      const e = await explain(s.example, { profile: report.profile, ...(state ? { state } : {}) });
      // The fields the report shows: an answer's etcd calls and state stay with `listwatch explain`.
      s.explained = {
        kind: e.kind,
        servedBy: e.servedBy,
        rule: e.rule,
        limitHonoured: e.limitHonoured,
        consistentRead: e.consistentRead,
        mayWait: e.mayWait,
        ...(e.errorCode !== undefined ? { errorCode: e.errorCode } : {}),
        ...(e.message !== undefined ? { message: e.message } : {}),
      };
    } catch (e) {
      s.error = e instanceof Error ? e.message : String(e);
    }
  }
}
