// No upstream counterpart: what a scenario run will cost, told before it starts. Each scenario
// declares its workload from its own parameters (the formulas that drive it: events per second ×
// seconds, watchers × events, objects…); this module turns a workload into the estimate every face
// shows (etcd writes, deliveries, virtual duration, expected wall time, trace size, memory) and
// says whether a run is big enough to ask first.
import { formatBytesRoughly } from '../format/byte-size-text';
import { formatCount } from '../format/count-text';

/**
 * What goes into a run's trace, by kind, each counted in units whose lines and bytes are in
 * `traceUnit`.
 */
export interface TraceUnits {
  /** A watch registered with the cacher: its request, answer, cacher/watch, watcher/created, state, live and final gauges. */
  watchers?: number;
  /** A watch request answered with an error, or retried (request, answer, cacher/watch, its freshness wait). */
  rejectedWatches?: number;
  /** One cacher/dispatch event: one per write the watch cache receives. */
  dispatches?: number;
  /** A bookmark handed to a watcher (queued, then delivered). */
  bookmarks?: number;
  /** One `writes` or `seed` input line (the scenarios batch their writes per second or per 10,000). */
  writeInputs?: number;
  /** One etcd call of a LIST: etcd/request, list/page (and list/page-size). */
  listCalls?: number;
  /** One LIST's own lines: its request and answer, list/done, the delegator's decision. */
  lists?: number;
  /** One serialization/encode event. */
  encodes?: number;
  /**
   * One `watchers` record: a virtual instant at which some watcher's client-side figures changed
   * (a dispatch or bookmark its client read); watchers with the same change share its entry.
   */
  watcherSamples?: number;
  /** One metrics scrape: the last instant of a virtual second with activity, its changed counters. */
  scrapes?: number;
  /** A histogram (one label set) that changed in a scrape: its buckets, sum and count, no line of its own. */
  scrapedHistograms?: number;
  /** Any other single line (progress requests, etcd progress notifications, capacity changes, deep copies, terminations). */
  other?: number;
}

/** What a scenario says its run does, from its parameters. */
export interface RunWorkload {
  /** Virtual time the run covers (ms). */
  virtualMs: number;
  /** Every write to etcd: objects seeded into it and every create, update or delete. */
  etcdWrites: number;
  /** Of those, the ones the watch cache receives (each is dispatched to its watchers). */
  cachedWrites: number;
  /** Of those, the ones made through the etcd3 store, as a client's create, update or delete (a read, a transaction, an encoding). */
  storeWrites: number;
  /** Watch events and bookmarks handed to watchers (watchers × events, summed). */
  deliveries: number;
  /** Watch requests, retries and rejected ones included. */
  watches: number;
  /** Keys read from etcd by LISTs (the page-doubling loop's fetches, summed). */
  listedKeys: number;
  trace: TraceUnits;
}

/** What the faces show before a run. */
export interface RunEstimate {
  scenario: string;
  virtualMs: number;
  etcdWrites: number;
  deliveries: number;
  watches: number;
  /** Trace lines. */
  traceLines: number;
  traceBytes: number;
  /** Expected wall time on one unloaded core (the run is single-threaded). */
  wallMs: number;
  /** Expected heap the run holds at its end (etcd keeps every revision; watchers, the model). */
  memoryBytes: number;
}

// Lines and bytes per unit, measured on the traces of the default runs (node
// out/bench/estimate-calibration.js prints each kind's lines and mean bytes per unit).
export const traceUnit: Record<keyof TraceUnits, { lines: number; bytes: number }> = {
  watchers: { lines: 7, bytes: 1380 },
  rejectedWatches: { lines: 8, bytes: 1850 },
  dispatches: { lines: 1, bytes: 268 },
  bookmarks: { lines: 2, bytes: 296 },
  writeInputs: { lines: 1, bytes: 130 },
  listCalls: { lines: 2, bytes: 560 },
  lists: { lines: 4, bytes: 900 },
  encodes: { lines: 1, bytes: 372 },
  watcherSamples: { lines: 1, bytes: 152 },
  scrapes: { lines: 1, bytes: 450 },
  scrapedHistograms: { lines: 0, bytes: 2650 },
  other: { lines: 1, bytes: 170 },
};

// Every run's own lines: the header, the cache's start (reflector, initial list, ready, etcd
// watch), its phases and the final metrics record (a few kB of Prometheus text).
const runTraceLines = 14;
const runTraceBytes = 12_000;

// CPU cost of each unit of work (µs): a non-negative least-squares fit (relative error) of the
// CPU time, user + system, of the 20 calibration runs of bench/estimate-calibration.ts (the
// default runs and variants that scale one parameter each, each in a fresh process) on this
// project's build machine, a shared 2-core x86-64 VM with Node 20, refitted once runs had etcd
// latency and the inspector's per-instant watcher figures. Each run came within 0.67–1.25× of its
// fit. `run` is the fixed part (the engine's code warming up); `watcherSample` is one watcher read
// by the sampler at an instant that may have changed them all (watcherSamples × watches); a watch
// request's own cost fitted to 0 beside it. A faster or idle machine runs sooner, a loaded one
// later: the estimate is a guide, not a promise.
const cpuMicros = {
  run: 177_000,
  etcdWrite: 7.3,
  cachedWrite: 39,
  storeWrite: 460,
  delivery: 2.6,
  listedKey: 1.7,
  traceLine: 13.6,
  virtualSecond: 113,
  watcherSample: 1.8,
};

