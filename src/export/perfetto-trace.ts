// A run (scenario, live, trace or import: any RunModel) as a Chrome Trace Event JSON file that
// ui.perfetto.dev and chrome://tracing open. No upstream counterpart. Layout:
// - process "apiserver": the etcd track (etcd's revision steps: the writes), the watch cache's own
//   LISTs (its reflector) with their etcd calls nested, the cacher's dispatcher (bookmark ticks,
//   dispatches that met a blocked watcher), and the counters: cache RV, etcd RV, watch cache
//   capacity and the watchers' buffer fill summed over all watchers (a counter per watcher would be
//   a track per watcher again; each read's slice carries its own watcher's fill);
// - process "watchers": a track per watcher, its cacheWatcher states as slices (named as the
//   Watchers tab reads them, upstream's name in args.state) and what its client
//   read nested in them, with a flow arrow from the write whose event a read ended with
//   (write-deliveries.ts says what the model can and cannot tell);
// - process "clients": a track per client (more lanes when its requests overlap), its LISTs with
//   their etcd calls nested (chain and page numbered as the Clients tab does; a retried page's
//   slice says so in its name and `retryOf`) and its WATCHes.
// Names are short and fixed or bounded; everything the run says (requests, rules, keys, errors) is
// in `args`, which JSON escapes.
import { inspectContinue } from '../engine';
import { visibleText } from '../format/visible-text';
import { inferredGroupingPrefix } from '../run/views/client-name';
import { relistViaText } from '../run/relist-rule';
import { listRetryLabel, listRetryText } from '../run/views/chain-text';
import { isRealTimeRun, showsSeed } from '../run/views/run-clock';
import { watcherStateText } from '../run/views/watcher-states';
import type {
  ClientListRequest,
  ClientRecord,
  EtcdRequestRecord,
  ListRecord,
  RunModel,
  VirtualMs,
  WatcherStateName,
  WatcherTrack,
} from '../run/run-model';
import { assignLanes } from './track-lanes';
import {
  microseconds,
  writeTraceEventJson,
  type CompleteEvent,
  type TraceEvent,
  type TraceEventArgs,
} from './trace-event';
import {
  etcdWriteSteps,
  watcherReads,
  type EtcdWriteStep,
  type WatcherRead,
} from './write-deliveries';

export const apiserverPid = 1;
export const watchersPid = 2;
export const clientsPid = 3;

/** The counters' names (each has one series, `value`; Perfetto names the track "<name> value"). */
export const counterNames = {
  cacheRv: 'cache RV',
  etcdRv: 'etcd RV',
  capacity: 'watch cache capacity',
  bufferFill: 'watcher buffer fill (all watchers)',
} as const;

/** Longest track or slice name taken from the run (a user agent, a selector). */
const maxNameLength = 100;

function bounded(text: string): string {
  const visible = visibleText(text);
  return visible.length > maxNameLength ? `${visible.slice(0, maxNameLength - 1)}…` : visible;
}

/** What the export holds, known before a byte is written. */
export interface PerfettoTraceSize {
  events: number;
  watchers: number;
  clients: number;
  lists: number;
  flows: number;
}

/** A slice to emit: its interval in virtual ms, children already inside it. */
interface Slice {
  name: string;
  cat: string;
  start: VirtualMs;
  end: VirtualMs;
  args: TraceEventArgs;
  children: Slice[];
  bindId?: number;
  flow?: 'out' | 'in';
}

class TraceBuilder {
  private nextTid = 1;
  constructor(private readonly model: RunModel) {}

  tid(): number {
    return this.nextTid++;
  }

  *process(pid: number, name: string): Generator<TraceEvent> {
    yield { ph: 'M', name: 'process_name', pid, tid: 0, args: { name } };
    yield { ph: 'M', name: 'process_sort_index', pid, tid: 0, args: { sort_index: pid } };
  }

  *thread(pid: number, tid: number, name: string, sortIndex: number): Generator<TraceEvent> {
    yield { ph: 'M', name: 'thread_name', pid, tid, args: { name } };
    yield { ph: 'M', name: 'thread_sort_index', pid, tid, args: { sort_index: sortIndex } };
  }

