// Mirrors k8s.io/apiserver pkg/storage/testing/recorder.go (KVRecorder, KubernetesRecorder):
// counts the etcd calls a store makes, so tests can assert "10 range calls for 1000 pods".

/** One call on the KV interface, as the in-memory etcd served it. */
export interface EtcdRequestRecord {
  op: 'range' | 'rangeStream' | 'txn' | 'deleteRange' | 'compaction' | 'watch' | 'progressRequest';
  /** Virtual time the request arrived. */
  at: number;
  key: string;
  rangeEnd: string;
  /** Requested limit (0 = none). */
  limit: number;
  /** Requested revision (range), start revision (watch) or compact revision; 0 = none. */
  revision: number;
  countOnly?: boolean;
  /** Keys returned (range, rangeStream) or written (txn, deleteRange). */
  kvs: number;
  /** Range count (keys in the range at the read revision). */
  count?: number;
  /** Header revision of the response. */
  headerRevision: number;
  latencyMs: number;
  /** The error message when the call failed. */
  error?: string;
}

/** Collects records from MemoryEtcd's `onRequest` hook. */
export class RequestRecorder {
  readonly requests: EtcdRequestRecord[] = [];
  private reads = 0;
  private streamReads = 0;

  /** Pass this as MemoryEtcd's `onRequest` (or call it from a hook of your own). */
  readonly record = (r: EtcdRequestRecord): void => {
    this.requests.push(r);
    if (r.op === 'range') this.reads++;
    else if (r.op === 'rangeStream') this.streamReads++;
  };

  /** KVRecorder.GetReadsAndReset: Range calls since the last reset. */
  getReadsAndReset(): number {
    const n = this.reads;
    this.reads = 0;
    return n;
  }

  /** KVRecorder.GetStreamReadsAndReset: RangeStream calls since the last reset. */
  getStreamReadsAndReset(): number {
    const n = this.streamReads;
    this.streamReads = 0;
    return n;
  }

  /** Range/RangeStream requests as KubernetesRecorder's RecordedList {key, revision, limit}. */
  listRequests(): { key: string; revision: number; limit: number }[] {
    return this.requests
      .filter((r) => r.op === 'range' || r.op === 'rangeStream')
      .map((r) => ({ key: r.key, revision: r.revision, limit: r.limit }));
  }

  clear(): void {
    this.requests.length = 0;
    this.reads = 0;
    this.streamReads = 0;
  }
}
