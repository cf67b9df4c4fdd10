// Tests for src/import/pagination-chains.ts: which pages make one pagination chain. The issue's
// case (test/fixtures/import/kubectl-chunked-audit.log, a Metadata-level audit log): three
// `kubectl get pods --chunk-size=500` runs over 1,200 pods read at one RV, the second started while
// the first was still paging, between another client's LISTs that came back whole. Then a table of
// the rule's cases: the token the previous page answered, a retried page, a LIST that came back
// whole, a start key that goes back.
import type { ImportReport, ImportedClient } from '../../../src/run/import-report';
import * as assert from 'assert';
import * as path from 'path';
import { encodeContinue } from '../../../src/engine/storage/continue';
import { importFiles } from '../../../src/import/import-files';
import { ImportReportBuilder } from '../../../src/import/import-report';
import { singleListsText } from '../../../src/run/views/chain-text';
import type { ImportedRequest } from '../../../src/run/imported-request';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures/import');
const kubectl = 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0';
const informer = 'inventory-sync/v0.4.2 (linux/amd64) kubernetes/$Format';

function client(rep: ImportReport, ua: string): ImportedClient {
  const c = rep.clients.find((x) => x.userAgent === ua);
  assert.ok(c, `no client ${ua} in ${rep.clients.map((x) => x.userAgent).join(', ')}`);
  return c;
}

/** Each chain as pages, RV and the start keys its tokens carry. */
function shape(c: ImportedClient): Array<{ pages: number; rv: string | null; starts: string[] }> {
  return c.paginationChains.map((x) => ({
    pages: x.pages,
    rv: x.resourceVersion,
    starts: x.tokens.map((t) => ('error' in t ? t.error : t.startKey)),
  }));
}

