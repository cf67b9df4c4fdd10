// No upstream counterpart as a file: the LIST family of `listwatch conform`, each check naming the
// upstream rule (release-1.36) it grades: limit and continue, remainingItemCount, resourceVersion=0,
// resourceVersionMatch's validation, an expired continue token and a future resourceVersion.
import { resultOf, checkId, type CheckDefinition, type CheckResult } from './conform-check';
import { createObject } from './conform-objects';
import {
  answerText,
  keyOf,
  listOf,
  metaOf,
  listPath,
  rvNumber,
  statusOf,
  type ConformScope,
  type SeenList,
} from './conform-scope';

const paging: CheckDefinition = {
  id: 'list.paging',
  title:
    'limit and continue: full pages, one resourceVersion, a token that resumes after the last key, no token on the last page',
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go GetList; staging/src/k8s.io/apiserver/pkg/storage/continue.go EncodeContinue; staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go GetList',
  impact:
    "client-go's pager (tools/pager ListWithAlloc, the reflector's list with limit 500) and kubectl --chunk-size follow metadata.continue until a page has none: a token that does not resume after the page's last key repeats or loses objects, a token on the last page loops; client-node's informer lists without limit and is not affected.",
};

const remaining: CheckDefinition = {
  id: 'list.remaining-item-count',
  title: 'remainingItemCount on a limited LIST without selectors, never with one',
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go GetList (remainingItemCount only when the predicate is empty); staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go GetList',
  impact:
    'kubectl and UIs show it as "N more"; client-go informers ignore it. A count given with a selector is wrong (it counts what the selector drops): progress bars and capacity estimates built on it lie.',
};

const rv0: CheckDefinition = {
  id: 'list.resource-version-0',
  title: 'resourceVersion=0: any data, answered (from the watch cache)',
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/cacher/delegator/interface.go ShouldDelegateList; staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go GetList',
  impact:
    'client-go reflectors < 1.35 (and ≥ 1.35 after a WatchList fallback) start every informer with a LIST at resourceVersion=0: a refusal leaves the informer retrying with backoff, never synced.',
};

const rvMatch: CheckDefinition = {
  id: 'list.resource-version-match',
  title:
    "resourceVersionMatch (and sendInitialEvents on a LIST): the valid combinations answered, the others refused with upstream's exact messages",
  rule: 'staging/src/k8s.io/apimachinery/pkg/apis/meta/internalversion/validation/validation.go ValidateListOptions',
  impact:
    "client-go sends resourceVersionMatch only with a resourceVersion (Exact for a consistent snapshot, NotOlderThan for the reflector's relists): a server that refuses the valid forms breaks those reads; one that accepts the invalid ones answers something no client can rely on.",
};

const expiredContinue: CheckDefinition = {
  id: 'list.expired-continue',
  title: 'a continue token older than the compaction: 410 Expired with a fresh token (rv -1)',
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go GetList (interpretListError, handleCompactedErrorForPaging); staging/src/k8s.io/apiserver/pkg/storage/cacher/compactor.go compactIfNeeded (snapshots below the compaction dropped)',
  impact:
    "client-go's pager falls back to one LIST without limit on 410 Expired (the reflector relists); kubectl --chunk-size prints the message. Without the 410 a page is read at another revision: objects are skipped or repeated silently.",
};

const futureRv: CheckDefinition = {
  id: 'list.future-resource-version',
  title:
    'a resourceVersion ahead of the server: 504 Timeout after about 3 s, cause ResourceVersionTooLarge, Retry-After',
  rule: 'staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go waitUntilFreshAndBlock (blockTimeout 3 s); staging/src/k8s.io/apiserver/pkg/storage/errors.go NewTooLargeResourceVersionError',
  impact:
    'client-go reflectors treat the ResourceVersionTooLarge cause as expired (isTooLargeResourceVersionError) and relist from resourceVersion "" (after an apiserver with an older cache, e.g. behind a load balancer); without the cause they retry the same RV with backoff; answered at once, they spin.',
};

/** The checks in this family, in order. */
export const listCheckDefinitions = [paging, remaining, rv0, rvMatch, expiredContinue, futureRv];