  /** A slice and its children, depth first: the order that keeps each track's ts monotonic. */
  *slices(pid: number, tid: number, s: Slice): Generator<TraceEvent> {
    const e: CompleteEvent = {
      ph: 'X',
      name: s.name,
      cat: s.cat,
      pid,
      tid,
      ts: microseconds(s.start),
      dur: Math.max(0, microseconds(s.end - s.start)),
      args: s.args,
    };
    if (s.bindId !== undefined) {
      e.bind_id = s.bindId;
      if (s.flow === 'out') e.flow_out = true;
      else e.flow_in = true;
    }
    yield e;
    for (const c of s.children) yield* this.slices(pid, tid, c);
  }

  /** Slices that may overlap, on as many lanes (threads) as they need. */
  *lanes(pid: number, name: string, sortBase: number, slices: Slice[]): Generator<TraceEvent> {
    if (slices.length === 0) return;
    slices.sort((a, b) => a.start - b.start || b.end - a.end);
    const lanes = assignLanes(slices);
    const count = lanes.reduce((n, l) => Math.max(n, l + 1), 1);
    for (let lane = 0; lane < count; lane++) {
      const tid = this.tid();
      yield* this.thread(pid, tid, lane === 0 ? name : `${name} (${lane + 1})`, sortBase + lane);
      for (let i = 0; i < slices.length; i++)
        if (lanes[i] === lane) yield* this.slices(pid, tid, slices[i]);
    }
  }

  get runEnd(): VirtualMs {
    return this.model.durationMs;
  }
}

function etcdCallSlice(e: EtcdRequestRecord, parent: { start: number; end: number }): Slice {
  const start = Math.min(Math.max(e.at, parent.start), parent.end);
  const end = Math.min(Math.max(e.at + e.latencyMs, start), parent.end);
  const args: TraceEventArgs = {
    operation: e.operation,
    key: e.key,
    rangeEnd: e.rangeEnd ?? null,
    limit: e.limit,
    revision: e.revision,
    returned: e.kvs,
    count: e.count,
    // etcd's RangeResponse.More: keys left in the range beyond the limit.
    more: e.limit > 0 && e.count > e.kvs,
    latencyMs: e.latencyMs,
  };
  if (e.error !== undefined) args.error = e.error;
  return { name: `etcd ${e.operation}`, cat: 'etcd', start, end, args, children: [] };
}

/** A continue token as storage.DecodeContinue reads it, in words. */
function decodedToken(token: string): string {
  const r = inspectContinue(token, '/');
  if (r.error || !r.token) return `not valid: ${r.error?.message ?? 'continue key is not valid'}`;
  return `start key ${JSON.stringify(r.token.start)}, resourceVersion ${r.token.rv}`;
}

function statusText(error: { code: number; reason: string; message: string }): string {
  return `${error.code}${error.reason ? ` ${error.reason}` : ''}: ${error.message}`;
}

function listSlice(l: ListRecord, runEnd: VirtualMs, extra: TraceEventArgs = {}): Slice {
  const lastCall = l.etcdRequests.reduce((m, e) => Math.max(m, e.at + e.latencyMs), l.at);
  const interval = { start: l.at, end: l.endedAt ?? Math.max(runEnd, lastCall) };
  const args: TraceEventArgs = {
    request: l.request,
    servedBy: l.servedBy,
    rule: l.rule,
    fetched: l.fetched,
    evaluated: l.evaluated,
    returned: l.returned,
    resourceVersion: l.resourceVersion,
    continue: l.continue,
    continueDecoded: l.continue === '' ? null : decodedToken(l.continue),
    etcdRequests: l.etcdRequests.length,
    ...extra,
  };
  if (l.remainingItemCount !== undefined) args.remainingItemCount = l.remainingItemCount;
  if (l.error) args.error = statusText(l.error);
  if (l.endedAt === undefined) args.answered = false;
  if (l.waits.length)
    args.waits = l.waits.map((w) => `${w.waitedMs} ms for rv ${w.rv}: ${w.outcome}`).join('; ');
  if (l.fallbacks.length) args.fallbacks = l.fallbacks.join('; ');
  if (l.streamed) args.streamed = true;
  if (l.stream) args.streamDecision = `${l.stream.decision}: ${l.stream.reason}`;
  if (l.client !== undefined) args.client = l.client;
  if (l.connection !== undefined) args.connection = l.connection;
  const name = l.error ? `LIST → ${l.error.code}` : `LIST (${l.servedBy})`;
  return {
    name,
    cat: 'list',
    ...interval,
    args,
    children: l.etcdRequests.map((e) => etcdCallSlice(e, interval)),
  };
}

