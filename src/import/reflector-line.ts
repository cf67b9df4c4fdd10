// Mirrors the log lines of k8s.io/client-go tools/cache/reflector.go (checked at v0.17.0, v0.20.0,
// v0.27.0, v0.30.0, v0.32.0, v0.33.0 and master) and the resource its type names, as
// k8s.io/apimachinery pkg/api/meta/restmapper.go UnsafeGuessKindToResource guesses it.
// printf (0.17–0.32): `NAME: watch of *v1.Pod ended with: ERR`, `Listing and watching *v1.Pod
// from NAME`, `Stopping reflector *v1.Pod (0s) from NAME`, `NAME: Failed to watch *v1.Pod: failed to list *v1.Pod: ERR` (0.31–0.32 wrap the
// HandleError ones in `"Unhandled Error" err="…"`); structured (0.33+): `"Watch close"
// reflector=… type=… totalItems=12`, `"Stopping reflector" type=… reflector=…`, `"Warning: watch ended with error" … err=…`. The end of a
// WatchList watch's initial events (handleAnyWatch, V(4), 0.27+; checked at v0.27.0–v0.36.0):
// printf `exiting NAME Watch because received the bookmark that marks the end of initial events
// stream, total 3 items received in 45.6ms` up to 0.32, structured from 0.33.
import type { KlogStructured } from './klog-entry';
import { parseGoDuration } from './klog-key-values';
import { watchExpiredText } from '../run/watch-expired-text';

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

/** Structured messages of a WatchList request that fell back to a LIST (0.33–0.34, 0.35+). */
const watchListFallbackMsgs = [
  'The watchlist request ended with an error',
  "Data couldn't be fetched in watchlist mode. Falling back to regular list.",
];

/** The message of the end of a WatchList watch's initial events, 0.33+ (structured). */
const initialEventsEndMsg =
  'Exiting watch because received the bookmark that marks the end of initial events stream';

type PrintfRule = [RegExp, (m: RegExpExecArray) => ReflectorEvent];

// NAME and TYPE are lazy: a reflector's name may hold spaces (`shared informer`), and an
// unstructured type is `group/version, Kind=K`; the fixed words between them anchor the match.
const printfRules: PrintfRule[] = [
  [
    /^The watchlist request (?:for .+? )?ended with an error, falling back to the standard LIST(?:\/WATCH)? semantics(?: because making progress is better than deadlocking)?, err = (.*)$/s,
    (m) => ({ kind: 'watch-list-fallback', reflector: '', err: m[1] }),
  ],
  [
    /^Stopping reflector (.+?) \((.*?)\) from (.+)$/,
    (m) => ({ kind: 'stop', reflector: m[3], type: m[1] }),
  ],
  [
    /^Listing and watching (.+?) from (.+)$/,
    (m) => ({ kind: 'list-start', reflector: m[2], type: m[1] }),
  ],
  [
    /^Caches populated for (.+?) from (.+)$/,
    (m) => ({ kind: 'list-done', reflector: m[2], type: m[1] }),
  ],
  [
    /^(.+?): Failed to watch (.+?): failed to list .+?: (.*)$/s,
    (m) => ({ kind: 'list-failed', reflector: m[1], type: m[2], err: m[3] }),
  ],
  [
    /^(.+?): [Ff]ailed to list (.+?): (.*)$/s,
    (m) => ({ kind: 'list-failed', reflector: m[1], type: m[2], err: m[3] }),
  ],
  [
    /^(.+?): watch of (.+?) returned 429 - backing off$/,
    (m) => watchEnd(m[1], m[2], `watch of ${m[2]} returned 429 - backing off`, undefined, 429),
  ],
  [
    /^(.+?): (watch(?:-list)? of (.+?) (?:ended|closed) with: |watch(?:-list)? of (.+?) returned |retrying watch of (.+?) internal error: |Watch for (.+?) closed with unexpected EOF: |Failed to watch (.+?): )(.*)$/s,
    (m) => watchEnd(m[1], m[3] ?? m[4] ?? m[5] ?? m[6] ?? m[7], m[2] + m[8], m[8]),
  ],
  [
    /^exiting (.+?) Watch because received the bookmark that marks the end of initial events stream, total (\d+) items received in (\S+)$/,
    (m) => initialEventsEnd(m[1], m[2], m[3]),
  ],
  [
    /^(.+?): Watch close - (.+?) total (\d+) items received$/,
    (m) => watchEnd(m[1], m[2], `Watch close - ${m[2]} total ${m[3]} items received`),
  ],
];

/** The event of a printf reflector message (after the klog header), or undefined. */
export function printfReflectorEvent(message: string): ReflectorEvent | undefined {
  for (const [re, make] of printfRules) {
    const m = re.exec(message);
    if (m) return make(m);
  }
  return undefined;
}

/** Structured messages of a watch that ended (reflector.go 0.33+), by their msg. */
const structuredWatchEnds = new Set([
  'Watch close',
  'Watch closed',
  'Watch closed with unexpected EOF',
  'Warning: watch ended with error',
  'Watch failed - backing off',
  'Watch returned 429 - backing off',
  'Retrying watch after internal error',
  'watch-list failed - backing off',
]);

/** The event of a structured reflector entry, or undefined. */
export function structuredReflectorEvent(e: KlogStructured): ReflectorEvent | undefined {
  const reflector = e.values.get('reflector');
  const type = e.values.get('type') ?? '';
  const err = e.values.get('err');
  // 0.31–0.32: utilruntime.HandleError's "Unhandled Error" carries the printf message as err.
  if (e.msg === 'Unhandled Error' && err !== undefined) return printfReflectorEvent(err);
  // reflector.go's logger.Error (0.33–0.34) and V(4) Info (0.35+) name no reflector.
  if (watchListFallbackMsgs.some((m) => e.msg.startsWith(m)) && err !== undefined)
    return { kind: 'watch-list-fallback', reflector: reflector ?? '', err };
  if (reflector === undefined) return undefined;
  switch (e.msg) {
    case initialEventsEndMsg:
      return initialEventsEnd(reflector, e.values.get('totalItems'), e.values.get('duration'));
    case 'Listing and watching':
      return { kind: 'list-start', reflector, type };
    case 'Caches populated':
      return { kind: 'list-done', reflector, type };
    case 'Stopping reflector':
      return { kind: 'stop', reflector, type };
    case 'Failed to watch':
      if (err?.startsWith('failed to list '))
        return {
          kind: 'list-failed',
          reflector,
          type,
          err: err.replace(/^failed to list .+?: /s, ''),
        };
      return watchEnd(reflector, type, `Failed to watch: ${err ?? ''}`, err);
  }
  if (!structuredWatchEnds.has(e.msg)) return undefined;
  if (e.msg === 'Watch returned 429 - backing off')
    return watchEnd(reflector, type, e.msg, undefined, 429);
  const total = e.values.get('totalItems');
  const message =
    err !== undefined
      ? `${e.msg}: ${err}`
      : total !== undefined
        ? `${e.msg}: totalItems=${total}`
        : e.msg;
  return watchEnd(reflector, type, message, err);
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
  err?: string,
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
