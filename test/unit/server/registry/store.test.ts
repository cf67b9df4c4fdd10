// Tests for src/server/registry/store.ts: the registry Store over real engine resources (in-memory
// etcd, fake clock, seeded randomness), as k8s.io/apiserver pkg/registry/generic/registry/
// store_test.go exercises Store (TestStoreCreate, TestStoreUpdate, TestNoOpUpdates,
// TestStoreDelete, TestStoreDeleteCollection, TestGracefulStoreHandleFinalizers): a table of
// writes, each with the Status (as the handler would answer it) or the object it must give, and
// whether etcd moved. Also the generic strategy of a built-in kind without its own file, create on
// update, dry run, and an update through a status strategy.
import * as assert from 'assert';
import { FakeClock } from '../../../../src/engine/clock';
import { SeededRandom } from '../../../../src/engine/rand';
import { MemoryEtcd } from '../../../../src/engine/etcd/memory-etcd';
import { RequestContexts } from '../../../../src/engine/request/request-context';
import { MetricsRegistry } from '../../../../src/engine/metrics/registry';
import { createResource } from '../../../../src/engine/apiserver';
import type { KubeObject } from '../../../../src/engine/storage/objects';
import type { RequestContext } from '../../../../src/engine';
import { Store, type StoreResource } from '../../../../src/server/registry/store';
import { configMapStrategy } from '../../../../src/server/registry/configmap-strategy';
import { podStatusStrategy } from '../../../../src/server/registry/pod-strategy';
import { namespaceFinalizeStrategy } from '../../../../src/server/registry/namespace-strategy';
import { ServiceAllocators } from '../../../../src/server/registry/service-allocators';
import { strategyFor } from '../../../../src/server/registry/strategy-for';
import { statusForError, type StorageOperation } from '../../../../src/server/status';

const start = Date.UTC(2026, 11, 7, 12, 0, 0);

type Loose = Record<string, unknown>;

interface World {
  etcd: MemoryEtcd;
  clock: FakeClock;
  stores: Record<'pods' | 'configmaps' | 'namespaces' | 'widgets' | 'secrets', Store>;
  context: RequestContext;
}

// The resources as ServedResources builds them, secrets standing for a built-in served without a
// strategy file of its own (another engineer's table adds ~35 such kinds).
async function newWorld(): Promise<World> {
  const clock = new FakeClock(start);
  const etcd = new MemoryEtcd({ clock });
  const requests = new RequestContexts();
  const metrics = new MetricsRegistry();
  const rand = new SeededRandom(5);
  const resource = (
    group: string,
    version: string,
    plural: string,
    kind: string,
    namespaced: boolean,
    jsonOnly = false,
  ): StoreResource => ({
    group,
    version,
    resource: plural,
    singularName: plural.slice(0, -1),
    kind,
    listKind: `${kind}List`,
    namespaced,
    shortNames: [],
    categories: [],
    verbs: [],
    jsonOnly,
    returnDeletedObject: plural === 'pods' || plural === 'namespaces',
    engine: createResource({
      clock,
      rand: new SeededRandom(rand.intn(1000)),
      etcd,
      requests,
      metrics,
      namespaced,
      watchCache: false,
      groupResource: { group, resource: plural },
      resourcePrefix: group === '' ? `/${plural}` : `/${group}/${plural}`,
    }),
  });
  const resources = {
    pods: resource('', 'v1', 'pods', 'Pod', true),
    configmaps: resource('', 'v1', 'configmaps', 'ConfigMap', true),
    namespaces: resource('', 'v1', 'namespaces', 'Namespace', false),
    widgets: resource('example.com', 'v1', 'widgets', 'Widget', true, true),
    secrets: resource('', 'v1', 'secrets', 'Secret', true),
  };
  const stores = {} as World['stores'];
  for (const [k, r] of Object.entries(resources)) {
    r.engine.start();
    await r.engine.waitReady();
    stores[k as keyof World['stores']] = new Store(r, {
      clock,
      rand: new SeededRandom(9),
    });
  }
  return {
    etcd,
    clock,
    stores,
    context: requests.newContext('store-test', 'POST', '/api/v1/namespaces/ns/pods'),
  };
}

const pod = (name: string, extra: Loose = {}): KubeObject =>
  ({
    metadata: { name, ...extra },
    spec: { containers: [{ name: 'c', image: 'i' }] },
  }) as unknown as KubeObject;
const configMap = (name: string, data: Record<string, string>, meta: Loose = {}): KubeObject =>
  ({ metadata: { name, ...meta }, data }) as unknown as KubeObject;
