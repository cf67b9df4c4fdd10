// Tests for src/engine/etcd/kv.ts: prefixEnd (clientv3.GetPrefixRangeEnd) and EtcdError texts.
import * as assert from 'assert';
import { EtcdError, GrpcCode, prefixEnd } from '../../../src/engine/etcd/kv';

describe('etcd kv helpers', () => {
  it('prefixEnd increments the last byte below 0xff, like GetPrefixRangeEnd', () => {
    const cases: [string, string][] = [
      ['/registry/pods/', '/registry/pods0'],
      ['/pods/second/', '/pods/second0'],
      ['a', 'b'],
      ['a\xff', 'b'],
      ['a\xfe\xff', 'a\xff'],
      ['\xff\xff', '\0'],
      ['', '\0'],
    ];
    for (const [prefix, want] of cases)
      assert.strictEqual(prefixEnd(prefix), want, `prefixEnd(${JSON.stringify(prefix)})`);
  });

  it('builds etcd errors with gRPC codes and the texts clients see', () => {
    const cases: [string, EtcdError, number, string][] = [
      [
        'compacted',
        EtcdError.compacted(),
        GrpcCode.OutOfRange,
        'etcdserver: mvcc: required revision has been compacted',
      ],
      [
        'future revision',
        EtcdError.futureRev(),
        GrpcCode.OutOfRange,
        'etcdserver: mvcc: required revision is a future revision',
      ],
      [
        'unknown RPC',
        EtcdError.unimplemented('RangeStream', 'etcdserverpb.KV'),
        12,
        'rpc error: code = Unimplemented desc = unknown method RangeStream for service etcdserverpb.KV',
      ],
    ];
    for (const [name, e, code, message] of cases) {
      assert.strictEqual(e.code, code, `${name}: code`);
      assert.strictEqual(e.message, message, `${name}: message`);
      assert.ok(e instanceof Error, `${name}: an Error`);
    }
    assert.ok(EtcdError.compacted().isCompacted && !EtcdError.compacted().isFutureRev);
  });
});
