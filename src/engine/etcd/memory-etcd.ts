// Mirrors etcd's KV and Watch services as one embedded member (server/etcdserver/v3_server.go,
// apply.go, api/v3rpc/key.go), on top of mvcc-store.ts and watch-hub.ts. Deliberate differences:
// one member (every read is linearizable, no raft), no leases/auth, time only from the injected
// Clock. The async methods compute their result when called; they resolve at once (reporting
// `latencyMs`), or after clock.sleep(latencyMs) when `simulateLatency` is set. Fault hooks: the
// latency model can change at run time, and the member can be made unreachable for a while.

import type { Clock } from '../clock';
import type { SeededRandom } from '../rand';
import {
  EtcdError,
  etcdErrorMessages,
  type Compare,
  type CompactionRequest,
  type CompactionResponse,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type KeyValue,
  type PutRequest,
  type PutResponse,
  type RangeRequest,
  type RangeResponse,
  type RequestOp,
  type ResponseOp,
  type TxnRequest,
  type TxnResponse,
  type Watch,
  type WatchRequest,
} from './kv';
import type { EtcdMember } from './etcd-member';
import type { KeyRecord } from './key-index';
import { latencyModel, requestLatency, type LatencyModel, type RequestWork } from './latency-model';
import { MvccStore, keyInterval, type KeyInterval, type WriteTxn } from './mvcc-store';
import { checkIntervals, checkTxnRequest } from './txn-check';
import type { EtcdRequestRecord } from './request-recorder';
import { WatchHub, defaultProgressNotifyIntervalMs, toKeyValue } from './watch-hub';
import { compareKeys } from './index-tree';

/** etcd's default --max-txn-ops. */
export const defaultMaxTxnOps = 128;
/** etcd's default --max-request-bytes (1.5 MiB); RangeStream sizes its chunks against it. */
export const defaultMaxRequestBytes = 1572864;

export interface MemoryEtcdOptions {
  clock: Clock;
  /**
   * 'unimplemented' (default; etcd <= 3.6, what release-1.36 runs against): rangeStream fails with
   * gRPC Unimplemented. 'supported': etcd 3.7 RangeStream.
   */
  rangeStream?: 'supported' | 'unimplemented';
  /** Service-time model; all zero by default. */
  latency?: Partial<LatencyModel>;
  /** Resolve async calls after clock.sleep(latencyMs) instead of at once. Default false. */
  simulateLatency?: boolean;
  /** Progress notification interval for watches with progressNotify (virtual ms; default 10 min; 0 = never). */
  progressNotifyIntervalMs?: number;
  /** Jitter for the progress interval, as etcd adds; without it the interval is exact. */
  rand?: SeededRandom;
  /** 0 (default): watch replay at once; > 0: etcd's syncWatchersLoop period (100 ms upstream). */
  watchSyncIntervalMs?: number;
  /** Called for every KV call (see RequestRecorder). */
  onRequest?: (r: EtcdRequestRecord) => void;
  maxTxnOps?: number;
  maxRequestBytes?: number;
  /** Keys in RangeStream's first chunk; later chunks double or halve against maxRequestBytes. */
  rangeStreamInitialChunk?: number;
}

export class MemoryEtcd implements EtcdMember {
  readonly kind = 'memory' as const;
  private readonly clock: Clock;
  private readonly store = new MvccStore();
  private readonly hub: WatchHub;
  private latency: LatencyModel;
  private simulateLatency: boolean;
  private readonly maxTxnOps: number;
  private readonly maxRequestBytes: number;
  private readonly initialChunk: number;
  private rangeStreamMode: 'supported' | 'unimplemented';
  private readonly listeners: ((r: EtcdRequestRecord) => void)[] = [];

