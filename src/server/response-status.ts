// Mirrors k8s.io/apiserver pkg/audit/context.go AuditContext.LogResponseObject (release-1.36,
// called by request.go LogResponseObject at level Metadata too): the Status a failed request
// answered with, kept for its response (a WeakMap: it goes with the response), so that the audit
// event's responseStatus carries its status, message, reason and details at level Metadata too.
import type { ServerResponse } from 'http';
import type { Status } from '../engine';
import { statusToJSON, type GoJsonValue } from '../engine/http-face';
import type { AuditResponseStatus } from './audit-log';
import { statusCode } from './status';

const statuses = new WeakMap<ServerResponse, AuditResponseStatus>();

/** The Status written as `res`'s body (the bounded fields LogResponseObject copies). */
export function noteResponseStatus(res: ServerResponse, s: Status): void {
  statuses.set(res, {
    status: s.status,
    message: s.message,
    reason: s.reason,
    // In metav1.StatusDetails' field order, as the body has them.
    details: s.details
      ? (JSON.parse(statusToJSON({ metadata: {}, details: s.details })) as { details: GoJsonValue })
          .details
      : undefined,
    code: statusCode(s),
  });
}

/** What the audit event says of `res`'s answer: its Status, else its HTTP code. */
export function auditStatusOf(res: ServerResponse): AuditResponseStatus | number {
  return statuses.get(res) ?? res.statusCode;
}
