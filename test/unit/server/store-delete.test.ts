// Tests for src/server/registry/store-delete.ts, rest-delete.ts and pod-strategy.ts's
// CheckGracefulDelete: Store.Delete over an in-memory DeleteStorage, as k8s.io/apiserver pkg/registry/generic/registry/store_test.go
// (TestStoreDelete, TestGracefulStoreHandleFinalizers, TestNonGracefulStoreHandleFinalizers,
// TestStoreDeleteWithOrphanDependents, TestDeletionFinalizersForGarbageCollection) and
// pkg/registry/rest/delete_test.go (TestBeforeDelete) where they apply, and pod CheckGracefulDelete.
import * as assert from 'assert';
import type { Preconditions } from '../../../src/engine/etcd3/store';
import { newKeyNotFoundError, StatusError } from '../../../src/engine/storage/errors';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { validateDeleteOptions, type DeleteOptions } from '../../../src/server/delete-options';
import { podCheckGracefulDelete } from '../../../src/server/registry/pod-strategy';
import { ServiceAllocators } from '../../../src/server/registry/service-allocators';
import {
  deleteStrategyOf,
  strategyFor,
  type StrategyTarget,
} from '../../../src/server/registry/strategy-for';
import { beforeDelete } from '../../../src/server/registry/rest-delete';
import { formatTime } from '../../../src/server/object-meta';
import {
  deletionFinalizersForGarbageCollection,
  markAsDeleting,
  shouldDeleteDuringUpdate,
  storeDelete,
  type DeleteStorage,
} from '../../../src/server/registry/store-delete';
import { configMaps, crontabs, namespaces, pods } from './fixtures';

const now = Date.UTC(2026, 11, 1, 13, 20, 23);
const at = (seconds: number): string => formatTime(now + seconds * 1000);
const podsServed = { ...pods, returnDeletedObject: true };

/** The RESTDeleteStrategy of a served resource's kind strategy. */
const deleteStrategyFor = (served: StrategyTarget) =>
  deleteStrategyOf(
    served.kind,
    strategyFor(served, { serviceAllocators: new ServiceAllocators() }),
  );

/** One stored object with a revision counter: what the etcd3 store does for one key. */
class MemoryStorage implements DeleteStorage {
  rv = 10;
  writes: string[] = [];
  constructor(public obj: KubeObject | undefined) {
    if (obj) obj.metadata.resourceVersion = String(this.rv);
  }
  get(): Promise<KubeObject> {
    if (!this.obj) return Promise.reject(newKeyNotFoundError('/registry/x', 0));
    return Promise.resolve(structuredClone(this.obj));
  }
  private check(p: Preconditions): void {
    if (p.uid !== undefined && p.uid !== this.obj?.metadata.uid)
      throw new Error('uid precondition');
    if (p.resourceVersion !== undefined && p.resourceVersion !== this.obj?.metadata.resourceVersion)
      throw new Error('rv precondition');
  }
  async guaranteedUpdate(tryUpdate: (o: KubeObject) => KubeObject, p: Preconditions) {
    const current = await this.get();
    this.check(p);
    const next = tryUpdate(current);
    if (JSON.stringify(next) !== JSON.stringify(this.obj)) {
      next.metadata.resourceVersion = String(++this.rv);
      this.obj = structuredClone(next);
      this.writes.push('update');
    }
    return structuredClone(this.obj!);
  }
  async delete(p: Preconditions): Promise<KubeObject> {
    const current = await this.get();
    this.check(p);
    this.obj = undefined;
    this.writes.push('delete');
    return current;
  }
}

const configMap = (meta: Record<string, unknown> = {}): KubeObject =>
  ({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: 'cm', namespace: 'default', uid: 'u1', ...meta },
  }) as KubeObject;

const pod = (
  spec: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
  phase = 'Pending',
): KubeObject =>
  ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: 'p', namespace: 'default', uid: 'u2', generation: 1, ...meta },
    spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
    status: { phase },
  }) as KubeObject;

