// Scenario over k8s.io/apiserver pkg/storage/cacher/watch_cache.go (release-1.36:
// resizeCacheLocked, capacityUpperBound, getAllEventsSinceLocked's "too old" rule): the watch
// cache's history ring doubles while it is full of events younger than the 75 s window, halves
// only when it is full and even its newest quarter is older than the window, and a watcher that
// resumes from an RV the ring no longer holds gets 410 Gone.
import type { SummaryTable } from '../run/run-summary';
import type { RunModel } from '../run/run-model';
import {
  capacityUpperBound,
  DefaultEventFreshDuration,
  defaultLowerBoundCapacity,
} from '../engine';
import { etcdLatencyParams } from './etcd-latency';
import type { RunWorkload } from './run-estimate';
import type { ScenarioModule, ScenarioParams } from './scenario';
import type { ScenarioRun } from '../sim/scenario-run';
import { vtime } from './summary-format';
import { formatCount } from '../format/count-text';

/** Pods the writes cycle over (updates: the store keeps a fixed size, the history grows). */
const podsUpdated = 100;

function podJSON(i: number, gen: number): string {
  return JSON.stringify({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: `pod-${String(i).padStart(3, '0')}`,
      namespace: 'default',
      labels: { gen: String(gen) },
    },
    spec: { containers: null },
    status: {},
  });
}

async function run(r: ScenarioRun, p: ScenarioParams): Promise<void> {
  const burstRate = Number(p.burstEventsPerSecond);
  const burstMs = Number(p.burstSeconds) * 1000;
  const quietRate = Number(p.quietEventsPerSecond);
  const quietMs = Number(p.quietSeconds) * 1000;
  const lateDelayMs = Number(p.lateWatcherDelaySeconds) * 1000;
  const resource = r.createResource();
  r.seedPods(resource, podsUpdated, {
    namespace: 'default',
    name: (i) => `pod-${String(i).padStart(3, '0')}`,
  });
  resource.start();
  await r.drive(resource.waitReady());
  await r.advance(1000);
  // The late client lists now, then goes away; it resumes its watch from this RV later.
  const listed = await r.drive(
    r.list(resource, { namespace: 'default', resourceVersion: '0' }, 'delegator', 'late-watcher'),
  );
  const resumeRv = listed.result?.resourceVersion ?? String(resource.watchCache.resourceVersion);
  const t0 = r.clock.now();
  const lateAt = t0 + lateDelayMs;
  const end = Math.max(t0 + burstMs + quietMs, lateAt + 5000);
  // Progress counts writes, the run's work (a burst's second costs far more than a quiet one).
  const updates =
    Math.floor((burstMs * burstRate) / 1000) + Math.floor((quietMs * quietRate) / 1000);
  let lateOpened = false;
  let gen = 0;
  let pending = 0;
  let pendingRev = 0;
  let lastInputSecond = Math.floor(t0 / 1000);
  const flushInput = (): void => {
    if (pending > 0)
      r.input({
        action: 'writes',
        count: pending,
        verb: 'update',
        keyPrefix: '/registry/pods/default/',
        revision: pendingRev,
      });
    pending = 0;
  };
  const openLate = async (): Promise<void> => {
    flushInput();
    r.phase(
      'late-watcher',
      `the late client resumes its watch from rv ${resumeRv}, ${Number(p.lateWatcherDelaySeconds)} s after it listed`,
    );
    await r.drive(
      r.watch(resource, 'late-watcher', {
        namespace: 'default',
        resourceVersion: resumeRv,
        allowWatchBookmarks: true,
      }),
    );
    lateOpened = true;
  };
  const phase = async (
    rate: number,
    fromMs: number,
    toMs: number,
    label: string,
  ): Promise<void> => {
    r.phase(
      label,
      rate > 0
        ? `${rate} updates per second for ${(toMs - fromMs) / 1000} s`
        : `no writes for ${(toMs - fromMs) / 1000} s`,
    );
    if (rate <= 0) {
      if (!lateOpened && lateAt < toMs) {
        await r.advanceTo(lateAt);
        await openLate();
      }
      await r.advanceTo(toMs);
      return;
    }
    const n = Math.floor(((toMs - fromMs) * rate) / 1000);
    for (let k = 0; k < n; k++) {
      const at = fromMs + Math.floor((k * 1000) / rate);
      if (!lateOpened && lateAt <= at) {
        await r.advanceTo(lateAt);
        await openLate();
      }
      if (at > r.clock.now()) await r.advanceTo(at);
      const second = Math.floor(r.clock.now() / 1000);
      if (second !== lastInputSecond) {
        flushInput();
        lastInputSecond = second;
        r.progress(gen / updates, `${label}: virtual ${vtime(r.clock.now() - t0)}`);
      }
      const i = gen % podsUpdated;
      pendingRev = resource.etcd.put(
        `/registry/pods/default/pod-${String(i).padStart(3, '0')}`,
        podJSON(i, gen),
      );
      gen++;
      pending++;
    }
    flushInput();
    await r.advanceTo(toMs);
  };
  await phase(burstRate, t0, t0 + burstMs, 'burst');
  await phase(quietRate, t0 + burstMs, t0 + burstMs + quietMs, 'quiet');
  if (!lateOpened) {
    await r.advanceTo(lateAt);
    await openLate();
  }
  await r.advanceTo(end);
}

