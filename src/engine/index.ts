// The engine's public library API: everything the extension, the CLI, tests and benchmarks use.
// Each area appends its exports below; keep one line per module.
export { FakeClock, RealClock, settle, type Clock, type Timer } from './clock';
export { SeededRandom } from './rand';
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
export { rawUrlEncoding, Base64CorruptInputError } from './encoding/go-base64';
export {
  goJsonMarshal,
  goJsonQuote,
  goJsonUnmarshalStruct,
  GoJsonSyntaxError,
  GoJsonUnmarshalTypeError,
  type GoStructField,
  type GoStructDecodeResult,
} from './encoding/go-json';
export {
  MetricsRegistry,
  Counter,
  Gauge,
  Histogram,
  escapeLabelValue,
  formatFloat,
  type Metric,
  type MetricType,
  type MetricOptions,
  type StabilityLevel,
  type Labels,
  type CounterChild,
  type GaugeChild,
  type HistogramChild,
  type HistogramBucket,
  type HistogramSnapshot,
} from './metrics/registry';
export {
  EtcdError,
  GrpcCode,
  etcdErrorMessages,
  prefixEnd,
  type GrpcCodeName,
  type KV,
  type KeyValue,
  type ResponseHeader,
  type RangeRequest,
  type RangeResponse,
  type PutRequest,
  type PutResponse,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type Compare,
  type RequestOp,
  type ResponseOp,
  type TxnRequest,
  type TxnResponse,
  type CompactionRequest,
  type CompactionResponse,
  type WatchRequest,
  type WatchEvent,
  type WatchResponse,
  type Watch,
  rangeStreamToRangeResponse,
} from './etcd/kv';
export {
  MemoryEtcd,
  defaultMaxTxnOps,
  defaultMaxRequestBytes,
  type MemoryEtcdOptions,
} from './etcd/memory-etcd';
export { RequestRecorder, type EtcdRequestRecord } from './etcd/request-recorder';
export {
  zeroLatency,
  measuredEtcd34Latency,
  requestLatency,
  type LatencyModel,
  type RequestWork,
} from './etcd/latency-model';
export { compareKeys } from './etcd/index-tree';
export { defaultProgressNotifyIntervalMs, watchBatchMaxRevs } from './etcd/watch-hub';
export {
  profile136,
  profile137Preview,
  withGates,
  featureNames,
  type FeatureGates,
  type FeatureName,
  type FeatureStage,
  type FeatureGateSpec,
  type KubernetesVersion,
  type SemanticsProfile,
  type WithGatesOptions,
} from './features';
export {
  TimeBudgetImpl,
  newTimeBudget,
  refreshPerSecond,
  maxBudget,
  type TimeBudget,
  type TimeBudgetOptions,
} from './cacher/time-budget';
export {
  WatcherBookmarkTimeBuckets,
  newTimeBucketWatchers,
  defaultBookmarkFrequency,
  zeroTime,
  type BookmarkWatcher,
  type BookmarkBucketsInspector,
} from './cacher/bookmark-buckets';
export {
  suggestedWatchChannelSize,
  minWatchChanSize,
  maxWatchChanSizeWithIndexAndTrigger,
  maxWatchChanSizeWithIndexWithoutTrigger,
  maxWatchChanSizeWithoutIndex,
} from './cacher/watch-channel-size';
export { hasPathPrefix, calculateRetryAfterForUnreadyCache } from './cacher/util';
export {
  shouldDelegateList,
  shouldDelegateListMeta,
  consistentReadSupported,
  CacheWithoutSnapshots,
  type DelegationListOptions,
  type DelegationResult,
  type DelegatorHelper,
} from './cacher/delegator/interface';
export {
  CacherDelegation,
  computeListLimit,
  type CacherDelegationView,
  type CacherDelegationDeps,
} from './cacher/cacher-delegation';
export {
  isListWatchRequest,
  getBookmarkAfterResourceVersionLockedFunc,
  getWatchCacheResourceVersion,
  type WatchStartOptions,
} from './cacher/watch-resource-versions';
export {
  CachingObject,
  CacheInvalidationWarnings,
  newCachingObject,
  getMutableObject,
  baseObjectThreadUnsafe,
  updateResourceVersion,
  setCachingObjects,
  deepCopyJSON,
  goDeepEqual,
  type Identifier as RuntimeIdentifier,
  type EncodeFunc,
  type OwnerReference,
  type ManagedFieldsEntry,
  type CachingObjectInspector,
  type CachingObjectOptions,
  type SerializationCounts,
  type SetCachingObjectsOptions,
} from './cacher/caching-object';
export {
  newJSONEncoder,
  newProtobufEncoder,
  encodeObject,
  encodeUnknown,
  marshalObjectJSON,
  versioningCodecIdentifier,
  jsonSerializerIdentifier,
  protobufSerializerIdentifier,
  protoEncodingPrefix,
  contentTypeJSON,
  contentTypeProtobuf,
  type ObjectEncoder,
} from './cacher/object-encoders';
export {
  type WatchCacheEvent,
  type WatchCacheEventType,
  type AttrSet,
} from './cacher/watch-cache-event';
export {
  WatchCacheStore,
  OrderedStore,
  StoreSnapshotter,
  type StoreElement,
  type IndexFunc,
  type Indexers,
  type OrderedLister,
} from './cacher/watch-cache-store';
export {
  WatchCacheInterval,
  WatchCacheIntervalBuffer,
  CacheIntervalInvalidatedError,
  newCacheInterval,
  newCacheIntervalFromStore,
  bufferSize as watchCacheIntervalBufferSize,
  type IndexerFunc,
  type IndexValidator,
} from './cacher/watch-cache-interval';
export {
  WatchCacheHistory,
  capacityUpperBound,
  DefaultEventFreshDuration,
  defaultLowerBoundCapacity,
  defaultUpperBoundCapacity,
  type WatchCacheHistoryConfig,
} from './cacher/watch-cache-history';
export {
  WatchCache,
  blockTimeout,
  resourceVersionTooHighRetrySeconds,
  filterPrefixAndOrder,
  type WatchCacheConfig,
  type WatchCacheVersioner,
  type WatchCachePredicate,
  type WatchCacheListOptions,
  type WatchCacheListResult,
  type ConditionalProgressRequester,
} from './cacher/watch-cache';
export * as labels from './storage/labels';
export * as fields from './storage/fields';
export * as field from './storage/field-errors';
export type { LabelSelector } from './storage/labels';
export type { FieldSelector } from './storage/fields';
export {
  parseUint,
  parseInt64,
  NumError,
  quote as goQuote,
  compareStrings as compareGoStrings,
  utf8Length,
} from './storage/go-strings';
export {
  StatusError,
  StatusReason,
  StorageError,
  ErrCode,
  InvalidError,
  StorageInternalError,
  statusToJSON,
  errorToAPIStatus,
  newBadRequest,
  newResourceExpired,
  newGone,
  newNotFound,
  newInvalid,
  newTooManyRequests,
  newServerTimeout,
  newInternalError,
  newTimeoutError,
  newServiceUnavailable,
  newTooLargeResourceVersionError,
  newInconsistentContinueError,
  newContinueExpiredError,
  listExpiredMessage,
  watchExpiredMessage,
  continueExpiredMessage,
  inconsistentContinueMessage,
  causeTypeResourceVersionTooLarge,
  newKeyNotFoundError,
  newKeyExistsError,
  newResourceVersionConflictsError,
  newUnreachableError,
  newStorageTimeoutError,
  newInvalidObjError,
  newCorruptObjError,
  isBadRequest,
  isNotFound,
  isGone,
  isResourceExpired,
  isInvalid,
  isTimeout,
  isServerTimeout,
  isInternalError,
  isTooManyRequests,
  isTooLargeResourceVersion,
  hasStatusCause,
  reasonForError,
  suggestsClientDelay,
  isNotFoundStorage,
  isExist,
  isUnreachable,
  isConflict,
  isRequestTimeout,
  isInvalidObj,
  isCorruptObject,
  isInvalidError,
  isStorageInternalError,
  type Status,
  type StatusCause,
  type StatusDetails,
  type ListMeta,
  type GroupKind,
} from './storage/errors';
export { type GroupResource, groupResourceString } from './storage/group-resource';
export { APIObjectVersioner, type Versioner } from './storage/versioner';
export {
  convertFieldLabel,
  defaultMetaV1FieldSelectorConversion,
  podSelectableFields,
  getAttrs,
  type ObjectAttributes,
  type FieldLabelConversionFunc,
} from './storage/field-labels';
export {
  SelectionPredicate,
  labelIndex,
  fieldIndex,
  type AttrFunc,
  type MatchValue,
  type SelectionPredicateInit,
  type SelectionQuery,
} from './storage/selection-predicate';
export {
  newListOptions,
  toStorageListOptions,
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
  type ListOptions,
  type ResourceVersionMatch,
  type GetListOptions,
  type ListPredicateInput,
} from './storage/list-options';
export { validateListOptions, type ListRevision } from './storage/validate-list-options';
export {
  makePod,
  podKey,
  PodGenerator,
  newUID,
  formatRFC3339,
  creationTimestampAt,
  objectEpochMs,
  objectMetaFieldOrder,
  sortedMap,
  type Pod,
  type PodList,
  type PodSpec,
  type PodStatus,
  type Container,
  type ObjectMeta,
  type KubeObject,
  type KubeList,
  type PodOptions,
  type PodGeneratorOptions,
} from './storage/objects';
export { Channel, ChannelTimer, type Received, type CancelWait } from './cacher/channel';
export {
  CacheWatcher,
  CacheWatcherState,
  newCacheWatcher,
  emptyFunc,
  preTimeoutBookmarkMargin,
  cacheWatcherWaitingForBookmark,
  cacheWatcherBookmarkReceived,
  cacheWatcherBookmarkSent,
  type CacheWatcherInterval,
  type CacheWatcherOptions,
} from './cacher/cache-watcher';
export {
  cacheWatcherStateNames,
  bookmarkDropReasons,
  type CacheWatcherCounts,
  type CacheWatcherInspector,
  type CacheWatcherMetrics,
} from './cacher/cache-watcher-report';
export {
  filterWithAttrsAndPrefixFunction,
  type FilterWithAttrsFunc,
  type AttributesMatcher,
} from './cacher/filter-with-attrs';
export {
  annotateInitialEventsEndBookmark,
  hasInitialEventsEndAnnotation,
  initialEventsAnnotationKey,
} from './cacher/initial-events-end-bookmark';
export {
  type WatchObject,
  type WatchEventType,
  type WatchEvent as ApiWatchEvent,
  type ReceiveChannel,
  type WatchInterface,
} from './cacher/watch';
export {
  WatchClient,
  WatchRequestContext,
  fastReader,
  type ReadRate,
  type WatchContentType,
  type WatchClientCloseReason,
  type ClientWatchEvent,
  type WatchClientOptions,
} from './clients/watch-client';
export {
  EtcdStore,
  maxLimit,
  type EtcdStoreOptions,
  type EtcdStoreFeatures,
  type ListResult,
  type GetOptions as EtcdGetOptions,
  type Preconditions,
  type UpdateFunc,
  type GuaranteedUpdateOptions,
} from './etcd3/store';
export {
  interpretListError,
  handleCompactedErrorForPaging,
  watchErrorStatus,
} from './etcd3/errors';
export {
  defaultWatcherMaxLimit,
  type StorageWatch,
  type StorageWatchEvent,
  type StorageWatchEventType,
  type WatchOptions as EtcdWatchOptions,
} from './etcd3/watcher';
export { EtcdMetrics, etcdRequestLatencyBuckets, listLatencyBuckets } from './etcd3/metrics';
export { CacherMetrics, watchCacheReadWaitBuckets } from './cacher/metrics';
export {
  StorageListMetrics,
  StorageBackendEtcd,
  StorageBackendWatchCache,
  type StorageBackend,
} from './storage/metrics';
export { prepareKey, namespaceKeyFunc } from './storage/keys';
export {
  FeatureSupportChecker,
  rangeStreamRecheckInterval,
  type StorageFeature,
} from './etcd3/feature-support-checker';
export {
  InspectorHub,
  RecordingInspector,
  activeInspector,
  type Inspector,
  type InspectorEvent,
  type InspectorEventType,
  type EtcdOperation,
  type EtcdRequestEvent,
  type ListPageEvent,
  type ListPageSizeEvent,
  type ListStreamDecisionEvent,
  type ListStreamFallbackEvent,
  type ListDoneEvent,
  type EtcdWatchEvent,
} from './inspect/events';
export {
  Reflector,
  Ready,
  ConditionalProgressRequester as CacherProgressRequester,
  storageWatchListPageSize,
  progressRequestPeriod,
  relistPeriod,
  maxInternalErrorRetryDuration,
  statusOf,
  type CacherStorage,
  type ReflectorStore,
  type ReflectorFlowControl,
  type ReflectorOptions,
  type ReadyState,
  type ReadyCheck,
} from './cacher/reflector';
export {
  Cacher,
  defaultNewFunc,
  newErrWatcher,
  newImmediateCloseWatcher,
  errWatcherStatus,
  watchRequestTimeout,
  jitter as waitJitter,
  goDuration,
  incomingBufferSize,
  dispatchPollPeriod,
  compactorPollPeriod,
  bookmarkTimerPeriod,
  bookmarkTimerJitter,
  type CacherConfig,
  type WatchCallContext,
  type ListCallContext,
  type IndexedTrigger,
} from './cacher/cacher';
export { IndexedWatchers, type WatchScope } from './cacher/indexed-watchers';
export {
  CacheDelegator,
  shouldDelegateListOnNotReadyCache,
  type DelegatorStorage,
  type GetRequestOptions,
  type SelectorLike,
} from './cacher/delegator';
export { explainListDelegation } from './cacher/explain-delegation';
export {
  RequestContexts,
  defaultClient,
  type RequestContext,
  type HttpMethod,
} from './request/request-context';
export { collectionPath, objectPath, requestPath, type RequestQuery } from './request/request-path';
export {
  createResource,
  Resource,
  defaultMinRequestTimeoutSeconds,
  type RequestSender,
  type CreateResourceOptions,
  type CacheOptions,
  type ResourceListRequest,
  type ResourceWatchRequest,
  type OpenedWatch,
} from './apiserver';
export type {
  CacherReadyEvent,
  FreshnessWaitStartEvent,
  ReflectorEvent,
  ProgressRequestEvent,
  CacherWatchEvent,
  DispatchEvent,
  BookmarkTickEvent,
  BookmarkBucketPopEvent,
  BookmarkScheduleEvent,
  SerializationEvent,
  LazyDeepCopyEvent,
  CacheInvalidationEvent,
  DelegationPath,
  DelegationRule,
  DelegationDecisionEvent,
  DelegationFallbackEvent,
  ConsistentReadEvent,
  CacheListEvent,
  TerminateAllWatchersEvent,
  CacheWatcherStateName,
  BookmarkDropReason,
  CacheWatcherCloseReason,
  CacheWatcherInspectorEvent,
  WatchCacheCapacityChangeEvent,
  WatchCacheFreshnessWaitEvent,
} from './inspect/events';
