// Scenario over k8s.io/apiserver pkg/storage/cacher/cacher.go (watcherBookmarkTimeBuckets,
// dispatchEvents' bookmark timer) and cache_watcher.go (nextBookmarkTime), release-1.36: many
// watchers with allowWatchBookmarks get a heartbeat bookmark about once a minute and one 2 s before
// their deadline, popped from one-second buckets by a single ~1 s jittered timer. A bookmark only
// reaches a client if its RV moved past what the client has seen: here writes to another
// resource move etcd's revision, which reaches the pods cache through progress notifications.
import type { SummaryTable } from '../run/run-summary';
import { encodeStoredObject, defaultMinRequestTimeoutSeconds } from '../engine';
import type { RunModel } from '../run/run-model';
import { etcdLatencyParams } from './etcd-latency';
import type { RunWorkload } from './run-estimate';
import type { ScenarioModule, ScenarioParams } from './scenario';
import type { ScenarioRun } from '../sim/scenario-run';
import { histogram, stats, vtime } from './summary-format';
import { formatCount } from '../format/count-text';

/** etcd's --experimental-watch-progress-notify-interval as Kubernetes' own cluster scripts set it (etcd's default is 10 min). */
export const progressNotifyIntervalMs = 5000;
/** The run lasts `minutes` plus this tail, so the last minute's heartbeat (bucketed to the second, ticked every 1–1.25 s) is counted. */
export const heartbeatTailMs = 30_000;

async function run(r: ScenarioRun, p: ScenarioParams): Promise<void> {
  const watchers = Number(p.watchers);
  const minutes = Number(p.minutes);
  const timeoutSeconds = Number(p.timeoutSeconds);
  const wps = Number(p.writesPerSecond);
  const resource = r.createResource({ etcd: { progressNotifyIntervalMs } });
  r.seedPods(resource, 10, { namespace: 'default', name: (i) => `pod-${i}` });
  resource.start();
  await r.drive(resource.waitReady());
  await r.advance(100);
  const rv = String(resource.watchCache.resourceVersion);
  r.phase(
    'watch',
    `${formatCount(watchers)} watchers open from rv ${rv} with allowWatchBookmarks${timeoutSeconds > 0 ? `, timeoutSeconds=${timeoutSeconds}` : ' (deadlines: random in [30, 60) min, as the apiserver picks them)'}`,
  );
  for (let i = 0; i < watchers; i++) {
    if (i % 1000 === 0)
      r.progress(
        (0.2 * i) / watchers,
        `opening watches (${formatCount(i)}/${formatCount(watchers)})`,
      );
    await r.drive(
      r.watch(resource, `watcher-${String(i + 1).padStart(6, '0')}`, {
        namespace: 'default',
        resourceVersion: rv,
        allowWatchBookmarks: true,
        timeoutSeconds: timeoutSeconds > 0 ? timeoutSeconds : undefined,
      }),
    );
  }
  r.phase(
    'run',
    wps > 0
      ? `${wps} write(s) per second to configmaps: etcd's revision moves, the pods cache learns it from progress notifications every ${progressNotifyIntervalMs / 1000} s`
      : "no writes anywhere: etcd's revision stands still",
  );
  const start = r.clock.now();
  const totalMs = minutes * 60_000 + heartbeatTailMs;
  let written = 0;
  for (let s = 0; start + s * 1000 < start + totalMs; s++) {
    const due = Math.floor((s + 1) * wps) - written;
    if (due > 0) {
      let rev = 0;
      for (let k = 0; k < due; k++)
        rev = resource.etcd.put(
          `/registry/configmaps/default/cm-${written + k}`,
          encodeStoredObject({
            kind: 'ConfigMap',
            apiVersion: 'v1',
            metadata: { name: `cm-${written + k}`, namespace: 'default' },
          }),
        );
      written += due;
      r.input({
        action: 'writes',
        count: due,
        verb: 'create',
        keyPrefix: '/registry/configmaps/default/',
        revision: rev,
      });
    }
    r.progress(0.2 + (0.8 * s * 1000) / totalMs, `virtual ${vtime(s * 1000)} of ${vtime(totalMs)}`);
    await r.advance(Math.min(1000, start + totalMs - r.clock.now()));
  }
}

