// Mirrors the part of clientv3.Client (client/v3/client.go) that k8s.io/apiserver's etcd3 store,
// compactor and cacher hold on to, beyond the KV and Watch services in kv.ts: what an apiserver
// resource needs from "its etcd", whether the in-memory member or a real cluster over gRPC.

import type { KV } from './kv';
import type { EtcdRequestRecord } from './request-recorder';

/**
 * An etcd the engine can run on. MemoryEtcd is one; a gRPC client for a real cluster is another
 * (src/etcd-client). The synchronous figures are what the client last saw: for a real cluster,
 * the highest header revision of any response so far, and the highest compaction it made or was
 * told of (a compacted watch or read); other writers can be ahead of both.
 */
export interface EtcdMember extends KV {
  /** The store's revision (in memory) or the highest header revision seen (a real cluster). */
  currentRevision(): number;
  /** The last compacted revision known, or -1 before any. */
  compactRevision(): number;
  /** Every KV call, once answered (RequestRecorder.record); returns a function that removes it. */
  addRequestListener(fn: (r: EtcdRequestRecord) => void): () => void;
  /** Cancels every watch; a real client also closes its connections. */
  close(): void;
  /** 'memory' for the in-memory model, 'grpc' for a real cluster. */
  readonly kind: 'memory' | 'grpc';
}
