// Mirrors what k8s.io/apiserver attaches to a request's context.Context before it reaches storage
// (release-1.36): the audit ID (pkg/endpoints/filters/audit_init.go WithAuditInit, read back with
// audit.GetAuditIDTruncated, which the cacher's tracing spans carry as "audit-id"), the client's
// User-Agent, and the request line a request's RequestInfo is parsed from
// (pkg/endpoints/request/requestinfo.go). Deliberate differences: the audit ID is the apiserver's
// sequence number of the request (upstream: a random UUID or the client's Audit-ID header), so the
// same seed gives the same trace; the context is an explicit argument and carries no deadline
// (a watch keeps its own, WatchRequestContext); the request's namespace and name still travel as
// the call contexts' requestNamespace/requestName (request.NamespaceValue, RequestInfo.Name).

/** A request's identity as every engine layer sees it. */
export interface RequestContext {
  /** The audit ID: unique within the apiserver, in the order requests arrive. */
  readonly requestId: number;
  /** Who sent it: the User-Agent, or the internal caller (the cacher's reflector). */
  readonly client: string;
  /** The request line, e.g. `GET /api/v1/namespaces/default/pods?limit=100`. */
  readonly requestLine: string;
  /** ctx.Done(): once it aborts, the request's storage watch ends without an ERROR event. */
  readonly signal?: AbortSignal;
}

/** The client name of requests made without one (the library's own User-Agent). */
export const defaultClient = 'listwatch';

/**
 * The apiserver's request ids: one sequence shared by every resource it serves (and by their
 * cachers' reflectors), so an id names one request in a whole trace.
 */
export class RequestContexts {
  private last = 0;

  /** A context for a new request; `method` and `path` make its request line. */
  newContext(client: string, method: HttpMethod, path: string): RequestContext {
    return { requestId: ++this.last, client, requestLine: methodPrefixes[method] + path };
  }
}

/**
 * A request line's `METHOD ` part, one string per method: joined to the path, the line holds the
 * path and this shared string (a long watch keeps its context: no copy of `GET ` per watch).
 */
const methodPrefixes: Readonly<Record<HttpMethod, string>> = {
  GET: 'GET ',
  POST: 'POST ',
  PUT: 'PUT ',
  PATCH: 'PATCH ',
  DELETE: 'DELETE ',
};

/** The HTTP methods of the requests the engine serves (list/get/watch, create, update, patch, delete). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