/** The run's work from its parameters: a heartbeat a minute per watcher, writes every second. */
function estimate(p: ScenarioParams): RunWorkload {
  const watchers = Number(p.watchers);
  const timeoutSeconds = Number(p.timeoutSeconds);
  const wps = Number(p.writesPerSecond);
  const totalMs = Number(p.minutes) * 60_000 + heartbeatTailMs;
  const seconds = Math.ceil(totalMs / 1000);
  const writes = Math.floor(seconds * wps);
  // A watch lives until its deadline: timeoutSeconds, or [1×, 2×) --min-request-timeout (the
  // middle of it here); it gets a heartbeat a minute until then, and one just before it.
  const lifeMs =
    timeoutSeconds > 0 ? timeoutSeconds * 1000 : defaultMinRequestTimeoutSeconds * 1500;
  const heartbeats = Math.floor(Math.min(totalMs, lifeMs) / 60_000) + (lifeMs < totalMs ? 1 : 0);
  return {
    virtualMs: 100 + totalMs,
    etcdWrites: 10 + writes,
    cachedWrites: 0,
    storeWrites: 0,
    // Heartbeats reach a client only when etcd's revision moved (writes elsewhere move it).
    deliveries: wps > 0 ? watchers * heartbeats : 0,
    watches: watchers,
    listedKeys: 0,
    trace: {
      watchers,
      bookmarks: watchers * heartbeats,
      writeInputs: 1 + Math.min(seconds, writes),
      // The watchers' figures move together, once per heartbeat (and their live bookmark).
      watcherSamples: heartbeats + 1,
      // A scrape for each second with etcd's progress notification, and the last.
      scrapes: Math.ceil(totalMs / progressNotifyIntervalMs) + 1,
      other: Math.ceil(totalMs / progressNotifyIntervalMs) + 2 * Math.ceil(totalMs / 60_000),
    },
  };
}

