// Mirrors etcd api/etcdserverpb/rpc.proto (KV and Watch services), api/v3rpc/rpctypes/error.go
// and client/v3 GetPrefixRangeEnd. The asynchronous boundary between the etcd3 store / cacher and
// etcd (ARCHITECTURE.md boundary 6). Keys and values are byte strings, one char per byte (as a Go
// string holds bytes; encoding/byte-string.ts): a real etcd's bytes cross unchanged, and keys sort
// by byte as etcd sorts them. Differences from the proto: no cluster/member ids or raft term in headers, no
// sort options, no leases beyond carrying the lease id; Put is a `txn` without compares.

/** Numeric gRPC status codes (google.golang.org/grpc/codes): every one, as a real etcd may return any. */
export const GrpcCode = {
  OK: 0,
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
} as const;
export type GrpcCodeName = keyof typeof GrpcCode;

/** etcd's rpctypes messages, exactly as clientv3 surfaces them (err.Error()). */
export const etcdErrorMessages = {
  compacted: 'etcdserver: mvcc: required revision has been compacted',
  futureRev: 'etcdserver: mvcc: required revision is a future revision',
  duplicateKey: 'etcdserver: duplicate key given in txn request',
  tooManyOps: 'etcdserver: too many operations in txn request',
  emptyKey: 'etcdserver: key is not provided',
  /** mvcc.ErrEmptyWatcherRange, a watch create's cancel reason (not an rpctypes error). */
  emptyWatcherRange: 'mvcc: watcher range is empty',
} as const;

/** grpc-go's Unavailable desc for a refused dial to etcd's default client URL. */
export const unreachableDesc =
  'connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:2379: connect: connection refused"';

/** The brand of EtcdError, one per process whichever bundle copy of the class made the error. */
const etcdErrorBrand = Symbol.for('listwatch-inspector.EtcdError');

/**
 * An error from etcd with its gRPC code. For etcd's own errors (rpctypes) `message` is the bare
 * `desc`, as clientv3 converts them; for any other status (e.g. an unknown RPC) it is grpc-go's
 * `rpc error: code = Unimplemented desc = …`.
 */
export class EtcdError extends Error {
  /**
   * The CLI and extension bundles and the etcd gRPC client's chunk (dist/etcd-client.js) each hold
   * a copy of this class: the brand makes `instanceof` recognise an error of any copy, so that
   * the store reads a real etcd's ErrCompacted as compacted (410), not as an unknown error (500).
   */
  readonly [etcdErrorBrand] = true;

  static override [Symbol.hasInstance](v: unknown): boolean {
    return (
      typeof v === 'object' &&
      v !== null &&
      (v as { [etcdErrorBrand]?: true })[etcdErrorBrand] === true
    );
  }

  readonly code: number;
  readonly codeName: GrpcCodeName;
  readonly desc: string;

  constructor(codeName: GrpcCodeName, desc: string, etcdKnown: boolean) {
    super(etcdKnown ? desc : `rpc error: code = ${codeName} desc = ${desc}`);
    this.name = 'EtcdError';
    this.codeName = codeName;
    this.code = GrpcCode[codeName];
    this.desc = desc;
  }

  /** rpctypes.ErrCompacted (OutOfRange). */
  static compacted(): EtcdError {
    return new EtcdError('OutOfRange', etcdErrorMessages.compacted, true);
  }

  /** rpctypes.ErrFutureRev (OutOfRange). */
  static futureRev(): EtcdError {
    return new EtcdError('OutOfRange', etcdErrorMessages.futureRev, true);
  }

  /** What grpc-go answers for an RPC the server does not register (handleStream). */
  static unimplemented(method: string, service: string): EtcdError {
    return new EtcdError('Unimplemented', `unknown method ${method} for service ${service}`, false);
  }

  static invalidArgument(desc: string): EtcdError {
    return new EtcdError('InvalidArgument', desc, true);
  }

  /** What grpc-go answers while the member cannot be reached (the dial is refused). */
  static unavailable(): EtcdError {
    return new EtcdError('Unavailable', unreachableDesc, false);
  }

  get isCompacted(): boolean {
    return this.desc === etcdErrorMessages.compacted;
  }

  get isFutureRev(): boolean {
    return this.desc === etcdErrorMessages.futureRev;
  }

  get isUnimplemented(): boolean {
    return this.code === GrpcCode.Unimplemented;
  }
}

export interface ResponseHeader {
  /** The store's current revision when the request was served (not the read revision). */
  revision: number;
}

export interface KeyValue {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
  /** Number of writes since creation; 1 after the create, reset by a delete. */
  version: number;
  lease?: number;
}

/**
 * rangeEnd: '' or absent = the single key `key`; '\0' = every key >= key; otherwise [key, rangeEnd).
 * key '\0' with rangeEnd '\0' = every key.
 */
export interface RangeRequest {
  key: string;
  rangeEnd?: string;
  /** 0 or absent = no limit. */
  limit?: number;
  /** 0 or absent = the current revision. */
  revision?: number;
  countOnly?: boolean;
  keysOnly?: boolean;
  /** Accepted and ignored: the in-memory etcd has one member, so every read is linearizable. */
  serializable?: boolean;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: KeyValue[];
  /** Keys in [key, rangeEnd) at the read revision (counted from `key`, not from a prefix). */
  count: number;
  /** More keys than `limit` in the range. */
  more: boolean;
  /** Simulated service time in virtual ms (see LatencyModel); 0 when none is configured. */
  latencyMs?: number;
}

