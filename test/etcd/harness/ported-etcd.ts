// The real etcd the ported store and watch suites run on in the etcd suite: one Debian etcd 3.4
// per test file (spawnEtcd: loopback, a free port, a fresh data directory), one GrpcEtcd for the
// stores and one for the cases' own writes, and for every case a NamespacedEtcd view of it that
// starts at revision 1, on a FakeClock that waits for real I/O. No upstream counterpart: upstream
// starts an embedded etcd per test (testserver.RunEtcd), too slow for hundreds of cases here.
import { GrpcEtcd } from '../../../src/etcd-client/grpc-etcd';
import { spawnEtcd, type SpawnedEtcd } from '../../../src/etcd-client/etcd-process';
import type { EtcdUnderTest, OpenEtcdOptions, OpenedEtcd } from '../../harness/etcd-under-test';
import { IOAwareFakeClock, NamespacedEtcd, type AdminClient } from './namespaced-etcd';

/** A shared etcd for the cases `register` adds, started before them and stopped after. */
export function describeOverRealEtcd(title: string, register: (etcd: EtcdUnderTest) => void): void {
  describe(title, function () {
    const real = new RealEtcd();
    before(async function () {
      // Waiting for etcd to start (and elect itself) is bounded by etcd, not by the test.
      this.timeout(60_000);
      await real.start();
    });
    beforeEach(() => real.caseStarts());
    afterEach(() => real.caseEnds());
    after(() => real.stop());
    register(real);
  });
}

class RealEtcd implements EtcdUnderTest {
  readonly kind = 'grpc' as const;
  private spawned: SpawnedEtcd | undefined;
  private member: GrpcEtcd | undefined;
  private admin: GrpcEtcd | undefined;
  private cases = 0;
  /** Views opened by a running case, closed after it; those of `before` hooks last the file. */
  private readonly caseViews = new Set<NamespacedEtcd>();
  private readonly suiteViews = new Set<NamespacedEtcd>();
  private inCase = false;

  async start(): Promise<void> {
    this.spawned = await spawnEtcd();
    const endpoints = this.spawned.clientURLs;
    this.member = await GrpcEtcd.connect({ endpoints });
    this.admin = await GrpcEtcd.connect({ endpoints });
  }

  async open(o: OpenEtcdOptions = {}): Promise<OpenedEtcd> {
    if (o.rangeStream === 'supported')
      throw new Error('RangeStream is etcd 3.7: the etcd suite runs Debian etcd 3.4');
    if (o.progressNotifyIntervalMs !== undefined)
      throw new Error('a real etcd ticks progress on its own clock, not in virtual time');
    const member = this.member as GrpcEtcd;
    const admin = this.admin as GrpcEtcd;
    // Any answer carries the current revision: view revision 1 is it.
    const head = (await admin.range({ key: '\0', rangeEnd: '\0', countOnly: true })).header
      .revision;
    const clock = new IOAwareFakeClock(o.clockStartMs);
    const view = new NamespacedEtcd(
      member,
      adminClient(admin),
      `/ported-${++this.cases}`,
      head - 1,
      clock,
    );
    clock.quiet = () => view.settle();
    (this.inCase ? this.caseViews : this.suiteViews).add(view);
    return { clock, etcd: view, memory: undefined, settle: (turns) => view.settle(turns) };
  }

  caseStarts(): void {
    this.inCase = true;
  }

  /** After each case: its watches end, so nothing of it reaches the next one. */
  caseEnds(): void {
    this.inCase = false;
    for (const v of this.caseViews) v.close();
    this.caseViews.clear();
  }

  async stop(): Promise<void> {
    this.caseEnds();
    for (const v of this.suiteViews) v.close();
    this.member?.close();
    this.admin?.close();
    await this.spawned?.stop();
  }
}

function adminClient(admin: GrpcEtcd): AdminClient {
  return {
    put: async (key, value) =>
      (await admin.txn({ success: [{ requestPut: { key, value } }] })).header.revision,
    delete: async (key) => (await admin.deleteRange({ key })).header.revision,
    compact: async (revision) => {
      await admin.compaction({ revision });
    },
  };
}
