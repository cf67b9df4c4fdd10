// Mirrors what kube-apiserver writes with --audit-log-path at level Metadata (release-1.36):
// audit.k8s.io/v1 Event JSON lines (k8s.io/apiserver pkg/apis/audit/v1/types.go, field order and
// omitempty as there), stages as pkg/endpoints/filters/audit.go processes them: RequestReceived
// before the handler, ResponseStarted when a long-running request (watch) writes its header,
// ResponseComplete at the end, and a failed authentication's one ResponseStarted (authn_audit.go);
// responseStatus as audit.LogResponseObject and SetEventResponseStatusCode set it. Deliberate differences: the log backend is "blocking"
// upstream; here lines wait in a bounded buffer while the sink is slow, and beyond it are
// dropped and counted (the server must not stall on its audit log).
import { goJsonMarshal, type GoJsonValue } from '../engine/http-face';

/** authenticationv1.UserInfo. */
export interface AuditUser {
  username: string;
  uid?: string;
  groups?: readonly string[];
  extra?: Readonly<Record<string, readonly string[]>>;
}

/** audit.k8s.io/v1 ObjectReference. */
export interface AuditObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The metav1.Status fields the audit event keeps (LogResponseObject's bounded copy). */
export interface AuditResponseStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: GoJsonValue;
  code: number;
}

/** What the server knows of a request when it arrives. */
export interface AuditRequest {
  /** The Audit-ID (the response's Audit-Id header). */
  auditID: string;
  requestURI: string;
  /** The RequestInfo verb (get, list, watch, create, …), or the lower-case method for non-resource URLs. */
  verb: string;
  user: AuditUser;
  sourceIPs: readonly string[];
  userAgent?: string;
  objectRef?: AuditObjectRef;
  /** A watch (or another long-running request): it gets a ResponseStarted stage. */
  longRunning: boolean;
}

/** The ObjectMeta fields LogRequestObject reads (meta.Accessor): strings, or nothing. */
export interface RequestObjectMeta {
  namespace?: unknown;
  name?: unknown;
  uid?: unknown;
  resourceVersion?: unknown;
}

