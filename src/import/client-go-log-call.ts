// Mirrors the log calls of k8s.io/client-go tools/cache/reflector.go (read at release-1.27 …
// release-1.36, and v0.17.0–v0.20.0 for the older words) and dynamic/simple.go, metadata/metadata.go:
// which call printed a line, its reflector, type and error. No explanation here (that is
// client-go-log-explanations.ts): this is the cheap part the extension's entry runs on the line under
// the cursor before it loads the catalogue. Printf-style up to 0.32, structured (klog key/values)
// from 0.33; 0.31–0.32 wrap HandleError's lines in `"Unhandled Error" err="…"`; a line may come
// without its klog header (pasted) or as klog's JSON (`{"msg":…,"err":…}`, --logging-format=json).
import { isStructuredMessage, parseKlogLine, readQuoted, readStructured } from './klog-entry';

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

export interface ClientGoLogLine {
  call: ClientGoLogCall;
  /** Where the message starts in the line (after the klog header): a hover covers it. */
  start: number;
  /** The reflector's name (its caller's file:line, or the name it was given), when the line has it. */
  reflector?: string;
  /** The reflector's type: `*v1.Pod`, `stable.example.com/v1, Kind=CronTab`. */
  type?: string;
  /** The error the line carries, as client-go printed it. */
  err?: string;
}

/** Longest line read: a klog line with a whole object in it is long, a minified file is not a log. */
export const maxClientGoLogLineLength = 64 * 1024;

type Fields = Omit<ClientGoLogLine, 'start'>;
type PrintfRule = [RegExp, (m: RegExpExecArray) => Fields];

