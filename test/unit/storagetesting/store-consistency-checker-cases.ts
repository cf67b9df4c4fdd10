// Ports of TestConsistencyCheckerDigest, TestConsistencyCheckerListOpts and
// TestConsistencyCheckerDigestMatches (k8s.io/apiserver pkg/storage/cacher/delegator_test.go,
// release-1.36; master moves the first two to pkg/storage/cacher/consistency/checker_test.go
// unchanged but for the names): the digests of src/engine/cacher/consistency-checker.ts against
// upstream's FNV values, the list options each side is asked with, and equal digests for a cacher
// over etcd with more items than one etcd page.
import * as assert from 'assert';
import { createResource, type Resource } from '../../../src/engine/apiserver';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import {
  ConsistencyChecker,
  type ConsistencyCheckedCacher,
  type GetLister,
  type StorageDigest,
} from '../../../src/engine/cacher/consistency-checker';
import { storageWatchListPageSize } from '../../../src/engine/cacher/reflector';
import type { ListResult } from '../../../src/engine/etcd3/store';
import { MetricsRegistry } from '../../../src/engine/metrics/registry';
import {
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
  type ListOptions,
} from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { computePodKey, examplePod, listOptions } from './store-fixtures';
import { drive, newCacherStore } from './store-under-test';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

function pod(namespace: string, name: string, resourceVersion: string): KubeObject {
  return { metadata: { name, namespace, resourceVersion } };
}

/** cachertesting.MockStorage's GetListFn. */
class MockStorage implements GetLister {
  constructor(readonly getListFn: (key: string, opts: ListOptions) => ListResult) {}

  async getList(key: string, opts: ListOptions): Promise<ListResult> {
    return this.getListFn(key, opts);
  }
}

/** cachertesting.MockCacher: IsReady and the Consistent flag MarkConsistent sets. */
class MockCacher extends MockStorage implements ConsistencyCheckedCacher {
  consistent = true;

  constructor(
    readonly ready: boolean,
    getListFn: (key: string, opts: ListOptions) => ListResult,
  ) {
    super(getListFn);
  }

  isReady(): boolean {
    return this.ready;
  }

  markConsistent(consistent: boolean): void {
    this.consistent = consistent;
  }
}

