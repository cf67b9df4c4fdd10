// Tests for src/run/views/list-etcd-requests.ts: the Lists tab and the Clients tab show one etcd
// request count per LIST, and it is what etcd received for that LIST: the etcd/request events that
// carry its request id (a consistent read's current-RV lookup included, a fallback's reads too).
import * as assert from 'assert';
import { listCost } from '../../../src/run/client-records';
import { listEtcdRequests } from '../../../src/run/views/list-etcd-requests';
import { runScenario } from '../../../src/scenarios/runner';
import { TraceWriter } from '../../../src/run/trace/trace-writer';
import type { TraceRecord } from '../../../src/run/trace/trace-format';

describe('one etcd request count per LIST (Lists tab = Clients tab = etcd)', () => {
  const cases: Array<{ name: string; scenario: string; set: Record<string, number | boolean> }> = [
    // Every read takes etcd's current revision; the cache catches up: the cache serves it.
    { name: 'cache keeps up', scenario: 'read-your-writes', set: { cacheLagMs: 50 } },
    // The cache is 4 s late: the current-RV lookup, then the fallback's range read.
    { name: 'fallback to etcd', scenario: 'read-your-writes', set: { cacheLagMs: 4000 } },
  ];
  for (const tc of cases)
    it(tc.name, async () => {
      const records: TraceRecord[] = [];
      const trace = new TraceWriter((line) => {
        const r = JSON.parse(line) as TraceRecord & { kind?: string };
        if (r.kind !== undefined) records.push(r);
      });
      const { model } = await runScenario(tc.scenario, tc.set, { trace });
      const etcdByRequest = new Map<number, number>();
      for (const r of records)
        if (
          r.kind === 'event' &&
          r.event.type === 'etcd/request' &&
          r.event.requestId !== undefined
        )
          etcdByRequest.set(r.event.requestId, (etcdByRequest.get(r.event.requestId) ?? 0) + 1);
      const clientCost = new Map<string, number>();
      for (const c of model.clients ?? [])
        for (const q of c.requests)
          if (q.kind === 'list') clientCost.set(q.listId, q.cost.etcdRequests);
      assert.ok(model.lists.length > 0, `${tc.name}: no LIST`);
      for (const l of model.lists) {
        const etcd = etcdByRequest.get(l.requestId) ?? 0;
        const figures = [listEtcdRequests(l), listCost(l).etcdRequests, clientCost.get(l.id)];
        assert.deepStrictEqual(
          figures,
          [etcd, etcd, etcd],
          `${tc.name}: ${l.id} (${l.request}): Lists tab, cost, Clients tab against etcd`,
        );
      }
    });
});
