// When a LIST or a WatchList WATCH counts as a relist: one rule for the run model
// (client-records.ts), the import's analysis (src/import/relists.ts) and the views and reports that
// explain it. No upstream counterpart: upstream has no notion of a relist on the server side.

/**
 * A LIST this soon after a watch of the same client ended early or with a 410 is a relist: the
 * reflector (client-go tools/cache/reflector.go) answers a failed watch by listing again after its
 * backoff, which starts at 800 ms and doubles up to 30 s; 5 s covers the first retries and leaves
 * out a LIST the client would have sent anyway much later.
 */
export const relistWindowMs = 5000;

/**
 * How a client lists again. A WatchList client (client-go's WatchListClient, on by default from
 * 1.35) lists by a WATCH with sendInitialEvents=true (reflector.go watchList): after a failed or
 * expired watch, that WATCH is its relist, not a restart of its watch.
 */
export type RelistVia = 'list' | 'watch-list';

/** What each way of relisting sends, as the views and the reports name it. */
export const relistViaText: Record<RelistVia, string> = {
  list: 'LIST',
  'watch-list': 'WatchList WATCH (sendInitialEvents=true)',
};

/**
 * What an imported relist's "same client" rests on, for the views and the reports: the process
 * the client logs name on both sides, or only the user agent and user (an audit log alone).
 */
export function relistClientText(x: { process?: string }): string {
  return x.process !== undefined
    ? `same process (${x.process})`
    : 'same user agent and user (no client log names both processes)';
}

/** The rule in words, for the views and the reports. */
export const relistRule = `a relist is a LIST from scratch (no continue), or a WatchList client's WATCH with sendInitialEvents=true, sent within ${relistWindowMs / 1000} s after a watch of the same client ended with a 410 or early (terminated, closed by the server, refused), with no other WATCH between; a WatchList WATCH that ended before its initial events did was the list itself, and what follows it retries that list`;

/**
 * Whether a watch that ended can be relisted after: it ended after its client had listed. A
 * WatchList watch that ended before its initial events did (refused, or the cache never caught up)
 * was the client's list itself: the request after it retries that list, as a LIST after a failed
 * LIST is no relist. `initialEventsEnded` undefined: not known (an audit log does not say), taken
 * as listed.
 */
export function endedAfterListing(
  watchList: boolean,
  initialEventsEnded: boolean | undefined,
): boolean {
  return !watchList || initialEventsEnded !== false;
}

/** A WATCH whose URI asks for sendInitialEvents=true: a WatchList client's list. */
export function isWatchListRequest(requestURI: string): boolean {
  const q = requestURI.indexOf('?');
  return q >= 0 && new URLSearchParams(requestURI.slice(q + 1)).get('sendInitialEvents') === 'true';
}

/**
 * A LIST client-go sent as a watch: sendInitialEvents=true from resourceVersion 0 without
 * timeoutSeconds. client-go's List (dynamic/simple.go, gentype) streams through watchList when
 * WatchListClient is on, with the list's options: a reflector's LIST from RV 0 (its
 * relistResourceVersion before a sync) and no timeout; the reflector's own watches always carry
 * timeoutSeconds (reflector.go: minWatchTimeout times a random 1–2). (The simulated WatchList
 * clients send RV "" and no timeoutSeconds: reflector watches, as they stand for.)
 */
export function isListByWatch(requestURI: string): boolean {
  const q = requestURI.indexOf('?');
  if (q < 0) return false;
  const p = new URLSearchParams(requestURI.slice(q + 1));
  return (
    p.get('sendInitialEvents') === 'true' &&
    p.get('resourceVersion') === '0' &&
    !p.has('timeoutSeconds')
  );
}

/**
 * Whether a request sent at `at` relists after a watch that ended at `endedAt`, when that end was
 * early, expired or refused (the caller's reading of the end; a timeout or the client's own close
 * is no cause): sent at or after the end and at most relistWindowMs later.
 */
export function relistsAfter(endedAt: number, at: number): boolean {
  return at >= endedAt && at - endedAt <= relistWindowMs;
}
