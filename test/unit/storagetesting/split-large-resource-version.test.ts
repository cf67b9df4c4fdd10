// A LIST served from etcd at a resourceVersion of 2^63 or more. versioner.ParseResourceVersion
// accepts any uint64; ValidateListOptions converts it with int64(parsedRV), which wraps negative;
// etcd reads a revision <= 0 at its latest (mvcc rangeKeys), so no future-revision error and no
// GetCurrentResourceVersion. release-1.36 (store.go GetList) then checks every page against the
// minimum: the 504 TooLargeResourceVersion, after one successful `list`. master checks the minimum
// only where the list pins its revision (withRev == 0): a paged read answers 200 at
// resourceVersion uint64(withRev), a stream fails its revision check (500).
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { EtcdStore } from '../../../src/engine/etcd3/store';
import type { GetListOptions } from '../../../src/engine/storage/list-options';
import { Resource } from '../../../src/engine/apiserver';
import {
  profile136,
  profile137Preview,
  type KubernetesVersion,
} from '../../../src/engine/features';
import { SeededRandom } from '../../../src/engine/rand';
import { errorToAPIStatus } from '../../../src/engine/storage/errors';
import { makePod } from '../../../src/engine/storage/objects';

const rv2e63 = '9223372036854775808';
const rvMaxUint64 = '18446744073709551615';
const rvMaxInt64 = '9223372036854775807';

/** What a LIST answered, and what it cost in etcd requests and storage LIST metrics. */
interface Outcome {
  code: number;
  message?: string;
  /** The Status' details.retryAfterSeconds, when it has one. */
  retryAfterSeconds?: number;
  resourceVersion?: string;
  /** etcd_requests_total (and _errors_) by operation. */
  requests: Record<string, number>;
  /** apiserver_storage_list_{total,fetched,evaluated,returned}. */
  list: [number, number, number, number];
}

type Answer = Pick<Outcome, 'code' | 'message' | 'retryAfterSeconds' | 'resourceVersion'>;

function outcome(metrics: Record<string, number>, r: Answer): Outcome {
  const requests: Record<string, number> = {};
  for (const [k, v] of Object.entries(metrics)) {
    const m = /^etcd_request(s|_errors)_total\{.*operation="([^"]+)"/.exec(k);
    if (m) requests[m[1] === 's' ? m[2] : `${m[2]} error`] = v;
  }
  const sum = (name: string) =>
    Object.entries(metrics)
      .filter(([k]) => k.startsWith(`${name}{`))
      .reduce((a, [, v]) => a + v, 0);
  return {
    ...r,
    requests,
    list: [
      sum('apiserver_storage_list_total'),
      sum('apiserver_storage_list_fetched_objects_total'),
      sum('apiserver_storage_list_evaluated_objects_total'),
      sum('apiserver_storage_list_returned_objects_total'),
    ],
  };
}

async function answer(p: Promise<{ resourceVersion: string }>): Promise<Answer> {
  try {
    return { code: 200, resourceVersion: (await p).resourceVersion };
  } catch (e) {
    const s = errorToAPIStatus(e);
    const retry = s.details?.retryAfterSeconds;
    return {
      code: s.code ?? 500,
      message: s.message,
      ...(retry ? { retryAfterSeconds: retry } : {}),
    };
  }
}

const tooLarge = (rv: string) => `Timeout: Too large resource version: ${rv}, current: 3`;

