// No upstream counterpart as a file: the WATCH family of `listwatch conform`: a watch from a
// LIST's resourceVersion (no gap, no duplicate, in resourceVersion order), from a too old one (410
// as an ERROR event), bookmarks with allowWatchBookmarks, and timeoutSeconds honoured.
import { resultOf, checkId, type CheckDefinition, type CheckResult } from './conform-check';
import { createObject, deleteObject, updateObject } from './conform-objects';
import type { HttpAnswer, SeenEvent } from './conform-http';
import {
  answerText,
  keyOf,
  listOf,
  listPath,
  metaOf,
  parseJSON,
  rvNumber,
  rvOf,
  type ConformScope,
} from './conform-scope';

const fromListRv: CheckDefinition = {
  id: 'watch.from-list-rv',
  title: "a watch from a LIST's resourceVersion: every later write once, nothing at or before it",
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go Watch; staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go getAllEventsSinceLocked',
  impact:
    "Every informer that lists then watches (client-go < 1.35, ≥ 1.35 after a WatchList fallback, client-node's informer) watches from the LIST's resourceVersion: a gap loses a change until the next relist (controllers act on stale objects); a duplicate fires an update handler for nothing.",
};

const ordered: CheckDefinition = {
  id: 'watch.ordered',
  title: 'watch events in increasing resourceVersion order',
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go processInterval; staging/src/k8s.io/apiserver/pkg/storage/etcd3/watcher.go (events in revision order)',
  impact:
    "client-go's reflector and client-node's informer resume from the last event's resourceVersion: out of order, a reconnect resumes from the wrong place and loses or repeats events.",
};

const tooOld: CheckDefinition = {
  id: 'watch.too-old-rv',
  title: 'a watch from a too old resourceVersion: 200 and one ERROR event, 410 Expired',
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go getAllEventsSinceLocked ("too old resource version"); staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go Watch (newErrWatcher)',
  impact:
    "client-go's reflector ends the watch on an ERROR 410 (isExpiredError) and relists; client-node's informer clears its resourceVersion and relists. A server that starts silently from now instead loses every change in between, with no relist to repair it.",
};

const bookmarks: CheckDefinition = {
  id: 'watch.bookmarks',
  title:
    'allowWatchBookmarks: a BOOKMARK before the timeout, its resourceVersion not behind, its object only kind, apiVersion and metadata.resourceVersion',
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go nextBookmarkTime (2 s before the deadline, else every minute); staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go dispatchEvents',
  impact:
    "client-go reflectors (every version) ask for bookmarks and keep their resourceVersion, so a reconnect resumes near now instead of a compacted resourceVersion (410, a full relist); client-go ≥ 1.35's WatchList needs them. client-node's informer does not ask for bookmarks.",
};

const timeout: CheckDefinition = {
  id: 'watch.timeout-seconds',
  title: 'timeoutSeconds: the server ends the watch when it passes',
  rule: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go ListResource (opts.TimeoutSeconds); staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go serveWatch',
  impact:
    "client-go sends timeoutSeconds of 5–10 min (minWatchTimeout × [1, 2)) and re-watches when the server ends the watch: a server that never ends it leaves half-open connections (a proxy's idle timeout) that look alive and deliver nothing; ended early, it only costs a re-watch.",
};

/** The admin API of `listwatch serve` that drops the watch cache's history. */
export const expireHistoryFaultPath = '/debug/listwatch/v1/faults/expire-history';

export const watchCheckDefinitions = [fromListRv, ordered, tooOld, bookmarks, timeout];

function def(s: ConformScope, d: CheckDefinition): CheckDefinition {
  return { ...d, id: checkId(d.id, s.resource.name, s.several) };
}

/** `ADDED a@12, MODIFIED a@14`. */
function eventsText(events: readonly SeenEvent[], max = 8): string {
  const shown = events
    .slice(0, max)
    .map(
      (e) =>
        `${e.type} ${e.type === 'BOOKMARK' ? '' : keyOf(e.object)}@${String(metaOf(e.object).resourceVersion)}`,
    );
  return (
    `${shown.join(', ')}${events.length > max ? `, … (${events.length} in all)` : ''}` ||
    'no events'
  );
}

