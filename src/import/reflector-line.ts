// Mirrors what k8s.io/client-go tools/cache/reflector.go's log lines mean to a run (the calls
// themselves are read by client-go-reflector-log-calls.ts, the one table of them), and the resource
// a reflector's type names, as k8s.io/apimachinery pkg/api/meta/restmapper.go
// UnsafeGuessKindToResource guesses it.
import { isStructuredMessage, readStructured, type KlogStructured } from './klog-entry';
import { parseGoDuration } from './klog-key-values';
import { watchExpiredText } from '../run/watch-expired-text';
import {
  printfReflectorLogLine,
  structuredReflectorLogLine,
  type ReflectorLogLine,
} from './client-go-reflector-log-calls';

/** What a reflector line says. */
export type ReflectorEvent =
  | { kind: 'list-start'; reflector: string; type: string }
  | { kind: 'list-done'; reflector: string; type: string }
  | { kind: 'list-failed'; reflector: string; type: string; err: string }
  /** A watch ended: `message` says how (the error when there is one). */
  | {
      kind: 'watch-end';
      reflector: string;
      type: string;
      message: string;
      /** The error the watch ended with, when the line names one. */
      err?: string;
      code?: number;
    }
  /**
   * A WatchList watch ended with an error before its initial events did, and the client lists
   * instead (reflector.go ListAndWatch 0.29–0.34: `The watchlist request ended with an error,
   * falling back to the standard LIST/WATCH semantics …`, 0.35+: `Data couldn't be fetched in
   * watchlist mode. Falling back to regular list. …`; dynamic/simple.go's List: `The watchlist
   * request for R ended with an error, falling back to the standard LIST semantics, err = …`). The watch
   * was the client's list: what follows is that list again, in the same ListAndWatch.
   */
  | { kind: 'watch-list-fallback'; reflector: string; err: string }
  /**
   * A WatchList watch has not read its initial-events-end bookmark in time
   * (initialEventsEndBookmarkTicker.warnIfExpired, 0.31+): nothing ended, the watch goes on.
   */
  | { kind: 'bookmark-expired'; reflector: string; err: string }
  /**
   * The reflector stopped (its stop channel closed: kubectl wait's deadline, an informer's
   * shutdown): its watch, if one was open, ended with it (reflector.go Run, V(3)).
   */
  | { kind: 'stop'; reflector: string; type: string }
  /**
   * A WatchList watch read the bookmark that ends its initial events (k8s.io/initial-events-end):
   * the reflector's list is over, the same watch goes on (reflector.go watchList).
   */
  | {
      kind: 'initial-events-end';
      reflector: string;
      /** Events read up to and including the bookmark (eventCount). */
      totalItems?: number;
      /** From the watch's start to the bookmark, as the reflector measured it. */
      durationMs?: number;
    };

/** The event of a klog message (after the header), printf or structured, or undefined. */
export function reflectorEventOf(message: string): ReflectorEvent | undefined {
  if (!isStructuredMessage(message)) return printfReflectorEvent(message);
  const e = readStructured(message);
  return e.kind === 'done' ? structuredReflectorEvent(e.entry) : undefined;
}

/** The event of a printf reflector message (after the klog header), or undefined. */
export function printfReflectorEvent(message: string): ReflectorEvent | undefined {
  const line = printfReflectorLogLine(message);
  return line && reflectorEvent(line);
}

/** The event of a structured reflector entry, or undefined. */
export function structuredReflectorEvent(e: KlogStructured): ReflectorEvent | undefined {
  const line = structuredReflectorLogLine(e.msg, e.values);
  return line && reflectorEvent(line);
}

/** What the import makes of a reflector call (client-go-reflector-log-calls.ts reads the line). */
export function reflectorEvent(line: ReflectorLogLine): ReflectorEvent {
  const { reflector = '', type = '', err } = line;
  switch (line.call) {
    case 'list-start':
      return { kind: 'list-start', reflector, type };
    case 'list-done':
      return { kind: 'list-done', reflector, type };
    case 'reflector-stopped':
      return { kind: 'stop', reflector, type };
    case 'list-failed':
      return { kind: 'list-failed', reflector, type, err: err ?? '' };
    case 'initial-events-end':
      return initialEventsEnd(reflector, line.totalItems, line.duration);
    case 'bookmark-expired':
      return { kind: 'bookmark-expired', reflector, err: err ?? line.text };
    case 'watch-list-fallback':
      // 0.27–0.28's fallback names no error: its words say why.
      return { kind: 'watch-list-fallback', reflector, err: err ?? line.text };
    case 'watch-ended':
    case 'watch-unexpected-eof':
    case 'watch-failed':
    case 'watch-backoff':
    case 'watch-internal-retry':
    case 'watch-close':
      // A backoff without an error is the in-stream 429 (`returned 429`).
      return watchEnd(
        reflector,
        type,
        watchEndMessage(line),
        err,
        line.call === 'watch-backoff' && err === undefined ? 429 : undefined,
      );
  }
}