  constructor(opts: MemoryEtcdOptions) {
    this.clock = opts.clock;
    this.rangeStreamMode = opts.rangeStream ?? 'unimplemented';
    this.latency = latencyModel(opts.latency);
    this.simulateLatency = !!opts.simulateLatency;
    this.maxTxnOps = opts.maxTxnOps ?? defaultMaxTxnOps;
    this.maxRequestBytes = opts.maxRequestBytes ?? defaultMaxRequestBytes;
    this.initialChunk = Math.max(1, Math.floor(opts.rangeStreamInitialChunk ?? 100));
    this.hub = new WatchHub(this.store, {
      clock: opts.clock,
      progressNotifyIntervalMs: opts.progressNotifyIntervalMs ?? defaultProgressNotifyIntervalMs,
      rand: opts.rand,
      syncIntervalMs: opts.watchSyncIntervalMs ?? 0,
    });
    if (opts.onRequest) this.listeners.push(opts.onRequest);
    this.hub.onProgressRequest = () =>
      this.emit({
        op: 'progressRequest',
        at: this.clock.now(),
        key: '',
        rangeEnd: '',
        limit: 0,
        revision: 0,
        kvs: 0,
        headerRevision: this.store.currentRev,
        latencyMs: 0,
      });
  }

  // ---- synchronous conveniences (tests, scenarios, the library API; not recorded) ----

  /** Writes key=value; returns the new revision. */
  put(key: string, value: string, lease = 0): number {
    checkKey(key, 'put');
    const txn = this.store.beginWrite();
    this.store.put(txn, key, value, lease);
    return this.commit(txn);
  }

  /**
   * Deletes one key; returns the revision after the delete. Deleting a missing key changes
   * nothing and returns the current revision (etcd does not bump it for an empty DeleteRange).
   */
  delete(key: string): number {
    checkKey(key, 'delete');
    const txn = this.store.beginWrite();
    this.store.deleteRange(txn, keyInterval(key, ''));
    return this.commit(txn);
  }

  /** Compacts history before `revision`; throws EtcdError (compacted / future revision) like etcd. */
  compact(revision: number): void {
    this.store.compact(revision);
  }

  currentRevision(): number {
    return this.store.currentRev;
  }

  /** The last compacted revision, or -1 before any compaction. */
  compactRevision(): number {
    return this.store.compactRev;
  }

  /** The key at `revision` (0 = current), or undefined. Throws for compacted/future revisions. */
  get(key: string, revision = 0): KeyValue | undefined {
    const rev = this.store.resolveReadRev(revision);
    const r = this.store.range(keyInterval(key, ''), rev, 0, false).records[0];
    return r && toKeyValue(r);
  }

  /** Switches the RangeStream knob (e.g. an etcd upgrade or downgrade mid-scenario). */
  setRangeStream(mode: 'supported' | 'unimplemented'): void {
    this.rangeStreamMode = mode;
  }

  /** The RangeStream knob's position. */
  get rangeStreamSupport(): 'supported' | 'unimplemented' {
    return this.rangeStreamMode;
  }

  /** The service-time model in use. */
  get latencyModel(): LatencyModel {
    return this.latency;
  }

  /** Whether answers wait for their modelled latency on the clock. */
  get simulatesLatency(): boolean {
    return this.simulateLatency;
  }

  /**
   * Replaces the service-time model from the next request on (a slower disk, a remote member);
   * `simulate` makes answers wait for it. Throws RangeError for a negative or non-finite figure.
   */
  setLatency(latency: Partial<LatencyModel>, simulate = this.simulateLatency): void {
    this.latency = latencyModel(latency);
    this.simulateLatency = simulate;
  }

  /**
   * Makes the member unreachable for `ms` from now: every request fails at once with grpc-go's
   * Unavailable, and open watches stay silent (no progress notifications), as clientv3's watch
   * stream does while it redials. Writes cannot happen meanwhile, so watches miss no event.
   */
  setUnreachable(ms: number): void {
    this.hub.unreachableUntil = this.clock.now() + ms;
  }

  /** Ms until the member is reachable again (0 when it is). */
  unreachableFor(): number {
    return Math.max(0, this.hub.unreachableUntil - this.clock.now());
  }

