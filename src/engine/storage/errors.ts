// Mirrors k8s.io/apimachinery pkg/api/errors/errors.go and k8s.io/apiserver pkg/storage/errors.go (release-1.36): Kubernetes Status errors and storage errors.
// Deliberate difference: constructors fill kind/apiVersion ("Status"/"v1") right away, as
// responsewriters.ErrorToAPIStatus would before the body is written; plain errors (fmt.Errorf
// upstream) may carry that Status as `.status` (plainError, withStatus) for library callers.
import { type GroupResource, groupResourceString } from './group-resource';
import { FieldError, aggregateMessage } from './field-errors';
import { goJsonQuote } from '../encoding/go-json';
import { quote } from './go-strings';

/** metav1.StatusCause; JSON order reason, message, field. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** metav1.StatusDetails; JSON order name, group, kind, uid, causes, retryAfterSeconds. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** metav1.ListMeta; JSON order selfLink, resourceVersion, continue, remainingItemCount. */
export interface ListMeta {
  selfLink?: string;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** metav1.Status; JSON order kind, apiVersion, metadata, status, message, reason, details, code. */
export interface Status {
  kind?: string;
  apiVersion?: string;
  metadata: ListMeta;
  status?: string;
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

/** metav1.StatusReason values. */
export const StatusReason = {
  Unknown: '',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  AlreadyExists: 'AlreadyExists',
  Conflict: 'Conflict',
  Gone: 'Gone',
  Invalid: 'Invalid',
  ServerTimeout: 'ServerTimeout',
  StoreReadError: 'StorageReadError',
  Timeout: 'Timeout',
  TooManyRequests: 'TooManyRequests',
  BadRequest: 'BadRequest',
  MethodNotAllowed: 'MethodNotAllowed',
  NotAcceptable: 'NotAcceptable',
  RequestEntityTooLarge: 'RequestEntityTooLarge',
  UnsupportedMediaType: 'UnsupportedMediaType',
  InternalError: 'InternalError',
  Expired: 'Expired',
  ServiceUnavailable: 'ServiceUnavailable',
} as const;

/** metav1.CauseTypeResourceVersionTooLarge. */
export const causeTypeResourceVersionTooLarge = 'ResourceVersionTooLarge';

const statusFailure = 'Failure';

// Reasons with a fixed meaning; for any other reason the Is* helpers fall back to the HTTP code.
const knownReasons = new Set<string>([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'StorageReadError',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
]);

/** errors.StatusError: an error that carries the Status the client receives. */
export class StatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message ?? '');
    this.name = 'StatusError';
  }
}

/** A Failure Status with its reason, message and code (what every apierrors constructor builds). */
export function failure(
  code: number,
  reason: string,
  message: string,
  details?: StatusDetails,
): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: statusFailure,
    message,
    reason,
  };
  if (details) status.details = canonicalDetails(details);
  status.code = code;
  return new StatusError(status);
}

// Go's omitempty over metav1.StatusDetails, in its field order (name, group, kind, uid, causes,
// retryAfterSeconds): empty strings, a zero retry and no causes are absent, so the object itself
// (not only its JSON) equals what a client decodes from the apiserver's body.
function canonicalDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes && d.causes.length) out.causes = d.causes;
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

// Go's omitempty for unset strings (keeps deepEqual comparisons honest).
function withoutEmpty<T extends object>(o: T): T {
  const out = {} as T;
  for (const [k, v] of Object.entries(o))
    if (v !== undefined && v !== '') (out as Record<string, unknown>)[k] = v;
  return out;
}

/** A group/kind pair (schema.GroupKind); printed `Kind` or `Kind.group`. */
export interface GroupKind {
  group: string;
  kind: string;
}

function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** 400 BadRequest. */
export function newBadRequest(reason: string): StatusError {
  return failure(400, StatusReason.BadRequest, reason);
}

/** 410 Expired: the requested resource content has expired (usually a too old resourceVersion). */
export function newResourceExpired(message: string): StatusError {
  return failure(410, StatusReason.Expired, message);
}

/** 410 Gone (deprecated upstream in favour of newResourceExpired). */
export function newGone(message: string): StatusError {
  return failure(410, StatusReason.Gone, message);
}

/** 404 NotFound: `<resource> "<name>" not found`. */
export function newNotFound(gr: GroupResource, name: string): StatusError {
  return failure(
    404,
    StatusReason.NotFound,
    `${groupResourceString(gr)} ${quote(name)} not found`,
    {
      name,
      group: gr.group,
      kind: gr.resource,
    },
  );
}

