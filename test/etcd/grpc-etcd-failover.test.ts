// Tests for src/etcd-client/endpoint-pool.ts: endpoint failover as clientv3's retry interceptor
// does it (retry.go isSafeRetryImmutableRPC / isSafeRetryMutableRPC). Two independent members A and
// B (not a cluster: each holds a marker key, so a read tells which one answered).
import * as assert from 'assert';
import * as fs from 'fs';
import { GrpcEtcd } from '../../src/etcd-client/grpc-etcd';
import { spawnEtcd, type SpawnedEtcd } from '../../src/etcd-client/etcd-process';
import { EtcdError } from '../../src/engine/etcd/kv';
import { freePort } from '../harness/free-port';

async function marker(url: string, name: string): Promise<void> {
  const e = await GrpcEtcd.connect({ endpoints: [url] });
  await e.txn({ success: [{ requestPut: { key: 'member', value: name } }] });
  e.close();
}

/**
 * SIGSTOP, then waits until every thread of `pid` is stopped (state T in /proc): kill() only queues
 * the signal, and a thread still running could answer a request sent right after.
 */
async function freeze(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  const stopped = (): boolean =>
    fs.readdirSync(`/proc/${pid}/task`).every((task) => {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      return /^\S+ \(.*\) [tT] /.test(stat);
    });
  for (let i = 0; i < 1000 && !stopped(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(stopped(), `etcd ${pid} did not stop`);
}

async function whoAnswers(etcd: GrpcEtcd): Promise<string> {
  return (await etcd.range({ key: 'member' })).kvs[0]?.value ?? '';
}

describe('GrpcEtcd endpoint failover', function () {
  let a: SpawnedEtcd;
  let b: SpawnedEtcd;
  let names: Map<string, string>;

  beforeEach(async () => {
    [a, b] = await Promise.all([spawnEtcd(), spawnEtcd()]);
    await marker(a.clientURLs[0], 'A');
    await marker(b.clientURLs[0], 'B');
    names = new Map([
      [a.clientURLs[0], 'A'],
      [b.clientURLs[0], 'B'],
    ]);
  });

  afterEach(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const memberOf = (url: string) => (url === a.clientURLs[0] ? a : b);

  it('a dead endpoint first: connect reaches the live one and calls go there', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const etcd = await GrpcEtcd.connect({ endpoints: [dead, a.clientURLs[0]] });
    try {
      assert.strictEqual(etcd.activeEndpoint, a.clientURLs[0]);
      assert.strictEqual(await whoAnswers(etcd), 'A');
      const w = await etcd.txn({ success: [{ requestPut: { key: 'k', value: 'v' } }] });
      assert.ok(w.header.revision > 0);
    } finally {
      etcd.close();
    }
  });

  it('no endpoint reachable: connect fails after the dial timeout', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    await assert.rejects(GrpcEtcd.connect({ endpoints: [dead], dialTimeoutMs: 300 }), {
      message: `etcd: no member answered at ${dead} within 300 ms (context deadline exceeded)`,
    });
  });

  it('the pinned member is gone: a write (never sent) and a read go to the other one', async () => {
    const etcd = await GrpcEtcd.connect({ endpoints: [a.clientURLs[0], b.clientURLs[0]] });
    try {
      const first = etcd.activeEndpoint;
      const other = first === a.clientURLs[0] ? b.clientURLs[0] : a.clientURLs[0];
      assert.strictEqual(await whoAnswers(etcd), names.get(first));
      await memberOf(first).stop();
      await etcd.txn({ success: [{ requestPut: { key: 'moved', value: 'yes' } }] });
      assert.strictEqual(etcd.activeEndpoint, other, 'the write was retried on the other member');
      assert.strictEqual(await whoAnswers(etcd), names.get(other));
      assert.strictEqual((await etcd.range({ key: 'moved' })).kvs[0].value, 'yes');
      await memberOf(first).stop();
      assert.strictEqual(await whoAnswers(etcd), names.get(other));
      await memberOf(other).stop();
      await assert.rejects(etcd.range({ key: 'member' }), (e: unknown) => {
        assert.ok(e instanceof EtcdError);
        assert.strictEqual(e.codeName, 'Unavailable');
        return true;
      });
    } finally {
      etcd.close();
    }
  });

  it('a write in flight when its member dies is not retried: the caller gets Unavailable', async () => {
    const etcd = await GrpcEtcd.connect({ endpoints: [a.clientURLs[0], b.clientURLs[0]] });
    try {
      const pinned = memberOf(etcd.activeEndpoint);
      const otherName = names.get(pinned === a ? b.clientURLs[0] : a.clientURLs[0]);
      // Frozen, the member reads nothing but the kernel takes the request: it is sent, unanswered.
      await freeze(pinned.pid);
      const write = etcd.txn({ success: [{ requestPut: { key: 'lost?', value: 'x' } }] });
      const read = etcd.range({ key: 'member' });
      await new Promise((r) => setTimeout(r, 300));
      process.kill(pinned.pid, 'SIGKILL');
      await assert.rejects(write, (e: unknown) => {
        assert.ok(e instanceof EtcdError);
        assert.strictEqual(e.codeName, 'Unavailable');
        assert.match(e.message, /^rpc error: code = Unavailable desc = /);
        return true;
      });
      assert.strictEqual((await read).kvs[0].value, otherName, 'the read was retried');
      const other = await GrpcEtcd.connect({ endpoints: [etcd.activeEndpoint] });
      assert.strictEqual((await other.range({ key: 'lost?' })).count, 0, 'never written there');
      other.close();
    } finally {
      etcd.close();
    }
  });
});