// Heap per unit (bytes), fitted the same way to the heap after a forced GC at each calibration
// run's end, less before it (each run within 0.61–1.33×): the in-memory etcd keeps every revision
// (nothing compacts it), a watcher holds its buffers, the model its track and each watcher's
// figures per event it read.
const heapBytes = {
  run: 1_229_000,
  etcdWrite: 334,
  watch: 3550,
  delivery: 115,
  traceLine: 47,
};

/** The estimate of a workload; `scenario` names the run. */
export function estimateWorkload(scenario: string, w: RunWorkload): RunEstimate {
  let traceLines = runTraceLines;
  let traceBytes = runTraceBytes;
  for (const [kind, n] of Object.entries(w.trace) as Array<[keyof TraceUnits, number]>) {
    traceLines += n * traceUnit[kind].lines;
    traceBytes += n * traceUnit[kind].bytes;
  }
  const micros =
    cpuMicros.run +
    w.etcdWrites * cpuMicros.etcdWrite +
    w.cachedWrites * cpuMicros.cachedWrite +
    w.storeWrites * cpuMicros.storeWrite +
    w.deliveries * cpuMicros.delivery +
    w.listedKeys * cpuMicros.listedKey +
    traceLines * cpuMicros.traceLine +
    (w.virtualMs / 1000) * cpuMicros.virtualSecond +
    (w.trace.watcherSamples ?? 0) * w.watches * cpuMicros.watcherSample;
  return {
    scenario,
    virtualMs: Math.round(w.virtualMs),
    etcdWrites: Math.round(w.etcdWrites),
    deliveries: Math.round(w.deliveries),
    watches: Math.round(w.watches),
    traceLines: Math.round(traceLines),
    traceBytes: Math.round(traceBytes),
    wallMs: Math.round(micros / 1000),
    memoryBytes: Math.round(
      heapBytes.run +
        w.etcdWrites * heapBytes.etcdWrite +
        w.watches * heapBytes.watch +
        w.deliveries * heapBytes.delivery +
        traceLines * heapBytes.traceLine,
    ),
  };
}

/** When a run is big enough to ask before it starts (the CLI's `--yes`, the extension's modal). */
export interface RunGuardLimits {
  /** Ask above this expected wall time (s). */
  wallSeconds: number;
  /** Ask above this trace size (MiB); only when a trace is written. */
  traceMiB: number;
  /** Ask above this heap (MiB). */
  memoryMiB: number;
}

/**
 * The CLI's limits, and the extension's defaults: every default run stays well below them (the
 * largest, watch-cache-resize, takes about 4 s and writes 16 MiB); a run that takes more than a
 * minute, writes more than 256 MiB of trace or needs more than 1 GiB of heap (the extension host
 * shares its heap with every other extension) is one to choose knowingly.
 */
export const defaultGuardLimits: RunGuardLimits = {
  wallSeconds: 60,
  traceMiB: 256,
  memoryMiB: 1024,
};

/** The trace cap unless told otherwise (`--max-trace-mb`, `listwatch.run.maxTraceMiB`). */
export const defaultMaxTraceMiB = 1024;

const mib = 1024 * 1024;

/** Why a run needs a yes, one reason per limit it passes; empty when it does not. */
export function guardReasons(
  e: RunEstimate,
  limits: RunGuardLimits,
  writesTrace: boolean,
): string[] {
  const out: string[] = [];
  if (e.wallMs > limits.wallSeconds * 1000)
    out.push(`expected wall time ${wallText(e.wallMs)} is over ${limits.wallSeconds} s`);
  if (writesTrace && e.traceBytes > limits.traceMiB * mib)
    out.push(`trace ${formatBytesRoughly(e.traceBytes)} is over ${limits.traceMiB} MiB`);
  if (e.memoryBytes > limits.memoryMiB * mib)
    out.push(`memory ${formatBytesRoughly(e.memoryBytes)} is over ${limits.memoryMiB} MiB`);
  return out;
}

/** How far through the run (%, at least 1) a trace larger than `capBytes` reaches that cap. */
export function traceCapPercent(e: RunEstimate, capBytes: number): number {
  return Math.max(1, Math.round((100 * capBytes) / e.traceBytes));
}

/** A wall time: `0.4 s`, `12 s`, `3 min 20 s`, `2 h 05 min`. */
export function wallText(ms: number): string {
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.round(s - m * 60)).padStart(2, '0')} s`;
  const h = Math.floor(m / 60);
  return `${h} h ${String(m - h * 60).padStart(2, '0')} min`;
}

/** A virtual duration: `12.1 s`, `12:01`, `60:12:00`. */
function virtualText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The estimate as lines a person reads (the CLI and the extension's modal print these). */
export function estimateLines(e: RunEstimate, writesTrace = true): string[] {
  return [
    `etcd writes      ${formatCount(e.etcdWrites)}`,
    `watch requests   ${formatCount(e.watches)}`,
    `deliveries       ${formatCount(e.deliveries)} watch events and bookmarks`,
    `virtual time     ${virtualText(e.virtualMs)}`,
    `wall time        about ${wallText(e.wallMs)}`,
    `trace            about ${formatBytesRoughly(e.traceBytes)} (${formatCount(e.traceLines)} lines)${writesTrace ? '' : ', not written'}`,
    `memory           about ${formatBytesRoughly(e.memoryBytes)}`,
  ];
}

/** The estimate in one line: `about 2.7 s · 60,700 etcd writes · 15.6 MiB of trace`. */
export function estimateSummary(e: RunEstimate): string {
  return `about ${wallText(e.wallMs)} · ${formatCount(e.etcdWrites)} etcd writes · ${formatBytesRoughly(e.traceBytes)} of trace`;
}
