// Mirrors the log calls of k8s.io/client-go tools/cache/reflector.go and the WatchList fallbacks of
// dynamic/simple.go, metadata/metadata.go and gentype/type.go, read at every tag v0.17.0 … v0.36.0:
// printf up to 0.32, structured klog from 0.33; 0.31–0.32 wrap HandleError's lines in
// `"Unhandled Error" err="…"`. One table, read by the importer (reflector-line.ts → ReflectorEvent)
// and by explain-log and the .log hover (client-go-log-call.ts → ClientGoLogLine). Kept free of
// heavy imports: the extension's entry runs it on the line under the cursor.

/**
 * A reflector's routine lines: the import reads them (a LIST below -v=6, a watch its client
 * closed), explain-log and the hover leave them unexplained (nothing in them to explain).
 */
export type RoutineReflectorCall =
  /** `Listing and watching`: ListAndWatch begins with a LIST (or a WatchList watch). */
  | 'list-start'
  /** `Caches populated`: the LIST's items are in the store. */
  | 'list-done'
  /** `Stopping reflector`: its stop channel closed (Run returned). */
  | 'reflector-stopped';

/** The reflector call that printed a line (several upstream calls share one when they mean one thing). */
export type ClientGoLogCall =
  /** The initial-events-end bookmark has not come yet (initialEventsEndBookmarkTicker.warnIfExpired). */
  | 'bookmark-expired'
  /** The WatchList watch read its initial-events-end bookmark (handleAnyWatch). */
  | 'initial-events-end'
  /** The WatchList request failed and the client lists instead. */
  | 'watch-list-fallback'
  /** A watch ended with an error (watch's switch, DefaultWatchErrorHandler's expired case). */
  | 'watch-ended'
  /** ListAndWatch returned io.ErrUnexpectedEOF (DefaultWatchErrorHandler). */
  | 'watch-unexpected-eof'
  /** ListAndWatch returned another error from the watch (DefaultWatchErrorHandler's HandleError). */
  | 'watch-failed'
  /** The LIST failed (list's Warning, or its error through DefaultWatchErrorHandler). */
  | 'list-failed'
  /** 429 or connection refused: the same watch is retried after a backoff. */
  | 'watch-backoff'
  /** A 500 in the stream, retried within MaxInternalErrorRetryDuration. */
  | 'watch-internal-retry'
  /** The server ended a watch without an error (handleAnyWatch). */
  | 'watch-close';

/** Every call the table reads. */
export type ReflectorCall = RoutineReflectorCall | ClientGoLogCall;

/** One upstream log call (or several that print the same words). */
export interface ReflectorLogCall {
  call: ReflectorCall;
  /** The upstream call and the client-go versions that make it. */
  upstream: string;
  /** The printf message (after the klog header), with named groups reflector, type, err, totalItems, duration. */
  printf?: RegExp;
  /** The structured message's msg. */
  msg?: string;
  /** Any msg that starts with this is the call too (a msg cut short, a future wording). */
  msgPrefix?: string;
  /** The structured line carries no reflector key (the reflector's own lines must). */
  noReflectorKey?: true;
}