function clientSlices(c: ClientRecord, lists: Map<string, ListRecord>, runEnd: VirtualMs): Slice[] {
  const out: Slice[] = [];
  for (const r of c.requests) {
    if (r.kind === 'list') {
      const l = lists.get(r.listId);
      if (!l) continue;
      // Numbered from 1, as the Clients tab numbers them, so both name the same chain and page.
      const extra: TraceEventArgs = { chain: r.chain + 1, page: r.page + 1 };
      const failed =
        r.retryOf !== undefined ? (c.requests[r.retryOf] as ClientListRequest) : undefined;
      if (failed) extra.retryOf = listRetryText(r, failed);
      if (r.continueFrom)
        extra.continueFrom =
          'error' in r.continueFrom
            ? `not valid: ${r.continueFrom.error}`
            : `start key ${JSON.stringify(r.continueFrom.startKey)}, resourceVersion ${r.continueFrom.resourceVersion}`;
      const chain = c.chains[r.chain];
      if (chain?.relist)
        extra.relist = `${chain.relist.gapMs} ms after a watch ended (${chain.relist.because})`;
      const slice = listSlice(l, runEnd, extra);
      if (failed) slice.name = `${slice.name} ${listRetryLabel(r, failed)}`;
      out.push(slice);
      continue;
    }
    const end = r.end?.at ?? runEnd;
    const args: TraceEventArgs = {
      request: r.request,
      resourceVersion: r.resourceVersion,
      watcher: r.watcherId ?? null,
      received: r.received,
      lastRv: r.lastRv,
      ended: r.end ? `${r.end.how}: ${r.end.text}` : 'open at the end of the run',
    };
    if (r.restart)
      args.restart = r.restart.fromLastRv ? 'from its last RV' : 'not from its last RV';
    if (r.relist)
      args.relist = `${relistViaText['watch-list']}, ${r.relist.gapMs} ms after a watch ended (${r.relist.because})`;
    const code =
      r.end?.how === 'error' || r.end?.how === 'expired' ? /^\d+/.exec(r.end.text) : null;
    out.push({
      name: code && r.watcherId === undefined ? `WATCH → ${code[0]}` : 'WATCH',
      cat: 'watch',
      start: r.at,
      end: Math.max(end, r.at),
      args,
      children: [],
    });
  }
  return out;
}

/** The state slices of a watcher; a state left at the instant it was entered names no interval. */
function stateSlices(w: WatcherTrack, runEnd: VirtualMs): Slice[] {
  const end = w.closedAt ?? runEnd;
  const out: Slice[] = [];
  let passed: WatcherStateName[] = [];
  for (let i = 0; i < w.states.length; i++) {
    const s = w.states[i];
    const until = Math.min(w.states[i + 1]?.at ?? end, end);
    if (until <= s.at && i + 1 < w.states.length) {
      passed.push(s.state);
      continue;
    }
    const args: TraceEventArgs = { state: s.state };
    if (passed.length) args.passedThrough = passed.join(' → ');
    passed = [];
    if (i === w.states.length - 1) {
      args.closed = w.closeReason || (w.closedAt !== undefined ? 'closed' : 'open at the end');
      if (w.terminated) args.terminated = true;
    }
    out.push({
      // The Watchers tab's words (a watch without bookmarks is not "BookmarkSent"); upstream's in args.
      name: watcherStateText(s.state, w),
      cat: 'watcher',
      start: s.at,
      end: Math.max(until, s.at),
      args,
      children: [],
    });
  }
  return out;
}

function readSlice(r: WatcherRead, steps: readonly EtcdWriteStep[]): Slice {
  const name =
    r.events > 0 ? (r.bookmarks > 0 ? 'events + bookmark read' : 'events read') : 'bookmark read';
  const args: TraceEventArgs = {
    events: r.events,
    bookmarks: r.bookmarks,
    lastRv: r.lastRv,
  };
  if (r.bufferFill !== undefined) args.bufferFill = r.bufferFill;
  const s: Slice = { name, cat: 'delivery', start: r.at, end: r.at, args, children: [] };
  if (r.write !== undefined) {
    s.bindId = r.write + 1;
    s.flow = 'in';
    args.write = `rv ${r.writeRv ?? r.lastRv}, written at ${steps[r.write].at} ms`;
  }
  return s;
}

