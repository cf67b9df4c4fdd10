// No upstream counterpart: what an importer makes of the logs a user already has (audit.k8s.io/v1
// events, kubectl -v=6..9, client-go reflector and round-tripper lines, apiserver httplog lines):
// one record per request, merged across lines and files (by audit ID, or by time, verb and URL),
// with the line of every source that contributed, and the lines it could not read, counted with
// their reasons. The
// analysis (clients, chains, watches, relists, storms), the replay and the faces read these types
// only; none of them knows which format a request came from.

/** The formats an importer reads. */
export type ImportFormat = 'audit' | 'kubectl' | 'client-go' | 'httplog';

/** How one request's records in several files were found to be one request. */
export type JoinedBy = 'audit-id' | 'time-verb-url';

/** Where a record came from: the file as the user named it and its 1-based line. */
export interface SourcePosition {
  file: string;
  line: number;
  format: ImportFormat;
}

/** A line an importer could not read: counted, shown, never silently dropped. */
export interface RejectedLine {
  file: string;
  line: number;
  /** The format the file was read as (undefined: no importer recognised the file). */
  format?: ImportFormat;
  /** What was expected, in words: `expected an audit.k8s.io/v1 Event: …`. */
  reason: string;
  /** The line's start with control characters made visible (visibleText), at most 200 characters. */
  text: string;
}

/** The audit.k8s.io/v1 ObjectReference fields a request names. */
export interface ImportedObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  apiGroup?: string;
  apiVersion?: string;
  subresource?: string;
  resourceVersion?: string;
}

/** What a response said about a LIST (RequestResponse level, or a client's -v=8 response body). */
export interface ImportedListResponse {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  items?: number;
}

/**
 * One request as the logs tell it. Times are epoch milliseconds; a source without a year or a
 * time zone (klog's `I0312 10:15:07.146378`) is read in the import's assumed year, in UTC, and the
 * import says so (ImportAssumptions).
 */
export interface ImportedRequest {
  /** Stable within the import: the audit ID when known, else `file:line` of its first source. */
  id: string;
  auditID?: string;
  /** Every line that contributed, in the order they were read. */
  sources: SourcePosition[];
  /**
   * How records of other files were joined to it (absent: its sources are all in one file): by
   * the audit ID both name, or by time, verb and URL (a client log without Audit-Id and an audit
   * event; import/time-verb-url-join.ts).
   */
  joinedBy?: JoinedBy;
  /**
   * The RequestInfo verb (get, list, watch, create, update, patch, delete, deletecollection), or the
   * lower-case method for a non-resource URL. A client's `GET …?watch=true` is `watch`.
   */
  verb: string;
  /** The HTTP method, when a source says it. */
  method?: string;
  /** Path and query as sent (scheme and host stripped), e.g. `/api/v1/pods?limit=500`. */
  requestURI: string;
  /** The User-Agent ('' when no source names it). */
  userAgent: string;
  /** The authenticated user's name (audit and httplog only). */
  user?: string;
  /**
   * The client process a client log proves it came from: klog's pid within its file
   * (`chunk.log pid 3054`). Absent for a record only the server logged (audit, httplog).
   */
  clientProcess?: string;
  sourceIP?: string;
  objectRef?: ImportedObjectRef;
  /** When the server received it (audit requestReceivedTimestamp; a client line's time minus its latency). */
  receivedAt?: number;
  /** When a long-running request's response started (audit ResponseStarted). */
  responseStartedAt?: number;
  /** When it completed (audit ResponseComplete or Panic; a client's response line). */
  completedAt?: number;
  /** False when the log begins after the request started (its first stage is not RequestReceived). */
  startInFile: boolean;
  /** False when the log ends before the request completed (an open watch). */
  endInFile: boolean;
  /** The HTTP status the server answered (absent: the log does not say). */
  code?: number;
  /** The Status reason and message when it failed (audit responseStatus, a client's error line). */
  status?: { reason?: string; message?: string };
  /**
   * The server's own latency: from an audit event's requestReceivedTimestamp to its
   * ResponseComplete (or Panic) stageTimestamp. A joined client record's receivedAt and
   * completedAt are the client's (sent, answer read), so the latency figures read this first.
   */
  stageLatencyMs?: number;
  /** The latency a source printed (httplog latency=, kubectl `in 12 milliseconds`). */
  latencyMs?: number;
  response?: ImportedListResponse;
  /**
   * The object a write sent or got back (Request/RequestResponse audit levels), for the replay to
   * rebuild it; absent at Metadata level, where the replay synthesises one.
   */
  object?: unknown;
  /**
   * What a client's own log says about how the watch of this request ended (client-go's
   * reflector: `watch of *v1.Pod ended with: too old resource version: 5 (7)`).
   */
  watchEnd?: {
    message: string;
    at?: number;
    source: SourcePosition;
    /**
     * A WatchList watch that ended with an error before its initial events did: its client logged
     * that it falls back to LIST (reflector.go, dynamic/simple.go). The watch was its list.
     */
    beforeInitialEvents?: boolean;
    /**
     * The client ended it: its reflector logged that it stopped (`Stopping reflector`) while the
     * watch was open. Not an early end by the server: no relist follows from it.
     */
    clientClosed?: boolean;
  };
  /**
   * A WatchList watch's initial events ended (client-go's reflector read the bookmark that marks
   * their end and logged `Exiting watch because received the bookmark…`): the client's list was
   * over here, and the same request went on as its watch. `items` and `durationMs` as it logged them.
   */
  initialEventsEnd?: { at: number; items?: number; durationMs?: number; source: SourcePosition };
}

/** What an import took for granted because the logs do not say it; every face prints these. */
export interface ImportAssumptions {
  /** The year klog timestamps were read in, and why (`--year`, the file's modification time, today). */
  year?: { value: number; from: string };
  /** The time zone of timestamps without one. */
  timeZone: 'UTC';
}