// NAME and TYPE are lazy: a reflector's name may hold spaces (`shared informer`), an unstructured
// type is `group/version, Kind=K`; the fixed words between them anchor the match. Order matters
// for printf: the first row whose regex matches wins.
export const reflectorLogCalls: readonly ReflectorLogCall[] = [
  {
    call: 'watch-list-fallback',
    upstream:
      'reflector.go ListAndWatch 0.29–0.32 klog.Warningf("The watchlist request ended with an error, ' +
      'falling back to the standard LIST/WATCH semantics because making progress is better than ' +
      'deadlocking, err = %v"); dynamic/simple.go and gentype/type.go List 0.31–0.33 ' +
      'klog.Warningf("The watchlist request for %v ended with an error, falling back to the standard ' +
      'LIST semantics, err = %v")',
    printf:
      /^The watchlist request (?:for (?<type>.+?) )?ended with an error, falling back to the standard LIST(?:\/WATCH)? semantics(?: because making progress is better than deadlocking)?, err = (?<err>.*)$/s,
  },
  {
    call: 'watch-list-fallback',
    upstream:
      'reflector.go ListAndWatch 0.27–0.28 klog.Warning("the watch-list feature is not supported by ' +
      'the server, falling back to the previous LIST/WATCH semantic") (the watch was Invalid)',
    printf:
      /^the watch-list feature is not supported by the server, falling back to the previous LIST\/WATCH semantic$/,
  },
  {
    call: 'watch-list-fallback',
    upstream:
      'reflector.go ListAndWatch 0.33–0.34 logger.Error(err, "The watchlist request ended with an ' +
      'error, falling back to the standard LIST/WATCH semantics because making progress is better ' +
      'than deadlocking")',
    msg: 'The watchlist request ended with an error, falling back to the standard LIST/WATCH semantics because making progress is better than deadlocking',
    msgPrefix: 'The watchlist request ended with an error',
    noReflectorKey: true,
  },
  {
    call: 'watch-list-fallback',
    upstream:
      'metadata/metadata.go List 0.32–0.33 Error(err, "The watchlist request ended with an error, ' +
      'falling back to the standard LIST semantics", "resource", c.resource)',
    msg: 'The watchlist request ended with an error, falling back to the standard LIST semantics',
    noReflectorKey: true,
  },
  {
    call: 'watch-list-fallback',
    upstream:
      'reflector.go ListAndWatchWithContext 0.35+ V(4).Info("Data couldn\'t be fetched in watchlist ' +
      'mode. Falling back to regular list. This is expected if watchlist is not supported or ' +
      'disabled in kube-apiserver.", "err", err)',
    msg: "Data couldn't be fetched in watchlist mode. Falling back to regular list. This is expected if watchlist is not supported or disabled in kube-apiserver.",
    msgPrefix: "Data couldn't be fetched in watchlist mode. Falling back to regular list.",
    noReflectorKey: true,
  },
  {
    call: 'bookmark-expired',
    upstream:
      'reflector.go initialEventsEndBookmarkTicker.warnIfExpired 0.31–0.32 klog.Warning(err) of ' +
      'fmt.Errorf("%s: awaiting required bookmark event for initial events stream, no events ' +
      'received for %v") or fmt.Errorf("%s: hasn\'t received required bookmark event marking the ' +
      'end of initial events stream, received last event %v ago")',
    printf:
      /^(?<err>(?<reflector>.+?): (?:awaiting required bookmark event for initial events stream, no events received for|hasn't received required bookmark event marking the end of initial events stream, received last event) \S+(?: ago)?)$/,
  },
  {
    call: 'bookmark-expired',
    upstream: 'reflector.go 0.33+ t.logger.Info("Warning: event bookmark expired", "err", err)',
    msg: 'Warning: event bookmark expired',
    noReflectorKey: true,
  },
  {
    call: 'initial-events-end',
    upstream:
      'reflector.go handleWatch/handleAnyWatch 0.27–0.32 V(4).Infof("exiting %v Watch because ' +
      'received the bookmark that marks the end of initial events stream, total %v items received ' +
      'in %v", name, eventCount, watchDuration)',
    printf:
      /^exiting (?<reflector>.+?) Watch because received the bookmark that marks the end of initial events stream, total (?<totalItems>\d+) items received in (?<duration>\S+)$/,
  },
  {
    call: 'initial-events-end',
    upstream:
      'reflector.go handleAnyWatch 0.33+ V(4).Info("Exiting watch because received the bookmark ' +
      'that marks the end of initial events stream", "reflector", name, "totalItems", eventCount, ' +
      '"duration", watchDuration)',
    msg: 'Exiting watch because received the bookmark that marks the end of initial events stream',
  },
  {
    call: 'reflector-stopped',
    upstream:
      'reflector.go Run 0.18–0.21 V(2), 0.22–0.32 V(3).Infof("Stopping reflector %s (%s) from %s", ' +
      'type, resyncPeriod, name)',
    printf: /^Stopping reflector (?<type>.+?) \((?:.*?)\) from (?<reflector>.+)$/,
  },
  {
    call: 'reflector-stopped',
    upstream:
      'reflector.go Run 0.33+ V(3).Info("Stopping reflector", "type", …, "resyncPeriod", …, "reflector", …)',
    msg: 'Stopping reflector',
  },
  {
    call: 'list-start',
    upstream:
      'reflector.go ListAndWatch 0.17–0.32 V(3).Infof("Listing and watching %v from %s", type, name)',
    printf: /^Listing and watching (?<type>.+?) from (?<reflector>.+)$/,
  },
  {
    call: 'list-start',
    upstream: 'reflector.go 0.33+ V(3).Info("Listing and watching", "type", …, "reflector", …)',
    msg: 'Listing and watching',
  },
  {
    call: 'list-done',
    upstream:
      'reflector.go list 0.29–0.32 V(2).Infof("Caches populated for %v from %s", type, name)',
    printf: /^Caches populated for (?<type>.+?) from (?<reflector>.+)$/,
  },
  {
    call: 'list-done',
    upstream: 'reflector.go 0.33+ V(2).Info("Caches populated", "type", …, "reflector", …)',
    msg: 'Caches populated',
  },
  {
    call: 'watch-unexpected-eof',
    upstream:
      'reflector.go DefaultWatchErrorHandler 0.17–0.32 V(1).Infof("%s: Watch for %v closed with ' +
      'unexpected EOF: %v")',
    printf: /^(?<reflector>.+?): Watch for (?<type>.+?) closed with unexpected EOF: (?<err>.*)$/s,
  },
  {
    call: 'watch-unexpected-eof',
    upstream:
      'reflector.go DefaultWatchErrorHandler 0.33+ V(1).Info("Watch closed with unexpected EOF", ' +
      '"reflector", …, "type", …, "err", err) (tools/watch retrywatcher logs it too, without a reflector)',
    msg: 'Watch closed with unexpected EOF',
  },
  {
    call: 'watch-ended',
    upstream:
      'reflector.go 0.17–0.32 Warningf("%s: watch of %v ended with: %v") (0.17 also at V(4) for an ' +
      'expired watch), 0.18–0.32 V(4).Infof("%s: watch of %v closed with: %v") (an expired watch)',
    printf: /^(?<reflector>.+?): watch of (?<type>.+?) (?:ended|closed) with: (?<err>.*)$/s,
  },
  {
    call: 'watch-ended',
    upstream:
      'reflector.go 0.33+ V(4).Info("Watch closed", "reflector", …, "type", …, "err", err) (expired)',
    msg: 'Watch closed',
  },
  {
    call: 'watch-ended',
    upstream:
      'reflector.go 0.33+ logger.Info("Warning: watch ended with error", "reflector", …, "type", …, "err", err)',
    msg: 'Warning: watch ended with error',
  },
  {
    call: 'watch-backoff',
    upstream:
      'reflector.go 0.22–0.32 V(2).Infof("%s: watch of %v returned 429 - backing off"); 0.27–0.32 ' +
      'V(4).Infof("%s: watch of %v returned %v - backing off") and V(2).Infof("%s: watch-list of %v ' +
      'returned %v - backing off") (429 or connection refused)',
    printf:
      /^(?<reflector>.+?): watch(?:-list)? of (?<type>.+?) returned (?<err>.*) - backing off$/s,
  },
  {
    call: 'watch-backoff',
    upstream:
      'reflector.go 0.33+ V(2).Info("Watch returned 429 - backing off", "reflector", …, "type", …)',
    msg: 'Watch returned 429 - backing off',
  },
  {
    call: 'watch-backoff',
    upstream:
      'reflector.go 0.33+ V(4).Info("Watch failed - backing off", "reflector", …, "type", …, "err", err)',
    msg: 'Watch failed - backing off',
  },
  {
    call: 'watch-backoff',
    upstream:
      'reflector.go 0.33+ V(2).Info("watch-list failed - backing off", "reflector", …, "type", …, "err", err)',
    msg: 'watch-list failed - backing off',
  },
  {
    call: 'watch-internal-retry',
    upstream: 'reflector.go 0.25–0.32 V(2).Infof("%s: retrying watch of %v internal error: %v")',
    printf: /^(?<reflector>.+?): retrying watch of (?<type>.+?) internal error: (?<err>.*)$/s,
  },
  {
    call: 'watch-internal-retry',
    upstream:
      'reflector.go 0.33+ V(2).Info("Retrying watch after internal error", "reflector", …, "type", …, "err", err)',
    msg: 'Retrying watch after internal error',
  },
  {
    call: 'list-failed',
    upstream:
      'reflector.go DefaultWatchErrorHandler 0.19–0.32 HandleError(fmt.Errorf("%s: Failed to watch ' +
      '%v: %v")) of list\'s fmt.Errorf("failed to list %v: %w") (0.31–0.32 inside "Unhandled Error")',
    printf: /^(?<reflector>.+?): Failed to watch (?<type>.+?): failed to list .+?: (?<err>.*)$/s,
  },
  {
    call: 'watch-failed',
    upstream:
      'reflector.go DefaultWatchErrorHandler 0.17–0.32 HandleError(fmt.Errorf("%s: Failed to watch %v: %v"))',
    printf: /^(?<reflector>.+?): Failed to watch (?<type>.+?): (?<err>.*)$/s,
  },
  {
    call: 'watch-failed',
    upstream:
      'reflector.go DefaultWatchErrorHandler 0.33+ HandleErrorWithContext(ctx, err, "Failed to watch", ' +
      '"reflector", …, "type", …): list-failed when err is list\'s "failed to list TYPE: ERR"',
    msg: 'Failed to watch',
  },
  {
    call: 'list-failed',
    upstream:
      'reflector.go 0.17–0.18 fmt.Errorf("%s: Failed to list %v: %v") through HandleError; list ' +
      '0.23–0.32 Warningf("%s: failed to list %v: %v")',
    printf: /^(?<reflector>.+?): [Ff]ailed to list (?<type>.+?): (?<err>.*)$/s,
  },
  {
    call: 'watch-close',
    upstream: 'reflector.go 0.17–0.32 V(4).Infof("%s: Watch close - %v total %v items received")',
    printf:
      /^(?<reflector>.+?): Watch close - (?<type>.+?) total (?<totalItems>\d+) items received$/,
  },
  {
    call: 'watch-close',
    upstream:
      'reflector.go handleAnyWatch 0.33+ V(4).Info("Watch close", "reflector", name, "type", ' +
      'expectedTypeName, "totalItems", eventCount)',
    msg: 'Watch close',
  },
];

/** What one reflector log line says, as the table reads it. */
export interface ReflectorLogLine {
  call: ReflectorCall;
  /** A printf message, or a structured one (0.33+, and metadata.go's 0.32). */
  form: 'printf' | 'structured';
  /** The printf message after `NAME: ` (the whole message when it does not start so), or the msg. */
  text: string;
  reflector?: string;
  type?: string;
  /** The error the line carries, as client-go printed it. */
  err?: string;
  totalItems?: string;
  duration?: string;
}

const printfCalls = reflectorLogCalls.filter((c) => c.printf);
const structuredCalls = new Map(
  reflectorLogCalls.flatMap((c) => (c.msg === undefined ? [] : [[c.msg, c] as const])),
);
const structuredPrefixes = reflectorLogCalls.filter((c) => c.msgPrefix !== undefined);

/** The reflector call of a printf message (after the klog header), or undefined. */
export function printfReflectorLogLine(message: string): ReflectorLogLine | undefined {
  for (const c of printfCalls) {
    const m = c.printf?.exec(message);
    if (!m) continue;
    const line: ReflectorLogLine = { call: c.call, form: 'printf', text: message };
    for (const k of ['reflector', 'type', 'err', 'totalItems', 'duration'] as const)
      if (m.groups?.[k] !== undefined) line[k] = m.groups[k];
    if (line.reflector !== undefined && message.startsWith(`${line.reflector}: `))
      line.text = message.slice(line.reflector.length + 2);
    // An in-stream 429 names no error, only its code.
    if (c.call === 'watch-backoff' && line.err === '429') delete line.err;
    return line;
  }
  return undefined;
}

/** The reflector call of a structured message (klog key/values or JSON), or undefined. */
export function structuredReflectorLogLine(
  msg: string,
  values: ReadonlyMap<string, string>,
): ReflectorLogLine | undefined {
  const err = values.get('err');
  // 0.31–0.32: utilruntime.HandleError's "Unhandled Error" carries the printf message as err.
  if (msg === 'Unhandled Error') return err === undefined ? undefined : printfReflectorLogLine(err);
  const c =
    structuredCalls.get(msg) ??
    structuredPrefixes.find((p) => p.msgPrefix !== undefined && msg.startsWith(p.msgPrefix));
  if (c === undefined) return undefined;
  const reflector = values.get('reflector');
  if (reflector === undefined && !c.noReflectorKey) return undefined;
  const line: ReflectorLogLine = { call: c.call, form: 'structured', text: msg };
  const type = values.get('type') ?? values.get('resource');
  if (reflector !== undefined) line.reflector = reflector;
  if (type !== undefined) line.type = type;
  if (err !== undefined) line.err = err;
  for (const k of ['totalItems', 'duration'] as const) {
    const v = values.get(k);
    if (v !== undefined) line[k] = v;
  }
  // HandleErrorWithContext's "Failed to watch" carries list's error when the LIST failed.
  const listed =
    c.call === 'watch-failed' && err !== undefined && /^failed to list .+?: (.*)$/s.exec(err);
  if (listed) {
    line.call = 'list-failed';
    line.err = listed[1];
  }
  return line;
}
