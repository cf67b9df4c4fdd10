// Tests for the deletion lifecycle of a live ApiServer (handlers/delete.ts, handlers/update.ts,
// namespace-storage.ts, namespace-lifecycle.ts, namespace-controller.ts): finalizers, graceful pods,
// namespace termination and its controller, with kube-apiserver's (release-1.36) messages. The
// server's own controller is off; each test drives a NamespaceController by hand (no timers).
import * as assert from 'assert';
import { ApiServer } from '../../../src/server/api-server';
import { NamespaceController } from '../../../src/server/namespace-controller';
import { call, openWatch, type Reply } from './http-client';

const meta = (r: Reply): Record<string, unknown> => r.json.metadata as Record<string, unknown>;

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('ApiServer deletion lifecycle (live HTTP)', () => {
  let server: ApiServer;
  let controller: NamespaceController;
  before(async () => {
    server = await ApiServer.start({ port: 0, namespaceController: false });
    controller = new NamespaceController(server.resources);
  });
  after(async () => {
    await controller.stop();
    await server.stop();
  });

  const cmPath = (ns: string, name = ''): string =>
    `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
  const createNs = (name: string): Promise<Reply> =>
    call(server, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
  const createCm = (ns: string, name: string, finalizers?: string[]): Promise<Reply> =>
    call(server, 'POST', cmPath(ns), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, ...(finalizers ? { finalizers } : {}) },
      data: { a: 'b' },
    });

  describe('finalizers', () => {
    it('keeps an object with finalizers, marked, until a patch empties them; then deletes it', async () => {
      assert.strictEqual((await createCm('default', 'held', ['example.com/hold'])).status, 201);
      const d = await call(server, 'DELETE', cmPath('default', 'held'));
      assert.strictEqual(d.status, 200, d.text);
      assert.strictEqual(d.json.kind, 'ConfigMap');
      assert.strictEqual(meta(d).deletionGracePeriodSeconds, 0);
      // Stored in ObjectMeta's field order, as Go encodes it.
      assert.deepStrictEqual(Object.keys(meta(d)), [
        'name',
        'namespace',
        'uid',
        'resourceVersion',
        'creationTimestamp',
        'deletionTimestamp',
        'deletionGracePeriodSeconds',
        'finalizers',
        'managedFields',
      ]);
      assert.match(String(meta(d).deletionTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const again = await call(server, 'DELETE', cmPath('default', 'held'));
      assert.strictEqual(again.status, 200);
      assert.strictEqual(meta(again).resourceVersion, meta(d).resourceVersion, 'no write');
      const added = await call(
        server,
        'PATCH',
        cmPath('default', 'held'),
        { metadata: { finalizers: ['example.com/hold', 'example.com/more'] } },
        'application/merge-patch+json',
      );
      assert.strictEqual(added.status, 422);
      assert.strictEqual(
        added.json.message,
        'ConfigMap "held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}',
      );
      const p = await call(
        server,
        'PATCH',
        cmPath('default', 'held'),
        { metadata: { finalizers: null } },
        'application/merge-patch+json',
      );
      assert.strictEqual(p.status, 200, p.text);
      assert.strictEqual(p.json.kind, 'ConfigMap');
      assert.strictEqual(meta(p).finalizers, undefined);
      assert.strictEqual((await call(server, 'GET', cmPath('default', 'held'))).status, 404);
    });

    it('Orphan adds the orphan finalizer (no garbage collector removes it); 202 for orphanDependents=false', async () => {
      await createCm('default', 'orphaned');
      const d = await call(server, 'DELETE', cmPath('default', 'orphaned'), {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: 'Orphan',
      });
      assert.strictEqual(d.status, 200);
      assert.deepStrictEqual(meta(d).finalizers, ['orphan']);
      await createCm('default', 'foreground');
      const f = await call(server, 'DELETE', cmPath('default', 'foreground'), {
        propagationPolicy: 'Foreground',
      });
      assert.strictEqual(f.status, 200, f.text);
      assert.deepStrictEqual(meta(f).finalizers, ['foregroundDeletion']);
      // orphanDependents=false adds no finalizer (shouldDeleteDependents is false when it is
      // set): 202 only for an object that stays.
      await createCm('default', 'gone');
      const g = await call(server, 'DELETE', cmPath('default', 'gone'), {
        orphanDependents: false,
      });
      assert.strictEqual(g.status, 200, g.text);
      assert.strictEqual(g.json.kind, 'Status');
      await createCm('default', 'stays', ['example.com/hold']);
      const a = await call(server, 'DELETE', cmPath('default', 'stays'), {
        orphanDependents: false,
      });
      assert.strictEqual(a.status, 202, a.text);
      assert.strictEqual(a.json.kind, 'ConfigMap');
    });

    it('refuses an unknown propagationPolicy with the DeleteOptions 422', async () => {
      const d = await call(server, 'DELETE', cmPath('default', 'x') + '?propagationPolicy=Up');
      assert.strictEqual(d.status, 422);
      assert.strictEqual(
        d.json.message,
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Up": supported values: "Foreground", "Background", "Orphan", "nil"',
      );
    });

    it('a dry-run delete answers and leaves the object', async () => {
      await createCm('default', 'dry');
      const d = await call(server, 'DELETE', cmPath('default', 'dry') + '?dryRun=All');
      assert.strictEqual(d.status, 200, d.text);
      assert.strictEqual(d.json.kind, 'Status');
      assert.strictEqual((await call(server, 'GET', cmPath('default', 'dry'))).status, 200);
    });
  });

  describe('pods (CheckGracefulDelete)', () => {
    const pod = (name: string, spec: Record<string, unknown> = {}): Record<string, unknown> => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
    });
    const podPath = (name: string): string => `/api/v1/namespaces/default/pods/${name}`;

    it('deletes an unscheduled pod at once, answering its last state', async () => {
      await call(server, 'POST', '/api/v1/namespaces/default/pods', pod('unscheduled'));
      const d = await call(server, 'DELETE', podPath('unscheduled'));
      assert.strictEqual(d.status, 200, d.text);
      assert.deepStrictEqual([meta(d).deletionGracePeriodSeconds, meta(d).generation], [0, 2]);
      assert.strictEqual((await call(server, 'GET', podPath('unscheduled'))).status, 404);
    });

    it('leaves a scheduled pod terminating (no kubelet), until a delete with grace 0', async () => {
      await call(
        server,
        'POST',
        '/api/v1/namespaces/default/pods',
        pod('bound', { nodeName: 'node-1', terminationGracePeriodSeconds: 45 }),
      );
      const d = await call(server, 'DELETE', podPath('bound'));
      assert.strictEqual(d.status, 200);
      assert.strictEqual(meta(d).deletionGracePeriodSeconds, 45);
      const ts = Date.parse(String(meta(d).deletionTimestamp));
      assert.ok(ts > Date.now() + 40_000, String(meta(d).deletionTimestamp));
      assert.strictEqual((await call(server, 'GET', podPath('bound'))).status, 200);
      const force = await call(server, 'DELETE', podPath('bound'), { gracePeriodSeconds: 0 });
      assert.strictEqual(force.status, 200, force.text);
      assert.strictEqual((await call(server, 'GET', podPath('bound'))).status, 404);
    });
  });

  describe('namespaces', () => {
    it('NamespaceLifecycle reads the namespace from the watch cache; one it does not hold yet, from etcd', async () => {
      // etcd GETs of namespaces so far, by the etcd request metric.
      const namespaceGets = async (): Promise<number> => {
        const text = (await call(server, 'GET', '/metrics')).text;
        const m =
          /^etcd_request_duration_seconds_count\{group="",operation="get",resource="namespaces"\} (\d+)$/m.exec(
            text,
          );
        return m ? Number(m[1]) : 0;
      };
      await createNs('cached');
      const inCache = (): boolean =>
        server.resources.namespaces.engine.cacher.watchCache.get({
          metadata: { name: 'cached' },
        }) !== undefined;
      await waitFor(inCache);
      assert.ok(inCache(), 'the watch cache holds the namespace');
      const before = await namespaceGets();
      for (const name of ['a', 'b', 'c'])
        assert.strictEqual((await createCm('cached', name)).status, 201);
      assert.strictEqual(
        await namespaceGets(),
        before,
        'no etcd GET for a namespace the cache holds',
      );
      // The cache paused: a namespace created now is not in it, and is looked up live.
      const lag = await call(server, 'POST', '/debug/listwatch/v1/faults/cache-lag', {
        seconds: 5,
        resource: 'namespaces',
      });
      assert.strictEqual(lag.status, 200, lag.text);
      assert.strictEqual((await createNs('uncached')).status, 201);
      assert.strictEqual((await createCm('uncached', 'a')).status, 201);
      assert.strictEqual(await namespaceGets(), before + 1, 'one live lookup');
      const missing = await createCm('nowhere', 'a');
      assert.deepStrictEqual(
        [missing.status, missing.json.message],
        [404, 'namespaces "nowhere" not found'],
      );
      // The next tests need a cache that has caught up again.
      const reflector = server.resources.namespaces.engine.cacher.reflector;
      await new Promise((resolve) => setTimeout(resolve, reflector.pausedFor() + 50));
      assert.strictEqual(reflector.pausedFor(), 0);
    });

    it("refuses to delete an immortal namespace with NamespaceLifecycle's 403", async () => {
      for (const name of ['default', 'kube-system', 'kube-public']) {
        const d = await call(server, 'DELETE', `/api/v1/namespaces/${name}`);
        assert.strictEqual(d.status, 403);
        assert.strictEqual(
          d.json.message,
          `namespaces "${name}" is forbidden: this namespace may not be deleted`,
        );
      }
      assert.strictEqual(
        (await call(server, 'DELETE', '/api/v1/namespaces/kube-node-lease')).status,
        200,
      );
    });

    it('terminates a namespace: Terminating, no new content, the controller empties and removes it', async () => {
      await createNs('doomed');
      await createCm('doomed', 'one');
      await createCm('doomed', 'two');
      const w = await openWatch(
        server,
        '/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3Ddoomed',
      );
      await waitFor(() => w.events.length >= 1);
      const d = await call(server, 'DELETE', '/api/v1/namespaces/doomed');
      assert.strictEqual(d.status, 200);
      assert.strictEqual(d.json.kind, 'Namespace');
      assert.strictEqual((d.json.status as { phase: string }).phase, 'Terminating');
      assert.ok(meta(d).deletionTimestamp);
      const refused = await createCm('doomed', 'late');
      assert.strictEqual(refused.status, 403);
      assert.deepStrictEqual(refused.json, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
        reason: 'Forbidden',
        details: {
          name: 'late',
          kind: 'configmaps',
          causes: [
            {
              reason: 'NamespaceTerminating',
              message: 'namespace doomed is being terminated',
              field: 'metadata.namespace',
            },
          ],
        },
        code: 403,
      });
      const second = await call(server, 'DELETE', '/api/v1/namespaces/doomed');
      assert.strictEqual(second.status, 200);
      assert.strictEqual(meta(second).resourceVersion, meta(d).resourceVersion);

      assert.strictEqual(await controller.delete('doomed'), 0);
      const cms = await call(server, 'GET', cmPath('doomed'));
      assert.deepStrictEqual(cms.json.items, []);
      assert.strictEqual((await call(server, 'GET', '/api/v1/namespaces/doomed')).status, 404);
      await waitFor(() => w.events.length >= 4);
      w.req.destroy();
      assert.deepStrictEqual(
        w.events.map((e) => e.type),
        ['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED'],
      );
      const conditions = (
        w.events[2].object.status as { conditions: Array<Record<string, string>> }
      ).conditions;
      assert.deepStrictEqual(
        conditions.map((c) => [c.type, c.status, c.reason]),
        [
          ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered'],
          ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions'],
          ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted'],
          ['NamespaceContentRemaining', 'False', 'ContentRemoved'],
          ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers'],
        ],
      );
      // The DELETED event carries the last stored state: the finalize update was never written.
      assert.deepStrictEqual((w.events[3].object.spec as { finalizers: string[] }).finalizers, [
        'kubernetes',
      ]);
    });

    it('waits for content with finalizers: the conditions say what remains, the estimate is 15 s', async () => {
      await createNs('held');
      await createCm('held', 'keep', ['example.com/hold']);
      await call(server, 'DELETE', '/api/v1/namespaces/held');
      assert.strictEqual(await controller.delete('held'), 15);
      const ns = await call(server, 'GET', '/api/v1/namespaces/held');
      const conditions = (ns.json.status as { conditions: Array<Record<string, string>> })
        .conditions;
      assert.deepStrictEqual(
        conditions.filter((c) => c.status === 'True').map((c) => [c.type, c.reason, c.message]),
        [
          [
            'NamespaceContentRemaining',
            'SomeResourcesRemain',
            'Some resources are remaining: configmaps. has 1 resource instances',
          ],
          [
            'NamespaceFinalizersRemaining',
            'SomeFinalizersRemain',
            'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
          ],
        ],
      );
      const keep = await call(server, 'GET', cmPath('held', 'keep'));
      assert.ok(meta(keep).deletionTimestamp);
      await call(
        server,
        'PATCH',
        cmPath('held', 'keep'),
        { metadata: { finalizers: null } },
        'application/merge-patch+json',
      );
      assert.strictEqual(await controller.delete('held'), 0);
      assert.strictEqual((await call(server, 'GET', '/api/v1/namespaces/held')).status, 404);
    });

    it('a queued namespace is synced after the grace period (a zero one here) and removed', async () => {
      const queued = new NamespaceController(server.resources, { gracePeriodMs: 0 });
      try {
        await createNs('queued');
        await createCm('queued', 'c');
        await call(server, 'DELETE', '/api/v1/namespaces/queued');
        queued.enqueue('queued');
        let status = 0;
        for (let i = 0; i < 500 && status !== 404; i++) {
          await new Promise((r) => setTimeout(r, 10));
          status = (await call(server, 'GET', '/api/v1/namespaces/queued')).status;
        }
        assert.strictEqual(status, 404);
      } finally {
        await queued.stop();
      }
    });

    it('the server runs its own namespace controller unless told not to', async () => {
      assert.strictEqual(server.resources.namespaceController, undefined);
      const other = await ApiServer.start({ port: 0 });
      try {
        assert.ok(other.resources.namespaceController instanceof NamespaceController);
      } finally {
        await other.stop();
      }
    });

    it('refuses a finalize with a finalizer name that is neither standard nor qualified', async () => {
      await createNs('fin');
      const ns = await call(server, 'GET', '/api/v1/namespaces/fin');
      const r = await call(server, 'PUT', '/api/v1/namespaces/fin/finalize', {
        ...ns.json,
        spec: { finalizers: ['kubernetes', 'custom'] },
      });
      assert.strictEqual(r.status, 422);
      assert.strictEqual(
        r.json.message,
        'Namespace "fin" is invalid: spec.finalizers[1]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      );
    });
  });
});
