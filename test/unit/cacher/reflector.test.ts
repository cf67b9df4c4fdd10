// Tests for src/engine/cacher/reflector.ts: ports of ready_test.go and progress/watch_progress_test.go
// (k8s.io/apiserver pkg/storage/cacher, release-1.36), and the reflector as the cacher runs it
// (client-go reflector.go: paged list, watch from the list RV, UpdateResourceVersion per event,
// relist on errors), over a MockStorage and a FakeClock.
import * as assert from 'assert';
import { FakeClock, settle } from '../../../src/engine/clock';
import {
  newResourceExpired,
  newInternalError,
  type Status,
} from '../../../src/engine/storage/errors';
import type { ListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import {
  ConditionalProgressRequester,
  Ready,
  Reflector,
  progressRequestPeriod,
  storageWatchListPageSize,
  type ReflectorStore,
} from '../../../src/engine/cacher/reflector';
import { MockStorage, MockWatch, makeTestPod } from './cacher-testing';

describe('ready (ready.go)', () => {
  it('Test_newReady / Test_newReadyStop / Test_newReadyCancelPending: waiters', async () => {
    const cases: Array<{
      name: string;
      end: (r: Ready, abort: AbortController) => void;
      wantOk: boolean;
      wantMessage?: string;
    }> = [
      { name: 'setReady releases them', end: (r) => r.setReady(), wantOk: true },
      {
        name: 'stop fails them',
        end: (r) => r.stop(),
        wantOk: false,
        wantMessage: 'apiserver cacher is stopped',
      },
      {
        name: 'a cancelled context fails them',
        end: (_r, a) => a.abort(),
        wantOk: false,
        wantMessage: 'context canceled',
      },
    ];
    for (const c of cases) {
      const ready = new Ready(new FakeClock());
      ready.setError(undefined);
      const abort = new AbortController();
      const results: Array<string> = [];
      for (let i = 0; i < 10; i++)
        ready.wait(abort.signal).then(
          () => results.push('ok'),
          (e: Error) => results.push(e.message),
        );
      await settle();
      assert.strictEqual(results.length, 0, `${c.name}: blocking while pending`);
      c.end(ready, abort);
      await settle();
      assert.deepStrictEqual(results, new Array(10).fill(c.wantOk ? 'ok' : c.wantMessage), c.name);
    }
  });

  it('Test_newReadySetIdempotent: generations count transitions to Ready', () => {
    const ready = new Ready(new FakeClock());
    ready.setError(undefined);
    ready.setError(undefined);
    assert.deepStrictEqual(
      [ready.checkAndReadGeneration().generation, ready.check().error !== undefined],
      [0, true],
    );
    ready.setReady();
    assert.deepStrictEqual(
      [ready.checkAndReadGeneration().generation, ready.check().error],
      [1, undefined],
    );
    ready.setReady();
    ready.setReady();
    assert.strictEqual(ready.checkAndReadGeneration().generation, 1);
    ready.setError(undefined);
    ready.setReady();
    assert.strictEqual(ready.checkAndReadGeneration().generation, 2);
  });

  it('Test_newReadyCheck: Stopped is final', async () => {
    const ready = new Ready(new FakeClock());
    assert.ok(ready.check().error);
    ready.setReady();
    assert.strictEqual(ready.check().error, undefined);
    ready.stop();
    assert.ok(ready.check().error);
    ready.setReady();
    assert.strictEqual(ready.check().error?.message, 'apiserver cacher is stopped');
    await assert.rejects(ready.wait(), /apiserver cacher is stopped/);
  });

  it('Test_newReadyStateChangeTimestamp: downtime is the time since the last state change', async () => {
    const clock = new FakeClock(5);
    const ready = new Ready(clock);
    const steps: Array<{ action?: (r: Ready) => void; step: number; want: number }> = [
      { step: 60_000, want: 60_000 },
      { action: (r) => r.setReady(), step: 60_000, want: 60_000 },
      { step: 60_000, want: 120_000 },
      { action: (r) => r.setError(undefined), step: 60_000, want: 60_000 },
      { step: 60_000, want: 120_000 },
      { action: (r) => r.setReady(), step: 60_000, want: 60_000 },
      { action: (r) => r.stop(), step: 60_000, want: 60_000 },
      { step: 60_000, want: 120_000 },
    ];
    for (const [i, s] of steps.entries()) {
      s.action?.(ready);
      clock.step(s.step);
      assert.strictEqual(ready.check().downtime, s.want, `step ${i}`);
    }
  });

  it('TestReadyError: the messages', () => {
    const ready = new Ready(new FakeClock());
    assert.strictEqual(
      ready.checkAndReadGeneration().error?.message,
      'storage is (re)initializing',
    );
    ready.setError(new Error('etcd is down'));
    assert.strictEqual(
      ready.checkAndReadGeneration().error?.message,
      'storage is (re)initializing: etcd is down',
    );
    ready.setError(undefined);
    assert.strictEqual(
      ready.checkAndReadGeneration().error?.message,
      'storage is (re)initializing',
    );
  });
});

describe('ConditionalProgressRequester (progress/watch_progress.go)', () => {
  it('TestConditionalProgressRequester: a request per period only while someone waits, none after stop', async () => {
    const clock = new FakeClock();
    let sent = 0;
    const pr = new ConditionalProgressRequester(() => sent++, clock);
    pr.run();
    await clock.stepAsync(progressRequestPeriod * 2);
    assert.strictEqual(sent, 0, 'no progress requests if no-one is waiting');
    pr.add();
    await settle();
    assert.strictEqual(sent, 1, 'adding a waiter sends one at once (the timer already fired)');
    let want = 1;
    while (want < 10) {
      await clock.stepAsync(progressRequestPeriod);
      want++;
      assert.strictEqual(sent, want, `periodic request ${want}`);
    }
    pr.remove();
    await clock.stepAsync(progressRequestPeriod * 2);
    assert.strictEqual(sent, want, 'none once nobody waits');
    pr.stop();
    pr.add();
    await clock.stepAsync(progressRequestPeriod * 2);
    assert.strictEqual(sent, want, 'none after stop');
  });
});

/** A store recording what the reflector does to it. */
function recordingStore(): ReflectorStore & { log: string[] } {
  const log: string[] = [];
  const name = (o: KubeObject) => `${o.metadata.name}@${o.metadata.resourceVersion}`;
  return {
    log,
    replace: (objs, rv) => log.push(`replace [${objs.map(name).join(',')}] @${rv}`),
    add: (o) => log.push(`add ${name(o)}`),
    update: (o) => log.push(`update ${name(o)}`),
    delete: (o) => log.push(`delete ${name(o)}`),
    updateResourceVersion: (rv) => log.push(`rv ${rv}`),
  };
}

describe('Reflector (client-go reflector.go as the cacher runs it)', () => {
  it('lists in pages of storageWatchListPageSize (10000), following continue tokens, then watches from the list RV', async () => {
    assert.strictEqual(storageWatchListPageSize, 10000);
    const clock = new FakeClock();
    const storage = new MockStorage();
    const asked: Array<{ limit: number; cont: string; rv: string }> = [];
    storage.getListFn = (_key, opts: ListOptions) => {
      asked.push({
        limit: opts.predicate.limit,
        cont: opts.predicate.continue,
        rv: opts.resourceVersion,
      });
      if (opts.predicate.continue === '')
        return {
          items: [makeTestPod('a', 3), makeTestPod('b', 4)],
          resourceVersion: '10',
          continue: 'page2',
        };
      return { items: [makeTestPod('c', 5)], resourceVersion: '10' };
    };
    let watchRV = '';
    storage.watchFn = (_key, opts) => {
      watchRV = opts.resourceVersion ?? '';
      const w = new MockWatch(storage);
      w.add(makeTestPod('d', 11));
      w.send({ type: 'MODIFIED', object: makeTestPod('d', 12), resourceVersion: 12 });
      w.send({
        type: 'BOOKMARK',
        object: { metadata: { resourceVersion: '15' } },
        resourceVersion: 15,
      });
      w.send({ type: 'DELETED', object: makeTestPod('d', 16), resourceVersion: 16 });
      return w;
    };
    const store = recordingStore();
    const r = new Reflector({
      storage,
      resourcePrefix: '/pods',
      store,
      clock,
      groupResource: { group: '', resource: 'pods' },
    });
    const done = r.listAndWatch();
    await settle();
    assert.deepStrictEqual(asked, [
      { limit: 10000, cont: '', rv: '' },
      { limit: 10000, cont: 'page2', rv: '' },
    ]);
    assert.strictEqual(watchRV, '10');
    assert.deepStrictEqual(store.log, [
      'replace [a@3,b@4,c@5] @10',
      'add d@11',
      'rv 11',
      'update d@12',
      'rv 12',
      'rv 15',
      'delete d@16',
      'rv 16',
    ]);
    assert.strictEqual(r.lastSyncResourceVersion, '16');
    r.stop();
    assert.strictEqual(await done, undefined);
  });

  it('an expired continue page falls back to one full list (pager FullListIfExpired)', async () => {
    const storage = new MockStorage();
    const asked: string[] = [];
    storage.getListFn = (_key, opts: ListOptions) => {
      asked.push(`limit=${opts.predicate.limit} continue=${opts.predicate.continue}`);
      if (opts.predicate.continue === 'stale')
        throw newResourceExpired('The provided continue parameter is too old');
      if (opts.predicate.limit === 0)
        return { items: [makeTestPod('a', 3), makeTestPod('b', 9)], resourceVersion: '20' };
      return { items: [makeTestPod('a', 3)], resourceVersion: '10', continue: 'stale' };
    };
    const store = recordingStore();
    const r = new Reflector({
      storage,
      resourcePrefix: '/pods',
      store,
      clock: new FakeClock(),
      groupResource: { group: '', resource: 'pods' },
    });
    const done = r.listAndWatch();
    await settle();
    assert.deepStrictEqual(asked, [
      'limit=10000 continue=',
      'limit=10000 continue=stale',
      'limit=0 continue=',
    ]);
    assert.deepStrictEqual(store.log, ['replace [a@3,b@9] @20']);
    r.stop();
    await done;
  });

  it('how a watch ends: 410 and unexpected errors end ListAndWatch (relist), internal errors re-watch for 30s', async () => {
    const cases: Array<{ name: string; end: (w: MockWatch) => void; wantRewatch: boolean }> = [
      {
        name: '410 Expired',
        end: (w) => w.error(newResourceExpired('too old').status),
        wantRewatch: false,
      },
      { name: 'not a Status', end: (w) => w.error(), wantRewatch: false },
      {
        name: 'internal error',
        end: (w) => w.error(newInternalError(new Error('etcd hiccup')).status as Status),
        wantRewatch: true,
      },
    ];
    for (const c of cases) {
      const storage = new MockStorage();
      const store = recordingStore();
      const r = new Reflector({
        storage,
        resourcePrefix: '/pods',
        store,
        clock: new FakeClock(),
        groupResource: { group: '', resource: 'pods' },
      });
      const done = r.listAndWatch();
      await settle();
      storage.watches[0].add(makeTestPod('a', 101));
      c.end(storage.watches[0]);
      await settle();
      assert.strictEqual(storage.watches.length, c.wantRewatch ? 2 : 1, `${c.name}: watches`);
      assert.ok(storage.watches[0].stopped, `${c.name}: the ended watch is stopped`);
      if (c.wantRewatch) {
        r.stop();
      }
      assert.strictEqual(await done, undefined, c.name);
    }
  });

  it('a failing list ends ListAndWatch with `failed to list pods: …`', async () => {
    const storage = new MockStorage({ getListErr: new Error('etcd is down') });
    const r = new Reflector({
      storage,
      resourcePrefix: '/pods',
      store: recordingStore(),
      clock: new FakeClock(),
      groupResource: { group: '', resource: 'pods' },
    });
    const err = await r.listAndWatch();
    assert.strictEqual(err?.message, 'failed to list pods: etcd is down');
  });

  it('pauses while the consumer is blocked and resumes in order', async () => {
    const storage = new MockStorage();
    const store = recordingStore();
    let blocked = false;
    let resume: (() => void) | undefined;
    const r = new Reflector({
      storage,
      resourcePrefix: '/pods',
      store,
      clock: new FakeClock(),
      groupResource: { group: '', resource: 'pods' },
      flowControl: { blocked: () => blocked, onUnblocked: (cb) => (resume = cb) },
    });
    const done = r.listAndWatch();
    await settle();
    const w = storage.watches[0];
    w.add(makeTestPod('a', 101));
    blocked = true;
    w.add(makeTestPod('b', 102));
    w.add(makeTestPod('c', 103));
    assert.deepStrictEqual(store.log.slice(1), ['add a@101', 'rv 101']);
    blocked = false;
    resume?.();
    assert.deepStrictEqual(store.log.slice(1), [
      'add a@101',
      'rv 101',
      'add b@102',
      'rv 102',
      'add c@103',
      'rv 103',
    ]);
    r.stop();
    await done;
  });
});
