// Tests for src/run/views/list-at-time.ts with the steps src/run/fold/lists.ts keeps: a consistent
// read that waits 3 s for a lagging watch cache and falls back to etcd (read-your-writes), its
// figures at moments before it is sent, while it waits, after the fallback and once answered.
import * as assert from 'assert';
import { listFiguresAt, type ListFigures } from '../../../../src/run/views/list-at-time';
import { runScenario } from '../../../../src/scenarios/runner';
import type { ListRecord } from '../../../../src/run/run-model';

type Seen = Pick<ListFigures, 'progress' | 'servedBy' | 'fetched' | 'returned'> & {
  rule?: 'decided' | 'fell back';
  etcd: string;
  waits: number;
  waiting: boolean;
  fallbacks: number;
  answered: boolean;
};

function seen(f: ListFigures): Seen {
  return {
    progress: f.progress,
    servedBy: f.servedBy,
    fetched: f.fetched,
    returned: f.returned,
    rule: f.rule === undefined ? undefined : /fell back/.test(f.rule) ? 'fell back' : 'decided',
    // Each etcd request sent by then, with "…" while its answer was still to come.
    etcd: f.etcdRequests.map((r) => `${r.operation}${r.answered ? '' : '…'}`).join(' '),
    waits: f.waits.length,
    waiting: f.waiting !== undefined,
    fallbacks: f.fallbacks.length,
    answered: f.answered,
  };
}

describe('listFiguresAt', () => {
  let list: ListRecord;
  before(async function () {
    this.timeout(120_000);
    const { model } = await runScenario('read-your-writes', { cacheLagMs: 4000, readers: 1 });
    const fellBack = model.lists.find((l) => l.fallbacks.some((f) => /fell back/.test(f)));
    assert.ok(fellBack, 'a read fell back to etcd');
    list = fellBack;
  });

  it('shows at each moment only what was true by then', () => {
    const wait = list.waits[0];
    const fallbackAt = wait.at + wait.waitedMs;
    const listCall = list.etcdRequests.find((r) => r.operation === 'list');
    assert.ok(listCall && list.endedAt !== undefined, 'the fallback read etcd and was answered');
    assert.ok(listCall.at === fallbackAt && listCall.latencyMs > 0, 'etcd answers it later');
    const notYet: Seen = {
      progress: 'future',
      servedBy: undefined,
      fetched: undefined,
      returned: undefined,
      rule: undefined,
      etcd: '',
      waits: 0,
      waiting: false,
      fallbacks: 0,
      answered: false,
    };
    const waiting: Seen = {
      ...notYet,
      progress: 'running',
      servedBy: 'cache',
      rule: 'decided',
      etcd: 'get',
      waiting: true,
    };
    const cases: Array<[string, number, Seen]> = [
      ['before it is sent', list.at - 1, notYet],
      ['while it waits for the cache', wait.at + 1, waiting],
      // The fallback's read is sent; what it answers, and the rule's "fell back", come with it.
      [
        'as the wait times out',
        fallbackAt,
        { ...waiting, etcd: 'get list…', waiting: false, waits: 1 },
      ],
      [
        'etcd answered the fallback',
        listCall.at + listCall.latencyMs,
        {
          ...waiting,
          servedBy: 'etcd',
          rule: 'fell back',
          etcd: 'get list',
          waiting: false,
          waits: 1,
          fallbacks: 1,
          fetched: list.fetched,
          returned: list.returned,
          progress: listCall.at + listCall.latencyMs < list.endedAt ? 'running' : 'done',
          answered: listCall.at + listCall.latencyMs >= list.endedAt,
        },
      ],
      [
        'answered',
        list.endedAt,
        {
          progress: 'done',
          servedBy: 'etcd',
          fetched: list.fetched,
          returned: list.returned,
          rule: 'fell back',
          etcd: 'get list',
          waits: 1,
          waiting: false,
          fallbacks: 1,
          answered: true,
        },
      ],
    ];
    for (const [name, at, want] of cases)
      assert.deepStrictEqual(seen(listFiguresAt(list, at)), want, `${name} (at ${at})`);
  });

  it('a LIST sent before the etcd call of its fallback: that call is not counted yet', () => {
    const listCall = list.etcdRequests.find((r) => r.operation === 'list');
    assert.ok(listCall);
    const before = listFiguresAt(list, listCall.at - 1);
    assert.strictEqual(before.etcdRequests.length, list.etcdRequests.length - 1);
  });
});