/** A watcher's states with its reads nested in the state they happened in. */
function watcherSlices(
  w: WatcherTrack,
  steps: readonly EtcdWriteStep[],
  runEnd: VirtualMs,
): Slice[] {
  const states = stateSlices(w, runEnd);
  let i = 0;
  for (const r of watcherReads(w, steps)) {
    while (i + 1 < states.length && states[i + 1].start <= r.at) i++;
    const s = states[i];
    if (s && r.at >= s.start && r.at <= s.end) s.children.push(readSlice(r, steps));
  }
  return states;
}

function watcherName(w: WatcherTrack): string {
  const parts = [`watcher ${w.id}`];
  if (w.client !== undefined) parts.push(w.client);
  if (w.selector !== '') parts.push(w.selector);
  return bounded(parts.join(' · '));
}

function* counters(model: RunModel, tid: number): Generator<TraceEvent> {
  const pid = apiserverPid;
  for (const p of model.resourceVersions) {
    const ts = microseconds(p.at);
    yield { ph: 'C', name: counterNames.cacheRv, pid, tid, ts, args: { value: p.cacheRv } };
    yield { ph: 'C', name: counterNames.etcdRv, pid, tid, ts, args: { value: p.etcdRv } };
  }
  for (const c of model.capacity)
    yield {
      ph: 'C',
      name: counterNames.capacity,
      pid,
      tid,
      ts: microseconds(c.at),
      args: { value: c.capacity },
    };
  // The sum of every watcher's fill, changed where one watcher's changed; a closed watcher holds none.
  const changes: Array<{ at: VirtualMs; delta: number }> = [];
  for (const w of model.watchers) {
    let fill = 0;
    for (const s of w.samples ?? []) {
      if (w.closedAt !== undefined && s.at > w.closedAt) break;
      if (s.bufferFill !== fill) changes.push({ at: s.at, delta: s.bufferFill - fill });
      fill = s.bufferFill;
    }
    if (fill !== 0 && w.closedAt !== undefined) changes.push({ at: w.closedAt, delta: -fill });
  }
  changes.sort((a, b) => a.at - b.at);
  // Empty buffers are a reading too: the track exists from the first watch on.
  const opened = model.watchers.reduce(
    (m, w) => Math.min(m, w.states[0]?.at ?? model.durationMs),
    model.durationMs,
  );
  if (model.watchers.length > 0 && !(changes.length > 0 && changes[0].at <= opened))
    changes.unshift({ at: opened, delta: 0 });
  let total = 0;
  for (let i = 0; i < changes.length; i++) {
    total += changes[i].delta;
    if (i + 1 < changes.length && changes[i + 1].at === changes[i].at) continue;
    yield {
      ph: 'C',
      name: counterNames.bufferFill,
      pid,
      tid,
      ts: microseconds(changes[i].at),
      args: { value: total },
    };
  }
}

function runTitle(model: RunModel): string {
  const h = model.header;
  // A live or probe run is on the real clock, an import replays its log's times: no seed decided
  // anything in them.
  const clock = isRealTimeRun(h.scenario)
    ? 'real time'
    : showsSeed(h.scenario)
      ? `seed ${h.seed}`
      : "the log's times, replayed";
  return bounded(`apiserver · ${h.scenario} (profile ${h.profile}, ${clock})`);
}

