// Tests for src/import/import-report.ts and its parts (pagination-chains.ts, watch-durations.ts,
// relists.ts, relist-storms.ts, distribution.ts): imported requests fed one at a time, as
// import-files.ts's sink hands them over, and the report's figures: chains broken by a 410 and
// restarted, tokens decoded against each LIST's key prefix, relists after an early end and after
// a 410, storms of both kinds, watches outside the log, WatchList clients, 429/504 counts,
// latency, request shapes and the bounded memory of many chains.
import type { ImportReport, ImportedClient } from '../../../src/run/import-report';
import * as assert from 'assert';
import { encodeContinue } from '../../../src/engine/storage/continue';
import { relistWindowMs } from '../../../src/run/relist-rule';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import { Distribution, exactLimit } from '../../../src/import/distribution';
import {
  ImportReportBuilder,
  explainShapes,
  maxRejectedSamples,
} from '../../../src/import/import-report';
import { importFiles } from '../../../src/import/import-files';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { maxChainsPerClient } from '../../../src/import/pagination-chains';
import { clientStormGapMs, herdClients } from '../../../src/import/relist-storms';
import { join } from 'path';
import { importText, withTempFiles } from './import-harness';
import { latencyBasisText } from '../../../src/run/views/latency-text';

const t0 = Date.UTC(2025, 2, 12, 10, 0, 0);
const backup = 'backup-agent/1.7.0';
const operator = 'shop-operator/v0.9.3 (linux/amd64) kubernetes/abc';

function tok(prefix: string, last: string, rv: number): string {
  return encodeContinue(`${prefix}${last}\u0000`, prefix, rv);
}
const podsToken = (last: string, rv: number) => tok('/registry/pods/', last, rv);

interface Req {
  ua?: string;
  user?: string;
  /** Seconds after t0 the server received it (undefined: before the log). */
  at?: number;
  /** Seconds after t0 it completed (undefined: still open when the log ends). */
  end?: number;
  code?: number;
  reason?: string;
  message?: string;
  continueAnswer?: string;
  watchEnd?: string;
}

let seq = 0;
function mk(verb: string, requestURI: string, o: Req = {}): ImportedRequest {
  seq++;
  const r: ImportedRequest = {
    id: `r${seq}`,
    sources: [{ file: 'audit.log', line: seq, format: 'audit' }],
    verb,
    requestURI,
    userAgent: o.ua ?? backup,
    user: o.user ?? 'system:serviceaccount:ops:backup',
    startInFile: o.at !== undefined,
    endInFile: o.end !== undefined,
  };
  if (o.at !== undefined) r.receivedAt = t0 + o.at * 1000;
  if (o.end !== undefined) r.completedAt = t0 + o.end * 1000;
  if (o.end !== undefined) r.code = o.code ?? 200;
  if (o.reason || o.message) r.status = { reason: o.reason, message: o.message };
  if (o.continueAnswer !== undefined) r.response = { continue: o.continueAnswer };
  if (o.watchEnd) r.watchEnd = { message: o.watchEnd, source: r.sources[0] };
  return r;
}

function report(reqs: ImportedRequest[]): ImportReport {
  const b = new ImportReportBuilder('1.36');
  for (const r of reqs) b.request(r);
  return b.finish();
}

function client(rep: ImportReport, ua: string): ImportedClient {
  const c = rep.clients.find((x) => x.userAgent === ua);
  assert.ok(c, `no client ${ua} in ${rep.clients.map((x) => x.userAgent).join(', ')}`);
  return c;
}

const expiredMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

