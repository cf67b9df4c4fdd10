// The one table of client-go's reflector log calls (src/import/client-go-reflector-log-calls.ts):
// every upstream message form, one line per version form as the tag's format string or klog call
// prints it (tools/cache/reflector.go, dynamic/simple.go, gentype/type.go, metadata/metadata.go at
// v0.17.0 … v0.36.0), and what each reader makes of it: the import's ReflectorEvent and explain-log's
// call. A row added to the table without a line here fails the last case.
import * as assert from 'assert';
import { readClientGoLogLine } from '../../../src/import/client-go-log-call';
import { reflectorLogCalls } from '../../../src/import/client-go-reflector-log-calls';
import { parseKlogLine } from '../../../src/import/klog-entry';
import { reflectorEventOf, type ReflectorEvent } from '../../../src/import/reflector-line';

const N = 'pkg/mod/k8s.io/client-go@v0.30.0/tools/cache/reflector.go:232';
const R = 'k8s.io/client-go/informers/factory.go:160';
const header = (file: string) => `I0312 10:00:00.000100    4101 ${file}] `;
const refl = header('reflector.go:400');

/** The import's reading of a whole klog line. */
function eventOf(line: string): ReflectorEvent | undefined {
  const k = parseKlogLine(line, 2026);
  return typeof k === 'object' ? reflectorEventOf(k.message) : undefined;
}

/** explain-log's reading, without where the message starts. */
function callOf(line: string): object | undefined {
  const l = readClientGoLogLine(line);
  if (!l) return undefined;
  const fields: Partial<typeof l> = { ...l };
  delete fields.start;
  return fields;
}

const expired = 'too old resource version: 5 (7)';
const leader = 'etcdserver: leader changed';
const refused =
  'Get "https://10.96.0.1:443/api/v1/pods?watch=true": dial tcp 10.96.0.1:443: connect: connection refused';
const tooMany = 'the server has received too many requests and has asked us to try again later';
const watchEnd = (message: string, err?: string, code?: number): ReflectorEvent => ({
  kind: 'watch-end',
  reflector: N,
  type: '*v1.Pod',
  message,
  ...(err !== undefined ? { err } : {}),
  ...(code !== undefined ? { code } : {}),
});
const sWatchEnd = (message: string, err?: string, code?: number): ReflectorEvent => ({
  ...watchEnd(message, err, code),
  reflector: R,
});
const fallbackNoStart =
  'the watch-list feature is not supported by the server, falling back to the previous LIST/WATCH semantic';
const awaiting = `${N}: awaiting required bookmark event for initial events stream, no events received for 10.000712042s`;
const noEnd = `${N}: hasn't received required bookmark event marking the end of initial events stream, received last event 12.5s ago`;
const sAwaiting = `${R}: awaiting required bookmark event for initial events stream, no events received for 10.001209542s`;

