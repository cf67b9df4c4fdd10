// No upstream counterpart: a run that is still happening. It folds a live source's trace records
// (live-recorder.ts: a running ApiServer's requests and engine events) into a RunModelBuilder as
// they come and hands out the model so far in batches: coalesced, at most one per `batchMs`, and
// only when a record arrived since the last one. Each batch first adds the current metrics (a
// `resource` record), so the Metrics view and the run's length follow the server. Between batches
// `tick` tells the time now (a run's end is now even when nothing happens), and `end` closes the
// run at the stop time. `save` gives the run as a trace whose reload folds to the same model.
import { RunModelBuilder, type RunModelBuilderOptions } from './build-run-model';
import type { RunHeader, RunModel } from './run-model';
import type { TraceMetricsRecord, TraceRecord } from './trace/trace-format';

/** What a live run reads (a LiveRecorder). */
export interface LiveRecordSource {
  readonly header: RunHeader;
  subscribe(listener: (r: TraceRecord) => void): () => void;
  /** Ms since the server started (frozen once recording stopped). */
  now(): number;
  /** The metric samples now, as a trace's `resource` record. */
  metricsRecord(): TraceMetricsRecord;
  /** The saved trace's lines, ending with `final`. */
  traceLines(final: TraceMetricsRecord): string[];
}

/** A batch at most this often (ms): a person sees it as live, the panel is not flooded. */
export const defaultBatchMs = 250;

export interface LiveRunOptions {
  batchMs?: number;
  /** Runs `fn` after `ms` (default setTimeout); returns its cancel. Tests drive batches by hand. */
  schedule?: (fn: () => void, ms: number) => () => void;
  model?: RunModelBuilderOptions;
}

function defaultSchedule(fn: () => void, ms: number): () => void {
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
}

export class LiveRun {
  private readonly builder: RunModelBuilder;
  private readonly listeners = new Set<(model: RunModel) => void>();
  private readonly nowListeners = new Set<(at: number) => void>();
  private readonly unsubscribe: () => void;
  private readonly batchMs: number;
  private readonly schedule: (fn: () => void, ms: number) => () => void;
  private cancelBatch: (() => void) | undefined;
  private dirty = false;
  private latest: RunModel;
  /** The last time `tick` told. */
  private toldAt = 0;
  /** Records folded so far. */
  records = 0;
  /** Batches handed out so far. */
  batches = 0;

  constructor(
    private readonly source: LiveRecordSource,
    o: LiveRunOptions = {},
  ) {
    this.builder = new RunModelBuilder(source.header, o.model);
    this.batchMs = o.batchMs ?? defaultBatchMs;
    this.schedule = o.schedule ?? defaultSchedule;
    this.latest = this.builder.finish();
    this.unsubscribe = source.subscribe((r) => this.add(r));
  }

  get header(): RunHeader {
    return this.source.header;
  }

  /** Hears every batch's model; returns the function that stops it. */
  onUpdate(listener: (model: RunModel) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hears the time now (ms since the server started) at each `tick`; returns its stop. */
  onNow(listener: (at: number) => void): () => void {
    this.nowListeners.add(listener);
    return () => this.nowListeners.delete(listener);
  }

  /**
   * Tells the time now when it is past the last batch's end and the last time told: nothing
   * happened since, so the model holds until then and only the run's end moves (no model is
   * built). Returns the time told.
   */
  tick(): number | undefined {
    const at = this.source.now();
    if (at <= this.latest.durationMs || at <= this.toldAt) return undefined;
    this.toldAt = at;
    for (const l of this.nowListeners) l(at);
    return at;
  }

  /** The run stopped: a last batch (with the metrics then) makes the run end at the stop time. */
  end(): RunModel {
    this.dirty = true;
    return this.flush();
  }

  /** The model of the last batch (or of the last save). */
  model(): RunModel {
    return this.latest;
  }

  /** Makes the pending batch now (if a record arrived since the last one); returns the model. */
  flush(): RunModel {
    this.cancelBatch?.();
    this.cancelBatch = undefined;
    if (!this.dirty) return this.latest;
    this.dirty = false;
    this.builder.add(this.source.metricsRecord());
    this.latest = this.builder.finish();
    this.batches++;
    for (const l of this.listeners) l(this.latest);
    return this.latest;
  }

  /**
   * The run as a trace (its lines, header first), ending with the metrics now; the live model
   * takes the same metrics, so it equals the saved trace's reload.
   */
  save(): string[] {
    this.flush();
    const final = this.source.metricsRecord();
    this.builder.add(final);
    this.latest = this.builder.finish();
    return this.source.traceLines(final);
  }

  dispose(): void {
    this.unsubscribe();
    this.cancelBatch?.();
    this.cancelBatch = undefined;
    this.listeners.clear();
    this.nowListeners.clear();
  }

  private add(r: TraceRecord): void {
    this.builder.add(r);
    this.records++;
    this.dirty = true;
    this.cancelBatch ??= this.schedule(() => {
      this.cancelBatch = undefined;
      this.flush();
    }, this.batchMs);
  }
}
