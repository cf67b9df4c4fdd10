// Mirrors the part of clientv3.Client (client/v3/client.go, kv.go, watch.go) that k8s.io/apiserver's
// etcd3 store uses, as an EtcdMember over @grpc/grpc-js and etcd's own .proto files (see
// etcd-protos.ts for why not the etcd3 package's client). Every call reports an EtcdRequestRecord
// as MemoryEtcd does, with the wall-clock latency measured. Keys and values cross as byte strings.

import type * as grpc from '@grpc/grpc-js';
import {
  EtcdError,
  RealClock,
  type Clock,
  type EtcdMember,
  type EtcdRequestRecord,
  type CompactionRequest,
  type CompactionResponse,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type RangeRequest,
  type RangeResponse,
  type TxnRequest,
  type TxnResponse,
  type Watch,
  type WatchRequest,
} from '../engine/etcd-face';
import { EndpointPool } from './endpoint-pool';
import { etcdMethods, type EtcdMethods } from './etcd-protos';
import { fromGrpcError } from './grpc-errors';
import { GrpcWatch } from './grpc-watch';
import {
  deleteRangeRequest,
  deleteRangeResponse,
  header,
  rangeRequest,
  rangeResponse,
  txnRequest,
  txnResponse,
  writtenKeys,
  type Pb,
} from './pb-convert';

export interface GrpcEtcdOptions {
  /** Client URLs, e.g. ['http://127.0.0.1:2379']. */
  endpoints: string[];
  /** For EtcdRequestRecord.at (default RealClock). */
  clock?: Clock;
  /** Default 20000, as kube-apiserver (storagebackend/factory/etcd3.go dialTimeout). */
  dialTimeoutMs?: number;
}

/** kube-apiserver's dialTimeout. */
export const defaultDialTimeoutMs = 20000;

type Op = EtcdRequestRecord['op'];
/** A record's request fields, known before the answer. */
type RecordBase = Omit<EtcdRequestRecord, 'kvs' | 'headerRevision' | 'latencyMs'>;

export class GrpcEtcd implements EtcdMember {
  readonly kind = 'grpc' as const;
  readonly endpoints: readonly string[];
  private readonly pool: EndpointPool;
  private readonly methods: EtcdMethods;
  private readonly clock: Clock;
  private readonly listeners: ((r: EtcdRequestRecord) => void)[] = [];
  private readonly watches = new Set<GrpcWatch>();
  private nextWatchId = 0;
  private revision = 0;
  private compacted = -1;
  /** The RangeStream probe's answer once known: undefined until the first call. */
  private rangeStreamError: EtcdError | undefined;
  private rangeStreamProbed = false;

  private constructor(o: GrpcEtcdOptions) {
    this.pool = new EndpointPool(o.endpoints);
    this.endpoints = this.pool.endpoints;
    this.methods = etcdMethods();
    this.clock = o.clock ?? new RealClock();
  }

  /**
   * clientv3.New with DialTimeout: resolves once a member answered (a Range that also primes
   * currentRevision), rejects after dialTimeoutMs with no member reachable.
   */
  static async connect(o: GrpcEtcdOptions): Promise<GrpcEtcd> {
    const etcd = new GrpcEtcd(o);
    try {
      await etcd.pool.waitForAnyReady(o.dialTimeoutMs ?? defaultDialTimeoutMs);
      const pb = await etcd.pool.unary(
        etcd.methods.range,
        rangeRequest({ key: '\0', countOnly: true }),
        true,
      );
      etcd.sawRevision(header(pb.header).revision);
    } catch (e) {
      etcd.close();
      throw e;
    }
    return etcd;
  }

  /** The endpoint unary calls and new watches go to now (it moves on Unavailable). */
  get activeEndpoint(): string {
    return this.pool.activeEndpoint;
  }

  currentRevision(): number {
    return this.revision;
  }

  compactRevision(): number {
    return this.compacted;
  }