/** [upstream form, line, the import's event, explain-log's call (undefined: not recognised)]. */
const cases: Array<[string, string, ReflectorEvent | undefined, object | undefined]> = [
  // ---- printf (0.17–0.32), and the typed/dynamic clients' (0.31–0.33) ----
  [
    'reflector.go 0.29–0.32 Warningf: watchlist request ended with an error',
    `${refl}The watchlist request ended with an error, falling back to the standard LIST/WATCH semantics because making progress is better than deadlocking, err = unknown (get pods)`,
    { kind: 'watch-list-fallback', reflector: '', err: 'unknown (get pods)' },
    { call: 'watch-list-fallback', err: 'unknown (get pods)' },
  ],
  [
    'dynamic/simple.go 0.31–0.33 Warningf: the watchlist request for R',
    `${header('simple.go:251')}The watchlist request for /v1, Resource=pods ended with an error, falling back to the standard LIST semantics, err = unknown (get pods)`,
    { kind: 'watch-list-fallback', reflector: '', err: 'unknown (get pods)' },
    { call: 'watch-list-fallback', type: '/v1, Resource=pods', err: 'unknown (get pods)' },
  ],
  [
    'gentype/type.go 0.31–0.33 Warningf: the watchlist request for R',
    `${header('type.go:323')}The watchlist request for pods ended with an error, falling back to the standard LIST semantics, err = unknown (get pods)`,
    { kind: 'watch-list-fallback', reflector: '', err: 'unknown (get pods)' },
    { call: 'watch-list-fallback', type: 'pods', err: 'unknown (get pods)' },
  ],
  [
    'reflector.go 0.27–0.28 Warning: the watch-list feature is not supported',
    `${refl}${fallbackNoStart}`,
    { kind: 'watch-list-fallback', reflector: '', err: fallbackNoStart },
    { call: 'watch-list-fallback' },
  ],
  [
    'reflector.go 0.31–0.32 Warning(err): awaiting required bookmark',
    `${refl}${awaiting}`,
    { kind: 'bookmark-expired', reflector: N, err: awaiting },
    { call: 'bookmark-expired', reflector: N, err: awaiting },
  ],
  [
    "reflector.go 0.31–0.32 Warning(err): hasn't received required bookmark",
    `${refl}${noEnd}`,
    { kind: 'bookmark-expired', reflector: N, err: noEnd },
    { call: 'bookmark-expired', reflector: N, err: noEnd },
  ],
  [
    'reflector.go 0.27–0.32 V(4): exiting NAME Watch because received the bookmark',
    `${refl}exiting ${N} Watch because received the bookmark that marks the end of initial events stream, total 13 items received in 250ms`,
    { kind: 'initial-events-end', reflector: N, totalItems: 13, durationMs: 250 },
    { call: 'initial-events-end', reflector: N },
  ],
  [
    'reflector.go 0.18–0.32 Stopping reflector',
    `${refl}Stopping reflector *v1.Pod (0s) from ${N}`,
    { kind: 'stop', reflector: N, type: '*v1.Pod' },
    undefined,
  ],
  [
    'reflector.go 0.17–0.32 Listing and watching',
    `${refl}Listing and watching *v1.Pod from ${N}`,
    { kind: 'list-start', reflector: N, type: '*v1.Pod' },
    undefined,
  ],
  [
    'reflector.go 0.29–0.32 Caches populated',
    `${refl}Caches populated for *v1.Pod from ${N}`,
    { kind: 'list-done', reflector: N, type: '*v1.Pod' },
    undefined,
  ],
  [
    'reflector.go 0.17–0.32 V(1): Watch for TYPE closed with unexpected EOF',
    `${refl}${N}: Watch for *v1.Pod closed with unexpected EOF: unexpected EOF`,
    watchEnd('Watch for *v1.Pod closed with unexpected EOF: unexpected EOF', 'unexpected EOF'),
    { call: 'watch-unexpected-eof', reflector: N, type: '*v1.Pod', err: 'unexpected EOF' },
  ],
  [
    'reflector.go 0.17–0.32 Warningf: watch of TYPE ended with',
    `${refl}${N}: watch of *v1.Pod ended with: ${expired}`,
    watchEnd(`watch of *v1.Pod ended with: ${expired}`, expired, 410),
    { call: 'watch-ended', reflector: N, type: '*v1.Pod', err: expired },
  ],
  [
    'reflector.go 0.18–0.32 V(4): watch of TYPE closed with',
    `${refl}${N}: watch of *v1.Pod closed with: ${expired}`,
    watchEnd(`watch of *v1.Pod closed with: ${expired}`, expired, 410),
    { call: 'watch-ended', reflector: N, type: '*v1.Pod', err: expired },
  ],
  [
    'reflector.go 0.22–0.32 V(2): watch of TYPE returned 429 - backing off',
    `${refl}${N}: watch of *v1.Pod returned 429 - backing off`,
    watchEnd('watch of *v1.Pod returned 429 - backing off', undefined, 429),
    { call: 'watch-backoff', reflector: N, type: '*v1.Pod' },
  ],
  [
    'reflector.go 0.27–0.32 V(4): watch of TYPE returned ERR - backing off',
    `${refl}${N}: watch of *v1.Pod returned ${refused} - backing off`,
    watchEnd(`watch of *v1.Pod returned ${refused} - backing off`, refused),
    { call: 'watch-backoff', reflector: N, type: '*v1.Pod', err: refused },
  ],
  [
    'reflector.go 0.27–0.32 V(2): watch-list of TYPE returned ERR - backing off',
    `${refl}${N}: watch-list of *v1.Pod returned ${tooMany} - backing off`,
    watchEnd(`watch-list of *v1.Pod returned ${tooMany} - backing off`, tooMany, 429),
    { call: 'watch-backoff', reflector: N, type: '*v1.Pod', err: tooMany },
  ],
  [
    'reflector.go 0.25–0.32 V(2): retrying watch of TYPE internal error',
    `${refl}${N}: retrying watch of *v1.Pod internal error: ${leader}`,
    watchEnd('retrying watch of *v1.Pod internal error: etcdserver: leader changed', leader),
    {
      call: 'watch-internal-retry',
      reflector: N,
      type: '*v1.Pod',
      err: leader,
    },
  ],
  [
    'reflector.go 0.19–0.30 HandleError: Failed to watch TYPE: failed to list TYPE',
    `E0312 10:00:00.000100    4101 reflector.go:138] ${N}: Failed to watch *v1.Pod: failed to list *v1.Pod: Unauthorized`,
    { kind: 'list-failed', reflector: N, type: '*v1.Pod', err: 'Unauthorized' },
    { call: 'list-failed', reflector: N, type: '*v1.Pod', err: 'Unauthorized' },
  ],
  [
    'reflector.go 0.31–0.32 "Unhandled Error" of Failed to watch TYPE: failed to list TYPE',
    `E0312 10:00:00.000100    4101 reflector.go:158] "Unhandled Error" err="${N}: Failed to watch *v1.Pod: failed to list *v1.Pod: Unauthorized" logger="UnhandledError"`,
    { kind: 'list-failed', reflector: N, type: '*v1.Pod', err: 'Unauthorized' },
    { call: 'list-failed', reflector: N, type: '*v1.Pod', err: 'Unauthorized' },
  ],
  [
    'reflector.go 0.17–0.30 HandleError: Failed to watch TYPE: ERR',
    `E0312 10:00:00.000100    4101 reflector.go:138] ${N}: Failed to watch *v1.Pod: context deadline exceeded`,
    watchEnd('Failed to watch *v1.Pod: context deadline exceeded', 'context deadline exceeded'),
    { call: 'watch-failed', reflector: N, type: '*v1.Pod', err: 'context deadline exceeded' },
  ],
  [
    'reflector.go 0.17–0.18 HandleError: Failed to list TYPE',
    `E0312 10:00:00.000100    4101 reflector.go:156] ${N}: Failed to list *v1.Pod: connection refused`,
    { kind: 'list-failed', reflector: N, type: '*v1.Pod', err: 'connection refused' },
    { call: 'list-failed', reflector: N, type: '*v1.Pod', err: 'connection refused' },
  ],
  [
    'reflector.go 0.23–0.32 Warningf: failed to list TYPE',
    `W0312 10:00:00.000100    4101 reflector.go:533] ${N}: failed to list *v1.Pod: Unauthorized`,
    { kind: 'list-failed', reflector: N, type: '*v1.Pod', err: 'Unauthorized' },
    { call: 'list-failed', reflector: N, type: '*v1.Pod', err: 'Unauthorized' },
  ],
  [
    'reflector.go 0.17–0.32 V(4): Watch close - TYPE total N items received',
    `${refl}${N}: Watch close - *v1.Pod total 12 items received`,
    watchEnd('Watch close - *v1.Pod total 12 items received'),
    { call: 'watch-close', reflector: N, type: '*v1.Pod' },
  ],
  // ---- structured (0.33+, and metadata.go's 0.32–0.33) ----
  [
    'reflector.go 0.33–0.34 logger.Error: The watchlist request ended with an error',
    `E0312 10:00:00.000100    4101 reflector.go:422] "The watchlist request ended with an error, falling back to the standard LIST/WATCH semantics because making progress is better than deadlocking" err="unknown (get pods)"`,
    { kind: 'watch-list-fallback', reflector: '', err: 'unknown (get pods)' },
    { call: 'watch-list-fallback', err: 'unknown (get pods)' },
  ],
  [
    'metadata/metadata.go 0.32–0.33 Error: The watchlist request ended with an error',
    `E0312 10:00:00.000100    4101 metadata.go:231] "The watchlist request ended with an error, falling back to the standard LIST semantics" err="unknown (get pods)" resource="/v1, Resource=pods"`,
    { kind: 'watch-list-fallback', reflector: '', err: 'unknown (get pods)' },
    { call: 'watch-list-fallback', type: '/v1, Resource=pods', err: 'unknown (get pods)' },
  ],
  [
    "reflector.go 0.35+ V(4): Data couldn't be fetched in watchlist mode",
    `${header('reflector.go:430')}"Data couldn't be fetched in watchlist mode. Falling back to regular list. This is expected if watchlist is not supported or disabled in kube-apiserver." err="unknown (get pods)"`,
    { kind: 'watch-list-fallback', reflector: '', err: 'unknown (get pods)' },
    { call: 'watch-list-fallback', err: 'unknown (get pods)' },
  ],
  [
    'reflector.go 0.33+ "Warning: event bookmark expired"',
    `${header('reflector.go:1159')}"Warning: event bookmark expired" err="${sAwaiting}"`,
    { kind: 'bookmark-expired', reflector: '', err: sAwaiting },
    { call: 'bookmark-expired', err: sAwaiting },
  ],
  [
    'reflector.go 0.33+ V(4): "Exiting watch because received the bookmark"',
    `${header('reflector.go:933')}"Exiting watch because received the bookmark that marks the end of initial events stream" reflector="${R}" totalItems=2 duration="49.6ms"`,
    { kind: 'initial-events-end', reflector: R, totalItems: 2, durationMs: 49.6 },
    { call: 'initial-events-end', reflector: R },
  ],
  [
    'reflector.go 0.33+ V(3): "Stopping reflector"',
    `${refl}"Stopping reflector" type="*v1.Pod" resyncPeriod="0s" reflector="${R}"`,
    { kind: 'stop', reflector: R, type: '*v1.Pod' },
    undefined,
  ],
  [
    'reflector.go 0.33+ V(3): "Listing and watching"',
    `${refl}"Listing and watching" type="*v1.Pod" reflector="${R}"`,
    { kind: 'list-start', reflector: R, type: '*v1.Pod' },
    undefined,
  ],
  [
    'reflector.go 0.33+ V(2): "Caches populated"',
    `${refl}"Caches populated" type="*v1.Pod" reflector="${R}"`,
    { kind: 'list-done', reflector: R, type: '*v1.Pod' },
    undefined,
  ],
  [
    'reflector.go 0.33+ HandleErrorWithContext "Failed to watch" of list\'s error',
    `E0312 10:00:00.000100    4101 reflector.go:200] "Failed to watch" err="failed to list *v1.Pod: Unauthorized" reflector="${R}" type="*v1.Pod"`,
    { kind: 'list-failed', reflector: R, type: '*v1.Pod', err: 'Unauthorized' },
    { call: 'list-failed', reflector: R, type: '*v1.Pod', err: 'Unauthorized' },
  ],
  [
    'reflector.go 0.33+ V(4): "Watch close"',
    `${refl}"Watch close" reflector="${R}" type="*v1.Pod" totalItems=12`,
    sWatchEnd('Watch close: totalItems=12'),
    { call: 'watch-close', reflector: R, type: '*v1.Pod' },
  ],
];

