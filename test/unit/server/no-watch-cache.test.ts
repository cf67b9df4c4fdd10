// Tests that a served resource without a watch cache (events and events.k8s.io events: kube-apiserver's
// DefaultWatchCacheSizes sets them to 0, so no cacher) shows no watch-cache figures on any face of
// `listwatch serve`: /metrics (watch_cache_capacity), the debug state and the watch-cache faults.
// A live run said `reflectors paused for 4000ms: …, events, …` and /metrics had
// watch_cache_capacity{resource="events"} 100. No upstream counterpart.
import * as assert from 'assert';
import { ApiServer } from '../../../src/server/api-server';

const noCache = ['events', 'events.events.k8s.io'];

interface FaultBody {
  resources?: Array<{ resource: string }>;
  message?: string;
}

describe('a resource without a watch cache (events) on the served faces', () => {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0 });
  });
  after(async () => {
    await server.stop();
  });

  it('/metrics has no watch cache series for it; pods has one', () => {
    const text = server.resources.metrics.text();
    assert.match(text, /^watch_cache_capacity\{group="",resource="pods"\} \d+$/m);
    for (const r of ['resource="events"', 'group="events.k8s.io"'])
      assert.doesNotMatch(
        text,
        new RegExp(`^(watch_cache|apiserver_watch_cache)\\w*\\{[^}]*${r}`, 'm'),
        r,
      );
  });

  it('the debug state says it has no watch cache, with no cache figures', () => {
    const view = server.debugState.view();
    for (const name of noCache) {
      const r = view.resources.find((x) => x.resource === name);
      assert.deepStrictEqual(
        r && Object.keys(r).sort(),
        ['etcdRevision', 'resource', 'watchCache'],
        `${name}: ${JSON.stringify(r)}`,
      );
      assert.strictEqual(r?.watchCache, false);
    }
    const pods = view.resources.find((x) => x.resource === 'pods');
    assert.strictEqual(pods?.ready, true);
  });

  // Each watch-cache fault, without a resource (every one with a watch cache) and naming events.
  const faults: Array<{ fault: string; params: Record<string, unknown> }> = [
    { fault: 'cache-lag', params: { seconds: 0.01 } },
    { fault: 'expire-history', params: {} },
    { fault: 'restart', params: {} },
  ];
  for (const c of faults) {
    it(`${c.fault}: acts on the resources with a watch cache only`, async () => {
      const all = await server.injectFault(c.fault, c.params);
      assert.strictEqual(all.status, 200, JSON.stringify(all.body));
      const names = ((all.body as FaultBody).resources ?? []).map((r) => r.resource);
      assert.ok(names.includes('pods'), names.join(', '));
      for (const n of noCache) assert.ok(!names.includes(n), `${c.fault} lists ${n}`);
      const events = await server.injectFault(c.fault, { ...c.params, resource: 'events' });
      assert.strictEqual(events.status, 422, JSON.stringify(events.body));
      assert.match(
        (events.body as FaultBody).message ?? '',
        /resource: "events" has no watch cache \(kube-apiserver's DefaultWatchCacheSizes sets it to 0\)/,
      );
    });
  }
});
