// Scenario over k8s.io/apiserver pkg/storage/etcd3/store.go GetList (release-1.36): a LIST with a
// label selector that matches few objects, served from etcd. The paging loop asks etcd for
// `limit` keys, then doubles the etcd limit (capped at maxLimit = 10000) after every page the
// selector left short, until the client's limit is filled or the keys run out.
import type { SummaryTable } from '../run/run-summary';
import type { EtcdRequestRecord, ListRecord, RunModel } from '../run/run-model';
import { type LatencyModel, maxLimit } from '../engine';
import { etcdLatencyOf, etcdLatencyParams, etcdWorkMs, podKvBytes } from './etcd-latency';
import type { RunWorkload } from './run-estimate';
import type { ScenarioModule, ScenarioParams } from './scenario';
import type { ScenarioRun } from '../sim/scenario-run';
import { fineDur, roundMs } from './summary-format';
import { formatCount } from '../format/count-text';

function podName(i: number): string {
  return `pod-${String(i).padStart(6, '0')}`;
}

async function run(r: ScenarioRun, p: ScenarioParams): Promise<void> {
  const objects = Number(p.objects);
  const matchEvery = Number(p.matchEvery);
  const limit = Number(p.limit);
  const pages = Number(p.pages);
  // The cacher is not started: in 1.36 the watch cache (with ListFromCacheSnapshot) serves every
  // paged list it has a snapshot for, so the doubling loop runs only for what the delegator
  // sends to etcd (exact RVs older than the cache's snapshots, a resource with the watch cache
  // disabled). The list goes to the etcd3 store as such a delegated request does.
  const resource = r.createResource();
  r.phase('seed', `${formatCount(objects)} pods in etcd, every ${matchEvery}th labelled app=match`);
  const seeding = 10000;
  for (let from = 0; from < objects; from += seeding) {
    r.checkAborted();
    const n = Math.min(seeding, objects - from);
    r.seedPods(resource, n, {
      namespace: 'default',
      name: (i) => podName(from + i),
      labels: (i) => ({ app: (from + i + 1) % matchEvery === 0 ? 'match' : 'other' }),
    });
    r.progress(
      (0.6 * (from + n)) / objects,
      `writing pods into etcd (${formatCount(from + n)}/${formatCount(objects)})`,
    );
  }
  r.phase(
    'list',
    `the client lists app=match with limit=${limit}, ${pages} page(s), straight from etcd`,
  );
  let token: string | undefined;
  for (let page = 1; page <= pages; page++) {
    r.progress(0.6 + (0.4 * (page - 1)) / pages, `LIST page ${page}/${pages}`);
    const res = await r.drive(
      r.list(
        resource,
        { namespace: 'default', labelSelector: 'app=match', limit, continue: token },
        'store',
        // The client by its name in the panel and the trace: `kubectl get pods -l app=match`.
        'kubectl',
      ),
    );
    await r.settle();
    token = res.result?.continue;
    if (!token) break;
  }
}

/**
 * What fixed pages of `limit` keys (no doubling) would have cost to examine the same keys: a
 * counterfactual computed here, not measured.
 */
export function fixedPageCost(
  evaluated: number,
  limit: number,
  keysInRange: number,
): { calls: number; fetched: number } {
  const calls = Math.max(1, Math.ceil(evaluated / limit));
  return { calls, fetched: Math.min(calls * limit, keysInRange) };
}

/**
 * What those fixed pages would have cost in modelled etcd time, also computed: page j starts
 * j·limit keys into the range, so etcd 3.4 counts the rest of the range (keysInRange − j·limit
 * keys) and returns up to `limit`. A returned key costs what it cost in the real calls (per key
 * and per byte together), so pods of another size need no byte count.
 */
export function fixedPageTimeMs(
  latency: LatencyModel,
  calls: EtcdRequestRecord[],
  pages: number,
  limit: number,
  keysInRange: number,
): number {
  let returnedMs = 0;
  let returned = 0;
  for (const q of calls) {
    returnedMs += q.latencyMs - latency.perRequestMs - q.count * latency.perCountedKeyMs;
    returned += q.kvs;
  }
  const perKeyMs = returned > 0 ? Math.max(0, returnedMs / returned) : 0;
  let ms = 0;
  for (let j = 0; j < pages; j++) {
    const rest = Math.max(0, keysInRange - j * limit);
    ms += latency.perRequestMs + rest * latency.perCountedKeyMs + Math.min(limit, rest) * perKeyMs;
  }
  return ms;
}

/**
 * The etcd calls and keys fetched for one client page of `limit` items from `keys` keys, every
 * `matchEvery`-th (counting from 1) matching, starting at key index `from`: the store's
 * page-doubling loop (GetList), counted. `next` is where the following page starts (≥ keys: none);
 * `counted` sums the keys etcd 3.4 counts in each call's range (from its start to the end).
 */