/**
 * 404 NotFound for a path nothing serves (an unknown resource): what the go-restful container's
 * ServiceErrorHandler and the NotFound handler write, NewGenericServerResponse(404, …) with no
 * resource named.
 */
export function newGenericNotFound(): StatusError {
  return failure(
    404,
    StatusReason.NotFound,
    'the server could not find the requested resource',
    {},
  );
}

/** 409 AlreadyExists: `<resource> "<name>" already exists`. */
export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return failure(
    409,
    StatusReason.AlreadyExists,
    `${groupResourceString(gr)} ${quote(name)} already exists`,
    { name, group: gr.group, kind: gr.resource },
  );
}

/** 409 AlreadyExists for a generated name the server could not make unique (rest.CheckGeneratedNameError). */
export function newGenerateNameConflict(
  gr: GroupResource,
  name: string,
  retryAfterSeconds: number,
): StatusError {
  return failure(
    409,
    StatusReason.AlreadyExists,
    `${groupResourceString(gr)} ${quote(name)} already exists, the server was not able to generate a unique name for the object`,
    { name, group: gr.group, kind: gr.resource, retryAfterSeconds },
  );
}

/** 409 Conflict: `Operation cannot be fulfilled on <resource> "<name>": <err>`. */
export function newConflict(gr: GroupResource, name: string, err: Error): StatusError {
  return failure(
    409,
    StatusReason.Conflict,
    `Operation cannot be fulfilled on ${groupResourceString(gr)} ${quote(name)}: ${err.message}`,
    { name, group: gr.group, kind: gr.resource },
  );
}

/** 401 Unauthorized; an empty reason reads `not authorized`. */
export function newUnauthorized(reason: string): StatusError {
  return failure(401, StatusReason.Unauthorized, reason.length === 0 ? 'not authorized' : reason);
}

/** 403 Forbidden: `forbidden: <err>`, `<resource> is forbidden: <err>` or `<resource> "<name>" is forbidden: <err>`. */
export function newForbidden(gr: GroupResource, name: string, err: Error): StatusError {
  const empty = gr.group === '' && gr.resource === '';
  const message = empty
    ? `forbidden: ${err.message}`
    : name === ''
      ? `${groupResourceString(gr)} is forbidden: ${err.message}`
      : `${groupResourceString(gr)} ${quote(name)} is forbidden: ${err.message}`;
  return failure(403, StatusReason.Forbidden, message, {
    name,
    group: gr.group,
    kind: gr.resource,
  });
}

/** 405 MethodNotAllowed: `<action> is not supported on resources of kind "<resource>"`. */
export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  return failure(
    405,
    StatusReason.MethodNotAllowed,
    `${action} is not supported on resources of kind ${quote(groupResourceString(gr))}`,
    { group: gr.group, kind: gr.resource },
  );
}

/** 413 RequestEntityTooLarge: `Request entity too large: <message>`. */
export function newRequestEntityTooLargeError(message: string): StatusError {
  return failure(413, StatusReason.RequestEntityTooLarge, `Request entity too large: ${message}`);
}

/** 422 Invalid: `<Kind.group> "<name>" is invalid: <aggregated field errors>`. */
export function newInvalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
  const causes: StatusCause[] = errs.map((e) =>
    withoutEmpty({ reason: e.type, message: e.errorBody(), field: e.field }),
  );
  const message =
    errs.length === 0
      ? `${groupKindString(gk)} ${quote(name)} is invalid`
      : `${groupKindString(gk)} ${quote(name)} is invalid: ${aggregateMessage(errs)}`;
  return failure(422, StatusReason.Invalid, message, {
    name,
    group: gk.group,
    kind: gk.kind,
    causes,
  });
}

/** 429 TooManyRequests with details.retryAfterSeconds (omitted from JSON when 0). */
export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return failure(429, StatusReason.TooManyRequests, message, { retryAfterSeconds });
}

/** 500 ServerTimeout: `The <op> operation against <resource> could not be completed at this time, please try again.` */
export function newServerTimeout(
  gr: GroupResource,
  operation: string,
  retryAfterSeconds: number,
): StatusError {
  return failure(
    500,
    StatusReason.ServerTimeout,
    `The ${operation} operation against ${groupResourceString(gr)} could not be completed at this time, please try again.`,
    { name: operation, group: gr.group, kind: gr.resource, retryAfterSeconds },
  );
}

/** 500 InternalError: `Internal error occurred: <err>`. */
export function newInternalError(err: Error): StatusError {
  return failure(500, StatusReason.InternalError, `Internal error occurred: ${err.message}`, {
    causes: [withoutEmpty({ message: err.message })],
  });
}

