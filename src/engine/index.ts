// The engine's public library API (no upstream counterpart): what the library example in
// docs/DEVELOPMENT.md, the virtual-time harness, the scenarios, the replay and the tools use. Code
// outside src/engine imports the engine through this module, http-face.ts (what the HTTP face needs
// besides) and etcd-face.ts (what an etcd client implements); lint refuses deeper paths.
// Internals (the cacher's parts, the watch cache, channels, encoders) stay private to the engine
// and its tests, which import them by path.

// Time and randomness: the engine reads no clock and no randomness of its own.
export { FakeClock, RealClock, settle, type Clock, type Timer } from './clock';
export { SeededRandom } from './rand';

// Semantics: release-1.36 by default, master as the 1.37 preview, 1.33-1.35's gate defaults on the
// 1.36 code, gates on top.
export {
  featureNames,
  isProfileVersion,
  parseFeatureGates,
  profile133,
  profile134,
  profile135,
  profile136,
  profile137Preview,
  profiles,
  profileVersions,
  withGates,
  FeatureGateError,
  type FeatureGates,
  type FeatureGateSpec,
  type FeatureName,
  type FeatureStage,
  type KubernetesVersion,
  type ProfileVersion,
  type SemanticsProfile,
} from './features';

// Continue tokens, as k8s.io/apiserver pkg/storage/continue.go, and what a face says about one.
export {
  encodeContinue,
  decodeContinue,
  inspectContinue,
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

// Who serves a LIST (delegator.ShouldDelegateList and the Cacher's Helper), for faces that say
// what a profile would do with a request they send elsewhere (probe --compare).
export { shouldDelegateList, type DelegationResult } from './cacher/delegator/interface';
export { CacherDelegation, type CacherDelegationView } from './cacher/cacher-delegation';
// One resource of an apiserver: etcd, the etcd3 store, the watch cache, the cacher, the delegator.
export {
  createResource,
  Resource,
  type CreateResourceOptions,
  type CacheOptions,
  type ResourceListRequest,
  type ResourceWatchRequest,
  type OpenedWatch,
  type RequestSender,
} from './apiserver';
// An etcd the engine can run on (MemoryEtcd, or src/etcd-client's gRPC client through
// etcd-face.ts), and the calls it reports.
export { MemoryEtcd, type MemoryEtcdOptions } from './etcd/memory-etcd';
export { EtcdError, GrpcCode, type KV } from './etcd/kv';
export type { EtcdMember } from './etcd/etcd-member';
export type { EtcdRequestRecord } from './etcd/request-recorder';
export {
  isZeroLatency,
  latencyModel,
  measuredEtcd34Latency,
  scaledLatency,
  zeroLatency,
  type LatencyModel,
} from './etcd/latency-model';
export {
  EtcdStore,
  type EtcdStoreOptions,
  type ListResult,
  type Preconditions,
  type StorageCodec,
} from './etcd3/store';
export type { GroupResource } from './storage/group-resource';
export {
  makePod,
  type KubeObject,
  type KubeList,
  type ObjectMeta,
  type Pod,
  type PodOptions,
} from './storage/objects';
export { errorToAPIStatus, StatusError, StorageError, type Status } from './storage/errors';
// What the etcd3 store writes for an object, for seeding an etcd directly.
export { encodeStoredObject } from './encoding/byte-string';

// Selecting objects: label and field selectors, as a list or watch request carries them.
export * as labels from './storage/labels';
export * as fields from './storage/fields';
export { Operator } from './storage/labels';
export { SelectionPredicate } from './storage/selection-predicate';

// A client's side: the URL it sends, how fast it reads a watch, the content type it asks for.
export { requestPath } from './request/request-path';
export type { ReadRate, WatchContentType } from './clients/watch-client';
export { contentTypeJSON, contentTypeProtobuf } from './cacher/object-encoders';

// Upstream's tuning constants, for scenarios and explanations that reason about their timing.
export { defaultMinRequestTimeoutSeconds } from './apiserver';
export { blockTimeout } from './cacher/watch-cache';
export {
  capacityUpperBound,
  DefaultEventFreshDuration,
  defaultLowerBoundCapacity,
} from './cacher/watch-cache-history';
export { compactorPollPeriod } from './cacher/cacher';
export { progressRequestPeriod } from './cacher/reflector';
export { maxLimit } from './etcd3/store';
export { rangeStreamRecheckInterval } from './etcd3/feature-support-checker';

// What the engine reports: engine events (every event type: the run model folds them) and
// Prometheus metrics under upstream's names.
export { EventHub } from './inspect/events';
export type * from './inspect/events';
// The {code, message} an engine event carries for a failed request.
export { statusOf } from './cacher/reflector';
export { changedSamples, MetricsRegistry } from './metrics/registry';
export { RequestContexts, type HttpMethod, type RequestContext } from './request/request-context';
export { WatcherIds } from './cacher/watcher-ids';