/** The run's work from its parameters: the writes of each phase, as run() spaces them. */
function estimate(p: ScenarioParams): RunWorkload {
  const phases = [
    { rate: Number(p.burstEventsPerSecond), seconds: Number(p.burstSeconds) },
    { rate: Number(p.quietEventsPerSecond), seconds: Number(p.quietSeconds) },
  ];
  const updates = phases.reduce((a, ph) => a + Math.floor(ph.rate * ph.seconds), 0);
  // One `writes` input per virtual second that has writes.
  const writeInputs = phases.reduce(
    (a, ph) => a + Math.min(Math.ceil(ph.seconds), Math.floor(ph.rate * ph.seconds)),
    0,
  );
  const runMs = Math.max(
    (phases[0].seconds + phases[1].seconds) * 1000,
    Number(p.lateWatcherDelaySeconds) * 1000 + 5000,
  );
  // The late watcher resumes if the ring still holds every write since its list: the ring
  // doubles from the lower bound while it is full of events younger than the 75 s window, so it
  // holds about the burst's 75 s (rounded up to a doubling, at most capacityUpperBound).
  const lateMs = Number(p.lateWatcherDelaySeconds) * 1000;
  const burstMs = phases[0].seconds * 1000;
  const since =
    Math.floor((phases[0].rate * Math.min(lateMs, burstMs)) / 1000) +
    Math.floor((phases[1].rate * Math.max(0, lateMs - burstMs)) / 1000);
  const peakRate = Math.max(phases[0].rate, phases[1].rate);
  let ring = defaultLowerBoundCapacity;
  const upper = capacityUpperBound(DefaultEventFreshDuration);
  while (ring < upper && ring < (peakRate * DefaultEventFreshDuration) / 1000) ring *= 2;
  const resumes = since <= Math.min(ring, upper);
  return {
    virtualMs: 1000 + runMs,
    etcdWrites: podsUpdated + updates,
    cachedWrites: updates,
    storeWrites: 0,
    deliveries: resumes ? updates : 0,
    watches: 1,
    listedKeys: 0,
    // Capacity changes: at most one per doubling on the way up and per halving on the way down.
    // A scrape each second with writes, and the last; the late watcher's figures move with each
    // second's writes if it resumed.
    trace: {
      dispatches: updates,
      writeInputs: writeInputs + 2,
      watchers: 1,
      lists: 1,
      watcherSamples: resumes ? writeInputs : 0,
      scrapes: writeInputs + 1,
      other: 20,
    },
  };
}