/** 504 Timeout: `Timeout: <message>`, details.retryAfterSeconds (omitted from JSON when 0). */
export function newTimeoutError(message: string, retryAfterSeconds: number): StatusError {
  return failure(504, StatusReason.Timeout, `Timeout: ${message}`, { retryAfterSeconds });
}

/** 503 ServiceUnavailable. */
export function newServiceUnavailable(reason: string): StatusError {
  return failure(503, StatusReason.ServiceUnavailable, reason);
}

/** NewGenericServerResponse's reason and fixed message of each code used here. */
const genericServerResponses = {
  405: [
    StatusReason.MethodNotAllowed,
    'the server does not allow this method on the requested resource',
  ],
  422: [StatusReason.Invalid, 'the server rejected our request due to an error in our request'],
} as const;

/**
 * errors.NewGenericServerResponse(code, "", {}, "", serverMessage, 0, false): the serverMessage is
 * dropped for the code's fixed message, and details are present but empty. 422: what the apiserver
 * answers for a JSON patch that does not apply; 405: go-restful's answer (through the apiserver's
 * serviceErrorHandler) to a method no route of the path takes.
 */
export function newGenericServerResponse(code: 405 | 422): StatusError {
  const [reason, message] = genericServerResponses[code];
  return failure(code, reason, message, {});
}

// --- pkg/storage/errors.go ---

const tooLargeResourceVersionCauseMsg = 'Too large resource version';

/**
 * storage.NewTooLargeResourceVersionError: 504 Timeout `Too large resource version: %d, current: %d`
 * with the ResourceVersionTooLarge cause. retrySeconds is 1 from the watch cache, 0 from etcd.
 */
export function newTooLargeResourceVersionError(
  minimumResourceVersion: bigint | number,
  currentRevision: bigint | number,
  retrySeconds: number,
): StatusError {
  return failure(
    504,
    StatusReason.Timeout,
    `Timeout: Too large resource version: ${BigInt(minimumResourceVersion)}, current: ${BigInt(currentRevision)}`,
    {
      causes: [
        { reason: causeTypeResourceVersionTooLarge, message: tooLargeResourceVersionCauseMsg },
      ],
      retryAfterSeconds: retrySeconds,
    },
  );
}

// --- messages of pkg/storage/etcd3/errors.go (upstream names: expired, continueExpired, inconsistentContinue) ---

export const listExpiredMessage = 'The resourceVersion for the provided list is too old.';
export const watchExpiredMessage = 'The resourceVersion for the provided watch is too old.';
export const continueExpiredMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';
export const inconsistentContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without ' +
  'the continue parameter, or use the continue token in this response to retrieve the remainder of the results. ' +
  'Continuing with the provided token results in an inconsistent list - objects that were created, modified, or ' +
  'deleted between the time the first chunk was returned and now may show up in the list.';

/** 410 for a compacted continue token: the fresh `rv: -1` token goes into metadata.continue. */
export function newInconsistentContinueError(newToken: string): StatusError {
  const err = newResourceExpired(inconsistentContinueMessage);
  err.status.metadata.continue = newToken;
  return err;
}

/** 410 for a compacted continue token that could not be re-encoded. */
export function newContinueExpiredError(): StatusError {
  return newResourceExpired(continueExpiredMessage);
}

/** storage.StorageError codes. */
export const ErrCode = {
  KeyNotFound: 1,
  KeyExists: 2,
  ResourceVersionConflicts: 3,
  InvalidObj: 4,
  Unreachable: 5,
  Timeout: 6,
  CorruptObj: 7,
} as const;
export type ErrCode = (typeof ErrCode)[keyof typeof ErrCode];

const errCodeToMessage: Record<ErrCode, string> = {
  1: 'key not found',
  2: 'key exists',
  3: 'resource version conflicts',
  4: 'invalid object',
  5: 'server unreachable',
  6: 'request timeout',
  7: 'corrupt object',
};

/** storage.StorageError: a backend error with a code, the key and RV. */
export class StorageError extends Error {
  constructor(
    readonly code: ErrCode,
    readonly key: string,
    readonly resourceVersion: bigint,
    readonly inner?: Error,
  ) {
    super(
      `StorageError: ${errCodeToMessage[code]}, Code: ${code}, Key: ${key}, ResourceVersion: ${resourceVersion}, ` +
        `AdditionalErrorMsg: ${inner ? inner.message : '<nil>'}`,
    );
    this.name = 'StorageError';
  }
}

