// No upstream counterpart: what the client-go lines users paste when an informer is stuck mean
// (the calls are client-go-reflector-log-calls.ts's table, which quotes them): what happened,
// the server behaviour that causes it, the client-go versions that print it, and what to run (the
// `listwatch conform` checks, the `listwatch serve` fault that reproduces it, src/server/faults.ts).
// Read at client-go release-1.27 … release-1.36 (tools/cache/reflector.go, dynamic/simple.go,
// metadata/metadata.go) and v0.17.0–v0.20.0 for the older words. The CLI (`listwatch explain-log`)
// and the extension's hover share this one table.
import {
  readClientGoLogLine,
  type ClientGoLogCall,
  type ClientGoLogLine,
} from './client-go-log-call';
import { resourceOfType } from './reflector-line';

/** A `listwatch fault` that reproduces a line against `listwatch serve`. */
export interface FaultReproduction {
  /** The fault's name in src/server/faults.ts. */
  fault: string;
  /** Its parameters, matchers and trigger as `listwatch fault` flags. */
  flags: readonly string[];
  /** `listwatch serve` options it needs beyond the defaults (e.g. --replicas). */
  serveFlags?: readonly string[];
}

export interface ClientGoLogExplanation {
  /** Stable id (the CLI's --json, tests). */
  id: string;
  /** The calls it explains; with `err`, only when the line's error matches. */
  calls: readonly ClientGoLogCall[];
  err?: RegExp;
  /** One line: what the line says. */
  title: string;
  /** Which client-go versions print it, and how. */
  versions: string;
  /** What happened, and what the client does next. */
  happened: string;
  /** The server behaviour that causes it. */
  cause: string;
  /** Faults that reproduce it against `listwatch serve` (none: `reproduceNote` says why or how). */
  faults: readonly FaultReproduction[];
  reproduceNote?: string;
  /** The line is what a healthy informer prints (nothing to fix). */
  healthy?: true;
}

/** The printf (0.17–0.32) and structured (0.33+) names of the reflector's watch-end lines. */
const watchEndedVersions =
  'client-go 0.18–0.32: `NAME: watch of TYPE closed with: ERR` (V(4), an expired watch) or ' +
  '`… ended with: ERR` (Warning; 0.17 prints an expired one so too, at V(4)); 0.33+: "Watch closed" ' +
  '(V(4), expired) or "Warning: watch ended with error" with err=…';

const listFailedVersions =
  'client-go 0.23–0.32: `NAME: failed to list TYPE: ERR` (Warning) and `NAME: Failed to watch TYPE: ' +
  'failed to list TYPE: ERR` (HandleError; 0.31–0.32 inside "Unhandled Error"); 0.17–0.18 `NAME: ' +
  'Failed to list TYPE: ERR`; 0.33+: "Failed to watch" err="failed to list TYPE: ERR"';

const watchListVersions =
  'WatchList is used by client-go 0.27–0.29 with ENABLE_CLIENT_GO_WATCH_LIST_ALPHA=true, 0.30–0.34 ' +
  'with the WatchListClient gate on (KUBE_FEATURE_WatchListClient=true), 0.35+ by default';

