// The worker thread a scenario run in the extension runs on (bundled to dist/run-worker.js): it
// runs the scenario, streams the trace to its file, posts progress, and posts the model back. The
// run's memory (the in-memory etcd keeps every revision: hundreds of MiB for a big run) lives in
// this worker's own heap, which is freed as a whole when the worker ends, done or cancelled
// (terminated). Run in the extension host's heap instead, it stayed there as garbage after a
// Cancel: V8 collects only when something allocates, and an idle extension host allocates
// nothing, so 650 MiB stayed in use for minutes. No upstream counterpart.
import { parentPort, workerData } from 'worker_threads';
import { runScenarioToTrace, type ScenarioRunResult } from './run-engine';

/** What the host asks the worker to run (its workerData). */
export interface RunRequest {
  name: string;
  set: Record<string, string | number | boolean>;
  seed?: number;
  traceFile: string;
  maxTraceBytes?: number;
}

/** What the worker posts back. */
export type RunWorkerMessage =
  | { type: 'progress'; fraction: number; message: string }
  | ({ type: 'done' } & ScenarioRunResult)
  | { type: 'failed'; name: string; message: string };

function post(message: RunWorkerMessage): void {
  parentPort?.postMessage(message);
}

async function main(request: RunRequest): Promise<void> {
  try {
    const result = await runScenarioToTrace(request.name, request.set, {
      seed: request.seed,
      traceFile: request.traceFile,
      maxTraceBytes: request.maxTraceBytes,
      onProgress: (fraction, message) => post({ type: 'progress', fraction, message }),
    });
    post({ type: 'done', ...result });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    post({ type: 'failed', name: e.name, message: e.message });
  }
}

if (parentPort) void main(workerData as RunRequest);