export function newKeyNotFoundError(key: string, rv: bigint | number): StorageError {
  return new StorageError(ErrCode.KeyNotFound, key, BigInt(rv));
}
export function newKeyExistsError(key: string, rv: bigint | number): StorageError {
  return new StorageError(ErrCode.KeyExists, key, BigInt(rv));
}
export function newResourceVersionConflictsError(key: string, rv: bigint | number): StorageError {
  return new StorageError(ErrCode.ResourceVersionConflicts, key, BigInt(rv));
}
export function newUnreachableError(key: string, rv: bigint | number): StorageError {
  return new StorageError(ErrCode.Unreachable, key, BigInt(rv));
}
/** storage.NewTimeoutError, e.g. `request did not complete within requested timeout` in GetList. */
export function newStorageTimeoutError(key: string, msg: string): StorageError {
  return new StorageError(ErrCode.Timeout, key, 0n, new Error(msg));
}
export function newInvalidObjError(key: string, msg: string): StorageError {
  return new StorageError(ErrCode.InvalidObj, key, 0n, new Error(msg));
}
/** An object that failed to transform or decode. */
export function newCorruptObjError(key: string, err: Error): StorageError {
  return new StorageError(ErrCode.CorruptObj, key, 0n, err);
}

/** storage.InvalidError: invalid input detected in the storage layer (e.g. a bad resourceVersion). */
export class InvalidError extends Error {
  constructor(readonly errs: readonly FieldError[]) {
    super(aggregateMessage(errs));
    this.name = 'InvalidError';
  }
}

/** storage.InternalError: a storage-layer (not backend) failure. */
export class StorageInternalError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'InternalError';
  }
}

function isErrCode(err: unknown, code: ErrCode): boolean {
  return err instanceof StorageError && err.code === code;
}
export const isNotFoundStorage = (err: unknown): boolean => isErrCode(err, ErrCode.KeyNotFound);
export const isExist = (err: unknown): boolean => isErrCode(err, ErrCode.KeyExists);
export const isUnreachable = (err: unknown): boolean => isErrCode(err, ErrCode.Unreachable);
export const isConflict = (err: unknown): boolean =>
  isErrCode(err, ErrCode.ResourceVersionConflicts);
export const isRequestTimeout = (err: unknown): boolean => isErrCode(err, ErrCode.Timeout);
export const isInvalidObj = (err: unknown): boolean => isErrCode(err, ErrCode.InvalidObj);
export const isCorruptObject = (err: unknown): boolean => isErrCode(err, ErrCode.CorruptObj);
export const isInvalidError = (err: unknown): boolean => err instanceof InvalidError;
export const isStorageInternalError = (err: unknown): boolean =>
  err instanceof StorageInternalError;

// --- Is* helpers of api/errors ---

function reasonAndCode(err: unknown): [string, number] {
  if (err instanceof StatusError) return [err.status.reason ?? '', err.status.code ?? 0];
  return ['', 0];
}

function isReasonOrUnknownWithCode(err: unknown, reason: string, code: number): boolean {
  const [r, c] = reasonAndCode(err);
  return r === reason || (!knownReasons.has(r) && c === code);
}

/** The Status reason of an error, '' (Unknown) when it carries none. */
export function reasonForError(err: unknown): string {
  return reasonAndCode(err)[0];
}
export const isBadRequest = (err: unknown): boolean =>
  isReasonOrUnknownWithCode(err, StatusReason.BadRequest, 400);
export const isNotFound = (err: unknown): boolean =>
  isReasonOrUnknownWithCode(err, StatusReason.NotFound, 404);
export const isGone = (err: unknown): boolean =>
  isReasonOrUnknownWithCode(err, StatusReason.Gone, 410);
export const isResourceExpired = (err: unknown): boolean =>
  reasonForError(err) === StatusReason.Expired;
export const isInvalid = (err: unknown): boolean =>
  isReasonOrUnknownWithCode(err, StatusReason.Invalid, 422);
export const isTimeout = (err: unknown): boolean =>
  isReasonOrUnknownWithCode(err, StatusReason.Timeout, 504);
export const isServerTimeout = (err: unknown): boolean =>
  reasonForError(err) === StatusReason.ServerTimeout;
export const isInternalError = (err: unknown): boolean =>
  isReasonOrUnknownWithCode(err, StatusReason.InternalError, 500);
/** Upstream checks the 429 code regardless of the reason here. */
export const isTooManyRequests = (err: unknown): boolean => {
  const [r, c] = reasonAndCode(err);
  return r === StatusReason.TooManyRequests || c === 429;
};

