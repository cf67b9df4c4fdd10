// Benchmark: the live inspector panel's update cost (issue #12, "Performance"). 1,000 real HTTP
// watch connections to an ApiServer in this process and 100 writes/s for 3 s, recorded
// (src/server/live-recorder.ts) and folded into a live run (src/run/live-run.ts); every 250 ms
// batch is timed as the panel pays for it on the host (the snapshot with the current metrics,
// the panel model, the `run/update` message as JSON), beside the baseline of loading the same run
// from its saved trace (read, fold, panel model, `run/loaded` message as JSON). The unit test
// test/unit/server/live-panel-performance.test.ts runs the same measurement and asserts its counts.
//   node esbuild.js && node --expose-gc out/bench/live-panel.js [watchers]
import { Agent, request as httpRequest } from 'node:http';
import { panelModel } from '../src/extension/panel/panel-model';
import { protocolVersion, type ToWebview } from '../src/protocol';
import { LiveRun } from '../src/run/live-run';
import type { RunModel } from '../src/run/run-model';
import { ApiServer } from '../src/server/api-server';
import { LiveRecorder } from '../src/server/live-recorder';
import { loadRun } from '../src/run/load-run';
import { fmtBytes, fmtMs, median, runAsScript, scriptArgs, type BenchRow } from './bench-util';

export interface LivePanelOptions {
  watchers?: number;
  writesPerSecond?: number;
  seconds?: number;
  batchMs?: number;
}

