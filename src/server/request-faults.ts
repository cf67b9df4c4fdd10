// No upstream counterpart as a filter: the one place in the chain (after authentication and
// RequestInfo, where upstream's WithPriorityAndFairness and WithTimeoutForNonLongRunningRequests
// act) where the request faults in force (active-faults.ts) hit a request. Each answer is what
// upstream sends in that situation, byte for byte:
// - 429: pkg/server/filters/priority-and-fairness.go tooManyRequests (maxinflight.go's too): a
//   text/plain http.Error, Retry-After from the dropped-requests tracker (1 at the first drop,
//   pkg/util/flowcontrol/dropped_requests_tracker.go GetRetryAfter);
// - 500: apierrors.NewInternalError through responsewriters.ErrorNegotiated;
// - 503: pkg/server/filters/waitgroup.go waitGroupWriteRetryAfterToResponse (NewServiceUnavailable
//   "apiserver is shutting down", Retry-After: 1);
// - 504: pkg/server/filters/timeout.go baseTimeoutWriter.timeout: json.Encoder of the bare
//   metav1.Status of NewTimeoutError (no kind, no Content-Type: Go sniffs text/plain).
import type { ServerResponse } from 'node:http';
import type { Clock } from '../engine';
import { newInternalError, newServiceUnavailable } from '../engine/http-face';
import type { ActiveFault, ActiveFaults } from './active-faults';
import type { MatchedRequest } from './fault-matcher';
import type { WatchStreamFault } from './handlers/watch';
import { writeError } from './handlers/response';
import { DropConnection, OmitEndBookmark, StallWatch, StreamFaults } from './watch-stream-faults';

/** The Retry-After of the first request API Priority and Fairness drops. */
const apfFirstRetryAfter = '1';

/** timeout.go's message of a request the timeout filter ends. */
const requestTimeoutMessage = 'request did not complete within the allotted timeout';

/** What the filter decided: answered here, or go on (with a watch's stream faults, if any). */
export type RequestFaultOutcome =
  | { answered: true }
  | { answered: false; watchFault?: WatchStreamFault; ignoreSendInitialEvents?: true };

const goOn: RequestFaultOutcome = { answered: false };

/**
 * The request faults for one request: latency first (the sum, on the server's clock), then the
 * first http-error or blackhole answers it, else the stream faults ride along with the watch.
 */
export async function applyRequestFaults(
  active: ActiveFaults,
  r: MatchedRequest,
  res: ServerResponse,
  clock: Pick<Clock, 'sleep' | 'afterFunc'>,
  /** Told of the hits before they act; `answered`: an http-error or blackhole answers it here. */
  onHits?: (hits: readonly ActiveFault[], answered: boolean) => void,
): Promise<RequestFaultOutcome> {
  const hits = active.hit(r);
  if (hits === undefined || hits.length === 0) return goOn;
  onHits?.(
    hits,
    hits.some((f) => f.name === 'http-error' || f.name === 'blackhole'),
  );
  const delayMs = hits
    .filter((f) => f.name === 'latency')
    .reduce((sum, f) => sum + (f.parameters.ms as number), 0);
  if (delayMs > 0) {
    await clock.sleep(delayMs);
    if (res.destroyed) return { answered: true };
  }
  for (const f of hits) {
    if (f.name === 'http-error') {
      writeHttpError(res, f.parameters.code as number);
      return { answered: true };
    }
    if (f.name === 'blackhole') {
      // Past the most a server holds: what maxinflight.go answers a request past its limit.
      if (!active.hold(f, res)) writeHttpError(res, 429);
      return { answered: true };
    }
  }
  // ignore-send-initial-events changes the watch's options, not its stream (handlers/get.ts).
  const ignoreSendInitialEvents = hits.some((f) => f.name === 'ignore-send-initial-events');
  const ignoring = ignoreSendInitialEvents ? { ignoreSendInitialEvents: true as const } : {};
  const stream: WatchStreamFault[] = [];
  for (const f of hits) {
    const p = f.parameters;
    if (f.name === 'stall-watch')
      stream.push(
        new StallWatch(clock, (p.seconds as number) * 1000, p.then === 'drop' ? 'drop' : 'deliver'),
      );
    else if (f.name === 'omit-end-bookmark') stream.push(new OmitEndBookmark());
    else if (f.name === 'drop-connection')
      stream.push(new DropConnection((p.afterEvents as number | undefined) ?? 0));
  }
  if (stream.length === 0) return { answered: false, ...ignoring };
  return {
    answered: false,
    watchFault: stream.length === 1 ? stream[0] : new StreamFaults(stream),
    ...ignoring,
  };
}

/** Upstream's answer for `code` (see the header). */
export function writeHttpError(res: ServerResponse, code: number): void {
  switch (code) {
    case 429:
      // net/http.Error: its headers, and the text with Fprintln's newline.
      res.writeHead(429, {
        'Retry-After': apfFirstRetryAfter,
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end('Too many requests, please try again later.\n');
      return;
    case 500:
      writeError(res, newInternalError(new Error('injected by listwatch fault http-error')));
      return;
    case 503:
      res.setHeader('Retry-After', '1');
      writeError(res, newServiceUnavailable('apiserver is shutting down'));
      return;
    case 504:
      res.writeHead(504, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(
        `{"metadata":{},"status":"Failure","message":"Timeout: ${requestTimeoutMessage}","reason":"Timeout","details":{},"code":504}\n`,
      );
      return;
  }
}
