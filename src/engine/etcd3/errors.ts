// Mirrors k8s.io/apiserver pkg/storage/etcd3/errors.go (release-1.36): how etcd read errors become
// the Status a LIST or WATCH client sees.
import { EtcdError } from '../etcd/kv';
import { encodeContinue } from '../storage/continue';
import {
  StatusError,
  listExpiredMessage,
  newContinueExpiredError,
  newInconsistentContinueError,
  newInternalError,
  newResourceExpired,
  watchExpiredMessage,
  withStatus,
  type Status,
} from '../storage/errors';

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
