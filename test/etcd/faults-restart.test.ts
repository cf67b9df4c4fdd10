// Faults survived (issue #14): a single etcd restarted under load, killed (SIGKILL) or stopped
// cleanly (SIGTERM), then started again on the same client port and data dir: the same invariants
// as the leader kill (faults-leader-kill.test.ts), and the time to recover printed. No upstream
// counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Resource } from '../../src/engine/apiserver';
import { SeededRandom } from '../../src/engine/rand';
import { spawnEtcd, type SpawnedEtcd } from '../../src/etcd-client/etcd-process';
import { GrpcEtcd } from '../../src/etcd-client/grpc-etcd';
import {
  checkFaultLoad,
  faultSeed,
  type ReflectorEvents,
  runFaultLoad,
  sleep,
} from './harness/fault-workload';
import { engineOverEtcd, logFaultRun } from './harness/engine-over-etcd';

describe('faults: a single etcd restarted under load', function () {
  this.timeout(180000);
  const seed = faultSeed();

  const cases: { name: string; signal: 'SIGKILL' | 'SIGTERM' }[] = [
    { name: 'killed (SIGKILL) and restarted', signal: 'SIGKILL' },
    { name: 'stopped cleanly (SIGTERM) and restarted', signal: 'SIGTERM' },
  ];
  for (const c of cases) {
    describe(c.name, () => {
      let dataDir: string | undefined;
      let member: SpawnedEtcd | undefined;
      let etcd: GrpcEtcd | undefined;
      let resource: Resource<GrpcEtcd> | undefined;

      after(async () => {
        resource?.stop();
        etcd?.close();
        await member?.stop();
        if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      });

      it(`every stream gap-free or relisted after a 410, no acknowledged write lost, the cache fresh again (seed ${seed})`, async () => {
        const label = `restart-${c.signal}`;
        const rand = new SeededRandom(seed ^ 0x7e57);
        // The test owns the data dir: it outlives each etcd process (stop() leaves it).
        dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-etcd-restart-'));
        member = await spawnEtcd({ dataDir });
        const url = member.clientURLs[0];
        const clientPort = Number(new URL(url).port);
        etcd = await GrpcEtcd.connect({ endpoints: [url] });
        let reflector: ReflectorEvents;
        ({ resource, reflector } = await engineOverEtcd(
          etcd,
          [url],
          `${label} seed=${seed}`,
          rand,
        ));

        const downMs = 100 + rand.intn(900);
        let servingAt: number | undefined;
        const run = await runFaultLoad({
          resource,
          seed,
          fault: async () => {
            const old = member!;
            if (c.signal === 'SIGKILL') process.kill(old.pid, 'SIGKILL');
            await old.stop(); // SIGTERM (a no-op after SIGKILL); resolves once it has exited
            member = undefined;
            await sleep(downMs);
            member = await spawnEtcd({ dataDir, clientPort });
            servingAt = Date.now();
          },
          log: (line) => console.log(`${label} seed=${seed}: ${line}`),
        });
        console.log(
          `${label} seed=${seed}: etcd down ${downMs} ms, serving again ${(servingAt ?? 0) - run.faultAt} ms ` +
            `after the ${c.signal}; reflector since: ` +
            `${reflector.since(run.faultAt).join(', ') || 'nothing (its watch resumed inside the client)'}`,
        );
        logFaultRun(`${label} seed=${seed}`, run);
        assert.strictEqual(member?.clientURLs[0], url, 'restarted on the same client URL');
        assert.deepStrictEqual(checkFaultLoad(run).slice(0, 20), []);
      });
    });
  }
});
