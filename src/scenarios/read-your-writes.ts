// Scenario over k8s.io/apiserver pkg/storage/cacher/delegator.go (CacheDelegator.GetList) and
// watch_cache.go (waitUntilFreshAndBlock), release-1.36: consistent reads (RV "") served from a
// watch cache that lags etcd. Each read asks etcd for its current revision, then waits (up to
// blockTimeout = 3 s) for the cache to reach it; a read that times out falls back to etcd, or,
// with the 1.37 ConsistentListFromCacheSkipTimeoutFallback gate, is answered 429.
import type { SummaryTable } from '../run/run-summary';
import type { ListRecord, RunModel } from '../run/run-model';
import { blockTimeout } from '../engine';
import { DelayedWatchEtcd } from '../sim/delayed-watch-etcd';
import { etcdLatencyParams, etcdWorkMs, podKvBytes } from './etcd-latency';
import type { RunWorkload } from './run-estimate';
import type { ScenarioModule, ScenarioParams } from './scenario';
import type { ScenarioRun } from '../sim/scenario-run';
import { dur, histogramBuckets, metric, vtime } from './summary-format';
import { formatCount } from '../format/count-text';

/** Writes the writer makes, one a second; every reader reads after each. */
const writes = 10;
const readWaitMetric = 'apiserver_watch_cache_read_wait_seconds';

async function run(r: ScenarioRun, p: ScenarioParams): Promise<void> {
  const lag = Number(p.cacheLagMs);
  const readers = Number(p.readers);
  const skip = Boolean(p.skipTimeoutFallback);
  const etcd = new DelayedWatchEtcd({ ...r.etcdOptions(), watchDelayMs: lag });
  const resource = r.createResource({
    etcd,
    gates: skip ? { ConsistentListFromCacheSkipTimeoutFallback: true } : {},
  });
  r.phase('start', `the watch cache starts; etcd's watch stream reaches it ${lag} ms late`);
  r.seedPods(resource, 5, { namespace: 'default', name: (i) => `pod-${i}` });
  resource.start();
  await r.drive(resource.waitReady());
  await r.advance(1000);
  const reads: Promise<unknown>[] = [];
  for (let k = 1; k <= writes; k++) {
    r.progress((k - 1) / (writes + 4), `write ${k}/${writes}`);
    const stored = await r.drive(
      resource.createPod({ name: `write-${k}`, namespace: 'default' }, 'writer'),
    );
    r.input({
      action: 'writes',
      count: 1,
      verb: 'create',
      keyPrefix: '/registry/pods/default/',
      revision: Number(stored.metadata.resourceVersion),
    });
    for (let i = 1; i <= readers; i++) {
      reads.push(r.list(resource, { namespace: 'default' }, 'delegator', `reader-${i}`));
    }
    await r.advance(1000, 100);
  }
  r.phase('drain', 'the last reads finish');
  let done = false;
  void Promise.all(reads).then(() => {
    done = true;
  });
  for (let s = 0; s < 10 && !done; s++) await r.advance(1000, 100);
  await r.drive(Promise.all(reads));
  await r.advance(100);
}

/** The run's work from its parameters: every reader lists after every write and waits for the cache. */
function estimate(p: ScenarioParams): RunWorkload {
  const lag = Number(p.cacheLagMs);
  const lists = writes * Number(p.readers);
  const waitMs = Math.min(lag, blockTimeout);
  // After the writes, the drain goes on a second at a time until the last read answered (≤ 10 s).
  const drainMs = Math.min(10, Math.ceil(waitMs / 1000)) * 1000;
  // The writer awaits each create (a txn) before its second passes.
  const writeMs = etcdWorkMs(p, {
    requests: writes,
    writes,
    countedKeys: writes,
    keys: writes,
    bytes: writes * podKvBytes,
  });
  // A scrape a second with a write and at the end: etcd's get and txn histograms in each.
  const scrapes = writes + 1;
  return {
    virtualMs: 1000 + writes * 1000 + drainMs + 100 + writeMs,
    etcdWrites: 5 + writes,
    cachedWrites: writes,
    storeWrites: writes,
    deliveries: 0,
    watches: 0,
    // A read that times out falls back to etcd and lists the pods there.
    listedKeys: lag > blockTimeout ? lists * (5 + writes) : 0,
    trace: {
      lists,
      // Reading etcd's current revision; and the fallback's list.
      listCalls: lists * (lag > blockTimeout ? 2 : 1),
      writeInputs: 1 + writes,
      dispatches: writes,
      scrapes,
      scrapedHistograms: 2 * scrapes,
      // Per read: the consistent-read decision, the wait's start and end, the cache's list; and
      // the progress requests (one per 100 ms of waiting, with etcd's answer).
      other: lists * 4 + 2 * writes * Math.ceil(waitMs / 100),
    },
  };
}