/** Whether the error's Status details carry a cause of the given type. */
export function hasStatusCause(err: unknown, causeType: string): boolean {
  if (!(err instanceof StatusError)) return false;
  return (err.status.details?.causes ?? []).some((c) => (c.reason ?? '') === causeType);
}

/** storage.IsTooLargeResourceVersion: a Timeout carrying the ResourceVersionTooLarge cause. */
export function isTooLargeResourceVersion(err: unknown): boolean {
  return isTimeout(err) && hasStatusCause(err, causeTypeResourceVersionTooLarge);
}

/** SuggestsClientDelay: the seconds a client should wait (the Retry-After header), if any. */
export function suggestsClientDelay(err: unknown): number | undefined {
  if (!(err instanceof StatusError) || !err.status.details) return undefined;
  const retry = err.status.details.retryAfterSeconds ?? 0;
  if (err.status.reason === StatusReason.ServerTimeout) return retry;
  return retry > 0 ? retry : undefined;
}

/**
 * responsewriters.ErrorToAPIStatus: a StatusError's Status (failure code defaulted to 500), or a
 * 500 with an Unknown reason carrying the plain error's message (409 for a storage conflict).
 */
export function errorToAPIStatus(err: unknown): Status {
  if (err instanceof StatusError) {
    const s: Status = { ...err.status, metadata: { ...err.status.metadata } };
    if (!s.status) s.status = statusFailure;
    if (!s.code) s.code = s.status === 'Success' ? 200 : 500;
    s.kind = 'Status';
    s.apiVersion = 'v1';
    return s;
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: statusFailure,
    message,
    code: isConflict(err) ? 409 : 500,
  };
}

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

// --- Go encoding/json of a Status ---

function field(name: string, json: string): string {
  return `${goJsonQuote(name)}:${json}`;
}

function listMetaJSON(m: ListMeta): string {
  const parts: string[] = [];
  if (m.selfLink) parts.push(field('selfLink', goJsonQuote(m.selfLink)));
  if (m.resourceVersion) parts.push(field('resourceVersion', goJsonQuote(m.resourceVersion)));
  if (m.continue) parts.push(field('continue', goJsonQuote(m.continue)));
  if (m.remainingItemCount !== undefined)
    parts.push(field('remainingItemCount', String(m.remainingItemCount)));
  return `{${parts.join(',')}}`;
}

function causeJSON(c: StatusCause): string {
  const parts: string[] = [];
  if (c.reason) parts.push(field('reason', goJsonQuote(c.reason)));
  if (c.message) parts.push(field('message', goJsonQuote(c.message)));
  if (c.field) parts.push(field('field', goJsonQuote(c.field)));
  return `{${parts.join(',')}}`;
}

function detailsJSON(d: StatusDetails): string {
  const parts: string[] = [];
  if (d.name) parts.push(field('name', goJsonQuote(d.name)));
  if (d.group) parts.push(field('group', goJsonQuote(d.group)));
  if (d.kind) parts.push(field('kind', goJsonQuote(d.kind)));
  if (d.uid) parts.push(field('uid', goJsonQuote(d.uid)));
  if (d.causes && d.causes.length > 0)
    parts.push(field('causes', `[${d.causes.map(causeJSON).join(',')}]`));
  if (d.retryAfterSeconds) parts.push(field('retryAfterSeconds', String(d.retryAfterSeconds)));
  return `{${parts.join(',')}}`;
}

/**
 * The Status exactly as Go's encoding/json writes metav1.Status: fixed field order, omitempty
 * fields dropped, `metadata` always present, `details` present whenever set (even if `{}`).
 * No trailing newline (the HTTP layer's json.Encoder adds one).
 */
export function statusToJSON(status: Status): string {
  const parts: string[] = [];
  if (status.kind) parts.push(field('kind', goJsonQuote(status.kind)));
  if (status.apiVersion) parts.push(field('apiVersion', goJsonQuote(status.apiVersion)));
  parts.push(field('metadata', listMetaJSON(status.metadata ?? {})));
  if (status.status) parts.push(field('status', goJsonQuote(status.status)));
  if (status.message) parts.push(field('message', goJsonQuote(status.message)));
  if (status.reason) parts.push(field('reason', goJsonQuote(status.reason)));
  if (status.details) parts.push(field('details', detailsJSON(status.details)));
  if (status.code) parts.push(field('code', String(status.code)));
  return `{${parts.join(',')}}`;
}