  /** Adds a request listener; returns a function that removes it. */
  addRequestListener(fn: (r: EtcdRequestRecord) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Size figures: keys in the index (incl. deleted, not yet compacted), live keys, log records, open watches, index entries scanned so far. */
  stats(): {
    keys: number;
    liveKeys: number;
    logRecords: number;
    watchers: number;
    visitedEntries: number;
  } {
    return {
      keys: this.store.index.size,
      liveKeys: this.store.index.liveSize,
      logRecords: this.store.logLength,
      watchers: this.hub.size,
      visitedEntries: this.store.index.visitedEntries,
    };
  }

  /** Cancels every watch and stops every timer. */
  close(): void {
    this.hub.close();
  }

  // ---- the KV interface ----

  async range(req: RangeRequest): Promise<RangeResponse> {
    const at = this.clock.now();
    let resp: RangeResponse;
    try {
      this.checkReachable();
      resp = this.doRange(req, undefined);
    } catch (e) {
      this.emitError('range', at, req.key, req.rangeEnd, req.limit, req.revision, e);
      throw e;
    }
    resp.latencyMs = requestLatency(this.latency, rangeWork(resp));
    this.emit({
      op: 'range',
      at,
      key: req.key,
      rangeEnd: req.rangeEnd ?? '',
      limit: req.limit ?? 0,
      revision: req.revision ?? 0,
      countOnly: req.countOnly,
      kvs: resp.kvs.length,
      count: resp.count,
      headerRevision: resp.header.revision,
      latencyMs: resp.latencyMs,
    });
    await this.delay(resp.latencyMs);
    return resp;
  }

  rangeStream(req: RangeRequest): AsyncIterable<RangeResponse> {
    const at = this.clock.now();
    let failure: unknown;
    let rev = 0;
    let iv: KeyInterval | undefined;
    if (this.unreachableFor() > 0) {
      failure = EtcdError.unavailable();
    } else if (this.rangeStreamMode !== 'supported') {
      failure = EtcdError.unimplemented('RangeStream', 'etcdserverpb.KV');
    } else {
      try {
        checkRange(req);
        // The stream pins its revision at the start; every chunk reads at it.
        rev = this.store.resolveReadRev(req.revision);
        iv = keyInterval(req.key, req.rangeEnd);
      } catch (e) {
        failure = e;
      }
    }
    const base = {
      op: 'rangeStream' as const,
      at,
      key: req.key,
      rangeEnd: req.rangeEnd ?? '',
      limit: req.limit ?? 0,
      revision: req.revision ?? 0,
      countOnly: req.countOnly,
    };
    if (failure !== undefined) {
      this.emit({ ...base, kvs: 0, headerRevision: 0, latencyMs: 0, error: errorText(failure) });
      const err = failure;
      return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(err) }) };
    }
    const record: EtcdRequestRecord = { ...base, kvs: 0, headerRevision: rev, latencyMs: 0 };
    this.emit(record);
    return this.streamChunks(req, iv as KeyInterval, rev, record);
  }

  async txn(req: TxnRequest): Promise<TxnResponse> {
    const at = this.clock.now();
    let resp: TxnResponse;
    let written: KeyRecord[];
    try {
      this.checkReachable();
      checkTxnRequest(req, this.maxTxnOps);
      // v3rpc checks each branch's put/delete overlaps after the request (key.go Txn).
      checkIntervals(req.success ?? []);
      checkIntervals(req.failure ?? []);
      this.checkTxnTypes(req);
      // applierV3backend.Txn: every compare (nested ones too) is decided on the store as it is
      // before the txn writes; only the ops on that path are checked and applied.
      const path = this.compareToPath(req);
      this.checkRanges(req, path);
      const txn = this.store.beginWrite();
      const out = this.applyTxn(txn, req, path);
      written = txn.changes;
      const rev = this.commit(txn);
      resp = { header: { revision: rev }, succeeded: out.succeeded, responses: out.responses };
    } catch (e) {
      const first = firstKeyOf(req);
      this.emitError('txn', at, first, '', 0, 0, e);
      throw e;
    }
    const read = collectRead(resp.responses);
    resp.latencyMs = requestLatency(this.latency, {
      write: !isTxnReadonly(req),
      countedKeys: read.countedKeys,
      keys: read.keys + written.length,
      bytes: read.bytes + recordBytes(written),
    });
    this.emit({
      op: 'txn',
      at,
      key: firstKeyOf(req),
      rangeEnd: '',
      limit: 0,
      revision: 0,
      kvs: written.length,
      headerRevision: resp.header.revision,
      latencyMs: resp.latencyMs,
    });
    await this.delay(resp.latencyMs);
    return resp;
  }

  async deleteRange(req: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    const at = this.clock.now();
    let resp: DeleteRangeResponse;
    let deleted: KeyRecord[];
    try {
      this.checkReachable();
      checkKey(req.key, 'deleteRange');
      const txn = this.store.beginWrite();
      deleted = this.store.deleteRange(txn, keyInterval(req.key, req.rangeEnd));
      resp = { header: { revision: this.commit(txn) }, deleted: deleted.length };
      if (req.prevKv) resp.prevKvs = deleted.map((r) => toKeyValue(r));
    } catch (e) {
      this.emitError('deleteRange', at, req.key, req.rangeEnd, 0, 0, e);
      throw e;
    }
    resp.latencyMs = requestLatency(this.latency, {
      write: true,
      countedKeys: deleted.length,
      keys: deleted.length,
      bytes: recordBytes(deleted),
    });
    this.emit({
      op: 'deleteRange',
      at,
      key: req.key,
      rangeEnd: req.rangeEnd ?? '',
      limit: 0,
      revision: 0,
      kvs: deleted.length,
      headerRevision: resp.header.revision,
      latencyMs: resp.latencyMs,
    });
    await this.delay(resp.latencyMs);
    return resp;
  }

  async compaction(req: CompactionRequest): Promise<CompactionResponse> {
    const at = this.clock.now();
    try {
      this.checkReachable();
      this.store.compact(req.revision);
    } catch (e) {
      this.emitError('compaction', at, '', '', 0, req.revision, e);
      throw e;
    }
    const resp: CompactionResponse = {
      header: { revision: this.store.currentRev },
      latencyMs: requestLatency(this.latency, { write: true, countedKeys: 0, keys: 0, bytes: 0 }),
    };
    this.emit({
      op: 'compaction',
      at,
      key: '',
      rangeEnd: '',
      limit: 0,
      revision: req.revision,
      kvs: 0,
      headerRevision: resp.header.revision,
      latencyMs: resp.latencyMs ?? 0,
    });
    await this.delay(resp.latencyMs ?? 0);
    return resp;
  }

  watch(req: WatchRequest): Watch {
    // v3rpc: an empty key means "\0", the smallest key.
    const w = this.hub.watch(req.key === '' ? { ...req, key: '\0' } : req);
    this.emit({
      op: 'watch',
      at: this.clock.now(),
      key: req.key,
      rangeEnd: req.rangeEnd ?? '',
      limit: 0,
      revision: req.startRevision ?? 0,
      kvs: 0,
      headerRevision: this.store.currentRev,
      latencyMs: 0,
    });
    return w;
  }

  // ---- internals ----

  private commit(txn: WriteTxn): number {
    const rev = this.store.endWrite(txn);
    if (txn.changes.length) this.hub.notify(txn.rev, txn.changes);
    return rev;
  }

  private doRange(req: RangeRequest, txn: WriteTxn | undefined): RangeResponse {
    const limit = checkRange(req);
    const rev = this.store.resolveReadRev(req.revision, txn);
    const res = this.store.range(keyInterval(req.key, req.rangeEnd), rev, limit, !!req.countOnly);
    const header = { revision: txn && txn.changes.length ? txn.rev : this.store.currentRev };
    return {
      header,
      kvs: res.records.map((r) => toKeyValue(r, req.keysOnly)),
      count: res.count,
      more: res.more,
    };
  }

  private async *streamChunks(
    req: RangeRequest,
    iv: KeyInterval,
    rev: number,
    record: EtcdRequestRecord,
  ): AsyncGenerator<RangeResponse> {
    const limit = req.limit ?? 0;
    if (req.countOnly || iv.single) {
      const resp = this.doRange({ ...req, revision: rev }, undefined);
      resp.header.revision = rev;
      resp.latencyMs = requestLatency(this.latency, rangeWork(resp));
      record.kvs = resp.kvs.length;
      record.count = resp.count;
      await this.delay(resp.latencyMs);
      yield resp;
      return;
    }
    let chunk = this.initialChunk;
    let start = iv.start;
    let sent = 0;
    let first = true;
    for (;;) {
      // Each chunk is its own read at the pinned revision: a compaction in between fails the stream.
      if (rev < this.store.compactRev) throw EtcdError.compacted();
      const want = limit > 0 ? Math.min(chunk, limit - sent) : chunk;
      const res = this.store.range({ start, end: iv.end, single: false }, rev, want, false);
      const kvs = res.records.map((r) => toKeyValue(r, req.keysOnly));
      sent += kvs.length;
      const bytes = kvBytes(kvs);
      const last = !res.more || (limit > 0 && sent >= limit);
      const resp: RangeResponse = { header: { revision: 0 }, kvs, count: 0, more: false };
      // A stream walks the index only as far as it reads, until a limited one counts the rest.
      let countedKeys = kvs.length;
      if (last) {
        // The final chunk carries header, count and more, so merging all chunks equals Range.
        resp.header.revision = rev;
        const counted = limit > 0 && res.more;
        resp.count = counted ? this.store.countAt(iv, rev) : sent;
        if (counted) countedKeys += resp.count - sent; // the keys past the ones read
        resp.more = limit > 0 && resp.count > limit;
        record.count = resp.count;
      }
      // One round trip for the stream: later chunks follow on it.
      resp.latencyMs = requestLatency(this.latency, {
        write: false,
        countedKeys,
        keys: kvs.length,
        bytes,
        continued: !first,
      });
      first = false;
      record.kvs += kvs.length;
      record.latencyMs += resp.latencyMs;
      await this.delay(resp.latencyMs);
      yield resp;
      if (last) return;
      start = kvs[kvs.length - 1].key + '\0';
      // Adaptive chunk size: double while well under the byte target, halve when over it.
      if (bytes * 2 < this.maxRequestBytes) chunk *= 2;
      else if (bytes > this.maxRequestBytes) chunk = Math.max(1, chunk >> 1);
    }
  }

  private checkReachable(): void {
    if (this.unreachableFor() > 0) throw EtcdError.unavailable();
  }

  /** The model's own checks of what the types cannot say (a compare's value type, a limit). */
  private checkTxnTypes(req: TxnRequest): void {
    for (const op of [...(req.success ?? []), ...(req.failure ?? [])]) {
      if ('requestRange' in op) checkRange(op.requestRange);
      else if ('requestPut' in op) checkKey(op.requestPut.key, 'put');
      else if ('requestDeleteRange' in op) checkKey(op.requestDeleteRange.key, 'deleteRange');
      else this.checkTxnTypes(op.requestTxn);
    }
    for (const c of req.compare ?? []) checkCompare(c);
  }

  /** compareToPath: whether each txn on the way (this one, then its nested ones in order) succeeds. */
  private compareToPath(req: TxnRequest): TxnPath {
    const succeeded = (req.compare ?? []).every((c) => this.applyCompare(c));
    const nested: TxnPath[] = [];
    for (const op of (succeeded ? req.success : req.failure) ?? [])
      if ('requestTxn' in op) nested.push(this.compareToPath(op.requestTxn));
    return { succeeded, nested };
  }

  /** checkRequests(checkRange): a range on the path at a future or compacted revision fails the txn. */
  private checkRanges(req: TxnRequest, path: TxnPath): void {
    let n = 0;
    for (const op of (path.succeeded ? req.success : req.failure) ?? []) {
      if ('requestTxn' in op) this.checkRanges(op.requestTxn, path.nested[n++]);
      else if ('requestRange' in op) this.store.resolveReadRev(op.requestRange.revision);
    }
  }

  private applyTxn(
    txn: WriteTxn,
    req: TxnRequest,
    path: TxnPath,
  ): { succeeded: boolean; responses: ResponseOp[] } {
    const responses: ResponseOp[] = [];
    let n = 0;
    for (const op of (path.succeeded ? req.success : req.failure) ?? [])
      responses.push(this.applyOp(txn, op, 'requestTxn' in op ? path.nested[n++] : undefined));
    return { succeeded: path.succeeded, responses };
  }

  // Each response's header is the revision its op saw (storeTxnWrite): a read the revision so far
  // (the next one once the txn wrote), a put the txn's, a delete the txn's once anything changed.
  // A nested txn's header stays empty (newTxnResp): revision 0.
  private applyOp(txn: WriteTxn, op: RequestOp, nested: TxnPath | undefined): ResponseOp {
    if ('requestRange' in op) return { responseRange: this.doRange(op.requestRange, txn) };
    if ('requestPut' in op) {
      const p: PutRequest = op.requestPut;
      const prev = this.store.put(txn, p.key, p.value, p.lease ?? 0);
      const r: PutResponse = { header: { revision: txn.rev } };
      if (p.prevKv && prev) r.prevKv = toKeyValue(prev);
      return { responsePut: r };
    }
    if ('requestDeleteRange' in op) {
      const d = op.requestDeleteRange;
      const deleted = this.store.deleteRange(txn, keyInterval(d.key, d.rangeEnd));
      const rev = txn.changes.length ? txn.rev : this.store.currentRev;
      const r: DeleteRangeResponse = { header: { revision: rev }, deleted: deleted.length };
      if (d.prevKv) r.prevKvs = deleted.map((x) => toKeyValue(x));
      return { responseDeleteRange: r };
    }
    const inner = this.applyTxn(txn, op.requestTxn, nested as TxnPath);
    return {
      responseTxn: {
        header: { revision: 0 },
        succeeded: inner.succeeded,
        responses: inner.responses,
      },
    };
  }

  /** applyCompare: every key of the compare's range must satisfy it; a missing key compares as zeros (never for value). */
  private applyCompare(c: Compare): boolean {
    const recs = this.store.range(
      keyInterval(c.key, c.rangeEnd),
      Number.MAX_SAFE_INTEGER,
      0,
      false,
    ).records;
    if (recs.length === 0) {
      if (c.target === 'value') return false;
      return compareField(c, 0);
    }
    return recs.every((r) =>
      compareField(
        c,
        c.target === 'value' ? r.value : c.target === 'lease' ? r.lease : r[c.target],
      ),
    );
  }

  private emit(r: EtcdRequestRecord): void {
    for (const l of this.listeners) l(r);
  }

  private emitError(
    op: EtcdRequestRecord['op'],
    at: number,
    key: string,
    rangeEnd: string | undefined,
    limit: number | undefined,
    revision: number | undefined,
    e: unknown,
  ): void {
    this.emit({
      op,
      at,
      key,
      rangeEnd: rangeEnd ?? '',
      limit: limit ?? 0,
      revision: revision ?? 0,
      kvs: 0,
      headerRevision: 0,
      latencyMs: 0,
      error: errorText(e),
    });
  }

  private async delay(ms: number | undefined): Promise<void> {
    if (this.simulateLatency && ms && ms > 0) await this.clock.sleep(ms);
  }
}