describe('import report: pagination chains', () => {
  const cases: Array<{
    name: string;
    reqs: () => ImportedRequest[];
    want: Array<{
      pages: number;
      codes: number[];
      outcome: string;
      complete: boolean;
      completeKnown: boolean;
      rv: string | null;
      restartOf?: { chain: number; how: string };
      restartedBy?: number;
      orphan?: boolean;
    }>;
  }> = [
    {
      name: 'a 410 mid-way, then a new chain from scratch linked to the broken one',
      reqs: () => [
        mk('list', '/api/v1/pods?limit=2', { at: 0, end: 0.1 }),
        mk('list', `/api/v1/pods?continue=${podsToken('default/a', 100)}&limit=2`, {
          at: 1,
          end: 1.1,
        }),
        mk('list', `/api/v1/pods?continue=${podsToken('default/c', 100)}&limit=2`, {
          at: 400,
          end: 400.1,
          code: 410,
          reason: 'Expired',
          message: expiredMessage,
        }),
        mk('list', '/api/v1/pods?limit=2', { at: 402, end: 402.1 }),
        mk('list', `/api/v1/pods?continue=${podsToken('default/a', 900)}&limit=2`, {
          at: 403,
          end: 403.1,
        }),
      ],
      want: [
        {
          pages: 3,
          codes: [200, 200, 410],
          outcome: 'expired',
          complete: false,
          completeKnown: true,
          rv: '100',
          restartedBy: 2,
        },
        {
          pages: 2,
          codes: [200, 200],
          outcome: 'complete',
          complete: true,
          completeKnown: false,
          rv: '900',
          restartOf: { chain: 1, how: 'from-scratch' },
        },
      ],
    },
    {
      name: "a 410, then the inconsistent continuation (rv -1) the 410's Status handed out",
      reqs: () => [
        mk('list', '/api/v1/pods?limit=2', { at: 0, end: 0.1 }),
        mk('list', `/api/v1/pods?continue=${podsToken('default/a', 100)}&limit=2`, {
          at: 400,
          end: 400.1,
          code: 410,
          reason: 'Expired',
          message: expiredMessage,
        }),
        mk('list', `/api/v1/pods?continue=${podsToken('default/a', -1)}&limit=2`, {
          at: 401,
          end: 401.1,
        }),
      ],
      want: [
        {
          pages: 2,
          codes: [200, 410],
          outcome: 'expired',
          complete: false,
          completeKnown: true,
          rv: '100',
          restartedBy: 2,
        },
        {
          pages: 1,
          codes: [200],
          outcome: 'complete',
          complete: true,
          completeKnown: false,
          rv: null,
          restartOf: { chain: 1, how: 'inconsistent-continue' },
        },
      ],
    },
    {
      name: 'with responses (RequestResponse level): pages linked by the token each answered, the end known',
      reqs: () => {
        const t1 = podsToken('default/a', 7);
        const t2 = podsToken('default/b', 7);
        return [
          mk('list', '/api/v1/pods?limit=1', { at: 0, end: 0.1, continueAnswer: t1 }),
          mk('list', `/api/v1/pods?continue=${t1}&limit=1`, {
            at: 1,
            end: 1.1,
            continueAnswer: t2,
          }),
          mk('list', `/api/v1/pods?continue=${t2}&limit=1`, {
            at: 2,
            end: 2.1,
            continueAnswer: '',
          }),
          // The same client lists again, and stops after a page that said there was more.
          mk('list', '/api/v1/pods?limit=1', { at: 10, end: 10.1, continueAnswer: t1 }),
        ];
      },
      want: [
        {
          pages: 3,
          codes: [200, 200, 200],
          outcome: 'complete',
          complete: true,
          completeKnown: true,
          rv: '7',
        },
        { pages: 1, codes: [200], outcome: 'open', complete: false, completeKnown: true, rv: null },
      ],
    },
    {
      name: 'a first page before the log: an orphan chain at its token RV',
      reqs: () => [
        mk('list', `/api/v1/pods?continue=${podsToken('default/m', 55)}&limit=2`, {
          at: 0,
          end: 0.1,
        }),
        mk('list', `/api/v1/pods?continue=${podsToken('default/p', 55)}&limit=2`, {
          at: 1,
          end: 1.1,
        }),
      ],
      want: [
        {
          pages: 2,
          codes: [200, 200],
          outcome: 'complete',
          complete: true,
          completeKnown: false,
          rv: '55',
          orphan: true,
        },
      ],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const chains = client(report(c.reqs()), backup).paginationChains;
      assert.deepStrictEqual(
        chains.map((x) => ({
          pages: x.pages,
          codes: x.codes,
          outcome: x.outcome,
          complete: x.complete,
          completeKnown: x.completeKnown,
          rv: x.resourceVersion,
          ...(x.restartOf ? { restartOf: x.restartOf } : {}),
          ...(x.restartedBy !== undefined ? { restartedBy: x.restartedBy } : {}),
          ...(x.orphan ? { orphan: true } : {}),
        })),
        c.want,
      );
    });

  it('the 410 keeps its Status message and page; tokens are decoded and linked page to page', () => {
    const rep = report(cases[0].reqs());
    const [broken] = client(rep, backup).paginationChains;
    assert.deepStrictEqual(broken.expired, {
      page: 2,
      at: t0 + 400_100,
      message: expiredMessage,
    });
    assert.deepStrictEqual(broken.tokens, [
      {
        page: 1,
        linkedBy: 'first-page',
        resourceVersion: '100',
        startKey: 'default/a\u0000',
        fromKey: '/registry/pods/default/a\u0000',
      },
      {
        page: 2,
        linkedBy: 'rv',
        resourceVersion: '100',
        startKey: 'default/c\u0000',
        fromKey: '/registry/pods/default/c\u0000',
      },
    ]);
  });

  const scopes: Array<{ name: string; path: string; prefix: string }> = [
    {
      name: 'namespaced pods',
      path: '/api/v1/namespaces/shop/pods',
      prefix: '/registry/pods/shop/',
    },
    { name: 'cluster-wide pods', path: '/api/v1/pods', prefix: '/registry/pods/' },
    {
      name: 'nodes (non-pod, /registry/minions)',
      path: '/api/v1/nodes',
      prefix: '/registry/minions/',
    },
    {
      name: 'deployments (apps)',
      path: '/apis/apps/v1/namespaces/shop/deployments',
      prefix: '/registry/deployments/shop/',
    },
    {
      name: 'a CRD (group/resource)',
      path: '/apis/example.com/v1/namespaces/shop/widgets',
      prefix: '/registry/example.com/widgets/shop/',
    },
  ];
  for (const s of scopes)
    it(`decodes a continue token of ${s.name} against ${s.prefix}`, () => {
      const rep = report([
        mk('list', `${s.path}?limit=10`, { at: 0, end: 0.1 }),
        mk('list', `${s.path}?limit=10&continue=${tok(s.prefix, 'x-1', 42)}`, { at: 1, end: 1.1 }),
      ]);
      const [chain] = client(rep, backup).paginationChains;
      assert.strictEqual(chain.pages, 2);
      assert.deepStrictEqual(chain.tokens[0], {
        page: 1,
        linkedBy: 'first-page',
        resourceVersion: '42',
        startKey: 'x-1\u0000',
        fromKey: `${s.prefix}x-1\u0000`,
      });
    });

  it("a token that does not decode says upstream's error and starts an orphan chain", () => {
    const rep = report([
      mk('list', '/api/v1/pods?limit=1&continue=not-base64!', { at: 0, end: 1 }),
    ]);
    const [chain] = client(rep, backup).paginationChains;
    assert.ok(chain.orphan);
    const t = chain.tokens[0];
    assert.ok('error' in t && t.error.startsWith('continue key is not valid'), JSON.stringify(t));
  });

  it("keys chains by client: two users of one user agent paging the same path do not mix (a's LIST came back whole: a single LIST)", () => {
    const rep = report([
      mk('list', '/api/v1/pods?limit=2', { at: 0, end: 0.1, user: 'a' }),
      mk('list', '/api/v1/pods?limit=2', { at: 0, end: 0.1, user: 'b' }),
      mk('list', `/api/v1/pods?limit=2&continue=${podsToken('x', 3)}`, {
        at: 1,
        end: 1.1,
        user: 'b',
      }),
    ]);
    const c = client(rep, backup);
    assert.deepStrictEqual(
      c.paginationChains.map((x) => [x.user, x.pages]),
      [['b', 2]],
    );
    assert.strictEqual(c.singleLists, 1);
  });

  it(`keeps at most ${maxChainsPerClient} chains per client, the broken one among them, and counts the rest`, () => {
    const reqs: ImportedRequest[] = [];
    // First pages whose answers carried a token no page followed: chains left open (plain ones).
    const abandoned = (at: number) =>
      mk('list', '/api/v1/configmaps?limit=2', {
        at,
        end: at + 0.01,
        continueAnswer: tok('/registry/configmaps/', `cm-${at}`, 5),
      });
    for (let i = 0; i < 1000; i++) reqs.push(abandoned(i));
    reqs.push(mk('list', '/api/v1/pods?limit=2', { at: 2000, end: 2000.1 }));
    reqs.push(
      mk('list', `/api/v1/pods?limit=2&continue=${podsToken('a', 9)}`, {
        at: 2400,
        end: 2400.1,
        code: 410,
      }),
    );
    for (let i = 0; i < 1000; i++) reqs.push(abandoned(3000 + i));
    const c = client(report(reqs), backup);
    assert.strictEqual(c.paginationChains.length, maxChainsPerClient);
    assert.strictEqual(c.chainsTotal, 2001);
    assert.strictEqual(c.chainsDropped, 2001 - maxChainsPerClient);
    assert.ok(c.paginationChains.some((x) => x.outcome === 'expired' && x.pages === 2));
    assert.strictEqual(c.lists, 2002);
  });
});

