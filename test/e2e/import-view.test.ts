// The inspector's Import tab in the real workbench, driven in Chromium: a trace that carries an
// import's analysis ({action: 'imported'}, as `listwatch import --trace` writes it) opens with the
// tab; its clients table, a backup chain broken by 410 Expired and restarted with its decoded
// tokens, an informer's relist, and rejected lines with their positions, hostile text shown as
// text. A trace without an import has no Import tab. Screenshot: test-results/e2e/import-*.png.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { encodeContinue } from '../../src/engine/storage/continue';
import { ImportReportBuilder } from '../../src/import/import-report';
import type { ImportedRequest } from '../../src/run/imported-request';
import type { ImportReport } from '../../src/run/import-report';
import { renderImportReport } from '../../src/cli/import-report-text';
import { chainRetryTexts, joinsText, singleListsText } from '../../src/run/views/chain-text';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import { inspectorHook, inspectorPanel, showTab } from '../harness/inspector-panel';
import { openFromFileDialog, uiTimeoutMs } from '../harness/workbench-driver';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';

const root = projectRoot();
const shots = testResultsDir('e2e');
const folder = testResultsDir('e2e', 'import-traces');
const hostile = 'evil/1.0 <script>alert(1)</script><img src=x onerror=alert(2)>';
const t0 = Date.UTC(2025, 2, 12, 10, 15, 0);
const informer = 'informer/1.35.0';
const lister = 'lister/2.0';
const watchList =
  'allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=300&watch=true';

function req(
  verb: string,
  uri: string,
  ua: string,
  at: number,
  end: number,
  code = 200,
): ImportedRequest {
  const line = Math.round(at * 10) + 1;
  return {
    id: `${ua}:${at}`,
    sources: [{ file: 'audit.log', line, format: 'audit' }],
    verb,
    requestURI: uri,
    userAgent: ua,
    user: 'system:serviceaccount:ops:backup',
    receivedAt: t0 + at * 1000,
    completedAt: t0 + end * 1000,
    startInFile: true,
    endInFile: true,
    code,
    ...(code === 410
      ? { status: { reason: 'Expired', message: 'The provided continue parameter is too old' } }
      : {}),
  };
}

const token = (last: string, rv: number) =>
  encodeContinue(`/registry/pods/${last}\u0000`, '/registry/pods/', rv);

function writeTraces(): { imported: string; plain: string; report: ImportReport } {
  fs.mkdirSync(folder, { recursive: true });
  const b = new ImportReportBuilder('1.36');
  const backup = 'backup-agent/1.7.0';
  for (const r of [
    req('list', '/api/v1/pods?limit=500', backup, 0, 0.2),
    req('list', `/api/v1/pods?limit=500&continue=${token('default/web-1', 41007)}`, backup, 1, 1.2),
    req(
      'list',
      `/api/v1/pods?limit=500&continue=${token('default/web-9', 41007)}`,
      backup,
      400,
      400.1,
      410,
    ),
    req('list', '/api/v1/pods?limit=500', backup, 402, 402.3),
    req(
      'list',
      `/api/v1/pods?limit=500&continue=${token('default/web-1', 52000)}`,
      backup,
      403,
      403.2,
    ),
    req('watch', '/api/v1/pods?watch=true&timeoutSeconds=300', hostile, 0, 30),
    req('list', '/api/v1/pods?limit=500', hostile, 31, 31.1),
    // A WatchList informer: its list ends at the initial-events-end bookmark its reflector logged,
    // its watch ends early, and its next WatchList WATCH 1 s later is its relist.
    {
      ...req('watch', `/api/v1/pods?${watchList}`, informer, 40, 70),
      initialEventsEnd: {
        at: t0 + 40_800,
        items: 120,
        durationMs: 800,
        source: { file: 'informer.log', line: 9, format: 'client-go' as const },
      },
    },
    req('watch', `/api/v1/pods?${watchList}`, informer, 71, 371),
    // A lister joined from a second file: its first page answered 504 and sent again as it was (a
    // retry in its chain), its second page, then a LIST without limit that came back whole (a
    // single LIST).
    {
      ...req('list', '/api/v1/pods?limit=100', lister, 500, 500.1, 504),
      joinedBy: 'audit-id' as const,
    },
    {
      ...req('list', '/api/v1/pods?limit=100', lister, 501, 501.2),
      joinedBy: 'time-verb-url' as const,
    },
    req(
      'list',
      `/api/v1/pods?limit=100&continue=${token('default/web-99', 41007)}`,
      lister,
      502,
      502.2,
    ),
    req('list', '/api/v1/configmaps', lister, 510, 510.1),
  ])
    b.request(r);
  b.reject({
    file: 'audit.log',
    line: 4242,
    format: 'audit',
    reason: 'expected an audit.k8s.io/v1 Event: unexpected end of JSON input',
    text: '{"kind":"Event","userAgent":"<b>bold</b>',
  });
  const report = b.finish({
    records: 15,
    lines: 4242,
    skipped: 0,
    rejected: 1,
    files: [
      { file: 'audit.log', format: 'audit' },
      { file: 'lister.log', format: 'kubectl' },
    ],
    assumptions: { timeZone: 'UTC' },
  });
  const header = (scenario: string) =>
    JSON.stringify({
      format: 'listwatch-trace',
      version: 2,
      scenario,
      profile: '1.36',
      seed: 0,
      params: {},
    });
  const imported = path.join(folder, 'imported-audit.jsonl');
  fs.writeFileSync(
    imported,
    `${header('import')}\n${JSON.stringify({ kind: 'input', at: 0, action: 'imported', report })}\n`,
  );
  const plain = path.join(folder, 'not-imported.jsonl');
  fs.writeFileSync(
    plain,
    `${header('import')}\n${JSON.stringify({ kind: 'input', at: 0, action: 'phase', name: 'start', text: 'nothing imported' })}\n`,
  );
  return { imported, plain, report };
}

