// Tests for src/server/debug-state.ts over a real HTTP server: the live resources and watchers
// read from the engine, clients by user agent, and recent lists folded from engine events by
// request id, with the bounds that keep the memory flat.
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import {
  DebugState,
  debugStatePath,
  requestKind,
  type RecentList,
} from '../../../src/server/debug-state';
import type { AuditResponseStatus } from '../../../src/server/audit-log';
import type { DelegationRule, EngineEvent } from '../../../src/engine';
import { ApiServer } from '../../../src/server/api-server';
import { startAdminServer, type AdminServer } from './admin-server';
import { call, openWatch } from './http-client';

interface StateBody {
  etcd: { revision: number; unavailableForMs: number };
  resources: {
    resource: string;
    cacheResourceVersion: number;
    etcdRevision: number;
    ready: boolean;
    history: { size: number; capacity: number; oldestResourceVersion?: number };
    watchers: number;
    reflector: { pausedForMs: number; queuedEvents: number };
  }[];
  watchers: {
    id: number;
    resource: string;
    userAgent?: string;
    requestLine?: string;
    state: string;
    lastResourceVersion: number;
    clientRead?: { events: number; lastResourceVersion: number };
    input: { len: number; cap: number };
  }[];
  watchersTotal: number;
  clients: { userAgent: string; lists: number; watches: number; writes: number }[];
  recentLists: {
    requestId: number;
    resource: string;
    userAgent?: string;
    requestLine?: string;
    servedBy?: string;
    rule?: string;
    fallback?: string;
    fromCache?: { fetched: number; returned: number };
    status?: number;
    latencyMs?: number;
    error?: { code: number; reason?: string; message: string };
    pages: number;
    etcdCalls: { operation: string; key: string; limit: number }[];
    etcdCallsOmitted: number;
  }[];
}

/** Consistent lists from etcd (the gate off, as before 1.31), so that lists make etcd calls. */
const etcdLists = {
  gates: { ConsistentListFromCache: false },
  allowLockedGateOverride: true,
};

async function state(s: AdminServer): Promise<StateBody> {
  const r = await s.call('GET', debugStatePath);
  assert.strictEqual(r.status, 200);
  return r.body as unknown as StateBody;
}

