// Scenario over k8s.io/apiserver pkg/storage/cacher/cacher.go (dispatchEvent with the dispatch
// timeout budget), time_budget.go and cache_watcher.go (add, the graceful forget), release-1.36:
// watchers whose clients read slower than events arrive fill their buffers; the dispatcher waits
// for them only as long as the time budget allows (refilled 50 ms per second, at most 100 ms),
// then closes them as unresponsive. A WatchList watcher that already holds its awaited bookmark is
// closed gracefully: its buffer is drained first.
import type { SummaryTable } from '../run/run-summary';
import { encodeStoredObject } from '../engine';
import type { RunModel } from '../run/run-model';
import { etcdLatencyParams } from './etcd-latency';
import type { RunWorkload } from './run-estimate';
import type { ScenarioModule, ScenarioParams } from './scenario';
import type { ClientWatch, ScenarioRun } from '../sim/scenario-run';
import { dur, vtime } from './summary-format';
import { formatCount } from '../format/count-text';

/** How fast a slow client reads. */
export const slowReadsPerSecond = 10;
/** How long events are written. */
export const eventSeconds = 10;
const initialPods = 50;

async function run(r: ScenarioRun, p: ScenarioParams): Promise<void> {
  const fast = Number(p.fastWatchers);
  const slow = Number(p.slowWatchers);
  const rate = Number(p.eventsPerSecond);
  const resource = r.createResource();
  r.seedPods(resource, initialPods, {
    namespace: 'default',
    name: (i) => `pod-${String(i).padStart(2, '0')}`,
  });
  resource.start();
  await r.drive(resource.waitReady());
  // Let the dispatch budget fill up to its cap (it starts empty and refills 50 ms per second).
  await r.advance(3000);
  const rv = String(resource.watchCache.resourceVersion);
  r.phase(
    'watch',
    `${fast} fast watchers, ${slow} slow ones reading ${slowReadsPerSecond}/s${slow > 0 ? ' (the last a WatchList watcher)' : ''}`,
  );
  const watches: ClientWatch[] = [];
  for (let i = 0; i < fast; i++)
    watches.push(
      await r.drive(
        r.watch(resource, `fast-${String(i + 1).padStart(4, '0')}`, {
          namespace: 'default',
          resourceVersion: rv,
        }),
      ),
    );
  for (let i = 0; i < slow; i++) {
    const watchList = i === slow - 1;
    watches.push(
      await r.drive(
        r.watch(
          resource,
          `${watchList ? 'slow-watchlist' : 'slow'}-${String(i + 1).padStart(4, '0')}`,
          watchList
            ? {
                namespace: 'default',
                resourceVersion: '',
                resourceVersionMatch: 'NotOlderThan',
                sendInitialEvents: true,
                allowWatchBookmarks: true,
                readRate: { kind: 'slow', eventsPerSecond: slowReadsPerSecond },
              }
            : {
                namespace: 'default',
                resourceVersion: rv,
                readRate: { kind: 'slow', eventsPerSecond: slowReadsPerSecond },
              },
        ),
      ),
    );
  }
  // A bookmark tick (~1 s) hands the WatchList watcher, still sending its initial events, its
  // awaited bookmark: WaitingForBookmark -> BookmarkReceived.
  await r.advance(2000, 100);
  r.phase('events', `${rate} pod updates per second for ${eventSeconds} s`);
  const start = r.clock.now();
  const n = Math.floor(rate * eventSeconds);
  let pending = 0;
  let lastRev = 0;
  let second = 0;
  for (let k = 0; k < n; k++) {
    const at = start + Math.floor((k * 1000) / rate);
    if (at > r.clock.now()) await r.advanceTo(at, 100);
    const s = Math.floor((r.clock.now() - start) / 1000);
    if (s !== second) {
      r.input({
        action: 'writes',
        count: pending,
        verb: 'update',
        keyPrefix: '/registry/pods/default/',
        revision: lastRev,
      });
      pending = 0;
      second = s;
      r.progress(s / (eventSeconds + 10), `virtual ${vtime(r.clock.now() - start)}`);
    }
    const i = k % initialPods;
    const name = `pod-${String(i).padStart(2, '0')}`;
    lastRev = resource.etcd.put(
      `/registry/pods/default/${name}`,
      encodeStoredObject({
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: { name, namespace: 'default', labels: { gen: String(k) } },
        spec: { containers: null },
        status: {},
      }),
    );
    pending++;
  }
  if (pending > 0)
    r.input({
      action: 'writes',
      count: pending,
      verb: 'update',
      keyPrefix: '/registry/pods/default/',
      revision: lastRev,
    });
  r.phase('drain', 'no more writes; slow clients keep reading what they were given');
  await r.advance(10_000, 100);
}

/** The run's work from its parameters: the updates reach every fast watcher; slow ones read what they can. */
function estimate(p: ScenarioParams): RunWorkload {
  const fast = Number(p.fastWatchers);
  const slow = Number(p.slowWatchers);
  const n = Math.floor(Number(p.eventsPerSecond) * eventSeconds);
  // From its watch (at 3 s) to the end of the drain, a slow client reads at most this many.
  const slowReads = slowReadsPerSecond * (2 + eventSeconds + 10);
  return {
    virtualMs: 3000 + 2000 + eventSeconds * 1000 + 10_000,
    etcdWrites: initialPods + n,
    cachedWrites: n,
    storeWrites: 0,
    deliveries: fast * n + slow * Math.min(n, slowReads),
    watches: fast + slow,
    listedKeys: 0,
    trace: {
      watchers: fast + slow,
      dispatches: n,
      writeInputs: 1 + eventSeconds,
      // Each dispatch moves the watchers' figures; a scrape a second from the watches to the drain.
      watcherSamples: n,
      scrapes: eventSeconds + 2,
      // A terminated slow watcher's lines (terminated, stopped, closed, the client's close).
      other: slow * 4 + 10,
    },
  };
}

