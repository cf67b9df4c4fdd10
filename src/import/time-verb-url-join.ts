// No upstream counterpart: the rule that joins a client's record of a request (kubectl -v=6..9,
// client-go round-tripper lines; below -v=8 they print no Audit-Id) to the apiserver's audit
// event of the same request, when no audit ID names both: the same verb, the same path and query
// (the client's URL made relative), the same user agent where both name one, and the server's
// receipt (and completion) within the client's own interval, from sending the request to reading
// its answer, give or take clockSkewAllowanceMs. Each record joins at most one other, the nearest.
import type { ImportFormat } from '../run/imported-request';
import type { RequestFields } from './line-parser';

/**
 * How far the server's clock may be from the client's. On one clock the server receives and
 * completes a request between the client's sending it (its log time minus the latency it
 * measured) and its reading the answer (its log time): that interval is the window, a few ms.
 * Two hosts' clocks differ too; NTP keeps a cluster's within tens of ms, so 100 ms is allowed on
 * each side. Identical requests of two runs 300 ms apart stay two requests; clocks further apart
 * (a client log in local time, an audit log in UTC) join nothing, and the report counts the joins,
 * so that a user sees none were made.
 */
export const clockSkewAllowanceMs = 100;

/** The rule in words, for the report and the faces. */
export const timeJoinRule = `a client log's request without Audit-Id joins the audit event of the same verb and URL (path and query) that the server received and completed between the client's sending it and reading the answer (±${clockSkewAllowanceMs} ms for two clocks), of the same user agent where both name one; each joins at most one, the nearest in time`;

/** Which side of the connection a format records (bits: a request's sources may be on both). */
export const enum JoinSide {
  None = 0,
  Server = 1,
  Client = 2,
}

export function joinSideOf(format: ImportFormat): JoinSide {
  switch (format) {
    case 'audit':
      return JoinSide.Server;
    case 'kubectl':
    case 'client-go':
      return JoinSide.Client;
    case 'httplog':
      // An httplog line names no audit ID either, but joining it to the others is not done.
      return JoinSide.None;
  }
}

/** The key both records must share: verb and request URI (undefined: not known yet). */
export function joinSignature(f: RequestFields): string | undefined {
  if (f.verb === undefined || f.requestURI === undefined) return undefined;
  return `${f.verb}\0${f.requestURI}`;
}

/**
 * How far the server's receipt is from the client's sending, in ms, or undefined when the rule
 * does not join the two (user agents that differ, the server's times outside the client's interval).
 */
export function joinDistance(server: RequestFields, client: RequestFields): number | undefined {
  if (server.userAgent && client.userAgent && server.userAgent !== client.userAgent)
    return undefined;
  const sent = client.receivedAt;
  const received = server.receivedAt;
  if (sent === undefined || received === undefined) return undefined;
  // A client logs a watch when its response starts, other requests when they complete.
  const answered = client.completedAt ?? client.responseStartedAt ?? sent;
  const within = (t: number) =>
    t >= sent - clockSkewAllowanceMs && t <= answered + clockSkewAllowanceMs;
  if (!within(received)) return undefined;
  if (client.completedAt !== undefined && server.completedAt !== undefined)
    if (!within(server.completedAt)) return undefined;
  return Math.abs(received - sent);
}
