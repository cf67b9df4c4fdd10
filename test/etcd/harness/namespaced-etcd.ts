// One case's view of an etcd shared by a test file: its keys under a prefix of its own, as
// etcd's client/v3/namespace (kv.go, watch.go, util.go prefixInterval) puts them, and its
// revisions counted from the case's start, so the case sees what a fresh etcd (revision 1, as
// upstream's testserver.RunEtcd per test gives) would show. The offset holds while the case is
// the etcd's only writer: the cases of a file run one after another. It also knows what the etcd
// still owes the case (calls in flight, the watch events of the writes it made), which is what
// virtual time waits for (ioAwareClock). No upstream counterpart for the last two.
import {
  prefixEnd,
  type CompactionRequest,
  type CompactionResponse,
  type Compare,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type KeyValue,
  type RangeRequest,
  type RangeResponse,
  type RequestOp,
  type ResponseOp,
  type TxnRequest,
  type TxnResponse,
  type Watch,
  type WatchRequest,
  type WatchResponse,
} from '../../../src/engine/etcd/kv';
import type { EtcdMember } from '../../../src/engine/etcd/etcd-member';
import type { EtcdRequestRecord } from '../../../src/engine/etcd/request-recorder';
import { FakeClock, settle, type Clock } from '../../../src/engine/clock';
import type { TestEtcd } from '../../harness/etcd-under-test';

/** What the case writes beside its store: a second, unrecorded client of the same etcd. */
export interface AdminClient {
  put(key: string, value: string): Promise<number>;
  delete(key: string): Promise<number>;
  compact(revision: number): Promise<void>;
}

/**
 * How long (real ms) an owed answer is waited for before virtual time moves on anyway: an event
 * that never comes then fails the case on its own (virtual) timeout instead of hanging it.
 */
const owedAnswerWaitMs = 2000;

/** A watch of the view, with what etcd still owes it. */
class TrackedWatch implements Watch {
  /** Highest revision delivered (events, or a progress notification's header). */
  delivered = 0;
  /** Highest revision of a write this watch covers; owed until delivered. */
  owed = 0;
  owedSince = 0;
  /** A start revision at or below a known compaction: a canceled response is owed. */
  owesCancel = false;
  progressOwed = 0;
  progressSince = 0;
  private readonly queue: WatchResponse[] = [];
  private consumer: ((r: WatchResponse) => void) | undefined;
  private waiter: (() => void) | undefined;
  private ended = false;

  constructor(
    private readonly inner: Watch,
    readonly key: string,
    readonly rangeEnd: string,
    readonly startRevision: number,
    readonly filters: readonly string[],
    private readonly out: (r: WatchResponse) => WatchResponse,
  ) {
    // Responses are taken as they arrive, whoever consumes them, so the view sees what is owed.
    inner.onResponse((r) => this.onInner(r));
  }

  get id(): number {
    return this.inner.id;
  }

  get canceled(): boolean {
    return this.inner.canceled;
  }

  covers(key: string, rangeEnd: string, rev: number, isPut: boolean): boolean {
    if (this.ended || rev < this.startRevision) return false;
    if (this.filters.includes(isPut ? 'noPut' : 'noDelete')) return false;
    return overlaps(this.key, this.rangeEnd, key, rangeEnd);
  }

  owe(rev: number, now: number): void {
    if (rev > this.owed) {
      this.owed = rev;
      this.owedSince = now;
    }
  }

  owes(now: number): boolean {
    if (this.ended) return false;
    if (this.owesCancel || this.delivered < this.owed)
      return now - this.owedSince < owedAnswerWaitMs;
    return this.progressOwed > 0 && now - this.progressSince < owedAnswerWaitMs;
  }

  private onInner(raw: WatchResponse): void {
    const r = this.out(raw);
    for (const e of r.events) this.delivered = Math.max(this.delivered, e.kv.modRevision);
    if (r.progressNotify) {
      // A progress notification says every event up to its revision has been sent.
      this.delivered = Math.max(this.delivered, r.header.revision);
      this.progressOwed = Math.max(0, this.progressOwed - 1);
    }
    if (r.canceled) {
      this.ended = true;
      this.owesCancel = false;
    }
    if (this.consumer) this.consumer(r);
    else {
      this.queue.push(r);
      this.waiter?.();
    }
  }

