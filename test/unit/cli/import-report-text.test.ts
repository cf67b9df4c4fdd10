// Tests for src/cli/import-report-text.ts with src/run/views/chain-text.ts: `listwatch import`'s
// text says a chain's retries, a client's single LISTs and the multi-file joins in the wording the
// Import tab uses (the e2e test import-view.test.ts checks the tab against the same functions).
import * as assert from 'assert';
import { encodeContinue } from '../../../src/engine/storage/continue';
import { ImportReportBuilder } from '../../../src/import/import-report';
import { renderImportReport } from '../../../src/cli/import-report-text';
import { joinsText, singleListsText } from '../../../src/run/views/chain-text';
import type { ImportedRequest } from '../../../src/run/imported-request';

const t0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const ua = 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0';
const pods = '/api/v1/namespaces/shop/pods';
let line = 0;

function list(
  at: number,
  uri: string,
  o: { code?: number; joinedBy?: ImportedRequest['joinedBy'] } = {},
): ImportedRequest {
  line++;
  return {
    id: `r${line}`,
    sources: [{ file: 'audit.log', line, format: 'audit' }],
    verb: 'list',
    requestURI: uri,
    userAgent: ua,
    startInFile: true,
    endInFile: true,
    receivedAt: t0 + at * 1000,
    completedAt: t0 + at * 1000 + 50,
    code: o.code ?? 200,
    ...(o.joinedBy ? { joinedBy: o.joinedBy } : {}),
  };
}

describe('listwatch import text: retries, single LISTs and joins', () => {
  const tok = encodeContinue('/registry/pods/shop/web-1\u0000', '/registry/pods/shop/', 7);
  const b = new ImportReportBuilder('1.36');
  for (const r of [
    list(0, `${pods}?limit=2`, { code: 504 }),
    list(1, `${pods}?limit=2`, { joinedBy: 'time-verb-url' }),
    list(2, `${pods}?continue=${tok}&limit=2`, { joinedBy: 'audit-id' }),
    list(9, '/api/v1/namespaces/shop/configmaps'),
  ])
    b.request(r);
  const report = b.finish({
    records: 6,
    lines: 6,
    skipped: 0,
    files: [
      { file: 'audit.log', format: 'audit' },
      { file: 'kubectl.log', format: 'kubectl' },
    ],
    assumptions: { timeZone: 'UTC' },
  });
  const text = renderImportReport(report);

  it('a retried first page: one chain of 2 pages and 1 retry, the retry said as such', () => {
    assert.match(text, /^ {4}2 pages \(1 retry\) of limit 2 · codes 504 200 200 · rv 7 · /m);
    assert.match(
      text,
      /^ {4}page 1 sent again after its 504 answer: the same request \(no continue\), a retry \(client-go re-sends a request answered 429 or 5xx\), not a new chain$/m,
    );
    assert.match(text, /^ {4}page 2: continue at rv 7 from key "\/registry\/pods\/shop\/web-1␀"/m);
  });

  it("the client's single LIST, in the Import tab's words", () => {
    assert.strictEqual(report.clients[0].singleLists, 1);
    assert.ok(text.includes(`: ${singleListsText(1)}\n`), text);
    assert.match(singleListsText(1), /^1 single LIST \(from scratch, came back whole/);
  });

  it("the joins with their counts, in the Import tab's words", () => {
    assert.strictEqual(
      joinsText(report),
      '1 by Audit-Id, 1 by time+verb+URL (the joins rule), 2 from one file only (not joined)',
    );
    assert.ok(text.includes(`Joined across files: ${joinsText(report)}\n`), text);
  });
});

describe('listwatch import text: a relist that came back whole', () => {
  // A reflector: a whole LIST, its watch answered 410, the relist LIST (no limit) a second later.
  const b = new ImportReportBuilder('1.36');
  const watch: ImportedRequest = {
    ...list(1, `${pods}?watch=true&resourceVersion=5&timeoutSeconds=300`, { code: 410 }),
    verb: 'watch',
  };
  for (const r of [list(0, `${pods}?limit=500`), watch, list(2, `${pods}?resourceVersion=5`)])
    b.request(r);
  const report = b.finish({
    records: 3,
    lines: 3,
    skipped: 0,
    files: [{ file: 'audit.log', format: 'audit' }],
    assumptions: { timeZone: 'UTC' },
  });
  const text = renderImportReport(report);

  it('is listed among the chains the CHAINS column counts, and is no single LIST', () => {
    const client = report.clients[0];
    assert.deepStrictEqual([client.relists, client.chainsTotal, client.singleLists], [1, 1, 1]);
    const header = /^Pagination chains \([^)]*: (\d+)\):$/m.exec(text);
    assert.strictEqual(header?.[1], String(client.chainsTotal), text);
    assert.match(text, /^ {4}1 page of limit|^ {4}1 page · codes 200/m, text);
  });
});