export interface PutRequest {
  key: string;
  value: string;
  lease?: number;
  prevKv?: boolean;
}

export interface PutResponse {
  header: ResponseHeader;
  prevKv?: KeyValue;
  latencyMs?: number;
}

export interface DeleteRangeRequest {
  key: string;
  rangeEnd?: string;
  prevKv?: boolean;
}

export interface DeleteRangeResponse {
  header: ResponseHeader;
  deleted: number;
  prevKvs?: KeyValue[];
  latencyMs?: number;
}

/** etcd Compare: target field of every key in [key, rangeEnd) against a value. */
export interface Compare {
  key: string;
  rangeEnd?: string;
  target: 'version' | 'createRevision' | 'modRevision' | 'value' | 'lease';
  result: 'equal' | 'notEqual' | 'greater' | 'less';
  /** A number for version/createRevision/modRevision/lease, a string for value. */
  value: number | string;
}

export type RequestOp =
  | { requestRange: RangeRequest }
  | { requestPut: PutRequest }
  | { requestDeleteRange: DeleteRangeRequest }
  | { requestTxn: TxnRequest };

export type ResponseOp =
  | { responseRange: RangeResponse }
  | { responsePut: PutResponse }
  | { responseDeleteRange: DeleteRangeResponse }
  | { responseTxn: TxnResponse };

export interface TxnRequest {
  compare?: Compare[];
  success?: RequestOp[];
  failure?: RequestOp[];
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
  latencyMs?: number;
}

export interface CompactionRequest {
  revision: number;
  /** Accepted and ignored: compaction is synchronous here. */
  physical?: boolean;
}

export interface CompactionResponse {
  header: ResponseHeader;
  latencyMs?: number;
}

export interface WatchRequest {
  key: string;
  rangeEnd?: string;
  /** 0 or absent = from the next revision (only new events). */
  startRevision?: number;
  prevKv?: boolean;
  progressNotify?: boolean;
  /** Drop event types, as etcd's WatchCreateRequest.filters (NOPUT, NODELETE). */
  filters?: ('noPut' | 'noDelete')[];
}

export interface WatchEvent {
  type: 'PUT' | 'DELETE';
  /** For DELETE: the key with modRevision = the delete's revision, empty value, version 0. */
  kv: KeyValue;
  prevKv?: KeyValue;
}

export interface WatchResponse {
  /** revision: for events, the revision they were produced at; for progress, the current revision. */
  header: ResponseHeader;
  events: WatchEvent[];
  /** Set (non-zero) when the start revision was compacted; the watch is then canceled. */
  compactRevision?: number;
  canceled?: boolean;
  cancelReason?: string;
  /** True for a progress notification (no events; header.revision = current revision). */
  progressNotify?: boolean;
}

/** A watch handle: consume responses with `onResponse` or by async iteration (not both). */
export interface Watch {
  readonly id: number;
  /** Registers the consumer; queued responses are delivered to it in order. */
  onResponse(cb: (r: WatchResponse) => void): void;
  /** Responses in order; iteration ends after a canceled response or cancel(). */
  [Symbol.asyncIterator](): AsyncIterator<WatchResponse>;
  /** clientv3 RequestProgress: a progress notification if (and only if) the watcher is synced. */
  requestProgress(): void;
  /** Stops the watch; no more responses are delivered. */
  cancel(): void;
  readonly canceled: boolean;
}

/**
 * What the etcd3 store and the cacher may ask of etcd (ARCHITECTURE.md boundary 6). The in-memory
 * MVCC etcd implements it; a client for a real etcd cluster would implement the same interface.
 */
export interface KV {
  range(req: RangeRequest): Promise<RangeResponse>;
  /**
   * Server-streaming Range (etcd 3.7 RangeStream): the whole range in chunks, all read at one
   * revision. Throws EtcdError Unimplemented (`unknown method RangeStream for service
   * etcdserverpb.KV`) when the server does not have the RPC.
   */
  rangeStream(req: RangeRequest): AsyncIterable<RangeResponse>;
  /** One write transaction: one revision if anything changed. Put = txn with a single requestPut. */
  txn(req: TxnRequest): Promise<TxnResponse>;
  deleteRange(req: DeleteRangeRequest): Promise<DeleteRangeResponse>;
  compaction(req: CompactionRequest): Promise<CompactionResponse>;
  watch(req: WatchRequest): Watch;
}

/**
 * clientv3 RangeStreamToRangeResponse: merges a RangeStream's chunks (kvs appended; header,
 * count and more from the chunk that carries them, the last) into what Range would return.
 */
export async function rangeStreamToRangeResponse(
  chunks: AsyncIterable<RangeResponse>,
): Promise<RangeResponse> {
  const out: RangeResponse = {
    header: { revision: 0 },
    kvs: [],
    count: 0,
    more: false,
    latencyMs: 0,
  };
  for await (const c of chunks) {
    for (const kv of c.kvs) out.kvs.push(kv);
    if (c.header.revision) out.header = { ...c.header };
    if (c.count) out.count = c.count;
    if (c.more) out.more = true;
    out.latencyMs = (out.latencyMs ?? 0) + (c.latencyMs ?? 0);
  }
  return out;
}

/** clientv3.GetPrefixRangeEnd: the end of the range of keys with this prefix ('\0' = no end). */
export function prefixEnd(prefix: string): string {
  // Increment the last byte that is not 0xff; drop everything after it.
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  // Every byte is 0xff (or the prefix is empty): all keys >= prefix.
  return '\0';
}