  onResponse(cb: (r: WatchResponse) => void): void {
    this.consumer = cb;
    for (const r of this.queue.splice(0)) cb(r);
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchResponse> {
    return {
      next: async () => {
        for (;;) {
          const r = this.queue.shift();
          if (r !== undefined) return { done: false, value: r };
          if (this.ended || this.inner.canceled) return { done: true, value: undefined };
          await new Promise<void>((resolve) => (this.waiter = resolve));
          this.waiter = undefined;
        }
      },
    };
  }

  requestProgress(): void {
    this.progressOwed++;
    this.progressSince = Date.now();
    this.inner.requestProgress();
  }

  cancel(): void {
    this.ended = true;
    this.inner.cancel();
    this.waiter?.();
  }
}

/** [aKey, aEnd) and [bKey, bEnd) share a key ('' = the one key, '\0' = no end). */
function overlaps(aKey: string, aEnd: string, bKey: string, bEnd: string): boolean {
  const end = (k: string, e: string) => (e === '' ? k + '\0' : e);
  const aE = end(aKey, aEnd);
  const bE = end(bKey, bEnd);
  const beforeEnd = (k: string, e: string) => e === '\0' || k < e;
  return beforeEnd(aKey, bE) && beforeEnd(bKey, aE);
}

export class NamespacedEtcd implements TestEtcd {
  readonly kind = 'grpc' as const;
  private inFlight = 0;
  private readonly watches = new Set<TrackedWatch>();
  /** The case's writes (view keys and revisions), for the watches opened after them. */
  private readonly writes: { key: string; rangeEnd: string; rev: number; isPut: boolean }[] = [];
  private compacted = -1;
  private headRevision = 1;
  /** Watches opened and not yet recorded (a real client records a watch once etcd created it). */
  private createsOwed = 0;
  private createsOwedSince = 0;
  private readonly removeListener: () => void;
  private readonly listeners: ((r: EtcdRequestRecord) => void)[] = [];

  /**
   * @param base the shared etcd's revision at the case's start, less one: view revision 1 is it.
   * @param clock the case's clock, for its records' `at`.
   */
  constructor(
    private readonly member: EtcdMember,
    private readonly admin: AdminClient,
    readonly prefix: string,
    private readonly base: number,
    private readonly clock: Clock,
  ) {
    this.removeListener = member.addRequestListener((r) => {
      const v = this.recordOut(r);
      if (v?.op === 'watch') this.createsOwed = Math.max(0, this.createsOwed - 1);
      if (v) for (const l of this.listeners) l(v);
    });
  }

  // ---- translation (client/v3/namespace) ----

  private keyIn(key: string): string {
    return this.prefix + key;
  }

  private endIn(rangeEnd: string | undefined): string | undefined {
    if (rangeEnd === undefined || rangeEnd === '') return rangeEnd;
    return rangeEnd === '\0' ? prefixEnd(this.prefix) : this.prefix + rangeEnd;
  }

  private keyOut(key: string): string {
    return key.startsWith(this.prefix) ? key.slice(this.prefix.length) : key;
  }

  private endOut(rangeEnd: string): string {
    if (rangeEnd === prefixEnd(this.prefix)) return '\0';
    return this.keyOut(rangeEnd);
  }

  private revIn(rev: number | undefined): number | undefined {
    return rev !== undefined && rev > 0 ? rev + this.base : rev;
  }

  private revOut(rev: number): number {
    return rev > 0 ? rev - this.base : rev;
  }

  private kvOut(kv: KeyValue): KeyValue;
  private kvOut(kv: KeyValue | undefined): KeyValue | undefined;
  private kvOut(kv: KeyValue | undefined): KeyValue | undefined {
    if (kv === undefined) return undefined;
    return {
      ...kv,
      key: this.keyOut(kv.key),
      createRevision: this.revOut(kv.createRevision),
      modRevision: this.revOut(kv.modRevision),
    };
  }

  private header(h: { revision: number }): { revision: number } {
    const revision = this.revOut(h.revision);
    this.headRevision = Math.max(this.headRevision, revision);
    return { ...h, revision };
  }

  private rangeIn(req: RangeRequest): RangeRequest {
    return {
      ...req,
      key: this.keyIn(req.key),
      rangeEnd: this.endIn(req.rangeEnd),
      revision: this.revIn(req.revision),
    };
  }

  private rangeOut(r: RangeResponse): RangeResponse {
    return { ...r, header: this.header(r.header), kvs: r.kvs.map((kv) => this.kvOut(kv)) };
  }

  private compareIn(c: Compare): Compare {
    const revTarget = c.target === 'modRevision' || c.target === 'createRevision';
    return {
      ...c,
      key: this.keyIn(c.key),
      rangeEnd: this.endIn(c.rangeEnd),
      value: revTarget ? (this.revIn(c.value as number) as number) : c.value,
    };
  }