describe('import report: watches and relists', () => {
  const pods = '/api/v1/namespaces/shop/pods';
  const cases: Array<{
    name: string;
    reqs: () => ImportedRequest[];
    relists: Array<{ via: string; because: string; gapSeconds: number }>;
    ends: Partial<Record<string, number>>;
  }> = [
    {
      name: 'a LIST 1 s after a watch ended early (before its timeoutSeconds)',
      reqs: () => [
        mk('watch', `${pods}?watch=true&timeoutSeconds=300&resourceVersion=10`, { at: 0, end: 60 }),
        mk('list', `${pods}?limit=500&resourceVersion=0`, { at: 61, end: 61.2 }),
      ],
      relists: [{ via: 'list', because: 'early', gapSeconds: 1 }],
      ends: { early: 1 },
    },
    {
      name: 'a LIST 0.8 s after a watch was refused with 410',
      reqs: () => [
        mk('watch', `${pods}?watch=true&resourceVersion=10`, {
          at: 100,
          end: 100,
          code: 410,
          reason: 'Expired',
          message: 'too old resource version: 10 (50)',
        }),
        mk('list', `${pods}?limit=500`, { at: 100.8, end: 101 }),
      ],
      relists: [{ via: 'list', because: 'expired', gapSeconds: 0.8 }],
      ends: { expired: 1 },
    },
    {
      name: "a LIST after the reflector said the watch ended with 'too old resource version'",
      reqs: () => [
        mk('watch', `${pods}?watch=true&timeoutSeconds=300`, {
          at: 0,
          end: 20,
          watchEnd: 'watch of *v1.Pod ended with: too old resource version: 10 (50)',
        }),
        mk('list', `${pods}?limit=500`, { at: 21, end: 21.5 }),
      ],
      relists: [{ via: 'list', because: 'expired', gapSeconds: 1 }],
      ends: { expired: 1 },
    },
    {
      name: 'no relist after a watch that lasted its timeoutSeconds',
      reqs: () => [
        mk('watch', `${pods}?watch=true&timeoutSeconds=300`, { at: 0, end: 300 }),
        mk('list', `${pods}?limit=500`, { at: 300.5, end: 301 }),
      ],
      relists: [],
      ends: { timeout: 1 },
    },
    {
      name: `no relist ${relistWindowMs / 1000 + 1} s after an early end (outside the window)`,
      reqs: () => [
        mk('watch', `${pods}?watch=true&timeoutSeconds=300`, { at: 0, end: 30 }),
        mk('list', `${pods}?limit=500`, { at: 30 + relistWindowMs / 1000 + 1, end: 37 }),
      ],
      relists: [],
      ends: { early: 1 },
    },
    {
      name: 'no relist when the LIST is of another resource or a later page',
      reqs: () => [
        mk('watch', `${pods}?watch=true&timeoutSeconds=300`, { at: 0, end: 30 }),
        mk('list', '/api/v1/namespaces/shop/configmaps?limit=500', { at: 31, end: 31.1 }),
        mk('list', `${pods}?limit=500&continue=${tok('/registry/pods/shop/', 'a', 5)}`, {
          at: 32,
          end: 32.1,
        }),
      ],
      relists: [],
      ends: { early: 1 },
    },
    {
      name: 'without timeoutSeconds the server gives at least --min-request-timeout (1800 s)',
      reqs: () => [
        mk('watch', `${pods}?watch=true`, { at: 0, end: 1000 }),
        mk('watch', `${pods}?watch=true`, { at: 1000, end: 3000 }),
      ],
      relists: [],
      ends: { early: 1, timeout: 1 },
    },
    {
      name: 'a WatchList client: a new sendInitialEvents watch 1 s after its watch got 410',
      reqs: () => [
        mk(
          'watch',
          `${pods}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
          {
            at: 0,
            end: 50,
            code: 200,
            watchEnd: 'watch of *v1.Pod ended with: too old resource version: 3 (9)',
          },
        ),
        mk(
          'watch',
          `${pods}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
          { at: 51 },
        ),
      ],
      relists: [{ via: 'watch-list', because: 'expired', gapSeconds: 1 }],
      ends: { expired: 1, open: 1 },
    },
    {
      // The refused WatchList watch was the list itself: the next one retries it (relist-rule.ts).
      name: 'a WatchList client: a new sendInitialEvents watch 1 s after its sendInitialEvents watch was refused with 429',
      reqs: () => [
        mk(
          'watch',
          `${pods}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
          { at: 0, end: 0.01, code: 429, reason: 'TooManyRequests' },
        ),
        mk(
          'watch',
          `${pods}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
          { at: 1 },
        ),
      ],
      relists: [],
      ends: { refused: 1, open: 1 },
    },
    {
      name: 'a LIST after a watch refused with 429 counts (refused is early, as in the live rule)',
      reqs: () => [
        mk('watch', `${pods}?watch=true`, { at: 5, end: 5, code: 429, reason: 'TooManyRequests' }),
        mk('list', `${pods}?limit=500`, { at: 6, end: 6.1 }),
      ],
      relists: [{ via: 'list', because: 'refused', gapSeconds: 1 }],
      ends: { refused: 1 },
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const cl = client(report(c.reqs()), backup);
      assert.deepStrictEqual(
        cl.relistDetails.map((r) => ({ via: r.via, because: r.because, gapSeconds: r.gapSeconds })),
        c.relists,
      );
      assert.strictEqual(cl.relists, c.relists.length);
      const ends = Object.fromEntries(Object.entries(cl.watchEnds).filter(([, n]) => n > 0));
      assert.deepStrictEqual(ends, c.ends);
      if (c.relists.length && c.relists[0].via === 'list') {
        const chain = cl.paginationChains.find((x) => x.id === cl.relistDetails[0].chain);
        assert.ok(chain?.relist, 'the relist LIST starts a chain marked relist');
      }
    });

  // Audit events as a log holds them, through importFiles: a request is emitted when it ends, so a
  // watch still open is read after the LISTs received after it. The rule's "no WATCH received
  // between" must see it anyway (ImportSink.watchOpened).
  describe('a watch still open when a LIST from scratch ends (audit lines through importFiles)', () => {
    const micro = (s: number): string => new Date(t0 + s * 1000).toISOString().replace('Z', '000Z');
    const stage = (id: string, verb: string, uri: string, st: string, recv: number, at: number) =>
      JSON.stringify({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'Metadata',
        auditID: id,
        stage: st,
        requestURI: uri,
        verb,
        user: { username: 'system:serviceaccount:ops:backup' },
        userAgent: backup,
        objectRef: { resource: 'pods', namespace: 'shop', apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 200 },
        requestReceivedTimestamp: micro(recv),
        stageTimestamp: micro(at),
      });
    const watchURI = `${pods}?watch=true&timeoutSeconds=300&resourceVersion=10`;
    const ended = [
      stage('a', 'watch', watchURI, 'ResponseStarted', 0, 0),
      stage('a', 'watch', watchURI, 'ResponseComplete', 0, 60),
    ];
    const list = stage('l', 'list', `${pods}?limit=500`, 'ResponseComplete', 62, 62.1);
    const reopened = (at: number) => stage('b', 'watch', watchURI, 'ResponseStarted', at, at);

    async function relistsOf(lines: string[]) {
      const b = new ImportReportBuilder('1.36');
      await withTempFiles([{ name: 'audit.log', content: lines.join('\n') + '\n' }], (paths) =>
        importFiles([{ path: paths[0], name: 'audit.log' }], {}, b),
      );
      const c = client(b.finish(), backup);
      return { relists: c.relistDetails.map((r) => [r.via, r.because, r.gapSeconds]), c };
    }

    it('a WATCH received between the early end and the LIST (open to the end): no relist', async () => {
      const { relists, c } = await relistsOf([...ended, reopened(61), list]);
      assert.deepStrictEqual(relists, []);
      assert.deepStrictEqual([c.watches, c.lists, c.watchesOpenAtEnd], [2, 1, 1]);
    });

    it('without it the LIST is a relist', async () => {
      const { relists } = await relistsOf([...ended, list]);
      assert.deepStrictEqual(relists, [['list', 'early', 2]]);
    });

    it('a WATCH received after the LIST does not hide it', async () => {
      const { relists } = await relistsOf([...ended, list, reopened(63)]);
      assert.deepStrictEqual(relists, [['list', 'early', 2]]);
    });
  });

  it('watches outside the log are counted as such and never given a duration', () => {
    const rep = report([
      mk('watch', `${pods}?watch=true&timeoutSeconds=600`, { end: 30 }), // began before the log
      mk('watch', `${pods}?watch=true&timeoutSeconds=600`, { at: 40 }), // open at its end
      mk('watch', `${pods}?watch=true&timeoutSeconds=60`, { at: 0, end: 60 }),
      mk('watch', `${pods}?watch=true&timeoutSeconds=600`, { at: 61, end: 100 }),
    ]);
    const c = client(rep, backup);
    assert.strictEqual(c.watchesStartedBeforeLog, 1);
    assert.strictEqual(c.watchesOpenAtEnd, 1);
    assert.deepStrictEqual(
      c.watchSamples.map((w) => [w.how, w.durationSeconds]),
      [
        ['unknown', null],
        ['open', null],
        ['timeout', 60],
        ['early', 39],
      ],
    );
    const d = c.watchDurationsSeconds;
    assert.deepStrictEqual([d.count, d.min, d.median, d.max], [2, 39, 39, 60]);
    assert.deepStrictEqual(
      [rep.watches.startedBeforeLog, rep.watches.openAtEnd, rep.watches.total],
      [1, 1, 4],
    );
  });

  it('tells WatchList clients from LIST+WATCH clients', () => {
    const wl = `${pods}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`;
    const rep = report([
      mk('watch', wl, { ua: 'watchlist-ctl/1.0', at: 0 }),
      mk('list', `${pods}?limit=500`, { ua: 'informer/1.0', at: 0, end: 0.1 }),
      mk('watch', `${pods}?watch=true&resourceVersion=9`, { ua: 'informer/1.0', at: 0.2 }),
      mk('list', `${pods}?limit=500`, { ua: 'kubectl/v1.33.1', at: 0, end: 0.1 }),
      mk('list', `${pods}`, { ua: 'fallback/1.0', at: 0, end: 0.1 }),
      mk('watch', wl, { ua: 'fallback/1.0', at: 0.2 }),
    ]);
    assert.deepStrictEqual(
      Object.fromEntries(rep.clients.map((c) => [c.userAgent, [c.mode, c.watchLists]])),
      {
        'watchlist-ctl/1.0': ['watch-list', 1],
        'informer/1.0': ['list-watch', 0],
        'kubectl/v1.33.1': ['list-only', 0],
        'fallback/1.0': ['watch-list+list', 1],
      },
    );
    assert.strictEqual(rep.watches.watchLists, 2);
  });

  describe("client-go's end of a WatchList watch's initial events: the client's list", () => {
    // client-go's reflector logs `Exiting watch because received the bookmark that marks the end
    // of initial events stream` (reflector.go handleAnyWatch, V(4)) and watches on: that WATCH is
    // its list, over at that line, and a new one after a 410 its relist.
    const cases: Array<{
      file: string;
      mode: string;
      lists: number;
      watches: Array<[string, boolean, number | null]>;
      relists: Array<[string, string, number]>;
    }> = [
      {
        // kubectl 1.33 -v=6 with WatchListClient: the URLs say sendInitialEvents=true.
        file: 'kubectl-1.33-v6-wait-watchlist.log',
        mode: 'watch-list',
        lists: 0,
        watches: [
          ['early', true, 0.046],
          ['expired', false, null],
          // kubectl wait's deadline: `Stopping reflector` ended the relist's watch.
          ['client-closed', true, 0.007],
        ],
        relists: [['watch-list', 'expired', 1.525]],
      },
      {
        // -v=4: no URL; the line alone says the reflector listed by a WatchList watch.
        file: 'client-go-watchlist-printf-0.30.log',
        mode: 'watch-list',
        lists: 0,
        watches: [
          ['early', true, 0.25],
          ['expired', false, null],
          ['open', true, 0.12],
        ],
        relists: [['watch-list', 'expired', 1.1]],
      },
      {
        file: 'client-go-watchlist-structured-0.35.log',
        mode: 'watch-list',
        lists: 0,
        watches: [
          ['early', true, 0.042],
          ['expired', false, null],
          ['open', true, 0.03],
        ],
        relists: [['watch-list', 'expired', 1.1]],
      },
    ];
    for (const c of cases)
      it(c.file, async () => {
        const b = new ImportReportBuilder('1.36');
        const file = join(__dirname, '../../../../test/fixtures/import', c.file);
        await importFiles([{ path: file, name: c.file }], { year: 2026 }, b);
        const rep = b.finish();
        assert.strictEqual(rep.clients.length, 1, c.file);
        const cl = rep.clients[0];
        assert.deepStrictEqual([cl.mode, cl.lists], [c.mode, c.lists], c.file);
        assert.deepStrictEqual(
          cl.watchSamples
            .slice()
            .sort((x, y) => (x.receivedAt ?? 0) - (y.receivedAt ?? 0))
            .map((w) => [w.how, w.watchList, w.initialListSeconds]),
          c.watches,
          c.file,
        );
        assert.deepStrictEqual(
          cl.relistDetails.map((r) => [r.via, r.because, r.gapSeconds]),
          c.relists,
          c.file,
        );
        assert.strictEqual(rep.watches.initialListsSeconds.count, 2, c.file);
      });
  });

  it('counts 410, 429 and 504 per client, and every code and verb', () => {
    const rep = report([
      mk('list', `${pods}?resourceVersion=`, { at: 0, end: 3, code: 504, reason: 'Timeout' }),
      mk('list', `${pods}?resourceVersion=`, { at: 4, end: 7, code: 504, reason: 'Timeout' }),
      mk('list', `${pods}`, { at: 8, end: 8, code: 429, reason: 'TooManyRequests' }),
      mk('watch', `${pods}?watch=true&resourceVersion=1`, { at: 9, end: 9, code: 410 }),
      mk('get', `${pods}/web-1`, { at: 10, end: 10.01 }),
      mk('create', `${pods}`, { at: 10, end: 10.02, code: 201 }),
    ]);
    const c = client(rep, backup);
    assert.deepStrictEqual([c.http410, c.http429, c.http504], [1, 1, 2]);
    assert.deepStrictEqual(rep.requests, {
      total: 6,
      byVerb: { list: 3, watch: 1, get: 1, create: 1 },
      byCode: { '504': 2, '429': 1, '410': 1, '200': 1, '201': 1 },
    });
  });
});

