// No upstream counterpart: the engine's second entry module, what the HTTP face needs of the engine
// that a library user does not. src/server and src/request (and src/scan, which reads what they
// write) import it: Kubernetes' wire vocabulary — the Status builders and field errors, list
// options, selector validation, Go's JSON and string rules, the object codecs — and what serving a
// watch reads off the cacher. The library API is index.ts; the etcd client's is etcd-face.ts.

// Status builders (apimachinery's api/errors) and storage error codes, as a response carries them
// (StatusError, StorageError and errorToAPIStatus are the library's, in index.ts).
export {
  ErrCode,
  failure,
  isConflict,
  isCorruptObject,
  isExist,
  isInvalidObj,
  isNotFoundStorage,
  isRequestTimeout,
  isStorageInternalError,
  isUnreachable,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newForbidden,
  newGenericServerResponse,
  newInternalError,
  newInvalid,
  newInvalidObjError,
  newMethodNotSupported,
  newGenericNotFound,
  newNotFound,
  newRequestEntityTooLargeError,
  newServerTimeout,
  newServiceUnavailable,
  newUnauthorized,
  statusToJSON,
  StatusReason,
  suggestsClientDelay,
  type ListMeta,
} from './storage/errors';

// Field errors (apimachinery's util/validation/field) and the validation rules they report.
export {
  duplicate,
  ErrorType,
  FieldError,
  FieldPath,
  forbidden,
  invalid,
  NamedString,
  notSupported,
  required,
  tooLong,
} from './storage/field-errors';
export { isDNS1123Subdomain, isLabelKey, isLabelValue } from './storage/labels';

// Request parsing: list options, field label conversion, the key rules for a name.
export {
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
} from './storage/list-options';
export { convertFieldLabel, type FieldLabelConversionFunc } from './storage/field-labels';
export { isPathSegmentName } from './storage/keys';
export { APIObjectVersioner } from './storage/versioner';

// Go's encodings, as the apiserver's bytes come out of them.
export {
  goJsonCheckValid,
  goJsonIndent,
  goJsonMarshal,
  goJsonMarshalIndent,
  goJsonParse,
  GoJsonSyntaxError,
  GoJsonUnmarshalTypeError,
  goJsonUnmarshalStruct,
  type GoJsonValue,
} from './encoding/go-json';
export { compareStrings, isPrint, parseInt64, quote, utf8Length } from './storage/go-strings';
export { rawUrlEncoding } from './encoding/go-base64';
export { decodeUtf8 } from './encoding/go-utf8';
export { setOwn } from './encoding/own-key';
export { objectMetaFieldOrder } from './storage/objects';

// Serving a watch: the cacher's result channel, its events and their cached encodings.
export {
  Channel,
  chanClosed,
  chanEmpty,
  type CancelWait,
  type ChannelReceiver,
} from './cacher/channel';
export type { ReceiveChannel, WatchEvent, WatchEventType, WatchInterface } from './cacher/watch';
export { CachingObject } from './cacher/caching-object';
export {
  jsonSerializerIdentifier,
  marshalObjectJSON,
  versioningCodecIdentifier,
} from './cacher/object-encoders';
export { hasInitialEventsEndAnnotation } from './cacher/initial-events-end-bookmark';

// Choosing an etcd: what a real cluster's members support.
export { membersSupportRequestWatchProgress, parseSemantic } from './etcd3/feature-support-checker';
