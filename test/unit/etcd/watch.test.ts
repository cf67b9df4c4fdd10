// Tests for src/engine/etcd/watch-hub.ts through MemoryEtcd.watch: replay from a revision, live
// events with prevKv, filters, progress notifications (ticker and requestProgress), compacted
// watch cancellation and the syncWatchersLoop pacing.
import * as assert from 'assert';
import { FakeClock, settle } from '../../../src/engine/clock';
import { prefixEnd, type WatchResponse } from '../../../src/engine/etcd/kv';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { SeededRandom } from '../../../src/engine/rand';

/** A compact line per response: "rev: PUT key=value(create/mod/ver) DELETE key | progress | compacted N". */
function describeResponse(r: WatchResponse): string {
  if (r.compactRevision) return `compacted ${r.compactRevision}${r.canceled ? ' canceled' : ''}`;
  if (r.canceled) return `canceled: ${r.cancelReason ?? ''}`;
  if (r.progressNotify) return `${r.header.revision}: progress`;
  return (
    `${r.header.revision}: ` +
    r.events
      .map((e) => {
        const kv = e.kv;
        const prev = e.prevKv ? ` prev=${e.prevKv.value}@${e.prevKv.modRevision}` : '';
        return e.type === 'PUT'
          ? `PUT ${kv.key}=${kv.value}(${kv.createRevision}/${kv.modRevision}/${kv.version})${prev}`
          : `DELETE ${kv.key}@${kv.modRevision}${prev}`;
      })
      .join(', ')
  );
}

function collect(
  etcd: MemoryEtcd,
  req: Parameters<MemoryEtcd['watch']>[0],
): { lines: string[]; responses: WatchResponse[]; cancel: () => void; progress: () => void } {
  const lines: string[] = [];
  const responses: WatchResponse[] = [];
  const w = etcd.watch(req);
  w.onResponse((r) => {
    responses.push(r);
    lines.push(describeResponse(r));
  });
  return { lines, responses, cancel: () => w.cancel(), progress: () => w.requestProgress() };
}

