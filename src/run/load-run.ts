// No upstream counterpart: reads a whole trace into a RunModel (the report command and the
// extension's "open trace" use it): the streaming reader, then the same fold a live run uses.
import { RunModelBuilder, type RunModelBuilderOptions } from './build-run-model';
import type { RunModel } from './run-model';
import { readTrace, type TraceReadOptions, type TraceReadStats } from './trace/trace-reader';

export interface LoadRunOptions extends TraceReadOptions {
  model?: RunModelBuilderOptions;
}

/** Folds a trace into its RunModel; rejected lines are counted in `model.rejected` and `stats`. */
export async function loadRun(
  lines: AsyncIterable<string> | Iterable<string>,
  opts: LoadRunOptions = {},
): Promise<{ model: RunModel; stats: TraceReadStats }> {
  const reader = readTrace(lines, opts);
  const header = await reader.header();
  const builder = new RunModelBuilder(header, opts.model);
  for await (const { record } of reader) builder.add(record);
  builder.addRejected(reader.stats.rejected, reader.stats.rejectedSamples);
  return { model: builder.finish(), stats: reader.stats };
}