// A decoded body's field that is not a string cannot have been decoded (the decoder refuses it).
function stringOr(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Where lines go: a Node Writable fits (write returns false when its buffer is full). */
export interface AuditSink {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export interface AuditLogOptions {
  sink: AuditSink;
  /** Bytes kept while the sink does not take more; beyond, events are dropped. Default 8 MiB. */
  maxBufferedBytes?: number;
  /** The wall time in µs since the epoch (MicroTime): the server's clock. */
  nowMicros: () => number;
}

/** Annotations added once a request has been authorized (filters/authorization.go). */
export const authorizationAllowAnnotations: Readonly<Record<string, string>> = {
  'authorization.k8s.io/decision': 'allow',
  'authorization.k8s.io/reason': '',
};

/**
 * One request's audit event through its stages. `responseStarted` matters for long-running
 * requests only; `responseComplete` ends it (later calls do nothing).
 */
export class AuditEventHandle {
  private status: AuditResponseStatus | undefined;
  private annotations: Record<string, string> | undefined;
  private started = false;
  private done = false;
  // The event's objectRef: the request's, completed by logRequestObject for the later stages.
  private objectRef: AuditObjectRef | undefined;

  constructor(
    private readonly writer: AuditLogWriter,
    private readonly req: AuditRequest,
    private readonly receivedMicros: number,
  ) {
    this.objectRef = req.objectRef && { ...req.objectRef };
  }

  /**
   * audit.LogRequestObject (pkg/audit/request.go) at level Metadata: the decoded request object
   * fills what the objectRef lacks (namespace, name, uid, resourceVersion from its metadata; the
   * group and version, resource and subresource of the endpoint). A create's name is known only
   * here, so RequestReceived (already written) has none and the later stages have it.
   */
  logRequestObject(
    metadata: RequestObjectMeta | undefined,
    gvr: { group: string; version: string; resource: string },
    subresource: string,
  ): void {
    if (this.done) return;
    const ref: AuditObjectRef = (this.objectRef ??= {});
    if (metadata) {
      if (!ref.namespace) ref.namespace = stringOr(metadata.namespace);
      if (!ref.name) ref.name = stringOr(metadata.name);
      if (!ref.uid) ref.uid = stringOr(metadata.uid);
      if (!ref.resourceVersion) ref.resourceVersion = stringOr(metadata.resourceVersion);
    }
    if (!ref.apiVersion) {
      ref.apiGroup = gvr.group;
      ref.apiVersion = gvr.version;
    }
    if (!ref.resource) ref.resource = gvr.resource;
    if (!ref.subresource) ref.subresource = subresource;
  }

  /** Adds annotations to the later stages (e.g. authorizationAllowAnnotations). */
  annotate(annotations: Readonly<Record<string, string>>): void {
    this.annotations = { ...this.annotations, ...annotations };
  }

  /** SetEventResponseStatus before the response: its message (a failed authentication's). */
  setResponseStatusMessage(message: string): void {
    this.status = { ...this.status, message, code: this.status?.code ?? 0 };
  }

  /** The response header is written (processCode): a watch's ResponseStarted stage. */
  responseStarted(code: number): void {
    if (this.done || this.started) return;
    this.started = true;
    this.status = { ...this.status, code };
    if (this.req.longRunning) this.emit('ResponseStarted');
  }

  /** The response is over: its Status (for a failure, from the Status body) or just its code. */
  responseComplete(status: AuditResponseStatus | number): void {
    if (this.done) return;
    const s = typeof status === 'number' ? { code: status } : status;
    if (!this.started) this.responseStarted(s.code);
    this.status = s;
    this.done = true;
    this.emit('ResponseComplete');
  }

  /** RequestReceived: written by AuditLogWriter.requestReceived. */
  emitReceived(): void {
    this.emit('RequestReceived');
  }

  private emit(stage: 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete'): void {
    const r = this.req;
    const stageMicros = stage === 'RequestReceived' ? this.receivedMicros : this.writer.nowMicros();
    const event = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      auditID: r.auditID,
      stage,
      requestURI: r.requestURI,
      verb: r.verb,
      user: userInfo(r.user),
      sourceIPs: r.sourceIPs.length ? [...r.sourceIPs] : undefined,
      userAgent: r.userAgent || undefined,
      objectRef: this.objectRef ? objectRef(this.objectRef) : undefined,
      responseStatus: stage === 'RequestReceived' ? undefined : responseStatus(this.status),
      requestReceivedTimestamp: microTime(this.receivedMicros),
      stageTimestamp: microTime(stageMicros),
      annotations:
        stage !== 'RequestReceived' && this.annotations ? sortedMap(this.annotations) : undefined,
    };
    this.writer.writeLine(goJsonMarshal(event as GoJsonValue));
  }
}

/**
 * The audit log: `requestReceived` at request start returns the handle for the later stages.
 * Lines go to the sink at once while it takes them, else wait in a bounded buffer.
 */
export class AuditLogWriter {
  /** Events dropped because the buffer was full (apiserver_audit_event_total would not count them). */
  dropped = 0;
  readonly nowMicros: () => number;
  private readonly sink: AuditSink;
  private readonly maxBufferedBytes: number;
  private buffered: string[] = [];
  private bufferedBytes = 0;
  private waiting = false;

  constructor(o: AuditLogOptions) {
    this.sink = o.sink;
    this.maxBufferedBytes = o.maxBufferedBytes ?? 8 * 1024 * 1024;
    this.nowMicros = o.nowMicros;
  }

  requestReceived(req: AuditRequest): AuditEventHandle {
    const h = new AuditEventHandle(this, req, this.nowMicros());
    h.emitReceived();
    return h;
  }

  /**
   * filters/authn_audit.go WithFailedAuthenticationAudit: the request never reaches WithAudit, so
   * its one event is the ResponseStarted stage its 401 writes (decorateResponseWriter with
   * processResponseStartedStage), with no user and the methods it attempted as the message.
   */
  failedAuthentication(
    req: Omit<AuditRequest, 'user' | 'longRunning'>,
    message: string,
    code: number,
  ): void {
    const h = new AuditEventHandle(
      this,
      { ...req, user: { username: '' }, longRunning: true },
      this.nowMicros(),
    );
    h.setResponseStatusMessage(message);
    h.responseStarted(code);
  }

  /** Bytes waiting for the sink. */
  get pendingBytes(): number {
    return this.bufferedBytes;
  }

  writeLine(json: string): void {
    const line = json + '\n';
    if (!this.waiting) {
      if (!this.sink.write(line)) this.waitForDrain();
      return;
    }
    if (this.bufferedBytes + line.length > this.maxBufferedBytes) {
      this.dropped++;
      return;
    }
    this.buffered.push(line);
    this.bufferedBytes += line.length;
  }

  private waitForDrain(): void {
    this.waiting = true;
    this.sink.once('drain', () => {
      this.waiting = false;
      const lines = this.buffered;
      this.buffered = [];
      this.bufferedBytes = 0;
      if (lines.length === 0) return;
      if (!this.sink.write(lines.join(''))) this.waitForDrain();
    });
  }
}

/** metav1.MicroTime: RFC3339 with 6 fractional digits, in UTC (`2026-12-01T13:54:42.123456Z`). */
export function microTime(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const frac = String(((micros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0');
  return new Date(ms).toISOString().slice(0, 19) + '.' + frac + 'Z';
}

function userInfo(u: AuditUser): GoJsonValue {
  return {
    username: u.username || undefined,
    uid: u.uid || undefined,
    groups: u.groups?.length ? [...u.groups] : undefined,
    extra:
      u.extra && Object.keys(u.extra).length
        ? (sortedMap(u.extra as Record<string, readonly string[]>) as GoJsonValue)
        : undefined,
  } as GoJsonValue;
}

function objectRef(o: AuditObjectRef): GoJsonValue {
  return {
    resource: o.resource || undefined,
    namespace: o.namespace || undefined,
    name: o.name || undefined,
    uid: o.uid || undefined,
    apiGroup: o.apiGroup || undefined,
    apiVersion: o.apiVersion || undefined,
    resourceVersion: o.resourceVersion || undefined,
    subresource: o.subresource || undefined,
  } as GoJsonValue;
}

/** metav1.Status in Go's field order; ListMeta is a struct, so `"metadata":{}` is always there. */
function responseStatus(s: AuditResponseStatus | undefined): GoJsonValue {
  if (s === undefined) return undefined as unknown as GoJsonValue;
  return {
    metadata: {},
    status: s.status || undefined,
    message: s.message || undefined,
    reason: s.reason || undefined,
    details: s.details,
    code: s.code || undefined,
  } as GoJsonValue;
}

/** A Go map: keys in sorted order. */
function sortedMap<T>(m: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k];
  return out;
}
