// Ports of the etcd3 paging tests (pkg/storage/testing/store_tests.go RunTestListContinuation,
// RunTestListContinuationWithFilter, RunTestListPaging, RunTestListInconsistentContinuation,
// RunTestListPaginationRareObject; etcd3/store_test.go checkStorageCallsInvariants, testListMetrics;
// interfaces_test.go TestValidateListOptions driven through GetList), apiserver-reference.md §1.3, §3.3.
import * as assert from 'assert';
import { encodeContinue } from '../../../src/engine/storage/continue';
import { statusToJSON, type Status } from '../../../src/engine/storage/errors';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { maxLimit, type ListResult } from '../../../src/engine/etcd3/store';
import type { GetListOptions } from '../../../src/engine/storage/list-options';
import {
  compactStorage,
  computePodKey,
  estimatedGetCalls,
  names,
  pod,
  rejectedStatus,
  testSetup,
  type TestSetup,
} from './etcd3-testing';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

/** checkStorageCallsInvariants: etcd calls (Range + RangeStream) and objects read by the last LIST. */
function checkCalls(
  t: TestSetup,
  name: string,
  pageSize: number,
  estimatedProcessedObjects: number,
): void {
  const done = t.eventSink.ofType('list/done');
  const last = done[done.length - 1];
  assert.strictEqual(
    last.evaluated,
    estimatedProcessedObjects,
    `${name}: objects read (transformer reads)`,
  );
  const calls = t.recorder.getReadsAndReset() + t.recorder.getStreamReadsAndReset();
  assert.strictEqual(
    calls,
    estimatedGetCalls(pageSize, estimatedProcessedObjects),
    `${name}: etcd calls`,
  );
}