/** A ListOptions as cmp.Diff sees it. */
function describeOpts(o: ListOptions): Record<string, unknown> {
  return {
    resourceVersion: o.resourceVersion,
    resourceVersionMatch: o.resourceVersionMatch,
    recursive: o.recursive,
    label: o.predicate.label.string(),
    field: o.predicate.field.string(),
    limit: o.predicate.limit,
    continue: o.predicate.continue,
  };
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeConsistencyCheckerCases(etcd: EtcdUnderTest): void {
  describe('consistency checker (delegator_test.go)', () => {
    const ns = (namespace: string, name: string, rv: string) => ({ namespace, name, rv });
    const testCases: {
      desc: string;
      resourceVersion: string;
      cacherReady: boolean;
      cacherItems?: KubeObject[];
      etcdItems?: KubeObject[];
      expectDigest?: StorageDigest;
      expectErr?: boolean;
      expectConsistent: boolean;
    }[] = [
      {
        desc: 'not ready',
        cacherReady: false,
        resourceVersion: '1',
        expectErr: true,
        expectConsistent: true,
      },
      {
        desc: 'empty',
        resourceVersion: '1',
        cacherReady: true,
        expectDigest: {
          resourceVersion: '1',
          cacheDigest: 'cbf29ce484222325',
          etcdDigest: 'cbf29ce484222325',
        },
        expectConsistent: true,
      },
      {
        desc: 'with one element equal',
        resourceVersion: '2',
        cacherReady: true,
        cacherItems: [pod('default', 'pod', '2')],
        etcdItems: [pod('default', 'pod', '2')],
        expectDigest: {
          resourceVersion: '2',
          cacheDigest: '86bf3a5e80d1c5cb',
          etcdDigest: '86bf3a5e80d1c5cb',
        },
        expectConsistent: true,
      },
      {
        desc: 'namespace changes digest',
        resourceVersion: '2',
        cacherReady: true,
        cacherItems: [pod('kube-system', 'pod', '2')],
        etcdItems: [pod('kube-public', 'pod', '2')],
        expectDigest: {
          resourceVersion: '2',
          cacheDigest: '4ae4e750bd825b17',
          etcdDigest: 'f940a60af965b03',
          diffDetail: {
            index: 0,
            cacheItem: ns('kube-system', 'pod', '2'),
            etcdItem: ns('kube-public', 'pod', '2'),
          },
        },
        expectConsistent: false,
      },
      {
        desc: 'name changes digest',
        resourceVersion: '2',
        cacherReady: true,
        cacherItems: [pod('default', 'pod2', '2')],
        etcdItems: [pod('default', 'pod3', '2')],
        expectDigest: {
          resourceVersion: '2',
          cacheDigest: 'c9120494e4c1897d',
          etcdDigest: 'c9156494e4c46274',
          diffDetail: {
            index: 0,
            cacheItem: ns('default', 'pod2', '2'),
            etcdItem: ns('default', 'pod3', '2'),
          },
        },
        expectConsistent: false,
      },
      {
        desc: 'resourceVersion changes digest',
        resourceVersion: '4',
        cacherReady: true,
        cacherItems: [pod('default', 'pod', '3')],
        etcdItems: [pod('default', 'pod', '4')],
        expectDigest: {
          resourceVersion: '4',
          cacheDigest: '86bf3a5e80d1c5ca',
          etcdDigest: '86bf3a5e80d1c5cd',
          diffDetail: {
            index: 0,
            cacheItem: ns('default', 'pod', '3'),
            etcdItem: ns('default', 'pod', '4'),
          },
        },
        expectConsistent: false,
      },
      {
        desc: 'watch missed write event',
        resourceVersion: '3',
        cacherReady: true,
        cacherItems: [pod('Default', 'pod', '2')],
        etcdItems: [pod('Default', 'pod', '2'), pod('Default', 'pod', '3')],
        expectDigest: {
          resourceVersion: '3',
          cacheDigest: '1859bac707c2cb2b',
          etcdDigest: '11d147fc800df0e0',
          diffDetail: { index: 1, etcdItem: ns('Default', 'pod', '3') },
        },
        expectConsistent: false,
      },
      {
        desc: 'watch missed delete event',
        resourceVersion: '3',
        cacherReady: true,
        cacherItems: [pod('Default', 'pod', '2'), pod('Default', 'pod', '3')],
        etcdItems: [pod('Default', 'pod', '2')],
        expectDigest: {
          resourceVersion: '3',
          cacheDigest: '11d147fc800df0e0',
          etcdDigest: '1859bac707c2cb2b',
          diffDetail: { index: 1, cacheItem: ns('Default', 'pod', '3') },
        },
        expectConsistent: false,
      },
    ];

    describe('TestConsistencyCheckerDigest', () => {
      const expectListKey = '';
      for (const tc of testCases) {
        it(tc.desc, async () => {
          const etcd = new MockStorage((key, opts) => {
            assert.strictEqual(key, expectListKey, 'GetList key');
            assert.strictEqual(opts.resourceVersion, tc.resourceVersion, 'GetList resourceVersion');
            assert.strictEqual(opts.resourceVersionMatch, resourceVersionMatchExact, 'match exact');
            return { items: tc.etcdItems ?? [], resourceVersion: tc.resourceVersion };
          });
          const cacher = new MockCacher(tc.cacherReady, (key, opts) => {
            assert.strictEqual(key, expectListKey, 'GetList key');
            assert.strictEqual(opts.resourceVersion, '0', 'GetList resourceVersion 0');
            assert.strictEqual(
              opts.resourceVersionMatch,
              resourceVersionMatchNotOlderThan,
              'match not older than',
            );
            return { items: tc.cacherItems ?? [], resourceVersion: tc.resourceVersion };
          });
          const registry = new MetricsRegistry();
          const checker = new ConsistencyChecker(
            '',
            { group: '', resource: '' },
            cacher,
            etcd,
            registry,
          );
          let digest: StorageDigest | undefined;
          let err: unknown;
          try {
            digest = await checker.calculateDigests();
          } catch (e) {
            err = e;
          }
          assert.strictEqual(err !== undefined, !!tc.expectErr, `expect error: ${String(err)}`);
          if (err !== undefined) return;
          assert.deepStrictEqual(digest, tc.expectDigest);

          await checker.check();
          assert.strictEqual(cacher.consistent, tc.expectConsistent, 'Consistent');
          const status = tc.expectConsistent ? 'success' : 'failure';
          assert.strictEqual(
            registry.samples()[
              `apiserver_storage_consistency_checks_total{group="",resource="",status="${status}"}`
            ],
            1,
            'the check is counted by its outcome',
          );
        });
      }
    });

    it('TestConsistencyCheckerListOpts', async () => {
      const resourceVersion = '50';
      const etcdOpts: ListOptions[] = [];
      const etcd = new MockStorage((_key, opts) => {
        etcdOpts.push(opts);
        return { items: [], resourceVersion };
      });
      const cacherOpts: ListOptions[] = [];
      const cacher = new MockCacher(true, (_key, opts) => {
        cacherOpts.push(opts);
        return { items: [], resourceVersion };
      });
      const checker = new ConsistencyChecker('', { group: '', resource: '' }, cacher, etcd);
      await checker.calculateDigests();
      assert.deepStrictEqual(cacherOpts.map(describeOpts), [
        describeOpts(
          listOptions({
            resourceVersion: '0',
            resourceVersionMatch: resourceVersionMatchNotOlderThan,
            recursive: true,
          }),
        ),
      ]);
      const wantEtcd = listOptions({
        resourceVersion,
        resourceVersionMatch: resourceVersionMatchExact,
        recursive: true,
      });
      wantEtcd.predicate.limit = storageWatchListPageSize;
      assert.deepStrictEqual(etcdOpts.map(describeOpts), [describeOpts(wantEtcd)]);
    });

    it('TestConsistencyCheckerDigestMatches: cacher over etcd, 10001 pods (two etcd pages)', async () => {
      const store = await newCacherStore(etcd);
      let resourceVersion = '';
      // Create storageWatchListPageSize+1 pods to ensure pagination.
      for (let i = 0; i < storageWatchListPageSize + 1; i++) {
        const p = examplePod('default', String(i));
        const out = await store.create(computePodKey(p), p);
        resourceVersion = out.metadata.resourceVersion as string;
      }
      // Execute list to ensure cache is up to date.
      const outList = await drive(
        store.clock,
        store.cacher.getList(
          '/pods/',
          listOptions({
            resourceVersion,
            recursive: true,
            resourceVersionMatch: resourceVersionMatchNotOlderThan,
          }),
        ),
      );
      assert.strictEqual(outList.items.length, storageWatchListPageSize + 1);

      const pages: number[] = [];
      const etcdLister: GetLister = {
        getList: async (key, opts) => {
          const list = await store.storage.getList(key, opts);
          pages.push(list.items.length);
          return list;
        },
      };
      const checker = new ConsistencyChecker(
        '/pods/',
        { group: '', resource: 'pods' },
        store.cacher,
        etcdLister,
      );
      const digest = await drive(store.clock, checker.calculateDigests());
      assert.strictEqual(digest.cacheDigest, digest.etcdDigest, 'Expect digests to match');
      assert.strictEqual(digest.resourceVersion, resourceVersion);
      assert.deepStrictEqual(pages, [storageWatchListPageSize, 1], 'etcd was read in two pages');
      store.stop();
    });
  });

  describe('CacheDelegator consistency checks (NewCacheDelegator startChecking)', () => {
    const checks = (r: Resource, status: string): number =>
      Number(
        r.metrics
          .text()
          .split('\n')
          .find((l) =>
            l.startsWith(
              `apiserver_storage_consistency_checks_total{group="",resource="pods",status="${status}"}`,
            ),
          )
          ?.split(' ')[1] ?? 0,
      );

    for (const on of [true, false]) {
      it(`DetectCacheInconsistency=${on}: ${on ? 'a check every 5 to 7.5 minutes, none after stop' : 'no check'}`, async () => {
        const clock = new FakeClock();
        const r = createResource({
          clock,
          rand: new SeededRandom(3),
          gates: { DetectCacheInconsistency: on },
        });
        r.start();
        await r.waitReady();
        await r.createPod({ name: 'a' });
        await r.step(5 * 60 * 1000 - 1000);
        assert.strictEqual(checks(r, 'success'), 0, 'none before the first period');
        await r.step(2.5 * 60 * 1000 + 1000);
        assert.strictEqual(checks(r, 'success'), on ? 1 : 0, 'one by 7.5 minutes');
        await r.step(7.5 * 60 * 1000);
        assert.strictEqual(checks(r, 'success'), on ? 2 : 0, 'a second one by 15 minutes');
        r.stop();
        await r.step(30 * 60 * 1000);
        assert.strictEqual(checks(r, 'success'), on ? 2 : 0, 'none after stop');
        assert.strictEqual(checks(r, 'failure'), 0);
      });
    }
  });
}