  private opIn(op: RequestOp): RequestOp {
    if ('requestRange' in op) return { requestRange: this.rangeIn(op.requestRange) };
    if ('requestPut' in op)
      return { requestPut: { ...op.requestPut, key: this.keyIn(op.requestPut.key) } };
    if ('requestDeleteRange' in op) {
      const d = op.requestDeleteRange;
      return {
        requestDeleteRange: { ...d, key: this.keyIn(d.key), rangeEnd: this.endIn(d.rangeEnd) },
      };
    }
    return { requestTxn: this.txnIn(op.requestTxn) };
  }

  private txnIn(req: TxnRequest): TxnRequest {
    return {
      compare: req.compare?.map((c) => this.compareIn(c)),
      success: req.success?.map((op) => this.opIn(op)),
      failure: req.failure?.map((op) => this.opIn(op)),
    };
  }

  private opOut(op: ResponseOp): ResponseOp {
    if ('responseRange' in op) return { responseRange: this.rangeOut(op.responseRange) };
    if ('responsePut' in op) {
      const p = op.responsePut;
      return { responsePut: { ...p, header: this.header(p.header), prevKv: this.kvOut(p.prevKv) } };
    }
    if ('responseDeleteRange' in op) {
      const d = op.responseDeleteRange;
      return {
        responseDeleteRange: {
          ...d,
          header: this.header(d.header),
          prevKvs: d.prevKvs?.map((kv) => this.kvOut(kv)),
        },
      };
    }
    return { responseTxn: this.txnOut(op.responseTxn) };
  }

  private txnOut(r: TxnResponse): TxnResponse {
    return {
      ...r,
      header: this.header(r.header),
      responses: r.responses.map((o) => this.opOut(o)),
    };
  }

  private watchOut(r: WatchResponse): WatchResponse {
    return {
      ...r,
      header: this.header(r.header),
      events: r.events.map((e) => ({ ...e, kv: this.kvOut(e.kv), prevKv: this.kvOut(e.prevKv) })),
      compactRevision: r.compactRevision ? this.revOut(r.compactRevision) : r.compactRevision,
    };
  }

  private recordOut(r: EtcdRequestRecord): EtcdRequestRecord | undefined {
    // Another case's late answer on a shared client is not this case's.
    if (r.key !== '' && !r.key.startsWith(this.prefix)) return undefined;
    return {
      ...r,
      at: this.clock.now(),
      key: this.keyOut(r.key),
      rangeEnd: this.endOut(r.rangeEnd),
      revision: this.revOut(r.revision),
      headerRevision: this.revOut(r.headerRevision),
    };
  }

  // ---- what the etcd owes ----

  /** A write at `rev` (view): every watch covering it owes its event. */
  private wrote(key: string, rangeEnd: string, rev: number, isPut: boolean): void {
    this.writes.push({ key, rangeEnd, rev, isPut });
    const now = Date.now();
    for (const w of this.watches) if (w.covers(key, rangeEnd, rev, isPut)) w.owe(rev, now);
  }

  private txnWrites(req: TxnRequest, r: TxnResponse): void {
    const ops = (r.succeeded ? req.success : req.failure) ?? [];
    ops.forEach((op, i) => {
      const resp = r.responses[i];
      if ('requestPut' in op) this.wrote(op.requestPut.key, '', r.header.revision, true);
      else if ('requestDeleteRange' in op && resp && 'responseDeleteRange' in resp) {
        if (resp.responseDeleteRange.deleted > 0) {
          const d = op.requestDeleteRange;
          this.wrote(d.key, d.rangeEnd ?? '', r.header.revision, false);
        }
      } else if ('requestTxn' in op && resp && 'responseTxn' in resp)
        this.txnWrites(op.requestTxn, resp.responseTxn);
    });
  }

  /** True while a call is in flight or a watch is owed an answer (bounded by owedAnswerWaitMs). */
  busy(): boolean {
    if (this.inFlight > 0) return true;
    const now = Date.now();
    if (this.createsOwed > 0 && now - this.createsOwedSince < owedAnswerWaitMs) return true;
    for (const w of this.watches) if (w.owes(now)) return true;
    return false;
  }

  /** Resolves once nothing is owed: real macrotask turns, each followed by microtask ones. */
  async settle(turns = 20): Promise<void> {
    let quiet = 0;
    // Two quiet turns in a row: an answer's handler may have issued the next call.
    while (quiet < 2) {
      await settle(turns);
      await new Promise<void>((resolve) => setImmediate(resolve));
      await settle(turns);
      quiet = this.busy() ? 0 : quiet + 1;
    }
  }