/** watch.from-list-rv and watch.ordered, from one watch while the battery writes. */
export async function checkWatchFromListRv(s: ConformScope): Promise<CheckResult[]> {
  const d = def(s, fromListRv);
  const o = def(s, ordered);
  const expected =
    "ADDED w1, ADDED w2, MODIFIED w1, DELETED w2, each at its write's resourceVersion, nothing at or before the LIST's";
  const orderedExpected = 'each event after the one before it in resourceVersion';
  if (s.noWrites !== undefined)
    return [
      resultOf(d, 'skip', expected, `needs writes: ${s.noWrites}`),
      resultOf(o, 'skip', orderedExpected, `needs writes: ${s.noWrites}`),
    ];
  const listed = await s.http.request('GET', listPath(s));
  const list = listOf(listed);
  if (!list?.resourceVersion) {
    const got = `LIST: ${answerText(listed)}`;
    return [resultOf(d, 'fail', expected, got), resultOf(o, 'fail', orderedExpected, got)];
  }
  const listRv = rvNumber(list.resourceVersion) ?? 0n;
  const names = [`conform-w1-${s.runLabel}`, `conform-w2-${s.runLabel}`];
  const mine = (e: SeenEvent): boolean => names.includes(String(metaOf(e.object).name));
  const watching = s.http.watch(
    listPath(s, `watch=1&resourceVersion=${list.resourceVersion}&timeoutSeconds=10`),
    { limitMs: 15_000, until: (events) => events.filter(mine).length >= 4 },
  );
  const writes: { what: string; rv?: string }[] = [];
  const write = async (what: string, a: Promise<HttpAnswer>): Promise<string | undefined> => {
    const r = await a;
    const rv = metaOf(parseJSON(r.body)).resourceVersion;
    const ok = r.status >= 200 && r.status < 300 && typeof rv === 'string';
    writes.push({ what, rv: ok ? rv : `(${answerText(r)})` });
    return ok ? rv : undefined;
  };
  const rv1 = await write(`ADDED ${names[0]}`, createObject(s, names[0], 1));
  await write(`ADDED ${names[1]}`, createObject(s, names[1], 2));
  if (rv1 !== undefined) await write(`MODIFIED ${names[0]}`, updateObject(s, names[0], 3, rv1));
  await write(`DELETED ${names[1]}`, deleteObject(s, names[1]));
  const w = await watching;
  if (w.status !== 200) {
    const got = `the watch: ${w.status === 0 ? `no answer: ${w.error}` : `${w.status}: ${w.strange.join(' ').slice(0, 200)}`}`;
    return [resultOf(d, 'fail', expected, got), resultOf(o, 'fail', orderedExpected, got)];
  }
  const seen = w.events.filter((e) => e.type !== 'BOOKMARK');
  const problems: string[] = [];
  const early = seen.filter((e) => (rvOf(e.object) ?? 0n) <= listRv);
  if (early.length)
    problems.push(`at or before the LIST's resourceVersion ${listRv}: ${eventsText(early)}`);
  const got = seen.filter(mine).map((e) => `${e.type} ${String(metaOf(e.object).name)}`);
  const want = writes.map((x) => x.what);
  if (got.join() !== want.join()) problems.push(`the writes' events: ${got.join(', ') || 'none'}`);
  // A DELETE answers the object as it was; its event carries the deletion's revision.
  const rvs = seen
    .filter(mine)
    .map((e, i) =>
      writes[i]?.what.startsWith('DELETED') ? '*' : String(metaOf(e.object).resourceVersion),
    );
  const wantRvs = writes.map((x) => (x.what.startsWith('DELETED') ? '*' : x.rv));
  if (problems.length === 0 && rvs.join() !== wantRvs.join())
    problems.push(
      `at resourceVersions ${rvs.join(', ')}; the writes answered ${wantRvs.join(', ')}`,
    );
  const gotText = `${eventsText(seen)} (${w.endedBy === 'client' ? 'all arrived' : w.endedBy === 'limit' ? 'the rest never arrived' : 'the server ended the watch'})`;
  const fromResult = problems.length
    ? resultOf(d, 'fail', expected, `${gotText}: ${problems.join('; ')}`)
    : resultOf(d, 'pass', expected, gotText);
  const disorder = seen.findIndex(
    (e, i) => i > 0 && (rvOf(e.object) ?? 0n) <= (rvOf(seen[i - 1].object) ?? 0n),
  );
  const orderResult =
    seen.length < 2
      ? resultOf(
          o,
          'fail',
          orderedExpected,
          `${seen.length} event(s): nothing to order (${gotText})`,
        )
      : disorder >= 0
        ? resultOf(
            o,
            'fail',
            orderedExpected,
            `event ${disorder + 1} (${eventsText([seen[disorder]])}) after ${eventsText([seen[disorder - 1]])}`,
          )
        : resultOf(o, 'pass', orderedExpected, `${seen.length} events in order`);
  return [fromResult, orderResult];
}