describe('import report: storms', () => {
  it('one client relisting again and again within the window is a client storm', () => {
    const reqs: ImportedRequest[] = [];
    const pods = '/api/v1/pods';
    for (let i = 0; i < 4; i++) {
      const at = i * 20;
      reqs.push(
        mk('watch', `${pods}?watch=true&timeoutSeconds=300`, { ua: operator, at, end: at + 10 }),
      );
      reqs.push(mk('list', `${pods}?limit=500`, { ua: operator, at: at + 11, end: at + 11.5 }));
    }
    // Much later, one more relist: outside the storm's window.
    const late = 80 + clientStormGapMs / 1000 + 100;
    reqs.push(
      mk('watch', `${pods}?watch=true&timeoutSeconds=300`, {
        ua: operator,
        at: late - 20,
        end: late - 1,
      }),
    );
    reqs.push(mk('list', `${pods}?limit=500`, { ua: operator, at: late, end: late + 0.5 }));
    const rep = report(reqs);
    assert.strictEqual(client(rep, operator).relists, 5);
    assert.deepStrictEqual(rep.storms, [
      {
        kind: 'client',
        userAgent: operator,
        clients: 1,
        relists: 4,
        from: t0 + 11_000,
        to: t0 + 71_000,
        medianIntervalSeconds: 20,
        windowSeconds: clientStormGapMs / 1000,
      },
    ]);
  });

  it('many clients relisting at once is a herd, and fewer is none', () => {
    const herd = (n: number) => {
      const reqs: ImportedRequest[] = [];
      for (let i = 0; i < n; i++) {
        const ua = `controller-${i}/1.0`;
        reqs.push(
          mk('watch', '/api/v1/pods?watch=true&resourceVersion=5', {
            ua,
            at: 100,
            end: 100 + i * 0.5,
            code: 410,
          }),
        );
        reqs.push(
          mk('list', '/api/v1/pods?limit=500', { ua, at: 101 + i * 0.5, end: 102 + i * 0.5 }),
        );
      }
      return report(reqs);
    };
    const storms = herd(herdClients + 1).storms;
    assert.strictEqual(storms.length, 1);
    const [s] = storms;
    assert.deepStrictEqual(
      [s.kind, s.userAgent, s.clients, s.relists, s.medianIntervalSeconds, s.userAgents?.length],
      ['herd', '*', herdClients + 1, herdClients + 1, 0.5, herdClients + 1],
    );
    assert.deepStrictEqual(herd(herdClients - 1).storms, []);
  });
});