describe('store-delete: Store.Delete (store.go)', () => {
  describe('storeDelete', () => {
    const cases: Array<{
      name: string;
      served: typeof configMaps;
      obj: KubeObject;
      options: DeleteOptions;
      deleted: boolean;
      writes: string[];
      stored?: Record<string, unknown>;
      answer?: 'status' | 'object';
    }> = [
      {
        name: 'an object without finalizers is deleted at once, answering a Success Status',
        served: configMaps,
        obj: configMap(),
        options: {},
        deleted: true,
        writes: ['delete'],
        answer: 'status',
      },
      {
        name: 'finalizers keep it: deletionTimestamp now, deletionGracePeriodSeconds 0 (markAsDeleting)',
        served: configMaps,
        obj: configMap({ finalizers: ['example.com/f'] }),
        options: {},
        deleted: false,
        writes: ['update'],
        stored: {
          deletionTimestamp: at(0),
          deletionGracePeriodSeconds: 0,
          finalizers: ['example.com/f'],
        },
        answer: 'object',
      },
      {
        name: 'a second delete of an object being deleted writes nothing and answers it',
        served: configMaps,
        obj: configMap({
          finalizers: ['example.com/f'],
          deletionTimestamp: at(-60),
          deletionGracePeriodSeconds: 0,
        }),
        options: {},
        deleted: false,
        writes: [],
        stored: { deletionTimestamp: at(-60), deletionGracePeriodSeconds: 0 },
        answer: 'object',
      },
      {
        name: 'markAsDeleting bumps a generation the first time only (custom resources)',
        served: crontabs,
        obj: configMap({ finalizers: ['example.com/f'], generation: 3 }),
        options: {},
        deleted: false,
        writes: ['update'],
        stored: { generation: 4 },
      },
      {
        name: 'propagationPolicy Orphan adds the orphan finalizer, so the object stays',
        served: configMaps,
        obj: configMap(),
        options: { propagationPolicy: 'Orphan' },
        deleted: false,
        writes: ['update'],
        stored: { finalizers: ['orphan'], deletionTimestamp: at(0) },
      },
      {
        name: 'propagationPolicy Foreground adds foregroundDeletion',
        served: configMaps,
        obj: configMap({ finalizers: ['example.com/f'] }),
        options: { propagationPolicy: 'Foreground' },
        deleted: false,
        writes: ['update'],
        stored: { finalizers: ['example.com/f', 'foregroundDeletion'] },
      },
      {
        name: 'Background removes orphan, and with no finalizer left it is deleted',
        served: configMaps,
        obj: configMap({ finalizers: ['orphan'] }),
        options: { propagationPolicy: 'Background' },
        deleted: true,
        writes: ['delete'],
      },
      {
        name: 'orphanDependents=true is Orphan',
        served: configMaps,
        obj: configMap(),
        options: { orphanDependents: true },
        deleted: false,
        writes: ['update'],
        stored: { finalizers: ['orphan'] },
      },
      {
        name: 'an unscheduled pod is marked (grace 0, generation +1), then deleted, answering itself',
        served: podsServed,
        obj: pod(),
        options: {},
        deleted: true,
        writes: ['update', 'delete'],
        answer: 'object',
      },
      {
        name: 'a scheduled pod waits for spec.terminationGracePeriodSeconds',
        served: podsServed,
        obj: pod({ nodeName: 'node-1', terminationGracePeriodSeconds: 10 }),
        options: {},
        deleted: false,
        writes: ['update'],
        stored: { deletionTimestamp: at(10), deletionGracePeriodSeconds: 10, generation: 2 },
      },
      {
        name: 'a scheduled pod without a period waits the default 30 s',
        served: podsServed,
        obj: pod({ nodeName: 'node-1' }),
        options: {},
        deleted: false,
        writes: ['update'],
        stored: { deletionTimestamp: at(30), deletionGracePeriodSeconds: 30 },
      },
      {
        name: 'a scheduled Succeeded pod is deleted at once',
        served: podsServed,
        obj: pod({ nodeName: 'node-1' }, {}, 'Succeeded'),
        options: {},
        deleted: true,
        writes: ['update', 'delete'],
      },
      {
        name: 'a pending graceful deletion answers the pod as is (finalizeDelete, not deleted)',
        served: podsServed,
        obj: pod(
          { nodeName: 'node-1' },
          { deletionTimestamp: at(20), deletionGracePeriodSeconds: 30 },
        ),
        options: {},
        deleted: false,
        writes: [],
        stored: { deletionTimestamp: at(20), deletionGracePeriodSeconds: 30 },
      },
      {
        name: 'gracePeriodSeconds 0 shortens a pending graceful deletion to now and deletes',
        served: podsServed,
        obj: pod(
          { nodeName: 'node-1' },
          { deletionTimestamp: at(20), deletionGracePeriodSeconds: 30 },
        ),
        options: { gracePeriodSeconds: 0 },
        deleted: true,
        writes: ['update', 'delete'],
      },
      {
        name: 'a shorter grace period moves deletionTimestamp back by the difference',
        served: podsServed,
        obj: pod(
          { nodeName: 'node-1' },
          { deletionTimestamp: at(20), deletionGracePeriodSeconds: 30 },
        ),
        options: { gracePeriodSeconds: 25 },
        deleted: false,
        writes: ['update'],
        stored: { deletionTimestamp: at(15), deletionGracePeriodSeconds: 25 },
      },
      {
        name: 'a graceful pod with finalizers is never deleted at once (grace 0 kept)',
        served: podsServed,
        obj: pod({}, { finalizers: ['example.com/f'] }),
        options: {},
        deleted: false,
        writes: ['update'],
        stored: { deletionTimestamp: at(0), deletionGracePeriodSeconds: 0 },
      },
      {
        name: 'a dry run computes the answer and writes nothing',
        served: configMaps,
        obj: configMap({ finalizers: ['example.com/f'] }),
        options: { dryRun: ['All'] },
        deleted: false,
        writes: [],
      },
    ];
    for (const c of cases)
      it(c.name, async () => {
        const storage = new MemoryStorage(structuredClone(c.obj));
        const before = structuredClone(storage.obj);
        const dry = (c.options.dryRun ?? []).length > 0;
        const dryStorage: DeleteStorage = dry
          ? {
              get: () => storage.get(),
              guaranteedUpdate: async (f) => f(await storage.get()),
              delete: () => storage.get(),
            }
          : storage;
        const r = await storeDelete(
          c.served,
          deleteStrategyFor(c.served),
          dryStorage,
          structuredClone(c.options),
          () => now,
        );
        assert.strictEqual(r.deleted, c.deleted);
        assert.deepStrictEqual(storage.writes, c.writes);
        if (dry) assert.deepStrictEqual(storage.obj, before);
        if (!c.deleted && !dry) {
          assert.ok(storage.obj, 'the object stays');
          for (const [k, v] of Object.entries(c.stored ?? {}))
            assert.deepStrictEqual((storage.obj.metadata as Record<string, unknown>)[k], v, k);
          assert.deepStrictEqual(r.object.metadata, storage.obj.metadata);
        }
        if (c.deleted) assert.strictEqual(storage.obj, undefined);
        if (c.answer === 'status')
          assert.deepStrictEqual(r.object, {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Success',
            details: { name: 'cm', kind: 'configmaps', uid: 'u1' },
          });
        if (c.answer === 'object') assert.strictEqual(r.object.kind, c.obj.kind);
      });

    it('the unscheduled pod answers its last state: deletionTimestamp, grace 0, generation 2', async () => {
      const r = await storeDelete(
        podsServed,
        deleteStrategyFor(podsServed),
        new MemoryStorage(pod()),
        {},
        () => now,
      );
      const m = r.object.metadata as Record<string, unknown>;
      assert.deepStrictEqual(
        [m.deletionTimestamp, m.deletionGracePeriodSeconds, m.generation],
        [at(0), 0, 2],
      );
    });

    it('refuses a stale UID precondition with the Conflict BeforeDelete words (kind as resource)', async () => {
      await assert.rejects(
        storeDelete(
          configMaps,
          deleteStrategyFor(configMaps),
          new MemoryStorage(configMap()),
          { preconditions: { uid: 'x' } },
          () => now,
        ),
        (e: StatusError) =>
          e.status.code === 409 &&
          e.status.message ===
            'Operation cannot be fulfilled on ConfigMap "cm": the UID in the precondition (x) does not match the UID in record (u1). The object might have been deleted and then recreated',
      );
    });

    it('a resourceVersion precondition follows the graceful update before the delete', async () => {
      const storage = new MemoryStorage(pod());
      const r = await storeDelete(
        podsServed,
        deleteStrategyFor(podsServed),
        storage,
        { preconditions: { resourceVersion: '10' } },
        () => now,
      );
      assert.strictEqual(r.deleted, true);
      assert.deepStrictEqual(storage.writes, ['update', 'delete']);
    });
  });

  describe('beforeDelete (rest/delete.go)', () => {
    it('treats a negative grace period as 1', () => {
      const options: DeleteOptions = { gracePeriodSeconds: -5 };
      const r = beforeDelete(deleteStrategyFor(podsServed), pod({ nodeName: 'n' }), options, now);
      assert.deepStrictEqual(r, { graceful: true, gracefulPending: false });
      assert.strictEqual(options.gracePeriodSeconds, 1);
    });
    it('a non-graceful strategy never marks the object', () => {
      const obj = configMap();
      assert.deepStrictEqual(beforeDelete(deleteStrategyFor(configMaps), obj, {}, now), {
        graceful: false,
        gracefulPending: false,
      });
      assert.strictEqual(obj.metadata.deletionTimestamp, undefined);
    });
    it('a longer grace period than the pending one is pending', () => {
      const obj = pod(
        { nodeName: 'n' },
        { deletionTimestamp: at(5), deletionGracePeriodSeconds: 10 },
      );
      assert.deepStrictEqual(
        beforeDelete(deleteStrategyFor(podsServed), obj, { gracePeriodSeconds: 20 }, now),
        { graceful: false, gracefulPending: true },
      );
    });
    it('shortening past the whole period clamps to now and a period of 1', () => {
      const obj = pod(
        { nodeName: 'n' },
        { deletionTimestamp: at(-100), deletionGracePeriodSeconds: 30 },
      );
      beforeDelete(deleteStrategyFor(podsServed), obj, { gracePeriodSeconds: 5 }, now);
      const m = obj.metadata as Record<string, unknown>;
      assert.deepStrictEqual([m.deletionTimestamp, m.deletionGracePeriodSeconds], [at(0), 1]);
    });
  });

  describe('podCheckGracefulDelete (pod/strategy.go)', () => {
    const table: Array<[string, KubeObject, DeleteOptions, number]> = [
      ['unscheduled: 0', pod({ terminationGracePeriodSeconds: 10 }), {}, 0],
      [
        'scheduled: the spec period',
        pod({ nodeName: 'n', terminationGracePeriodSeconds: 10 }),
        {},
        10,
      ],
      [
        'scheduled: the options win',
        pod({ nodeName: 'n', terminationGracePeriodSeconds: 10 }),
        { gracePeriodSeconds: 3 },
        3,
      ],
      ['scheduled: default 30', pod({ nodeName: 'n' }), {}, 30],
      ['Failed: 0', pod({ nodeName: 'n' }, {}, 'Failed'), { gracePeriodSeconds: 3 }, 0],
      ['negative: 1', pod({ nodeName: 'n', terminationGracePeriodSeconds: -3 }), {}, 1],
    ];
    for (const [name, obj, options, want] of table)
      it(name, () => {
        assert.strictEqual(podCheckGracefulDelete(obj, options), true);
        assert.strictEqual(options.gracePeriodSeconds, want);
      });
  });

  describe('deletionFinalizersForGarbageCollection', () => {
    const table: Array<[string, string[], DeleteOptions, boolean, string[]]> = [
      ['no options, no finalizers', [], {}, false, []],
      ['Orphan adds orphan', ['a/b'], { propagationPolicy: 'Orphan' }, true, ['a/b', 'orphan']],
      [
        'Foreground replaces orphan',
        ['orphan'],
        { propagationPolicy: 'Foreground' },
        true,
        ['foregroundDeletion'],
      ],
      [
        'Background removes both',
        ['orphan', 'x/y'],
        { propagationPolicy: 'Background' },
        true,
        ['x/y'],
      ],
      ["the object's own orphan stays with no options", ['orphan'], {}, false, ['orphan']],
      ['orphanDependents=false removes orphan', ['orphan'], { orphanDependents: false }, true, []],
    ];
    for (const [name, finalizers, options, changed, want] of table)
      it(name, () =>
        assert.deepStrictEqual(deletionFinalizersForGarbageCollection(finalizers, options), {
          changed,
          finalizers: want,
        }),
      );
  });

  it('markAsDeleting keeps an earlier deletionTimestamp and sets grace 0', () => {
    const obj = configMap({
      deletionTimestamp: at(-10),
      deletionGracePeriodSeconds: 30,
      generation: 2,
    });
    markAsDeleting(obj, now);
    const m = obj.metadata as Record<string, unknown>;
    assert.deepStrictEqual(
      [m.deletionTimestamp, m.deletionGracePeriodSeconds, m.generation],
      [at(-10), 0, 2],
    );
  });

  describe('shouldDeleteDuringUpdate', () => {
    const deleting = { deletionTimestamp: at(0), deletionGracePeriodSeconds: 0 };
    const table: Array<[string, typeof configMaps, KubeObject, KubeObject, boolean]> = [
      [
        'finalizers emptied on a deleting object',
        configMaps,
        configMap(),
        configMap({ ...deleting, finalizers: ['a/b'] }),
        true,
      ],
      [
        'finalizers remain',
        configMaps,
        configMap({ finalizers: ['a/b'] }),
        configMap({ ...deleting, finalizers: ['a/b'] }),
        false,
      ],
      ['not being deleted', configMaps, configMap(), configMap({ finalizers: ['a/b'] }), false],
      [
        'a grace period remains',
        configMaps,
        configMap(),
        configMap({ deletionTimestamp: at(9), deletionGracePeriodSeconds: 9 }),
        false,
      ],
      [
        'a namespace also needs spec.finalizers empty',
        namespaces,
        { ...configMap(), spec: { finalizers: ['kubernetes'] } } as KubeObject,
        configMap(deleting),
        false,
      ],
      [
        'a namespace with both empty',
        namespaces,
        { ...configMap(), spec: {} } as KubeObject,
        configMap(deleting),
        true,
      ],
    ];
    for (const [name, served, obj, existing, want] of table)
      it(name, () => assert.strictEqual(shouldDeleteDuringUpdate(served, obj, existing), want));
  });

  describe('validateDeleteOptions', () => {
    it('refuses an unknown propagationPolicy and both orphanDependents and a policy', () => {
      assert.deepStrictEqual(
        validateDeleteOptions({ propagationPolicy: 'Sideways', orphanDependents: true }).map(
          (e) => e.message,
        ),
        [
          'propagationPolicy: Invalid value: "Sideways": orphanDependents and deletionPropagation cannot be both set',
          'propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
        ],
      );
    });
  });
});
