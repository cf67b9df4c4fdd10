// No upstream counterpart as a file: the WatchList check of `listwatch conform`: a watch with
// sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true streams every
// object as ADDED and then a BOOKMARK annotated k8s.io/initial-events-end: "true", or the server
// refuses it (clients fall back to LIST): never neither, which is what leaves informers hanging.
import { resultOf, checkId, type CheckDefinition, type CheckResult } from './conform-check';
import type { SeenEvent } from './conform-http';
import {
  answerText,
  keyOf,
  listOf,
  listPath,
  metaOf,
  rvOf,
  type ConformScope,
} from './conform-scope';

/** metav1.InitialEventsAnnotationKey. */
export const initialEventsAnnotationKey = 'k8s.io/initial-events-end';

const watchList: CheckDefinition = {
  id: 'watchlist.initial-events',
  title: 'WatchList: every object ADDED, then the k8s.io/initial-events-end bookmark, or a refusal',
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go Watch (sendInitialEvents); staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go processInterval (the initial-events-end bookmark); staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go InitialEventsAnnotationKey',
  impact:
    'client-go ≥ 1.35 informers (WatchListClient on by default) wait for the initial-events-end bookmark, logging "awaiting required bookmark event for initial events stream" every 10 s, until the watch times out (5–10 min), then send the same WatchList again: the informer never syncs (HasSynced stays false, controllers wait forever). A refusal (an error answer) makes them fall back to LIST and watch. client-go < 1.35 (WatchListClient off) and client-node\'s informer list then watch and are not affected.',
};

export const watchListCheckDefinitions = [watchList];

/** How long the WatchList may take to send its initial events and the bookmark. */
const watchListSeconds = 8;

function isEndBookmark(e: SeenEvent): boolean {
  const a = metaOf(e.object).annotations as Record<string, unknown> | undefined;
  return e.type === 'BOOKMARK' && a?.[initialEventsAnnotationKey] === 'true';
}

export async function checkWatchList(s: ConformScope): Promise<CheckResult> {
  const d = { ...watchList, id: checkId(watchList.id, s.resource.name, s.several) };
  const expected = `every object as ADDED, then a BOOKMARK annotated ${initialEventsAnnotationKey}: "true" (within ${watchListSeconds} s), the ADDED objects those of a LIST at the bookmark's resourceVersion (Exact); or an error answer (a refusal)`;
  const w = await s.http.watch(
    listPath(
      s,
      `watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=${watchListSeconds}`,
    ),
    { limitMs: (watchListSeconds + 5) * 1000, until: (events) => events.some(isEndBookmark) },
  );
  if (w.status === 0) return resultOf(d, 'fail', expected, `no answer: ${w.error}`);
  if (w.status !== 200)
    return resultOf(
      d,
      'pass',
      expected,
      `refused: ${w.status} ${w.strange.join(' ').slice(0, 200)} (clients fall back to LIST)`,
    );
  if (w.events[0]?.type === 'ERROR')
    return resultOf(
      d,
      'pass',
      expected,
      `refused with an ERROR event: ${JSON.stringify(w.events[0].object).slice(0, 200)} (clients fall back to LIST)`,
    );
  const end = w.events.findIndex(isEndBookmark);
  const initial = w.events.slice(0, end < 0 ? undefined : end).filter((e) => e.type !== 'BOOKMARK');
  const types = [...new Set(initial.map((e) => e.type))];
  if (end < 0)
    return resultOf(
      d,
      'fail',
      expected,
      `200, ${initial.length} event(s)${types.length ? ` (${types.join(', ')})` : ''} and no BOOKMARK with ${initialEventsAnnotationKey} in ${(w.ms / 1000).toFixed(1)} s (${w.endedBy === 'server' ? 'the server ended the watch' : 'still open'}): neither the initial events nor a refusal`,
    );
  const bookmark = w.events[end];
  const bookmarkRv = String(metaOf(bookmark.object).resourceVersion);
  const problems: string[] = [];
  const notAdded = initial.filter((e) => e.type !== 'ADDED');
  if (notAdded.length)
    problems.push(
      `${notAdded.length} initial event(s) not ADDED: ${notAdded
        .slice(0, 3)
        .map((e) => e.type)
        .join(', ')}`,
    );
  const behind = initial.filter((e) => (rvOf(e.object) ?? 0n) > (rvOf(bookmark.object) ?? 0n));
  if (behind.length)
    problems.push(
      `the bookmark's resourceVersion ${bookmarkRv} is behind ${behind.length} initial event(s)`,
    );
  const exact = await s.http.request(
    'GET',
    listPath(s, `resourceVersion=${bookmarkRv}&resourceVersionMatch=Exact`),
  );
  const list = listOf(exact);
  let compared = '';
  if (list) {
    const want = list.items.map(keyOf).sort();
    const got = initial.map((e) => keyOf(e.object)).sort();
    const missing = want.filter((k) => !got.includes(k));
    const extra = got.filter((k) => !want.includes(k));
    if (missing.length) problems.push(`not sent: ${missing.slice(0, 5).join(', ')}`);
    if (extra.length)
      problems.push(`sent and not in the LIST at ${bookmarkRv}: ${extra.slice(0, 5).join(', ')}`);
    compared = `, the same objects as the LIST at ${bookmarkRv}`;
  } else compared = ` (the LIST at ${bookmarkRv} to compare with: ${answerText(exact)})`;
  const got = `${initial.length} ADDED, then the ${initialEventsAnnotationKey} BOOKMARK at ${bookmarkRv} after ${(bookmark.ms / 1000).toFixed(1)} s${problems.length ? '' : compared}`;
  return problems.length
    ? resultOf(d, 'fail', expected, `${got}: ${problems.join('; ')}`)
    : resultOf(d, 'pass', expected, got);
}
