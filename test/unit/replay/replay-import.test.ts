// Tests for src/replay/replay-import.ts: imported requests re-issued through the engine in virtual
// time, the log's answers beside the engine's, writes rebuilt or synthesised, object counts
// inferred, watches held for their logged duration, what-ifs, and determinism.
import * as assert from 'assert';
import { compareRuns } from '../../../src/run/compare-runs';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { replayImport, replayToModel, type TraceLine } from '../../../src/replay/replay-import';
import type { ReplayOptions } from '../../../src/replay/replay-options';
import { decodeContinue } from '../../../src/engine/storage/continue';

const t0 = Date.UTC(2025, 2, 12, 10, 15, 0);
const ksm = 'kube-state-metrics/v2.12.0 (linux/amd64)';
let seq = 0;

/** An imported request as an audit importer makes it (Metadata level unless `o` adds more). */
function req(
  verb: string,
  uri: string,
  atS: number | undefined,
  o: Partial<ImportedRequest> = {},
): ImportedRequest {
  const id = `audit-${++seq}`;
  return {
    id,
    auditID: id,
    sources: [{ file: 'audit.log', line: seq, format: 'audit' }],
    verb,
    requestURI: uri,
    userAgent: ksm,
    ...(atS !== undefined
      ? { receivedAt: t0 + atS * 1000, completedAt: t0 + atS * 1000 + 40 }
      : {}),
    startInFile: true,
    endInFile: true,
    code: 200,
    ...o,
  };
}

/** A continue token as the real cluster wrote it (its RV is the real cluster's). */
function logToken(start: string): string {
  return Buffer.from(`{"v":"meta.k8s.io/v1","rv":48213,"start":"${start}\\u0000"}`).toString(
    'base64url',
  );
}

const base: ReplayOptions = { profile: '1.36', seed: 7, files: ['audit.log'] };

/** A paginated chain of `pages` pages of `limit` over `total` pods, as the log tells it. */
function chain(total: number, limit: number, pages: number, code410At?: number): ImportedRequest[] {
  const out: ImportedRequest[] = [];
  for (let p = 0; p < pages; p++) {
    const left = total - p * limit;
    const items = Math.min(limit, left);
    const more = left > limit;
    const uri =
      p === 0
        ? `/api/v1/pods?limit=${limit}`
        : `/api/v1/pods?continue=${logToken(`default/p${p * limit}`)}&limit=${limit}`;
    if (p === code410At) {
      out.push(
        req('list', uri, p, {
          code: 410,
          status: {
            reason: 'Expired',
            message:
              'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
          },
        }),
      );
      continue;
    }
    out.push(
      req('list', uri, p, {
        response: {
          items,
          resourceVersion: '48213',
          ...(more
            ? {
                continue: logToken(`default/p${(p + 1) * limit}`),
                remainingItemCount: left - items,
              }
            : {}),
        },
      }),
    );
  }
  return out;
}

