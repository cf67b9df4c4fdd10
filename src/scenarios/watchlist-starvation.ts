// Scenario over k8s.io/apiserver pkg/storage/cacher/cacher.go (Watch,
// waitUntilWatchCacheFreshAndForceAllEvents, the initial-events-end bookmark) and
// cache_watcher.go (the bookmark state machine), release-1.36: WatchList clients
// (sendInitialEvents=true, allowWatchBookmarks=true, RV "") whose required RV, etcd's current
// revision, the watch cache reaches late because its etcd watch stream is stalled.
import type { SummaryTable } from '../run/run-summary';
import type { RunModel } from '../run/run-model';
import { blockTimeout } from '../engine';
import { DelayedWatchEtcd } from '../sim/delayed-watch-etcd';
import { etcdLatencyParams } from './etcd-latency';
import type { RunWorkload } from './run-estimate';
import type { ScenarioModule, ScenarioParams } from './scenario';
import type { ClientWatch, ScenarioRun } from '../sim/scenario-run';
import { dur, histogram, stats, vtime } from './summary-format';
import { formatCount } from '../format/count-text';

/** The ERROR's Status asks the client to retry after 1 s (resourceVersionTooHighRetrySeconds). */
const retryAfterMs = 1000;
/** How long the run goes on after the stall, so each watcher's first heartbeat (a minute later) shows. */
const afterStallMs = 90_000;

async function run(r: ScenarioRun, p: ScenarioParams): Promise<void> {
  const watchers = Number(p.watchers);
  const stuckMs = Number(p.stuckSeconds) * 1000;
  const etcd = new DelayedWatchEtcd({ ...r.etcdOptions(), progressNotifyIntervalMs: 5000 });
  const resource = r.createResource({ etcd });
  r.seedPods(resource, 20, {
    namespace: 'default',
    name: (i) => `pod-${String(i).padStart(2, '0')}`,
  });
  resource.start();
  await r.drive(resource.waitReady());
  await r.advance(1000);
  const stallStart = r.clock.now();
  const stallEnd = stallStart + stuckMs;
  const end = stallEnd + afterStallMs;
  etcd.stallWatches(stallEnd);
  r.phase(
    'stall',
    `the watch cache's etcd watch stream stalls for ${Number(p.stuckSeconds)} s (events and progress notifications held back); a writer keeps updating pods`,
  );
  let finished = false;
  // The writer: one pod update a second, the whole run.
  const writer = (async () => {
    let k = 0;
    while (!finished) {
      const stored = await resource.setLabels(
        'default',
        `pod-${String(k % 20).padStart(2, '0')}`,
        { gen: String(k) },
        'writer',
      );
      r.input({
        action: 'writes',
        count: 1,
        verb: 'update',
        keyPrefix: '/registry/pods/default/',
        revision: Number(stored.metadata.resourceVersion),
      });
      k++;
      await r.clock.sleep(1000);
    }
  })();
  // Half a second in: a client's 3 s attempts then never end on the very instant the stall does.
  await r.advance(500);
  r.phase(
    'watch',
    `${formatCount(watchers)} WatchList clients open (sendInitialEvents=true, allowWatchBookmarks=true, RV "")`,
  );
  const clients: Promise<ClientWatch | undefined>[] = [];
  for (let i = 0; i < watchers; i++) {
    const name = `watchlist-${String(i + 1).padStart(5, '0')}`;
    clients.push(
      (async () => {
        // A 504 ERROR (the cache did not reach the RV within 3 s) is retried after the Status's
        // retryAfterSeconds; client-go's reflector would fall back to LIST+WATCH instead.
        while (r.clock.now() < end) {
          const w = await r.watch(resource, name, {
            namespace: 'default',
            resourceVersion: '',
            resourceVersionMatch: 'NotOlderThan',
            sendInitialEvents: true,
            allowWatchBookmarks: true,
          });
          if (!w.error) return w;
          await r.clock.sleep(retryAfterMs);
        }
        return undefined;
      })(),
    );
  }
  while (r.clock.now() < end) {
    r.progress(
      (r.clock.now() - stallStart) / (end - stallStart),
      `virtual ${vtime(r.clock.now())}`,
    );
    await r.advance(Math.min(1000, end - r.clock.now()), 100);
  }
  finished = true;
  await r.advance(1000);
  await r.drive(writer);
  await r.drive(Promise.all(clients));
}