describe('import report: latency, shapes, rejects', () => {
  it('per verb and per client from the stage timestamps, watches excluded', () => {
    const rep = report([
      mk('list', '/api/v1/pods', { at: 0, end: 0.01 }),
      mk('list', '/api/v1/pods', { at: 1, end: 1.03 }),
      mk('list', '/api/v1/pods', { at: 2, end: 2.02 }),
      mk('watch', '/api/v1/pods?watch=true', { at: 3, end: 30 }),
    ]);
    const l = rep.latencyMs.list;
    assert.deepStrictEqual([l.count, l.min, l.median, l.p99, l.max], [3, 10, 20, 30, 30]);
    assert.strictEqual(rep.latencyMs.watch, undefined);
    assert.deepStrictEqual(client(rep, backup).latencyMs.list, l);
  });

  // Second review of #24: a kubectl -v=8 log's 429 printed milliseconds=2 and the report's
  // minimum read 3.027 ms, its Request and Response lines' times, while the basis text said "the
  // latency the log printed (a client's milliseconds=…)".
  it('a client log with both lines: its Request line to its Response line, as the basis text says', async () => {
    const url = 'https://127.0.0.1:34125/api/v1/namespaces/default/pods?limit=500';
    const lines = [
      `I1207 21:09:49.354420    1640 round_trippers.go:527] "Request" verb="GET" url="${url}" headers=<`,
      '\tUser-Agent: kubectl/v1.35.2 (linux/amd64) kubernetes/fdc9d74',
      ' >',
      'I1207 21:09:49.357447    1640 round_trippers.go:632] "Response" status="429 Too Many Requests" headers=<',
      '\tRetry-After: 1',
      ' > milliseconds=2',
    ];
    const { requests } = await importText(lines.join('\n') + '\n', { year: 2026 });
    const l = report(requests).latencyMs.list;
    assert.deepStrictEqual([l.count, l.min], [1, 3.027]);
    assert.match(latencyBasisText, /its Request line to its Response line/);
  });

  it('groups LISTs and WATCHes by shape and asks the explainer once per shape', async () => {
    const rep = report([
      mk('list', '/api/v1/namespaces/a/pods?limit=500&resourceVersion=0', { at: 0, end: 1 }),
      mk('list', '/api/v1/namespaces/b/pods?limit=100&resourceVersion=0', { at: 0, end: 1 }),
      mk('list', '/api/v1/namespaces/b/pods?limit=100&resourceVersion=77', { at: 0, end: 1 }),
      mk('watch', '/api/v1/pods?watch=true&resourceVersion=77&timeoutSeconds=5', { at: 0, end: 5 }),
      mk('get', '/api/v1/namespaces/a/pods/x', { at: 0, end: 1 }),
    ]);
    assert.deepStrictEqual(
      rep.servedAs.map((s) => [s.shape, s.requests]),
      [
        ['LIST /api/v1/namespaces/{namespace}/pods?limit=…&resourceVersion=0', 2],
        ['LIST /api/v1/namespaces/{namespace}/pods?limit=…&resourceVersion=N', 1],
        ['WATCH /api/v1/pods?resourceVersion=N&watch=true', 1],
      ],
    );
    const asked: string[] = [];
    await explainShapes(rep, (url, { profile }) => {
      asked.push(`${profile} ${url}`);
      if (url.includes('watch')) return Promise.reject(new Error('no explainer for this'));
      return Promise.resolve({
        kind: 'list',
        servedBy: 'cache',
        rule: 'resourceVersion=0: served from the watch cache',
        limitHonoured: false,
        consistentRead: false,
        mayWait: false,
      });
    });
    assert.deepStrictEqual(asked, [
      '1.36 /api/v1/namespaces/a/pods?limit=500&resourceVersion=0',
      '1.36 /api/v1/namespaces/b/pods?limit=100&resourceVersion=77',
      '1.36 /api/v1/pods?watch=true&resourceVersion=77&timeoutSeconds=5',
    ]);
    assert.strictEqual(rep.servedAs[0].explained?.servedBy, 'cache');
    assert.strictEqual(rep.servedAs[2].error, 'no explainer for this');
  });

  it(`counts every rejected line and keeps the first ${maxRejectedSamples} with their positions`, () => {
    const b = new ImportReportBuilder();
    for (let i = 1; i <= 30; i++)
      b.reject({
        file: 'a.log',
        line: i,
        format: 'audit',
        reason: 'expected an audit.k8s.io/v1 Event',
        text: '<script>',
      });
    const rep = b.finish({
      records: 0,
      lines: 30,
      skipped: 0,
      files: [{ file: 'a.log' }],
      assumptions: { year: { value: 2025, from: '--year' }, timeZone: 'UTC' },
    });
    assert.strictEqual(rep.rejected.count, 30);
    assert.strictEqual(rep.rejected.samples.length, maxRejectedSamples);
    assert.deepStrictEqual(
      [rep.rejected.samples[0].file, rep.rejected.samples[0].line],
      ['a.log', 1],
    );
    assert.deepStrictEqual(rep.assumptions.year, { value: 2025, from: '--year' });
  });
});

