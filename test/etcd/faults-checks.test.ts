// The fault tests' checks (harness/fault-workload.ts) on an in-memory etcd with no fault: the load
// passes them, and each check fails when the record it reads is broken the way a lost, repeated,
// reordered or phantom event, or a lost write, would break it. No upstream counterpart.
import * as assert from 'assert';
import { createResource } from '../../src/engine/apiserver';
import { RealClock } from '../../src/engine/clock';
import { MemoryEtcd } from '../../src/engine/etcd/memory-etcd';
import { SeededRandom } from '../../src/engine/rand';
import {
  checkFaultLoad,
  runFaultLoad,
  sleep,
  type FaultLoadResult,
} from './harness/fault-workload';

describe('fault checks (in-memory etcd, no fault)', function () {
  this.timeout(60000);
  let run: FaultLoadResult;

  before(async () => {
    const clock = new RealClock();
    const resource = createResource({
      clock,
      rand: new SeededRandom(1),
      etcd: new MemoryEtcd({ clock }),
    });
    resource.start();
    await resource.waitReady();
    try {
      run = await runFaultLoad({ resource, seed: 1, fault: () => sleep(10), log: () => {} });
    } finally {
      resource.stop();
    }
  });

  it('an unfaulted run passes every check', () => {
    assert.deepStrictEqual(checkFaultLoad(run), []);
    assert.ok(run.log.acked.length > 50, `${run.log.acked.length} writes`);
    assert.ok(run.lists.length > 0 && run.lists.every((l) => l.error === undefined));
  });

  // Each case breaks a copy of the run; the checks must name it.
  const cases: { name: string; breakIt: (r: FaultLoadResult) => void; want: RegExp }[] = [
    {
      name: 'a lost event',
      breakIt: (r) => r.informers[0].segments[0].events.splice(3, 1),
      want: /seen 0 times/,
    },
    {
      name: 'a repeated event',
      breakIt: (r) => {
        const ev = r.informers[1].segments[0].events;
        ev.splice(4, 0, ev[4]);
      },
      want: /not strictly increasing/,
    },
    {
      name: 'an event from etcd with the wrong key',
      breakIt: (r) => {
        const e = r.informers[3].segments[0].events[2];
        r.informers[3].segments[0].events[2] = { ...e, key: '/pods/default/nobody' };
      },
      want: /acknowledged/,
    },
    {
      name: 'a relist without a 410',
      breakIt: (r) => {
        const rec = r.informers[2];
        rec.segments.unshift({ ...rec.segments[0], events: [] });
      },
      want: /relisted without a 410/,
    },
    {
      name: 'a lost write in the final LIST',
      breakIt: (r) => r.final.items.splice(1, 1),
      want: /final LIST from etcd at rv \d+: .* should be at/,
    },
    {
      name: 'a paged LIST with a page twice',
      breakIt: (r) => r.lists[0].items.push(r.lists[0].items[0]),
      want: /not strictly ascending/,
    },
  ];
  for (const c of cases)
    it(`finds ${c.name}`, () => {
      const broken = structuredClone(run);
      Object.setPrototypeOf(broken.log, Object.getPrototypeOf(run.log));
      c.breakIt(broken);
      const problems = checkFaultLoad(broken);
      assert.ok(
        problems.some((p) => c.want.test(p)),
        `${c.name}: ${JSON.stringify(problems.slice(0, 5))}`,
      );
    });
});