export async function checkTooOldRv(s: ConformScope): Promise<CheckResult> {
  const d = def(s, tooOld);
  const expected =
    '200, then one ERROR event whose Status is 410 Expired "too old resource version: 1 (…)", then the end';
  // listwatch serve's admin API empties the watch cache's history (as a restarted apiserver has
  // none); elsewhere resourceVersion 1 is long gone on any cluster that has lived.
  if (s.noAdminApi === undefined) {
    const r = s.resource;
    const e = await s.http.request('POST', expireHistoryFaultPath, {
      body: { resource: r.group === '' ? r.plural : `${r.plural}.${r.group}` },
    });
    if (e.status !== 200)
      return resultOf(d, 'skip', expected, `expire-history refused: ${answerText(e)}`);
  }
  const w = await s.http.watch(listPath(s, 'watch=1&resourceVersion=1&timeoutSeconds=5'), {
    limitMs: 10_000,
    until: (events) => events.length > 0,
  });
  if (w.status !== 200)
    return resultOf(
      d,
      'fail',
      expected,
      w.status === 0
        ? `no answer: ${w.error}`
        : `${w.status} (not an ERROR event): ${w.strange.join(' ').slice(0, 200)}`,
    );
  const first = w.events[0];
  if (!first)
    return resultOf(
      d,
      'fail',
      expected,
      `200 and no event in ${(w.ms / 1000).toFixed(1)} s (${w.endedBy === 'server' ? 'the server ended the watch' : 'still open'})`,
    );
  const st = first.object as { code?: unknown; reason?: unknown; message?: unknown };
  const got = `${first.type} ${first.type === 'ERROR' ? `${String(st.code)} ${String(st.reason)}: ${String(st.message)}` : eventsText(w.events)}`;
  if (first.type !== 'ERROR' && w.events.every((e) => e.type !== 'ERROR'))
    return resultOf(
      d,
      'skip',
      expected,
      `the server still has history at resourceVersion 1 (${got}): nothing is too old`,
    );
  const ok =
    first.type === 'ERROR' &&
    st.code === 410 &&
    st.reason === 'Expired' &&
    String(st.message).startsWith('too old resource version: 1');
  return resultOf(d, ok ? 'pass' : 'fail', expected, got);
}

/** Whether a value is the zero value Go's encoder writes for an empty struct field. */
function empty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v).every(empty);
  return false;
}

/** What a BOOKMARK's object has beyond kind, apiVersion and metadata.resourceVersion. */
export function bookmarkExtras(obj: Record<string, unknown>): string[] {
  const extras: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'kind' || k === 'apiVersion') continue;
    if (k === 'metadata') {
      for (const [mk, mv] of Object.entries(metaOf(obj)))
        if (mk !== 'resourceVersion' && mk !== 'annotations' && !empty(mv))
          extras.push(`metadata.${mk}`);
      continue;
    }
    if (!empty(v)) extras.push(k);
  }
  return extras;
}