function summarize(model: RunModel) {
  const ws = model.watchers;
  const minutes = Number(model.header.params.minutes);
  const received = ws.map((w) => w.bookmarksReceived);
  const s = stats(received);
  const dropped: Record<string, number> = {};
  for (const w of ws)
    for (const [k, v] of Object.entries(w.bookmarksDropped)) dropped[k] = (dropped[k] ?? 0) + v;
  const ticks = model.bookmarkTicks ?? [];
  const queued = ticks.reduce((a, t) => a + t.queued, 0);
  const popped = ticks.reduce((a, t) => a + t.watchers, 0);
  const pre = ws.reduce((a, w) => a + (w.preDeadlineBookmarks ?? 0), 0);
  const closed = ws.filter((w) => w.closeReason !== '').length;
  const facts: Record<string, number | string | boolean> = {
    watchers: ws.length,
    minutes,
    bookmarksSent: received.reduce((a, b) => a + b, 0),
    heartbeatsPerWatcherMin: s.min,
    heartbeatsPerWatcherMax: s.max,
    heartbeatsPerWatcherMean: Number(s.mean.toFixed(3)),
    preDeadlineBookmarks: pre,
    bookmarksDispatched: queued,
    bookmarksDroppedNotNewer: dropped.notNewer ?? 0,
    bookmarksDroppedInputFull: dropped.inputFull ?? 0,
    ticksWithPops: ticks.length,
    watchersPopped: popped,
    maxWatchersPerTick: ticks.reduce((m, t) => Math.max(m, t.watchers), 0),
    watchesClosed: closed,
  };
  const story = [
    `${formatCount(ws.length)} watchers asked for bookmarks. Over ${minutes} min (+${heartbeatTailMs / 1000} s) the bookmark timer popped due buckets at ${ticks.length} ticks, ` +
      `handing ${formatCount(popped)} bookmarks to watchers (${formatCount(queued)} taken into their buffers).`,
    facts.bookmarksSent === 0 && queued > 0
      ? `None reached a client: every bookmark carried the RV the watchers already had (etcd's revision did not move), so process() dropped them (notNewer: ${formatCount(dropped.notNewer ?? 0)}).`
      : `Clients received ${formatCount(Number(facts.bookmarksSent))} bookmarks: ${s.min}–${s.max} per watcher (mean ${s.mean.toFixed(2)}), about one a minute; ${formatCount(pre)} came just before a deadline.`,
  ];
  const tables: SummaryTable[] = [
    {
      title: 'Bookmarks sent per watcher',
      columns: ['bookmarks', 'watchers'],
      rows: histogram(received).map((h) => [h.value, h.count]),
    },
    {
      title: 'Bookmark ticks that popped watchers',
      columns: ['at', 'bookmark RV', 'buckets', 'watchers due', 'taken'],
      rows: ticks
        .slice(0, 40)
        .map((t) => [vtime(t.at), t.resourceVersion, t.buckets, t.watchers, t.queued]),
      note: ticks.length > 40 ? `(${ticks.length - 40} more ticks)` : undefined,
    },
    {
      title: 'Bookmarks dropped, by reason',
      columns: ['reason', 'bookmarks'],
      rows: Object.entries(dropped)
        .sort()
        .map(([k, v]) => [k, v]),
    },
  ];
  const charts = [
    {
      title: 'watchers due per tick',
      unit: 'watchers',
      points: ticks.slice(0, 40).map((t) => ({ label: vtime(t.at), value: t.watchers })),
    },
  ];
  return { scenario: 'bookmark-heartbeats', title: definition.title, story, facts, tables, charts };
}

const definition = {
  name: 'bookmark-heartbeats',
  title: 'Bookmark heartbeats: one timer, one-second buckets, many watchers',
  label: 'Bookmark heartbeats',
  storyView: 'watchers' as const,
  description:
    'Many watchers with allowWatchBookmarks watch pods. A single jittered ~1 s timer pops the watchers whose one-second bucket is due: ' +
    "each gets a heartbeat about once a minute, and one 2 s before its deadline. Writes to configmaps move etcd's revision; the pods " +
    `cache learns it from etcd progress notifications (every ${progressNotifyIntervalMs / 1000} s), so heartbeats carry a newer RV and reach the clients. ` +
    'With writesPerSecond=0 the RV stands still: bookmarks are dispatched but never sent. Runs `minutes` plus 30 s.',
  params: [
    {
      name: 'watchers',
      type: 'number' as const,
      default: 10000,
      min: 1,
      max: 200_000,
      integer: true,
      description:
        'Watchers (all pods in namespace default, from the current RV, allowWatchBookmarks=true).',
    },
    {
      name: 'minutes',
      type: 'number' as const,
      default: 3,
      min: 1,
      max: 240,
      integer: true,
      description: 'Virtual minutes to run after the watches open (plus a 30 s tail).',
    },
    {
      name: 'timeoutSeconds',
      type: 'number' as const,
      default: 0,
      min: 0,
      max: 86_400,
      integer: true,
      description:
        "The watches' timeoutSeconds; 0 = none: the apiserver picks a random deadline in [30, 60) min.",
    },
    {
      name: 'writesPerSecond',
      type: 'number' as const,
      default: 1,
      min: 0,
      max: 10_000,
      description:
        "Writes per second to configmaps (elsewhere in etcd); 0 = etcd's revision never moves.",
    },
    ...etcdLatencyParams,
  ],
};

export const bookmarkHeartbeats: ScenarioModule = {
  definition,
  profile: () => '1.36',
  run,
  estimate,
  summarize,
  sections: ['watchers'],
};