describe('debug state (src/server/debug-state.ts)', () => {
  let s: AdminServer;
  beforeEach(async () => {
    s = await startAdminServer();
  });
  afterEach(async () => {
    await s.close();
  });

  it('shows each resource: cache and etcd RVs, readiness, history, the paused reflector', async () => {
    await s.pods.engine.createPod({ name: 'a' });
    await s.pods.engine.step(10);
    s.pods.engine.cacher.reflector.pause(1000);
    await s.pods.engine.createPod({ name: 'b' });
    await s.pods.engine.settle();
    const body = await state(s);
    const pods = body.resources.find((r) => r.resource === 'pods');
    assert.deepStrictEqual(
      pods && {
        cache: pods.cacheResourceVersion,
        etcd: pods.etcdRevision,
        ready: pods.ready,
        history: pods.history,
        reflector: pods.reflector,
      },
      {
        cache: 2,
        etcd: 3,
        ready: true,
        history: { size: 1, capacity: 100, oldestResourceVersion: 2 },
        reflector: { lastSyncResourceVersion: 2, pausedForMs: 1000, queuedEvents: 1 },
      },
    );
    assert.strictEqual(body.etcd.revision, 3);
  });

  it('lists the watchers with their request, state, last RV and buffer', async () => {
    await s.pods.engine.createPod({ name: 'a' });
    const ctx = s.requests.newContext('kubectl/v1.33.0', 'GET', '/api/v1/pods?watch=true');
    s.state.requestStarted(ctx, 'watch');
    await s.pods.engine.watch({ resourceVersion: '0' }, ctx);
    await s.pods.engine.step(10);
    const body = await state(s);
    assert.strictEqual(body.watchersTotal, 1);
    const [w] = body.watchers;
    assert.deepStrictEqual(
      {
        resource: w.resource,
        userAgent: w.userAgent,
        requestLine: w.requestLine,
        state: w.state,
        last: w.lastResourceVersion,
        inputLen: w.input.len,
      },
      {
        resource: 'pods',
        userAgent: 'kubectl/v1.33.0',
        requestLine: 'GET /api/v1/pods?watch=true',
        state: 'BookmarkSent',
        last: 2,
        inputLen: 0,
      },
    );
    assert.deepStrictEqual(
      body.clients.map((c) => [c.userAgent, c.watches]),
      [['kubectl/v1.33.0', 1]],
    );
  });

  it("says what each HTTP watch's client read: event lines and the last one's RV", async () => {
    const server = await ApiServer.start({ port: 0, seed: { pods: 3 } });
    try {
      const path = '/api/v1/namespaces/default/pods';
      const w = await openWatch(server, `${path}?watch=1&fieldSelector=metadata.name%3Dpod-0100`);
      const pod = {
        metadata: { name: 'pod-0100' },
        spec: { containers: [{ name: 'c', image: 'i' }] },
      };
      let latest = await call(server, 'POST', path, pod);
      assert.strictEqual(latest.status, 201, latest.text);
      for (const touched of ['once', 'twice']) {
        const o = latest.json as { metadata: Record<string, unknown> };
        o.metadata.annotations = { touched };
        latest = await call(server, 'PUT', `${path}/pod-0100`, o);
        assert.strictEqual(latest.status, 200, latest.text);
      }
      const rvs: string[] = [];
      for (let i = 0; i < 3; i++) {
        const e = await w.next();
        rvs.push((e.object.metadata as { resourceVersion: string }).resourceVersion);
      }
      const body = (await call(server, 'GET', debugStatePath)).json as unknown as StateBody;
      const watcher = body.watchers.find((x) => x.requestLine?.includes('pod-0100'));
      assert.deepStrictEqual(
        watcher?.clientRead,
        { events: 3, lastResourceVersion: Number(rvs[2]) },
        JSON.stringify(watcher),
      );
      w.req.destroy();
    } finally {
      await server.stop();
    }
  });

  // The watch's handler tells its end (a timeout, a closed watcher, a client gone): what its client
  // read is forgotten then, whichever way it ended.
  for (const c of [
    { ends: 'the client goes away', query: '' },
    { ends: 'its timeout passes', query: '&timeoutSeconds=1' },
  ]) {
    it(`forgets what a watch's client read once ${c.ends}`, async () => {
      const server = await ApiServer.start({ port: 0, seed: { pods: 1 } });
      try {
        const path = '/api/v1/namespaces/default/pods';
        const w = await openWatch(server, `${path}?watch=1${c.query}`);
        await w.next();
        const reads = (server.debugState as unknown as { reads: Map<number, unknown> }).reads;
        assert.strictEqual(reads.size, 1, 'a read while the watch is open');
        if (c.query === '') w.req.destroy();
        const pods = server.resources.find('', 'v1', 'pods');
        // The handler's end stops the watcher, then tells its end, in one turn.
        while ((pods?.engine.cacher.watcherCount() ?? 0) > 0)
          await new Promise((resolve) => setTimeout(resolve, 10));
        await new Promise((resolve) => setImmediate(resolve));
        assert.strictEqual(reads.size, 0, 'a read once the watch ended');
        w.req.destroy();
      } finally {
        await server.stop();
      }
    });
  }

  it('says events have no watch cache (the etcd3 store serves them), not that their cache is unready', async () => {
    const server = await ApiServer.start({ port: 0, seed: { pods: 1 } });
    try {
      const body = (await call(server, 'GET', debugStatePath)).json as unknown as {
        etcd: { revision: number };
        resources: Record<string, unknown>[];
      };
      const cacheless = body.resources.filter((r) => String(r.resource).startsWith('events'));
      assert.deepStrictEqual(
        cacheless,
        ['events', 'events.events.k8s.io'].map((resource) => ({
          resource,
          watchCache: false,
          etcdRevision: body.etcd.revision,
        })),
      );
      const pods = body.resources.find((r) => r.resource === 'pods');
      assert.deepStrictEqual([pods?.watchCache, pods?.ready], [true, true]);
    } finally {
      await server.stop();
    }
  });

  it("counts each client's requests by kind and by resource, as kubectl names the resource", async () => {
    const server = await ApiServer.start({ port: 0, seed: { pods: 1, configmaps: 1 } });
    try {
      const ns = '/api/v1/namespaces/default';
      const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
      const w = await openWatch(server, `${ns}/pods?watch=1`);
      const requests: [string, string, unknown?][] = [
        ['GET', `${ns}/pods`],
        ['GET', `${ns}/pods/pod-0`],
        ['POST', `${ns}/configmaps`, { metadata: { name: 'c' } }],
        ['PUT', `${ns}/configmaps/c`, { metadata: { name: 'c' }, data: { a: 'b' } }],
        ['GET', leases],
        ['POST', leases, { metadata: { name: 'l' }, spec: {} }],
      ];
      for (const [method, path, body] of requests) {
        const r = await call(server, method, path, body);
        assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
      }
      const body = (await call(server, 'GET', debugStatePath)).json as unknown as {
        clients: (Record<string, number> & { resources: Record<string, unknown> })[];
      };
      const none = { lists: 0, gets: 0, watches: 0, writes: 0, other: 0 };
      assert.deepStrictEqual(
        body.clients.map(({ lists, gets, watches, writes, other, resources }) => ({
          totals: { lists, gets, watches, writes, other },
          resources,
        })),
        [
          {
            totals: { lists: 2, gets: 1, watches: 1, writes: 3, other: 0 },
            resources: {
              pods: { ...none, lists: 1, gets: 1, watches: 1 },
              configmaps: { ...none, writes: 2 },
              'leases.coordination.k8s.io': { ...none, lists: 1, writes: 1 },
            },
          },
        ],
      );
      w.req.destroy();
    } finally {
      await server.stop();
    }
  });

  it('folds recent lists by request id with their etcd calls, newest first', async () => {
    await s.close();
    s = await startAdminServer(etcdLists);
    await s.pods.engine.createPod({ name: 'a' });
    await s.pods.engine.step(10);
    const fromEtcd = s.pods.engine.listContext({ limit: 10 }, 'kubectl/v1.20.0');
    s.state.requestStarted(fromEtcd, 'list');
    await s.pods.engine.list({ limit: 10 }, fromEtcd);
    const fromCache = s.pods.engine.listContext({ resourceVersion: '0' }, 'client-node');
    s.state.requestStarted(fromCache, 'list');
    await s.pods.engine.list({ resourceVersion: '0' }, fromCache);
    const body = await state(s);
    const [cached, etcd] = body.recentLists;
    assert.deepStrictEqual(
      [cached.requestId, cached.userAgent, cached.servedBy, cached.fromCache?.returned],
      [fromCache.requestId, 'client-node', 'cache', 1],
    );
    assert.deepStrictEqual(
      [etcd.requestId, etcd.userAgent, etcd.requestLine, etcd.servedBy, etcd.pages],
      [fromEtcd.requestId, 'kubectl/v1.20.0', 'GET /api/v1/pods?limit=10', 'etcd', 1],
    );
    assert.deepStrictEqual(
      etcd.etcdCalls.map((c) => [c.operation, c.key, c.limit]),
      [['list', '/registry/pods/', 10]],
    );
    assert.deepStrictEqual(
      body.clients.map((c) => [c.userAgent, c.lists]),
      [
        ['kubectl/v1.20.0', 1],
        ['client-node', 1],
      ],
    );
  });

  it('keeps the last maxLists lists, maxEtcdCallsPerList calls each, maxClients agents', async () => {
    await s.close();
    s = await startAdminServer(etcdLists);
    const bounded = new DebugState(s.world, { maxLists: 2, maxEtcdCallsPerList: 1, maxClients: 2 });
    const off = s.hub.subscribe((e) => bounded.observe(e));
    try {
      const ids: number[] = [];
      for (const agent of ['a', 'b', 'c']) {
        const ctx = s.pods.engine.listContext({}, agent);
        bounded.requestStarted(ctx, 'list');
        ids.push(ctx.requestId);
        await s.pods.engine.list({ limit: 1 }, ctx);
      }
      // A list whose pages need more than one etcd call: two pods, a field selector, limit 1.
      await s.pods.engine.createPod({ name: 'p1' });
      await s.pods.engine.createPod({ name: 'p2' });
      const paging = s.pods.engine.listContext({}, 'c');
      bounded.requestStarted(paging, 'list');
      await s.pods.engine.list({ limit: 1, fieldSelector: 'metadata.name=p2' }, paging);
      const v = bounded.view();
      assert.deepStrictEqual(
        v.recentLists.map((l) => l.requestId),
        [paging.requestId, ids[2]],
      );
      assert.strictEqual(v.recentLists[0].etcdCalls.length, 1);
      assert.ok(v.recentLists[0].etcdCallsOmitted >= 1, 'the second page is counted');
      assert.deepStrictEqual(
        v.clients.map((c) => [c.userAgent, c.lists]),
        [
          ['a', 1],
          ['b', 1],
          ['(other clients)', 2],
        ],
      );
    } finally {
      off();
    }
  });

  it('ends each LIST with its response: what served it, the latency the client saw, its Status', () => {
    const pods = { group: '', resource: 'pods' };
    const decision = (requestId: number, rule: DelegationRule): EngineEvent => ({
      type: 'delegator/decision',
      at: 1000,
      groupResource: pods,
      requestId,
      operation: 'list',
      key: '/pods/default',
      resourceVersion: '',
      resourceVersionMatch: '',
      limit: 10,
      hasContinue: false,
      recursive: true,
      path: 'consistent',
      rule,
      target: 'cache',
      consistentRead: rule === 'consistent-read',
    });
    const fallback = (requestId: number, f: 'true' | 'skipped'): EngineEvent => ({
      type: 'delegator/fallback',
      at: 4001,
      groupResource: pods,
      requestId,
      key: '/pods/default',
      reason: 'too-large-resource-version',
      fallback: f,
      success: f === 'true',
    });
    const done = (requestId: number): EngineEvent =>
      ({
        type: 'list/done',
        at: 4001,
        groupResource: pods,
        requestId,
        keyPrefix: '/registry/pods/default/',
        recursive: true,
        streamed: false,
        etcdRequests: 1,
        fetched: 10,
        evaluated: 10,
        returned: 10,
        latencyMs: 1,
      }) as EngineEvent;
    const tooLarge = 'Too large resource version: 42, current: 40';
    const cases: Array<{
      name: string;
      events: (id: number) => EngineEvent[];
      response: { at: number; status: AuditResponseStatus | number };
      want: Partial<RecentList>;
    }> = [
      {
        name: 'a consistent read that fell back to etcd after 3 s',
        events: (id) => [decision(id, 'consistent-read'), done(id), fallback(id, 'true')],
        response: { at: 4010, status: 200 },
        want: { servedBy: 'etcd', fallback: 'true', status: 200, latencyMs: 3010, returned: 10 },
      },
      {
        name: 'a page the cache timed out on: 504',
        events: (id) => [decision(id, 'future-rv')],
        response: {
          at: 4000,
          status: { code: 504, status: 'Failure', reason: 'Timeout', message: tooLarge },
        },
        want: {
          servedBy: 'cache',
          status: 504,
          latencyMs: 3000,
          error: { code: 504, reason: 'Timeout', message: tooLarge },
        },
      },
      {
        name: 'no fallback (ConsistentListFromCacheSkipTimeoutFallback): 429',
        events: (id) => [decision(id, 'consistent-read'), fallback(id, 'skipped')],
        response: {
          at: 4001,
          status: { code: 429, status: 'Failure', reason: 'TooManyRequests', message: tooLarge },
        },
        want: {
          servedBy: 'cache',
          fallback: 'skipped',
          status: 429,
          latencyMs: 3001,
          error: { code: 429, reason: 'TooManyRequests', message: tooLarge },
        },
      },
      {
        name: 'refused by the handler before storage: a list all the same',
        events: () => [],
        response: {
          at: 1002,
          status: { code: 400, status: 'Failure', reason: 'BadRequest', message: 'bad' },
        },
        want: {
          status: 400,
          latencyMs: 2,
          error: { code: 400, reason: 'BadRequest', message: 'bad' },
        },
      },
    ];
    const debug = new DebugState(s.world);
    for (const [i, c] of cases.entries()) {
      const ctx = { requestId: 100 + i, client: 'kubectl/v1.35.2', requestLine: 'GET /x' };
      debug.requestStarted(ctx, 'list', { at: 1000, groupResource: pods });
      for (const e of c.events(ctx.requestId)) debug.observe(e);
      debug.responseEnded(ctx.requestId, c.response.at, c.response.status);
      const got = debug.view().recentLists.find((l) => l.requestId === ctx.requestId);
      assert.ok(got, c.name);
      const picked = Object.fromEntries(
        Object.keys(c.want).map((k) => [k, got[k as keyof RecentList]]),
      );
      assert.deepStrictEqual(picked, c.want, c.name);
      assert.strictEqual(got.at, 1000, `${c.name}: sent at`);
    }
  });

  it('a LIST over HTTP ends with its status and latency in the state', async () => {
    const server = await ApiServer.start({ port: 0, seed: { pods: 3 } });
    try {
      const path = '/api/v1/namespaces/default/pods';
      assert.strictEqual((await call(server, 'GET', `${path}?limit=1`)).status, 200);
      const bad = await call(server, 'GET', `${path}?limit=1&continue=not-a-token`);
      assert.strictEqual(bad.status, 400, bad.text);
      const body = (await call(server, 'GET', debugStatePath)).json as unknown as StateBody;
      const [refused, ok] = body.recentLists;
      assert.deepStrictEqual(
        [ok.status, typeof ok.latencyMs, ok.error],
        [200, 'number', undefined],
        JSON.stringify(ok),
      );
      assert.deepStrictEqual(
        [refused.status, typeof refused.latencyMs, refused.error?.code, refused.error?.reason],
        [400, 'number', 400, 'BadRequest'],
        JSON.stringify(refused),
      );
    } finally {
      await server.stop();
    }
  });

  it('answers 405 for anything but GET', async () => {
    assert.strictEqual((await s.call('POST', debugStatePath, '{}')).status, 405);
  });

  it('groups RequestInfo verbs per client', () => {
    const table: [string, string][] = [
      ['list', 'lists'],
      ['get', 'gets'],
      ['watch', 'watches'],
      ['create', 'writes'],
      ['update', 'writes'],
      ['patch', 'writes'],
      ['delete', 'writes'],
      ['deletecollection', 'writes'],
      ['proxy', 'other'],
    ];
    for (const [verb, kind] of table) assert.strictEqual(requestKind(verb), kind, verb);
  });

  it("the README says what each watcher RV is: the watcher's own and the client's", () => {
    // Two fields named lastResourceVersion side by side: a reader must be told which is which.
    const readme = readFileSync(path.join(__dirname, '../../../../README.md'), 'utf8');
    const at = readme.indexOf('`GET /debug/listwatch/v1/state`');
    assert.ok(at >= 0, 'the README describes GET /debug/listwatch/v1/state');
    const section = readme.slice(at, readme.indexOf('\n#', at));
    assert.match(section, /`lastResourceVersion` is the watcher's own/);
    assert.match(section, /`clientRead\.lastResourceVersion` is what the client read/);
  });
});