describe('replayImport', () => {
  it("re-issues a chain of 3 pages with the engine's own continue tokens", async () => {
    const { model, summary } = await replayToModel(chain(1200, 500, 3), base);
    assert.deepStrictEqual(
      model.lists.map((l) => [l.returned, l.remainingItemCount, l.continue !== '']),
      [
        [500, 700, true],
        [500, 200, true],
        [200, undefined, false],
      ],
    );
    for (let p = 1; p < 3; p++) {
      const sent = new URLSearchParams(model.lists[p].request.split('?')[1]).get('continue') ?? '';
      assert.strictEqual(
        sent,
        model.lists[p - 1].continue,
        `page ${p + 1} sends page ${p}'s token`,
      );
      const { resourceVersion } = decodeContinue(sent, '/registry/pods/');
      assert.strictEqual(
        String(resourceVersion),
        model.lists[0].resourceVersion,
        "the engine's RV",
      );
      assert.notStrictEqual(String(resourceVersion), '48213');
    }
    assert.strictEqual(summary.disagreements, 0);
    assert.strictEqual(summary.lists, 3);
  });

  it('a LIST the log answered 410 Expired: the replay compacts there, so the engine answers 410 too', async () => {
    const { model, summary } = await replayToModel(chain(1200, 500, 3, 1), base);
    const page2 = model.lists[1];
    assert.strictEqual(page2.logged?.status, 410);
    assert.strictEqual(page2.logged?.error?.reason, 'Expired');
    assert.strictEqual(page2.error?.code, 410, "the engine's answer");
    assert.deepStrictEqual(page2.disagrees ?? [], []);
    assert.strictEqual(summary.disagreementsBy.status, undefined);
    assert.ok(
      model.faults?.some((f) => f.name === 'compaction'),
      'the compaction the 410 proves is in the run',
    );
  });

  const writeCases: Array<{
    name: string;
    requests: () => ImportedRequest[];
    rebuilt: number;
    synthesised: number;
    byVerb: Record<string, number>;
    seeded: string;
  }> = [
    {
      name: 'a create with its object (RequestResponse level) is rebuilt from it',
      requests: () => [
        req('create', '/api/v1/namespaces/shop/pods', 0, {
          code: 201,
          objectRef: { resource: 'pods', namespace: 'shop', name: 'api-1', apiVersion: 'v1' },
          object: {
            kind: 'Pod',
            apiVersion: 'v1',
            metadata: {
              name: 'api-1',
              namespace: 'shop',
              resourceVersion: '48213',
              labels: { app: 'api' },
            },
            spec: { containers: [{ name: 'api', image: 'api:1' }] },
          },
        }),
        req('list', '/api/v1/namespaces/shop/pods?labelSelector=app%3Dapi', 1),
      ],
      rebuilt: 1,
      synthesised: 0,
      byVerb: { create: 1 },
      seeded: 'named',
    },
    {
      name: 'an update and a patch at Metadata level are synthesised on the object they name',
      requests: () => [
        req('update', '/api/v1/namespaces/shop/pods/api-2', 0, {
          objectRef: { resource: 'pods', namespace: 'shop', name: 'api-2' },
        }),
        req('patch', '/api/v1/namespaces/shop/pods/api-2', 1, {
          objectRef: { resource: 'pods', namespace: 'shop', name: 'api-2' },
        }),
        req('delete', '/api/v1/namespaces/shop/pods/api-2', 2, {
          objectRef: { resource: 'pods', namespace: 'shop', name: 'api-2' },
        }),
      ],
      rebuilt: 0,
      synthesised: 2,
      byVerb: { update: 2, delete: 1 },
      seeded: 'named',
    },
  ];
  for (const c of writeCases) {
    it(`writes: ${c.name}`, async () => {
      const { model, summary } = await replayToModel(c.requests(), base);
      assert.strictEqual(summary.rebuilt.length, c.rebuilt, 'rebuilt');
      assert.strictEqual(summary.synthesised.length, c.synthesised, 'synthesised');
      const byVerb = { ...model.writes?.byVerb };
      delete byVerb.seed;
      assert.deepStrictEqual(byVerb, c.byVerb);
      assert.strictEqual(summary.seeded[0].from, c.seeded);
      assert.strictEqual(summary.disagreements, 0);
    });
  }

  it('the labels of a rebuilt create are what a selector LIST then finds', async () => {
    const { model } = await replayToModel(writeCases[0].requests(), base);
    assert.strictEqual(model.lists[0].returned, 1);
  });

  const countCases: Array<{
    name: string;
    requests: () => ImportedRequest[];
    objects?: Record<string, number>;
    want: number;
    from: string;
  }> = [
    {
      name: "a page's items + remainingItemCount",
      requests: () => [
        req('list', '/api/v1/pods?limit=300', 0, {
          response: { items: 300, remainingItemCount: 4700, continue: logToken('default/x') },
        }),
      ],
      want: 5000,
      from: 'inferred',
    },
    {
      name: "a complete chain's items (Metadata level would not say: RequestResponse here)",
      requests: () =>
        chain(1234, 500, 3).map((r) => {
          delete r.response?.remainingItemCount;
          return r;
        }),
      want: 1234,
      from: 'inferred',
    },
    {
      name: "a filtered LIST's matches, when no unfiltered answer says how many there are",
      requests: () => [
        req('list', '/api/v1/pods?labelSelector=app%3Dweb', 0, { response: { items: 42 } }),
      ],
      want: 42,
      from: 'inferred',
    },
    {
      name: 'given',
      requests: () => [req('list', '/api/v1/pods?limit=500', 0)],
      objects: { pods: 5000 },
      want: 5000,
      from: 'given',
    },
  ];
  for (const c of countCases) {
    it(`object count: ${c.name}`, async () => {
      const { model, summary } = await replayToModel(c.requests(), { ...base, objects: c.objects });
      assert.strictEqual(summary.seeded[0].objects, c.want);
      assert.strictEqual(summary.seeded[0].from, c.from);
      assert.strictEqual(model.writes?.byVerb.seed, c.want);
    });
  }

  it('filtered LISTs: as many seeded objects as their answers matched carry their selectors, spread through the key space', async () => {
    const { model, summary } = await replayToModel(
      [
        req('list', '/api/v1/pods?limit=500', 0, {
          response: { items: 500, remainingItemCount: 1500, continue: logToken('default/x') },
        }),
        req('list', '/api/v1/pods?labelSelector=app%3Dbackup%2Ctier%20in%20(db)&limit=500', 1, {
          userAgent: 'velero/v1.14',
          response: { items: 20 },
        }),
        req('list', '/api/v1/pods?labelSelector=app%3Dweb', 2, {
          userAgent: 'web-operator/0.1',
          response: { items: 300 },
        }),
        req('list', '/api/v1/namespaces/shop/pods?fieldSelector=spec.nodeName%3Dnode-1', 3, {
          userAgent: 'kubelet/v1.33.1',
          response: { items: 7 },
        }),
      ],
      base,
    );
    assert.deepStrictEqual(
      model.lists.map((l) => l.returned),
      [500, 20, 300, 7],
    );
    assert.strictEqual(summary.seeded[0].objects, 2007);
    assert.match(summary.seeded[0].text, /labelled for 3 filtered LIST selector\(s\)/);
    assert.deepStrictEqual(summary.seeded[0].matched, [
      'app=web in default: 300 match',
      'app=backup,tier in (db) in default: 20 match',
      'spec.nodeName=node-1 in shop: 7 match',
    ]);
    // Spread: the 20 are not the first 20 keys, so a page of etcd holds few of them.
    const velero = model.lists[1];
    assert.ok(velero.fetched > 20 * 10, `fetched ${velero.fetched} for 20 matches`);
  });

  it('re-opens a watch for its logged duration; one whose end is not in the file stays open', async () => {
    const { model, summary } = await replayToModel(
      [
        req('list', '/api/v1/pods?limit=500', 0, {
          response: { items: 10, resourceVersion: '900' },
        }),
        req(
          'watch',
          '/api/v1/pods?allowWatchBookmarks=true&resourceVersion=900&timeoutSeconds=600&watch=true',
          1,
          {
            completedAt: t0 + 1000 + 312_000,
          },
        ),
        req('watch', '/api/v1/namespaces/shop/pods?resourceVersion=900&watch=true', 2, {
          completedAt: undefined,
          endInFile: false,
          code: undefined,
        }),
      ],
      base,
    );
    const [held, open] = model.watchRequests ?? [];
    assert.strictEqual(held.outcome, 'started');
    assert.strictEqual(held.logged?.durationMs, 312_000);
    assert.strictEqual((held.closedAt ?? 0) - held.at, 312_000);
    assert.strictEqual(held.disagrees, undefined);
    assert.strictEqual(open.outcome, 'started');
    assert.strictEqual(open.closedAt, undefined, 'open to the end of the run');
    assert.strictEqual(model.durationMs, 1000 + 312_000);
    assert.strictEqual(summary.watches, 2);
  });

  it('a watch of one object by field selector says its selector once (the audit objectRef names it too)', async () => {
    // kube-apiserver's RequestInfo takes the name from a metadata.name field selector, so the
    // audit event's objectRef names the object the selector already names.
    const cases: Array<{ name: string; uri: string; objectRef?: ImportedRequest['objectRef'] }> = [
      {
        name: 'field selector, audit objectRef with the name',
        uri: '/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dpod-0102&resourceVersion=900&watch=true',
        objectRef: { resource: 'pods', namespace: 'default', name: 'pod-0102', apiVersion: 'v1' },
      },
      {
        name: 'field selector, no objectRef (a client log)',
        uri: '/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dpod-0102&resourceVersion=900&watch=true',
      },
      {
        name: 'field selector and a label selector, audit objectRef with the name',
        uri: '/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dpod-0102&labelSelector=app%3Dweb&resourceVersion=900&watch=true',
        objectRef: { resource: 'pods', namespace: 'default', name: 'pod-0102', apiVersion: 'v1' },
      },
    ];
    const want = [
      'metadata.name=pod-0102',
      'metadata.name=pod-0102',
      'app=web,metadata.name=pod-0102',
    ];
    for (const [i, c] of cases.entries()) {
      const { model } = await replayToModel(
        [
          req('list', '/api/v1/namespaces/default/pods?limit=500', 0, {
            response: { items: 3, resourceVersion: '900' },
          }),
          req('watch', c.uri, 1, {
            completedAt: t0 + 1000 + 5_000,
            ...(c.objectRef ? { objectRef: c.objectRef } : {}),
          }),
        ],
        base,
      );
      assert.deepStrictEqual(
        model.watchers.map((w) => w.selector),
        [want[i]],
        c.name,
      );
    }
  });

  it('what-if 1.37: a filtered consistent LIST asks etcd differently than under 1.36', async () => {
    const requests = [
      req('list', '/api/v1/pods?limit=500', 0, {
        response: { items: 500, remainingItemCount: 1500, continue: logToken('default/x') },
      }),
      req('list', '/api/v1/pods?labelSelector=app%3Dbackup', 1, { userAgent: 'velero/v1.14' }),
    ];
    const a = await replayToModel(requests, base);
    const b = await replayToModel(requests, { ...base, profile: '1.37' });
    const ops = (m: typeof a.model): string[] => m.lists[1].etcdRequests.map((e) => e.operation);
    assert.deepStrictEqual(ops(a.model), ['get']);
    assert.deepStrictEqual(ops(b.model), ['getCurrentResourceVersion']);
    const cmp = compareRuns(a.model, b.model);
    assert.strictEqual(cmp.a, '1.36');
    assert.strictEqual(cmp.b, '1.37');
    assert.deepStrictEqual(
      cmp.clients.map((c) => c.client),
      [ksm, 'velero/v1.14'],
    );
  });

  it('events have no watch cache (storage table): an RV=0 LIST of events is an etcd range with its limit', async () => {
    const requests = [
      req('list', '/api/v1/namespaces/default/events?limit=500&resourceVersion=0', 0, {
        response: { items: 500, continue: logToken('default/x') },
      }),
    ];
    const { model } = await replayToModel(requests, base);
    assert.deepStrictEqual(
      model.lists[0].etcdRequests.map((e) => [e.operation, e.limit]),
      [['list', 500]],
    );
  });

  it('events have no watch cache: a WATCH of events is served by etcd, opens and agrees (not "closed at once, the cache unready")', async () => {
    // kubectl get events -w: its LIST, then a 30 s watch from the LIST's RV.
    const requests = [
      req('list', '/api/v1/namespaces/default/events?limit=500', 0, {
        response: { items: 0, resourceVersion: '900' },
      }),
      req('watch', '/api/v1/namespaces/default/events?resourceVersion=900&watch=true', 1, {
        completedAt: t0 + 31_000,
      }),
    ];
    const { model, summary } = await replayToModel(requests, base);
    const w = model.watchRequests?.[0];
    assert.strictEqual(w?.outcome, 'started', JSON.stringify(w));
    assert.strictEqual(w?.error, undefined);
    assert.deepStrictEqual(w?.disagrees ?? [], []);
    assert.strictEqual(summary.disagreements, 0, JSON.stringify(summary.disagreementsBy));
  });

  it('what-if watchList: a LIST+WATCH pair becomes one WatchList watch', async () => {
    const requests = [
      req('list', '/api/v1/pods?limit=500', 0, { response: { items: 20, resourceVersion: '900' } }),
      req(
        'watch',
        '/api/v1/pods?allowWatchBookmarks=true&resourceVersion=900&timeoutSeconds=300&watch=true',
        1,
        {
          completedAt: t0 + 1000 + 300_000,
        },
      ),
    ];
    const { model, summary } = await replayToModel(requests, { ...base, watchList: true });
    assert.strictEqual(summary.watchListPairs, 1);
    assert.strictEqual(model.lists.length, 0);
    const w = model.watchRequests?.[0];
    assert.ok(w?.request.includes('sendInitialEvents=true'), w?.request);
    assert.strictEqual(w?.at, 0, "at its LIST's time");
    assert.strictEqual(model.header.params.watchList, true);
  });

  it('keeps the spacing of the log, and the order of requests without a time', async () => {
    const { model, summary } = await replayToModel(
      [
        req('list', '/api/v1/pods?limit=1', 5),
        req('list', '/api/v1/namespaces/a/pods', undefined),
        req('list', '/api/v1/pods?limit=2', 2),
      ],
      base,
    );
    assert.deepStrictEqual(
      model.lists.map((l) => [l.at, l.request.split('?')[0]]),
      [
        [0, '/api/v1/pods'],
        [3000, '/api/v1/pods'],
        [3000, '/api/v1/namespaces/a/pods'],
      ],
    );
    assert.strictEqual(summary.untimed, 1);
  });

  it('same input, same seed: the same trace byte for byte; the header carries files, profile, what-ifs', async () => {
    const requests = [
      ...chain(1200, 500, 3, 2),
      req('watch', '/api/v1/pods?resourceVersion=900&watch=true', 4, { completedAt: t0 + 64_000 }),
    ];
    const lines = async (o: ReplayOptions): Promise<string> => {
      const out: TraceLine[] = [];
      await replayImport(requests, o, (l) => out.push(l));
      return out.map((l) => JSON.stringify(l)).join('\n');
    };
    const one = await lines({ ...base, watchCacheSize: 100 });
    assert.strictEqual(one, await lines({ ...base, watchCacheSize: 100 }));
    const header = JSON.parse(one.split('\n')[0]) as { scenario: string; params: object };
    assert.strictEqual(header.scenario, 'import');
    assert.deepStrictEqual(header.params, {
      files: 'audit.log',
      profile: '1.36',
      watchCacheSize: 100,
    });
  });
});
