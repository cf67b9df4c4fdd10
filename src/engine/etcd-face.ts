// No upstream counterpart: the engine's etcd entry module, what src/etcd-client needs to be an
// etcd the engine runs on (an EtcdMember over gRPC): the KV and Watch interfaces of etcd/kv.ts,
// EtcdMember, the watch response queue, the request record and the real clock. It stands beside
// index.ts so that the lazily loaded etcd-client chunk bundles these few modules, not the library:
// esbuild keeps every module index.ts re-exports that has top-level tables.
export {
  EtcdError,
  GrpcCode,
  type CompactionRequest,
  type CompactionResponse,
  type Compare,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type GrpcCodeName,
  type KeyValue,
  type KV,
  type PutResponse,
  type RangeRequest,
  type RangeResponse,
  type RequestOp,
  type ResponseHeader,
  type ResponseOp,
  type TxnRequest,
  type TxnResponse,
  type Watch,
  type WatchEvent,
  type WatchRequest,
  type WatchResponse,
} from './etcd/kv';
export type { EtcdMember } from './etcd/etcd-member';
export { WatchResponses } from './etcd/watch-responses';
export type { EtcdRequestRecord } from './etcd/request-recorder';
export { RealClock, type Clock } from './clock';