async function createAll(t: TestSetup, pods: KubeObject[]): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const p of pods) out.push(await t.store.create(computePodKey(p), p));
  return out;
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storePagingCases(etcd: EtcdUnderTest): void {
  describe('etcd3 store paging', () => {
    it('RunTestListContinuation: pages of limit 1 and 0 from a continue token, at the creation RV', async () => {
      const t = await testSetup(etcd);
      const stored = await createAll(t, [
        pod('first', 'bar'),
        pod('second', 'bar'),
        pod('second', 'foo'),
      ]);
      const currentRV = stored[2].metadata.resourceVersion;
      t.recorder.clear();
      const steps: {
        name: string;
        limit: number;
        cont: () => string;
        items: KubeObject[];
        cont2: boolean;
        calls: [number, number];
      }[] = [];
      let token1 = '';
      let token3 = '';
      steps.push({
        name: 'first page, limit 1',
        limit: 1,
        cont: () => '',
        items: [stored[0]],
        cont2: true,
        calls: [1, 1],
      });
      steps.push({
        name: 'no limit from the second item',
        limit: 0,
        cont: () => token1,
        items: [stored[1], stored[2]],
        cont2: false,
        calls: [0, 2],
      });
      steps.push({
        name: 'limit 1 from the second item',
        limit: 1,
        cont: () => token1,
        items: [stored[1]],
        cont2: true,
        calls: [1, 1],
      });
      steps.push({
        name: 'limit 1 from the third item',
        limit: 1,
        cont: () => token3,
        items: [stored[2]],
        cont2: false,
        calls: [1, 1],
      });
      for (const [i, s] of steps.entries()) {
        const out = await t.store.getList('/pods/', {
          resourceVersion: '',
          recursive: true,
          predicate: { limit: s.limit, continue: s.cont() },
        });
        assert.deepStrictEqual(out.items, s.items, `${s.name}: items`);
        assert.strictEqual(!!out.continue, s.cont2, `${s.name}: continue`);
        assert.strictEqual(out.resourceVersion, currentRV, `${s.name}: resourceVersion`);
        checkCalls(t, s.name, s.calls[0], s.calls[1]);
        if (i === 0) token1 = out.continue as string;
        if (i === 2) token3 = out.continue as string;
      }
    });

    it('RunTestListContinuationWithFilter: 2 etcd calls and 3 reads, then 1 call and 1 read', async () => {
      const t = await testSetup(etcd);
      const stored = await createAll(t, [
        pod('1', 'foo'),
        pod('2', 'bar'),
        pod('3', 'foo'),
        pod('4', 'foo'),
      ]);
      t.recorder.clear();
      const first = await t.store.getList('/pods/', {
        predicate: { field: 'metadata.name!=bar', limit: 2 },
      });
      assert.deepStrictEqual(first.items, [stored[0], stored[2]]);
      assert.ok(first.continue, 'continue after the first page');
      assert.strictEqual(first.resourceVersion, stored[3].metadata.resourceVersion);
      assert.deepStrictEqual(
        t.recorder.listRequests(),
        [
          { key: '/registry/pods/', revision: 0, limit: 2 },
          { key: '/registry/pods/2/bar\x00', revision: 5, limit: 4 },
        ],
        'limit 2, then the doubled limit 4 at the pinned revision',
      );
      checkCalls(t, 'first page', 2, 3);
      const second = await t.store.getList('/pods/', {
        predicate: { field: 'metadata.name!=bar', limit: 2, continue: first.continue },
      });
      assert.deepStrictEqual(second.items, [stored[3]]);
      assert.strictEqual(second.continue, undefined);
      assert.strictEqual(second.resourceVersion, stored[3].metadata.resourceVersion);
      checkCalls(t, 'second page', 2, 1);
    });

    it('RunTestListPaging: following tokens at a pinned RV never shows a pod created mid-way', async () => {
      const t = await testSetup(etcd);
      await createAll(
        t,
        [0, 1, 2, 3].map((i) => pod('paging', `test-${i}`)),
      );
      const got: string[] = [];
      let cont = '';
      let calls = 0;
      for (;;) {
        const out = await t.store.getList('/pods/paging/', {
          predicate: { limit: 1, continue: cont },
        });
        calls++;
        got.push(...out.items.map((i) => i.metadata.name as string));
        if (calls === 2) await t.store.create('/pods/paging/test-5', pod('paging', 'test-5'));
        if (!out.continue) break;
        cont = out.continue;
        assert.ok(calls < 10, 'terminates');
      }
      assert.strictEqual(calls, 4, 'list calls');
      assert.deepStrictEqual(got, ['test-0', 'test-1', 'test-2', 'test-3']);
    });

    it('RunTestListInconsistentContinuation: a compacted token gives 410 with a fresh rv=-1 token that continues at the latest RV', async () => {
      const t = await testSetup(etcd);
      const stored = await createAll(t, [
        pod('first', 'bar'),
        pod('second', 'bar'),
        pod('second', 'foo'),
      ]);
      const first = await t.store.getList('/pods/', {
        resourceVersion: '0',
        predicate: { limit: 1 },
      });
      assert.deepStrictEqual(first.items, [stored[0]]);
      assert.ok(first.continue);
      const updated = await t.store.guaranteedUpdate(computePodKey(stored[2]), () => ({
        metadata: { name: 'foo', labels: { state: 'new' } },
      }));
      await compactStorage(t.etcd, updated.metadata.resourceVersion as string);
      const status = await rejectedStatus(
        t.store.getList('/pods/', {
          resourceVersion: '0',
          predicate: { continue: first.continue },
        }),
        'old token',
      );
      assert.ok(
        status.message?.includes('The provided continue parameter is too old '),
        status.message,
      );
      assert.strictEqual(status.code, 410);
      assert.strictEqual(status.reason, 'Expired');
      const fresh = status.metadata.continue as string;
      assert.strictEqual(
        fresh,
        encodeContinue('/registry/pods/first/bar\x00', '/registry/pods/', -1),
        'the old position at rv -1',
      );
      const second = await t.store.getList('/pods/', {
        resourceVersion: '0',
        predicate: { limit: 1, continue: fresh },
      });
      assert.deepStrictEqual(second.items, [stored[1]]);
      assert.ok(second.continue);
      assert.ok(
        BigInt(second.resourceVersion) >= BigInt(updated.metadata.resourceVersion as string),
        'not older than the compaction',
      );
      const third = await t.store.getList('/pods/', {
        resourceVersion: '0',
        predicate: { limit: 1, continue: second.continue },
      });
      assert.deepStrictEqual(third.items, [updated]);
      assert.strictEqual(third.continue, undefined);
      assert.strictEqual(
        third.resourceVersion,
        second.resourceVersion,
        'same RV as the previous page',
      );
    });

    it('RunTestListPaginationRareObject: 1000 pods, limit 1, name=pod-999: 10 calls with limits 1..512, 1000 reads', async () => {
      const t = await testSetup(etcd);
      const stored: KubeObject[] = [];
      for (let i = 0; i < 1000; i++)
        stored.push(await t.store.create(`/pods//pod-${i}`, pod('', `pod-${i}`)));
      t.recorder.clear();
      t.store.metrics.reset();
      const out = await t.store.getList('/pods/', {
        predicate: { limit: 1, field: 'metadata.name=pod-999' },
      });
      assert.strictEqual(out.continue, undefined, 'no continue token');
      assert.deepStrictEqual(out.items, [stored[999]]);
      assert.deepStrictEqual(
        t.recorder.listRequests().map((r) => r.limit),
        [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
      );
      assert.deepStrictEqual(
        t.recorder.requests.map((r) => r.kvs),
        [1, 2, 4, 8, 16, 32, 64, 128, 256, 489],
      );
      checkCalls(t, 'rare object', 1, 1000);
      const s = t.store.metrics.samples();
      assert.strictEqual(
        s['apiserver_storage_list_fetched_objects_total{group="",resource="pods"}'],
        1000,
      );
      assert.strictEqual(
        s['apiserver_storage_list_evaluated_objects_total{group="",resource="pods"}'],
        1000,
      );
      assert.strictEqual(
        s['apiserver_storage_list_returned_objects_total{group="",resource="pods"}'],
        1,
      );
      assert.strictEqual(s['etcd_requests_total{group="",operation="list",resource="pods"}'], 10);
    });

    describe('checkStorageCallsInvariants as a table over (pageSize, objects)', () => {
      /** The paging loop's calls when only the last of `objects` keys matches. */
      function doublingCalls(pageSize: number, objects: number): number {
        let calls = 0;
        let fetched = 0;
        let limit = pageSize;
        for (;;) {
          calls++;
          fetched += pageSize === 0 ? objects : Math.min(limit, objects - fetched);
          if (fetched >= objects) return calls;
          if (limit < maxLimit) limit = Math.min(limit * 2, maxLimit);
        }
      }
      // [pageSize, objects]; page size 1 is where upstream's formula (sum from 1) is exact.
      const rows: [number, number][] = [
        [0, 1],
        [0, 50],
        [1, 1],
        [1, 2],
        [1, 3],
        [1, 4],
        [1, 7],
        [1, 8],
        [1, 100],
        [1, 1000],
        [1, 1023],
        [1, 1024],
        [1, 17000],
        [2, 3],
        [2, 7],
        [3, 3],
        [3, 4],
        [5, 100],
        [10, 1000],
        [100, 250],
        [500, 2500],
        [7000, 17000],
        [12000, 17000],
      ];
      let t: TestSetup;
      let created = 0;
      before(async () => {
        t = await testSetup(etcd);
      });
      for (const [pageSize, objects] of rows) {
        it(`pageSize ${pageSize}, ${objects} objects, only the last one matches`, async () => {
          // Keys sort as zero-padded numbers; the marker pod is always the last one.
          for (; created < objects; created++)
            await t.etcd.put(
              `/registry/pods/ns/p-${String(created).padStart(6, '0')}`,
              JSON.stringify(pod('ns', `p-${created}`)),
            );
          const last = `p-${objects - 1}`;
          t.recorder.clear();
          t.eventSink.clear();
          const out = await listFirstN(t, objects, pageSize, last);
          assert.deepStrictEqual(names(out.items), [`ns/${last}`], 'the one match');
          const calls = t.recorder.getReadsAndReset();
          assert.strictEqual(calls, doublingCalls(pageSize, objects), 'calls of the doubling loop');
          if (pageSize <= 1)
            assert.strictEqual(calls, estimatedGetCalls(pageSize, objects), 'upstream formula');
          const done = t.eventSink.ofType('list/done')[0];
          assert.strictEqual(done.fetched, objects, 'fetched');
          assert.strictEqual(done.evaluated, objects, 'evaluated');
          assert.strictEqual(done.returned, 1, 'returned');
        });
      }
    });

    it('TestValidateListOptions through GetList: the first etcd request (key, revision) or the error', async () => {
      const t = await testSetup(etcd);
      await t.store.create('/pods/ns/a', pod('ns', 'a'));
      const enc = (rv: number, start: string) =>
        encodeContinue('/registry/pods/' + start, '/registry/pods/', rv);
      // [name, options, error substring | expected first request]
      const rows: [string, GetListOptions, string | { key: string; revision: number }][] = [
        [
          'specifying resource version when using continue',
          {
            resourceVersion: '200',
            recursive: true,
            predicate: { continue: enc(100, 'continue') },
          },
          'specifying resource version is not allowed when using continue',
        ],
        ['invalid resource version', { resourceVersion: 'invalid' }, 'invalid resource version'],
        [
          'unknown ResourceVersionMatch value',
          { resourceVersion: '200', resourceVersionMatch: 'unknown' },
          'unknown ResourceVersionMatch value',
        ],
        [
          'use continueRV',
          { resourceVersion: '0', recursive: true, predicate: { continue: enc(100, 'continue') } },
          { key: '/registry/pods/continue', revision: 100 },
        ],
        [
          'use continueRV with empty rv',
          { resourceVersion: '', recursive: true, predicate: { continue: enc(100, 'continue') } },
          { key: '/registry/pods/continue', revision: 100 },
        ],
        [
          'continueRV = 0',
          { recursive: true, predicate: { continue: enc(0, 'continue') } },
          'invalid continue token',
        ],
        [
          'continueRV < 0',
          { recursive: true, predicate: { continue: enc(-1, 'continue') } },
          { key: '/registry/pods/continue', revision: 0 },
        ],
        ['default', {}, { key: '/registry/pods/', revision: 0 }],
        [
          'rev resolve to 0 if ResourceVersionMatchNotOlderThan',
          { resourceVersion: '200', resourceVersionMatch: 'NotOlderThan' },
          { key: '/registry/pods/', revision: 0 },
        ],
        [
          'specified rev if ResourceVersionMatchExact',
          { resourceVersion: '200', resourceVersionMatch: 'Exact' },
          { key: '/registry/pods/', revision: 200 },
        ],
        [
          'rev resolve to 0 if not recursive',
          { resourceVersion: '200', recursive: false, predicate: { limit: 1 } },
          { key: '/registry/pods', revision: 0 },
        ],
        [
          'rev resolve to 0 if limit unspecified',
          { resourceVersion: '200', recursive: true },
          { key: '/registry/pods/', revision: 0 },
        ],
        [
          'specified rev if recursive with limit',
          { resourceVersion: '200', recursive: true, predicate: { limit: 1 } },
          { key: '/registry/pods/', revision: 200 },
        ],
      ];
      for (const [name, opts, want] of rows) {
        t.recorder.clear();
        let err: unknown;
        try {
          await t.store.getList(opts.recursive === false ? '/pods' : '/pods/', opts);
        } catch (e) {
          err = e;
        }
        if (typeof want === 'string') {
          assert.ok(
            err instanceof Error && err.message.includes(want),
            `${name}: error containing ${want}, got ${String(err)}`,
          );
          assert.strictEqual(
            t.recorder.requests.length,
            0,
            `${name}: rejected before any etcd request`,
          );
        } else {
          const first = t.recorder.listRequests()[0];
          assert.ok(first, `${name}: an etcd request was made`);
          assert.deepStrictEqual(
            { key: first.key, revision: first.revision },
            want,
            `${name}: first etcd request`,
          );
        }
      }
    });

    it('records the list metrics with the 1.36 {group,resource} labels (testListMetrics), and nothing for a 400', async () => {
      const t = await testSetup(etcd);
      await t.store.create('/pods/ns/pod-1', pod('ns', 'pod-1'));
      await t.store.getList('/pods/ns', { recursive: true });
      const names4 = [
        'apiserver_storage_list_total',
        'apiserver_storage_list_fetched_objects_total',
        'apiserver_storage_list_evaluated_objects_total',
        'apiserver_storage_list_returned_objects_total',
      ];
      const expected = `# HELP apiserver_storage_list_evaluated_objects_total [ALPHA] Number of objects tested in the course of serving a LIST request from storage
# TYPE apiserver_storage_list_evaluated_objects_total counter
apiserver_storage_list_evaluated_objects_total{group="",resource="pods"} 1
# HELP apiserver_storage_list_fetched_objects_total [ALPHA] Number of objects read from storage in the course of serving a LIST request
# TYPE apiserver_storage_list_fetched_objects_total counter
apiserver_storage_list_fetched_objects_total{group="",resource="pods"} 1
# HELP apiserver_storage_list_returned_objects_total [ALPHA] Number of objects returned for a LIST request from storage
# TYPE apiserver_storage_list_returned_objects_total counter
apiserver_storage_list_returned_objects_total{group="",resource="pods"} 1
# HELP apiserver_storage_list_total [ALPHA] Number of LIST requests served from storage
# TYPE apiserver_storage_list_total counter
apiserver_storage_list_total{group="",resource="pods"} 1
`;
      assert.strictEqual(t.store.metrics.text(names4), expected);
      await rejectedStatus(t.store.getList('/pods/', { resourceVersion: 'abc' }), 'bad rv');
      assert.strictEqual(t.store.metrics.text(names4), expected, 'a 400 records nothing');
      // A 410 after the read still counts (the defer is installed after validation).
      await compactStorage(t.etcd, t.etcd.currentRevision());
      await rejectedStatus(
        t.store.getList('/pods/', { resourceVersion: '1', resourceVersionMatch: 'Exact' }),
        'compacted',
      );
      assert.strictEqual(
        t.store.metrics.samples()['apiserver_storage_list_total{group="",resource="pods"}'],
        2,
      );
    });

    it('a future revision costs one more etcd get (the current-RV lookup) and counts that lookup as a LIST', async () => {
      const t = await testSetup(etcd);
      await t.store.create('/pods/ns/pod-1', pod('ns', 'pod-1'));
      t.recorder.clear();
      const status = await rejectedStatus(
        t.store.getList('/pods/', { resourceVersion: '100', resourceVersionMatch: 'Exact' }),
        'future',
      );
      assert.strictEqual(status.message, 'Timeout: Too large resource version: 100, current: 2');
      assert.strictEqual(
        statusToJSON(status),
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: Too large resource version: 100, current: 2","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}]},"code":504}',
      );
      assert.deepStrictEqual(
        t.recorder.requests.map((r) => [r.op, r.key, r.revision]),
        [
          ['range', '/registry/pods/', 100],
          ['range', '/registry/pods', 0],
        ],
      );
      const s = t.store.metrics.samples();
      assert.strictEqual(s['etcd_requests_total{group="",operation="list",resource="pods"}'], 1);
      assert.strictEqual(
        s['etcd_request_errors_total{group="",operation="list",resource="pods"}'],
        1,
      );
      assert.strictEqual(
        s['etcd_requests_total{group="",operation="get",resource="pods"}'],
        1,
        'the current-RV lookup',
      );
      assert.strictEqual(
        s['apiserver_storage_list_total{group="",resource="pods"}'],
        2,
        'the LIST and the lookup',
      );
      const done = t.eventSink.ofType('list/done');
      assert.deepStrictEqual(
        done.map((d) => [d.keyPrefix, d.etcdRequests, d.error?.code]),
        [
          ['/registry/pods', 1, undefined],
          ['/registry/pods/', 2, 504],
        ],
      );
    });

    it('counts each LIST`s own etcd requests in list/done, also when LISTs run concurrently', async () => {
      const t = await testSetup(etcd);
      for (let i = 0; i < 40; i++)
        await t.etcd.put(
          `/registry/pods/ns/p-${String(i).padStart(2, '0')}`,
          JSON.stringify(pod('ns', `p-${i}`)),
        );
      t.eventSink.clear();
      const [a, b] = await Promise.all([
        t.store.getList('/pods/', { predicate: { limit: 1, field: 'metadata.name=p-39' } }),
        t.store.getList('/pods/', { predicate: { limit: 2, field: 'metadata.name=p-39' } }),
      ]);
      assert.strictEqual(a.items.length + b.items.length, 2);
      const done = t.eventSink
        .ofType('list/done')
        .map((d) => d.etcdRequests)
        .sort();
      assert.deepStrictEqual(done, [5, 6], 'limits 1..32 (6 calls) and 2..32 (5 calls)');
    });

    it('never returns null items and keeps tokens byte-exact for keys with escapes', async () => {
      const t = await testSetup(etcd);
      const empty: ListResult = await t.store.getList('/registry/pods/none/');
      assert.deepStrictEqual(empty.items, []);
      assert.strictEqual(empty.resourceVersion, '1');
      await t.store.create('/pods/ns/a<b', pod('ns', 'a<b'));
      await t.store.create('/pods/ns/c', pod('ns', 'c'));
      const out = await t.store.getList('/registry/pods/', { predicate: { limit: 1 } });
      assert.strictEqual(
        out.continue,
        encodeContinue('/registry/pods/ns/a<b\x00', '/registry/pods/', 3),
      );
      // Go's json.Marshal escapes '<' and NUL; no padding (RawURLEncoding).
      assert.strictEqual(
        out.continue,
        Buffer.from('{"v":"meta.k8s.io/v1","rv":3,"start":"ns/a\\u003cb\\u0000"}').toString(
          'base64url',
        ),
      );
      assert.strictEqual(out.remainingItemCount, 1);
    });

    it('rejects a bad selector or limit with a 400 that names the input, before any etcd request', async () => {
      const t = await testSetup(etcd);
      const rows: [string, GetListOptions, string][] = [
        ['bad field label', { predicate: { field: 'foo=bar' } }, 'field label not supported: foo'],
        [
          'fractional limit',
          { predicate: { limit: 1.5 } },
          'predicate.limit must be an integer, got 1.5',
        ],
      ];
      for (const [name, opts, want] of rows) {
        const status: Status = await rejectedStatus(t.store.getList('/pods/', opts), name);
        assert.strictEqual(status.code, 400, `${name}: code`);
        assert.ok(status.message?.includes(want), `${name}: ${status.message}`);
      }
      assert.strictEqual(t.recorder.requests.length, 0);
    });
  });

  /** Lists the first `objects` keys of /registry/pods/ns/ (all of them) with a field selector for `last`. */
  async function listFirstN(
    t: TestSetup,
    objects: number,
    pageSize: number,
    last: string,
  ): Promise<ListResult> {
    // The etcd holds keys p-000000.. of earlier rows too; an Exact list at the revision of the
    // objects-th put sees exactly `objects` keys.
    return t.store.getList('/registry/pods/ns/', {
      resourceVersion: String(objects + 1),
      resourceVersionMatch: 'Exact',
      predicate: { limit: pageSize, field: `metadata.name=${last}` },
    });
  }
}