describe('MemoryEtcd watch', () => {
  it('replays history from a start revision, then live events, with prevKv', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    etcd.put('/pods/a', '1'); // 2
    etcd.put('/pods/b', '1'); // 3
    etcd.put('/other', 'x'); // 4
    etcd.put('/pods/a', '2'); // 5
    const w = collect(etcd, {
      key: '/pods/',
      rangeEnd: prefixEnd('/pods/'),
      startRevision: 3,
      prevKv: true,
    });
    assert.deepStrictEqual(w.lines, [], 'nothing is delivered synchronously');
    await settle();
    etcd.delete('/pods/b'); // 6
    await etcd.txn({
      success: [
        { requestPut: { key: '/pods/c', value: '1' } },
        { requestPut: { key: '/pods/a', value: '3' } },
      ],
    }); // 7
    etcd.put('/other', 'y'); // 8: not in range
    await settle();
    assert.deepStrictEqual(w.lines, [
      '5: PUT /pods/b=1(3/3/1), PUT /pods/a=2(2/5/2) prev=1@2',
      '6: DELETE /pods/b@6 prev=1@3',
      '7: PUT /pods/c=1(7/7/1), PUT /pods/a=3(2/7/3) prev=2@5',
    ]);
  });

  it('watches from now by default, single keys, "\\0" ends and filters', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    etcd.put('/a', 'old');
    const cases: [string, Parameters<MemoryEtcd['watch']>[0], string[]][] = [
      ['single key', { key: '/a' }, ['3: PUT /a=new(2/3/2)', '5: DELETE /a@5']],
      [
        'every key >= /b',
        { key: '/b', rangeEnd: '\0' },
        ['4: PUT /b=1(4/4/1)', '6: PUT /c=1(6/6/1)'],
      ],
      [
        'noDelete',
        { key: '/', rangeEnd: '\0', filters: ['noDelete'] },
        ['3: PUT /a=new(2/3/2)', '4: PUT /b=1(4/4/1)', '6: PUT /c=1(6/6/1)'],
      ],
      ['noPut', { key: '/', rangeEnd: '\0', filters: ['noPut'] }, ['5: DELETE /a@5']],
      [
        'future start revision 5',
        { key: '/', rangeEnd: '\0', startRevision: 5 },
        ['5: DELETE /a@5', '6: PUT /c=1(6/6/1)'],
      ],
    ];
    const watchers = cases.map(([, req]) => collect(etcd, req));
    etcd.put('/a', 'new'); // 3
    etcd.put('/b', '1'); // 4
    etcd.delete('/a'); // 5
    etcd.put('/c', '1'); // 6
    await settle();
    cases.forEach(([name, , want], i) => assert.deepStrictEqual(watchers[i].lines, want, name));
  });

  it('cancels a watch whose start revision was compacted, with the compact revision', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    for (let i = 0; i < 5; i++) etcd.put('/k', String(i)); // 2..6
    etcd.compact(4);
    const cases: [string, number, string[]][] = [
      ['below the compaction', 3, ['compacted 4 canceled']],
      ['at the compaction', 4, ['6: PUT /k=2(2/4/3), PUT /k=3(2/5/4), PUT /k=4(2/6/5)']],
      ['negative start', -1, ['canceled: etcdserver: mvcc: required revision has been compacted']],
    ];
    for (const [name, startRevision, want] of cases) {
      const w = collect(etcd, { key: '/k', startRevision });
      await settle();
      assert.deepStrictEqual(w.lines, want, name);
    }
    const w = collect(etcd, { key: '/k', startRevision: 3 });
    await settle();
    assert.strictEqual(
      w.responses[0].header.revision,
      0,
      'the compacted response has no header revision (etcd leaves it 0)',
    );
    etcd.put('/k', 'after');
    await settle();
    assert.strictEqual(w.lines.length, 1, 'a canceled watch receives nothing more');
  });

  it("cancels a watch on an empty range (rangeEnd at or before its key) with mvcc's reason", async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    etcd.put('/b', '1'); // 2
    const empty = collect(etcd, { key: '/b', rangeEnd: '/a' });
    const same = collect(etcd, { key: '/b', rangeEnd: '/b' });
    const fromKey = collect(etcd, { key: '/b', rangeEnd: '\0', startRevision: 2 });
    await settle();
    for (const w of [empty, same]) {
      assert.deepStrictEqual(w.lines, ['canceled: mvcc: watcher range is empty']);
      assert.strictEqual(
        w.responses[0].header.revision,
        2,
        'the create answer carries the current revision',
      );
    }
    assert.deepStrictEqual(
      fromKey.lines,
      ['2: PUT /b=1(2/2/1)'],
      'a "\\0" end is every key from /b',
    );
  });

  it('answers requestProgress only for a synced watcher, with the current revision', async () => {
    const clock = new FakeClock();
    const etcd = new MemoryEtcd({ clock, watchSyncIntervalMs: 100 });
    for (let i = 0; i < 3; i++) etcd.put('/k', String(i)); // 2..4
    etcd.put('/other', 'x'); // 5
    const live = collect(etcd, { key: '/k' });
    const behind = collect(etcd, { key: '/k', startRevision: 2 });
    const future = collect(etcd, { key: '/k', startRevision: 10 });
    live.progress();
    behind.progress(); // unsynced: dropped (progressIfSync)
    future.progress(); // start revision not reached: dropped
    await settle();
    assert.deepStrictEqual(live.lines, ['5: progress']);
    assert.deepStrictEqual(behind.lines, [], 'no progress before the replay');
    assert.deepStrictEqual(future.lines, []);
    await clock.stepAsync(100); // syncWatchersLoop catches the watcher up
    behind.progress();
    await settle();
    assert.deepStrictEqual(behind.lines, [
      '5: PUT /k=0(2/2/1), PUT /k=1(2/3/2), PUT /k=2(2/4/3)',
      '5: progress',
    ]);
  });

  it('sends a progress notification every interval unless events were sent since the last tick', async () => {
    const clock = new FakeClock();
    const etcd = new MemoryEtcd({ clock, progressNotifyIntervalMs: 1000 });
    const w = collect(etcd, { key: '/k', progressNotify: true });
    const quiet = collect(etcd, { key: '/k' });
    await clock.stepAsync(1000);
    assert.deepStrictEqual(w.lines, ['1: progress'], 'first tick');
    await clock.stepAsync(500);
    etcd.put('/k', 'v'); // 2, at 1500
    await clock.stepAsync(500); // tick at 2000: an event went out since 1000, so no progress
    assert.deepStrictEqual(w.lines, ['1: progress', '2: PUT /k=v(2/2/1)']);
    await clock.stepAsync(1000); // tick at 3000
    etcd.put('/unwatched', 'x'); // 3
    await clock.stepAsync(1000); // tick at 4000
    assert.deepStrictEqual(w.lines, [
      '1: progress',
      '2: PUT /k=v(2/2/1)',
      '2: progress',
      '3: progress',
    ]);
    assert.deepStrictEqual(
      quiet.lines,
      ['2: PUT /k=v(2/2/1)'],
      'no progress without progressNotify',
    );
    w.cancel();
    await clock.stepAsync(5000);
    assert.strictEqual(w.lines.length, 4, 'no ticks after cancel');
  });

  it('adds seeded jitter to the progress interval (interval + rand(interval/10))', async () => {
    const times = (seed: number) => {
      const clock = new FakeClock();
      const etcd = new MemoryEtcd({
        clock,
        progressNotifyIntervalMs: 10_000,
        rand: new SeededRandom(seed),
      });
      const at: number[] = [];
      etcd.watch({ key: '/k', progressNotify: true }).onResponse(() => at.push(clock.now()));
      return { clock, at };
    };
    const a = times(7);
    const b = times(7);
    for (const t of [a, b]) for (let i = 0; i < 30; i++) await t.clock.stepAsync(1000);
    assert.deepStrictEqual(a.at, b.at, 'same seed, same times');
    assert.strictEqual(a.at.length, 2);
    const interval = a.at[0];
    assert.ok(
      interval >= 10_000 && interval < 11_000,
      `interval ${interval} within [10000, 11000)`,
    );
    assert.strictEqual(a.at[1], 2 * interval, 'fixed for the stream');
  });

  it('replays long histories in batches of at most 1000 revisions', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    for (let i = 0; i < 2500; i++) etcd.put(`/k/${i % 7}`, String(i)); // revisions 2..2501
    const w = collect(etcd, { key: '/k/', rangeEnd: prefixEnd('/k/'), startRevision: 2 });
    await settle();
    assert.deepStrictEqual(
      w.responses.map((r) => r.events.length),
      [1000, 1000, 500],
    );
    assert.deepStrictEqual(
      w.responses.map((r) => r.header.revision),
      [2501, 2501, 2501],
    );
    assert.strictEqual(w.responses[1].events[0].kv.modRevision, 1002);
  });

  it('also delivers through async iteration and ends after cancel', async () => {
    const etcd = new MemoryEtcd({ clock: new FakeClock() });
    const w = etcd.watch({ key: '/k' });
    etcd.put('/k', '1');
    etcd.put('/k', '2');
    const got: string[] = [];
    const done = (async () => {
      for await (const r of w) {
        got.push(describeResponse(r));
        if (got.length === 3) w.cancel();
      }
    })();
    await settle();
    etcd.put('/k', '3');
    await done;
    assert.deepStrictEqual(got, ['2: PUT /k=1(2/2/1)', '3: PUT /k=2(2/3/2)', '4: PUT /k=3(2/4/3)']);
    assert.strictEqual(w.canceled, true);
    assert.strictEqual(etcd.stats().watchers, 0);
    assert.throws(() => {
      w.onResponse(() => undefined);
      w.onResponse(() => undefined);
    }, /onResponse was already called/);
  });
});
