// Tests for src/engine/etcd/memory-etcd.ts: revisions, ranges at old revisions with limit/count/more,
// compaction, txn compares, RangeStream, latency and the request recorder. The revision numbers
// are those of upstream's seedMultiLevelData (apiserver-reference.md §3.4).
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import {
  EtcdError,
  prefixEnd,
  rangeStreamToRangeResponse,
  type RangeResponse,
  type TxnRequest,
} from '../../../src/engine/etcd/kv';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { RequestRecorder } from '../../../src/engine/etcd/request-recorder';

/** seedMultiLevelData + the compaction of RunTestList: revisions 2..10. */
function seed(etcd: MemoryEtcd): void {
  const revs = [
    etcd.put('/pods/first/bar', 'bar@2'),
    etcd.put('/pods/second/bar', 'second-bar'),
    etcd.put('/pods/second/foo', 'second-foo'),
    etcd.put('/pods/third/barfoo', 'barfoo'),
    etcd.put('/pods/third/foo', 'third-foo'),
    etcd.put('/pods/second/baz', 'baz'),
    etcd.put('/pods/first/bar', 'bar@8'),
    etcd.delete('/pods/second/baz'),
    etcd.put('compact_rev_key', '2'),
  ];
  assert.deepStrictEqual(revs, [2, 3, 4, 5, 6, 7, 8, 9, 10], 'seed revisions');
  etcd.compact(2);
}

function keys(r: RangeResponse): string[] {
  return r.kvs.map((kv) => kv.key.replace('/pods/', ''));
}

async function rejects(
  p: Promise<unknown>,
  message: string,
  code: number,
  name: string,
): Promise<void> {
  await assert.rejects(
    p,
    (e: unknown) => {
      assert.ok(e instanceof EtcdError, `${name}: an EtcdError`);
      assert.strictEqual(e.message, message, `${name}: message`);
      assert.strictEqual(e.code, code, `${name}: code`);
      return true;
    },
    name,
  );
}