describe('split: resourceVersion >= 2^63 on a LIST from etcd', () => {
  const cases: {
    name: string;
    opts: GetListOptions;
    stream?: boolean;
    want: Record<KubernetesVersion, Outcome>;
  }[] = [
    {
      name: 'Exact 2^63',
      opts: { resourceVersion: rv2e63, resourceVersionMatch: 'Exact' },
      want: {
        '1.36': { code: 504, message: tooLarge(rv2e63), requests: { list: 1 }, list: [1, 2, 0, 0] },
        '1.37': { code: 200, resourceVersion: rv2e63, requests: { list: 1 }, list: [1, 2, 2, 2] },
      },
    },
    {
      name: 'legacy exact: a paged list at 2^63',
      opts: { resourceVersion: rv2e63, predicate: { limit: 1 } },
      want: {
        '1.36': { code: 504, message: tooLarge(rv2e63), requests: { list: 1 }, list: [1, 1, 0, 0] },
        '1.37': { code: 200, resourceVersion: rv2e63, requests: { list: 1 }, list: [1, 1, 1, 1] },
      },
    },
    {
      name: 'Exact max uint64 (int64 -1)',
      opts: { resourceVersion: rvMaxUint64, resourceVersionMatch: 'Exact' },
      want: {
        '1.36': {
          code: 504,
          message: tooLarge(rvMaxUint64),
          requests: { list: 1 },
          list: [1, 2, 0, 0],
        },
        '1.37': {
          code: 200,
          resourceVersion: rvMaxUint64,
          requests: { list: 1 },
          list: [1, 2, 2, 2],
        },
      },
    },
    {
      name: 'NotOlderThan 2^63 (read at the latest, then checked)',
      opts: { resourceVersion: rv2e63, resourceVersionMatch: 'NotOlderThan' },
      want: {
        '1.36': { code: 504, message: tooLarge(rv2e63), requests: { list: 1 }, list: [1, 2, 0, 0] },
        '1.37': { code: 504, message: tooLarge(rv2e63), requests: { list: 1 }, list: [1, 2, 0, 0] },
      },
    },
    {
      name: 'Exact 2^63 streamed (EtcdRangeStream)',
      opts: { resourceVersion: rv2e63, resourceVersionMatch: 'Exact' },
      stream: true,
      want: {
        '1.36': {
          code: 500,
          message: `etcd returned revision 3 for a list read at revision -${rv2e63}`,
          requests: { listStream: 1 },
          list: [1, 2, 0, 0],
        },
        '1.37': {
          code: 500,
          message: `etcd returned revision 3 for a list read at revision -${rv2e63}`,
          requests: { listStream: 1 },
          list: [1, 2, 0, 0],
        },
      },
    },
    {
      // For contrast: an int64 revision etcd has not reached is a future revision.
      name: 'Exact 2^63-1: etcd answers future revision, the current one is read',
      opts: { resourceVersion: rvMaxInt64, resourceVersionMatch: 'Exact' },
      want: {
        '1.36': {
          code: 504,
          message: tooLarge(rvMaxInt64),
          requests: { list: 1, 'list error': 1, get: 1 },
          list: [2, 0, 0, 0],
        },
        '1.37': {
          code: 504,
          message: tooLarge(rvMaxInt64),
          requests: { list: 1, 'list error': 1, getCurrentResourceVersion: 1 },
          list: [1, 0, 0, 0],
        },
      },
    },
  ];
  for (const v of ['1.36', '1.37'] as const)
    for (const c of cases) {
      it(`${v}: ${c.name}`, async () => {
        const clock = new FakeClock();
        const etcd = new MemoryEtcd({ clock, rangeStream: c.stream ? 'supported' : undefined });
        const store = new EtcdStore({
          etcd,
          clock,
          groupResource: { group: '', resource: 'pods' },
          kubernetesVersion: v,
          features: { EtcdRangeStream: c.stream ?? false },
        });
        for (const name of ['a', 'b'])
          etcd.put(`/registry/pods/ns/${name}`, JSON.stringify(makePod({ name, namespace: 'ns' })));
        const r = await answer(store.getList('/pods/', c.opts));
        assert.deepStrictEqual(outcome(store.metrics.samples(), r), c.want[v]);
      });
    }

  describe('through the delegator', () => {
    const cases: {
      name: string;
      requestWatchProgressSupported: boolean;
      want: Record<KubernetesVersion, Outcome>;
    }[] = [
      {
        // Consistent reads unsupported: an exact RV ahead of the cache goes to etcd.
        name: 'delegated to etcd',
        requestWatchProgressSupported: false,
        want: {
          '1.36': {
            code: 504,
            message: 'Timeout: Too large resource version: 9223372036854775808, current: 2',
            requests: { list: 1 },
            list: [1, 1, 0, 0],
          },
          '1.37': {
            code: 200,
            resourceVersion: rv2e63,
            requests: { list: 1 },
            list: [1, 1, 1, 1],
          },
        },
      },
      {
        // Consistent reads supported: the cache waits for the RV (blockTimeout) and gives up.
        name: 'served by the watch cache',
        requestWatchProgressSupported: true,
        want: {
          '1.36': {
            code: 504,
            message: 'Timeout: Too large resource version: 9223372036854775808, current: 2',
            retryAfterSeconds: 1,
            requests: {},
            list: [0, 0, 0, 0],
          },
          '1.37': {
            code: 504,
            message: 'Timeout: Too large resource version: 9223372036854775808, current: 2',
            retryAfterSeconds: 1,
            requests: {},
            list: [0, 0, 0, 0],
          },
        },
      },
    ];
    for (const profile of [profile136, profile137Preview])
      for (const c of cases) {
        const v = profile.kubernetesVersion;
        it(`${v}: Exact 2^63, ${c.name}`, async () => {
          const clock = new FakeClock();
          const r = new Resource({
            clock,
            rand: new SeededRandom(1),
            profile,
            cache: { requestWatchProgressSupported: c.requestWatchProgressSupported },
          });
          r.start();
          try {
            await r.step(100);
            await r.createPod({ name: 'a' });
            await r.step(100);
            r.metrics.reset();
            const list = answer(r.list({ resourceVersion: rv2e63, resourceVersionMatch: 'Exact' }));
            await r.step(4000);
            assert.deepStrictEqual(outcome(r.metrics.samples(), await list), c.want[v]);
          } finally {
            r.stop();
          }
        });
      }
  });
});
