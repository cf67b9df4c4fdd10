// Mirrors k8s.io/apiserver pkg/storage/etcd3/errors.go (release-1.36): how etcd read errors become
// the Status a LIST or WATCH client sees.
import { EtcdError } from '../etcd/kv';
import { encodeContinue } from '../storage/continue';
import {
  StatusError,
  errorToAPIStatus,
  listExpiredMessage,
  newContinueExpiredError,
  newInconsistentContinueError,
  newInternalError,
  newResourceExpired,
  watchExpiredMessage,
  type Status,
} from '../storage/errors';

/** A plain (non-Status) error that still carries the Status the HTTP layer would send (a 500). */
export function plainError(message: string): Error & { status: Status } {
  const err = new Error(message) as Error & { status: Status };
  err.status = errorToAPIStatus(err);
  return err;
}

/** Gives a plain Error the `.status` the HTTP layer would derive from it (library convenience). */
export function withStatus(err: unknown): unknown {
  if (
    err instanceof Error &&
    !(err instanceof StatusError) &&
    (err as { status?: unknown }).status === undefined
  ) {
    (err as Error & { status: Status }).status = errorToAPIStatus(err);
  }
  return err;
}

/**
 * interpretListError: a compacted revision is a 410; when the client was paging (sent a continue
 * token) the 410 carries a fresh token at rv -1 (continue at the latest revision).
 */
export function interpretListError(
  err: unknown,
  paging: boolean,
  continueKey: string,
  keyPrefix: string,
): unknown {
  if (err instanceof EtcdError && err.isCompacted) {
    if (paging) return handleCompactedErrorForPaging(continueKey, keyPrefix);
    return newResourceExpired(listExpiredMessage);
  }
  return withStatus(err);
}

/** handleCompactedErrorForPaging: rv -1 means "continue at the latest revision" (0 is a bad token). */
export function handleCompactedErrorForPaging(continueKey: string, keyPrefix: string): StatusError {
  let token: string;
  try {
    token = encodeContinue(continueKey, keyPrefix, -1);
  } catch {
    return newContinueExpiredError();
  }
  return newInconsistentContinueError(token);
}

/** interpretWatchError + transformErrorToEvent: the Status of a watch ERROR event. */
export function watchErrorStatus(err: unknown): Status {
  if (err instanceof EtcdError && err.isCompacted)
    return newResourceExpired(watchExpiredMessage).status;
  if (err instanceof StatusError) return err.status;
  return newInternalError(err instanceof Error ? err : new Error(String(err))).status;
}