describe('MemoryEtcd', () => {
  it('starts at revision 1 and bumps the revision once per write; an empty delete does not bump it', () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    assert.strictEqual(etcd.currentRevision(), 1);
    assert.strictEqual(etcd.put('/a', '1'), 2);
    assert.strictEqual(etcd.put('/a', '2'), 3);
    assert.strictEqual(etcd.delete('/missing'), 3);
    assert.strictEqual(etcd.delete('/a'), 4);
    assert.strictEqual(etcd.put('/a', '3'), 5);
    assert.deepStrictEqual(
      etcd.get('/a'),
      { key: '/a', value: '3', createRevision: 5, modRevision: 5, version: 1 },
      'recreated key starts a new generation',
    );
    assert.deepStrictEqual(etcd.get('/a', 3), {
      key: '/a',
      value: '2',
      createRevision: 2,
      modRevision: 3,
      version: 2,
    });
    assert.strictEqual(etcd.get('/a', 4), undefined);
  });

  it('serves RunTestList ranges at every revision with limit, count and more', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    seed(etcd);
    const all = prefixEnd('/pods/');
    // [case, start key, rangeEnd, revision, limit, expected keys, count, more]
    const cases: [string, string, string, number, number, string[], number, boolean][] = [
      ['limit 1 @3', '/pods/', all, 3, 1, ['first/bar'], 2, true],
      ['limit 2 @4', '/pods/', all, 4, 2, ['first/bar', 'second/bar'], 3, true],
      [
        'limit 4 @5',
        '/pods/',
        all,
        5,
        4,
        ['first/bar', 'second/bar', 'second/foo', 'third/barfoo'],
        4,
        false,
      ],
      ['limit 1 @6', '/pods/', all, 6, 1, ['first/bar'], 5, true],
      ['limit 2 @7', '/pods/', all, 7, 2, ['first/bar', 'second/bar'], 6, true],
      [
        'limit 4 @8',
        '/pods/',
        all,
        8,
        4,
        ['first/bar', 'second/bar', 'second/baz', 'second/foo'],
        6,
        true,
      ],
      [
        'limit 8 @9',
        '/pods/',
        all,
        9,
        8,
        ['first/bar', 'second/bar', 'second/foo', 'third/barfoo', 'third/foo'],
        5,
        false,
      ],
      ['limit 1 @10', '/pods/', all, 10, 1, ['first/bar'], 5, true],
      [
        'no limit @7',
        '/pods/',
        all,
        7,
        0,
        ['first/bar', 'second/bar', 'second/baz', 'second/foo', 'third/barfoo', 'third/foo'],
        6,
        false,
      ],
      ['exact @2', '/pods/', all, 2, 0, ['first/bar'], 1, false],
      [
        'continue @6 (count from the continue key)',
        '/pods/first/bar\0',
        all,
        6,
        1,
        ['second/bar'],
        4,
        true,
      ],
      ['continue @7', '/pods/second/bar\0', all, 7, 2, ['second/baz', 'second/foo'], 4, true],
      ['continue @8', '/pods/second/foo\0', all, 8, 4, ['third/barfoo', 'third/foo'], 2, false],
      ['continue @2 past the only key', '/pods/first/bar\0', all, 2, 1, [], 0, false],
      [
        'second/ latest, limit 1',
        '/pods/second/',
        prefixEnd('/pods/second/'),
        0,
        1,
        ['second/bar'],
        2,
        true,
      ],
      ['single key', '/pods/first/bar', '', 0, 1, ['first/bar'], 1, false],
      ['single key at rev 2', '/pods/first/bar', '', 2, 0, ['first/bar'], 1, false],
      ['single missing key', '/pods/second/baz', '', 0, 0, [], 0, false],
      ['deleted key still visible at 7', '/pods/second/baz', '', 7, 0, ['second/baz'], 1, false],
      [
        'every key >= /pods/ ("\\0" end)',
        '/pods/',
        '\0',
        0,
        0,
        ['first/bar', 'second/bar', 'second/foo', 'third/barfoo', 'third/foo', 'compact_rev_key'],
        6,
        false,
      ],
      [
        'non-existing prefix',
        '/pods/non-existing/',
        prefixEnd('/pods/non-existing/'),
        0,
        0,
        [],
        0,
        false,
      ],
    ];
    for (const [name, key, rangeEnd, revision, limit, want, count, more] of cases) {
      const r = await etcd.range({ key, rangeEnd, revision, limit });
      assert.deepStrictEqual(keys(r), want, `${name}: keys`);
      assert.strictEqual(r.count, count, `${name}: count`);
      assert.strictEqual(r.more, more, `${name}: more`);
      assert.strictEqual(r.header.revision, 10, `${name}: header revision is the current revision`);
    }
    const at2 = await etcd.range({ key: '/pods/first/bar', revision: 2 });
    assert.deepStrictEqual(at2.kvs[0], {
      key: '/pods/first/bar',
      value: 'bar@2',
      createRevision: 2,
      modRevision: 2,
      version: 1,
    });
    const now = await etcd.range({ key: '/pods/first/bar' });
    assert.deepStrictEqual(now.kvs[0], {
      key: '/pods/first/bar',
      value: 'bar@8',
      createRevision: 2,
      modRevision: 8,
      version: 2,
    });
    const counted = await etcd.range({
      key: '/pods/',
      rangeEnd: all,
      countOnly: true,
      revision: 7,
    });
    assert.deepStrictEqual(
      [counted.kvs.length, counted.count, counted.more],
      [0, 6, false],
      'countOnly',
    );
    const ko = await etcd.range({
      key: '/pods/third/',
      rangeEnd: prefixEnd('/pods/third/'),
      keysOnly: true,
    });
    assert.deepStrictEqual(
      ko.kvs.map((kv) => kv.value),
      ['', ''],
      'keysOnly',
    );
  });

  it('fails reads below the compacted revision and above the current one with etcd messages', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    seed(etcd);
    const compacted = 'etcdserver: mvcc: required revision has been compacted';
    const future = 'etcdserver: mvcc: required revision is a future revision';
    await rejects(
      etcd.range({ key: '/pods/', rangeEnd: '\0', revision: 1 }),
      compacted,
      11,
      'range @1',
    );
    await rejects(
      etcd.range({ key: '/pods/', rangeEnd: '\0', revision: 11 }),
      future,
      11,
      'range @11',
    );
    assert.throws(
      () => etcd.compact(2),
      (e: unknown) => e instanceof EtcdError && e.message === compacted && e.isCompacted,
      'compact again',
    );
    assert.throws(() => etcd.compact(1), /required revision has been compacted/, 'compact older');
    assert.throws(
      () => etcd.compact(11),
      (e: unknown) => e instanceof EtcdError && e.message === future && e.isFutureRev,
      'compact future',
    );
    await rejects(etcd.compaction({ revision: 11 }), future, 11, 'compaction rpc future');
    await rejects(etcd.range({ key: '' }), 'etcdserver: key is not provided', 3, 'empty key');
    await rejects(
      etcd.range({ key: '/a', rangeEnd: '\0', limit: -1 }),
      'range /a: limit must be an integer >= 0, got -1',
      3,
      'bad limit',
    );
    etcd.compact(9);
    assert.strictEqual(etcd.compactRevision(), 9);
    const r = await etcd.range({ key: '/pods/', rangeEnd: '\0', revision: 9 });
    assert.strictEqual(r.count, 5, 'reading at the compacted revision itself works');
    await rejects(
      etcd.range({ key: '/pods/', rangeEnd: '\0', revision: 8 }),
      compacted,
      11,
      'range @8 after compact(9)',
    );
    assert.strictEqual(
      etcd.stats().keys,
      6,
      'second/baz (deleted at 9) left the index; compact_rev_key stays',
    );
  });

  it('keeps the newest revision at or before the compaction point and everything after it', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    etcd.put('/k', 'v2'); // 2
    etcd.put('/k', 'v3'); // 3
    etcd.put('/x', 'x4'); // 4
    etcd.put('/k', 'v5'); // 5
    etcd.delete('/x'); // 6
    etcd.compact(4);
    const cases: [number, string | undefined, string | undefined][] = [
      [4, 'v3', 'x4'],
      [5, 'v5', 'x4'],
      [6, 'v5', undefined],
    ];
    for (const [rev, k, x] of cases) {
      assert.strictEqual(etcd.get('/k', rev)?.value, k, `/k @${rev}`);
      assert.strictEqual(etcd.get('/x', rev)?.value, x, `/x @${rev}`);
    }
    etcd.compact(6);
    assert.strictEqual(
      etcd.stats().keys,
      1,
      'the deleted key is gone after compacting past its tombstone',
    );
  });

  it('runs transactions: create-if-absent, optimistic update, failure branch, no bump without writes', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    const create = (value: string): TxnRequest => ({
      compare: [{ key: '/pods/ns/p', target: 'modRevision', result: 'equal', value: 0 }],
      success: [{ requestPut: { key: '/pods/ns/p', value } }],
      failure: [{ requestRange: { key: '/pods/ns/p' } }],
    });
    const first = await etcd.txn(create('a'));
    assert.strictEqual(first.succeeded, true);
    assert.strictEqual(first.header.revision, 2);
    const again = await etcd.txn(create('b'));
    assert.strictEqual(again.succeeded, false, 'the key exists now');
    assert.strictEqual(again.header.revision, 2, 'a read-only branch does not bump the revision');
    const got = again.responses[0];
    assert.ok('responseRange' in got);
    assert.strictEqual(got.responseRange.kvs[0].value, 'a');

    const update = (modRevision: number, value: string): TxnRequest => ({
      compare: [{ key: '/pods/ns/p', target: 'modRevision', result: 'equal', value: modRevision }],
      success: [{ requestPut: { key: '/pods/ns/p', value, prevKv: true } }],
      failure: [{ requestRange: { key: '/pods/ns/p' } }],
    });
    const stale = await etcd.txn(update(1, 'c'));
    assert.strictEqual(stale.succeeded, false, 'stale modRevision');
    const ok = await etcd.txn(update(2, 'c'));
    assert.strictEqual(ok.succeeded, true);
    const put = ok.responses[0];
    assert.ok('responsePut' in put);
    assert.strictEqual(put.responsePut.prevKv?.value, 'a');
    assert.strictEqual(put.responsePut.header.revision, 3);

    // [case, compare, expected]
    const compares: [string, TxnRequest['compare'], boolean][] = [
      [
        'version equal',
        [{ key: '/pods/ns/p', target: 'version', result: 'equal', value: 2 }],
        true,
      ],
      [
        'version greater',
        [{ key: '/pods/ns/p', target: 'version', result: 'greater', value: 2 }],
        false,
      ],
      [
        'createRevision less',
        [{ key: '/pods/ns/p', target: 'createRevision', result: 'less', value: 3 }],
        true,
      ],
      ['value equal', [{ key: '/pods/ns/p', target: 'value', result: 'equal', value: 'c' }], true],
      [
        'value notEqual',
        [{ key: '/pods/ns/p', target: 'value', result: 'notEqual', value: 'c' }],
        false,
      ],
      [
        'value of a missing key is never true',
        [{ key: '/none', target: 'value', result: 'notEqual', value: 'x' }],
        false,
      ],
      [
        'missing key has version 0',
        [{ key: '/none', target: 'version', result: 'equal', value: 0 }],
        true,
      ],
      [
        'range compare: every key',
        [
          {
            key: '/pods/',
            rangeEnd: prefixEnd('/pods/'),
            target: 'version',
            result: 'greater',
            value: 0,
          },
        ],
        true,
      ],
      [
        'all compares must hold',
        [
          { key: '/pods/ns/p', target: 'version', result: 'equal', value: 2 },
          { key: '/pods/ns/p', target: 'lease', result: 'equal', value: 1 },
        ],
        false,
      ],
    ];
    for (const [name, compare, want] of compares) {
      const r = await etcd.txn({ compare });
      assert.strictEqual(r.succeeded, want, name);
    }
    assert.strictEqual(etcd.currentRevision(), 3, 'compare-only txns write nothing');

    const multi = await etcd.txn({
      success: [
        { requestPut: { key: '/m/1', value: '1' } },
        { requestPut: { key: '/m/2', value: '2' } },
        { requestDeleteRange: { key: '/pods/ns/p', prevKv: true } },
        { requestRange: { key: '/m/', rangeEnd: prefixEnd('/m/') } },
      ],
    });
    assert.strictEqual(multi.header.revision, 4, 'several writes, one revision');
    const read = multi.responses[3];
    assert.ok('responseRange' in read);
    assert.deepStrictEqual(
      read.responseRange.kvs.map((kv) => [kv.key, kv.modRevision]),
      [
        ['/m/1', 4],
        ['/m/2', 4],
      ],
      'a txn reads its own writes',
    );
  });

  it('rejects invalid transactions with etcd messages and changes nothing', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock(), maxTxnOps: 3 });
    const cases: [string, TxnRequest, string][] = [
      [
        'duplicate put',
        {
          success: [
            { requestPut: { key: '/a', value: '1' } },
            { requestPut: { key: '/a', value: '2' } },
          ],
        },
        'etcdserver: duplicate key given in txn request',
      ],
      [
        'put inside a delete range',
        {
          success: [
            { requestDeleteRange: { key: '/', rangeEnd: '/b' } },
            { requestPut: { key: '/a', value: '2' } },
          ],
        },
        'etcdserver: duplicate key given in txn request',
      ],
      [
        'too many ops',
        { success: [1, 2, 3, 4].map((i) => ({ requestPut: { key: `/k${i}`, value: '' } })) },
        'etcdserver: too many operations in txn request',
      ],
      [
        'future read inside',
        {
          success: [
            { requestPut: { key: '/b', value: '1' } },
            { requestRange: { key: '/b', revision: 5 } },
          ],
        },
        'etcdserver: mvcc: required revision is a future revision',
      ],
      [
        'empty key',
        { success: [{ requestPut: { key: '', value: '1' } }] },
        'etcdserver: key is not provided',
      ],
      [
        'value compare with a number',
        { compare: [{ key: '/a', target: 'value', result: 'equal', value: 1 }] },
        'compare on /a: target value needs a string value, got number',
      ],
    ];
    for (const [name, req, message] of cases) {
      await assert.rejects(
        etcd.txn(req),
        (e: unknown) => e instanceof EtcdError && e.message === message,
        name,
      );
      assert.strictEqual(etcd.currentRevision(), 1, `${name}: nothing written`);
    }
  });

  it('applies a txn as etcd 3.4: compares first, each op its own header, checks on the branch taken', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    etcd.put('/a', '1'); // 2
    etcd.put('/a', '2'); // 3
    etcd.compact(3);
    const r = await etcd.txn({
      success: [
        { requestRange: { key: '/a' } },
        { requestDeleteRange: { key: '/none' } },
        { requestPut: { key: '/a', value: '3' } },
        { requestRange: { key: '/a' } },
        {
          // compareToPath: decided before the put above, on /a = 2.
          requestTxn: {
            compare: [{ key: '/a', target: 'value', result: 'equal', value: '2' }],
            success: [{ requestPut: { key: '/b', value: 'then' } }],
            failure: [{ requestPut: { key: '/b', value: 'else' } }],
          },
        },
      ],
      // checkRequests: a compacted read on the branch not taken does not fail the txn.
      failure: [{ requestRange: { key: '/a', revision: 2 } }],
    });
    const headers = r.responses.map((x) => Object.values(x)[0].header.revision);
    assert.deepStrictEqual(headers, [3, 3, 4, 4, 0], 'read, empty delete, put, read, nested txn');
    assert.strictEqual(r.header.revision, 4);
    assert.strictEqual(etcd.get('/b')?.value, 'then');
    const nested = r.responses[4];
    assert.ok('responseTxn' in nested && nested.responseTxn.succeeded);
    const accepted: [string, TxnRequest][] = [
      [
        "a nested txn's then and else put one key",
        {
          success: [
            {
              requestTxn: {
                success: [{ requestPut: { key: '/c', value: '1' } }],
                failure: [{ requestPut: { key: '/c', value: '2' } }],
              },
            },
          ],
        },
      ],
      [
        'a put inside a from-key delete (checkIntervals takes its "\\0" end literally)',
        {
          success: [
            { requestDeleteRange: { key: '/x', rangeEnd: '\0' } },
            { requestPut: { key: '/y', value: '1' } },
          ],
        },
      ],
    ];
    for (const [name, req] of accepted) assert.ok((await etcd.txn(req)).succeeded, name);
    const refused: [string, TxnRequest, string][] = [
      [
        'an empty compare key before duplicate puts (checkTxnRequest, then checkIntervals)',
        {
          compare: [{ key: '', target: 'version', result: 'equal', value: 0 }],
          success: [
            { requestPut: { key: '/d', value: '1' } },
            { requestPut: { key: '/d', value: '2' } },
          ],
        },
        'etcdserver: key is not provided',
      ],
      [
        'a nested txn within what its parent leaves (128 - 65 < 65)',
        {
          success: [
            ...Array.from({ length: 64 }, (_, i) => ({ requestPut: { key: `/o${i}`, value: '' } })),
            {
              requestTxn: {
                success: Array.from({ length: 65 }, (_, i) => ({
                  requestPut: { key: `/i${i}`, value: '' },
                })),
              },
            },
          ],
        },
        'etcdserver: too many operations in txn request',
      ],
    ];
    for (const [name, req, message] of refused) await rejects(etcd.txn(req), message, 3, name);
  });

  it('answers RangeStream with Unimplemented by default, like etcd <= 3.6 behind grpc-go', async () => {
    const recorder = new RequestRecorder();
    const etcd = new MemoryEtcd({ clock: new FakeClock(), onRequest: recorder.record });
    etcd.put('/a', '1');
    await assert.rejects(
      rangeStreamToRangeResponse(etcd.rangeStream({ key: '/', rangeEnd: '\0' })),
      (e: unknown) => {
        assert.ok(e instanceof EtcdError);
        assert.strictEqual(e.code, 12);
        assert.strictEqual(e.codeName, 'Unimplemented');
        assert.strictEqual(e.desc, 'unknown method RangeStream for service etcdserverpb.KV');
        assert.strictEqual(
          e.message,
          'rpc error: code = Unimplemented desc = unknown method RangeStream for service etcdserverpb.KV',
        );
        assert.ok(e.isUnimplemented);
        return true;
      },
    );
    assert.strictEqual(
      recorder.getStreamReadsAndReset(),
      1,
      'the failed call is still a stream read',
    );
    assert.strictEqual(
      recorder.requests[recorder.requests.length - 1].error,
      'rpc error: code = Unimplemented desc = unknown method RangeStream for service etcdserverpb.KV',
    );
  });

  it('streams a range in growing chunks whose merge equals Range, pinned at one revision', async () => {
    const recorder = new RequestRecorder();
    const etcd = new MemoryEtcd({
      clock: new FakeClock(),
      rangeStream: 'supported',
      rangeStreamInitialChunk: 2,
      onRequest: recorder.record,
    });
    for (let i = 0; i < 20; i++) etcd.put(`/pods/ns/p-${String(i).padStart(2, '0')}`, `v${i}`);
    const cases: [string, { limit?: number; revision?: number; key?: string }][] = [
      ['all', {}],
      ['limit 5', { limit: 5 }],
      ['limit 20', { limit: 20 }],
      ['old revision', { revision: 10 }],
      ['from a continue key', { key: '/pods/ns/p-07\0', limit: 4 }],
    ];
    for (const [name, o] of cases) {
      const req = {
        key: o.key ?? '/pods/',
        rangeEnd: prefixEnd('/pods/'),
        limit: o.limit,
        revision: o.revision,
      };
      const unary = await etcd.range(req);
      const chunks: RangeResponse[] = [];
      for await (const c of etcd.rangeStream(req)) chunks.push(c);
      const merged = await rangeStreamToRangeResponse(
        (async function* () {
          yield* chunks;
        })(),
      );
      assert.deepStrictEqual(merged.kvs, unary.kvs, `${name}: kvs`);
      assert.strictEqual(merged.count, unary.count, `${name}: count`);
      assert.strictEqual(merged.more, unary.more, `${name}: more`);
      assert.ok(
        chunks.slice(0, -1).every((c) => c.header.revision === 0 && c.count === 0),
        `${name}: only the last chunk has header and count`,
      );
    }
    const sizes: number[] = [];
    for await (const c of etcd.rangeStream({ key: '/pods/', rangeEnd: prefixEnd('/pods/') }))
      sizes.push(c.kvs.length);
    assert.deepStrictEqual(sizes, [2, 4, 8, 6], 'chunks double while small');
    assert.strictEqual(recorder.getStreamReadsAndReset(), 6);
    assert.strictEqual(recorder.getReadsAndReset(), 5);

    // A compaction past the pinned revision between chunks fails the stream.
    const stream = etcd.rangeStream({ key: '/pods/', rangeEnd: prefixEnd('/pods/') });
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    etcd.put('/pods/ns/zz', 'new');
    etcd.compact(etcd.currentRevision());
    await rejects(
      it.next(),
      'etcdserver: mvcc: required revision has been compacted',
      11,
      'mid-stream compaction',
    );
  });

  it('records every KV call with its range, limit, revision and result', async () => {
    const recorder = new RequestRecorder();
    const clock = new FakeClock(1000);
    const etcd = new MemoryEtcd({
      clock,
      onRequest: recorder.record,
      latency: { perRequestMs: 2, perKeyMs: 0.5, perByteMs: 0.01 },
    });
    for (let i = 0; i < 4; i++) etcd.put(`/pods/p${i}`, 'xxxxxx'); // 8-char keys, 6-char values
    const r = await etcd.range({
      key: '/pods/',
      rangeEnd: prefixEnd('/pods/'),
      limit: 2,
      revision: 3,
    });
    // 2 + 2 * 0.5 + 2 * 14 * 0.01 = 3.28 ms, rounded to the 1/128 ms quantum.
    assert.strictEqual(r.latencyMs, 420 / 128);
    await assert.rejects(etcd.range({ key: '/pods/', revision: 99 }));
    await etcd.txn({ success: [{ requestPut: { key: '/pods/p9', value: 'y' } }] });
    etcd.watch({ key: '/pods/', rangeEnd: prefixEnd('/pods/'), startRevision: 3 }).cancel();
    assert.deepStrictEqual(
      recorder.requests.map((q) => [
        q.op,
        q.key,
        q.rangeEnd,
        q.limit,
        q.revision,
        q.kvs,
        q.count,
        q.headerRevision,
        q.at,
        q.error,
      ]),
      [
        ['range', '/pods/', '/pods0', 2, 3, 2, 2, 5, 1000, undefined],
        [
          'range',
          '/pods/',
          '',
          0,
          99,
          0,
          undefined,
          0,
          1000,
          'etcdserver: mvcc: required revision is a future revision',
        ],
        ['txn', '/pods/p9', '', 0, 0, 1, undefined, 6, 1000, undefined],
        ['watch', '/pods/', '/pods0', 0, 3, 0, undefined, 6, 1000, undefined],
      ],
    );
    assert.strictEqual(recorder.getReadsAndReset(), 2);
    assert.deepStrictEqual(recorder.listRequests(), [
      { key: '/pods/', revision: 3, limit: 2 },
      { key: '/pods/', revision: 99, limit: 0 },
    ]);
  });

  it('resolves after the modelled latency in virtual time when simulateLatency is set', async () => {
    const clock = new FakeClock();
    const etcd = new MemoryEtcd({ clock, simulateLatency: true, latency: { perRequestMs: 5 } });
    etcd.put('/a', '1');
    const got: { resp?: RangeResponse } = {};
    void etcd.range({ key: '/a' }).then((r) => {
      got.resp = r;
    });
    etcd.put('/a', '2'); // after the call: the read already happened
    await clock.stepAsync(4);
    assert.strictEqual(got.resp, undefined, 'not before 5 ms');
    await clock.stepAsync(1);
    const resp = got.resp as RangeResponse | undefined; // assigned by the callback
    assert.ok(resp, 'resolved at 5 ms');
    assert.strictEqual(resp.kvs[0].value, '1');
    assert.strictEqual(resp.latencyMs, 5);
    assert.throws(
      () => new MemoryEtcd({ clock, latency: { perKeyMs: -1 } }),
      /latency model: perKeyMs must be a finite number >= 0, got -1/,
    );
  });
});
