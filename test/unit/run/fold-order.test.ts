// Tests for src/run/build-run-model.ts's routing order: when one event reaches the caps of two
// folds' series, the model's `truncated` names them in the order the one fold used to (the RV
// points, the freshness waits, the blocked dispatches and the cacher's LISTs share one count).
import * as assert from 'assert';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import type { RunHeader } from '../../../src/run/run-model';
import type { EngineEvent } from '../../../src/engine/inspect/events';

const header: RunHeader = {
  format: 'listwatch-trace',
  version: 2,
  scenario: 'bookmark-heartbeats',
  profile: '1.36',
  seed: 1,
  params: {},
};
const groupResource = { group: '', resource: 'pods' };

// Each case's event `i` (1, 2, 3) is at i s with RV 10·i; with one entry per series, the second
// event reaches both caps.
const cases: Array<{ name: string; event: (i: number) => EngineEvent; want: string[] }> = [
  {
    name: 'a dispatch that met a blocked watcher: the RV point, then the blocked dispatch',
    event: (i) => ({
      type: 'cacher/dispatch',
      at: i * 1000,
      groupResource,
      eventType: 'ADDED',
      key: `/pods/ns/p${i}`,
      resourceVersion: 10 * i,
      candidates: 2,
      blocked: 1,
      unblocked: 1,
      terminated: 0,
      budgetMs: 100,
      waitedMs: 5,
    }),
    want: ['resourceVersions', 'dispatch.blocked'],
  },
  {
    name: 'a freshness wait that caught up: the wait, then the RV point',
    event: (i) => ({
      type: 'watchcache/wait',
      at: i * 1000,
      groupResource,
      resourceVersion: 10 * i,
      cacheResourceVersion: 10 * i,
      waitedMs: 0,
      outcome: 'fresh',
    }),
    want: ['freshnessWaits', 'resourceVersions'],
  },
  {
    name: "an etcd list read no input announced: the RV point, then the cacher's LIST",
    event: (i) => ({
      type: 'etcd/request',
      at: i * 1000,
      groupResource,
      requestId: i,
      operation: 'list',
      key: '/registry/pods/',
      limit: 10000,
      revision: 0,
      headerRevision: 10 * i,
      kvs: 0,
      count: 0,
      latencyMs: 1,
    }),
    want: ['resourceVersions', 'cacherLists'],
  },
];

describe('RunModelBuilder routing order', () => {
  for (const c of cases)
    it(c.name, () => {
      const b = new RunModelBuilder(header, { seriesLimit: 1 });
      for (let i = 1; i <= 3; i++) b.add(c.event(i));
      assert.deepStrictEqual(Object.keys(b.finish().truncated ?? {}), c.want, c.name);
    });
});