/** 0.33+'s watch ends: [msg, err, explain-log's call, the code the import reads]. */
const structuredWatchEnds: Array<[string, string | undefined, string, number?]> = [
  ['Watch closed with unexpected EOF', 'unexpected EOF', 'watch-unexpected-eof'], // V(1)
  ['Watch closed', expired, 'watch-ended', 410], // V(4), an expired watch
  ['Warning: watch ended with error', expired, 'watch-ended', 410],
  ['Watch returned 429 - backing off', undefined, 'watch-backoff', 429], // V(2)
  ['Watch failed - backing off', 'connection refused', 'watch-backoff'], // V(4)
  ['watch-list failed - backing off', tooMany, 'watch-backoff', 429], // V(2)
  ['Retrying watch after internal error', leader, 'watch-internal-retry'], // V(2)
  ['Failed to watch', 'context deadline exceeded', 'watch-failed'], // HandleErrorWithContext
];
for (const [msg, err, call, code] of structuredWatchEnds)
  cases.push([
    `reflector.go 0.33+ "${msg}"`,
    `${refl}"${msg}" reflector="${R}" type="*v1.Pod"${err !== undefined ? ` err="${err}"` : ''}`,
    sWatchEnd(err !== undefined ? `${msg}: ${err}` : msg, err, code),
    { call, reflector: R, type: '*v1.Pod', ...(err !== undefined ? { err } : {}) },
  ]);

describe("client-go's reflector log calls: one table, read by the import and by explain-log", () => {
  for (const [name, line, event, call] of cases) {
    it(name, () => {
      assert.deepStrictEqual(eventOf(line), event, 'the import');
      assert.deepStrictEqual(callOf(line), call, 'explain-log');
    });
  }

  it('every row of the table has a line above', () => {
    const messages = cases.map(([, line]) => line.slice(line.indexOf('] ') + 2));
    for (const row of reflectorLogCalls) {
      const seen = messages.some((m) =>
        row.printf ? row.printf.test(m) : row.msg !== undefined && m.startsWith(`"${row.msg}"`),
      );
      assert.ok(seen, `no line for ${row.upstream}`);
    }
  });
});