function summarize(model: RunModel) {
  const cap = model.capacity;
  const grows = cap.filter((c) => c.change === 'grow');
  const shrinks = cap.filter((c) => c.change === 'shrink');
  const upper = capacityUpperBound(DefaultEventFreshDuration);
  const max = cap.reduce((m, c) => Math.max(m, c.capacity), 0);
  const min = cap.reduce((m, c) => Math.min(m, c.capacity), Number.POSITIVE_INFINITY);
  const final = cap.length ? cap[cap.length - 1].capacity : 0;
  const late = (model.watchRequests ?? []).filter((q) => q.client === 'late-watcher');
  const lateReq = late[late.length - 1];
  const lateTrack =
    lateReq?.watcherId !== undefined
      ? model.watchers.find((w) => w.id === lateReq.watcherId)
      : undefined;
  const facts: Record<string, number | string | boolean> = {
    writes: model.writes?.byVerb.update ?? 0,
    initialCapacity: cap[0]?.capacity ?? 0,
    grows: grows.length,
    shrinks: shrinks.length,
    maxCapacity: max,
    minCapacity: Number.isFinite(min) ? min : 0,
    finalCapacity: final,
    lowerBound: defaultLowerBoundCapacity,
    upperBound: upper,
    capacityMetric:
      Object.entries(model.metrics).find(([k]) => k.startsWith('watch_cache_capacity{'))?.[1] ?? 0,
    lateWatcherOutcome: lateReq
      ? lateReq.outcome === 'error'
        ? `${lateReq.error?.code} ${lateReq.error?.reason}`
        : 'resumed'
      : 'not run',
    lateWatcherCode: lateReq?.error?.code ?? (lateReq ? 200 : 0),
    lateWatcherMessage: lateReq?.error?.message ?? '',
    lateWatcherEventsReceived: lateTrack?.eventsReceived ?? 0,
  };
  const story = [
    `${formatCount(Number(facts.writes))} updates: a burst, then a quiet phase. The history ring started at ${facts.initialCapacity}, grew ${grows.length} time(s) to ${formatCount(max)} ` +
      `(it doubles only when full and its oldest event is younger than 75 s; the bound is ${formatCount(upper)}), and shrank ${shrinks.length} time(s) to ${formatCount(final)}.`,
    shrinks.length === 0
      ? 'It never shrank: it halves only when it is full again and even its newest quarter is older than 75 s, so a ring left half empty after a burst keeps its size (the hysteresis).'
      : `Shrinking waited until the ring was full again and its newest quarter older than 75 s (the first shrink at ${vtime(shrinks[0].at)}).`,
    lateReq
      ? lateReq.outcome === 'error'
        ? `The late client resumed from its old RV and got ${lateReq.error?.code} ${lateReq.error?.reason}: "${lateReq.error?.message}".`
        : `The late client resumed from its old RV: the ring still held every event since, ${formatCount(lateTrack?.eventsReceived ?? 0)} were replayed.`
      : '',
  ].filter((s) => s !== '');
  const tables: SummaryTable[] = [
    {
      title: 'Capacity timeline',
      columns: ['at', 'capacity', 'change', 'why'],
      rows: cap.slice(0, 60).map((c) => [vtime(c.at), c.capacity, c.change, c.reason]),
      note: cap.length > 60 ? `(${cap.length - 60} more changes)` : undefined,
    },
  ];
  const charts = [
    {
      title: 'capacity after each change',
      unit: 'events',
      points: cap.slice(0, 40).map((c) => ({ label: vtime(c.at), value: c.capacity })),
    },
  ];
  return { scenario: 'watch-cache-resize', title: definition.title, story, facts, tables, charts };
}

const definition = {
  name: 'watch-cache-resize',
  title: 'The watch cache history: grow, hysteresis, shrink, 410 Gone',
  label: 'Watch cache resize',
  storyView: 'watchCache' as const,
  description:
    'A client lists, then goes away. A burst of pod updates makes the history ring double while it is full of events younger ' +
    'than the 75 s window (up to capacityUpperBound = 102400); once full of older events it drops the oldest. In the quiet phase ' +
    'it halves only when full and even its newest quarter is older than the window. The client resumes its watch from its old ' +
    'RV `lateWatcherDelaySeconds` after it listed: 410 Gone if the ring no longer holds the events since.',
  params: [
    {
      name: 'burstEventsPerSecond',
      type: 'number' as const,
      default: 500,
      min: 0,
      max: 20_000,
      description: 'Pod updates per second during the burst.',
    },
    {
      name: 'burstSeconds',
      type: 'number' as const,
      default: 120,
      min: 0,
      max: 3600,
      description:
        'Length of the burst (s). 120 s at 500/s outgrows the 75 s window, so the ring overruns and later shrinks.',
    },
    {
      name: 'quietEventsPerSecond',
      type: 'number' as const,
      default: 1,
      min: 0,
      max: 20_000,
      description: 'Pod updates per second after the burst.',
    },
    {
      name: 'quietSeconds',
      type: 'number' as const,
      default: 600,
      min: 0,
      max: 86_400,
      description: 'Length of the quiet phase (s).',
    },
    {
      name: 'lateWatcherDelaySeconds',
      type: 'number' as const,
      default: 120,
      min: 0,
      max: 86_400,
      description:
        'When the late client resumes its watch, counted from its list at the start of the burst (s).',
    },
    ...etcdLatencyParams,
  ],
};

export const watchCacheResize: ScenarioModule = {
  definition,
  profile: () => '1.36',
  run,
  estimate,
  summarize,
  sections: ['capacity', 'watchRequests'],
};