function readRows(lists: ListRecord[]): Array<Array<string | number>> {
  return lists.map((l) => {
    const w = l.waits[0];
    return [
      vtime(l.at),
      l.client ?? '',
      w ? dur(w.waitedMs) : '—',
      w ? w.outcome : 'none',
      l.fallbacks.length ? l.fallbacks.join('; ') : '—',
      l.servedBy,
      l.error ? `${l.error.code} ${l.error.reason}` : '200',
      l.resourceVersion || '—',
    ];
  });
}

function summarize(model: RunModel) {
  const lists = model.lists;
  const waits = lists.map((l) => l.waits[0]).filter((w) => w !== undefined);
  const caughtUp = waits.filter((w) => w.outcome === 'caught-up').length;
  const fresh = waits.filter((w) => w.outcome === 'fresh').length;
  const timeouts = waits.filter((w) => w.outcome === 'timeout').length;
  const fallbackToEtcd = lists.filter((l) =>
    l.fallbacks.some((f) => f.includes('fell back to etcd')),
  ).length;
  const status429 = lists.filter((l) => l.error?.code === 429).length;
  const failed = lists.filter((l) => l.servedBy === 'error').length;
  const maxWait = waits.reduce((m, w) => Math.max(m, w.waitedMs), 0);
  const buckets = histogramBuckets(model, readWaitMetric);
  const gr = { group: '', resource: 'pods' };
  const facts: Record<string, number | string | boolean> = {
    reads: lists.length,
    fresh,
    caughtUp,
    timeouts,
    fallbackToEtcd,
    tooManyRequests: status429,
    failed,
    maxWaitMs: maxWait,
    readWaitCount: metric(model, `${readWaitMetric}_count`, gr),
    readWaitSumSeconds: metric(model, `${readWaitMetric}_sum`, gr),
    consistentReadsFromCache: metric(model, 'apiserver_watch_cache_consistent_read_total', {
      fallback: 'false',
      success: 'true',
    }),
    consistentReadsFallback: metric(model, 'apiserver_watch_cache_consistent_read_total', {
      fallback: 'true',
    }),
    consistentReadsSkipped: metric(model, 'apiserver_watch_cache_consistent_read_total', {
      fallback: 'skipped',
    }),
    progressRequests: model.progressRequests ?? 0,
  };
  const lag = Number(model.header.params.cacheLagMs);
  const story = [
    `The watch cache saw every write ${lag} ms after etcd. Each of ${lists.length} consistent LISTs read etcd's revision, then waited for the cache to reach it.`,
    timeouts === 0
      ? `All caught up within blockTimeout (3 s): the longest wait was ${dur(maxWait)}; ${formatCount(facts.progressRequests as number)} progress requests were sent meanwhile.`
      : `${timeouts} waits timed out after 3 s (TooLargeResourceVersion): ${fallbackToEtcd} fell back to etcd, ${status429} got 429 Too Many Requests.`,
  ];
  const tables: SummaryTable[] = [
    {
      title: 'Consistent reads',
      columns: [
        'at',
        'reader',
        'waited',
        'wait outcome',
        'fallback',
        'served by',
        'status',
        'list RV',
      ],
      rows: readRows(lists),
    },
    {
      title: `${readWaitMetric} (observations per bucket)`,
      columns: ['le (s)', 'reads'],
      rows: buckets.map((b) => [b.le, b.count]),
    },
  ];
  const charts = [
    {
      title: 'read waits by bucket',
      unit: 'reads',
      points: buckets.map((b) => ({ label: `≤${b.le}`, value: b.count })),
    },
  ];
  return { scenario: 'read-your-writes', title: definition.title, story, facts, tables, charts };
}

const definition = {
  name: 'read-your-writes',
  title: 'Consistent reads from a lagging watch cache',
  label: 'Read your writes',
  storyView: 'lists' as const,
  description:
    `A writer creates a pod every second (${writes} writes); after each write every reader sends a consistent LIST (RV ""). ` +
    "The watch cache gets etcd's watch stream `cacheLagMs` late. Each read takes etcd's current revision, then waits for the " +
    'cache (requesting progress every 100 ms) for up to 3 s; then it falls back to etcd, or answers 429 when ' +
    'skipTimeoutFallback turns on the 1.37 ConsistentListFromCacheSkipTimeoutFallback gate. Shows the read-wait histogram.',
  params: [
    {
      name: 'cacheLagMs',
      type: 'number' as const,
      default: 500,
      min: 0,
      max: 600_000,
      description:
        'How late (virtual ms) the watch cache sees each etcd watch response, progress notifications included.',
    },
    {
      name: 'skipTimeoutFallback',
      type: 'boolean' as const,
      default: false,
      description:
        'Turn on ConsistentListFromCacheSkipTimeoutFallback (1.37, alpha): a read that times out gets 429 instead of falling back to etcd.',
    },
    {
      name: 'readers',
      type: 'number' as const,
      default: 1,
      min: 1,
      max: 1000,
      integer: true,
      description: 'Readers; each sends one consistent LIST after every write.',
    },
    ...etcdLatencyParams,
  ],
};

export const readYourWrites: ScenarioModule = {
  definition,
  profile: () => '1.36',
  run,
  estimate,
  summarize,
  sections: ['lists', 'waits'],
};