/** watch.bookmarks and watch.timeout-seconds, from one watch of timeoutSeconds=5. */
export async function checkBookmarksAndTimeout(s: ConformScope): Promise<CheckResult[]> {
  const b = def(s, bookmarks);
  const t = def(s, timeout);
  const seconds = 5;
  const bExpected = `at least one BOOKMARK within ${seconds} s (2 s before the deadline), resourceVersion ≥ the LIST's${s.noWrites === undefined ? ' and ≥ the write made meanwhile' : ''}, object: kind ${s.resource.kind}, apiVersion, metadata.resourceVersion only`;
  const tExpected = `the server ends the watch after ${seconds} s (between ${seconds - 0.5} and ${seconds + 3} s)`;
  const listed = await s.http.request('GET', listPath(s));
  const list = listOf(listed);
  if (!list?.resourceVersion) {
    const got = `LIST: ${answerText(listed)}`;
    return [resultOf(b, 'fail', bExpected, got), resultOf(t, 'fail', tExpected, got)];
  }
  const watching = s.http.watch(
    listPath(
      s,
      `watch=1&resourceVersion=${list.resourceVersion}&allowWatchBookmarks=true&timeoutSeconds=${seconds}`,
    ),
    { limitMs: (seconds + 10) * 1000 },
  );
  let floor = rvNumber(list.resourceVersion) ?? 0n;
  if (s.noWrites === undefined) {
    const a = await createObject(s, `conform-b-${s.runLabel}`, 4);
    if (a.status === 201) floor = rvNumber(metaOf(parseJSON(a.body)).resourceVersion) ?? floor;
  }
  const w = await watching;
  if (w.status !== 200) {
    const got =
      w.status === 0
        ? `no answer: ${w.error}`
        : `${w.status}: ${w.strange.join(' ').slice(0, 200)}`;
    return [resultOf(b, 'fail', bExpected, got), resultOf(t, 'fail', tExpected, got)];
  }
  const marks = w.events.filter((e) => e.type === 'BOOKMARK');
  const last = marks.at(-1);
  let bResult: CheckResult;
  if (!last && s.noWrites !== undefined && w.events.length === 0)
    // cache_watcher.go process sends an event, bookmarks included, only past the watch's
    // resourceVersion: with nothing written, nothing moves it.
    bResult = resultOf(
      b,
      'skip',
      bExpected,
      `no event and no BOOKMARK in ${(w.ms / 1000).toFixed(1)} s: nothing moved the resourceVersion past the watch's, and bookmarks come only past it (needs writes: ${s.noWrites})`,
    );
  else if (!last)
    bResult = resultOf(
      b,
      'fail',
      bExpected,
      `no BOOKMARK in ${(w.ms / 1000).toFixed(1)} s (${eventsText(w.events)})`,
    );
  else {
    const rv = rvOf(last.object);
    const extras = bookmarkExtras(last.object);
    const problems: string[] = [];
    if (rv === undefined || rv < floor)
      problems.push(
        `resourceVersion ${String(metaOf(last.object).resourceVersion)} is behind ${floor}`,
      );
    if (last.object.kind !== s.resource.kind)
      problems.push(`kind ${JSON.stringify(last.object.kind)}`);
    if (extras.length) problems.push(`the object carries ${extras.join(', ')}`);
    const got = `${marks.length} BOOKMARK(s), the last at ${(last.ms / 1000).toFixed(1)} s, resourceVersion ${String(metaOf(last.object).resourceVersion)}`;
    bResult = resultOf(
      b,
      problems.length ? 'fail' : 'pass',
      bExpected,
      problems.length ? `${got}: ${problems.join('; ')}` : got,
    );
  }
  const secs = w.ms / 1000;
  const tGot = `${w.endedBy === 'server' ? 'ended by the server' : 'still open'} after ${secs.toFixed(1)} s`;
  const tOk = w.endedBy === 'server' && secs >= seconds - 0.5 && secs <= seconds + 3;
  return [bResult, resultOf(t, tOk ? 'pass' : 'fail', tExpected, tGot)];
}