/** Whether each txn on the way succeeds: this one, then the nested txns of its branch, in order. */
interface TxnPath {
  succeeded: boolean;
  nested: TxnPath[];
}

/** v3rpc checkRangeRequest/checkPutRequest/checkDeleteRequest: keys must be non-empty strings. */
function checkKey(key: unknown, what: string): void {
  if (typeof key !== 'string' || key.length === 0) {
    if (typeof key === 'string') throw EtcdError.invalidArgument(etcdErrorMessages.emptyKey);
    throw EtcdError.invalidArgument(`${what}: key must be a string, got ${typeof key}`);
  }
}

/** checkRangeRequest: a key, and a limit that is an integer >= 0; returns the limit. */
function checkRange(req: RangeRequest): number {
  checkKey(req.key, 'range');
  const limit = req.limit ?? 0;
  if (!(Number.isInteger(limit) && limit >= 0)) {
    throw EtcdError.invalidArgument(
      `range ${req.key}: limit must be an integer >= 0, got ${String(req.limit)}`,
    );
  }
  return limit;
}

function checkCompare(c: Compare): void {
  checkKey(c.key, 'compare');
  const numeric = c.target !== 'value';
  if (numeric ? typeof c.value !== 'number' : typeof c.value !== 'string') {
    throw EtcdError.invalidArgument(
      `compare on ${c.key}: target ${c.target} needs a ${numeric ? 'number' : 'string'} value, got ${typeof c.value}`,
    );
  }
  if (!['equal', 'notEqual', 'greater', 'less'].includes(c.result)) {
    throw EtcdError.invalidArgument(
      `compare on ${c.key}: result must be equal, notEqual, greater or less, got ${String(c.result)}`,
    );
  }
}

