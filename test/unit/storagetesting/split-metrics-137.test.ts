// The metrics that differ between release-1.36 and master 24a394e5 (the 1.37 preview), each under
// both: apiserver_storage_list_duration_seconds{streamed,group,resource} (etcd3/metrics/metrics.go
// RecordListLatency), the storage/index labels of apiserver_storage_list_* (pkg/storage/metrics),
// listStream in etcd_requests_total when a LIST leaves the stream early (store.go streamChunks'
// deferred RecordEtcdRequest), GetCurrentResourceVersion as one `getCurrentResourceVersion` Get,
// and apiserver_watch_cache_read_wait_seconds only for reads that waited
// (TestHistogramCacheReadWait, watch_cache_test.go, plus a read that needs no wait).
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { MemoryEtcd, type MemoryEtcdOptions } from '../../../src/engine/etcd/memory-etcd';
import { EtcdStore } from '../../../src/engine/etcd3/store';
import type { KubernetesVersion } from '../../../src/engine/features';
import { MetricsRegistry } from '../../../src/engine/metrics/registry';
import { CacherMetrics } from '../../../src/engine/cacher/metrics';
import { makePod } from '../../../src/engine/storage/objects';
import { makeTestPod, newTestWatchCache } from '../cacher/watch-cache-testing';

const versions: KubernetesVersion[] = ['1.36', '1.37'];

interface StoreSetup {
  clock: FakeClock;
  etcd: MemoryEtcd;
  store: EtcdStore;
}

function newStore(
  kubernetesVersion: KubernetesVersion,
  o: { rangeStream?: boolean; etcd?: Partial<MemoryEtcdOptions> } = {},
): StoreSetup {
  const clock = new FakeClock();
  const etcd = new MemoryEtcd({
    clock,
    rangeStream: o.rangeStream ? 'supported' : 'unimplemented',
    ...o.etcd,
  });
  const store = new EtcdStore({
    etcd,
    clock,
    groupResource: { group: '', resource: 'pods' },
    kubernetesVersion,
    features: { EtcdRangeStream: o.rangeStream ?? false },
  });
  return { clock, etcd, store };
}

async function seed(s: StoreSetup, names: string[]): Promise<void> {
  for (const name of names) s.etcd.put(`/registry/pods/ns/${name}`, JSON.stringify(pod(name)));
}

function pod(name: string) {
  return makePod({ name, namespace: 'ns' });
}

/** The samples of the named families (name{labels} -> value; a histogram's _bucket/_sum/_count). */
function samplesOf(registry: MetricsRegistry, ...names: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(registry.samples())) {
    const base = k.split('{')[0];
    if (names.some((n) => [n, `${n}_bucket`, `${n}_sum`, `${n}_count`].includes(base))) out[k] = v;
  }
  return out;
}