/** Every event of the export, track by track, each track in time order. */
export function* perfettoTraceEvents(model: RunModel): Generator<TraceEvent> {
  const b = new TraceBuilder(model);
  const runEnd = b.runEnd;
  const steps = etcdWriteSteps(model);
  const delivered = new Uint8Array(steps.length);
  for (const w of model.watchers)
    for (const r of watcherReads(w, steps)) if (r.write !== undefined) delivered[r.write] = 1;

  yield* b.process(apiserverPid, runTitle(model));
  for (const p of model.phases ?? [])
    yield {
      ph: 'i',
      name: bounded(p.name),
      cat: 'phase',
      pid: apiserverPid,
      tid: 0,
      ts: microseconds(p.at),
      s: 'g',
      args: { text: p.text },
    };
  for (const f of model.faults ?? [])
    yield {
      ph: 'i',
      name: bounded(`fault ${f.name}`),
      cat: 'fault',
      pid: apiserverPid,
      tid: 0,
      ts: microseconds(f.at),
      s: 'g',
      args: { text: f.text },
    };

  const etcdTid = b.tid();
  yield* b.thread(apiserverPid, etcdTid, 'etcd (revision steps: writes)', 0);
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    const args: TraceEventArgs = {
      revisions: s.firstRv === s.lastRv ? String(s.lastRv) : `${s.firstRv}–${s.lastRv}`,
    };
    if (s.since !== undefined)
      args.when = `between ${s.since} and ${s.at} ms (the run kept every other RV point)`;
    const slice: Slice = {
      name: `writes → rv ${s.lastRv}`,
      cat: 'etcd',
      start: s.since ?? s.at,
      end: s.at,
      args,
      children: [],
    };
    if (delivered[i]) {
      slice.bindId = i + 1;
      slice.flow = 'out';
    }
    yield* b.slices(apiserverPid, etcdTid, slice);
  }
  yield* b.lanes(
    apiserverPid,
    "watch cache reflector (the cacher's own LISTs)",
    10,
    (model.cacherLists ?? []).map((l) => listSlice(l, runEnd)),
  );
  const dispatch: Slice[] = [];
  for (const t of model.bookmarkTicks ?? [])
    dispatch.push({
      name: 'bookmark tick',
      cat: 'cacher',
      start: t.at,
      end: t.at,
      args: {
        resourceVersion: t.resourceVersion,
        buckets: t.buckets,
        watchers: t.watchers,
        queued: t.queued,
      },
      children: [],
    });
  for (const d of model.dispatch?.blocked ?? [])
    dispatch.push({
      name: 'dispatch blocked',
      cat: 'cacher',
      start: d.at,
      end: d.at + d.waitedMs,
      args: {
        rv: d.rv,
        candidates: d.candidates,
        blocked: d.blocked,
        unblocked: d.unblocked,
        terminated: d.terminated,
        budgetMs: d.budgetMs,
        waitedMs: d.waitedMs,
      },
      children: [],
    });
  yield* b.lanes(apiserverPid, 'cacher dispatch (bookmark ticks, blocked watchers)', 20, dispatch);
  yield* counters(model, etcdTid);

  yield* b.process(watchersPid, 'watchers (cacheWatcher states; what the client read)');
  for (let i = 0; i < model.watchers.length; i++) {
    const w = model.watchers[i];
    const tid = b.tid();
    yield* b.thread(watchersPid, tid, watcherName(w), i);
    for (const s of watcherSlices(w, steps, runEnd)) yield* b.slices(watchersPid, tid, s);
  }

  yield* b.process(clientsPid, 'clients (LIST and WATCH requests)');
  const lists = new Map(model.lists.map((l) => [l.id, l]));
  let sort = 0;
  for (const c of model.clients ?? []) {
    const slices = clientSlices(c, lists, runEnd);
    // Connections joined by inference say so where the track is named (client-records.ts).
    const joined = c.grouping?.startsWith(inferredGroupingPrefix) ? ' (joined by inference)' : '';
    yield* b.lanes(clientsPid, `${bounded(c.id)}${joined}`, sort, slices);
    sort += 1 + slices.length;
  }
}

/** What the export of `model` holds (one pass over the events, nothing written). */
export function perfettoTraceSize(model: RunModel): PerfettoTraceSize {
  let events = 0;
  let flows = 0;
  for (const e of perfettoTraceEvents(model)) {
    events++;
    if (e.ph === 'X' && e.flow_in) flows++;
  }
  return {
    events,
    watchers: model.watchers.length,
    clients: model.clients?.length ?? 0,
    lists: model.lists.length + (model.cacherLists?.length ?? 0),
    flows,
  };
}

/** The file's `otherData`: the run's identity and how to read the flows. */
export function perfettoOtherData(model: RunModel): Record<string, string> {
  const h = model.header;
  return {
    source: 'listwatch-inspector',
    scenario: h.scenario,
    profile: h.profile,
    ...(isRealTimeRun(h.scenario) ? {} : { seed: String(h.seed) }),
    params: JSON.stringify(h.params),
    durationMs: String(model.durationMs),
    timeline: isRealTimeRun(h.scenario)
      ? 'real time: ts 0 is the start of the run'
      : 'virtual time: ts 0 is the start of the run',
    flows:
      "an arrow joins etcd's revision step that wrote an event to a watcher's read that ended with that event; writes and reads are aggregated per virtual instant, and reads of bookmarks or of several events name only their last event",
  };
}

/** Streams the export to `write`; returns the number of events written. */
export function writePerfettoTrace(
  model: RunModel,
  write: (chunk: string) => void | Promise<void>,
  onEvents?: (written: number) => void,
): Promise<number> {
  return writeTraceEventJson(perfettoTraceEvents(model), perfettoOtherData(model), write, onEvents);
}