/** The run's work from its parameters: attempts while the stream is stalled, then one watch each. */
function estimate(p: ScenarioParams): RunWorkload {
  const watchers = Number(p.watchers);
  const stuckMs = Number(p.stuckSeconds) * 1000;
  const pods = 20;
  // The clients start 500 ms into the stall; each failed attempt waits blockTimeout, then 1 s.
  const failures = Math.max(0, Math.ceil((stuckMs - 500) / (blockTimeout + retryAfterMs)));
  const attempts = failures + 1;
  // The writer updates a pod every second from the stall until a second after the end.
  const writes = Math.floor((stuckMs + afterStallMs + 1000) / 1000) + 1;
  // Three quarters of the stall someone waits, asking etcd for progress every 100 ms.
  const progressRequests = Math.round((stuckMs * 0.75) / 100);
  const heartbeats = 1 + Math.floor(afterStallMs / 60_000);
  const scrapes = (stuckMs + afterStallMs) / 1000 + 1;
  return {
    virtualMs: 1000 + stuckMs + afterStallMs + 1000,
    etcdWrites: pods + writes,
    cachedWrites: writes,
    storeWrites: writes,
    // Each gets the pods as initial events, its end bookmark, the writes after it and heartbeats.
    deliveries: watchers * (pods + heartbeats + Math.floor(afterStallMs / 1000)),
    watches: watchers * attempts,
    listedKeys: 0,
    trace: {
      watchers,
      rejectedWatches: watchers * attempts,
      bookmarks: watchers * heartbeats,
      dispatches: writes,
      writeInputs: writes,
      watcherSamples: writes,
      // Every second but the first has a write or a progress request: etcd's histograms change.
      scrapes,
      scrapedHistograms: 2 * scrapes,
      other: 2 * progressRequests,
    },
  };
}

