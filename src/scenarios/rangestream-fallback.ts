// Scenario over k8s.io/apiserver pkg/storage/etcd3/store.go (master, 1.37-pre: shouldStream,
// the RangeStream list path and its Unimplemented fallback) and pkg/storage/feature
// (the RangeStream support checker, rechecked every 10 minutes): unfiltered lists are served by
// one etcd RangeStream when etcd has it; an etcd without it answers Unimplemented, the store pages
// instead and does not ask again for 10 minutes. Filtered, paged lists never stream.
import type { SummaryTable } from '../run/run-summary';
import type { ListRecord, RunModel } from '../run/run-model';
import { rangeStreamRecheckInterval } from '../engine';
import { etcdLatencyParams } from './etcd-latency';
import type { RunWorkload } from './run-estimate';
import type { ScenarioModule, ScenarioParams } from './scenario';
import { pageDoublingCost } from './selector-death-spiral';
import type { ScenarioRun } from '../sim/scenario-run';
import { vtime } from './summary-format';

const pods = 1000;
const matchEvery = 10;

async function run(r: ScenarioRun, p: ScenarioParams): Promise<void> {
  const lists = Number(p.lists);
  const intervalMs = Number(p.intervalSeconds) * 1000;
  const supports = Boolean(p.etcdSupportsRangeStream);
  // The cacher is not started: its reflector's own LIST would probe RangeStream first. Every list
  // goes to the etcd3 store, as the delegator sends the requests the watch cache does not serve.
  const resource = r.createResource({
    etcd: { rangeStream: supports ? 'supported' : 'unimplemented' },
  });
  r.seedPods(resource, pods, {
    namespace: 'default',
    name: (i) => `pod-${String(i).padStart(4, '0')}`,
    labels: (i) => ({ app: (i + 1) % matchEvery === 0 ? 'match' : 'other' }),
  });
  r.phase(
    'lists',
    `${lists} rounds, one every ${Number(p.intervalSeconds)} s: an unfiltered LIST (limit=500) and a filtered one (app=match, limit=100), both to etcd`,
  );
  const t0 = r.clock.now();
  for (let i = 0; i < lists; i++) {
    await r.advanceTo(t0 + i * intervalMs, 60_000);
    r.progress(i / lists, `round ${i + 1}/${lists}`);
    await r.drive(r.list(resource, { namespace: 'default', limit: 500 }, 'store', 'unfiltered'));
    await r.drive(
      r.list(
        resource,
        { namespace: 'default', labelSelector: 'app=match', limit: 100 },
        'store',
        'filtered',
      ),
    );
    await r.settle();
  }
}

/** The run's work from its parameters: rounds of one unfiltered and one filtered LIST. */
function estimate(p: ScenarioParams): RunWorkload {
  const rounds = Number(p.lists);
  const filtered = pageDoublingCost(pods, matchEvery, 100);
  // Without RangeStream support a probe fails, is retried paged, and is tried again after the
  // recheck interval.
  const probes =
    String(p.profile) === '1.37' && p.etcdSupportsRangeStream !== true
      ? Math.min(
          rounds,
          1 +
            Math.floor(
              ((rounds - 1) * Number(p.intervalSeconds) * 1000) / rangeStreamRecheckInterval,
            ),
        )
      : 0;
  return {
    virtualMs: (rounds - 1) * Number(p.intervalSeconds) * 1000,
    etcdWrites: pods,
    cachedWrites: 0,
    storeWrites: 0,
    deliveries: 0,
    watches: 0,
    listedKeys: rounds * (Math.min(500, pods) + filtered.fetched),
    trace: {
      writeInputs: 1,
      lists: 2 * rounds,
      // A scrape each round: etcd's range and the store's list duration histograms.
      scrapes: rounds,
      scrapedHistograms: 2 * rounds,
      listCalls: rounds * (1 + filtered.calls) + probes,
      other: probes,
    },
  };
}

function isProbe(l: ListRecord): boolean {
  return l.etcdRequests.some((q) => q.operation === 'listStream');
}

