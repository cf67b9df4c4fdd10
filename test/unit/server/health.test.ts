// Tests for src/server/health.ts: /healthz, /livez, /readyz as healthz.go writes them
// (handleRootHealth, adaptCheckToHandler; the cases of healthz_test.go), and the
// storage-readiness post-start hook that keeps them failing until every watch cache is ready.
import * as assert from 'assert';
import type { Resource } from '../../../src/engine/apiserver';
import { FakeClock } from '../../../src/engine/clock';
import {
  kubeApiserverHealthChecks,
  serveHealth,
  StorageReadinessHook,
  type HealthChecker,
} from '../../../src/server/health';
import type { ServedResource } from '../../../src/server/served-resource';
import { pods } from './fixtures';

/** A served resource whose watch cache readiness the test sets. */
function withCache(
  ready: { value: boolean },
  gate = true,
  watchCacheEnabled = true,
): ServedResource {
  const engine = {
    watchCacheEnabled,
    cacher: { isReady: () => ready.value },
    gates: { WatchCacheInitializationPostStartHook: gate },
  } as unknown as Resource;
  return { ...pods, engine };
}

const text = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

function checks(ready: { value: boolean }, shuttingDown = { value: false }, gate = true) {
  const clock = new FakeClock();
  const c = kubeApiserverHealthChecks({
    resources: [withCache(ready, gate)],
    clock,
    startedAt: clock.now(),
    shuttingDown: () => shuttingDown.value,
  });
  return { clock, c };
}

function get(path: string, c: ReturnType<typeof checks>['c'], query = '') {
  const r = serveHealth(path, new URLSearchParams(query), c);
  assert.ok(r, `${path} is a health path`);
  return r;
}

describe('server/health', () => {
  it('answers ok, text/plain, nosniff on every endpoint once ready', () => {
    const { c } = checks({ value: true });
    for (const path of ['/healthz', '/livez', '/readyz']) {
      assert.deepStrictEqual(get(path, c), { status: 200, headers: text, body: 'ok' }, path);
    }
  });

  it('lists the checks with ?verbose in kube-apiserver order', () => {
    const { c } = checks({ value: true });
    assert.strictEqual(
      get('/readyz', c, 'verbose').body,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]informer-sync ok\n' +
        '[+]poststarthook/storage-readiness ok\n[+]shutdown ok\nreadyz check passed\n',
    );
    assert.strictEqual(
      get('/livez', c, 'verbose=1').body,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]poststarthook/storage-readiness ok\nlivez check passed\n',
    );
    assert.strictEqual(
      get('/healthz', c, 'verbose').body,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]poststarthook/storage-readiness ok\nhealthz check passed\n',
    );
  });

  it('fails with 500 and the verbose list while a watch cache initialises, then stays finished', () => {
    const ready = { value: false };
    const { c } = checks(ready);
    const r = get('/readyz', c);
    assert.strictEqual(r.status, 500);
    assert.deepStrictEqual(r.headers, text);
    assert.strictEqual(
      r.body,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]informer-sync ok\n' +
        '[-]poststarthook/storage-readiness failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n',
    );
    assert.strictEqual(get('/livez', c).status, 500);
    assert.deepStrictEqual(get('/readyz/poststarthook/storage-readiness', c), {
      status: 500,
      headers: text,
      body: 'internal server error: not finished\n',
    });
    ready.value = true;
    assert.strictEqual(get('/readyz', c).body, 'ok');
    // A post-start hook finishes once: a cache re-initialising later does not make it fail again.
    ready.value = false;
    assert.strictEqual(get('/readyz', c).body, 'ok');
  });

  it('stops waiting for storage after StorageInitializationTimeout', () => {
    const clock = new FakeClock();
    const hook = new StorageReadinessHook(
      [withCache({ value: false })],
      clock,
      clock.now(),
      60_000,
    );
    assert.ok(hook.check());
    clock.step(59_999);
    assert.ok(hook.check());
    clock.step(1);
    assert.strictEqual(hook.check(), undefined);
  });

  it('waits only for resources with a watch cache (events: UndecoratedStorage registers no cacher)', () => {
    const clock = new FakeClock();
    const ready = { value: false };
    const hook = new StorageReadinessHook(
      [withCache(ready), withCache({ value: false }, true, false)],
      clock,
      clock.now(),
    );
    assert.ok(hook.check());
    ready.value = true;
    assert.strictEqual(hook.check(), undefined);
  });

  it('has no storage-readiness hook with WatchCacheInitializationPostStartHook off', () => {
    const { c } = checks({ value: false }, { value: false }, false);
    assert.strictEqual(get('/readyz', c).status, 200);
    assert.doesNotMatch(get('/readyz', c, 'verbose').body as string, /storage-readiness/);
  });

  it('fails readyz (not livez) once shutdown began', () => {
    const down = { value: false };
    const { c } = checks({ value: true }, down);
    down.value = true;
    assert.strictEqual(get('/readyz', c).status, 500);
    assert.match(get('/readyz', c).body as string, /^\[-\]shutdown failed: reason withheld$/m);
    assert.strictEqual(get('/livez', c).status, 200);
    assert.strictEqual(
      get('/readyz/shutdown', c).body,
      'internal server error: process is shutting down\n',
    );
  });

  // healthz_test.go TestMulitipleChecks, on /readyz.
  const excludes: [string, string][] = [
    ['exclude=ping&verbose', '[+]ping excluded: ok\n'],
    ['exclude=etcd-readiness&verbose', '[+]etcd-readiness excluded: ok\n'],
    [
      'exclude=nonexistent&exclude=bad&verbose',
      'warn: some health checks cannot be excluded: no matches for "bad","nonexistent"\n',
    ],
  ];
  for (const [query, line] of excludes) {
    it(`?${query} writes ${JSON.stringify(line)}`, () => {
      const { c } = checks({ value: true });
      const body = get('/readyz', c, query).body as string;
      assert.ok(body.includes(line), body);
      assert.ok(body.endsWith('readyz check passed\n'), body);
    });
  }

  it('excludes a grouped check by its group name', () => {
    const grouped: HealthChecker = {
      name: 'etcd-override-readiness-0',
      groupName: 'etcd-readiness',
      check: () => new Error('x'),
    };
    const r = serveHealth('/readyz', new URLSearchParams('exclude=etcd-readiness&verbose'), {
      healthz: [],
      livez: [],
      readyz: [grouped],
    });
    assert.strictEqual(
      r?.body,
      '[+]etcd-override-readiness-0 excluded with etcd-readiness: ok\nreadyz check passed\n',
    );
  });

  it('answers one check on its own path, without nosniff', () => {
    const { c } = checks({ value: true });
    assert.deepStrictEqual(get('/livez/ping', c), {
      status: 200,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: 'ok',
    });
  });

  for (const path of [
    '/health',
    '/readyz/',
    '/readyz/nonexistent',
    '/healthzz',
    '/livez/etcd-readiness',
  ]) {
    it(`leaves ${path} to the caller`, () => {
      assert.strictEqual(
        serveHealth(path, new URLSearchParams(), checks({ value: true }).c),
        undefined,
      );
    });
  }
});