describe('import report: Distribution', () => {
  it('is exact up to its limit, then within 1% from its buckets', () => {
    const small = new Distribution();
    for (const v of [5, 1, 3]) small.add(v);
    assert.deepStrictEqual(small.summary(), {
      count: 3,
      min: 1,
      median: 3,
      p99: 5,
      max: 5,
      exact: true,
    });
    const big = new Distribution();
    for (let i = 1; i <= 100_000; i++) big.add(i);
    const s = big.summary();
    assert.ok(big.count > exactLimit && !s.exact);
    assert.deepStrictEqual([s.count, s.min, s.max], [100_000, 1, 100_000]);
    assert.ok(Math.abs((s.median as number) - 50_000) / 50_000 < 0.01, `median ${s.median}`);
    assert.ok(Math.abs((s.p99 as number) - 99_000) / 99_000 < 0.01, `p99 ${s.p99}`);
  });
});

describe('import report in a run (RunModel.imported)', () => {
  const header = {
    format: 'listwatch-trace' as const,
    version: 2 as const,
    scenario: 'import',
    profile: '1.36',
    seed: 0,
    params: {},
  };
  it("the trace input {action: 'imported'} is folded into the model; a run without one has none", () => {
    const rep = report([mk('list', '/api/v1/pods', { at: 0, end: 1 })]);
    const withIt = new RunModelBuilder(header);
    withIt.add({ kind: 'input', at: 0, action: 'imported', report: rep });
    assert.deepStrictEqual(withIt.finish().imported, rep);
    assert.strictEqual('imported' in new RunModelBuilder(header).finish(), false);
  });
});
