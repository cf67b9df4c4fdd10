// Faults survived (issue #14): a three-member etcd cluster loses its leader to SIGKILL while the
// engine's watchers stream, LISTs page and writers write; after the election every stream is
// gap-free and ordered (or ended with a 410 and was relisted), no acknowledged write is lost and
// the cacher's reflector recovers. No upstream counterpart: kube-apiserver's own tests do not kill
// etcd members; etcd's robustness tests (tests/robustness) do, for raw KV traffic.
import * as assert from 'assert';
import type { Resource } from '../../src/engine/apiserver';
import { SeededRandom } from '../../src/engine/rand';
import { GrpcEtcd } from '../../src/etcd-client/grpc-etcd';
import { EtcdCluster, electionTimeoutMs, heartbeatIntervalMs } from './harness/etcd-cluster';
import {
  checkFaultLoad,
  faultSeed,
  type ReflectorEvents,
  runFaultLoad,
  sleep,
} from './harness/fault-workload';
import { engineOverEtcd, logFaultRun } from './harness/engine-over-etcd';

describe('faults: the etcd leader is SIGKILLed under load (three members on loopback)', function () {
  this.timeout(180000);
  const seed = faultSeed();

  /**
   * quorumLostMs: a follower dies with the leader and both restart after that long (longer than
   * the 3 election timeouts after which a member without a leader cancels `hasleader` watches).
   */
  const cases: {
    name: string;
    label: string;
    compactAfterFault: boolean;
    quorumLostMs?: number;
  }[] = [
    { name: 'the leader killed', label: 'leader-kill', compactAfterFault: false },
    {
      name: 'the leader killed, then history compacted under a lagging watch (410, relist)',
      label: 'leader-kill+compact',
      compactAfterFault: true,
    },
    {
      name: 'the leader and a follower killed (quorum lost), both restarted 2 s later',
      label: 'quorum-loss',
      compactAfterFault: false,
      quorumLostMs: 4 * electionTimeoutMs,
    },
  ];
  cases.forEach((c, n) =>
    describe(c.name, () => {
      let cluster: EtcdCluster | undefined;
      let etcd: GrpcEtcd | undefined;
      let resource: Resource<GrpcEtcd> | undefined;

      after(async () => {
        resource?.stop();
        etcd?.close();
        await cluster?.stop();
      });

      it(`every stream gap-free or relisted after a 410, no acknowledged write lost, the cache fresh again (seed ${seed})`, async () => {
        const label = c.label;
        // The test's own choices; runFaultLoad draws the load's timing from the seed itself.
        const rand = new SeededRandom((seed ^ 0x5eed) + n);
        cluster = await EtcdCluster.start();
        const leader = await cluster.waitHealthy();
        // The client dials its first endpoint first: the leader half of the time, so its own
        // connection is the one lost (failover), else a follower's (it survives the election).
        const urls = cluster.clientURLs;
        const leaderFirst = rand.intn(2) === 0;
        const endpoints = leaderFirst
          ? [urls[leader], ...urls.filter((_, i) => i !== leader)]
          : [...urls.filter((_, i) => i !== leader), urls[leader]];
        console.log(
          `${label} seed=${seed}: members ${urls.join(' ')}, leader m${leader}, client endpoints ` +
            `${leaderFirst ? 'leader' : 'a follower'} first; heartbeat ${heartbeatIntervalMs} ms, ` +
            `election timeout ${electionTimeoutMs} ms`,
        );
        etcd = await GrpcEtcd.connect({ endpoints });
        let reflector: ReflectorEvents;
        ({ resource, reflector } = await engineOverEtcd(etcd, urls, `${label} seed=${seed}`, rand));

        let electedAt: number | undefined;
        let newLeader: number | undefined;
        const run = await runFaultLoad({
          resource,
          seed: seed + n,
          compactAfterFault: c.compactAfterFault,
          fault: async () => {
            const killed = [leader];
            if (c.quorumLostMs !== undefined) killed.push((leader + 1) % cluster!.size);
            await Promise.all(killed.map((i) => cluster!.kill(i)));
            if (c.quorumLostMs !== undefined) {
              await sleep(c.quorumLostMs);
              for (const i of killed) cluster!.restart(i);
            }
            newLeader = await cluster!.waitHealthy();
            electedAt = Date.now();
          },
          log: (line) => console.log(`${label} seed=${seed}: ${line}`),
        });
        console.log(
          `${label} seed=${seed}: m${leader} killed, m${newLeader} elected after ` +
            `${(electedAt ?? 0) - run.faultAt} ms; reflector since the kill: ` +
            `${reflector.since(run.faultAt).join(', ') || 'nothing (its watch resumed inside the client)'}`,
        );
        logFaultRun(`${label} seed=${seed}`, run);
        if (c.quorumLostMs === undefined) assert.notStrictEqual(newLeader, leader);
        assert.deepStrictEqual(checkFaultLoad(run).slice(0, 20), []);
      });
    }),
  );
});