/** Every explanation, the first that fits a line wins: specific errors before their call's generic entry. */
export const clientGoLogExplanations: readonly ClientGoLogExplanation[] = [
  {
    id: 'watch-list-fallback',
    calls: ['watch-list-fallback'],
    title: 'The WatchList request failed: the client lists instead',
    versions:
      'client-go 0.29–0.32: `The watchlist request ended with an error, falling back to the standard ' +
      'LIST/WATCH semantics because making progress is better than deadlocking, err = ERR` (Warning; ' +
      '0.33–0.34 the same words as a structured error); 0.27–0.28: `the watch-list feature is not ' +
      'supported by the server, falling back to the previous LIST/WATCH semantic` (Warning); ' +
      '0.31–0.33 dynamic and typed clients: `The watchlist request for R ended with an error, ' +
      'falling back to the standard LIST semantics, err = ERR`, 0.32–0.33 the metadata client the ' +
      'same without `for R`, structured; 0.35+: "Data couldn\'t be fetched in watchlist mode. ' +
      'Falling back to regular list." (V(4)). ' +
      watchListVersions,
    happened:
      'The informer asked for its initial state as a watch (sendInitialEvents=true, ' +
      'resourceVersionMatch=NotOlderThan) and the request ended with an error. It sends an ordinary ' +
      'LIST (paginated, resourceVersion 0 or its last one) and then watches from the list, as before ' +
      'WatchList. It tries WatchList again on its next relist.',
    cause:
      'A server that refuses the request (kube-apiserver before 1.27 forbids resourceVersionMatch ' +
      'on a watch, with the WatchList gate off it forbids sendInitialEvents: 422 Invalid; an ' +
      'aggregated server or proxy may answer 400, 403 or 500) or that ends the stream with an ' +
      'error or at once. Refusing is correct: the client falls back. What is not correct is ' +
      'accepting the watch and never ending its initial events.',
    faults: [
      { fault: 'http-error', flags: ['--code', '500', '--watch-list', 'true'] },
      { fault: 'drop-connection', flags: ['--after-events', '0', '--watch-list', 'true'] },
    ],
  },
  {
    id: 'initial-events-end-not-started',
    calls: ['bookmark-expired'],
    err: /awaiting required bookmark event for initial events stream/,
    title: 'A WatchList watch has received nothing yet, not even its initial events',
    versions:
      'client-go 0.31–0.32: `NAME: awaiting required bookmark event for initial events stream, no ' +
      'events received for DURATION` (Warning, every 10 s); 0.33+: the same text as the err of ' +
      '"Warning: event bookmark expired". ' +
      watchListVersions,
    happened:
      'The informer opened a WatchList watch and, 10 s or more after it started, no event has ' +
      'arrived: no ADDED for the objects that exist, no bookmark. The informer is not synced (its ' +
      'WaitForCacheSync blocks). It keeps waiting until the watch ends (the server closes it at its ' +
      'timeoutSeconds, 5 to 10 minutes), then opens another WatchList watch: it never falls back to ' +
      'a LIST for this.',
    cause:
      'A server or proxy that accepted the watch but ignores sendInitialEvents (a plain watch ' +
      'from "now" sends nothing until something changes), a stalled stream (a proxy buffering the ' +
      'chunked response, a half-open connection), or a watch cache that is not fresh yet (the ' +
      'apiserver waits for it before the initial events). kube-apiserver sends the initial events ' +
      'at once and ends them with a bookmark annotated k8s.io/initial-events-end: "true".',
    faults: [
      { fault: 'stall-watch', flags: ['--seconds', '30', '--watch-list', 'true'] },
      { fault: 'omit-end-bookmark', flags: [] },
      { fault: 'cache-lag', flags: ['--seconds', '30'] },
    ],
    reproduceNote: 'omit-end-bookmark gives this line on a resource with no objects.',
  },
  {
    id: 'initial-events-end-missing',
    calls: ['bookmark-expired'],
    err: /hasn't received required bookmark event marking the end of initial events stream/,
    title: 'A WatchList watch sent its initial events but not the bookmark that ends them',
    versions:
      "client-go 0.31–0.32: `NAME: hasn't received required bookmark event marking the end of " +
      'initial events stream, received last event DURATION ago` (Warning, every 10 s); 0.33+: the ' +
      'same text as the err of "Warning: event bookmark expired". ' +
      watchListVersions,
    happened:
      'Events arrived on the WatchList watch, then nothing for 10 s or more, and the bookmark ' +
      'annotated k8s.io/initial-events-end has not come. The informer holds what it received in a ' +
      'temporary store and is not synced. It waits until the watch ends (the server closes it at ' +
      'its timeoutSeconds, 5 to 10 minutes), drops what it received and opens another WatchList ' +
      'watch: an informer against such a server never syncs.',
    cause:
      'A server that honours sendInitialEvents but never sends the initial-events-end bookmark ' +
      '(aggregated API servers, fakes and mock servers, proxies that drop bookmarks or the ' +
      'annotation), or a stream that stalled inside the initial events. kube-apiserver sends the ' +
      'end bookmark right after the last initial ADDED.',
    faults: [
      { fault: 'omit-end-bookmark', flags: [] },
      { fault: 'stall-watch', flags: ['--seconds', '30', '--watch-list', 'true'] },
    ],
  },
  {
    id: 'initial-events-end-late',
    calls: ['bookmark-expired'],
    title: 'A WatchList watch has not ended its initial events in time',
    versions:
      'client-go 0.33+: "Warning: event bookmark expired" err=…, every 10 s while the initial ' +
      'events have not ended. ' +
      watchListVersions,
    happened:
      'The informer waits for the bookmark that ends its initial events (k8s.io/initial-events-end) ' +
      'and is not synced until it comes; the err says how long it has waited.',
    cause: 'A server that does not send the initial-events-end bookmark, or a stream that stalled.',
    faults: [{ fault: 'omit-end-bookmark', flags: [] }],
  },
  {
    id: 'initial-events-end',
    calls: ['initial-events-end'],
    healthy: true,
    title: 'A WatchList watch received its initial events and their end bookmark',
    versions:
      'client-go 0.27–0.32: `exiting NAME Watch because received the bookmark that marks the end of ' +
      'initial events stream, total N items received in DURATION` (V(4)); 0.33+: "Exiting watch ' +
      'because received the bookmark that marks the end of initial events stream" totalItems=N ' +
      'duration=D. ' +
      watchListVersions,
    happened:
      'The informer read every object as an ADDED event and the bookmark annotated ' +
      'k8s.io/initial-events-end: its cache is synced, and it keeps the same watch open for what ' +
      'changes next. This is the healthy end of a WatchList.',
    cause:
      'A server that does WatchList as kube-apiserver does. If a `Listing and watching` line has no ' +
      'such line after it, the bookmark never came: look for "event bookmark expired".',
    faults: [],
    reproduceNote: 'Any WatchList client against `listwatch serve` prints it.',
  },
  {
    id: 'resource-not-found',
    calls: ['list-failed', 'watch-failed', 'watch-ended', 'watch-list-fallback'],
    err: /the server could not find the requested resource/,
    title: 'The server does not serve this resource (404)',
    versions: listFailedVersions,
    happened:
      "The LIST (or WATCH) was answered 404 without a Status naming an object: client-go's " +
      'apierrors.NewGenericServerResponse text for it. The reflector backs off (up to 30 s) and ' +
      'lists again, for ever; the informer never syncs, and a controller waiting on ' +
      'WaitForCacheSync hangs.',
    cause:
      'The group, version or resource is not served: a CRD not installed (or deleted), an ' +
      'APIService whose aggregated server is down or does not serve this version, a client built ' +
      'for a newer API version than the cluster has, or a proxy that routes only some paths.',
    faults: [],
    reproduceNote:
      'Point the informer at a resource `listwatch serve` does not serve (a CRD not created): it ' +
      'answers 404 as kube-apiserver does.',
  },
  {
    id: 'too-large-resource-version',
    calls: ['list-failed', 'watch-failed', 'watch-ended', 'watch-list-fallback'],
    err: /Too large resource version/,
    title: 'The client asked for a resource version the server has not seen yet (504)',
    versions:
      listFailedVersions +
      '; the error text is the server\'s, "Timeout: Too large resource version: RV, current: CUR"',
    happened:
      'The LIST asked for data at least as new as a resource version the watch cache of the ' +
      'apiserver that took it has not reached. The apiserver waited up to 3 s for it, then ' +
      'answered 504 with the cause ResourceVersionTooLarge. client-go 0.19+ lists again without a ' +
      'resourceVersion (a quorum read) and goes on.',
    cause:
      'Several apiservers behind one address whose watch caches lag differently (the client read the ' +
      'RV through a fresher one), an etcd restored from a backup (revisions went back), or a ' +
      'watch cache that stopped following etcd.',
    faults: [
      {
        fault: 'cache-lag',
        flags: ['--seconds', '60', '--replica', '2'],
        serveFlags: ['--replicas', '3', '--etcd', 'spawn'],
      },
    ],
  },
  {
    id: 'continue-expired',
    calls: ['list-failed', 'watch-failed'],
    err: /continue parameter is too old/,
    title: "A paginated LIST's continue token expired (410)",
    versions: listFailedVersions,
    happened:
      'A page of the LIST was asked for with a continue token whose revision etcd has compacted ' +
      "away. client-go's pager lists again from the start without pages when it can; otherwise " +
      'the reflector backs off and lists again.',
    cause:
      'etcd compaction (every 5 minutes in kube-apiserver) passed the revision of the first page ' +
      'while the client was still paging: a slow client, a big list with a small limit, or LISTs ' +
      'served from etcd because the watch cache was off or skipped.',
    faults: [{ fault: 'compact', flags: [] }],
  },
  {
    id: 'watch-expired',
    calls: ['watch-ended', 'watch-failed', 'list-failed'],
    err: /too old resource version|The resourceVersion for the provided watch is too old/,
    title: "The watch's resource version is older than the server keeps (410 Expired)",
    versions:
      watchEndedVersions +
      '. The error is the server\'s: "too old resource version: RV (OLDEST)" from the watch cache, ' +
      '"The resourceVersion for the provided watch is too old." from etcd',
    happened:
      'The reflector watched from its last resource version and the server answered 410 Expired ' +
      '(an ERROR event in the stream, or the response): the events since then are gone. The ' +
      'reflector lists again (at its last RV; if that is too old too, without one) and watches ' +
      'from the new list. Now and then this is normal; many times an hour means relists that cost ' +
      'the server (every object again).',
    cause:
      "The watch cache's history no longer reaches the RV (a small cache, a busy resource, a " +
      'restarted apiserver whose new cache starts at the present) or etcd compacted it, and the ' +
      'client did not get bookmarks that would have moved its RV forward. A Warning `ended with: ' +
      'too old resource version` from 0.18+ means the error did not arrive as 410 Expired/Gone.',
    faults: [
      { fault: 'expire-history', flags: [] },
      { fault: 'compact', flags: [] },
      { fault: 'restart', flags: [] },
    ],
  },
  {
    id: 'very-short-watch',
    calls: ['watch-ended', 'watch-failed', 'watch-list-fallback'],
    err: /very short watch: .*Unexpected watch close - watch lasted less than a second and no items received/s,
    title: 'The server closed a watch at once, with no event',
    versions:
      watchEndedVersions +
      '. The error: `very short watch: NAME: Unexpected watch close - watch lasted less than a ' +
      'second and no items received` (0.27+, VeryShortWatchError)',
    happened:
      'A watch ended less than a second after it was sent and delivered nothing. The reflector ' +
      'takes it as an error and lists again (a WatchList falls back to a LIST).',
    cause:
      'A server or proxy that answers a watch and closes it at once (a short idle timeout, a ' +
      'watch it does not support), or a connection cut as the response started.',
    faults: [{ fault: 'drop-connection', flags: ['--after-events', '0'] }],
  },
  {
    id: 'watch-unexpected-eof',
    calls: ['watch-unexpected-eof'],
    title: 'A watch connection was cut mid-stream (unexpected EOF)',
    versions:
      'client-go 0.17–0.32: `NAME: Watch for TYPE closed with unexpected EOF: ERR` (V(1)); 0.33+: ' +
      '"Watch closed with unexpected EOF" (V(1))',
    happened:
      'ListAndWatch returned io.ErrUnexpectedEOF: a response ended before it was whole. The ' +
      'reflector lists and watches again after its backoff. (A watch stream cut after its headers ' +
      'is not this line: client-go reads it as the watch ending, "Watch close", or a very short ' +
      'watch.)',
    cause:
      'A connection cut by the server, a load balancer or a proxy (an idle timeout, a restart) ' +
      'in the middle of a response.',
    faults: [],
    reproduceNote:
      'drop-connection cuts a watch after its headers, which client-go reads as "Watch close" or a ' +
      'very short watch, not as this line.',
  },
  {
    id: 'watch-backoff',
    calls: ['watch-backoff'],
    title: 'A watch was refused (429 or connection refused): retried after a backoff',
    versions:
      'client-go 0.22–0.32: `NAME: watch of TYPE returned 429 - backing off` (V(2)), 0.27–0.32 ' +
      '`NAME: watch of TYPE returned ERR - backing off` (V(4)) and `NAME: watch-list of TYPE ' +
      'returned ERR - backing off` (V(2)); 0.33+: "Watch returned 429 - ' +
      'backing off" (V(2)), "Watch failed - backing off" (V(4)), "watch-list failed - backing off" ' +
      '(V(2))',
    happened:
      'The watch (or WatchList) request was refused with 429 Too Many Requests, or the connection ' +
      'was refused. The reflector waits (800 ms doubling up to 30 s) and sends the same watch ' +
      'again, without a relist.',
    cause:
      'API Priority and Fairness rejecting the request (its priority level is full), or an ' +
      'apiserver not listening (restarting).',
    faults: [{ fault: 'http-error', flags: ['--code', '429', '--verb', 'watch'] }],
  },
  {
    id: 'watch-internal-retry',
    calls: ['watch-internal-retry'],
    title: 'A watch ended with an internal error (500): retried',
    versions:
      'client-go 0.25–0.32: `NAME: retrying watch of TYPE internal error: ERR` (V(2)); 0.33+: ' +
      '"Retrying watch after internal error" (V(2))',
    happened:
      'The watch stream ended with an ERROR event of code 500. Within MaxInternalErrorRetryDuration ' +
      '(off unless the informer sets it) the reflector watches again from the same RV; past it, it ' +
      'lists again.',
    cause: 'A server error inside the watch (storage, encoding or a webhook failing).',
    faults: [],
    reproduceNote:
      'No fault sends a 500 inside a watch stream yet; http-error answers the request.',
  },
  {
    id: 'list-failed',
    calls: ['list-failed'],
    title: 'The LIST failed: the informer backs off and lists again',
    versions: listFailedVersions,
    happened:
      'The reflector could not list (the error says why). It backs off (800 ms doubling up to 30 s ' +
      'with jitter) and lists again; until a LIST succeeds the informer is not synced.',
    cause:
      "The error is the server's answer or the connection's: 429 (priority and fairness), 500, " +
      '503 (a shutting-down apiserver), 504 (a request timeout), 401/403 (credentials, RBAC), or ' +
      'no connection at all.',
    faults: [{ fault: 'http-error', flags: ['--code', '500', '--verb', 'list'] }],
  },
  {
    id: 'watch-failed',
    calls: ['watch-failed'],
    title: 'The watch request failed: the informer lists again',
    versions:
      'client-go 0.17–0.32: `NAME: Failed to watch TYPE: ERR` (HandleError; 0.31–0.32 inside ' +
      '"Unhandled Error"); 0.33+: "Failed to watch" err=… (HandleErrorWithContext)',
    happened:
      'Opening the watch failed with an error that is neither 429, connection refused nor 410. ' +
      'ListAndWatch returns; after its backoff the reflector lists and watches again.',
    cause:
      'The server answered the watch with an error (500, 503, 504, 401/403) or the connection ' +
      'failed.',
    faults: [{ fault: 'http-error', flags: ['--code', '500', '--verb', 'watch'] }],
  },
  {
    id: 'watch-ended-with-error',
    calls: ['watch-ended'],
    title: 'A watch ended with an error: the informer lists again',
    versions: watchEndedVersions,
    happened:
      'The watch stream ended with an ERROR event or a decoding error (the err says which). ' +
      'ListAndWatch returns and the reflector lists again after its backoff.',
    cause:
      'An ERROR event the server sent (other than 410, 429 or a retried 500), or a stream the ' +
      'client could not decode (a proxy changing it, a connection lost mid-event).',
    faults: [],
    reproduceNote:
      'No fault sends an ERROR event of another code yet. A connection lost inside an HTTP/2 ' +
      'stream reads as "unable to decode an event from the watch stream".',
  },
  {
    id: 'watch-close',
    calls: ['watch-close'],
    healthy: true,
    title: 'The server ended a watch normally: the informer watches again',
    versions:
      'client-go 0.17–0.32: `NAME: Watch close - TYPE total N items received` (V(4)); 0.33+: ' +
      '"Watch close" totalItems=N (V(4))',
    happened:
      'A watch ended without an error after N events; the reflector opens a new one from the last ' +
      'resource version it saw, without a LIST. The server ends each watch at the timeoutSeconds ' +
      'the client asked for (5 to 10 minutes, random), so one line every few minutes is normal.',
    cause:
      'The server closing watches at their timeout is normal; many such lines a minute mean the ' +
      'server, a proxy or a load balancer ends watches early (an idle timeout, a restart, the ' +
      "cacher closing a watcher that could not keep up). With a WatchList watch and no 'Exiting " +
      "watch because received the bookmark' before it, the initial events never ended.",
    faults: [
      { fault: 'restart', flags: [] },
      { fault: 'drop-connection', flags: ['--after-events', '1'] },
    ],
  },
];