const widget = (name: string, spec: Loose, meta: Loose = {}): KubeObject =>
  ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, ...meta },
    spec,
  }) as unknown as KubeObject;

/** What a case's action may answer: an object, a delete's or update's result, or a list. */
type Answer = KubeObject | { object: KubeObject } | { items: readonly KubeObject[] };

interface Case {
  name: string;
  /** Objects created (through the Store) before the action. */
  setup?: (w: World) => Promise<void>;
  action: (w: World) => Promise<Answer>;
  /** The Status the handler would write: `code message`. */
  error?: string | RegExp;
  /** The object's name the handler interprets a storage error for (default `a`). */
  target?: string;
  /** The registry operation the handler interprets a storage error for. */
  operation?: StorageOperation;
  /** Checks on the answer and on what etcd holds afterwards. */
  check?: (answer: Answer, w: World) => Promise<void> | void;
  /** Whether etcd's revision must not move (dry run, refused writes). */
  noWrite?: boolean;
}

const meta = (o: Answer): Loose => ((o as KubeObject).metadata ?? {}) as unknown as Loose;

async function stored(
  w: World,
  store: Store,
  ns: string,
  name: string,
): Promise<KubeObject | undefined> {
  return store.resource.engine.get(ns, name, '', true, w.context);
}

const cases: Case[] = [
  {
    name: 'create a pod: system fields, PrepareForCreate (generation 1, status Pending)',
    action: (w) => w.stores.pods.create('ns', pod('a'), { context: w.context }),
    check: (o) => {
      const m = meta(o);
      assert.strictEqual(m.namespace, 'ns');
      assert.strictEqual(m.generation, 1);
      assert.strictEqual(m.creationTimestamp, '2026-12-07T12:00:00Z');
      assert.match(String(m.uid), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab]/);
      assert.ok(m.resourceVersion, 'a resourceVersion');
      assert.deepStrictEqual((o as unknown as Loose).status, {
        phase: 'Pending',
        qosClass: 'BestEffort',
      });
      assert.deepStrictEqual(Object.keys(o), ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    },
  },
  {
    name: 'create with generateName: the prefix and five random characters',
    action: (w) =>
      w.stores.configmaps.create('ns', configMap('', {}, { generateName: 'cm-' }), {
        context: w.context,
      }),
    check: (o) => assert.match(String(meta(o).name), /^cm-[bcdfghjklmnpqrstvwxz2456789]{5}$/),
  },
  {
    name: 'create with a name that is no DNS subdomain: 422 naming the kind',
    action: (w) => w.stores.pods.create('ns', pod('Bad_Name'), { context: w.context }),
    operation: 'create',
    error:
      "422 Pod \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    noWrite: true,
  },
  {
    name: 'create an object that exists: 409 AlreadyExists',
    setup: async (w) => {
      await w.stores.configmaps.create('ns', configMap('a', {}), { context: w.context });
    },
    action: (w) => w.stores.configmaps.create('ns', configMap('a', {}), { context: w.context }),
    operation: 'create',
    error: '409 configmaps "a" already exists',
    noWrite: true,
  },
  {
    name: 'create in a namespace other than the request one: 400',
    action: (w) =>
      w.stores.configmaps.create('ns', configMap('a', {}, { namespace: 'other' }), {
        context: w.context,
      }),
    operation: 'create',
    error:
      '400 the namespace of the provided object does not match the namespace sent on the request',
    noWrite: true,
  },
  {
    name: 'update without resourceVersion where the strategy allows it (configmaps): unconditional',
    setup: async (w) => {
      await w.stores.configmaps.create('ns', configMap('a', { k: 'v' }), { context: w.context });
    },
    action: (w) =>
      w.stores.configmaps.update('ns', 'a', () => configMap('a', { k: 'w' }), {
        context: w.context,
      }),
    check: async (o, w) => {
      assert.strictEqual((o as unknown as { created: boolean }).created, false);
      const now = await stored(w, w.stores.configmaps, 'ns', 'a');
      assert.deepStrictEqual((now as unknown as Loose).data, { k: 'w' });
      assert.strictEqual(now?.metadata.creationTimestamp, '2026-12-07T12:00:00Z', 'kept');
    },
  },
  {
    name: 'update without resourceVersion where the strategy does not (custom resources): 422',
    setup: async (w) => {
      await w.stores.widgets.create('ns', widget('a', { size: 1 }), { context: w.context });
    },
    action: (w) =>
      w.stores.widgets.update('ns', 'a', () => widget('a', { size: 2 }), { context: w.context }),
    operation: 'update',
    error:
      '422 widgets.example.com "a" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    noWrite: true,
  },
  {
    name: 'update with a stale resourceVersion: the optimistic-lock 409',
    setup: async (w) => {
      await w.stores.configmaps.create('ns', configMap('a', {}), { context: w.context });
    },
    action: (w) =>
      w.stores.configmaps.update(
        'ns',
        'a',
        () => configMap('a', { k: 'v' }, { resourceVersion: '1' }),
        { context: w.context },
      ),
    operation: 'update',
    error:
      '409 Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
    noWrite: true,
  },
  {
    name: 'update of a custom resource whose spec changes: generation +1',
    setup: async (w) => {
      await w.stores.widgets.create('ns', widget('a', { size: 1 }), { context: w.context });
    },
    action: async (w) => {
      const rv = (await stored(w, w.stores.widgets, 'ns', 'a'))?.metadata.resourceVersion;
      return w.stores.widgets.update(
        'ns',
        'a',
        () => widget('a', { size: 2 }, { resourceVersion: rv }),
        { context: w.context },
      );
    },
    check: (o) =>
      assert.strictEqual(meta((o as unknown as { object: KubeObject }).object).generation, 2),
  },
  {
    name: 'update of a missing object (no create on update): 404',
    action: (w) =>
      w.stores.configmaps.update('ns', 'nope', () => configMap('nope', {}), {
        context: w.context,
      }),
    operation: 'update',
    target: 'nope',
    error: '404 configmaps "nope" not found',
    noWrite: true,
  },
  {
    name: 'create on update where the strategy allows it: created, with system fields',
    action: (w) =>
      new Store(w.stores.configmaps.resource, {
        clock: w.clock,
        rand: new SeededRandom(1),
        strategy: { ...configMapStrategy, allowCreateOnUpdate: true },
      }).update('ns', 'fresh', () => configMap('fresh', { k: 'v' }), { context: w.context }),
    check: async (o, w) => {
      const { object, created } = o as { object: KubeObject; created: boolean };
      assert.strictEqual(created, true);
      assert.ok(object.metadata.uid, 'a uid');
      assert.strictEqual(object.metadata.creationTimestamp, '2026-12-07T12:00:00Z');
      const now = await stored(w, w.stores.configmaps, 'ns', 'fresh');
      assert.deepStrictEqual((now as unknown as Loose).data, { k: 'v' });
    },
  },
  {
    name: 'create on update forced by the caller (apply) where the strategy does not allow it',
    action: (w) =>
      w.stores.pods.update('ns', 'applied', () => pod('applied'), {
        context: w.context,
        forceAllowCreate: true,
      }),
    check: (o) => {
      const { object, created } = o as { object: KubeObject; created: boolean };
      assert.strictEqual(created, true);
      assert.strictEqual(object.metadata.generation, 1, 'PrepareForCreate ran');
    },
  },
  {
    name: 'delete with a UID precondition that does not match: 409',
    setup: async (w) => {
      await w.stores.configmaps.create('ns', configMap('a', {}), { context: w.context });
    },
    action: (w) =>
      w.stores.configmaps.delete('ns', 'a', { preconditions: { uid: 'other' } }, w.context),
    operation: 'delete',
    error:
      /^409 Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition \(other\) does not match the UID in record \([0-9a-f-]{36}\)\. The object might have been deleted and then recreated$/,
    noWrite: true,
  },
  {
    name: 'delete of an object with finalizers: marked, kept, then gone once they are emptied',
    setup: async (w) => {
      await w.stores.configmaps.create('ns', configMap('a', {}, { finalizers: ['x.io/f'] }), {
        context: w.context,
      });
    },
    action: async (w) => {
      const marked = await w.stores.configmaps.delete('ns', 'a', {}, w.context);
      assert.strictEqual((marked as unknown as { deleted: boolean }).deleted, false);
      assert.strictEqual(meta(marked.object).deletionTimestamp, '2026-12-07T12:00:00Z');
      return w.stores.configmaps.update(
        'ns',
        'a',
        (existing) => ({ ...existing, metadata: { ...existing.metadata, finalizers: [] } }),
        { context: w.context },
      );
    },
    check: async (_o, w) =>
      assert.strictEqual(await stored(w, w.stores.configmaps, 'ns', 'a'), undefined),
  },
  {
    name: 'delete of a pod on no node: graceful period 0, gone, the pod answered',
    setup: async (w) => {
      await w.stores.pods.create('ns', pod('a'), { context: w.context });
    },
    action: (w) => w.stores.pods.delete('ns', 'a', {}, w.context),
    check: async (o, w) => {
      assert.strictEqual((o as unknown as { deleted: boolean }).deleted, true);
      assert.strictEqual((o as unknown as { object: KubeObject }).object.kind, 'Pod');
      assert.strictEqual(await stored(w, w.stores.pods, 'ns', 'a'), undefined);
    },
  },
  {
    name: 'dry run create: the object as it would be stored, nothing written',
    action: (w) =>
      w.stores.configmaps.create('ns', configMap('a', { k: 'v' }), {
        context: w.context,
        dryRun: true,
      }),
    noWrite: true,
    check: async (o, w) => {
      assert.ok(meta(o).uid, 'a uid');
      assert.strictEqual(meta(o).resourceVersion, undefined);
      assert.strictEqual(await stored(w, w.stores.configmaps, 'ns', 'a'), undefined);
    },
  },
  {
    name: 'dry run update and delete: answered, nothing written',
    setup: async (w) => {
      await w.stores.configmaps.create('ns', configMap('a', { k: 'v' }), { context: w.context });
    },
    action: async (w) => {
      const u = await w.stores.configmaps.update('ns', 'a', () => configMap('a', { k: 'w' }), {
        context: w.context,
        dryRun: true,
      });
      assert.deepStrictEqual((u.object as unknown as Loose).data, { k: 'w' });
      return w.stores.configmaps.delete('ns', 'a', { dryRun: ['All'] }, w.context);
    },
    noWrite: true,
    check: async (_o, w) => {
      const now = await stored(w, w.stores.configmaps, 'ns', 'a');
      assert.deepStrictEqual((now as unknown as Loose).data, { k: 'v' });
    },
  },
  {
    name: 'a built-in without a strategy file (secrets): created through the generic strategy',
    action: (w) =>
      w.stores.secrets.create(
        'ns',
        { metadata: { name: 's', generation: 7 }, data: { k: 'dg==' } } as unknown as KubeObject,
        { context: w.context },
      ),
    check: async (o, w) => {
      assert.strictEqual((o as KubeObject).kind, 'Secret');
      assert.strictEqual(meta(o).namespace, 'ns');
      assert.ok(meta(o).uid);
      const now = await stored(w, w.stores.secrets, 'ns', 's');
      assert.deepStrictEqual((now as unknown as Loose).data, { k: 'dg==' });
    },
  },
  {
    name: 'the generic strategy validates the name as a DNS subdomain: 422 naming the kind',
    action: (w) =>
      w.stores.secrets.create('ns', { metadata: { name: 'a/b' } } as KubeObject, {
        context: w.context,
      }),
    operation: 'create',
    error:
      "422 Secret \"a/b\" is invalid: metadata.name: Invalid value: \"a/b\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    noWrite: true,
  },
  {
    name: 'the generic strategy: update unconditionally and delete',
    setup: async (w) => {
      await w.stores.secrets.create('ns', { metadata: { name: 's' } } as KubeObject, {
        context: w.context,
      });
    },
    action: async (w) => {
      await w.stores.secrets.update(
        'ns',
        's',
        () => ({ metadata: { name: 's', labels: { a: 'b' } } }) as KubeObject,
        { context: w.context },
      );
      assert.deepStrictEqual((await stored(w, w.stores.secrets, 'ns', 's'))?.metadata.labels, {
        a: 'b',
      });
      return w.stores.secrets.delete('ns', 's', {}, w.context);
    },
    check: async (o, w) => {
      assert.strictEqual((o as unknown as { object: KubeObject }).object.kind, 'Status');
      assert.strictEqual(await stored(w, w.stores.secrets, 'ns', 's'), undefined);
    },
  },
  {
    name: 'an update through the status strategy takes status and keeps spec',
    setup: async (w) => {
      await w.stores.pods.create('ns', pod('a'), { context: w.context });
    },
    action: (w) =>
      w.stores.pods.withUpdateStrategy(podStatusStrategy).update(
        'ns',
        'a',
        (existing) =>
          ({
            ...existing,
            spec: { containers: [{ name: 'other', image: 'other' }] },
            status: { phase: 'Running' },
          }) as KubeObject,
        { context: w.context },
      ),
    check: async (_o, w) => {
      const now = (await stored(w, w.stores.pods, 'ns', 'a')) as unknown as Loose;
      assert.deepStrictEqual(now.status, { phase: 'Running' });
      assert.deepStrictEqual(now.spec, { containers: [{ name: 'c', image: 'i' }] });
    },
  },
  {
    name: 'a main-resource update keeps status (the pod strategy resets it)',
    setup: async (w) => {
      await w.stores.pods.create('ns', pod('a'), { context: w.context });
    },
    action: (w) =>
      w.stores.pods.update(
        'ns',
        'a',
        (existing) => ({ ...existing, status: { phase: 'Running' } }) as KubeObject,
        { context: w.context },
      ),
    check: async (_o, w) => {
      const now = (await stored(w, w.stores.pods, 'ns', 'a')) as unknown as Loose;
      assert.deepStrictEqual(now.status, { phase: 'Pending', qosClass: 'BestEffort' });
    },
  },
  {
    name: 'namespace delete marks it; the finalize update that empties spec.finalizers deletes it',
    setup: async (w) => {
      await w.stores.namespaces.create('', { metadata: { name: 'gone' } } as KubeObject, {
        context: w.context,
      });
    },
    action: async (w) => {
      const marked = await w.stores.namespaces.delete('', 'gone', {}, w.context);
      assert.strictEqual((marked.object as unknown as Loose).status !== undefined, true);
      assert.deepStrictEqual(
        (marked.object as unknown as { status: Loose }).status.phase,
        'Terminating',
      );
      return w.stores.namespaces
        .withUpdateStrategy(namespaceFinalizeStrategy)
        .update(
          '',
          'gone',
          (existing) => ({ ...existing, spec: { finalizers: [] } }) as KubeObject,
          { context: w.context },
        );
    },
    check: async (_o, w) =>
      assert.strictEqual(await stored(w, w.stores.namespaces, '', 'gone'), undefined),
  },
  {
    name: 'deleteCollection: every object of the namespace deleted, the list answered',
    setup: async (w) => {
      for (const n of ['a', 'b'])
        await w.stores.configmaps.create('ns', configMap(n, {}), { context: w.context });
      await w.stores.configmaps.create('other', configMap('c', {}), { context: w.context });
    },
    action: (w) => w.stores.configmaps.deleteCollection({ namespace: 'ns' }, {}, w.context),
    check: async (o, w) => {
      assert.deepStrictEqual(
        (o as unknown as { items: KubeObject[] }).items.map((i) => i.metadata.name),
        ['a', 'b'],
      );
      assert.strictEqual(await stored(w, w.stores.configmaps, 'ns', 'a'), undefined);
      assert.ok(await stored(w, w.stores.configmaps, 'other', 'c'), 'another namespace kept');
    },
  },
];