describe('split: metrics of release-1.36 and of master (1.37 preview)', () => {
  describe('apiserver_storage_list_duration_seconds (master RecordListLatency)', () => {
    const cases: {
      name: string;
      rangeStream: boolean;
      streamed: string;
    }[] = [
      { name: 'a paged list', rangeStream: false, streamed: 'false' },
      { name: 'a streamed list', rangeStream: true, streamed: 'true' },
    ];
    for (const v of versions)
      for (const c of cases) {
        it(`${v}: ${c.name}`, async () => {
          const s = newStore(v, {
            rangeStream: c.rangeStream,
            etcd: { latency: { perRequestMs: 300 }, simulateLatency: true },
          });
          await seed(s, ['a', 'b']);
          const list = s.store.getList('/pods/ns/', {});
          await s.clock.stepAsync(300);
          await list;
          const labels = `group="",resource="pods",streamed="${c.streamed}"`;
          const got = samplesOf(s.store.metrics, 'apiserver_storage_list_duration_seconds');
          if (v === '1.36') {
            assert.deepStrictEqual(got, {}, 'release-1.36 has no such metric');
            assert.strictEqual(
              s.store.metrics.get('apiserver_storage_list_duration_seconds'),
              undefined,
            );
            return;
          }
          assert.strictEqual(got[`apiserver_storage_list_duration_seconds_count{${labels}}`], 1);
          assert.strictEqual(got[`apiserver_storage_list_duration_seconds_sum{${labels}}`], 0.3);
          assert.strictEqual(
            got[`apiserver_storage_list_duration_seconds_bucket{${labels},le="0.2"}`],
            0,
          );
          assert.strictEqual(
            got[`apiserver_storage_list_duration_seconds_bucket{${labels},le="0.4"}`],
            1,
          );
          assert.ok(
            s.store.metrics
              .text(['apiserver_storage_list_duration_seconds'])
              .startsWith(
                '# HELP apiserver_storage_list_duration_seconds [ALPHA] Latency of the storage layer GetList call in seconds, including object decode, split by whether etcd RangeStream was used.\n' +
                  '# TYPE apiserver_storage_list_duration_seconds histogram\n',
              ),
          );
        });
      }
  });

  describe('apiserver_storage_list_* labels for a LIST from etcd', () => {
    const want: Record<KubernetesVersion, string> = {
      '1.36': `# HELP apiserver_storage_list_evaluated_objects_total [ALPHA] Number of objects tested in the course of serving a LIST request from storage
# TYPE apiserver_storage_list_evaluated_objects_total counter
apiserver_storage_list_evaluated_objects_total{group="",resource="pods"} 2
# HELP apiserver_storage_list_fetched_objects_total [ALPHA] Number of objects read from storage in the course of serving a LIST request
# TYPE apiserver_storage_list_fetched_objects_total counter
apiserver_storage_list_fetched_objects_total{group="",resource="pods"} 2
# HELP apiserver_storage_list_returned_objects_total [ALPHA] Number of objects returned for a LIST request from storage
# TYPE apiserver_storage_list_returned_objects_total counter
apiserver_storage_list_returned_objects_total{group="",resource="pods"} 1
# HELP apiserver_storage_list_total [ALPHA] Number of LIST requests served from storage
# TYPE apiserver_storage_list_total counter
apiserver_storage_list_total{group="",resource="pods"} 1
`,
      '1.37': `# HELP apiserver_storage_list_evaluated_objects_total [ALPHA] Number of objects tested in the course of serving a LIST request from storage
# TYPE apiserver_storage_list_evaluated_objects_total counter
apiserver_storage_list_evaluated_objects_total{group="",resource="pods",storage="etcd"} 2
# HELP apiserver_storage_list_fetched_objects_total [ALPHA] Number of objects read from storage in the course of serving a LIST request
# TYPE apiserver_storage_list_fetched_objects_total counter
apiserver_storage_list_fetched_objects_total{group="",index="",resource="pods",storage="etcd"} 2
# HELP apiserver_storage_list_returned_objects_total [ALPHA] Number of objects returned for a LIST request from storage
# TYPE apiserver_storage_list_returned_objects_total counter
apiserver_storage_list_returned_objects_total{group="",resource="pods",storage="etcd"} 1
# HELP apiserver_storage_list_total [ALPHA] Number of LIST requests served from storage
# TYPE apiserver_storage_list_total counter
apiserver_storage_list_total{group="",index="",resource="pods",storage="etcd"} 1
`,
    };
    for (const v of versions)
      it(`${v}: ${v === '1.36' ? '{group,resource}' : 'storage="etcd", index=""'}`, async () => {
        const s = newStore(v);
        await seed(s, ['a', 'b']);
        await s.store.getList('/pods/ns/', { predicate: { field: 'metadata.name=a' } });
        assert.strictEqual(
          s.store.metrics.text([
            'apiserver_storage_list_total',
            'apiserver_storage_list_fetched_objects_total',
            'apiserver_storage_list_evaluated_objects_total',
            'apiserver_storage_list_returned_objects_total',
          ]),
          want[v],
        );
      });
  });

  describe('listStream is counted when a LIST leaves the stream before its end', () => {
    for (const v of versions)
      it(`${v}: a decode error in the second chunk`, async () => {
        const s = newStore(v, { rangeStream: true, etcd: { rangeStreamInitialChunk: 1 } });
        await seed(s, ['a']);
        s.etcd.put('/registry/pods/ns/b', '{not json');
        await seed(s, ['c', 'd', 'e']);
        await assert.rejects(s.store.getList('/pods/ns/', {}), /unable to decode/);
        assert.deepStrictEqual(
          samplesOf(s.store.metrics, 'etcd_requests_total', 'etcd_request_errors_total'),
          {
            'etcd_requests_total{group="",operation="listStream",resource="pods"}': 1,
          },
        );
        assert.strictEqual(
          s.store.metrics.samples()[
            'etcd_request_duration_seconds_count{group="",operation="listStream",resource="pods"}'
          ],
          1,
        );
      });
  });

  describe('GetCurrentResourceVersion', () => {
    const want: Record<KubernetesVersion, Record<string, number>> = {
      // release-1.36: a GetList of the resource prefix (a `get`, and a LIST in the cost metrics).
      '1.36': {
        'etcd_requests_total{group="",operation="get",resource="pods"}': 1,
        'apiserver_storage_list_total{group="",resource="pods"}': 1,
      },
      // master: one Get, its own operation, no LIST.
      '1.37': {
        'etcd_requests_total{group="",operation="getCurrentResourceVersion",resource="pods"}': 1,
      },
    };
    for (const v of versions)
      it(`${v}: ${v === '1.36' ? 'a LIST with limit 1' : 'its own operation'}`, async () => {
        const s = newStore(v);
        await seed(s, ['a', 'b']);
        assert.strictEqual(await s.store.getCurrentResourceVersion(), 3n);
        assert.deepStrictEqual(
          samplesOf(
            s.store.metrics,
            'etcd_requests_total',
            'apiserver_storage_list_total',
            'apiserver_storage_list_duration_seconds_count',
          ),
          want[v],
        );
      });
  });

  describe('apiserver_watch_cache_read_wait_seconds (TestHistogramCacheReadWait)', () => {
    const count = 'apiserver_watch_cache_read_wait_seconds_count{group="",resource="pods"}';
    const sum = 'apiserver_watch_cache_read_wait_seconds_sum{group="",resource="pods"}';
    const cases: {
      desc: string;
      run: (t: ReturnType<typeof newTestWatchCache>) => Promise<void>;
      want: Record<KubernetesVersion, Record<string, number>>;
    }[] = [
      {
        desc: 'resourceVersion is non-zero',
        run: async (t) => {
          t.wc.add(makeTestPod('foo', 2));
          const get = t.wc.waitUntilFreshAndGet(5, '/prefix/ns/bar');
          await t.clock.stepAsync(1000);
          t.wc.add(makeTestPod('bar', 5));
          await get;
        },
        want: { '1.36': { [count]: 1, [sum]: 1 }, '1.37': { [count]: 1, [sum]: 1 } },
      },
      {
        desc: 'resourceVersion is 0',
        run: async (t) => {
          await t.wc.waitUntilFreshAndGet(0, '/prefix/ns/bar');
        },
        want: { '1.36': {}, '1.37': {} },
      },
      {
        desc: 'the cache is already fresh enough',
        run: async (t) => {
          t.wc.add(makeTestPod('foo', 2));
          await t.wc.waitUntilFreshAndGet(2, '/prefix/ns/foo');
        },
        want: { '1.36': { [count]: 1, [sum]: 0 }, '1.37': {} },
      },
    ];
    for (const v of versions)
      for (const c of cases) {
        it(`${v}: ${c.desc}`, async () => {
          const registry = new MetricsRegistry();
          const t = newTestWatchCache(
            2,
            undefined,
            {},
            { metrics: new CacherMetrics(registry, v) },
          );
          await c.run(t);
          const got = samplesOf(
            registry,
            'apiserver_watch_cache_read_wait_seconds_count',
            'apiserver_watch_cache_read_wait_seconds_sum',
          );
          assert.deepStrictEqual(got, c.want[v]);
        });
      }
  });
});
