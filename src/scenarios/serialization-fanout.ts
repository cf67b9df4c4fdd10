// Scenario over k8s.io/apiserver pkg/storage/cacher/caching_object.go and cacher.go
// (setCachingObjects in dispatchEvent), release-1.36: every dispatched event's object is wrapped
// in a cachingObject, so it is serialized once per encoder identifier (content type and group
// version) however many watchers send it; the rest are cache hits. A DELETE's previous object gets
// the delete's resourceVersion, which makes the cachingObject take its lazy deep copy.
import type { SummaryTable } from '../run/run-summary';
import type { RunModel } from '../run/run-model';
import { contentTypeJSON, contentTypeProtobuf, type WatchContentType } from '../engine';
import { etcdLatencyParams, etcdWorkMs, podKvBytes } from './etcd-latency';
import type { RunWorkload } from './run-estimate';
import type { ScenarioModule, ScenarioParams } from './scenario';
import type { ScenarioRun } from '../sim/scenario-run';
import { vtime } from './summary-format';
import { formatCount } from '../format/count-text';

const contentTypes: Record<string, WatchContentType> = {
  json: contentTypeJSON,
  protobuf: contentTypeProtobuf,
};

/** Virtual ms between two events. */
const eventSpacingMs = 10;

function parseContentTypes(v: string): WatchContentType[] | string {
  const names = v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0)
    return 'parameter "contentTypes" expects a comma-separated list of json and protobuf, got ""';
  const out: WatchContentType[] = [];
  for (const n of names) {
    const ct = contentTypes[n];
    if (!ct)
      return `parameter "contentTypes" expects a comma-separated list of json and protobuf, got ${JSON.stringify(n)} in ${JSON.stringify(v)}`;
    out.push(ct);
  }
  return out;
}

async function run(r: ScenarioRun, p: ScenarioParams): Promise<void> {
  const watchers = Number(p.watchers);
  const events = Number(p.events);
  const types = parseContentTypes(String(p.contentTypes)) as WatchContentType[];
  const resource = r.createResource();
  resource.start();
  await r.drive(resource.waitReady());
  await r.advance(100);
  const rv = String(resource.watchCache.resourceVersion);
  r.phase(
    'watch',
    `${formatCount(watchers)} watchers of namespace default, content types round-robin: ${types.join(', ')}`,
  );
  for (let i = 0; i < watchers; i++) {
    if (i % 1000 === 0)
      r.progress(
        (0.3 * i) / watchers,
        `opening watches (${formatCount(i)}/${formatCount(watchers)})`,
      );
    await r.drive(
      r.watch(resource, `watcher-${String(i + 1).padStart(6, '0')}`, {
        namespace: 'default',
        resourceVersion: rv,
        contentType: types[i % types.length],
      }),
    );
  }
  await r.settle();
  r.phase(
    'events',
    `${formatCount(events)} events, one every ${eventSpacingMs} ms: create, update (a label), delete, …`,
  );
  for (let i = 0; i < events; i++) {
    r.checkAborted();
    const k = Math.floor(i / 3);
    const name = `pod-${String(k).padStart(5, '0')}`;
    let stored;
    let verb: 'create' | 'update' | 'delete';
    if (i % 3 === 0) {
      verb = 'create';
      stored = await r.drive(
        resource.createPod({ name, namespace: 'default', labels: { app: 'web' } }, 'writer'),
      );
    } else if (i % 3 === 1) {
      verb = 'update';
      stored = await r.drive(
        resource.setLabels('default', name, { app: 'web', version: 'v2' }, 'writer'),
      );
    } else {
      verb = 'delete';
      stored = await r.drive(resource.delete('default', name, 'writer'));
    }
    r.input({
      action: 'writes',
      count: 1,
      verb,
      keyPrefix: '/registry/pods/default/',
      revision: Number(stored.metadata.resourceVersion),
    });
    if (i % 10 === 0)
      r.progress(0.3 + (0.7 * i) / events, `event ${formatCount(i + 1)}/${formatCount(events)}`);
    await r.advance(eventSpacingMs);
  }
  await r.advance(1000, 100);
}

/** The run's work from its parameters: every event reaches every watcher, encoded once per identifier. */
function estimate(p: ScenarioParams): RunWorkload {
  const watchers = Number(p.watchers);
  const events = Number(p.events);
  const types = parseContentTypes(String(p.contentTypes));
  const identifiers = Math.min(watchers, typeof types === 'string' ? 1 : new Set(types).size);
  // Each event awaits its write (an update and a delete read the object first).
  const requests = events + Math.floor((2 * events) / 3);
  const etcdMs = etcdWorkMs(p, {
    requests,
    writes: events,
    countedKeys: requests,
    keys: requests,
    bytes: requests * podKvBytes,
  });
  const eventsMs = 100 + events * eventSpacingMs + etcdMs;
  // A scrape a second with events: etcd's histograms by operation, the encode histograms.
  const scrapes = Math.ceil(eventsMs / 1000);
  return {
    virtualMs: eventsMs + 1000,
    etcdWrites: events,
    cachedWrites: events,
    storeWrites: events,
    deliveries: watchers * events,
    watches: watchers,
    listedKeys: 0,
    trace: {
      watchers,
      dispatches: events,
      writeInputs: events,
      encodes: events * identifiers,
      watcherSamples: events,
      scrapes,
      scrapedHistograms: 5 * scrapes,
      // The store's etcd calls (an update and a delete read the object first) and a DELETE's deep copy.
      other: events * 2,
    },
  };
}

