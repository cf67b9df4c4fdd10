// Tests for src/server/event-conversion.ts: the field mapping of kubernetes pkg/apis/events/v1
// conversion.go between events.k8s.io/v1 and core/v1 Events, as a table of cases.
import * as assert from 'assert';
import type { KubeObject } from '../../../src/engine';
import {
  coreEventFromEventsV1,
  eventsV1EventFromCore,
  eventsV1StorageCodec,
} from '../../../src/server/event-conversion';

const metadata = { name: 'e', namespace: 'default' };
const regarding = { kind: 'Pod', name: 'p', namespace: 'default' };
const source = { component: 'kubelet', host: 'n1' };
const series = { count: 2, lastObservedTime: '2026-01-01T00:00:01.000000Z' };

// [case, events.k8s.io/v1 Event, core/v1 Event]: each converts into the other.
const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  [
    'every renamed and shared field',
    {
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata,
      eventTime: '2026-01-01T00:00:00.000000Z',
      series,
      reportingController: 'c',
      reportingInstance: 'c-0',
      action: 'Pull',
      reason: 'Pulled',
      regarding,
      related: { kind: 'Node', name: 'n1' },
      note: 'pulled',
      type: 'Normal',
      deprecatedSource: source,
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:00:01Z',
      deprecatedCount: 2,
    },
    {
      kind: 'Event',
      apiVersion: 'v1',
      metadata,
      involvedObject: regarding,
      reason: 'Pulled',
      message: 'pulled',
      source,
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:01Z',
      count: 2,
      type: 'Normal',
      eventTime: '2026-01-01T00:00:00.000000Z',
      series,
      action: 'Pull',
      related: { kind: 'Node', name: 'n1' },
      reportingComponent: 'c',
      reportingInstance: 'c-0',
    },
  ],
  [
    'a core Event without eventTime: events.k8s.io/v1 writes eventTime null (no omitempty)',
    {
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata,
      eventTime: null,
      reason: 'Started',
      regarding,
      note: 'started',
    },
    {
      kind: 'Event',
      apiVersion: 'v1',
      metadata,
      involvedObject: regarding,
      reason: 'Started',
      message: 'started',
    },
  ],
];

describe('event-conversion: events.k8s.io/v1 <-> core/v1 Event', () => {
  for (const [name, v1, core] of cases) {
    it(`${name}: core from events.k8s.io/v1`, () => {
      const want = { ...core };
      if (v1.eventTime === null) want.eventTime = null;
      assert.deepStrictEqual(
        coreEventFromEventsV1(v1 as unknown as KubeObject),
        v1.eventTime === null ? want : core,
      );
    });
    it(`${name}: events.k8s.io/v1 from core (keys in Go's field order)`, () => {
      const got = eventsV1EventFromCore(core as unknown as KubeObject);
      assert.deepStrictEqual(got, v1);
      assert.deepStrictEqual(Object.keys(got), Object.keys(v1));
    });
  }

  it('the storage codec stores core/v1 and serves events.k8s.io/v1, leaving each shape it already has', () => {
    const [, v1, core] = cases[0];
    assert.deepStrictEqual(eventsV1StorageCodec.encode(v1 as unknown as KubeObject), core);
    assert.deepStrictEqual(eventsV1StorageCodec.decode(core as unknown as KubeObject), v1);
    assert.strictEqual(eventsV1StorageCodec.encode(core as unknown as KubeObject), core);
    assert.strictEqual(eventsV1StorageCodec.decode(v1 as unknown as KubeObject), v1);
  });
});
