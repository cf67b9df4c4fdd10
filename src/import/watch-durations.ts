// No upstream counterpart: how an imported WATCH ended and how long it lasted, from the log alone.
// A watch whose start or end lies outside the log gets no duration (counted as started before the
// log or open at its end, never guessed). "Early" compares the length with the timeout the
// apiserver gave the watch: handleWatch (k8s.io/apiserver pkg/endpoints/handlers/get.go) uses
// the client's timeoutSeconds, else minRequestTimeout × [1, 2) (kube-apiserver
// --min-request-timeout, 1800 s by default).
import type { WatchEnd } from '../run/import-report';
import { isWatchListRequest } from '../run/relist-rule';
import type { ImportedRequest } from '../run/imported-request';
import { splitRequestURI } from './request-query';
import { watchExpiredText } from '../run/watch-expired-text';

export const watchEnds: readonly WatchEnd[] = [
  'timeout',
  'early',
  'expired',
  'refused',
  'client-closed',
  'open',
  'unknown',
];

/** kube-apiserver's --min-request-timeout default (pkg/server/options/server_run_options.go). */
export const minRequestTimeoutSeconds = 1800;

/** A watch counts as lasting its timeout when it ended at most this much before it (clock skew, rounding). */
export const timeoutToleranceMs = 1000;

export const earlyWatchEndRule = `a watch ended early when it ended with 200 before its timeout less ${timeoutToleranceMs / 1000} s: the timeoutSeconds it sent, else the apiserver's shortest, --min-request-timeout (${minRequestTimeoutSeconds} s by default; handleWatch picks ${minRequestTimeoutSeconds}–${2 * minRequestTimeoutSeconds} s); or the client's reflector said it \`ended with:\` an error; a watch that began before the log has no known length and is otherwise never called early`;

const expiredText = new RegExp(`${watchExpiredText.source}|\\b410\\b|Expired|\\bGone\\b`);

/** What a WATCH's lines say about its end. */
export interface WatchOutcome {
  how: WatchEnd;
  /** When it ended (epoch ms), when the log says. */
  endedAt?: number;
  /** completedAt − receivedAt, only when both lie in the log. */
  durationMs?: number;
  /** The words the log gave (Status message, the reflector's `ended with:`). */
  text?: string;
}

/** A WatchList watch: it asked for sendInitialEvents=true, or its client logged their end. */
export function sendsInitialEvents(r: ImportedRequest): boolean {
  return isWatchListRequest(r.requestURI) || r.initialEventsEnd !== undefined;
}

export function watchOutcome(r: ImportedRequest): WatchOutcome {
  const endedAt = r.completedAt ?? r.watchEnd?.at;
  const text = r.watchEnd?.message ?? r.status?.message;
  const out: WatchOutcome = {
    how: 'unknown',
    ...(endedAt !== undefined && r.endInFile ? { endedAt } : {}),
    ...(text !== undefined ? { text } : {}),
  };
  if (r.startInFile && r.endInFile && r.receivedAt !== undefined && endedAt !== undefined)
    out.durationMs = Math.max(0, endedAt - r.receivedAt);
  if (!r.endInFile) {
    out.how = 'open';
    return out;
  }
  const code = r.code;
  if (
    code === 410 ||
    r.status?.reason === 'Expired' ||
    r.status?.reason === 'Gone' ||
    (r.watchEnd && expiredText.test(r.watchEnd.message))
  ) {
    out.how = 'expired';
    return out;
  }
  if (code !== undefined && code >= 300) {
    out.how = 'refused';
    return out;
  }
  // Its client stopped it (the reflector's stop line): the client's own end, not an early one.
  if (r.watchEnd?.clientClosed) {
    out.how = 'client-closed';
    return out;
  }
  // client-go's reflector logs `watch of … ended with: …` only for a watch that failed.
  if (r.watchEnd) {
    out.how = 'early';
    return out;
  }
  if (out.durationMs === undefined) return out;
  const sent = Number(splitRequestURI(r.requestURI).query.get('timeoutSeconds') ?? '');
  const timeoutMs = (Number.isFinite(sent) && sent > 0 ? sent : minRequestTimeoutSeconds) * 1000;
  out.how = out.durationMs >= timeoutMs - timeoutToleranceMs ? 'timeout' : 'early';
  return out;
}

/**
 * A watch whose response was not a 410 but whose stream ended with one: the watch cache's ERROR
 * event with a 410 Expired Status (`too old resource version: 1243 (1244)`), as the client logged
 * it. It counts as the client's 410.
 */
export function expiredInStream(r: ImportedRequest, outcome: WatchOutcome): boolean {
  return outcome.how === 'expired' && r.code !== 410;
}

/** Ended early or with a 410 (or refused): what makes the client's next LIST a relist. */
export function endsEarly(how: WatchEnd): boolean {
  return how === 'early' || how === 'expired' || how === 'refused';
}