interface InspectorHook {
  importRows(): string[][];
  problems(): string[];
}

describe('the inspector: the Import tab', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let traces: { imported: string; plain: string; report: ImportReport };

  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });
  const panel = (): FrameLocator => inspectorPanel(page);

  async function openTrace(file: string): Promise<void> {
    await openFromFileDialog(page, 'List/Watch: Open Trace…', file);
    await panel()
      .locator('.run-params', { hasText: path.basename(file) })
      .waitFor({ timeout: 120_000 });
  }

  before(async function () {
    traces = writeTraces();
    ({ server, browser, page } = await openWorkbench({
      folder,
      extensionDevelopmentPath: root,
      settings: screenshotSettings,
    }));
    await page.keyboard.press('Control+B');
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await shot(`import-failed-${this.currentTest.title.replace(/\W+/g, '-')}.png`).catch(
        () => undefined,
      );
  });

  it('shows the clients, the broken chain and its restart with decoded tokens, the relist and the rejects, as text', async () => {
    await openTrace(traces.imported);
    await showTab(page, 'Import');
    const rows = await inspectorHook(page, (h: InspectorHook) => h.importRows());
    assert.deepStrictEqual(rows, [
      ['backup-agent/1.7.0', 'LISTs only', '5', '5', '0', '1', '0', '0', '0', '2', '—'],
      ['lister/2.0', 'LISTs only', '4', '4', '0', '0', '0', '1', '0', '1', '—'],
      ['evil/1.0', 'LIST + WATCH', '2', '1', '1', '0', '0', '0', '1', '1', '30 s'],
      ['informer/1.35.0', 'WatchList', '2', '0', '2', '0', '0', '0', '1', '0', '30 s'],
    ]);
    const detail = panel().locator('.import-client');
    await detail
      .locator('li[data-chain="1"]', {
        hasText: 'broken by 410 Expired at page 3, restarted as chain 2',
      })
      .waitFor({ timeout: uiTimeoutMs });
    const chain1 = (await detail.locator('li[data-chain="1"]').textContent()) ?? '';
    assert.match(
      chain1,
      /page 2: continue at rv 41007 from key "\/registry\/pods\/default\/web-1␀" \(DecodeContinue; linked by first-page\)/,
    );
    assert.match(chain1, /410: The provided continue parameter is too old/);
    const chain2 = (await detail.locator('li[data-chain="2"]').textContent()) ?? '';
    assert.match(chain2, /restarts chain 1 from scratch \(no continue\)/);
    assert.match(chain2, /page 2: continue at rv 52000/);
    const rejected = (await panel().locator('.import-rejected').textContent()) ?? '';
    assert.match(
      rejected,
      /audit\.log:4242 expected an audit\.k8s\.io\/v1 Event: unexpected end of JSON input: \{"kind":"Event","userAgent":"<b>bold<\/b>/,
    );
    await shot('import-tab.png');

    // The hostile client: its relist, and its user agent as text (no element was made of it).
    await panel().locator('.import-clients tbody tr', { hasText: 'evil/1.0' }).click();
    await detail
      .locator('h2', { hasText: '<script>alert(1)</script>' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await detail.locator('.import-relists').textContent()) ?? '',
      /LIST of pods, 1 s after its watch ended early \(audit\.log:1\) · audit\.log:311 · chain 3/,
    );
    assert.strictEqual(
      await panel().locator('.import-view script, .import-view img, .import-view b').count(),
      0,
    );
    assert.deepStrictEqual(await inspectorHook(page, (h: InspectorHook) => h.problems()), []);
    await shot('import-tab-relist.png');

    // The WatchList informer: its re-list is a WATCH with sendInitialEvents=true, counted and
    // named as one; its list time ends at the bookmark its reflector logged.
    await panel().locator('.import-clients tbody tr', { hasText: informer }).click();
    await detail.locator('h2', { hasText: informer }).waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await detail.locator('.import-relists').textContent()) ?? '',
      /WatchList WATCH \(sendInitialEvents=true\) of pods, 1 s after its watch ended early \(audit\.log:401\) · audit\.log:711/,
    );
    assert.match(
      (await panel().locator('.import-view').textContent()) ?? '',
      /WatchList lists.*to the bookmark that ends the initial events; the watch goes on/,
    );
    await shot('import-tab-watchlist-relist.png');
  });

  it("shows how each file's records were joined, a retried first page and the single LISTs, in the CLI's words", async () => {
    await openTrace(traces.imported);
    await showTab(page, 'Import');
    const cli = renderImportReport(traces.report);
    const joins = joinsText(traces.report);
    assert.strictEqual(
      joins,
      '1 by Audit-Id, 1 by time+verb+URL (the joins rule), 11 from one file only (not joined)',
    );
    assert.ok(cli.includes(`Joined across files: ${joins}`), 'the CLI says the same');
    const summary = panel().locator('.import-summary');
    await summary.locator('dd', { hasText: joins }).waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await summary.textContent()) ?? '',
      /Joined across files1 by Audit-Id, 1 by time\+verb\+URL/,
    );

    await panel().locator('.import-clients tbody tr', { hasText: lister }).click();
    const detail = panel().locator('.import-client');
    await detail.locator('h2', { hasText: lister }).waitFor({ timeout: uiTimeoutMs });
    const chain = detail.locator('li[data-chain="4"]');
    await chain.waitFor({ timeout: uiTimeoutMs });
    const chainText = (await chain.textContent()) ?? '';
    assert.match(chainText, /2 pages \(1 retry\) of limit 100 · codes 504 200 200/);
    const lister4 = traces.report.clients.find((c) => c.userAgent === lister)!;
    const retry = chainRetryTexts(lister4.paginationChains[0]);
    assert.deepStrictEqual(retry, [
      'page 1 sent again after its 504 answer: the same request (no continue), a retry (client-go re-sends a request answered 429 or 5xx), not a new chain',
    ]);
    assert.deepStrictEqual(
      await chain.locator('.import-retry').allTextContents(),
      retry,
      'the retry, as the CLI says it',
    );
    assert.ok(cli.includes(`    ${retry[0]}\n`), 'the CLI says the same');
    const single = singleListsText(1);
    assert.strictEqual(
      ((await detail.locator('.import-single-lists').textContent()) ?? '').trim(),
      single,
    );
    assert.ok(cli.includes(`lister/2.0: ${single}\n`), 'the CLI says the same');
    const rules = panel().locator('details.legend', { hasText: 'The rules these figures follow' });
    await rules.locator('summary').click();
    assert.match(
      (await rules.textContent()) ?? '',
      /Joins.*without Audit-Id joins the audit event/,
    );
    await detail.scrollIntoViewIfNeeded();
    await shot('import-tab-joins-retry.png');
  });

  it('a run without an import has no Import tab', async () => {
    await openTrace(traces.plain);
    await panel()
      .locator('vscode-panel-tab', { hasText: 'Watchers' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.strictEqual(await panel().locator('vscode-panel-tab#tab-import').isVisible(), false);
    await openTrace(traces.imported);
    await panel()
      .locator('vscode-panel-tab#tab-import')
      .waitFor({ state: 'visible', timeout: uiTimeoutMs });
  });
});