function summarize(model: RunModel) {
  const s = model.serialization;
  const ids = Object.entries(s.perIdentifier).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const dispatched = model.dispatch?.events ?? 0;
  const perEvent = s.perEvent;
  const encodesPerEvent = perEvent.map((e) =>
    Object.values(e.perIdentifier).reduce((a, x) => a + x.encodes, 0),
  );
  const maxEncodes = encodesPerEvent.reduce((m, v) => Math.max(m, v), 0);
  const minEncodes = encodesPerEvent.reduce((m, v) => Math.min(m, v), Number.POSITIVE_INFINITY);
  const deletes = perEvent.filter((e) => e.eventType === 'DELETED').length;
  const facts: Record<string, number | string | boolean> = {
    watchers: model.watchers.length,
    eventsDispatched: dispatched,
    identifiers: ids.length,
    encodes: s.encodes,
    hits: s.hits,
    lazyDeepCopies: s.lazyDeepCopies,
    invalidations: s.invalidations,
    deletesDispatched: deletes,
    encodesPerEventMin: perEvent.length ? minEncodes : 0,
    encodesPerEventMax: maxEncodes,
    serializedBytes: ids.reduce((a, [, v]) => a + v.bytes, 0),
  };
  const story = [
    `${formatCount(dispatched)} events went to ${formatCount(model.watchers.length)} watchers using ${ids.length} encoder identifier(s). ` +
      `Each event's object was encoded ${perEvent.length && minEncodes === maxEncodes ? `exactly ${maxEncodes}` : `${minEncodes}–${maxEncodes}`} time(s), once per identifier: ` +
      `${formatCount(s.encodes)} encodings and ${formatCount(s.hits)} cache hits in all.`,
    `${formatCount(s.lazyDeepCopies)} lazy deep copies: one per DELETE (${deletes}), when the previous object gets the delete's resourceVersion. ` +
      `${s.invalidations} invalidations (upstream treats one as a bug: a setter changed an object after it was encoded).`,
  ];
  const tables: SummaryTable[] = [
    {
      title: 'Per encoder identifier',
      columns: ['identifier', 'encodes', 'hits', 'bytes encoded'],
      rows: ids.map(([k, v]) => [k, v.encodes, v.hits, v.bytes]),
    },
    {
      title: 'Per event (first 12)',
      columns: [
        'at',
        'rv',
        'type',
        ...ids.map(([k]) => (k.includes('protobuf') ? 'protobuf enc/hit' : 'json enc/hit')),
      ],
      rows: perEvent
        .slice(0, 12)
        .map((e) => [
          vtime(e.at),
          e.rv,
          e.eventType,
          ...ids.map(
            ([k]) => `${e.perIdentifier[k]?.encodes ?? 0}/${e.perIdentifier[k]?.hits ?? 0}`,
          ),
        ]),
    },
  ];
  const charts = [
    {
      title: 'encodes vs hits',
      unit: 'serializations',
      points: [
        { label: 'encodes', value: s.encodes },
        { label: 'hits', value: s.hits },
      ],
    },
  ];
  return {
    scenario: 'serialization-fanout',
    title: definition.title,
    story,
    facts,
    tables,
    charts,
  };
}

const definition = {
  name: 'serialization-fanout',
  title: 'Serialize once per content type: the cachingObject fan-out',
  label: 'Serialization fan-out',
  storyView: 'serialization' as const,
  description:
    'Watchers read pods with JSON or protobuf (round-robin over `contentTypes`). Each event (create, update, delete in turn) is ' +
    'wrapped in a cachingObject for dispatch: encoded once per encoder identifier, every other watcher gets a cache hit. A DELETE ' +
    "sets the delete's RV on the previous object: a lazy deep copy. Invalidations (a change after encoding) should stay 0.",
  params: [
    {
      name: 'watchers',
      type: 'number' as const,
      default: 1000,
      min: 1,
      max: 100_000,
      integer: true,
      description: 'Watchers of namespace default (fast readers).',
    },
    {
      name: 'contentTypes',
      type: 'string' as const,
      default: 'json,protobuf',
      description: 'Comma-separated content types the watchers use, round-robin: json, protobuf.',
    },
    {
      name: 'events',
      type: 'number' as const,
      default: 100,
      min: 1,
      max: 100_000,
      integer: true,
      description: 'Events to dispatch: create, update, delete, create, … one every 10 ms.',
    },
    ...etcdLatencyParams,
  ],
};

export const serializationFanout: ScenarioModule = {
  definition,
  profile: () => '1.36',
  run,
  estimate,
  summarize,
  sections: ['serialization'],
  check: (p) => {
    const t = parseContentTypes(String(p.contentTypes));
    return typeof t === 'string' ? t : undefined;
  },
};