function summarize(model: RunModel) {
  const lists = model.lists;
  const unfiltered = lists.filter((l) => l.client === 'unfiltered');
  const filtered = lists.filter((l) => l.client === 'filtered');
  const probes = lists.filter(isProbe);
  const fallbacks = lists.filter((l) => l.fallbacks.some((f) => f.includes('Unimplemented')));
  const facts: Record<string, number | string | boolean> = {
    lists: lists.length,
    unfilteredLists: unfiltered.length,
    filteredLists: filtered.length,
    rangeStreamRequests: probes.length,
    streamedLists: lists.filter((l) => l.streamed).length,
    fallbacks: fallbacks.length,
    fallbackTimes: fallbacks.map((l) => Math.round(l.at / 1000)).join(','),
    pagedLists: lists.filter((l) => !l.streamed).length,
    filteredStreamed: filtered.filter((l) => l.streamed).length,
    recheckIntervalSeconds: rangeStreamRecheckInterval / 1000,
    etcdRequests: lists.reduce((a, l) => a + l.etcdRequests.length, 0),
  };
  const profile = model.header.profile;
  const story =
    profile !== '1.37'
      ? [
          `release-1.36 has no EtcdRangeStream: all ${lists.length} lists paged through etcd with Range calls.`,
        ]
      : [
          model.header.params.etcdSupportsRangeStream === true
            ? `etcd has RangeStream: ${facts.streamedLists} unfiltered lists were each one RangeStream request.`
            : `etcd lacks RangeStream: the first unfiltered list probed it and got Unimplemented, then paged. The store did not ask again for 10 minutes: ` +
              `${fallbacks.length} probe(s) in all, at ${fallbacks.map((l) => vtime(l.at)).join(', ')}.`,
          `Filtered, paged lists never stream (${filtered.length} lists, ${facts.filteredStreamed} streamed): a RangeStream cannot stop when a page is full.`,
        ];
  const rows = lists.map((l) => {
    const calls = l.etcdRequests
      .map((q) => `${q.operation}(${q.limit})${q.error ? ' ✗' : ''}`)
      .join(' ');
    return [
      vtime(l.at),
      l.client ?? '',
      l.stream ? `${l.stream.decision} (${l.stream.reason})` : 'paged (gate off)',
      l.streamed ? 'yes' : 'no',
      l.fallbacks.length ? 'Unimplemented → paged' : '',
      calls,
      l.returned,
    ];
  });
  const tables: SummaryTable[] = [
    {
      title: 'Lists',
      columns: [
        'at',
        'list',
        'stream decision',
        'streamed',
        'fallback',
        'etcd calls (limit)',
        'items',
      ],
      rows: rows.slice(0, 80),
      note: rows.length > 80 ? `(${rows.length - 80} more)` : undefined,
    },
  ];
  const charts = [
    {
      title: 'etcd calls per unfiltered list',
      unit: 'calls',
      points: unfiltered
        .slice(0, 40)
        .map((l) => ({ label: vtime(l.at), value: l.etcdRequests.length })),
    },
  ];
  return {
    scenario: 'rangestream-fallback',
    title: definition.title,
    story,
    facts,
    tables,
    charts: charts.filter((c) => c.points.length > 0),
  };
}

const definition = {
  name: 'rangestream-fallback',
  title: 'etcd RangeStream lists (1.37): probe, Unimplemented, fallback, 10-minute recheck',
  label: 'RangeStream fallback (1.37)',
  storyView: 'lists' as const,
  description:
    `${pods} pods in etcd. Every \`intervalSeconds\` an unfiltered LIST (limit=500) and a filtered LIST (app=match, limit=100) go to the ` +
    'etcd3 store. With the 1.37 profile an unfiltered list uses one etcd RangeStream; an etcd without it answers Unimplemented, ' +
    'the store pages instead and marks RangeStream unsupported for 10 minutes, then probes again. Filtered pages never stream. ' +
    'With the 1.36 profile nothing streams.',
  params: [
    {
      name: 'etcdSupportsRangeStream',
      type: 'boolean' as const,
      default: false,
      description: 'etcd has the RangeStream RPC (3.7); false = etcd <= 3.6 answers Unimplemented.',
    },
    {
      name: 'lists',
      type: 'number' as const,
      default: 30,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'Rounds; each sends one unfiltered and one filtered LIST.',
    },
    {
      name: 'intervalSeconds',
      type: 'number' as const,
      default: 60,
      min: 0,
      max: 86_400,
      description: 'Virtual seconds between rounds.',
    },
    {
      name: 'profile',
      type: 'string' as const,
      default: '1.37',
      choices: ['1.36', '1.37'],
      description: 'Semantics: 1.37 preview (EtcdRangeStream on) or release-1.36 (no RangeStream).',
    },
    ...etcdLatencyParams,
  ],
};

export const rangestreamFallback: ScenarioModule = {
  definition,
  profile: (p) => String(p.profile),
  run,
  estimate,
  summarize,
  sections: ['lists'],
};