export function pageDoublingCost(
  keys: number,
  matchEvery: number,
  limit: number,
  from = 0,
): { calls: number; fetched: number; counted: number; next: number } {
  let calls = 0;
  let fetched = 0;
  let counted = 0;
  let matched = 0;
  let pos = from;
  let etcdLimit = limit;
  while (pos < keys) {
    calls++;
    counted += keys - pos;
    const take = Math.min(etcdLimit, keys - pos);
    fetched += take;
    const inRange = Math.floor((pos + take) / matchEvery) - Math.floor(pos / matchEvery);
    if (matched + inRange >= limit) {
      // The page fills at the (limit - matched)-th match from pos: the next page starts after it.
      const firstMatch = Math.ceil((pos + 1) / matchEvery) * matchEvery - 1;
      const next = firstMatch + (limit - matched - 1) * matchEvery + 1;
      return { calls, fetched, counted, next };
    }
    matched += inRange;
    pos += take;
    etcdLimit = Math.min(etcdLimit * 2, maxLimit);
  }
  return { calls: Math.max(calls, 1), fetched, counted, next: keys };
}

/**
 * The run's work from its parameters: the seeding (straight into etcd, no virtual time), then each
 * page's page-doubling loop, whose etcd calls take the run's virtual time one after another.
 */
function estimate(p: ScenarioParams): RunWorkload {
  const objects = Number(p.objects);
  let calls = 0;
  let fetched = 0;
  let counted = 0;
  let lists = 0;
  for (let page = 0, from = 0; page < Number(p.pages) && (page === 0 || from < objects); page++) {
    const c = pageDoublingCost(objects, Number(p.matchEvery), Number(p.limit), from);
    calls += c.calls;
    fetched += c.fetched;
    counted += c.counted;
    from = c.next;
    lists++;
  }
  const etcdMs = etcdWorkMs(p, {
    requests: calls,
    writes: 0,
    countedKeys: counted,
    keys: fetched,
    bytes: fetched * podKvBytes,
  });
  return {
    virtualMs: etcdMs,
    etcdWrites: objects,
    cachedWrites: 0,
    storeWrites: 0,
    deliveries: 0,
    watches: 0,
    listedKeys: fetched,
    // The final scrape: etcd's range histogram and the list counters.
    trace: {
      writeInputs: Math.ceil(objects / 10_000),
      lists,
      listCalls: calls,
      scrapes: 1,
      scrapedHistograms: 1,
    },
  };
}

