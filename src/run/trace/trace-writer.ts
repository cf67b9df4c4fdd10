// No upstream counterpart: writes a listwatch trace (trace-format.ts) line by line to a sink as the
// run produces it. Nothing is buffered here: a long run streams to its file as it goes.
import type { EngineEvent } from '../../engine';
import {
  traceFormat,
  traceVersion,
  type ScenarioInput,
  type TraceHeader,
  type TraceRecord,
  type WatcherFinal,
} from './trace-format';

/** Receives one line at a time, without the line break. */
export type TraceSink = (line: string) => void;

export class TraceWriter {
  /** Lines written so far (the header included). */
  lines = 0;
  /** Characters written so far, line breaks included (bytes, for the ASCII JSON a trace mostly is). */
  chars = 0;
  private headerWritten = false;
  private readonly sink: TraceSink;

  constructor(sink: TraceSink) {
    if (typeof sink !== 'function')
      throw new TypeError('TraceWriter: sink must be a function taking one line');
    this.sink = sink;
  }

  /** Line 1. Must come first, once. */
  header(h: Omit<TraceHeader, 'format' | 'version'>): void {
    if (this.headerWritten) throw new Error('TraceWriter: the header was already written');
    this.headerWritten = true;
    this.write({
      format: traceFormat,
      version: traceVersion,
      scenario: h.scenario,
      profile: h.profile,
      seed: h.seed,
      params: h.params,
    });
  }

  input(at: number, input: ScenarioInput): void {
    this.record({ kind: 'input', at, ...input });
  }

  event(event: EngineEvent): void {
    this.record({ kind: 'event', event });
  }

  resourceMetrics(at: number, samples: Record<string, number>, text: string): void {
    this.record({ kind: 'metrics', scope: 'resource', at, samples, text });
  }

  watcherFinal(at: number, watcher: WatcherFinal): void {
    this.record({ kind: 'metrics', scope: 'watcher', at, watcher });
  }

  record(r: TraceRecord): void {
    if (!this.headerWritten) throw new Error('TraceWriter: write the header first');
    this.write(r);
  }

  private write(value: unknown): void {
    this.lines++;
    const line = JSON.stringify(value);
    this.chars += line.length + 1;
    this.sink(line);
  }
}