function compareField(c: Compare, actual: number | string): boolean {
  const want = c.value;
  const d =
    typeof actual === 'string' ? compareKeys(actual, want as string) : actual - (want as number);
  switch (c.result) {
    case 'equal':
      return d === 0;
    case 'notEqual':
      return d !== 0;
    case 'greater':
      return d > 0;
    case 'less':
      return d < 0;
  }
}

/** What a Range cost etcd: every key in its range counted (its Count), the returned ones read. */
function rangeWork(resp: RangeResponse): RequestWork {
  return { write: false, countedKeys: resp.count, keys: resp.kvs.length, bytes: kvBytes(resp.kvs) };
}

function collectRead(responses: ResponseOp[]): {
  countedKeys: number;
  keys: number;
  bytes: number;
} {
  let countedKeys = 0;
  let keys = 0;
  let bytes = 0;
  for (const r of responses) {
    if ('responseRange' in r) {
      countedKeys += r.responseRange.count;
      keys += r.responseRange.kvs.length;
      bytes += kvBytes(r.responseRange.kvs);
    } else if ('responseTxn' in r) {
      const inner = collectRead(r.responseTxn.responses);
      countedKeys += inner.countedKeys;
      keys += inner.keys;
      bytes += inner.bytes;
    }
  }
  return { countedKeys, keys, bytes };
}