function summarize(model: RunModel) {
  const reqs = model.watchRequests ?? [];
  const byClient = new Map<
    string,
    { attempts: number; errors: number; firstAt: number; startedAt?: number; watcherId?: string }
  >();
  for (const q of reqs) {
    const c = byClient.get(q.client) ?? { attempts: 0, errors: 0, firstAt: q.at };
    c.attempts++;
    if (q.outcome === 'error') c.errors++;
    if (q.outcome === 'started') {
      c.startedAt = q.answeredAt ?? q.at;
      c.watcherId = q.watcherId;
    }
    byClient.set(q.client, c);
  }
  const clients = [...byClient.values()];
  const errors = reqs.filter((q) => q.outcome === 'error');
  const codes = histogram(errors.map((e) => e.error?.code ?? 0));
  const ws = model.watchers;
  const ends = ws.map((w) => w.initialEventsEndBookmarks ?? 0);
  const heartbeats = ws.map((w) => w.bookmarksReceived - (w.initialEventsEndBookmarks ?? 0));
  const delays = clients
    .filter((c) => c.startedAt !== undefined)
    .map((c) => (c.startedAt as number) - c.firstAt);
  const waits = model.freshnessWaits ?? [];
  const ticks = model.bookmarkTicks ?? [];
  const facts: Record<string, number | string | boolean> = {
    clients: clients.length,
    watchRequests: reqs.length,
    errors: errors.length,
    errors504: errors.filter((e) => e.error?.code === 504).length,
    registered: ws.length,
    attemptsPerClientMax: stats(clients.map((c) => c.attempts)).max,
    freshnessTimeouts: waits.filter((w) => w.outcome === 'timeout').length,
    freshnessCaughtUp: waits.filter((w) => w.outcome === 'caught-up').length,
    progressRequests: model.progressRequests ?? 0,
    endBookmarksPerWatcherMin: stats(ends).min,
    endBookmarksPerWatcherMax: stats(ends).max,
    heartbeatsPerWatcherMin: stats(heartbeats).min,
    heartbeatsPerWatcherMax: stats(heartbeats).max,
    registrationDelayMaxMs: stats(delays).max,
    bookmarkTicks: ticks.length,
  };
  const stuck = Number(model.header.params.stuckSeconds);
  const story = [
    `The cache's etcd watch stream stalled for ${stuck} s while writes went on. ${clients.length} WatchList clients asked for a consistent start (RV "": etcd's current revision).`,
    `Each attempt waited for the cache (blockTimeout 3 s, a progress request every 100 ms: ${formatCount(Number(facts.progressRequests))} in all) and, while the cache was stuck, got a 504 ERROR event ` +
      `(${errors.length} in all); the client retried after 1 s. In release-1.36 a WatchList watch is registered only once the cache has reached its RV, so no registered watcher is left waiting for its bookmark.`,
    `Once the stream resumed, every client was registered (${ws.length} watchers, the last ${dur(Number(facts.registrationDelayMaxMs))} after its first attempt), got its initial events, ` +
      `exactly ${facts.endBookmarksPerWatcherMin === facts.endBookmarksPerWatcherMax ? facts.endBookmarksPerWatcherMax : `${facts.endBookmarksPerWatcherMin}–${facts.endBookmarksPerWatcherMax}`} initial-events-end bookmark each, then heartbeats (${facts.heartbeatsPerWatcherMin}–${facts.heartbeatsPerWatcherMax}).`,
  ];
  const sample = ws.slice(0, 10);
  const tables: SummaryTable[] = [
    {
      title: 'Watch requests by outcome',
      columns: ['outcome', 'code', 'requests'],
      rows: [
        ['started', 200, reqs.filter((q) => q.outcome === 'started').length],
        ...codes.map((c) => ['error', c.value, c.count] as Array<string | number>),
      ],
    },
    {
      title: 'Watchers (first 10): state history',
      columns: ['watcher', 'registered', 'states', 'end bookmarks', 'heartbeats'],
      rows: sample.map((w) => [
        w.id,
        vtime(w.states[0].at),
        w.states.map((s) => `${s.state}@${vtime(s.at)}`).join(' → '),
        w.initialEventsEndBookmarks ?? 0,
        w.bookmarksReceived - (w.initialEventsEndBookmarks ?? 0),
      ]),
    },
    {
      title: 'Freshness waits',
      columns: ['outcome', 'waits'],
      rows: histogram(
        waits.map((w) => (w.outcome === 'timeout' ? 0 : w.outcome === 'caught-up' ? 1 : 2)),
      ).map((h) => [['timeout', 'caught-up', 'fresh'][h.value], h.count]),
    },
  ];
  const charts = [
    {
      title: 'attempts per client',
      unit: 'clients',
      points: histogram(clients.map((c) => c.attempts)).map((h) => ({
        label: `${h.value} attempt(s)`,
        value: h.count,
      })),
    },
  ];
  return {
    scenario: 'watchlist-starvation',
    title: definition.title,
    story,
    facts,
    tables,
    charts,
  };
}

const definition = {
  name: 'watchlist-starvation',
  title: 'WatchList clients while the watch cache is stuck behind etcd',
  label: 'WatchList starvation',
  storyView: 'watchers' as const,
  description:
    "The watch cache's etcd watch stream stalls for `stuckSeconds` while a writer keeps updating pods, so etcd's revision runs ahead. " +
    'WatchList clients (sendInitialEvents=true, allowWatchBookmarks=true, RV "") need the cache at etcd\'s revision: each attempt ' +
    'waits up to 3 s, requesting progress every 100 ms, then gets a 504 ERROR event and retries a second later. When the stream ' +
    'resumes each is registered, gets its initial events, exactly one initial-events-end bookmark, then a heartbeat a minute later.',
  params: [
    {
      name: 'watchers',
      type: 'number' as const,
      default: 100,
      min: 1,
      max: 20_000,
      integer: true,
      description: 'WatchList clients.',
    },
    {
      name: 'stuckSeconds',
      type: 'number' as const,
      default: 20,
      min: 0,
      max: 3600,
      description:
        "How long the watch cache's etcd watch stream is stalled (events and progress notifications held back).",
    },
    ...etcdLatencyParams,
  ],
};

export const watchlistStarvation: ScenarioModule = {
  definition,
  profile: () => '1.36',
  run,
  estimate,
  summarize,
  sections: ['watchers', 'watchRequests'],
};
