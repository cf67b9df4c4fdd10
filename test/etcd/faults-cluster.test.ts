// The fault tests' three-member cluster (harness/etcd-cluster.ts) checked with etcdctl alone: it
// serves, it elects a new leader when its leader is SIGKILLed, a restarted member rejoins. No
// upstream counterpart.
import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import { EtcdCluster } from './harness/etcd-cluster';

function etcdctl(endpoints: string[], ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      '/usr/bin/etcdctl',
      [`--endpoints=${endpoints.join(',')}`, '--command-timeout=5s', ...args],
      { env: { ...process.env, ETCDCTL_API: '3' } },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}: ${stderr}`)) : resolve(stdout),
    ),
  );
}

describe('etcd cluster harness (three members on loopback)', function () {
  this.timeout(120000);
  let cluster: EtcdCluster | undefined;

  afterEach(async () => {
    await cluster?.stop();
  });

  it('serves, elects a new leader after SIGKILL, and a restarted member rejoins', async () => {
    cluster = await EtcdCluster.start();
    const urls = cluster.clientURLs;
    assert.strictEqual(urls.length, 3);
    await etcdctl(urls, 'put', '/k', 'v1');
    assert.strictEqual(await etcdctl(urls, 'get', '/k', '--print-value-only'), 'v1\n');

    const leader = await cluster.waitHealthy();
    await cluster.kill(leader);
    assert.strictEqual(cluster.running(leader), false);
    const next = await cluster.waitHealthy();
    assert.notStrictEqual(next, leader, 'a new leader among the survivors');
    const survivors = urls.filter((_, i) => i !== leader);
    await etcdctl(survivors, 'put', '/k', 'v2');

    cluster.restart(leader);
    await cluster.waitHealthy();
    // The restarted member catches up from its WAL and the new leader: a serializable read of it alone.
    for (;;) {
      const v = await etcdctl([urls[leader]], 'get', '/k', '--print-value-only', '--consistency=s');
      if (v === 'v2\n') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const statuses = await cluster.statuses();
    assert.strictEqual(statuses.length, 3);

    const dirs = [0, 1, 2].map((i) => cluster!.info(i).dataDir);
    await cluster.stop();
    cluster = undefined;
    for (const d of dirs) assert.strictEqual(fs.existsSync(d), false, `${d} removed`);
  });
});
