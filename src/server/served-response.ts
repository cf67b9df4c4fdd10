// The answer a pure handler module gives for one request, for the ApiServer to write to the
// socket. No upstream counterpart: upstream handlers write to an http.ResponseWriter directly;
// here the modules stay free of sockets so tests can call them as functions.

export interface ServedResponse {
  status: number;
  /** Header names as upstream sets them (`Content-Type`, `ETag`, …), in the order it sets them. */
  headers: Record<string, string>;
  /** Text bodies (JSON, Prometheus text, plain text) as strings; binary bodies as bytes. */
  body: string | Uint8Array;
}
