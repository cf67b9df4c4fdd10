// The extension host's side of a scenario run on a worker thread (run-worker.ts): starts the
// worker, relays its progress, resolves to the run's model, and on Cancel terminates the worker,
// which frees the run's whole heap at once, and removes the partial trace. No upstream counterpart.
import * as fs from 'fs';
import { Worker } from 'worker_threads';
import type { ScenarioRunResult } from './run-engine';
import type { RunRequest, RunWorkerMessage } from './run-worker';

/** The AbortError a cancelled run rejects with (what withCancellableProgress takes for a cancel). */
function abortError(name: string): Error {
  const e = new Error(`scenario ${name} cancelled`);
  e.name = 'AbortError';
  return e;
}

/**
 * Runs a scenario on a worker thread from `workerScript` (dist/run-worker.js), streaming its trace
 * to `request.traceFile`; the file is removed when the run fails or is cancelled.
 */
export function runScenarioInWorker(
  workerScript: string,
  request: RunRequest,
  options: { signal?: AbortSignal; onProgress?: (fraction: number, message: string) => void },
): Promise<ScenarioRunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(abortError(request.name));
      return;
    }
    const worker = new Worker(workerScript, { workerData: request });
    let settled = false;
    const finish = (outcome: () => void, removeTrace: boolean): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      if (removeTrace) fs.rmSync(request.traceFile, { force: true });
      outcome();
    };
    const onAbort = (): void => {
      // Ends the worker where it is: its heap goes with it. The trace it was writing is removed
      // once it has exited (its file is closed then).
      void worker.terminate().finally(() => finish(() => reject(abortError(request.name)), true));
    };
    options.signal?.addEventListener('abort', onAbort);
    worker.on('message', (message: RunWorkerMessage) => {
      switch (message.type) {
        case 'progress':
          options.onProgress?.(message.fraction, message.message);
          break;
        case 'done': {
          const { model, summary, traceLines, truncated } = message;
          finish(
            () => resolve({ model, summary, traceLines, ...(truncated ? { truncated } : {}) }),
            false,
          );
          void worker.terminate();
          break;
        }
        case 'failed': {
          const e = new Error(message.message);
          e.name = message.name;
          finish(() => reject(e), true);
          void worker.terminate();
          break;
        }
      }
    });
    worker.on('error', (error) => finish(() => reject(error), true));
    worker.on('exit', (code) => {
      if (!settled && !options.signal?.aborted)
        finish(
          () => reject(new Error(`the scenario run's worker stopped (exit code ${code})`)),
          true,
        );
    });
  });
}
