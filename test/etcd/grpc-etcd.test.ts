// Tests for src/etcd-client/grpc-etcd.ts against a real etcd (Debian's etcd-server 3.4 on
// loopback): every KV call, etcd's errors with their exact gRPC codes and messages, bytes end to
// end, the RangeStream probe and the request records.
import * as assert from 'assert';
import { GrpcEtcd } from '../../src/etcd-client/grpc-etcd';
import { spawnEtcd, type SpawnedEtcd } from '../../src/etcd-client/etcd-process';
import {
  EtcdError,
  GrpcCode,
  prefixEnd,
  type RequestOp,
  type TxnRequest,
} from '../../src/engine/etcd/kv';
import { RequestRecorder, type EtcdRequestRecord } from '../../src/engine/etcd/request-recorder';

async function put(etcd: GrpcEtcd, key: string, value: string): Promise<number> {
  const r = await etcd.txn({ success: [{ requestPut: { key, value } }] });
  return r.header.revision;
}

async function rejects(p: Promise<unknown>, codeName: string, message: string): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof EtcdError, `an EtcdError, got ${String(e)}`);
    assert.strictEqual(e.codeName, codeName);
    assert.strictEqual(e.code, GrpcCode[e.codeName]);
    assert.strictEqual(e.message, message);
    return true;
  });
}

