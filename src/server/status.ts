// Mirrors k8s.io/apiserver pkg/storage/errors/storage.go (storeerr.Interpret*Error),
// pkg/endpoints/handlers/responsewriters/status.go (ErrorToAPIStatus) and
// pkg/endpoints/handlers/negotiation/errors.go (release-1.36): the metav1.Status a client receives
// for any error the engine or a handler raises, and its body as Go's encoding/json writes it.
import { type GroupResource, StatusError, errorToAPIStatus, type Status } from '../engine';
import {
  failure,
  StatusReason,
  isConflict,
  isCorruptObject,
  isExist,
  isInvalidObj,
  isNotFoundStorage,
  isRequestTimeout,
  isStorageInternalError,
  isUnreachable,
  newAlreadyExists,
  newConflict,
  newInternalError,
  newNotFound,
  newServerTimeout,
  statusToJSON,
} from '../engine/http-face';

/** The registry operation an error came from: it decides how a storage error reads. */
export type StorageOperation = 'get' | 'list' | 'create' | 'update' | 'delete' | 'watch';

/**
 * registry.OptimisticLockErrorMsg (pkg/registry/generic/registry/store.go:263): the Conflict detail
 * of an update whose resourceVersion is not the stored one.
 */
export const optimisticLockErrorMsg =
  'the object has been modified; please apply your changes to the latest version and try again';

/**
 * customresource_handler.go's serveResource: a create of a custom object while its CRD is
 * terminating, NewMethodNotSupported with its message replaced (405, details kept).
 */
export function newCreateWhileTerminating(gr: GroupResource): StatusError {
  return failure(
    405,
    StatusReason.MethodNotAllowed,
    'create not allowed while custom resource definition is terminating',
    { group: gr.group, kind: gr.resource },
  );
}

/** The 409 an update with a stale resourceVersion answers (store.go Update, lines 743-745). */
export function newOptimisticLockConflict(gr: GroupResource, name: string): StatusError {
  return newConflict(gr, name, new Error(optimisticLockErrorMsg));
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

// storage.IsInternalError / storage.IsCorruptObject both become a 500 InternalError everywhere.
function internalOrUndefined(err: unknown): StatusError | undefined {
  if (isStorageInternalError(err) || isCorruptObject(err)) return newInternalError(asError(err));
  return undefined;
}

/** storeerr.InterpretListError. */
export function interpretListError(err: unknown, qualifiedResource: GroupResource): unknown {
  if (isNotFoundStorage(err)) return newNotFound(qualifiedResource, '');
  if (isUnreachable(err) || isRequestTimeout(err))
    return newServerTimeout(qualifiedResource, 'list', 2);
  return internalOrUndefined(err) ?? err;
}

/** storeerr.InterpretGetError. */
export function interpretGetError(
  err: unknown,
  qualifiedResource: GroupResource,
  name: string,
): unknown {
  if (isNotFoundStorage(err)) return newNotFound(qualifiedResource, name);
  if (isUnreachable(err)) return newServerTimeout(qualifiedResource, 'get', 2);
  return internalOrUndefined(err) ?? err;
}

/** storeerr.InterpretCreateError: KeyExists is `<resource> "<name>" already exists`. */
export function interpretCreateError(
  err: unknown,
  qualifiedResource: GroupResource,
  name: string,
): unknown {
  if (isExist(err)) return newAlreadyExists(qualifiedResource, name);
  if (isUnreachable(err)) return newServerTimeout(qualifiedResource, 'create', 2);
  return internalOrUndefined(err) ?? err;
}

/** storeerr.InterpretUpdateError: conflicts, exists and invalid objects (failed preconditions) are a 409 Conflict. */
export function interpretUpdateError(
  err: unknown,
  qualifiedResource: GroupResource,
  name: string,
): unknown {
  if (isConflict(err) || isExist(err) || isInvalidObj(err))
    return newConflict(qualifiedResource, name, asError(err));
  if (isUnreachable(err)) return newServerTimeout(qualifiedResource, 'update', 2);
  if (isNotFoundStorage(err)) return newNotFound(qualifiedResource, name);
  return internalOrUndefined(err) ?? err;
}

/** storeerr.InterpretDeleteError. */
export function interpretDeleteError(
  err: unknown,
  qualifiedResource: GroupResource,
  name: string,
): unknown {
  if (isNotFoundStorage(err)) return newNotFound(qualifiedResource, name);
  if (isUnreachable(err)) return newServerTimeout(qualifiedResource, 'delete', 2);
  if (isConflict(err) || isExist(err) || isInvalidObj(err))
    return newConflict(qualifiedResource, name, asError(err));
  return internalOrUndefined(err) ?? err;
}

/** The interpretation each operation's registry method applies (generic/registry/store.go). */
export function interpretStorageError(
  operation: StorageOperation,
  err: unknown,
  qualifiedResource: GroupResource,
  name = '',
): unknown {
  switch (operation) {
    case 'get':
      return interpretGetError(err, qualifiedResource, name);
    case 'list':
      return interpretListError(err, qualifiedResource);
    case 'create':
      return interpretCreateError(err, qualifiedResource, name);
    case 'update':
      return interpretUpdateError(err, qualifiedResource, name);
    case 'delete':
      return interpretDeleteError(err, qualifiedResource, name);
    case 'watch':
      // handlers/get.go handleWatch hands rw.Watch's error to scope.err as it is: storeerr has an
      // InterpretWatchError, but nothing calls it (release-1.36). A bad resourceVersion is the
      // versioner's InvalidError, which ErrorToAPIStatus makes a 500 with its text.
      return err;
  }
}

// With no operation given: KeyExists reads as a create's AlreadyExists, conflicts as an update's.
function defaultOperation(err: unknown): StorageOperation {
  if (isExist(err)) return 'create';
  if (isConflict(err) || isInvalidObj(err)) return 'update';
  return 'get';
}

/**
 * The metav1.Status for any error: storage errors interpreted for `operation` (by default the
 * operation the error implies), then responsewriters.ErrorToAPIStatus. A StatusError keeps its
 * Status (code defaulted to 500); any other error is a 500 with reason Unknown (`""`, omitted from
 * the body) and the error's text as message, or 409 for a bare storage conflict, as upstream.
 */
export function statusForError(
  err: unknown,
  qualifiedResource: GroupResource,
  name = '',
  operation: StorageOperation = defaultOperation(err),
): Status {
  return errorToAPIStatus(interpretStorageError(operation, err, qualifiedResource, name));
}

/**
 * The body upstream writes for a Status: Go's json field order (kind, apiVersion, metadata,
 * status, message, reason, details, code) and a trailing newline (json.Encoder.Encode).
 */
export function statusBody(status: Status): string {
  return statusToJSON(status) + '\n';
}

/** The HTTP status line code of a Status (its code; ErrorToAPIStatus has already defaulted it). */
export function statusCode(status: Status): number {
  return status.code ?? 500;
}

/** negotiation.NewNotAcceptableError: 406 `only the following media types are accepted: <a, b>`. */
export function newNotAcceptableError(accepted: readonly string[]): StatusError {
  return failure(
    406,
    StatusReason.NotAcceptable,
    `only the following media types are accepted: ${accepted.join(', ')}`,
  );
}

/** negotiation.NewUnsupportedMediaTypeError: 415 for a Content-Type no serializer decodes. */
export function newUnsupportedMediaTypeError(accepted: readonly string[]): StatusError {
  return failure(
    415,
    StatusReason.UnsupportedMediaType,
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}
