// The Chrome Trace Event Format (the JSON Object Format that chrome://tracing and ui.perfetto.dev
// open): the event shapes this exporter writes, and the streaming writer. No upstream counterpart
// in Kubernetes; the format is Chrome's ("Trace Event Format", docs.google.com/document/d/
// 1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU) as Perfetto's JSON importer reads it
// (src/trace_processor/importers/json/json_trace_parser_impl.cc).

/** Arguments shown in the viewer's details panel: plain JSON data from the run. */
export type TraceEventArgs = Record<string, string | number | boolean | null>;

/** Names tracks and orders them (`ph: "M"`). */
export interface MetadataEvent {
  ph: 'M';
  name: 'process_name' | 'process_sort_index' | 'thread_name' | 'thread_sort_index';
  pid: number;
  tid: number;
  args: { name: string } | { sort_index: number };
}

/**
 * A slice with its duration (`ph: "X"`), in microseconds. Flows use the "v2" fields: the slice
 * itself carries `bind_id` and `flow_out` (the source) or `flow_in` (a destination), so an arrow
 * binds to exactly this slice, not to whatever encloses a timestamp.
 */
export interface CompleteEvent {
  ph: 'X';
  name: string;
  cat: string;
  pid: number;
  tid: number;
  ts: number;
  dur: number;
  args?: TraceEventArgs;
  bind_id?: number;
  flow_out?: true;
  flow_in?: true;
}

/** A counter sample (`ph: "C"`): each numeric arg is a series; counters belong to the process. */
export interface CounterEvent {
  ph: 'C';
  name: string;
  pid: number;
  tid: number;
  ts: number;
  args: Record<string, number>;
}

/** A moment (`ph: "i"`); scope `g` draws it across every track (a scenario's phase). */
export interface InstantEvent {
  ph: 'i';
  name: string;
  cat: string;
  pid: number;
  tid: number;
  ts: number;
  s: 'g' | 'p' | 't';
  args?: TraceEventArgs;
}

export type TraceEvent = MetadataEvent | CompleteEvent | CounterEvent | InstantEvent;

/** Virtual milliseconds as the format's microseconds, kept to the nanosecond. */
export function microseconds(ms: number): number {
  return Math.round(ms * 1e6) / 1000;
}

/** Events written per chunk: large enough to keep writes few, small enough to bound memory. */
const eventsPerChunk = 2000;

/**
 * Writes `{"traceEvents":[…],"displayTimeUnit":"ms","otherData":{…}}` one chunk of events at a
 * time: a run of millions of events never becomes one string. `write` may return a promise (a
 * file stream waiting to drain); the next chunk waits for it.
 */
export async function writeTraceEventJson(
  events: Iterable<TraceEvent>,
  otherData: Record<string, string>,
  write: (chunk: string) => void | Promise<void>,
  onEvents?: (written: number) => void,
): Promise<number> {
  await write('{"traceEvents":[\n');
  let written = 0;
  let chunk: string[] = [];
  for (const e of events) {
    chunk.push(JSON.stringify(e));
    written++;
    if (chunk.length === eventsPerChunk) {
      await write((written > eventsPerChunk ? ',\n' : '') + chunk.join(',\n'));
      chunk = [];
      onEvents?.(written);
    }
  }
  if (chunk.length > 0) await write((written > chunk.length ? ',\n' : '') + chunk.join(',\n'));
  await write(`\n],\n"displayTimeUnit":"ms",\n"otherData":${JSON.stringify(otherData)}}\n`);
  onEvents?.(written);
  return written;
}