  addRequestListener(fn: (r: EtcdRequestRecord) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Ends every watch and closes every channel. */
  close(): void {
    for (const w of this.watches) w.close();
    this.watches.clear();
    this.pool.close();
  }

  /**
   * clientv3 Maintenance.Status of the member at `endpoint` (one of this client's): its version,
   * as the storage feature checker reads it (feature_support_checker.go). Not recorded: it is no
   * KV call.
   */
  async status(endpoint: string): Promise<{ version: string; leader: number; raftTerm: number }> {
    const r = await this.pool.unaryTo(endpoint, this.methods.status, {});
    return {
      version: String(r.version ?? ''),
      leader: Number(r.leader ?? 0),
      raftTerm: Number(r.raftTerm ?? 0),
    };
  }

  // ---- the KV interface ----

  async range(req: RangeRequest): Promise<RangeResponse> {
    const base = this.base('range', req.key, req.rangeEnd, req.limit, req.revision);
    // MemoryEtcd's record shape: countOnly on answered ranges (and every rangeStream) only.
    return this.call(
      base,
      async () => rangeResponse(await this.pool.unary(this.methods.range, rangeRequest(req), true)),
      (resp) => ({ countOnly: req.countOnly, kvs: resp.kvs.length, count: resp.count }),
    );
  }

  /**
   * KV.RangeStream (etcd 3.7), probed on the first call: an etcd without it answers grpc-go's
   * Unimplemented, remembered so later calls fail the same way without a round trip.
   */
  rangeStream(req: RangeRequest): AsyncIterable<RangeResponse> {
    const base = {
      ...this.base('rangeStream', req.key, req.rangeEnd, req.limit, req.revision),
      countOnly: req.countOnly,
    };
    return {
      [Symbol.asyncIterator]: () => this.streamRange(req, base),
    };
  }

  txn(req: TxnRequest): Promise<TxnResponse> {
    return this.call(
      this.base('txn', firstKeyOf(req), '', 0, 0),
      async () => txnResponse(await this.pool.unary(this.methods.txn, txnRequest(req), false), req),
      (resp) => ({ kvs: writtenKeys(resp.responses) }),
    );
  }

  deleteRange(req: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    return this.call(
      this.base('deleteRange', req.key, req.rangeEnd, 0, 0),
      async () =>
        deleteRangeResponse(
          await this.pool.unary(this.methods.deleteRange, deleteRangeRequest(req), false),
          !!req.prevKv,
        ),
      (resp) => ({ kvs: resp.deleted }),
    );
  }

  /** KV.Compact; `physical` waits until the compaction is applied to the backend. */
  compaction(req: CompactionRequest): Promise<CompactionResponse> {
    return this.call(
      this.base('compaction', '', '', 0, req.revision),
      async () => {
        const pb = await this.pool.unary(
          this.methods.compact,
          { revision: req.revision, physical: !!req.physical },
          false,
        );
        this.sawCompactRevision(req.revision);
        return { header: header(pb.header) };
      },
      () => ({ kvs: 0 }),
    );
  }

  /** Watch.Watch: a watch on a stream of its own (see grpc-watch.ts), recorded once created. */
  watch(req: WatchRequest): Watch {
    const base = this.base('watch', req.key, req.rangeEnd, 0, req.startRevision);
    const t0 = performance.now();
    const w: GrpcWatch = new GrpcWatch(this.nextWatchId++, this.pool, this.methods.watch, req, {
      sawRevision: (rev) => this.sawRevision(rev),
      sawCompactRevision: (rev) => this.sawCompactRevision(rev),
      created: (headerRevision, error) =>
        this.emit({
          ...base,
          kvs: 0,
          headerRevision,
          latencyMs: performance.now() - t0,
          ...(error !== undefined ? { error } : {}),
        }),
      ended: () => this.watches.delete(w),
      progressRequested: () =>
        this.emit({
          ...this.base('progressRequest', '', '', 0, 0),
          kvs: 0,
          headerRevision: this.revision,
          latencyMs: 0,
        }),
    });
    this.watches.add(w);
    return w;
  }

  // ---- internals ----

  private async *streamRange(req: RangeRequest, base: RecordBase): AsyncGenerator<RangeResponse> {
    const t0 = performance.now();
    if (this.rangeStreamError) throw this.failed(base, t0, this.rangeStreamError);
    let kvs = 0;
    let count = 0;
    let rev = 0;
    try {
      const stream: grpc.ClientReadableStream<Pb> = this.pool
        .client()
        .makeServerStreamRequest(
          this.methods.rangeStream.path,
          this.methods.rangeStream.requestSerialize,
          this.methods.rangeStream.responseDeserialize,
          rangeRequest(req),
        );
      for await (const pb of stream as AsyncIterable<Pb>) {
        this.rangeStreamProbed = true;
        const chunk = rangeResponse(pb);
        kvs += chunk.kvs.length;
        if (chunk.count) count = chunk.count;
        if (chunk.header.revision) {
          rev = chunk.header.revision;
          this.sawRevision(rev);
        }
        yield chunk;
      }
    } catch (e) {
      const err = fromGrpcError(e);
      if (err.isUnimplemented && !this.rangeStreamProbed) this.rangeStreamError = err;
      this.rangeStreamProbed = true;
      throw this.failed(base, t0, err);
    }
    this.emit({ ...base, kvs, count, headerRevision: rev, latencyMs: performance.now() - t0 });
  }

  private base(
    op: Op,
    key: string,
    rangeEnd: string | undefined,
    limit: number | undefined,
    revision: number | undefined,
  ): RecordBase {
    return {
      op,
      at: this.clock.now(),
      key,
      rangeEnd: rangeEnd ?? '',
      limit: limit ?? 0,
      revision: revision ?? 0,
    };
  }

  /** Records a failed call and returns its EtcdError. */
  /**
   * One unary call, timed and recorded as MemoryEtcd records it: `send` makes the call, `recorded`
   * gives the record's answer fields (kvs, count…); a failure is recorded and thrown as EtcdError.
   */
  private async call<R extends { header: { revision: number }; latencyMs?: number }>(
    base: RecordBase,
    send: () => Promise<R>,
    recorded: (resp: R) => Pick<EtcdRequestRecord, 'kvs'> & Partial<EtcdRequestRecord>,
  ): Promise<R> {
    const t0 = performance.now();
    let resp: R;
    try {
      resp = await send();
    } catch (e) {
      throw this.failed(base, t0, e);
    }
    resp.latencyMs = performance.now() - t0;
    this.sawRevision(resp.header.revision);
    this.emit({
      ...base,
      ...recorded(resp),
      headerRevision: resp.header.revision,
      latencyMs: resp.latencyMs,
    });
    return resp;
  }

  private failed(base: RecordBase, t0: number, e: unknown): EtcdError {
    const err = fromGrpcError(e);
    this.emit({
      ...base,
      kvs: 0,
      headerRevision: 0,
      latencyMs: performance.now() - t0,
      error: err.message,
    });
    return err;
  }

  private sawRevision(rev: number): void {
    if (rev > this.revision) this.revision = rev;
  }

  private sawCompactRevision(rev: number): void {
    if (rev > this.compacted) this.compacted = rev;
  }

  private emit(r: EtcdRequestRecord): void {
    for (const l of this.listeners) l(r);
  }
}

/** The record's key for a txn, as MemoryEtcd reports it: its first op's key, else its first compare's. */
function firstKeyOf(req: TxnRequest): string {
  const op = (req.success ?? [])[0] ?? (req.failure ?? [])[0];
  if (!op) return req.compare?.[0]?.key ?? '';
  if ('requestRange' in op) return op.requestRange.key;
  if ('requestPut' in op) return op.requestPut.key;
  if ('requestDeleteRange' in op) return op.requestDeleteRange.key;
  return firstKeyOf(op.requestTxn);
}
