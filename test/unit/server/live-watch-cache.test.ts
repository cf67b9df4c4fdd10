// Tests for src/server/live-watch-cache.ts and the watch cache folds (src/run/fold/watch-cache.ts,
// capacity.ts, resource-versions.ts, history-window.ts) on a live run: a real ApiServer (in-memory
// etcd) recorded from after its watch caches started, the expire-history and cache-lag faults
// applied, the saved run reloaded, and its Watch cache timeline read as the tab reads it.
import { builtinAPIResources } from '../../../src/request/builtin-api-resources';
import * as assert from 'assert';
import { request as httpRequest } from 'node:http';
import { ApiServer } from '../../../src/server/api-server';
import { LiveRecorder } from '../../../src/server/live-recorder';
import { LiveRun } from '../../../src/run/live-run';
import { loadRun } from '../../../src/run/load-run';

function call(server: ApiServer, method: string, path: string, body?: unknown): Promise<number> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${server.token}`,
          'user-agent': 'watch-cache-test/v1',
          'content-type': 'application/json',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const pod = (name: string) => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'i' }] },
});

/** Waits (on the real clock: the server runs on it) until `cond` holds; fails after `tries`. */
async function until(what: () => string, cond: () => boolean, tries = 3000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what()}`);
}

describe("a live run's Watch cache timeline (expire-history, cache-lag)", () => {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0, seed: { pods: 5 } });
  });
  after(async () => {
    await server.stop();
  });

  it('shows the cache started, its capacity, the history window jumping and the cache RV behind etcd during the lag', async () => {
    const pods = server.resources.all.find((r) => r.resource === 'pods')!.engine;
    const recorder = new LiveRecorder(server, { scrape: false });
    const run = new LiveRun(recorder, { schedule: () => () => undefined });
    try {
      for (const name of ['a', 'b', 'c'])
        assert.strictEqual(
          await call(server, 'POST', '/api/v1/namespaces/default/pods', pod(name)),
          201,
        );
      await until(
        () => 'the cache to hold the writes',
        () => pods.watchCache.history.size >= 8,
      );
      const beforeExpire = pods.watchCache.resourceVersion;
      await server.injectFault('expire-history', { resource: 'pods' });
      // The lag: etcd takes two writes the paused reflector holds until it resumes.
      await server.injectFault('cache-lag', { seconds: 1, resource: 'pods' });
      for (const name of ['d', 'e'])
        assert.strictEqual(
          await call(server, 'POST', '/api/v1/namespaces/default/pods', pod(name)),
          201,
        );
      const etcdAfter = server.resources.etcd.currentRevision();
      assert.ok(pods.watchCache.resourceVersion < etcdAfter, 'the cache lags while paused');
      // A consistent LIST waits for the cache: etcd is asked for a progress notification, which
      // the paused reflector holds too (the cache's RV must not move when etcd sends it).
      assert.strictEqual(await call(server, 'GET', '/api/v1/namespaces/default/pods'), 200);
      await until(
        () => `the cache to catch up (at ${pods.watchCache.resourceVersion}, etcd at ${etcdAfter})`,
        () => pods.watchCache.resourceVersion >= etcdAfter,
      );
      await new Promise((r) => setTimeout(r, 20));

      const { model } = await loadRun(recorder.traceLines(recorder.metricsRecord()));
      assert.deepStrictEqual(run.flush().watchCache, model.watchCache, 'live and saved agree');

      // Started, following pods, the others named.
      assert.strictEqual(model.watchCache?.started, true, JSON.stringify(model.watchCache));
      assert.strictEqual(model.watchCache?.resource, 'pods');
      // Every other built-in with a watch cache (not events: no cacher), as `resource.group`.
      assert.deepStrictEqual(
        model.watchCache?.otherResources,
        builtinAPIResources
          .filter((r) => r.watchCache && r.resource !== 'pods')
          .map((r) => (r.group === '' ? r.resource : `${r.resource}.${r.group}`))
          .sort(),
      );
      assert.ok(!model.watchCache?.otherResources?.includes('events'));

      // Capacity: the ring's capacity when recording started (its lower bound, 100).
      assert.strictEqual(model.capacity[0]?.capacity, 100, JSON.stringify(model.capacity));
      assert.strictEqual(model.capacity[0].change, 'initial');

      // The history window: observed at the start, then the jump expire-history made.
      const win = model.historyWindow ?? [];
      assert.strictEqual(win[0]?.change, 'observed', JSON.stringify(win));
      const expired = win.find((p) => p.change === 'expired');
      assert.ok(expired, `an expired jump in ${JSON.stringify(win)}`);
      assert.ok(expired.dropped! >= 8, `dropped ${expired.dropped}`);
      assert.strictEqual(expired.size, 0);
      assert.strictEqual(expired.oldestRv, beforeExpire, 'the window starts at the cache RV');
      const beforeJump = win[win.indexOf(expired) - 1];
      assert.ok(beforeJump.oldestRv < expired.oldestRv, 'the window jumped forward');
      // The held events slide back in after the lag: the window holds them.
      assert.strictEqual(win[win.length - 1].size, 2);

      // The cache RV behind etcd's for the lag, then caught up.
      const rvs = model.resourceVersions;
      const behind = rvs.filter((p) => p.cacheRv < p.etcdRv);
      assert.ok(behind.length > 0, `a point with the cache behind etcd: ${JSON.stringify(rvs)}`);
      assert.ok(
        behind.some((p) => p.etcdRv === etcdAfter && p.cacheRv === beforeExpire),
        `the cache at ${beforeExpire} while etcd is at ${etcdAfter}: ${JSON.stringify(rvs)}`,
      );
      const last = rvs[rvs.length - 1];
      assert.deepStrictEqual([last.cacheRv, last.etcdRv], [etcdAfter, etcdAfter]);
      const lagged = behind.find((p) => p.etcdRv === etcdAfter)!;
      assert.ok(last.at > lagged.at, 'caught up after the lag');
      const lagFault = model.faults!.find((f) => f.name === 'cache-lag')!;
      const caughtUp = rvs.find((p) => p.cacheRv >= etcdAfter)!;
      assert.ok(
        caughtUp.at >= lagFault.at + 1000,
        `the cache RV moved only when the reflector resumed (fault at ${lagFault.at}, 1 s): ${JSON.stringify(rvs)}`,
      );
      assert.deepStrictEqual(
        model.faults?.map((f) => f.name),
        ['expire-history', 'cache-lag'],
      );
    } finally {
      run.dispose();
      recorder.dispose();
    }
  });

  it("keeps every watch cache's series, each true for its resource: configmaps' expire-history is not pods'", async () => {
    const configmaps = server.resources.all.find((r) => r.resource === 'configmaps')!.engine;
    const recorder = new LiveRecorder(server, { scrape: false });
    const run = new LiveRun(recorder, { schedule: () => () => undefined });
    try {
      for (const name of ['x', 'y', 'z'])
        assert.strictEqual(
          await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
            metadata: { name },
            data: { k: 'v' },
          }),
          201,
        );
      const written = server.resources.etcd.currentRevision();
      await until(
        () => 'the configmaps cache to hold the writes',
        () => configmaps.watchCache.resourceVersion >= written,
      );
      await server.injectFault('expire-history', { resource: 'configmaps' });
      await new Promise((r) => setTimeout(r, 20));

      const { model } = await loadRun(recorder.traceLines(recorder.metricsRecord()));
      assert.deepStrictEqual(
        run.flush().otherWatchCaches,
        model.otherWatchCaches,
        'live and saved agree',
      );
      // The followed cache stays pods; the others are there, in otherResources' order.
      assert.strictEqual(model.watchCache?.resource, 'pods');
      assert.deepStrictEqual(
        model.otherWatchCaches?.map((c) => c.resource),
        model.watchCache?.otherResources,
      );
      const cm = model.otherWatchCaches?.find((c) => c.resource === 'configmaps');
      assert.ok(cm, JSON.stringify(model.otherWatchCaches?.map((c) => c.resource)));
      assert.strictEqual(cm.started, true, 'observed running when recording began');
      assert.strictEqual(cm.capacity[0]?.change, 'initial', JSON.stringify(cm.capacity));
      // configmaps' history: observed, then its own jump, dropping its three creates.
      assert.strictEqual(cm.historyWindow[0]?.change, 'observed');
      const expired = cm.historyWindow.find((p) => p.change === 'expired');
      assert.ok(expired, JSON.stringify(cm.historyWindow));
      assert.ok(expired.dropped! >= 3, `dropped ${expired.dropped}`);
      assert.strictEqual(
        expired.oldestRv,
        written,
        "the window starts at the configmaps cache's RV",
      );
      // Its RV chart: the configmaps cache caught up with etcd's revision of its writes.
      const last = cm.resourceVersions[cm.resourceVersions.length - 1];
      assert.deepStrictEqual([last.cacheRv, last.etcdRv], [written, written]);
      // pods' series did not take configmaps' jump; the fault names the resource it was aimed at.
      assert.ok(
        !(model.historyWindow ?? []).some((p) => p.change === 'expired'),
        `pods' window: ${JSON.stringify(model.historyWindow)}`,
      );
      assert.deepStrictEqual(
        model.faults?.map((f) => [f.name, f.resource]),
        [['expire-history', 'configmaps']],
      );
    } finally {
      run.dispose();
      recorder.dispose();
    }
  });
});