function summarize(model: RunModel) {
  const ws = model.watchers;
  const clientOf = new Map<string, string>();
  for (const q of model.watchRequests ?? [])
    if (q.watcherId !== undefined) clientOf.set(q.watcherId, q.client);
  const kind = (id: string): string => {
    const c = clientOf.get(id) ?? '';
    return c.startsWith('fast')
      ? 'fast'
      : c.startsWith('slow-watchlist')
        ? 'slow WatchList'
        : c.startsWith('slow')
          ? 'slow'
          : '?';
  };
  const terminated = ws.filter((w) => w.terminated);
  const d = model.dispatch;
  const facts: Record<string, number | string | boolean> = {
    fastWatchers: ws.filter((w) => kind(w.id) === 'fast').length,
    slowWatchers: ws.filter((w) => kind(w.id) !== 'fast').length,
    eventsDispatched: d?.events ?? 0,
    blockedDispatches: d?.blockedEvents ?? 0,
    dispatchWaitedMs: d?.waitedMs ?? 0,
    terminated: terminated.length,
    terminatedFast: terminated.filter((w) => kind(w.id) === 'fast').length,
    terminatedSlow: terminated.filter((w) => kind(w.id) !== 'fast').length,
    gracefulTerminations: terminated.filter((w) => w.closeReason.includes('graceful')).length,
    terminatedWatchersMetric:
      Object.entries(model.metrics).find(([k]) =>
        k.startsWith('apiserver_terminated_watchers_total{'),
      )?.[1] ?? 0,
  };
  const story = [
    `${formatCount(Number(facts.eventsDispatched))} events went to ${ws.length} watchers. ${facts.blockedDispatches} dispatches met a full buffer; the dispatcher waited ` +
      `${dur(Number(facts.dispatchWaitedMs))} in all, within its time budget (50 ms refilled per second, at most 100 ms).`,
    `${terminated.length} watchers were closed as unresponsive (${facts.terminatedSlow} slow, ${facts.terminatedFast} fast), ` +
      "in the seed's dispatch order (one of the orders upstream's random map iteration could take); " +
      (facts.gracefulTerminations === 0
        ? 'none gracefully.'
        : `${facts.gracefulTerminations} gracefully, draining the buffer first because it held the bookmark the client was waiting for.`),
  ];
  const slowRows = ws
    .filter((w) => kind(w.id) !== 'fast')
    .map((w) => [
      w.id,
      kind(w.id),
      w.states.map((s) => s.state).join(' → '),
      w.terminated ? 'yes' : 'no',
      w.closeReason || '(open)',
      w.closedAt !== undefined ? vtime(w.closedAt) : '',
      w.eventsReceived,
    ]);
  const tables: SummaryTable[] = [
    {
      title: 'Slow watchers',
      columns: [
        'watcher',
        'kind',
        'states',
        'terminated',
        'close reason',
        'closed at',
        'events read',
      ],
      rows: slowRows,
    },
    {
      title: 'Dispatches that met blocked watchers (first 20)',
      columns: ['at', 'rv', 'candidates', 'blocked', 'unblocked', 'terminated', 'budget', 'waited'],
      rows: (d?.blocked ?? [])
        .slice(0, 20)
        .map((b) => [
          vtime(b.at),
          b.rv,
          b.candidates,
          b.blocked,
          b.unblocked,
          b.terminated,
          dur(b.budgetMs),
          dur(b.waitedMs),
        ]),
    },
  ];
  const charts = [
    {
      title: 'watchers by outcome',
      unit: 'watchers',
      points: [
        { label: 'open', value: ws.length - terminated.length },
        { label: 'terminated', value: terminated.length },
      ],
    },
  ];
  return {
    scenario: 'slow-watcher-termination',
    title: definition.title,
    story,
    facts,
    tables,
    charts,
  };
}

const definition = {
  name: 'slow-watcher-termination',
  title: 'Slow watchers: blocked dispatch, the time budget, terminations',
  label: 'Slow watcher termination',
  storyView: 'watchers' as const,
  description:
    `Fast watchers read at once; slow ones read ${slowReadsPerSecond} events per second; the last slow one is a WatchList watcher that ` +
    `already holds its awaited bookmark. Pods are updated at \`eventsPerSecond\` for ${eventSeconds} s. The dispatcher offers each event ` +
    'without blocking, waits for blocked watchers within its time budget, then closes them as unresponsive ' +
    '(apiserver_terminated_watchers_total); the WatchList one gracefully, draining its buffer first. ' +
    'The blocked watchers are offered the event in the order of the seed: one of the orders ' +
    "upstream's random map iteration could take.",
  params: [
    {
      name: 'fastWatchers',
      type: 'number' as const,
      default: 50,
      min: 0,
      max: 20_000,
      integer: true,
      description: 'Watchers whose clients read at once.',
    },
    {
      name: 'slowWatchers',
      type: 'number' as const,
      default: 5,
      min: 0,
      max: 5000,
      integer: true,
      description: `Watchers whose clients read ${slowReadsPerSecond} events/s; the last is a WatchList watcher.`,
    },
    {
      name: 'eventsPerSecond',
      type: 'number' as const,
      default: 200,
      min: 1,
      max: 20_000,
      description: `Pod updates per second, for ${eventSeconds} s.`,
    },
    ...etcdLatencyParams,
  ],
};

export const slowWatcherTermination: ScenarioModule = {
  definition,
  profile: () => '1.36',
  run,
  estimate,
  summarize,
  sections: ['watchers', 'watchRequests'],
};
