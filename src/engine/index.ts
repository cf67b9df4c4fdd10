// The engine's public library API (no upstream counterpart): what the faces and the library example
// in docs/DEVELOPMENT.md use. Internals (the cacher's parts, the watch cache, channels, encoders)
// are imported by path, by the engine's own tests too.

// Time and randomness: the engine reads no clock and no randomness of its own.
export { FakeClock, RealClock, settle, type Clock, type Timer } from './clock';
export { SeededRandom } from './rand';

// Semantics: release-1.36 by default, master as the 1.37 preview, gates on top.
export {
  profile136,
  profile137Preview,
  withGates,
  type FeatureGates,
  type SemanticsProfile,
} from './features';

// Continue tokens, as k8s.io/apiserver pkg/storage/continue.go, and what a face says about one.
export {
  encodeContinue,
  decodeContinue,
  prepareContinueToken,
  ContinueTokenError,
  type ContinueTokenErrorReason,
  type PrepareContinueTokenOptions,
  type PreparedContinueToken,
} from './storage/continue';
export {
  explainContinueToken,
  type ContinueTokenExplanation,
  type ContinueTokenWarning,
} from './storage/explain-continue';

// One resource of an apiserver: etcd, the etcd3 store, the watch cache, the cacher, the delegator.
export {
  createResource,
  Resource,
  type CreateResourceOptions,
  type CacheOptions,
  type ResourceListRequest,
  type ResourceWatchRequest,
  type OpenedWatch,
} from './apiserver';
export { MemoryEtcd, type MemoryEtcdOptions } from './etcd/memory-etcd';
export { EtcdError, GrpcCode, type KV } from './etcd/kv';
export {
  latencyModel,
  measuredEtcd34Latency,
  zeroLatency,
  type LatencyModel,
} from './etcd/latency-model';
export { EtcdStore, type EtcdStoreOptions, type ListResult } from './etcd3/store';
export type { GroupResource } from './storage/group-resource';
export type { KubeObject, KubeList, Pod, PodOptions } from './storage/objects';
export { StatusError, StorageError, type Status } from './storage/errors';

// What the engine reports: inspector events and Prometheus metrics under upstream's names.
export type { Inspector, InspectorEvent } from './inspect/events';
export { MetricsRegistry } from './metrics/registry';
export { RequestContexts, type RequestContext } from './request/request-context';