  private async call<T>(p: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await p();
    } finally {
      this.inFlight--;
    }
  }

  // ---- KV ----

  range(req: RangeRequest): Promise<RangeResponse> {
    return this.call(async () => this.rangeOut(await this.member.range(this.rangeIn(req))));
  }

  async *rangeStream(req: RangeRequest): AsyncIterable<RangeResponse> {
    this.inFlight++;
    try {
      for await (const c of this.member.rangeStream(this.rangeIn(req))) yield this.rangeOut(c);
    } finally {
      this.inFlight--;
    }
  }

  txn(req: TxnRequest): Promise<TxnResponse> {
    return this.call(async () => {
      const r = this.txnOut(await this.member.txn(this.txnIn(req)));
      this.txnWrites(req, r);
      return r;
    });
  }

  deleteRange(req: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    return this.call(async () => {
      const r = await this.member.deleteRange({
        ...req,
        key: this.keyIn(req.key),
        rangeEnd: this.endIn(req.rangeEnd),
      });
      const out = {
        ...r,
        header: this.header(r.header),
        prevKvs: r.prevKvs?.map((kv) => this.kvOut(kv)),
      };
      if (r.deleted > 0) this.wrote(req.key, req.rangeEnd ?? '', out.header.revision, false);
      return out;
    });
  }

  compaction(req: CompactionRequest): Promise<CompactionResponse> {
    return this.call(async () => {
      const r = await this.member.compaction({ ...req, revision: req.revision + this.base });
      this.compacted = Math.max(this.compacted, req.revision);
      return { ...r, header: this.header(r.header) };
    });
  }

  watch(req: WatchRequest): Watch {
    const start = req.startRevision ? req.startRevision : this.headRevision + 1;
    if (this.createsOwed++ === 0) this.createsOwedSince = Date.now();
    const inner = this.member.watch({
      ...req,
      key: this.keyIn(req.key),
      rangeEnd: this.endIn(req.rangeEnd),
      startRevision: this.revIn(req.startRevision),
    });
    const w = new TrackedWatch(inner, req.key, req.rangeEnd ?? '', start, req.filters ?? [], (r) =>
      this.watchOut(r),
    );
    const now = Date.now();
    if (req.startRevision && req.startRevision <= this.compacted) {
      w.owesCancel = true;
      w.owedSince = now;
    } else
      for (const x of this.writes)
        if (w.covers(x.key, x.rangeEnd, x.rev, x.isPut)) w.owe(x.rev, now);
    this.watches.add(w);
    return w;
  }

  // ---- EtcdMember ----

  currentRevision(): number {
    return Math.max(this.headRevision, this.revOut(this.member.currentRevision()));
  }

  compactRevision(): number {
    const known = this.revOut(this.member.compactRevision());
    return Math.max(this.compacted, known > 0 ? known : -1);
  }

  addRequestListener(fn: (r: EtcdRequestRecord) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Cancels the case's watches; the shared client stays open for the next case. */
  close(): void {
    for (const w of this.watches) w.cancel();
    this.watches.clear();
    this.removeListener();
  }

  // ---- TestEtcd conveniences (the unrecorded client) ----
  // In flight like the member's calls: a case's own write between two store calls (a transformer
  // creating the next object) must not let virtual time run while etcd is still answering it.

  put(key: string, value: string): Promise<number> {
    return this.call(async () => {
      const rev = this.revOut(await this.admin.put(this.keyIn(key), value));
      this.headRevision = Math.max(this.headRevision, rev);
      this.wrote(key, '', rev, true);
      return rev;
    });
  }

  delete(key: string): Promise<number> {
    return this.call(async () => {
      const before = this.headRevision;
      const rev = this.revOut(await this.admin.delete(this.keyIn(key)));
      this.headRevision = Math.max(this.headRevision, rev);
      if (rev > before) this.wrote(key, '', rev, false);
      return rev;
    });
  }

  compact(revision: number): Promise<void> {
    return this.call(async () => {
      await this.admin.compact(revision + this.base);
      this.compacted = Math.max(this.compacted, revision);
    });
  }
}

/**
 * A FakeClock whose asynchronous steps first wait for what the etcd owes: virtual time moves
 * only while real I/O is quiet, so a real etcd answers in no virtual time, as the model does
 * without a latency model. Synchronous steps (step, advanceTo) cannot wait and do not.
 */
export class IOAwareFakeClock extends FakeClock {
  quiet: () => Promise<void> = async () => undefined;

  override async advanceToAsync(t: number): Promise<void> {
    await this.quiet();
    await super.advanceToAsync(t);
  }
}