// printf messages (0.17–0.32), each with its format string. NAME and TYPE are lazy: a reflector's
// name may hold spaces, an unstructured type is `group/version, Kind=K`; the fixed words anchor.
const printfRules: readonly PrintfRule[] = [
  // 0.31–0.32 initialEventsEndBookmarkTicker.warnIfExpired: klog.Warning(err) of
  // fmt.Errorf("%s: awaiting required bookmark event for initial events stream, no events received for %v", t.name, …)
  // fmt.Errorf("%s: hasn't received required bookmark event marking the end of initial events stream, received last event %v ago", t.name, …)
  [
    /^(.+?): (?:awaiting required bookmark event for initial events stream, no events received for|hasn't received required bookmark event marking the end of initial events stream, received last event) \S+(?: ago)?$/,
    (m) => ({ call: 'bookmark-expired', reflector: m[1], err: m[0] }),
  ],
  // 0.27–0.32 handleWatch / handleAnyWatch, V(4):
  // "exiting %v Watch because received the bookmark that marks the end of initial events stream, total %v items received in %v"
  [
    /^exiting (.+?) Watch because received the bookmark that marks the end of initial events stream, total \d+ items received in \S+$/,
    (m) => ({ call: 'initial-events-end', reflector: m[1] }),
  ],
  // 0.29–0.32 ListAndWatch: "The watchlist request ended with an error, falling back to the
  // standard LIST/WATCH semantics because making progress is better than deadlocking, err = %v";
  // 0.31–0.33 dynamic/simple.go List: "The watchlist request for %v ended with an error, falling
  // back to the standard LIST semantics, err = %v".
  [
    /^The watchlist request (?:for (.+?) )?ended with an error, falling back to the standard LIST(?:\/WATCH)? semantics(?: because making progress is better than deadlocking)?, err = (.*)$/s,
    (m) => ({ call: 'watch-list-fallback', ...(m[1] ? { type: m[1] } : {}), err: m[2] }),
  ],
  // 0.17–0.32 DefaultWatchErrorHandler, V(1): "%s: Watch for %v closed with unexpected EOF: %v"
  [
    /^(.+?): Watch for (.+?) closed with unexpected EOF: (.*)$/s,
    (m) => ({ call: 'watch-unexpected-eof', reflector: m[1], type: m[2], err: m[3] }),
  ],
  // 0.17–0.32: "%s: watch of %v closed with: %v" (V(4), an expired watch from 0.18),
  // "%s: watch of %v ended with: %v" (Warning; V(4) for an expired one in 0.17).
  [
    /^(.+?): watch of (.+?) (?:ended|closed) with: (.*)$/s,
    (m) => ({ call: 'watch-ended', reflector: m[1], type: m[2], err: m[3] }),
  ],
  // 0.24–0.32, V(2): "%s: watch of %v returned 429 - backing off" (an in-stream 429);
  // 0.27–0.32, V(4): "%s: watch of %v returned %v - backing off" (the watch request refused).
  [
    /^(.+?): watch of (.+?) returned (.*) - backing off$/s,
    (m) => ({
      call: 'watch-backoff',
      reflector: m[1],
      type: m[2],
      ...(m[3] === '429' ? {} : { err: m[3] }),
    }),
  ],
  // 0.26–0.32, V(2): "%s: retrying watch of %v internal error: %v"
  [
    /^(.+?): retrying watch of (.+?) internal error: (.*)$/s,
    (m) => ({ call: 'watch-internal-retry', reflector: m[1], type: m[2], err: m[3] }),
  ],
  // 0.17–0.32 DefaultWatchErrorHandler: HandleError(fmt.Errorf("%s: Failed to watch %v: %v", …)),
  // whose error is list's fmt.Errorf("failed to list %v: %w", …) when the LIST failed (0.19+).
  [
    /^(.+?): Failed to watch (.+?): failed to list .+?: (.*)$/s,
    (m) => ({ call: 'list-failed', reflector: m[1], type: m[2], err: m[3] }),
  ],
  [
    /^(.+?): Failed to watch (.+?): (.*)$/s,
    (m) => ({ call: 'watch-failed', reflector: m[1], type: m[2], err: m[3] }),
  ],
  // 0.24–0.32 list, Warning: "%s: failed to list %v: %v"; 0.17–0.18 "%s: Failed to list %v: %v".
  [
    /^(.+?): [Ff]ailed to list (.+?): (.*)$/s,
    (m) => ({ call: 'list-failed', reflector: m[1], type: m[2], err: m[3] }),
  ],
  // 0.17–0.32, V(4): "%s: Watch close - %v total %v items received"
  [
    /^(.+?): Watch close - (.+?) total \d+ items received$/,
    (m) => ({ call: 'watch-close', reflector: m[1], type: m[2] }),
  ],
];

/** Structured messages (0.33+) by their msg. */
const structuredCalls: ReadonlyMap<string, ClientGoLogCall> = new Map([
  // t.logger.Info("Warning: event bookmark expired", "err", err)
  ['Warning: event bookmark expired', 'bookmark-expired'],
  // V(4).Info("Exiting watch because received the bookmark that marks the end of initial events stream", "reflector", name, "totalItems", eventCount, "duration", watchDuration)
  [
    'Exiting watch because received the bookmark that marks the end of initial events stream',
    'initial-events-end',
  ],
  // 0.33–0.34 ListAndWatch: logger.Error(err, "The watchlist request ended with an error, falling back to the standard LIST/WATCH semantics because making progress is better than deadlocking")
  [
    'The watchlist request ended with an error, falling back to the standard LIST/WATCH semantics because making progress is better than deadlocking',
    'watch-list-fallback',
  ],
  // 0.32–0.33 metadata.go List: Error(err, "The watchlist request ended with an error, falling back to the standard LIST semantics", "resource", c.resource)
  [
    'The watchlist request ended with an error, falling back to the standard LIST semantics',
    'watch-list-fallback',
  ],
  // 0.35+ ListAndWatchWithContext, V(4): Info("Data couldn't be fetched in watchlist mode. Falling back to regular list. This is expected if watchlist is not supported or disabled in kube-apiserver.", "err", err)
  [
    "Data couldn't be fetched in watchlist mode. Falling back to regular list. This is expected if watchlist is not supported or disabled in kube-apiserver.",
    'watch-list-fallback',
  ],
  // DefaultWatchErrorHandler, V(1): Info("Watch closed with unexpected EOF", "reflector", …, "type", …, "err", err)
  ['Watch closed with unexpected EOF', 'watch-unexpected-eof'],
  // V(4).Info("Watch closed", "reflector", …, "type", …, "err", err) (an expired watch)
  ['Watch closed', 'watch-ended'],
  // logger.Info("Warning: watch ended with error", "reflector", …, "type", …, "err", err)
  ['Warning: watch ended with error', 'watch-ended'],
  // HandleErrorWithContext(ctx, err, "Failed to watch", "reflector", …, "type", …): split below
  ['Failed to watch', 'watch-failed'],
  // V(2).Info("Watch returned 429 - backing off", …); V(4).Info("Watch failed - backing off", …, "err", err);
  // V(2).Info("watch-list failed - backing off", …, "err", err)
  ['Watch returned 429 - backing off', 'watch-backoff'],
  ['Watch failed - backing off', 'watch-backoff'],
  ['watch-list failed - backing off', 'watch-backoff'],
  // V(2).Info("Retrying watch after internal error", "reflector", …, "type", …, "err", err)
  ['Retrying watch after internal error', 'watch-internal-retry'],
  // V(4).Info("Watch close", "reflector", name, "type", expectedTypeName, "totalItems", eventCount)
  ['Watch close', 'watch-close'],
]);

function printfCall(message: string): Fields | undefined {
  for (const [re, make] of printfRules) {
    const m = re.exec(message);
    if (m) return make(m);
  }
  return undefined;
}

function structuredCall(msg: string, values: ReadonlyMap<string, string>): Fields | undefined {
  const err = values.get('err');
  // 0.31–0.32: utilruntime.HandleError's "Unhandled Error" carries the printf message as err.
  if (msg === 'Unhandled Error') return err === undefined ? undefined : printfCall(err);
  let call = structuredCalls.get(msg);
  if (call === undefined) return undefined;
  const reflector = values.get('reflector');
  // The reflector's own lines name it (tools/watch's retrywatcher also logs "Watch closed with
  // unexpected EOF", without one); the ticker's warning and the fallbacks carry no reflector key.
  if (reflector === undefined && call !== 'bookmark-expired' && call !== 'watch-list-fallback')
    return undefined;
  const fields: Fields = { call };
  const type = values.get('type') ?? values.get('resource');
  if (reflector !== undefined) fields.reflector = reflector;
  if (type !== undefined) fields.type = type;
  if (err !== undefined) fields.err = err;
  if (call === 'watch-failed' && err !== undefined) {
    const listed = /^failed to list .+?: (.*)$/s.exec(err);
    if (listed) {
      call = 'list-failed';
      fields.call = call;
      fields.err = listed[1];
    }
  }
  return fields;
}

/**
 * The key/values of a structured message cut short or otherwise unreadable by readStructured
 * (a pasted line missing its closing quote): the quoted ones that can be read, and an err that
 * runs to the end of the line.
 */
function lenientValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const m of text.matchAll(/ ([\w.-]+)="/g)) {
    const at = m.index + m[0].length - 1;
    const v = readQuoted(text, at);
    if (typeof v !== 'string') values.set(m[1], v.value);
    else if (m[1] === 'err') values.set('err', text.slice(at + 1).replace(/\\"/g, '"'));
  }
  return values;
}

function jsonCall(text: string): Fields | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
  const { msg } = entry as Record<string, unknown>;
  if (typeof msg !== 'string') return undefined;
  const values = new Map<string, string>();
  for (const [k, v] of Object.entries(entry))
    if (typeof v === 'string' || typeof v === 'number') values.set(k, String(v));
  return structuredCall(msg, values);
}

function messageCall(message: string): Fields | undefined {
  if (!isStructuredMessage(message)) return printfCall(message);
  const read = readStructured(message);
  if (read.kind === 'done') return structuredCall(read.entry.msg, read.entry.values);
  const msg = readQuoted(message, 0);
  return typeof msg === 'string' ? undefined : structuredCall(msg.value, lenientValues(message));
}

/** The client-go reflector call that printed `text` (one line of a log), or undefined. */
export function readClientGoLogLine(text: string): ClientGoLogLine | undefined {
  if (text.length > maxClientGoLogLineLength) return undefined;
  const k = parseKlogLine(text, 2000);
  if (typeof k === 'object') {
    const start = text.length - k.message.length;
    const fields = messageCall(k.message);
    return fields && { ...fields, start };
  }
  // A header that breaks klog's rules (a date that does not exist): read the message after it.
  if (typeof k === 'string') {
    const end = text.indexOf('] ');
    const fields = end < 0 ? undefined : messageCall(text.slice(end + 2));
    return fields && { ...fields, start: end + 2 };
  }
  // A line without its header: the message pasted alone, or klog's JSON format.
  const trimmed = text.trimStart();
  const start = text.length - trimmed.length;
  const message = trimmed.trimEnd();
  const fields = message.startsWith('{') ? jsonCall(message) : messageCall(message);
  return fields && { ...fields, start };
}
