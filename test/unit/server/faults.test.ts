// Tests for src/server/faults.ts over a real HTTP server (test/unit/server/admin-server.ts):
// the list, the validation messages (a table), and what each fault does to the engine.
import * as assert from 'assert';
import { faultsPath, type FaultDescription } from '../../../src/server/faults';
import type { ActiveFaultJSON } from '../../../src/server/active-faults';
import { compactorPollPeriod } from '../../../src/engine/cacher/cacher';
import { startAdminServer, type AdminServer } from './admin-server';

describe('faults admin API (src/server/faults.ts)', () => {
  let s: AdminServer;
  beforeEach(async () => {
    s = await startAdminServer();
  });
  afterEach(async () => {
    await s.close();
  });

  it('GET lists every fault with its parameters', async () => {
    const r = await s.call('GET', faultsPath);
    assert.strictEqual(r.status, 200);
    assert.deepStrictEqual(
      (r.body.faults as FaultDescription[]).map((f) => f.name),
      [
        'compact',
        'cache-lag',
        'expire-history',
        'etcd-latency',
        'etcd-unavailable',
        'rangestream',
        'terminate-watcher',
        'restart',
        'stall-watch',
        'omit-end-bookmark',
        'ignore-send-initial-events',
        'drop-connection',
        'http-error',
        'blackhole',
        'latency',
      ],
    );
    const lag = (r.body.faults as FaultDescription[]).find((f) => f.name === 'cache-lag');
    assert.deepStrictEqual(
      lag?.parameters.map((p) => [p.name, p.type, p.required]),
      [
        ['seconds', 'number', true],
        ['resource', 'string', false],
      ],
    );
  });

  const invalid: [string, string, string | undefined, number, string][] = [
    [
      'unknown fault',
      'nope',
      '{}',
      404,
      'unknown fault "nope"; expected one of: compact, cache-lag',
    ],
    ['invalid JSON', 'compact', '{"revision":', 400, 'invalid JSON body: '],
    [
      'not an object',
      'compact',
      '[1]',
      400,
      "the body must be a JSON object of compact's parameters, got an array",
    ],
    [
      'unknown parameter',
      'compact',
      '{"rev":3}',
      422,
      'rev: unknown parameter; compact takes revision',
    ],
    ['missing required', 'cache-lag', '{}', 422, 'seconds: required: expected a number > 0'],
    ['wrong type', 'cache-lag', '{"seconds":"5"}', 422, 'seconds: expected a number > 0, got "5"'],
    [
      'zero seconds',
      'etcd-unavailable',
      '{"seconds":0}',
      422,
      'seconds: expected a number > 0, got 0',
    ],
    [
      'not an integer',
      'compact',
      '{"revision":1.5}',
      422,
      'revision: expected an integer >= 1, got 1.5',
    ],
    [
      'enum',
      'rangestream',
      '{"mode":"on"}',
      422,
      'mode: expected one of "supported", "unsupported", got "on"',
    ],
    [
      'negative latency',
      'etcd-latency',
      '{"perKeyMs":-1}',
      422,
      'perKeyMs: expected a number >= 0, got -1',
    ],
    ['null', 'restart', '{"resource":null}', 422, 'resource: required: expected a string'],
    [
      'unknown resource',
      'restart',
      '{"resource":"deployments"}',
      422,
      'resource: "deployments" is not served; expected one of: pods, configmaps',
    ],
    [
      'future revision',
      'compact',
      '{"revision":999}',
      422,
      'revision: etcdserver: mvcc: required revision is a future revision',
    ],
    [
      'id and userAgent',
      'terminate-watcher',
      '{"id":0,"userAgent":"x"}',
      422,
      'id, userAgent: exactly one of them is required',
    ],
    [
      'no such watcher',
      'terminate-watcher',
      '{"userAgent":"x"}',
      404,
      'no watcher of user agent "x"',
    ],
    [
      'http-error code',
      'http-error',
      '{"code":418}',
      422,
      'code: expected one of 429, 500, 503, 504, got 418',
    ],
    ['no code', 'http-error', '{}', 422, 'code: required: expected one of 429, 500, 503, 504'],
    [
      'stall-watch then',
      'stall-watch',
      '{"seconds":1,"then":"later"}',
      422,
      'then: expected one of "deliver", "drop", got "later"',
    ],
    [
      'negative afterEvents',
      'drop-connection',
      '{"afterEvents":-1}',
      422,
      'afterEvents: expected an integer >= 0, got -1',
    ],
    [
      'unknown matcher',
      'latency',
      '{"ms":5,"match":{"verbs":"list"}}',
      422,
      'match.verbs: unknown matcher; expected one of verb, resource, namespace, userAgent, watchList, replica',
    ],
    [
      'match not an object',
      'blackhole',
      '{"match":"list"}',
      422,
      'match: expected an object of matchers',
    ],
    [
      'unknown trigger',
      'blackhole',
      '{"trigger":{"first":1}}',
      422,
      'trigger.first: unknown trigger; expected one of nth, count, afterSeconds',
    ],
    [
      'nth and count',
      'blackhole',
      '{"trigger":{"nth":1,"count":2}}',
      422,
      'trigger.count: nth and count exclude each other; give one of them',
    ],
    [
      'a matcher on a server fault',
      'compact',
      '{"match":{"verb":"list"}}',
      422,
      'match.verb: compact acts on the server, not on requests: it takes only the replica matcher',
    ],
    [
      'a matcher other than resource on a server fault with a resource parameter',
      'restart',
      '{"match":{"namespace":"default"}}',
      422,
      'match.namespace: restart acts on the server, not on requests: it takes only the resource and replica matchers',
    ],
    [
      'nth on a server fault',
      'cache-lag',
      '{"seconds":1,"trigger":{"nth":2}}',
      422,
      'trigger.nth: cache-lag acts on the server, not on requests: its only trigger is afterSeconds',
    ],
    [
      'a watch fault on lists',
      'stall-watch',
      '{"seconds":1,"match":{"verb":"list"}}',
      422,
      'match.verb: stall-watch acts on watches: expected "watch", got "list"',
    ],
    [
      'omit-end-bookmark on other requests',
      'omit-end-bookmark',
      '{"match":{"watchList":false}}',
      422,
      'match.watchList: omit-end-bookmark acts on WatchList requests only: expected true',
    ],
    [
      'ignore-send-initial-events on other requests',
      'ignore-send-initial-events',
      '{"match":{"watchList":false}}',
      422,
      'match.watchList: ignore-send-initial-events acts on WatchList requests only: expected true',
    ],
    [
      'an unknown parameter of ignore-send-initial-events',
      'ignore-send-initial-events',
      '{"seconds":1}',
      422,
      'seconds: unknown parameter; ignore-send-initial-events takes none',
    ],
    [
      'a matcher resource not served',
      'latency',
      '{"ms":1,"match":{"resource":"deployments.apps"}}',
      422,
      'match.resource: "deployments.apps" is not served; expected one of: pods, configmaps',
    ],
    [
      'a replica a server of one does not run',
      'cache-lag',
      '{"seconds":1,"match":{"replica":2}}',
      422,
      'match.replica: 2: this server runs 1 replica (listwatch serve --replicas N runs more)',
    ],
    [
      'a request fault on a replica a server of one does not run',
      'http-error',
      '{"code":500,"match":{"replica":3}}',
      422,
      'match.replica: 3: this server runs 1 replica (listwatch serve --replicas N runs more)',
    ],
    [
      'the resource twice',
      'restart',
      '{"resource":"pods","match":{"resource":"configmaps"}}',
      422,
      'match.resource: restart already has the resource parameter "pods"',
    ],
  ];
  for (const [name, fault, body, status, message] of invalid) {
    it(`answers ${status} for ${name}`, async () => {
      const r = await s.call('POST', `${faultsPath}/${fault}`, body);
      assert.strictEqual(r.status, status, JSON.stringify(r.body));
      assert.strictEqual(r.body.kind, 'Status');
      assert.strictEqual(r.body.code, status);
      assert.ok(
        (r.body.message as string).startsWith(message),
        `${name}: ${r.body.message as string}`,
      );
    });
  }

  it('a request fault gets an id, is listed with its matchers, trigger and hits, and is cleared', async () => {
    const posted = await s.call(
      'POST',
      `${faultsPath}/http-error`,
      '{"code":503,"match":{"verb":"list","resource":"pods"},"trigger":{"count":2}}',
    );
    assert.strictEqual(posted.status, 200, JSON.stringify(posted.body));
    const id = posted.body.id;
    assert.ok(Number.isInteger(id) && id > 0, `id ${String(id)}`);
    const listed = await s.call('GET', `${faultsPath}/active`);
    assert.strictEqual(listed.status, 200);
    assert.strictEqual(listed.body.kind, 'ActiveFaultList');
    assert.deepStrictEqual(
      (listed.body.faults as unknown as ActiveFaultJSON[]).map(({ armedAt: _, ...f }) => f),
      [
        {
          id,
          name: 'http-error',
          parameters: { code: 503 },
          match: { verb: 'list', resource: 'pods' },
          trigger: { count: 2 },
          phase: 'armed',
          hits: 0,
        },
      ],
    );
    const one = await s.call('GET', `${faultsPath}/active/${id}`);
    assert.strictEqual(one.body.id, id);
    const cleared = await s.call('DELETE', `${faultsPath}/active/${id}`);
    assert.strictEqual(cleared.status, 200);
    assert.deepStrictEqual(
      cleared.body.cleared.map((f) => f.id),
      [id],
    );
    const empty = await s.call('GET', `${faultsPath}/active`);
    assert.deepStrictEqual(empty.body.faults, []);
  });

  const unknownIds: [string, string, string][] = [
    ['an id nothing has', 'DELETE', 'no active fault with id "99" (no fault is active)'],
    ['not a number', 'DELETE', 'no active fault with id "x" (no fault is active)'],
    ['GET of an id nothing has', 'GET', 'no active fault with id "99" (no fault is active)'],
  ];
  for (const [name, method, message] of unknownIds)
    it(`answers 404 for ${name}`, async () => {
      const r = await s.call(
        method,
        `${faultsPath}/active/${name === 'not a number' ? 'x' : '99'}`,
      );
      assert.strictEqual(r.status, 404);
      assert.strictEqual(r.body.message, message);
    });

  it('DELETE of active clears every fault, a scheduled server fault too (it never fires)', async () => {
    await s.call('POST', `${faultsPath}/blackhole`, '{"match":{"verb":"get"}}');
    const lag = await s.call(
      'POST',
      `${faultsPath}/cache-lag`,
      '{"seconds":1,"trigger":{"afterSeconds":5}}',
    );
    assert.strictEqual(lag.status, 200, JSON.stringify(lag.body));
    assert.strictEqual(lag.body.active.phase, 'pending');
    const r = await s.call('DELETE', `${faultsPath}/active`);
    assert.deepStrictEqual(
      r.body.cleared.map((f) => f.name),
      ['blackhole', 'cache-lag'],
    );
    s.clock.step(5000);
    assert.strictEqual(s.pods.engine.cacher.reflector.pausedFor(), 0);
  });

  it('a server fault with afterSeconds is applied when the clock gets there, then leaves the list', async () => {
    const r = await s.call(
      'POST',
      `${faultsPath}/cache-lag`,
      '{"seconds":2,"match":{"resource":"pods"},"trigger":{"afterSeconds":5}}',
    );
    assert.strictEqual(r.status, 200, JSON.stringify(r.body));
    assert.deepStrictEqual(r.body.active.parameters, {
      seconds: 2,
      resource: 'pods',
    });
    s.clock.step(4999);
    assert.strictEqual(s.pods.engine.cacher.reflector.pausedFor(), 0);
    s.clock.step(1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.strictEqual(s.pods.engine.cacher.reflector.pausedFor(), 2000);
    assert.strictEqual(s.configmaps.engine.cacher.reflector.pausedFor(), 0);
    assert.deepStrictEqual((await s.call('GET', `${faultsPath}/active`)).body.faults, []);
  });

  it('answers 405 for a method the path does not take', async () => {
    assert.strictEqual((await s.call('POST', faultsPath, '{}')).status, 405);
    assert.strictEqual((await s.call('DELETE', `${faultsPath}/compact`)).status, 405);
  });

  it('compact: etcd compacts to now; once the compactor sees it, an exact list before gets 410', async () => {
    const first = await s.pods.engine.createPod({ name: 'a' });
    await s.pods.engine.createPod({ name: 'b' });
    const r = await s.call('POST', `${faultsPath}/compact`, '');
    assert.strictEqual(r.status, 200);
    assert.strictEqual(r.body.revision, s.world.etcd.currentRevision());
    assert.strictEqual(s.world.etcd.compactRevision(), s.world.etcd.currentRevision());
    await s.pods.engine.step(compactorPollPeriod);
    await assert.rejects(
      s.pods.engine.list({
        resourceVersion: first.metadata.resourceVersion,
        resourceVersionMatch: 'Exact',
      }),
      (e: { status?: { code?: number } }) => e.status?.code === 410,
    );
  });

  it('cache-lag: one resource lags, the other does not', async () => {
    const r = await s.call('POST', `${faultsPath}/cache-lag`, '{"seconds":4,"resource":"pods"}');
    assert.strictEqual(r.status, 200, JSON.stringify(r.body));
    assert.deepStrictEqual(
      r.body.resources.map((x) => [x.resource, x.pausedForMs]),
      [['pods', 4000]],
    );
    const a = await s.pods.engine.createPod({ name: 'a' });
    await s.configmaps.engine.create({ metadata: { name: 'c', namespace: 'default' } });
    await s.pods.engine.step(10);
    assert.ok(s.pods.engine.watchCache.resourceVersion < s.world.etcd.currentRevision());
    assert.strictEqual(
      s.configmaps.engine.watchCache.resourceVersion,
      s.world.etcd.currentRevision(),
    );
    await s.pods.engine.step(4000);
    assert.strictEqual(
      s.pods.engine.watchCache.resourceVersion,
      Number(a.metadata.resourceVersion),
      "the pod's event applied at the end",
    );
  });

  it('expire-history: a watch resuming from before gets a 410 ERROR event', async () => {
    const a = await s.pods.engine.createPod({ name: 'a' });
    await s.pods.engine.createPod({ name: 'b' });
    await s.pods.engine.step(10);
    const r = await s.call('POST', `${faultsPath}/expire-history`, '{"resource":"pods"}');
    assert.deepStrictEqual(r.body.resources, [
      {
        resource: 'pods',
        droppedEvents: 2,
        oldestResourceVersion: s.pods.engine.watchCache.resourceVersion,
      },
    ]);
    const w = await s.pods.engine.watch({ resourceVersion: a.metadata.resourceVersion });
    await s.pods.engine.step(10);
    assert.strictEqual(w.client.events[0]?.type, 'ERROR');
  });

  it('etcd-latency: the model changes and answers wait for it', async () => {
    const r = await s.call('POST', `${faultsPath}/etcd-latency`, '{"perRequestMs":200}');
    assert.strictEqual(r.body.latency.perRequestMs, 200);
    assert.strictEqual(r.body.simulated, true);
    let done = false;
    const get = s.pods.engine.get('default', 'x', '', true).then(() => (done = true));
    await s.pods.engine.step(150);
    assert.strictEqual(done, false);
    await s.pods.engine.step(60);
    await get;
    const off = await s.call('POST', `${faultsPath}/etcd-latency`, '{}');
    assert.strictEqual(off.body.simulated, false);
  });

  it('etcd-unavailable: reads from etcd fail with Unavailable for the time given', async () => {
    const r = await s.call('POST', `${faultsPath}/etcd-unavailable`, '{"seconds":2}');
    assert.strictEqual(r.body.unavailableForMs, 2000);
    await assert.rejects(s.pods.engine.get('default', 'x', '', true), /code = Unavailable/);
    await s.pods.engine.step(2000);
    assert.strictEqual(await s.pods.engine.get('default', 'x', '', true), undefined);
  });

  it('rangestream: switches etcd and says whether the gate uses it', async () => {
    const r = await s.call('POST', `${faultsPath}/rangestream`, '{"mode":"supported"}');
    assert.strictEqual(s.world.etcd.rangeStreamSupport, 'supported');
    assert.deepStrictEqual(r.body.gateEnabled[0], { resource: 'pods', EtcdRangeStream: false });
    await s.call('POST', `${faultsPath}/rangestream`, '{"mode":"unsupported"}');
    assert.strictEqual(s.world.etcd.rangeStreamSupport, 'unimplemented');
  });

  it('terminate-watcher: by user agent and by id, as an unresponsive watcher', async () => {
    const kubectl = await s.pods.engine.watch({ resourceVersion: '0' }, 'kubectl/v1.33.0');
    const other = await s.pods.engine.watch({ resourceVersion: '0' }, 'client-node');
    const cm = await s.configmaps.engine.watch({ resourceVersion: '0' }, 'client-node');
    await s.pods.engine.step(10);
    // Both resources have a watcher 0: the id alone is ambiguous.
    const ambiguous = await s.call(
      'POST',
      `${faultsPath}/terminate-watcher`,
      `{"id":${cm.watcherId}}`,
    );
    assert.strictEqual(ambiguous.status, 422);
    assert.match(ambiguous.body.message, /exists in pods, configmaps; name the resource/);
    const byUA = await s.call(
      'POST',
      `${faultsPath}/terminate-watcher`,
      '{"userAgent":"kubectl/v1.33.0"}',
    );
    assert.strictEqual(byUA.status, 200, JSON.stringify(byUA.body));
    assert.deepStrictEqual(
      byUA.body.terminated.map((t) => [t.resource, t.userAgent]),
      [['pods', 'kubectl/v1.33.0']],
    );
    await s.pods.engine.step(10);
    assert.ok(kubectl.client.closed);
    assert.ok(!other.client.closed);
    assert.ok(
      s.log.some((l) => l.startsWith('Forcing pods watcher close due to unresponsiveness')),
    );
    const byId = await s.call(
      'POST',
      `${faultsPath}/terminate-watcher`,
      `{"id":${cm.watcherId},"resource":"configmaps"}`,
    );
    assert.strictEqual(byId.status, 200);
    await s.pods.engine.step(10);
    assert.ok(cm.client.closed);
    assert.ok(!other.client.closed);
  });

  it('restart: every watch closes and the cache is rebuilt', async () => {
    const w = await s.pods.engine.watch({ resourceVersion: '0' }, 'kubectl');
    await s.pods.engine.step(10);
    const before = s.pods.engine.cacher;
    const r = await s.call('POST', `${faultsPath}/restart`, '');
    assert.deepStrictEqual(r.body.resources, [
      { resource: 'pods', closedWatchers: 1 },
      { resource: 'configmaps', closedWatchers: 0 },
    ]);
    await s.pods.engine.waitReady();
    await s.pods.engine.step(10);
    assert.notStrictEqual(s.pods.engine.cacher, before);
    assert.ok(w.client.closed);
    assert.ok(s.pods.engine.cacher.isReady());
  });
});
