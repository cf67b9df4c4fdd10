// The 1.37-preview RangeStream list path (master etcd3/store.go shouldStream/streamChunks and
// feature_support_checker.go): which lists stream, the Unimplemented fallback with a 10-minute
// recheck in virtual time, and ports of TestGetListStreamFallsBackToPaginated,
// TestGetListStreamMultiChunk and testListMetrics(rangeStream=true).
import * as assert from 'assert';
import { rangeStreamRecheckInterval } from '../../../src/engine/etcd3/feature-support-checker';
import type { GetListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { computePodKey, pod, testSetup, type TestSetup } from './etcd3-testing';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

async function seedPods(t: TestSetup, n: number, ns = 'ns'): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (let i = 0; i < n; i++) {
    const p = pod(ns, `pod-${String(i).padStart(2, '0')}`);
    out.push(await t.store.create(computePodKey(p), p));
  }
  return out;
}

function ops(t: TestSetup): string[] {
  return t.recorder.requests
    .filter((r) => r.op === 'range' || r.op === 'rangeStream')
    .map((r) => `${r.op}:${r.limit}`);
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeStreamCases(etcd: EtcdUnderTest): void {
  describe('etcd3 store RangeStream path (EtcdRangeStream gate)', () => {
    // Memory only: RangeStream is etcd 3.7's; the etcd suite's 3.4 answers Unimplemented.
    if (etcd.kind === 'memory')
      it('shouldStream: recursive lists without a filtered page stream in one request; the rest page', async () => {
        // [name, gate, options, key, expected etcd requests (op:limit)]
        const rows: [string, boolean, GetListOptions, string, string[]][] = [
          ['gate off', false, {}, '/pods/', ['range:0']],
          ['no limit, no selector', true, {}, '/pods/', ['rangeStream:0']],
          [
            'no limit, a selector: stream everything and filter',
            true,
            { predicate: { field: 'metadata.name=pod-03' } },
            '/pods/',
            ['rangeStream:0'],
          ],
          [
            'limit, empty predicate: one stream capped at the limit',
            true,
            { predicate: { limit: 5 } },
            '/pods/',
            ['rangeStream:5'],
          ],
          [
            'limit and a selector: a filtered page is paged (doubling)',
            true,
            { predicate: { limit: 1, field: 'metadata.name=pod-11' } },
            '/pods/',
            ['range:1', 'range:2', 'range:4', 'range:8'],
          ],
          ['not recursive: a get', true, { recursive: false }, '/pods/ns/pod-01', ['range:0']],
        ];
        for (const [name, gate, opts, key, want] of rows) {
          const t = await testSetup(etcd, {
            features: { EtcdRangeStream: gate },
            rangeStream: 'supported',
            rangeStreamInitialChunk: 4,
          });
          await seedPods(t, 12);
          t.recorder.clear();
          await t.store.getList(key, opts);
          assert.deepStrictEqual(ops(t), want, name);
        }
      });

    // Memory only: RangeStream is etcd 3.7's; the etcd suite's 3.4 answers Unimplemented.
    if (etcd.kind === 'memory')
      it('serves the same items, tokens and remainingItemCount as paging', async () => {
        const paged = await testSetup(etcd);
        const streamed = await testSetup(etcd, {
          features: { EtcdRangeStream: true },
          rangeStream: 'supported',
          rangeStreamInitialChunk: 3,
        });
        await seedPods(paged, 25);
        await seedPods(streamed, 25);
        const rows: GetListOptions[] = [
          {},
          { predicate: { limit: 1 } },
          { predicate: { limit: 10 } },
          { predicate: { limit: 25 } },
          { predicate: { limit: 30 } },
          { predicate: { field: 'metadata.name!=pod-04' } },
          { resourceVersion: '5', resourceVersionMatch: 'Exact', predicate: { limit: 2 } },
          { resourceVersion: '20', predicate: { limit: 7 } },
          { resourceVersion: '10', resourceVersionMatch: 'NotOlderThan' },
        ];
        for (const opts of rows) {
          const a = await paged.store.getList('/pods/ns/', opts);
          const b = await streamed.store.getList('/pods/ns/', opts);
          assert.deepStrictEqual(b, a, JSON.stringify(opts));
          if (a.continue) {
            const a2 = await paged.store.getList('/pods/ns/', {
              predicate: { ...opts.predicate, continue: a.continue },
            });
            const b2 = await streamed.store.getList('/pods/ns/', {
              predicate: { ...opts.predicate, continue: b.continue },
            });
            assert.deepStrictEqual(b2, a2, `${JSON.stringify(opts)}: next page`);
          }
        }
        assert.ok(
          streamed.recorder.getStreamReadsAndReset() > 0,
          'the streamed store used RangeStream',
        );
        assert.strictEqual(paged.recorder.getStreamReadsAndReset(), 0);
      });

    it('TestGetListStreamFallsBackToPaginated: Unimplemented marks RangeStream unsupported for 10 virtual minutes, then probes again', async () => {
      const t = await testSetup(etcd, {
        features: { EtcdRangeStream: true },
        rangeStream: 'unimplemented',
      });
      const created = await seedPods(t, 3);
      t.recorder.clear();
      t.store.metrics.reset();
      const out = await t.store.getList('/pods/', {});
      assert.strictEqual(out.items.length, created.length);
      assert.deepStrictEqual(
        ops(t),
        ['rangeStream:0', 'range:0'],
        'one probe, then the paged read',
      );
      // The Unimplemented probe is not recorded, only the unary request serving the list.
      assert.strictEqual(
        t.store.metrics.text(['etcd_requests_total', 'etcd_request_errors_total']),
        '# HELP etcd_requests_total [ALPHA] Etcd request counts for each operation and object type.\n# TYPE etcd_requests_total counter\netcd_requests_total{group="",operation="list",resource="pods"} 1\n',
      );
      assert.strictEqual(t.store.featureSupportChecker.supports('RangeStream'), false);
      const fallback = t.eventSink.ofType('list/stream-fallback');
      assert.strictEqual(fallback.length, 1);
      assert.strictEqual(fallback[0].recheckAt, rangeStreamRecheckInterval);
      const probe = t.eventSink.ofType('etcd/request').find((e) => e.operation === 'listStream');
      assert.ok(probe?.unimplemented, 'the probe is reported to the inspector as unimplemented');

      // Marked unsupported: no further probe, until the recheck interval has passed.
      t.recorder.clear();
      await t.store.getList('/pods/', {});
      t.clock.step(rangeStreamRecheckInterval - 1);
      await t.store.getList('/pods/', {});
      assert.deepStrictEqual(ops(t), ['range:0', 'range:0']);
      assert.deepStrictEqual(
        t.eventSink
          .ofType('list/stream-decision')
          .slice(-2)
          .map((e) => e.reason),
        ['marked-unsupported', 'marked-unsupported'],
      );
      t.clock.step(1);
      t.recorder.clear();
      await t.store.getList('/pods/', {});
      assert.deepStrictEqual(
        ops(t),
        ['rangeStream:0', 'range:0'],
        'probed again after 10 minutes, still unimplemented',
      );
      assert.strictEqual(
        t.eventSink.ofType('list/stream-decision').slice(-1)[0].reason,
        'recheck-due',
      );

      // etcd upgraded: the next probe after the interval succeeds and lists stream from then on.
      // Only the model can be upgraded in place (the etcd suite's 3.4 stays without RangeStream).
      if (!t.memory) return;
      t.memory.setRangeStream('supported');
      t.clock.step(rangeStreamRecheckInterval);
      t.recorder.clear();
      await t.store.getList('/pods/', {});
      await t.store.getList('/pods/', {});
      assert.deepStrictEqual(ops(t), ['rangeStream:0', 'rangeStream:0']);
      assert.strictEqual(
        t.store.metrics.samples()[
          'etcd_requests_total{group="",operation="listStream",resource="pods"}'
        ],
        2,
      );
    });

    // Memory only: RangeStream is etcd 3.7's; the etcd suite's 3.4 answers Unimplemented.
    if (etcd.kind === 'memory')
      it('TestGetListStreamMultiChunk: 25 pods in several chunks; pinned and unpinned streams', async () => {
        const t = await testSetup(etcd, {
          features: { EtcdRangeStream: true },
          rangeStream: 'supported',
          rangeStreamInitialChunk: 10,
        });
        await seedPods(t, 25);
        const streamedList = async (rv: string, match: string) => {
          const out = await t.store.getList('/pods/', {
            resourceVersion: rv,
            resourceVersionMatch: match,
          });
          assert.ok(t.recorder.getStreamReadsAndReset() > 0, 'served by RangeStream');
          assert.strictEqual(out.continue, undefined, 'a streamed list does not paginate');
          assert.strictEqual(out.remainingItemCount, undefined);
          return out;
        };
        const snapshot = await streamedList('', '');
        assert.strictEqual(snapshot.items.length, 25);
        const pages = t.eventSink.ofType('list/page').filter((p) => p.streamed);
        assert.deepStrictEqual(
          pages.map((p) => p.fetched),
          [10, 15],
          'chunks of 10, then doubled',
        );
        await t.store.create('/pods/ns/pod-extra', pod('ns', 'pod-extra'));
        const exact = await streamedList(snapshot.resourceVersion, 'Exact');
        assert.strictEqual(exact.items.length, 25);
        assert.strictEqual(exact.resourceVersion, snapshot.resourceVersion);
        const notOlder = await streamedList(snapshot.resourceVersion, '');
        assert.strictEqual(notOlder.items.length, 26);
      });

    // Memory only: RangeStream is etcd 3.7's; the etcd suite's 3.4 answers Unimplemented.
    if (etcd.kind === 'memory')
      it('testListMetrics with RangeStream: same list metrics, one listStream request', async () => {
        const t = await testSetup(etcd, {
          features: { EtcdRangeStream: true },
          rangeStream: 'supported',
        });
        await t.store.create('/pods/ns/pod-1', pod('ns', 'pod-1'));
        await t.store.getList('/pods/ns', { recursive: true });
        const s = t.store.metrics.samples();
        for (const m of [
          'list_total',
          'list_fetched_objects_total',
          'list_evaluated_objects_total',
          'list_returned_objects_total',
        ]) {
          assert.strictEqual(s[`apiserver_storage_${m}{group="",resource="pods"}`], 1, m);
        }
        assert.strictEqual(
          s['etcd_requests_total{group="",operation="listStream",resource="pods"}'],
          1,
        );
        assert.strictEqual(
          s['etcd_requests_total{group="",operation="list",resource="pods"}'],
          undefined,
        );
      });

    // Memory only: RangeStream is etcd 3.7's; the etcd suite's 3.4 answers Unimplemented.
    if (etcd.kind === 'memory')
      it('a stream pinned at a compacted revision is a 410; a future one is TooLargeResourceVersion', async () => {
        const t = await testSetup(etcd, {
          features: { EtcdRangeStream: true },
          rangeStream: 'supported',
        });
        await seedPods(t, 3);
        await t.etcd.compact(3);
        const rows: [string, GetListOptions, number, string][] = [
          [
            'compacted',
            { resourceVersion: '2', resourceVersionMatch: 'Exact' },
            410,
            'The resourceVersion for the provided list is too old.',
          ],
          [
            'future',
            { resourceVersion: '9', resourceVersionMatch: 'Exact' },
            504,
            'Timeout: Too large resource version: 9, current: 4',
          ],
        ];
        for (const [name, opts, code, message] of rows) {
          await assert.rejects(
            t.store.getList('/pods/', opts),
            (e: { status?: { code?: number; message?: string } }) => {
              assert.strictEqual(e.status?.code, code, name);
              assert.strictEqual(e.status?.message, message, name);
              return true;
            },
          );
        }
        assert.strictEqual(
          t.store.metrics.samples()[
            'etcd_request_errors_total{group="",operation="listStream",resource="pods"}'
          ],
          2,
        );
      });
  });
}