/** The continue token decoded: `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}`. */
export function decodeContinueToken(
  token: string,
): { v?: unknown; rv?: unknown; start?: unknown } | undefined {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a token's start names `obj` (its key, then "\u0000"), relative to the LIST's key prefix:
 * etcd3's prefix ends in "/", the cacher's is the request's key without it (a leading "/").
 */
function startNames(s: ConformScope, start: unknown, obj: unknown): boolean {
  if (typeof start !== 'string' || !start.endsWith('\u0000')) return false;
  const inNamespace = s.resource.namespaced && s.namespace !== undefined;
  const key = inNamespace ? String(metaOf(obj).name) : keyOf(obj);
  const rel = start.slice(0, -1);
  return rel === key || rel === `/${key}`;
}

function def(s: ConformScope, d: CheckDefinition): CheckDefinition {
  return { ...d, id: checkId(d.id, s.resource.name, s.several) };
}

/** A full LIST of the scope (no limit), or the words for what came instead. */
async function fullList(s: ConformScope): Promise<SeenList | string> {
  const a = await s.http.request('GET', listPath(s));
  return listOf(a) ?? `LIST ${listPath(s)}: ${answerText(a)}`;
}

export async function checkPaging(s: ConformScope): Promise<CheckResult> {
  const d = def(s, paging);
  const full = await fullList(s);
  if (typeof full === 'string') return resultOf(d, 'fail', 'a LIST answered 200', full);
  const n = full.items.length;
  if (n < 2)
    return resultOf(d, 'skip', 'at least 2 objects to page', `${n} object(s) in ${listPath(s)}`);
  const limit = n === 2 ? 1 : Math.ceil(n / 3);
  const expected = `pages of limit=${limit} (full but the last), each with the first page's resourceVersion, a token {rv: that RV, start: the page's last key + "\\u0000"}, no token and no remainingItemCount on the last page, keys ascending, none twice`;
  const problems: string[] = [];
  const seen: string[] = [];
  let token: string | undefined;
  let firstRv: string | undefined;
  let pages = 0;
  do {
    const path = listPath(
      s,
      `limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
    );
    const a = await s.http.request('GET', path);
    const page = listOf(a);
    if (!page) return resultOf(d, 'fail', expected, `page ${pages + 1}: ${answerText(a)}`);
    pages++;
    firstRv ??= page.resourceVersion;
    if (page.resourceVersion !== firstRv)
      problems.push(
        `page ${pages} has resourceVersion ${page.resourceVersion}, page 1 had ${firstRv}`,
      );
    if (page.items.length > limit)
      problems.push(`page ${pages} has ${page.items.length} items (limit ${limit})`);
    for (const it of page.items) seen.push(keyOf(it));
    token = page.continue;
    if (token) {
      if (page.items.length !== limit)
        problems.push(
          `page ${pages} has ${page.items.length} items and a continue token (a page before the last is full)`,
        );
      const t = decodeContinueToken(token);
      const last = page.items.at(-1);
      if (!t)
        problems.push(`page ${pages}'s continue token does not decode: ${JSON.stringify(token)}`);
      else {
        if (t.v !== 'meta.k8s.io/v1')
          problems.push(`page ${pages}'s token has v ${JSON.stringify(t.v)}`);
        if (String(t.rv) !== firstRv)
          problems.push(
            `page ${pages}'s token has rv ${JSON.stringify(t.rv)}, the list's resourceVersion is ${firstRv}`,
          );
        if (last !== undefined && !startNames(s, t.start, last))
          problems.push(
            `page ${pages}'s token has start ${JSON.stringify(t.start)}, not the key of its last object ${JSON.stringify(keyOf(last))} + "\\u0000"`,
          );
      }
    } else if (page.remainingItemCount !== undefined)
      problems.push(`the last page has remainingItemCount ${page.remainingItemCount}`);
  } while (token && pages < 20 && problems.length === 0);
  if (token && problems.length === 0)
    problems.push(`still a continue token after ${pages} pages of ${limit} (${n} objects)`);
  const dup = seen.filter((k, i) => seen.indexOf(k) !== i);
  if (dup.length) problems.push(`returned twice: ${dup.slice(0, 3).join(', ')}`);
  const sorted = [...seen].sort();
  if (problems.length === 0 && seen.some((k, i) => k !== sorted[i]))
    problems.push(`keys not in ascending order: ${seen.slice(0, 6).join(', ')}…`);
  const got = `${pages} pages, ${seen.length} objects, resourceVersion ${firstRv}`;
  return problems.length
    ? resultOf(d, 'fail', expected, `${got}: ${problems.join('; ')}`)
    : resultOf(d, 'pass', expected, got);
}

/** A selector every object matches (a label nobody sets): a selector that filters nothing. */
const matchEverything = '!listwatch-conform-no-such-label';

export async function checkRemainingItemCount(s: ConformScope): Promise<CheckResult> {
  const d = def(s, remaining);
  const full = await fullList(s);
  if (typeof full === 'string') return resultOf(d, 'fail', 'a LIST answered 200', full);
  const n = full.items.length;
  if (n < 2) return resultOf(d, 'skip', 'at least 2 objects', `${n} object(s) in ${listPath(s)}`);
  const stable = s.noWrites === undefined;
  const expected = `limit=1 without a selector: remainingItemCount ${stable ? `= ${n - 1}` : '≥ 1'}; limit=1&labelSelector=${matchEverything}: a continue token and no remainingItemCount`;
  const plainAnswer = await s.http.request('GET', listPath(s, 'limit=1'));
  const plain = listOf(plainAnswer);
  const selAnswer = await s.http.request(
    'GET',
    listPath(s, `limit=1&labelSelector=${encodeURIComponent(matchEverything)}`),
  );
  const sel = listOf(selAnswer);
  if (!plain) return resultOf(d, 'fail', expected, `limit=1: ${answerText(plainAnswer)}`);
  if (!sel) return resultOf(d, 'fail', expected, `with the selector: ${answerText(selAnswer)}`);
  const got = `without a selector: remainingItemCount ${plain.remainingItemCount ?? 'absent'}; with the selector: ${sel.continue ? 'a token' : 'no token'}, remainingItemCount ${sel.remainingItemCount ?? 'absent'}`;
  const ok =
    plain.remainingItemCount !== undefined &&
    (stable ? plain.remainingItemCount === n - 1 : plain.remainingItemCount >= 1) &&
    sel.continue !== undefined &&
    sel.remainingItemCount === undefined;
  return resultOf(d, ok ? 'pass' : 'fail', expected, got);
}

export async function checkResourceVersion0(s: ConformScope): Promise<CheckResult> {
  const d = def(s, rv0);
  const expected = '200, a list whose metadata.resourceVersion is a number';
  const a = await s.http.request('GET', listPath(s, 'resourceVersion=0'));
  const l = listOf(a);
  if (!l) return resultOf(d, 'fail', expected, answerText(a));
  const got = `200, ${l.items.length} items at resourceVersion ${l.resourceVersion ?? '(none)'}`;
  return resultOf(d, rvNumber(l.resourceVersion) !== undefined ? 'pass' : 'fail', expected, got);
}

const invalidListOptions = 'ListOptions.meta.k8s.io "" is invalid: ';

export async function checkResourceVersionMatch(s: ConformScope): Promise<CheckResult> {
  const d = def(s, rvMatch);
  const full = await fullList(s);
  if (typeof full === 'string') return resultOf(d, 'fail', 'a LIST answered 200', full);
  const rv = full.resourceVersion ?? '';
  // A token the server issued when it pages (validation refuses the pair before reading it).
  const page = listOf(await s.http.request('GET', listPath(s, 'limit=1')));
  const token = encodeURIComponent(page?.continue ?? 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ');
  const cases: { query: string; code: number; message?: string }[] = [
    {
      query: 'resourceVersionMatch=NotOlderThan',
      code: 422,
      message: `${invalidListOptions}resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided`,
    },
    {
      query: 'resourceVersion=0&resourceVersionMatch=Exact',
      code: 422,
      message: `${invalidListOptions}resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"`,
    },
    {
      query: `resourceVersion=${rv}&resourceVersionMatch=Newest`,
      code: 422,
      message: `${invalidListOptions}resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""`,
    },
    {
      query: `resourceVersion=${rv}&resourceVersionMatch=NotOlderThan&limit=1&continue=${token}`,
      code: 422,
      message: `${invalidListOptions}resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided`,
    },
    {
      query: 'sendInitialEvents=true',
      code: 422,
      message: `${invalidListOptions}sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`,
    },
    { query: `resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`, code: 200 },
    { query: `resourceVersion=${rv}&resourceVersionMatch=Exact`, code: 200 },
  ];
  const expected = cases
    .map((c) => `${c.query}: ${c.code}${c.message ? ` ${JSON.stringify(c.message)}` : ''}`)
    .join('; ');
  const wrong: string[] = [];
  for (const c of cases) {
    const a = await s.http.request('GET', listPath(s, c.query));
    const st = statusOf(a.body);
    if (a.status !== c.code || (c.message !== undefined && st?.message !== c.message))
      wrong.push(`${c.query}: ${answerText(a)}`);
    else if (c.query.endsWith('Exact') && c.code === 200 && listOf(a)?.resourceVersion !== rv)
      wrong.push(
        `${c.query}: the list has resourceVersion ${listOf(a)?.resourceVersion}, not ${rv}`,
      );
  }
  return wrong.length
    ? resultOf(d, 'fail', expected, wrong.join('; '))
    : resultOf(d, 'pass', expected, `all ${cases.length} answered as upstream`);
}

/** How long the cacher may serve a compacted token from its snapshots: compactorPollPeriod and a margin. */
const compactorWaitSeconds = 20;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The admin API of `listwatch serve` that compacts etcd's history. */
export const compactFaultPath = '/debug/listwatch/v1/faults/compact';

export async function checkExpiredContinue(s: ConformScope): Promise<CheckResult> {
  const d = def(s, expiredContinue);
  const expected =
    'within 20 s of the compaction (the cacher\'s compactor polls every 15 s): 410 Expired "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. …", metadata.continue a fresh token with rv -1';
  if (s.noWrites !== undefined) return resultOf(d, 'skip', expected, `needs writes: ${s.noWrites}`);
  if (s.noAdminApi !== undefined) return resultOf(d, 'skip', expected, s.noAdminApi);
  const first = await s.http.request('GET', listPath(s, 'limit=1'));
  const page = listOf(first);
  if (!page?.continue)
    return resultOf(
      d,
      'fail',
      expected,
      `the first page of limit=1: ${page ? 'no continue token' : answerText(first)}`,
    );
  // A write past the token's revision, then compaction up to now: the token's revision is gone.
  const w = await createObject(s, 'conform-compacted', 99);
  if (w.status !== 201)
    return resultOf(d, 'fail', expected, `the write before compaction: ${answerText(w)}`);
  const c = await s.http.request('POST', compactFaultPath, { body: {} });
  if (c.status !== 200)
    return resultOf(d, 'skip', expected, `compaction refused: ${answerText(c)}`);
  // The cacher serves a continue from its snapshots until its compactor reads etcd's compaction
  // revision (every compactorPollPeriod, 15 s): ask again until then.
  const path = listPath(s, `limit=1&continue=${encodeURIComponent(page.continue)}`);
  let a = await s.http.request('GET', path);
  for (let i = 0; a.status === 200 && i < compactorWaitSeconds && !s.http.aborted; i++) {
    await sleep(1000);
    a = await s.http.request('GET', path);
  }
  const st = statusOf(a.body);
  const fresh = st?.continue ? decodeContinueToken(st.continue) : undefined;
  const got = `${answerText(a)}${st?.continue ? `; metadata.continue rv ${JSON.stringify(fresh?.rv)}` : '; no metadata.continue'}`;
  const ok =
    a.status === 410 &&
    st?.reason === 'Expired' &&
    st.message?.startsWith('The provided continue parameter is too old') === true &&
    fresh?.rv === -1;
  return resultOf(d, ok ? 'pass' : 'fail', expected, got);
}

/** How far ahead the future resourceVersion is. */
const futureDistance = 1_000_000n;

export async function checkFutureResourceVersion(s: ConformScope): Promise<CheckResult> {
  const d = def(s, futureRv);
  const full = await fullList(s);
  if (typeof full === 'string') return resultOf(d, 'fail', 'a LIST answered 200', full);
  const rv = rvNumber(full.resourceVersion);
  const expected =
    '504 Timeout "Timeout: Too large resource version: <rv>, current: <now>" after 2.5–10 s, cause ResourceVersionTooLarge, Retry-After header';
  if (rv === undefined)
    return resultOf(
      d,
      'fail',
      expected,
      `the list's resourceVersion ${JSON.stringify(full.resourceVersion)} is not a number`,
    );
  const a = await s.http.request('GET', listPath(s, `resourceVersion=${rv + futureDistance}`));
  const st = statusOf(a.body);
  const cause = st?.causes?.some((c) => c.reason === 'ResourceVersionTooLarge') === true;
  const retryAfter = a.headers['retry-after'];
  const secs = (a.ms / 1000).toFixed(1);
  const got = `${answerText(a)} after ${secs} s; cause ResourceVersionTooLarge ${cause ? 'present' : 'absent'}; Retry-After ${retryAfter === undefined ? 'absent' : JSON.stringify(retryAfter)}`;
  const ok =
    a.status === 504 &&
    st?.reason === 'Timeout' &&
    st.message?.includes('Too large resource version') === true &&
    cause &&
    retryAfter !== undefined &&
    a.ms >= 2500 &&
    a.ms <= 10_000;
  return resultOf(d, ok ? 'pass' : 'fail', expected, got);
}

/** The family, in order (expired-continue compacts: after the others). */
export const listChecks: ((s: ConformScope) => Promise<CheckResult>)[] = [
  checkPaging,
  checkRemainingItemCount,
  checkResourceVersion0,
  checkResourceVersionMatch,
  checkFutureResourceVersion,
  checkExpiredContinue,
];
