// End to end: `listwatch import` on test/fixtures/audit.log (Metadata-level audit events of four
// clients) with the real readers (src/import/import-files.ts), in process and through the built
// CLI: kube-state-metrics' two-page chain at rv 48213, shop-operator's namespaced page whose first
// page is before the log, backup-agent's page answered 410 Expired and its inconsistent
// continuation (rv -1) linked to it, kubectl's single page (whose answer carried a token), and
// kube-state-metrics' resourceVersion=0 LIST that came back whole (a single LIST, not a chain).
import type { ImportReport } from '../../../src/run/import-report';
import * as assert from 'assert';
import * as path from 'path';
import { importReport, readLogFiles } from '../../../src/cli/import-command';
import { root, runCli } from './run-cli';

const fixture = path.join('test', 'fixtures', 'audit.log');

function chainsByClient(rep: ImportReport): Record<string, unknown[]> {
  return Object.fromEntries(
    rep.clients.map((c) => [
      c.userAgent.split(' ')[0],
      c.paginationChains.map((x) => ({
        path: x.path,
        pages: x.pages,
        codes: x.codes,
        outcome: x.outcome,
        rv: x.resourceVersion,
        ...(x.orphan ? { orphan: true } : {}),
        ...(x.restartOf ? { restartOf: x.restartOf.how } : {}),
        ...(x.restartedBy !== undefined ? { restarted: true } : {}),
      })),
    ]),
  );
}

const want = {
  'kube-state-metrics/v2.12.0': [
    // Its limit=500&resourceVersion=0 LIST came back whole: a single LIST, not a chain.
    { path: '/api/v1/pods', pages: 2, codes: [200, 200], outcome: 'complete', rv: '48213' },
  ],
  'backup-agent/1.7.0': [
    {
      path: '/api/v1/pods',
      pages: 1,
      codes: [410],
      outcome: 'expired',
      rv: '41007',
      orphan: true,
      restarted: true,
    },
    {
      path: '/api/v1/pods',
      pages: 1,
      codes: [200],
      outcome: 'complete',
      rv: null,
      restartOf: 'inconsistent-continue',
    },
  ],
  // Its one page (RequestResponse level) carries a continue token no later page of the log sent.
  'kubectl/v1.33.1': [{ path: '/api/v1/pods', pages: 1, codes: [200], outcome: 'open', rv: null }],
  'shop-operator/v0.9.3': [
    {
      path: '/api/v1/namespaces/shop/pods',
      pages: 1,
      codes: [200],
      outcome: 'complete',
      rv: '48213',
      orphan: true,
    },
  ],
};

describe('listwatch import: test/fixtures/audit.log end to end', () => {
  it('importFiles into the report builder: every client and chain of the fixture', async () => {
    const rep = await importReport(
      { files: [path.join(root, fixture)], profile: '1.36' },
      { importFiles: readLogFiles },
    );
    assert.deepStrictEqual([rep.requests.total, rep.rejected.count], [7, 0]);
    assert.deepStrictEqual(rep.requests.byCode, { '200': 6, '410': 1 });
    assert.deepStrictEqual(chainsByClient(rep), want);
    assert.deepStrictEqual(
      rep.clients.map((c) => [c.userAgent.split(' ')[0], c.lists, c.singleLists]),
      [
        ['kube-state-metrics/v2.12.0', 3, 1],
        ['backup-agent/1.7.0', 2, 0],
        ['kubectl/v1.33.1', 1, 0],
        ['shop-operator/v0.9.3', 1, 0],
      ],
    );
    const [broken] =
      rep.clients.find((c) => c.userAgent === 'backup-agent/1.7.0')?.paginationChains ?? [];
    assert.match(broken.expired?.message ?? '', /^The provided continue parameter is too old/);
  });

  it('the built CLI prints the same report with --json', () => {
    const r = runCli(['import', fixture, '--json']);
    assert.strictEqual(r.code, 0, r.err);
    assert.deepStrictEqual(chainsByClient(JSON.parse(r.out) as ImportReport), want);
  });
});