/** A recognised line and its explanation. */
export interface ExplainedClientGoLine {
  line: ClientGoLogLine;
  explanation: ClientGoLogExplanation;
}

/** The explanation of one log line, or undefined when no client-go call printed it. */
export function explainClientGoLogLine(text: string): ExplainedClientGoLine | undefined {
  const line = readClientGoLogLine(text);
  if (!line) return undefined;
  const explanation = clientGoLogExplanations.find(
    (e) => e.calls.includes(line.call) && (!e.err || e.err.test(line.err ?? '')),
  );
  return explanation && { line, explanation };
}

/** What to run: the conformance check and each fault that reproduces the line, as command lines. */
export function clientGoLogCommands(e: ExplainedClientGoLine): {
  conform: string;
  reproduce: string[];
} {
  const { resource, apiGroup } = resourceOfType(e.line.type ?? '', e.line.reflector ?? '');
  const named = resource && (apiGroup ? `${resource}.${apiGroup}` : resource);
  // Only a name a resource can have goes on a command line (the log's text is anyone's).
  const resourceFlag = named && /^[a-z0-9][a-z0-9.-]*$/.test(named) ? ` --resource ${named}` : '';
  return {
    conform: `listwatch conform --kubeconfig KUBECONFIG${resourceFlag}`,
    reproduce: e.explanation.faults.map(
      (f) =>
        `listwatch serve${f.serveFlags ? ' ' + f.serveFlags.join(' ') : ''} --kubeconfig K & ` +
        `listwatch fault --kubeconfig K ${[f.fault, ...f.flags].join(' ')}`,
    ),
  };
}
