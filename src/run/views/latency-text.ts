// What an import's latency figures are measured from (no upstream counterpart), for the CLI report
// and the Import view: one text, so the two faces say the same.
/**
 * What an import's latency figures are measured from, for the views and the reports: a record
 * joined to its audit event keeps the server's stage timestamps (ImportedRequest.stageLatencyMs),
 * not the client's round trip; a client log's request with both its lines, the time between them
 * (import-report.ts latencyOf), finer than the whole milliseconds= it printed.
 */
export const latencyBasisText =
  "the server's audit stage timestamps (RequestReceived to ResponseComplete) where an audit event has both; else a client log's own times, from its Request line to its Response line, where the log has both; else the latency the log printed (a client's milliseconds=, measured by the client from sending to its answer; httplog's latency=, the server's)";