describe('pagination chains: three interleaved kubectl --chunk-size=500 lists at one RV', () => {
  let report: ImportReport;
  before(async () => {
    const file = path.join(fixtures, 'kubectl-chunked-audit.log');
    const builder = new ImportReportBuilder();
    const totals = await importFiles([{ path: file, name: 'audit.log' }], {}, builder);
    report = builder.finish(totals);
  });

  it('are three chains of 3 pages, each starting at its own first page', () => {
    const c = client(report, kubectl);
    const run = { pages: 3, rv: '5210', starts: ['pod-0499\u0000', 'pod-0999\u0000'] };
    assert.deepStrictEqual(shape(c), [run, run, run]);
    assert.ok(
      c.paginationChains.every((x) => !x.orphan && x.codes.every((code) => code === 200)),
      JSON.stringify(c.paginationChains),
    );
    assert.strictEqual(c.chainsTotal, 3);
    assert.strictEqual(c.singleLists, 0);
    assert.strictEqual(c.lists, 9);
  });

  it("counts the other client's LISTs that came back whole as single LISTs, not chains", () => {
    const c = client(report, informer);
    assert.deepStrictEqual(c.paginationChains, []);
    assert.strictEqual(c.chainsTotal, 0);
    assert.strictEqual(c.singleLists, 3);
    assert.strictEqual(c.lists, 3);
  });

  it('says the rule it follows', () => {
    assert.match(report.rules.chains, /starts at a first page \(no continue\)/);
    assert.match(report.rules.chains, /start key is after the previous page's/);
    assert.match(report.rules.chains, /single LIST, not a chain/);
  });
});

describe('pagination chains: the rule, case by case', () => {
  const t0 = Date.UTC(2026, 11, 7, 9, 0, 0);
  const ua = 'backup-agent/1.7.0';
  const pods = '/api/v1/namespaces/shop/pods';
  const tok = (last: string, rv: number) =>
    encodeContinue(`/registry/pods/shop/${last}\u0000`, '/registry/pods/shop/', rv);
  let seq = 0;
  /** A LIST at `at` s; `answer`: the continue its response carried (undefined: no response). */
  const list = (at: number, token: string, o: { code?: number; answer?: string } = {}) => {
    seq++;
    const r: ImportedRequest = {
      id: `r${seq}`,
      sources: [{ file: 'audit.log', line: seq, format: 'audit' }],
      verb: 'list',
      requestURI: token ? `${pods}?limit=2&continue=${token}` : `${pods}?limit=2`,
      userAgent: ua,
      user: 'system:serviceaccount:ops:backup',
      startInFile: true,
      endInFile: true,
      receivedAt: t0 + at * 1000,
      completedAt: t0 + at * 1000 + 50,
      code: o.code ?? 200,
    };
    if (o.answer !== undefined) r.response = { continue: o.answer };
    return r;
  };
  const cases: Array<{
    name: string;
    reqs: () => ImportedRequest[];
    want: Array<{
      pages: number;
      codes: number[];
      outcome: string;
      linkedBy: string[];
      retries?: Array<{ attempt: number; retryOf: number }>;
    }>;
    singleLists: number;
    /** Of the single LISTs, those retried (0 when absent). */
    singleListsRetried?: number;
  }> = [
    {
      name: 'a retried first page (504, the same query, no continue) stays in its chain',
      reqs: () => [
        list(0, '', { code: 504 }),
        list(1, ''),
        list(2, tok('a', 7)),
        list(3, tok('c', 7)),
      ],
      want: [
        {
          pages: 4,
          codes: [504, 200, 200, 200],
          outcome: 'complete',
          linkedBy: ['first-page', 'rv'],
          retries: [{ attempt: 1, retryOf: 0 }],
        },
      ],
      singleLists: 0,
    },
    {
      name: 'a first page retried twice (429, then 500) stays in its chain, each retry naming the one it re-sent',
      reqs: () => [
        list(0, '', { code: 429 }),
        list(1, '', { code: 500 }),
        list(2, '', { answer: tok('a', 7) }),
        list(3, tok('a', 7), { answer: '' }),
      ],
      want: [
        {
          pages: 4,
          codes: [429, 500, 200, 200],
          outcome: 'complete',
          linkedBy: ['response'],
          retries: [
            { attempt: 1, retryOf: 0 },
            { attempt: 2, retryOf: 1 },
          ],
        },
      ],
      singleLists: 0,
    },
    {
      name: 'a one-page LIST retried (504, then the same first page answered whole) is a single LIST, not a chain',
      reqs: () => [list(0, '', { code: 504 }), list(1, '', { answer: '' })],
      want: [],
      singleLists: 1,
      singleListsRetried: 1,
    },
    {
      name: 'a first page that failed, then a LIST from scratch with another query, is two chains',
      reqs: () => [
        list(0, '', { code: 504 }),
        { ...list(1, '', { answer: '' }), requestURI: `${pods}?limit=5` },
      ],
      want: [{ pages: 1, codes: [504], outcome: 'error', linkedBy: [] }],
      singleLists: 1,
    },
    {
      name: 'a retried identical continue (after a 504) stays in its chain',
      reqs: () => [
        list(0, ''),
        list(1, tok('a', 7), { code: 504 }),
        list(2, tok('a', 7)),
        list(3, tok('c', 7)),
      ],
      want: [
        {
          pages: 4,
          codes: [200, 504, 200, 200],
          outcome: 'complete',
          linkedBy: ['first-page', 'retry', 'rv'],
          retries: [{ attempt: 2, retryOf: 1 }],
        },
      ],
      singleLists: 0,
    },
    {
      name: 'a LIST with a limit whose answer had no continue is a single LIST',
      reqs: () => [list(0, '', { answer: '' }), list(5, '', { answer: '' })],
      want: [],
      singleLists: 2,
    },
    {
      name: 'with responses, a token at the chain RV that its last page did not answer starts an orphan chain',
      reqs: () => [
        list(0, '', { answer: tok('a', 7) }),
        list(1, tok('q', 7), { answer: '' }),
        list(2, tok('a', 7), { answer: '' }),
      ],
      want: [
        { pages: 2, codes: [200, 200], outcome: 'complete', linkedBy: ['response'] },
        { pages: 1, codes: [200], outcome: 'complete', linkedBy: ['none'] },
      ],
      singleLists: 0,
    },
    {
      name: 'without responses, a start key before the previous page is not that chain',
      reqs: () => [list(0, ''), list(1, tok('m', 7)), list(2, tok('c', 7))],
      want: [
        { pages: 2, codes: [200, 200], outcome: 'complete', linkedBy: ['first-page'] },
        { pages: 1, codes: [200], outcome: 'complete', linkedBy: ['none'] },
      ],
      singleLists: 0,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const b = new ImportReportBuilder('1.36');
      for (const r of c.reqs()) b.request(r);
      const cl = client(b.finish(), ua);
      assert.deepStrictEqual(
        cl.paginationChains.map((x) => ({
          pages: x.pages,
          codes: x.codes,
          outcome: x.outcome,
          linkedBy: x.tokens.map((t) => t.linkedBy),
          ...(x.retries ? { retries: x.retries } : {}),
        })),
        c.want,
      );
      assert.strictEqual(cl.singleLists, c.singleLists);
      // A retried single LIST is said, not lost with its chain (the second review).
      assert.strictEqual(cl.singleListsRetried ?? 0, c.singleListsRetried ?? 0);
      if (c.singleListsRetried)
        assert.match(
          singleListsText(cl.singleLists, cl.singleListsRetried),
          /^1 single LIST \(from scratch, came back whole in one page: not chains; it was sent again after a 429 or 5xx answer \(a retry, not another LIST\)\)$/,
        );
    });
});
