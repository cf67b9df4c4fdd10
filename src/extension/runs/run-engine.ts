// The extension's way into the engine's runs: a scenario run streamed to a trace file, and a
// trace file read back into a RunModel, both cancellable, both reporting progress. Files are
// written and read in chunks so that a big run neither fills memory nor holds the extension host.
// No upstream counterpart.
import * as fs from 'fs';
import * as readline from 'readline';
import type { RunModel } from '../../run/run-model';
import {
  listScenarios,
  resolveParams,
  runScenario,
  type RunTruncation,
  type ScenarioDefinition,
  type ScenarioSummary,
} from '../../scenarios/runner';
import { loadRun } from '../../run/load-run';
import type { TraceReadStats } from '../../run/trace/trace-reader';
import { TraceWriter } from '../../run/trace/trace-writer';
import { formatCount } from '../../format/count-text';

export { listScenarios, resolveParams, type ScenarioDefinition };

// Lines are collected and written in pieces of about this size (one write call each).
const writeChunkChars = 1 << 20;
// Reading yields to the event loop after this many lines, so that cancellation and the rest of
// the extension host get their turn during a long read.
const linesPerYield = 5000;

/** Trace lines appended to a file: buffered, written synchronously a chunk at a time. */
export class TraceFileSink {
  readonly file: string;
  private readonly fd: number;
  private pending: string[] = [];
  private pendingChars = 0;
  /** Characters written so far. */
  written = 0;

  constructor(file: string) {
    this.file = file;
    this.fd = fs.openSync(file, 'w');
  }

  line(text: string): void {
    this.pending.push(text, '\n');
    this.pendingChars += text.length + 1;
    if (this.pendingChars >= writeChunkChars) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('');
    fs.writeSync(this.fd, chunk);
    this.written += chunk.length;
    this.pending = [];
    this.pendingChars = 0;
  }

  close(): void {
    try {
      this.flush();
    } finally {
      fs.closeSync(this.fd);
    }
  }
}

/** A finished run: its model, its summary and its trace's line count; `truncated` when the trace
 * reached its cap. */
export interface ScenarioRunResult {
  model: RunModel;
  summary: ScenarioSummary;
  traceLines: number;
  truncated?: RunTruncation;
}

export interface RunProgress {
  (fraction: number, message: string): void;
}

/**
 * Runs a scenario, streaming its trace to `traceFile`. The file is removed when the run fails or
 * is cancelled (an AbortError then). A run stopped at `maxTraceBytes` is kept, with `truncated`.
 */
export async function runScenarioToTrace(
  name: string,
  set: Record<string, string | number | boolean>,
  options: {
    seed?: number;
    traceFile: string;
    signal?: AbortSignal;
    onProgress?: RunProgress;
    maxTraceBytes?: number;
  },
): Promise<ScenarioRunResult> {
  const sink = new TraceFileSink(options.traceFile);
  const writer = new TraceWriter((line) => sink.line(line));
  let ok = false;
  try {
    const result = await runScenario(name, set, {
      seed: options.seed,
      signal: options.signal,
      onProgress: options.onProgress,
      trace: writer,
      maxTraceBytes: options.maxTraceBytes,
      // Hand the event loop back between steps: progress is posted, and an in-process caller's
      // Cancel arrives (the extension's worker is terminated instead).
      yieldToHost: () => new Promise<void>((resolve) => setImmediate(resolve)),
    });
    ok = true;
    return { ...result, traceLines: writer.lines };
  } finally {
    sink.close();
    if (!ok) fs.rmSync(options.traceFile, { force: true });
  }
}

/** The lines of a text file, read as a stream; yields to the event loop every few thousand lines. */
export async function* fileLines(file: string, signal?: AbortSignal): AsyncGenerator<string> {
  const stream = fs.createReadStream(file, { encoding: 'utf8' });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let count = 0;
  try {
    for await (const line of lines) {
      yield line;
      if (++count % linesPerYield === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (signal?.aborted) return;
      }
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

/** Counts the lines of a file cheaply (newline bytes), to turn "lines read" into a fraction. */
export async function countLines(file: string): Promise<number> {
  let count = 0;
  let last = 10;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) count++;
    if (chunk.length > 0) last = chunk[chunk.length - 1];
  }
  return last === 10 ? count : count + 1;
}

/**
 * Reads a trace file into its RunModel. Unreadable files and a broken header throw (the message
 * names the line); broken record lines are counted in `stats.rejected` with samples naming them.
 */
export async function readTraceFile(
  file: string,
  options: { signal?: AbortSignal; onProgress?: RunProgress } = {},
): Promise<{ model: RunModel; stats: TraceReadStats }> {
  await fs.promises.access(file, fs.constants.R_OK);
  const total = options.onProgress ? await countLines(file) : 0;
  return loadRun(fileLines(file, options.signal), {
    signal: options.signal,
    onProgress: (read) =>
      options.onProgress?.(
        total > 0 ? Math.min(1, read / total) : 0,
        `${formatCount(read)} of ${formatCount(total)} lines`,
      ),
  });
}
