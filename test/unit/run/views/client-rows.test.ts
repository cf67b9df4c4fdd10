// Tests for src/extension/panel/client-rows.ts (the Clients tab's clients/query answers) and the
// panel model's leaving the clients out: the most eventful clients first, at most maxClientRows,
// searched by user agent or connection.
import * as assert from 'assert';
import { clientRows } from '../../../../src/extension/panel/client-rows';
import { panelModel } from '../../../../src/extension/panel/panel-model';
import { maxClientRows } from '../../../../src/protocol';
import type { ClientRecord, ClientRequest, RunModel } from '../../../../src/run/run-model';

function watch(at: number, o: { expired?: boolean; restart?: boolean } = {}): ClientRequest {
  return {
    kind: 'watch',
    at,
    requestId: at,
    request: '/api/v1/pods?watch=true',
    resourceVersion: '',
    states: [],
    received: 0,
    lastRv: 0,
    ...(o.expired ? { end: { at, how: 'expired' as const, text: '410 Expired' } } : {}),
    ...(o.restart ? { restart: { after: 0, fromLastRv: false } } : {}),
  };
}

function client(name: string, connection: string, requests: ClientRequest[]): ClientRecord {
  return {
    id: `${name} · ${connection}`,
    client: name,
    connection,
    firstAt: 0,
    requests,
    chains: [],
  };
}

function model(clients: ClientRecord[]): RunModel {
  return {
    header: {
      format: 'listwatch-trace',
      version: 2,
      scenario: 'x',
      profile: '1.36',
      seed: 0,
      params: {},
    },
    durationMs: 1000,
    watchers: [],
    capacity: [],
    resourceVersions: [],
    serialization: {
      encodes: 0,
      hits: 0,
      lazyDeepCopies: 0,
      invalidations: 0,
      perIdentifier: {},
      perEvent: [],
    },
    lists: [],
    metrics: {},
    metricsText: '',
    rejected: { count: 0, samples: [] },
    clients,
  };
}

describe('clientRows', () => {
  const m = model([
    client('quiet/v1', 'c1', [watch(1)]),
    client('busy/v1', 'c2', [watch(1), watch(2, { restart: true }), watch(3, { restart: true })]),
    client('kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0', 'c3', [watch(1, { expired: true })]),
  ]);
  const cases: Array<{ name: string; search: string; ids: string[]; matching: number }> = [
    {
      name: 'every client, 410s before restarts before requests',
      search: '',
      ids: [
        'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0 · c3',
        'busy/v1 · c2',
        'quiet/v1 · c1',
      ],
      matching: 3,
    },
    {
      name: 'by user agent, any case',
      search: 'KUBECTL',
      ids: ['kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0 · c3'],
      matching: 1,
    },
    { name: 'by connection', search: 'c2', ids: ['busy/v1 · c2'], matching: 1 },
    { name: 'none', search: 'nothing', ids: [], matching: 0 },
  ];
  for (const tc of cases)
    it(tc.name, () => {
      const answer = clientRows(m, tc.search);
      assert.deepStrictEqual(
        [answer.clients.map((c) => c.id), answer.total, answer.matching],
        [tc.ids, 3, tc.matching],
      );
    });

  it(`sends at most ${maxClientRows} clients; the panel model carries only their count`, () => {
    const many = model(
      Array.from({ length: maxClientRows + 50 }, (_, i) => client(`watcher-${i}`, '', [watch(i)])),
    );
    const answer = clientRows(many, '');
    assert.deepStrictEqual(
      [answer.clients.length, answer.total, answer.matching, answer.clients[0].client],
      [maxClientRows, maxClientRows + 50, maxClientRows + 50, 'watcher-0'],
    );
    const slim = panelModel(many);
    assert.ok(!('clients' in slim));
    assert.strictEqual(slim.clientCount, maxClientRows + 50);
  });
});