function summarize(model: RunModel) {
  const limit = Number(model.header.params.limit);
  const latency = etcdLatencyOf(model.header.params);
  const lists = model.lists;
  const tables: SummaryTable[] = [];
  const facts: Record<string, number | string | boolean> = {};
  let totalCalls = 0;
  let totalFetched = 0;
  let naiveCalls = 0;
  let naiveFetched = 0;
  lists.forEach((l, i) => {
    const n = i + 1;
    const calls = listCalls(l);
    const firstCount = calls[0]?.count ?? 0;
    const naive = fixedPageCost(l.evaluated, limit, firstCount);
    const etcdMs = calls.reduce((s, q) => s + q.latencyMs, 0);
    const naiveMs = fixedPageTimeMs(latency, calls, naive.calls, limit, firstCount);
    totalCalls += calls.length;
    totalFetched += l.fetched;
    naiveCalls += naive.calls;
    naiveFetched += naive.fetched;
    const pages = l.pages ?? [];
    tables.push({
      title: `LIST ${n}: ${l.request}`,
      columns: [
        'etcd call',
        'limit asked',
        'keys returned',
        'evaluated',
        'matched',
        'items so far',
        'more',
        'etcd time',
      ],
      rows: calls.map((q, j) => [
        j + 1,
        q.limit,
        q.kvs,
        pages[j]?.evaluated ?? '',
        pages[j]?.matched ?? '',
        pages[j]?.itemsSoFar ?? '',
        pages[j] ? (pages[j].hasMore ? 'yes' : 'no') : '',
        fineDur(q.latencyMs),
      ]),
      note:
        `fetched ${formatCount(l.fetched)} · evaluated ${formatCount(l.evaluated)} · returned ${formatCount(l.returned)} · continue ${l.continue ? `${l.continue.slice(0, 24)}…` : '(none)'}` +
        ` · remainingItemCount ${l.remainingItemCount ?? '(omitted: a selector was given)'}\n` +
        `fixed pages of ${limit} (no doubling) would have needed ${formatCount(naive.calls)} etcd calls fetching ${formatCount(naive.fetched)} keys` +
        ` in ${fineDur(naiveMs)} of etcd time (computed), against ${fineDur(etcdMs)} here`,
    });
    if (i === 0) {
      facts.etcdCalls = calls.length;
      facts.limitsAsked = calls.map((q) => q.limit).join(',');
      facts.keysReturned = calls.map((q) => q.kvs).join(',');
      facts.fetched = l.fetched;
      facts.evaluated = l.evaluated;
      facts.returned = l.returned;
      facts.continue = l.continue;
      facts.remainingItemCount = l.remainingItemCount ?? 'omitted';
      facts.naiveEtcdCalls = naive.calls;
      facts.naiveFetched = naive.fetched;
      facts.etcdTimeMs = roundMs(etcdMs);
      facts.listLatencyMs = roundMs((l.endedAt ?? l.at) - l.at);
      facts.naiveEtcdTimeMs = roundMs(naiveMs);
    }
  });
  facts.lists = lists.length;
  facts.totalEtcdCalls = totalCalls;
  facts.totalFetched = totalFetched;
  facts.totalNaiveEtcdCalls = naiveCalls;
  facts.totalNaiveFetched = naiveFetched;
  const first = lists[0];
  const story: string[] = [];
  if (first) {
    const calls = listCalls(first);
    story.push(
      `The client asked for ${limit} pods labelled app=match. etcd was asked ${calls.length} time(s), with limits ${calls.map((q) => q.limit).join(', ')}: ` +
        `the store doubles its etcd limit (up to 10000) after every page the selector leaves short.`,
      `It fetched ${formatCount(first.fetched)} keys, tested ${formatCount(first.evaluated)} against the selector and returned ${formatCount(first.returned)}. ` +
        `Fixed pages of ${limit} would have taken ${formatCount(Number(facts.naiveEtcdCalls))} etcd calls (computed for comparison).`,
    );
    if (Number(facts.etcdTimeMs) > 0)
      story.push(
        `The LIST took ${fineDur(Number(facts.listLatencyMs))}, ${facts.etcdTimeMs === facts.listLatencyMs ? 'all' : fineDur(Number(facts.etcdTimeMs))} of it in etcd: etcd 3.4 counts every key from a page's start to the end of the range, ` +
          `so a call costs what the keys left in the range cost, more than what its limit asks. ` +
          `Fixed pages would have cost ${fineDur(Number(facts.naiveEtcdTimeMs))} of etcd time (computed with the same model).`,
      );
  }
  const chart = first
    ? [
        {
          title: 'etcd limit per call (LIST 1)',
          unit: 'keys',
          points: listCalls(first).map((q, j) => ({ label: `call ${j + 1}`, value: q.limit })),
        },
      ]
    : [];
  return {
    scenario: 'selector-death-spiral',
    title: definition.title,
    story,
    facts,
    tables,
    charts: chart,
  };
}

const definition = {
  name: 'selector-death-spiral',
  title: 'A filtered LIST from etcd: the page-doubling loop',
  label: 'Selector death spiral',
  storyView: 'lists' as const,
  description:
    'A LIST with a label selector that few pods match, read from etcd by the etcd3 store. The store asks etcd for `limit` keys, ' +
    "then doubles the etcd limit (up to maxLimit = 10000) after every page the selector left short, until the client's limit is " +
    'filled. The list goes straight to the etcd3 store, as the delegator sends the requests the watch cache cannot serve (the ' +
    'watch cache is not started). Compare with fixed pages of `limit`.',
  params: [
    {
      name: 'objects',
      type: 'number' as const,
      default: 100000,
      min: 0,
      max: 2_000_000,
      integer: true,
      description: 'Pods in etcd, named pod-000000, pod-000001, … in namespace default.',
    },
    {
      name: 'matchEvery',
      type: 'number' as const,
      default: 100,
      min: 1,
      max: 2_000_000,
      integer: true,
      description:
        'Every matchEvery-th pod (counting from 1) is labelled app=match, the others app=other.',
    },
    {
      name: 'limit',
      type: 'number' as const,
      default: 100,
      min: 1,
      max: 100_000,
      integer: true,
      description: "The client's limit: the first etcd call asks for this many keys.",
    },
    {
      name: 'pages',
      type: 'number' as const,
      default: 1,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'Pages the client reads, following continue tokens.',
    },
    {
      name: 'profile',
      type: 'string' as const,
      default: '1.36',
      choices: ['1.36', '1.37'],
      description:
        'Semantics: release-1.36, or the 1.37 preview (master: RangeStream; filtered pages still page).',
    },
    ...etcdLatencyParams,
  ],
};

export const selectorDeathSpiral: ScenarioModule = {
  definition,
  profile: (p) => String(p.profile),
  run,
  estimate,
  summarize,
  sections: ['lists'],
};

/** The etcd calls that read a LIST's items: paged ranges and RangeStreams (1.37). */
function listCalls(l: ListRecord): EtcdRequestRecord[] {
  return l.etcdRequests.filter((q) => q.operation === 'list' || q.operation === 'listStream');
}