/** etcd's isTxnReadonly: a Txn with no put or delete in either branch is served without raft. */
function isTxnReadonly(req: TxnRequest): boolean {
  for (const op of [...(req.success ?? []), ...(req.failure ?? [])]) {
    if ('requestPut' in op || 'requestDeleteRange' in op) return false;
    if ('requestTxn' in op && !isTxnReadonly(op.requestTxn)) return false;
  }
  return true;
}

function firstKeyOf(req: TxnRequest): string {
  const op = (req.success ?? [])[0] ?? (req.failure ?? [])[0];
  if (!op) return req.compare?.[0]?.key ?? '';
  if ('requestRange' in op) return op.requestRange.key;
  if ('requestPut' in op) return op.requestPut.key;
  if ('requestDeleteRange' in op) return op.requestDeleteRange.key;
  return firstKeyOf(op.requestTxn);
}

/** Key and value lengths in UTF-16 units: bytes for the ASCII keys and JSON values Kubernetes stores. */
function kvBytes(kvs: KeyValue[]): number {
  let n = 0;
  for (const kv of kvs) n += kv.key.length + kv.value.length;
  return n;
}

function recordBytes(rs: KeyRecord[]): number {
  let n = 0;
  for (const r of rs) n += r.key.length + r.value.length;
  return n;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
