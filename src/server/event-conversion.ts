// Mirrors kubernetes/kubernetes pkg/apis/events/v1/conversion.go with its generated
// zz_generated.conversion.go (release-1.36): events.k8s.io/v1 Events and core/v1 Events are one
// object in one storage (/registry/events), read through either group. Stored here as core/v1
// (what the engine holds for both), so the events.k8s.io/v1 resource converts on its way in and
// out: note is message, regarding is involvedObject, reportingController is reportingComponent,
// and the deprecated* fields are source, firstTimestamp, lastTimestamp and count.
// Deliberate difference: the conversion goes straight between the two versions (upstream passes
// through the internal type, with the same field mapping).
import type { KubeObject, StorageCodec } from '../engine';

type Json = Record<string, unknown>;

/** [events.k8s.io/v1 field, core/v1 field] for the fields whose names differ. */
const renamed: readonly [string, string][] = [
  ['reportingController', 'reportingComponent'],
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];
/** The fields both versions name alike. */
const shared = ['eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'];

/** events.k8s.io/v1 Event's fields in Go's order (the order encoding/json writes them). */
const eventsV1Order = [
  'eventTime',
  'series',
  'reportingController',
  'reportingInstance',
  'action',
  'reason',
  'regarding',
  'related',
  'note',
  'type',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
];
/** core/v1 Event's fields in Go's order. */
const coreOrder = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'series',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
];

function convert(
  from: Json,
  apiVersion: string,
  names: ReadonlyMap<string, string>,
  order: readonly string[],
): KubeObject {
  const fields: Json = {};
  for (const [k, v] of Object.entries(from)) {
    if (k === 'apiVersion' || k === 'kind' || k === 'metadata') continue;
    const to = names.get(k);
    if (to !== undefined) fields[to] = v;
  }
  const out: Json = { kind: 'Event', apiVersion, metadata: from.metadata ?? {} };
  for (const k of order) if (Object.hasOwn(fields, k)) out[k] = fields[k];
  return out as unknown as KubeObject;
}

const toCore = new Map<string, string>([...renamed, ...shared.map((f) => [f, f] as const)]);
const toEventsV1 = new Map<string, string>([
  ...renamed.map(([v1, core]) => [core, v1] as const),
  ...shared.map((f) => [f, f] as const),
]);

/** Convert_v1_Event_To_core_Event: an events.k8s.io/v1 Event as a core/v1 Event. */
export function coreEventFromEventsV1(event: KubeObject): KubeObject {
  return convert(event as unknown as Json, 'v1', toCore, coreOrder);
}

/**
 * Convert_core_Event_To_v1_Event: a core/v1 Event as an events.k8s.io/v1 Event. eventTime is
 * written even when unset (it has no omitempty in events.k8s.io/v1: a zero MicroTime is null).
 */
export function eventsV1EventFromCore(event: KubeObject): KubeObject {
  const out = convert(event as unknown as Json, 'events.k8s.io/v1', toEventsV1, eventsV1Order);
  const o = out as unknown as Json;
  if (!Object.hasOwn(o, 'eventTime')) {
    const { kind, apiVersion, metadata, ...rest } = o;
    return { kind, apiVersion, metadata, eventTime: null, ...rest } as unknown as KubeObject;
  }
  return out;
}

/**
 * The storage codec of events.k8s.io/v1 events: stored as core/v1. An object already in the other
 * shape (a core Event read through this codec) passes through conversion by its apiVersion.
 */
export const eventsV1StorageCodec: StorageCodec = {
  encode: (obj) => (obj.apiVersion === 'v1' ? obj : coreEventFromEventsV1(obj)),
  decode: (obj) => (obj.apiVersion === 'events.k8s.io/v1' ? obj : eventsV1EventFromCore(obj)),
};
