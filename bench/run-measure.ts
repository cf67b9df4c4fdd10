// What a scenario run did, measured from its model and its trace: etcd writes, deliveries, watch
// requests, trace lines and bytes (by record kind when asked), CPU time and the heap it holds at
// its end. The estimate calibration (estimate-calibration.ts) and the estimate's unit test
// (test/unit/scenarios/run-estimate.test.ts) hold the estimates against these figures.
import { runScenario } from '../src/scenarios/runner';
import { TraceWriter } from '../src/run/trace/trace-writer';
import { heapUsed } from './bench-util';

/** What a run did, read from its model and its trace. */
export interface RunMeasure {
  etcdWrites: number;
  deliveries: number;
  watches: number;
  traceLines: number;
  traceBytes: number;
  virtualMs: number;
  cpuMs: number;
  /** Heap after a forced GC at the end of the run, less before it (with --expose-gc). */
  heapBytes: number;
  /** Lines and bytes per record kind (`input:writes`, `event:cacher/dispatch`…). */
  kinds: Map<string, { lines: number; bytes: number }>;
}

function kindOf(line: string): string {
  const r = JSON.parse(line) as {
    kind?: string;
    action?: string;
    scope?: string;
    event?: { type: string };
  };
  if (r.kind === 'event') return `event:${r.event?.type}`;
  if (r.kind === undefined) return 'header';
  return `${r.kind}:${r.action ?? r.scope ?? ''}`;
}

/** Runs a scenario (seed 1) and measures it; `kinds` also tallies every line by kind. */
export async function measureRun(
  name: string,
  set: Record<string, string | number | boolean>,
  kinds = false,
): Promise<RunMeasure> {
  let traceLines = 0;
  let traceBytes = 0;
  const byKind = new Map<string, { lines: number; bytes: number }>();
  const trace = new TraceWriter((line) => {
    traceLines++;
    const bytes = Buffer.byteLength(line) + 1;
    traceBytes += bytes;
    if (!kinds) return;
    const k = kindOf(line);
    const t = byKind.get(k) ?? { lines: 0, bytes: 0 };
    t.lines++;
    t.bytes += bytes;
    byKind.set(k, t);
  });
  const before = heapUsed();
  let atEnd = 0;
  const cpu0 = process.cpuUsage();
  const { model } = await runScenario(name, set, {
    trace,
    onProgress: (fraction) => {
      if (fraction >= 1) atEnd = heapUsed();
    },
  });
  const cpu = process.cpuUsage(cpu0);
  return {
    etcdWrites: model.writes?.total ?? 0,
    deliveries: model.watchers.reduce((a, w) => a + w.eventsReceived, 0),
    watches: model.watchRequests?.length ?? 0,
    traceLines,
    traceBytes,
    virtualMs: model.durationMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapBytes: Math.max(0, atEnd - before),
    kinds: byKind,
  };
}