describe('GrpcEtcd against etcd 3.4', function () {
  let server: SpawnedEtcd;
  let etcd: GrpcEtcd;

  before(async () => {
    server = await spawnEtcd();
    etcd = await GrpcEtcd.connect({ endpoints: server.clientURLs });
  });

  after(async () => {
    etcd?.close();
    await server?.stop();
  });

  it('connects: kind, endpoints and the primed current revision', () => {
    assert.strictEqual(etcd.kind, 'grpc');
    assert.deepStrictEqual(etcd.endpoints, server.clientURLs);
    assert.strictEqual(etcd.currentRevision(), 1, 'a fresh etcd is at revision 1');
    assert.strictEqual(etcd.compactRevision(), -1);
  });

  describe('range', () => {
    const p = '/range/';
    let revs: number[] = [];
    before(async () => {
      revs = [];
      for (const k of ['a', 'b', 'c', 'd', 'e']) revs.push(await put(etcd, p + k, `v-${k}`));
      revs.push(await put(etcd, p + 'a', 'v-a2'));
    });

    const cases: {
      name: string;
      limit?: number;
      rev?: (r: number[]) => number;
      countOnly?: boolean;
      keysOnly?: boolean;
      serializable?: boolean;
      keys: string[];
      count: number;
      more: boolean;
      value?: string;
    }[] = [
      { name: 'the whole prefix', keys: ['a', 'b', 'c', 'd', 'e'], count: 5, more: false },
      { name: 'limit 2', limit: 2, keys: ['a', 'b'], count: 5, more: true },
      { name: 'limit = count', limit: 5, keys: ['a', 'b', 'c', 'd', 'e'], count: 5, more: false },
      {
        name: 'at the third write',
        rev: (r) => r[2],
        keys: ['a', 'b', 'c'],
        count: 3,
        more: false,
      },
      {
        name: 'at the first write, limit 1',
        rev: (r) => r[0],
        limit: 1,
        keys: ['a'],
        count: 1,
        more: false,
        value: 'v-a',
      },
      { name: 'countOnly', countOnly: true, keys: [], count: 5, more: false },
      {
        name: 'keysOnly',
        keysOnly: true,
        keys: ['a', 'b', 'c', 'd', 'e'],
        count: 5,
        more: false,
        value: '',
      },
      {
        name: 'serializable',
        serializable: true,
        keys: ['a', 'b', 'c', 'd', 'e'],
        count: 5,
        more: false,
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const resp = await etcd.range({
          key: p,
          rangeEnd: prefixEnd(p),
          limit: c.limit,
          revision: c.rev?.(revs),
          countOnly: c.countOnly,
          keysOnly: c.keysOnly,
          serializable: c.serializable,
        });
        assert.deepStrictEqual(
          resp.kvs.map((kv) => kv.key),
          c.keys.map((k) => p + k),
        );
        assert.strictEqual(resp.count, c.count);
        assert.strictEqual(resp.more, c.more);
        // header.revision is the store's current revision, also on a pinned read.
        assert.strictEqual(resp.header.revision, revs[revs.length - 1]);
        if (c.value !== undefined) assert.strictEqual(resp.kvs[0].value, c.value);
      });
    }

    it('a single key: its revisions and version', async () => {
      const resp = await etcd.range({ key: p + 'a' });
      assert.deepStrictEqual(resp.kvs, [
        { key: p + 'a', value: 'v-a2', createRevision: revs[0], modRevision: revs[5], version: 2 },
      ]);
      assert.strictEqual(resp.count, 1);
    });

    it('a missing key: no kvs, count 0', async () => {
      const resp = await etcd.range({ key: p + 'zz' });
      assert.deepStrictEqual([resp.kvs, resp.count, resp.more], [[], 0, false]);
    });
  });

  describe('txn', () => {
    const k = '/txn/cas';

    it('compare-and-swap as GuaranteedUpdate: modRevision equal succeeds, then fails with the fresh value', async () => {
      const created = await put(etcd, k, 'one');
      const swap = (modRevision: number, value: string): TxnRequest => ({
        compare: [{ key: k, target: 'modRevision', result: 'equal', value: modRevision }],
        success: [{ requestPut: { key: k, value, prevKv: true } }],
        failure: [{ requestRange: { key: k } }],
      });
      const ok = await etcd.txn(swap(created, 'two'));
      assert.strictEqual(ok.succeeded, true);
      assert.strictEqual(ok.header.revision, created + 1);
      const putResp = ok.responses[0];
      assert.ok('responsePut' in putResp);
      assert.strictEqual(putResp.responsePut.prevKv?.value, 'one');
      assert.strictEqual(putResp.responsePut.header.revision, created + 1);

      const stale = await etcd.txn(swap(created, 'three'));
      assert.strictEqual(stale.succeeded, false);
      assert.strictEqual(stale.header.revision, created + 1, 'a failed compare writes nothing');
      const rangeResp = stale.responses[0];
      assert.ok('responseRange' in rangeResp);
      assert.strictEqual(rangeResp.responseRange.kvs[0].value, 'two');
      assert.strictEqual(rangeResp.responseRange.kvs[0].modRevision, created + 1);
    });

    const compares: {
      target: 'version' | 'createRevision' | 'modRevision' | 'value' | 'lease';
      result: 'equal' | 'notEqual' | 'greater' | 'less';
      value: (rev: number) => number | string;
      want: boolean;
    }[] = [
      { target: 'version', result: 'equal', value: () => 1, want: true },
      { target: 'version', result: 'greater', value: () => 1, want: false },
      { target: 'createRevision', result: 'equal', value: (r) => r, want: true },
      { target: 'modRevision', result: 'less', value: (r) => r + 1, want: true },
      { target: 'value', result: 'equal', value: () => 'x\xff', want: true },
      { target: 'value', result: 'notEqual', value: () => 'x\xff', want: false },
      { target: 'value', result: 'greater', value: () => 'x', want: true },
      { target: 'lease', result: 'equal', value: () => 0, want: true },
    ];
    for (const c of compares) {
      it(`compare ${c.target} ${c.result}: ${c.want}`, async () => {
        const key = `/txn/cmp-${c.target}-${c.result}`;
        const rev = await put(etcd, key, 'x\xff');
        const r = await etcd.txn({
          compare: [{ key, target: c.target, result: c.result, value: c.value(rev) }],
        });
        assert.strictEqual(r.succeeded, c.want);
      });
    }

    it('a missing key compares as version 0', async () => {
      const r = await etcd.txn({
        compare: [{ key: '/txn/missing', target: 'version', result: 'equal', value: 0 }],
      });
      assert.strictEqual(r.succeeded, true);
    });

    it('nested txn, deleteRange with prevKv and range in one transaction, one revision', async () => {
      const p = '/txn/nested/';
      await put(etcd, p + 'a', 'A');
      const base = await put(etcd, p + 'b', 'B');
      const r = await etcd.txn({
        success: [
          {
            requestTxn: {
              compare: [{ key: p + 'a', target: 'value', result: 'equal', value: 'A' }],
              success: [{ requestDeleteRange: { key: p + 'a', prevKv: true } }],
            },
          },
          { requestPut: { key: p + 'c', value: 'C' } },
          { requestRange: { key: p, rangeEnd: prefixEnd(p) } },
        ],
      });
      assert.strictEqual(r.header.revision, base + 1);
      const [inner, putResp, rangeResp] = r.responses;
      assert.ok('responseTxn' in inner && 'responsePut' in putResp && 'responseRange' in rangeResp);
      assert.strictEqual(inner.responseTxn.succeeded, true);
      const del = inner.responseTxn.responses[0];
      assert.ok('responseDeleteRange' in del);
      assert.strictEqual(del.responseDeleteRange.deleted, 1);
      assert.strictEqual(del.responseDeleteRange.prevKvs?.[0].value, 'A');
      assert.deepStrictEqual(
        rangeResp.responseRange.kvs.map((kv) => kv.key),
        [p + 'b', p + 'c'],
        'the range sees the txn’s own writes',
      );
    });

    it('deleteRange: deleted count, prevKvs and the revision', async () => {
      const p = '/del/';
      await put(etcd, p + 'a', '1');
      const last = await put(etcd, p + 'b', '2');
      const r = await etcd.deleteRange({ key: p, rangeEnd: prefixEnd(p), prevKv: true });
      assert.strictEqual(r.deleted, 2);
      assert.deepStrictEqual(
        r.prevKvs?.map((kv) => [kv.key, kv.value]),
        [
          [p + 'a', '1'],
          [p + 'b', '2'],
        ],
      );
      assert.strictEqual(r.header.revision, last + 1);
      const none = await etcd.deleteRange({ key: p + 'a' });
      assert.strictEqual(none.deleted, 0);
      assert.strictEqual(
        none.header.revision,
        last + 1,
        'an empty delete does not bump the revision',
      );
      assert.strictEqual(none.prevKvs, undefined);
    });
  });

  describe('bytes end to end', () => {
    it('every byte value 0..255 in a value, and non-UTF-8 bytes in a key, round-trip exactly', async () => {
      const value = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('');
      const key = '/bytes/\xff\xfe\x80\x00k';
      await put(etcd, key, value);
      const r = await etcd.range({ key });
      assert.strictEqual(r.kvs.length, 1);
      assert.strictEqual(r.kvs[0].key, key);
      assert.strictEqual(r.kvs[0].value, value);
      assert.strictEqual(r.kvs[0].value.length, 256);
    });

    it('UTF-8 JSON written as bytes reads back as the same bytes', async () => {
      const json = Buffer.from('{"name":"pöd-✓"}', 'utf8').toString('latin1');
      await put(etcd, '/bytes/json', json);
      const got = (await etcd.range({ key: '/bytes/json' })).kvs[0].value;
      assert.strictEqual(Buffer.from(got, 'latin1').toString('utf8'), '{"name":"pöd-✓"}');
    });
  });

  describe('errors: exact gRPC codes and messages', () => {
    it('future revision: OutOfRange, rpctypes.ErrFutureRev', async () => {
      await rejects(
        etcd.range({ key: '/err', revision: etcd.currentRevision() + 1000 }),
        'OutOfRange',
        'etcdserver: mvcc: required revision is a future revision',
      );
    });

    it('duplicate key in a txn: InvalidArgument, rpctypes.ErrDuplicateKey', async () => {
      await rejects(
        etcd.txn({
          success: [
            { requestPut: { key: '/err/dup', value: '1' } },
            { requestPut: { key: '/err/dup', value: '2' } },
          ],
        }),
        'InvalidArgument',
        'etcdserver: duplicate key given in txn request',
      );
    });

    it('129 ops in a txn (--max-txn-ops 128): InvalidArgument, rpctypes.ErrTooManyOps', async () => {
      const ops: RequestOp[] = Array.from({ length: 129 }, (_, i) => ({
        requestRange: { key: `/err/op${i}` },
      }));
      await rejects(
        etcd.txn({ success: ops }),
        'InvalidArgument',
        'etcdserver: too many operations in txn request',
      );
    });

    it('empty key: InvalidArgument, rpctypes.ErrEmptyKey', async () => {
      await rejects(etcd.range({ key: '' }), 'InvalidArgument', 'etcdserver: key is not provided');
      await rejects(
        etcd.txn({ success: [{ requestPut: { key: '', value: 'x' } }] }),
        'InvalidArgument',
        'etcdserver: key is not provided',
      );
    });

    it('compacted revision: OutOfRange, rpctypes.ErrCompacted, for range and compaction', async () => {
      const first = await put(etcd, '/err/compact', '1');
      await put(etcd, '/err/compact', '2');
      await etcd.compaction({ revision: first + 1, physical: true });
      assert.strictEqual(etcd.compactRevision(), first + 1);
      await rejects(
        etcd.range({ key: '/err/compact', revision: first }),
        'OutOfRange',
        'etcdserver: mvcc: required revision has been compacted',
      );
      await rejects(
        etcd.compaction({ revision: first }),
        'OutOfRange',
        'etcdserver: mvcc: required revision has been compacted',
      );
      const r = await etcd.range({ key: '/err/compact', revision: first + 1 });
      assert.strictEqual(r.kvs[0].value, '2', 'the compact revision itself is still readable');
    });

    it('compaction to a future revision: OutOfRange, rpctypes.ErrFutureRev', async () => {
      await rejects(
        etcd.compaction({ revision: etcd.currentRevision() + 1000 }),
        'OutOfRange',
        'etcdserver: mvcc: required revision is a future revision',
      );
    });
  });

  describe('RangeStream probe', () => {
    it('etcd 3.4 has no RangeStream: grpc-go Unimplemented, every time', async () => {
      const want = EtcdError.unimplemented('RangeStream', 'etcdserverpb.KV').message;
      assert.strictEqual(
        want,
        'rpc error: code = Unimplemented desc = unknown method RangeStream for service etcdserverpb.KV',
      );
      for (let i = 0; i < 2; i++) {
        await assert.rejects(
          (async () => {
            for await (const chunk of etcd.rangeStream({ key: '/', rangeEnd: '0' })) void chunk;
          })(),
          (e: unknown) => {
            assert.ok(e instanceof EtcdError);
            assert.strictEqual(e.isUnimplemented, true);
            assert.strictEqual(e.codeName, 'Unimplemented');
            assert.strictEqual(e.message, want);
            return true;
          },
        );
      }
    });
  });

  describe('request records', () => {
    it('each call reports one record with MemoryEtcd’s fields', async () => {
      const rec = new RequestRecorder();
      const remove = etcd.addRequestListener(rec.record);
      const p = '/rec/';
      const w1 = await put(etcd, p + 'a', '1');
      await put(etcd, p + 'b', '2');
      await etcd.range({ key: p, rangeEnd: prefixEnd(p), limit: 1, revision: w1 });
      await etcd.range({ key: p, rangeEnd: prefixEnd(p), countOnly: true });
      await etcd.deleteRange({ key: p + 'a' });
      await assert.rejects(etcd.range({ key: p, revision: etcd.currentRevision() + 100 }));
      remove();
      await etcd.range({ key: p });
      const strip = (r: EtcdRequestRecord) => {
        assert.ok(r.latencyMs > 0, `${r.op}: latency measured`);
        assert.ok(r.at > 0);
        const rest: Partial<EtcdRequestRecord> = { ...r };
        delete rest.latencyMs;
        delete rest.at;
        return rest;
      };
      const cur = etcd.currentRevision();
      assert.deepStrictEqual(rec.requests.map(strip), [
        {
          op: 'txn',
          key: p + 'a',
          rangeEnd: '',
          limit: 0,
          revision: 0,
          kvs: 1,
          headerRevision: w1,
        },
        {
          op: 'txn',
          key: p + 'b',
          rangeEnd: '',
          limit: 0,
          revision: 0,
          kvs: 1,
          headerRevision: w1 + 1,
        },
        {
          op: 'range',
          key: p,
          rangeEnd: prefixEnd(p),
          limit: 1,
          revision: w1,
          countOnly: undefined,
          kvs: 1,
          count: 1,
          headerRevision: w1 + 1,
        },
        {
          op: 'range',
          key: p,
          rangeEnd: prefixEnd(p),
          limit: 0,
          revision: 0,
          countOnly: true,
          kvs: 0,
          count: 2,
          headerRevision: w1 + 1,
        },
        {
          op: 'deleteRange',
          key: p + 'a',
          rangeEnd: '',
          limit: 0,
          revision: 0,
          kvs: 1,
          headerRevision: cur,
        },
        {
          op: 'range',
          key: p,
          rangeEnd: '',
          limit: 0,
          revision: cur + 100,
          kvs: 0,
          headerRevision: 0,
          error: 'etcdserver: mvcc: required revision is a future revision',
        },
      ]);
      assert.strictEqual(rec.getReadsAndReset(), 3);
    });

    it('currentRevision follows the highest header revision seen', async () => {
      const rev = await put(etcd, '/rec/cur', 'x');
      assert.strictEqual(etcd.currentRevision(), rev);
    });
  });
});