export interface LivePanelResult {
  watchers: number;
  writes: number;
  /** Pods that exist before the watches open (each watch starts with their ADDED events). */
  seedPods: number;
  /** Event lines the watch connections read: the seed pods' and every write's, for every watcher. */
  eventLines: number;
  /** The live model at the end (after the save) and the saved trace's model. */
  live: RunModel;
  loaded: RunModel;
  traceLines: number;
  batches: Array<{ ms: number; chars: number }>;
  loadMs: number;
  loadChars: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function post(server: ApiServer, agent: Agent, path: string, body: unknown): Promise<number> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          'user-agent': 'writer/v1',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** What the panel is posted for a model, as JSON (its size is what crosses to the webview). */
function message(model: RunModel, loaded: boolean): string {
  const m: ToWebview = loaded
    ? {
        type: 'run/loaded',
        protocolVersion,
        run: { id: 'saved', title: 'saved live run', source: 'trace' },
        model: panelModel(model),
      }
    : { type: 'run/update', runId: 'live', model: panelModel(model) };
  return JSON.stringify(m);
}

export async function measureLivePanel(o: LivePanelOptions = {}): Promise<LivePanelResult> {
  const watchers = o.watchers ?? 1000;
  const writesPerSecond = o.writesPerSecond ?? 100;
  const seconds = o.seconds ?? 3;
  const batchMs = o.batchMs ?? 250;
  const seedPods = 10;
  const server = await ApiServer.start({ port: 0, seed: { pods: seedPods } });
  const recorder = new LiveRecorder(server);
  let pending: (() => void) | undefined;
  // The batches as LiveRun makes them (every batchMs, when something changed), timed here.
  const run = new LiveRun(recorder, {
    schedule: (fn) => {
      pending = fn;
      return () => (pending = undefined);
    },
  });
  const batches: Array<{ ms: number; chars: number }> = [];
  const batchTimer = setInterval(() => {
    if (!pending) return;
    const t = performance.now();
    const model = run.flush();
    const chars = message(model, false).length;
    batches.push({ ms: performance.now() - t, chars });
  }, batchMs);
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: Array<{ destroy(): void }> = [];
  let lines = 0;
  try {
    for (let i = 0; i < watchers; i++) {
      const req = httpRequest(`${server.url}/api/v1/namespaces/default/pods?watch=true`, {
        agent,
        headers: {
          authorization: `Bearer ${server.token}`,
          'user-agent': `informer-${i % 10}/v1.0.0`,
        },
      });
      req.on('response', (res) => {
        res.on('data', (c: Buffer) => {
          for (const b of c) if (b === 0x0a) lines++;
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.end();
      requests.push(req);
    }
    for (let i = 0; i < 1000 && run.model().watchers.length < watchers; i++) {
      await sleep(20);
      pending?.();
    }
    const writer = new Agent({ keepAlive: true, maxSockets: 10 });
    const perTick = Math.max(1, Math.round(writesPerSecond / 10));
    for (let tick = 0; tick < seconds * 10; tick++) {
      const started = Date.now();
      await Promise.all(
        Array.from({ length: perTick }, (_, j) =>
          post(server, writer, '/api/v1/namespaces/default/pods', {
            metadata: { name: `load-${tick}-${j}` },
            spec: { containers: [{ name: 'c', image: 'pause' }] },
          }),
        ),
      );
      await sleep(Math.max(0, 100 - (Date.now() - started)));
    }
    writer.destroy();
    const writes = seconds * 10 * perTick;
    const expected = watchers * (seedPods + writes);
    // Wait while delivery makes progress: a loaded machine is slower, which is no failure; 3 s
    // without a new line is a stall.
    for (let seen = lines, still = 0; lines < expected && still < 300;) {
      await sleep(10);
      if (lines === seen) still++;
      else [seen, still] = [lines, 0];
    }
  } finally {
    clearInterval(batchTimer);
    for (const r of requests) r.destroy();
    agent.destroy();
  }
  for (let i = 0; i < 500 && run.model().watchers.some((w) => w.closedAt === undefined); i++) {
    await sleep(20);
    pending?.();
  }
  const saved = run.save();
  const live = run.model();
  recorder.dispose();
  run.dispose();
  await server.stop();
  const t = performance.now();
  const { model: loaded } = await loadRun(saved);
  const loadChars = message(loaded, true).length;
  const loadMs = performance.now() - t;
  return {
    watchers,
    writes: seconds * 10 * Math.max(1, Math.round(writesPerSecond / 10)),
    seedPods,
    eventLines: lines,
    live,
    loaded,
    traceLines: saved.length,
    batches,
    loadMs,
    loadChars,
  };
}

/** The figures as lines a person reads. */
export function livePanelReport(r: LivePanelResult): string[] {
  const ms = r.batches.map((b) => b.ms);
  const chars = r.batches.map((b) => b.chars);
  return [
    `live panel, ${r.watchers} HTTP watchers, ${r.writes} writes, ${r.batches.length} batches:`,
    `  per batch (snapshot + panel model + message): median ${fmtMs(median(ms))}, max ${fmtMs(Math.max(...ms))}; message median ${fmtBytes(median(chars))}, max ${fmtBytes(Math.max(...chars))}`,
    `  the same run from its saved trace (${r.traceLines} lines: read, fold, panel model, message): ${fmtMs(r.loadMs)}, message ${fmtBytes(r.loadChars)}`,
    `  ratio batch/load: median ${(median(ms) / r.loadMs).toFixed(3)}x, max ${(Math.max(...ms) / r.loadMs).toFixed(3)}x`,
  ];
}

export async function runLivePanel(o: LivePanelOptions = {}): Promise<BenchRow[]> {
  const r = await measureLivePanel(o);
  for (const line of livePanelReport(r)) console.log(line);
  const ms = r.batches.map((b) => b.ms);
  return [
    {
      bench: 'live-panel',
      measure: `live panel batch (${r.watchers} HTTP watchers, 100 writes/s) / load of its saved trace`,
      figure: fmtMs(median(ms)),
      baseline: fmtMs(r.loadMs),
      ratio: median(ms) / r.loadMs,
      note: `median of ${r.batches.length} batches (max ${fmtMs(Math.max(...ms))}); message median ${fmtBytes(median(r.batches.map((b) => b.chars)))}; ${r.traceLines} trace lines`,
    },
  ];
}

runAsScript('live-panel', () =>
  runLivePanel({ watchers: scriptArgs()[0] ? Number(scriptArgs()[0]) : undefined }),
);
