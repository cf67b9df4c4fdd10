// The etcd suite's harness: a case's own writes (the unrecorded client) hold virtual time as the
// store's calls do. No upstream counterpart.
import * as assert from 'assert';
import { FakeClock } from '../../src/engine/clock';
import { MemoryEtcd } from '../../src/engine/etcd/memory-etcd';
import { drive } from '../unit/storagetesting/store-under-test';
import { IOAwareFakeClock, NamespacedEtcd } from './harness/namespaced-etcd';

/** Real ms an admin write takes here: many 10 ms virtual steps, had time been let run. */
const slowWriteMs = 300;

describe('NamespacedEtcd', () => {
  it("holds virtual time while a case's own put, delete and compact are answered", async () => {
    const member = new MemoryEtcd({ clock: new FakeClock() });
    const later = <T>(f: () => T): Promise<T> =>
      new Promise((resolve) => setTimeout(() => resolve(f()), slowWriteMs));
    const admin = {
      put: (key: string, value: string) => later(() => member.put(key, value)),
      delete: (key: string) => later(() => member.delete(key)),
      compact: (revision: number) => later(() => member.compact(revision)),
    };
    const clock = new IOAwareFakeClock();
    const view = new NamespacedEtcd(member, admin, '/case-1', 0, clock);
    clock.quiet = () => view.settle();

    assert.strictEqual(await drive(clock, view.put('/a', 'x')), 2);
    assert.strictEqual(await drive(clock, view.put('/b', 'y')), 3);
    await drive(clock, view.delete('/a'));
    await drive(clock, view.compact(2));
    // drive takes one 10 ms step once the answer is in, and none while it is awaited.
    assert.ok(clock.now() <= 4 * 10, `virtual time ran to ${clock.now()} ms while etcd answered`);
  });
});