/** How a watch ended, in the log's words: the printf message after `NAME: `, or msg and err. */
function watchEndMessage(line: ReflectorLogLine): string {
  if (line.form === 'printf') return line.text;
  if (line.call === 'watch-backoff' && line.err === undefined) return line.text;
  if (line.call === 'watch-failed') return `${line.text}: ${line.err ?? ''}`;
  if (line.err !== undefined) return `${line.text}: ${line.err}`;
  if (line.totalItems !== undefined) return `${line.text}: totalItems=${line.totalItems}`;
  return line.text;
}

function initialEventsEnd(
  reflector: string,
  totalItems: string | undefined,
  duration: string | undefined,
): ReflectorEvent {
  const e: ReflectorEvent = { kind: 'initial-events-end', reflector };
  const n = Number(totalItems ?? '');
  if (totalItems !== undefined && Number.isSafeInteger(n) && n >= 0) e.totalItems = n;
  const ms = duration !== undefined ? parseGoDuration(duration) : undefined;
  if (ms !== undefined) e.durationMs = ms;
  return e;
}

function watchEnd(
  reflector: string,
  type: string,
  message: string,
  err: string | undefined,
  code = err === undefined ? undefined : codeOf(err),
): ReflectorEvent {
  const e: ReflectorEvent = { kind: 'watch-end', reflector, type, message };
  if (err !== undefined) e.err = err;
  if (code !== undefined) e.code = code;
  return e;
}

/**
 * The HTTP code an error text implies: an expired watch (the watch cache's `too old resource
 * version: 5 (7)`, the etcd3 store's `The resourceVersion for the provided watch is too old.`) and
 * the etcd3 store's expired continue token are 410 Expired (apierrors.NewResourceExpired).
 */
export function codeOf(err: string): number | undefined {
  if (watchExpiredText.test(err) || /continue parameter is too old|\(Expired\)|\(Gone\)/.test(err))
    return 410;
  if (/\(TooManyRequests\)|the server has received too many requests/.test(err)) return 429;
  if (/\(Timeout\)|the server was unable to return a response in the time allotted/.test(err))
    return 504;
  return undefined;
}

/** The resource a reflector's type names: `*v1.Pod` → pods; `stable.example.com/v1, Kind=CronTab` → crontabs. */
export function resourceOfType(
  type: string,
  reflector = '',
): { resource?: string; apiGroup?: string } {
  // A dynamic informer's name may carry its GroupVersionResource.
  const gvr = /(?:^|[\s(])([a-z0-9.-]*)\/?(v\w+), Resource=([a-z0-9.-]+)/.exec(reflector);
  const gvk = /^([^/,\s]*)\/(v\w+), Kind=(\w+)$/.exec(type);
  if (gvk) return withGroup(unsafeGuessKindToResource(gvk[3]), gvk[1]);
  if (gvr) return withGroup(gvr[3], gvr[1]);
  const typed = /^\*?\w+\.(\w+)$/.exec(type);
  if (!typed || ['Unstructured', 'PartialObjectMetadata'].includes(typed[1])) return {};
  return { resource: unsafeGuessKindToResource(typed[1]) };
}

function withGroup(resource: string, apiGroup: string): { resource: string; apiGroup?: string } {
  return apiGroup === '' ? { resource } : { resource, apiGroup };
}

/** Kinds that are both singular and plural (unpluralizedSuffixes). */
const unpluralizedSuffixes = ['endpoints'];

/** UnsafeGuessKindToResource's plural: lower case, then -es after s, -ies for y, else -s. */
export function unsafeGuessKindToResource(kind: string): string {
  const singular = kind.toLowerCase();
  if (unpluralizedSuffixes.some((s) => singular.endsWith(s))) return singular;
  if (singular.endsWith('s')) return `${singular}es`;
  if (singular.endsWith('y')) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}