describe('registry Store (generic/registry/store.go)', () => {
  for (const c of cases)
    it(c.name, async () => {
      const w = await newWorld();
      try {
        await c.setup?.(w);
        const before = w.etcd.currentRevision();
        let answer: Answer | undefined;
        let err: unknown;
        try {
          answer = await c.action(w);
        } catch (e) {
          err = e;
        }
        if (c.error !== undefined) {
          assert.ok(err, `${c.name}: an error, got ${JSON.stringify(answer)}`);
          const s = statusForError(
            err,
            { group: '', resource: 'configmaps' },
            c.target ?? 'a',
            c.operation,
          );
          if (typeof c.error === 'string')
            assert.strictEqual(`${s.code} ${s.message}`, c.error, c.name);
          else assert.match(`${s.code} ${s.message}`, c.error, c.name);
        } else {
          if (err) throw err;
          await c.check?.(answer!, w);
        }
        if (c.noWrite)
          assert.strictEqual(w.etcd.currentRevision(), before, `${c.name}: etcd moved`);
      } finally {
        for (const s of Object.values(w.stores)) s.resource.engine.stop();
        w.etcd.close();
      }
    });

  it('strategyFor: a strategy file per kind, the generic one for any other built-in', () => {
    const base = { group: '', version: 'v1', namespaced: true, jsonOnly: false };
    const state = { serviceAllocators: new ServiceAllocators() };
    const table: Array<[string, string, string]> = [
      ['pods', 'Pod', 'Pod'],
      ['configmaps', 'ConfigMap', 'ConfigMap'],
      ['secrets', 'Secret', 'Secret'],
      ['leases', 'Lease', 'Lease'],
    ];
    for (const [resource, kind, want] of table) {
      const s = strategyFor({ ...base, resource, kind }, state);
      assert.strictEqual(s.groupKind({} as KubeObject).kind, want, resource);
      assert.strictEqual(s.allowUnconditionalUpdate, true, resource);
      assert.strictEqual(s.allowCreateOnUpdate, false, resource);
    }
    const deployments = strategyFor(
      { ...base, group: 'apps', resource: 'deployments', kind: 'Deployment' },
      state,
    );
    assert.deepStrictEqual(deployments.groupKind({} as KubeObject), {
      group: 'apps',
      kind: 'Deployment',
    });
  });
});
