// The inspector's Import tab in the real workbench, driven in Chromium, on a real import: the
// built CLI (`listwatch import --trace`, as a user runs it) reads six logs of one afternoon (an
// audit log, kubectl -v=6 logs joined to it by Audit-Id or by time, verb and URL, a client-go
// -v=6 log whose watch ended with an in-stream "too old resource version", and an audit log with a
// hostile User-Agent and a cut line); the trace opens with the tab, and every figure it shows is
// checked against the importer's own report (`listwatch import --json` of the same files): the
// summary, each client's counts, the chain with its decoded tokens, the relists, the joins, the
// single LISTs and the rejected line, hostile text shown as text. A trace without an import has no
// Import tab. Screenshots: test-results/e2e/import-*.png.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import type { ImportReport } from '../../src/run/import-report';
import { renderImportReport } from '../../src/cli/import-report-text';
import { importedClientName, shortImportedClientNames } from '../../src/run/views/client-name';
import { formatCount } from '../../src/format/count-text';
import {
  chainPagesText,
  chainTokenText,
  joinsText,
  singleListsText,
} from '../../src/run/views/chain-text';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import { inspectorHook, inspectorPanel, showTab } from '../harness/inspector-panel';
import { openFromFileDialog, uiTimeoutMs } from '../harness/workbench-driver';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';

const root = projectRoot();
const shots = testResultsDir('e2e');
const folder = testResultsDir('e2e', 'import-traces');
const fixtures = path.join(root, 'test', 'fixtures', 'import');
const hostile = 'evil/1.0 <script>alert(1)</script><img src=x onerror=alert(2)>';
/** The logs, as a user names them on the command line (relative to the folder). */
const logs = [
  'audit.log',
  'chunk.log',
  'w-refl.log',
  'w-wl33.log',
  'client-go-1.27-v6-expired.log',
  'hostile-audit.log',
];

/** How the Import tab names a client's mode (webview/import-view.ts), by the report's mode. */
const modeLabels: Record<string, string> = {
  'watch-list': 'WatchList',
  'list-watch': 'LIST + WATCH',
  'watch-list+list': 'WatchList and LISTs',
  'list-only': 'LISTs only',
  'watch-only': 'WATCHes only',
  none: 'other requests',
};

/** The Import tab's clients table as the importer's report says it should read. */
function expectedRows(r: ImportReport): string[][] {
  const names = shortImportedClientNames(r.clients);
  return r.clients.map((c) => [
    names.get(importedClientName(c)) || '(none)',
    modeLabels[c.mode],
    ...[
      c.requests,
      c.lists,
      c.watches,
      c.http410,
      c.http429,
      c.http504,
      c.relists,
      c.chainsTotal,
    ].map((n) => formatCount(n)),
    c.watchDurationsSeconds.median === null ? '—' : `${c.watchDurationsSeconds.median} s`,
  ]);
}

/**
 * Copies the fixture logs into the folder, writes the hostile audit log (a LIST whose User-Agent
 * is markup, and a line cut short), and runs the built CLI on them: the trace, and the report.
 */
function importLogs(): { imported: string; plain: string; report: ImportReport } {
  fs.mkdirSync(folder, { recursive: true });
  for (const f of ['audit.log', 'chunk.log', 'w-refl.log', 'w-wl33.log'])
    fs.copyFileSync(path.join(fixtures, 'wait-then-chunk', f), path.join(folder, f));
  fs.copyFileSync(
    path.join(fixtures, 'client-go-1.27-v6-expired.log'),
    path.join(folder, 'client-go-1.27-v6-expired.log'),
  );
  const event = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: 'e2e-hostile-1',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/default/pods?limit=500',
    verb: 'list',
    user: { username: 'evil' },
    userAgent: hostile,
    responseStatus: { metadata: {}, code: 200 },
    requestReceivedTimestamp: '2026-12-07T09:55:00.100000Z',
    stageTimestamp: '2026-12-07T09:55:00.140000Z',
  };
  fs.writeFileSync(
    path.join(folder, 'hostile-audit.log'),
    `${JSON.stringify(event)}\n{"kind":"Event","userAgent":"<b>bold</b>\n`,
  );
  const cli = (...args: string[]): string =>
    execFileSync(process.execPath, [path.join(root, 'dist', 'cli.js'), 'import', ...args], {
      cwd: folder,
      encoding: 'utf8',
    });
  const imported = path.join(folder, 'imported.jsonl');
  cli(...logs, '--trace', imported);
  const report = JSON.parse(cli(...logs, '--json')) as ImportReport;
  const plain = path.join(folder, 'not-imported.jsonl');
  fs.writeFileSync(
    plain,
    [
      {
        format: 'listwatch-trace',
        version: 2,
        scenario: 'import',
        profile: '1.36',
        seed: 0,
        params: {},
      },
      { kind: 'input', at: 0, action: 'phase', name: 'start', text: 'nothing imported' },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n',
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
    traces = importLogs();
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

  it("shows the importer's figures: the summary, every client's counts, the chain with its decoded tokens, the relists and the rejected line, as text", async () => {
    const r = traces.report;
    await openTrace(traces.imported);
    await showTab(page, 'Import');
    // What the importer read, as it counted it.
    const summary = (await panel().locator('.import-summary').textContent()) ?? '';
    assert.ok(
      summary.includes(
        `${formatCount(r.requests.total)} requests from ${formatCount(r.lines)} lines (${formatCount(r.skipped)} skipped, ${formatCount(r.rejected.count)} rejected)`,
      ),
      summary,
    );
    assert.strictEqual(r.requests.total, 55, 'the six logs hold 55 requests');
    // Every client, with the importer's counts.
    const rows = await inspectorHook(page, (h: InspectorHook) => h.importRows());
    assert.deepStrictEqual(rows, expectedRows(r));
    // One client per process its client log names (four kubectl processes, the client-go
    // reflector), the audit events no client log joins under their User-Agent (kubectl 1.33's,
    // kubectl 1.35, node, curl), and the hostile log's.
    assert.strictEqual(rows.length, 9, JSON.stringify(rows));

    // kubectl 1.33's paged LIST: its chain as the importer linked it, page by page, its tokens
    // decoded.
    const kubectl = r.clients.find((c) => c.paginationChains.length > 0 && c.userAgent)!;
    const chain = kubectl.paginationChains[0];
    assert.strictEqual(chain.pages, 4, 'get --chunk-size=2 of 7 pods: 4 pages');
    await panel()
      .locator('.import-clients tbody tr', {
        hasText: clientNamed(rows[r.clients.indexOf(kubectl)][0]),
      })
      .click();
    const detail = panel().locator('.import-client');
    const li = detail.locator(`li[data-chain="${chain.id}"]`);
    await li.waitFor({ timeout: uiTimeoutMs });
    const chainText = (await li.textContent()) ?? '';
    assert.ok(chainText.includes(chainPagesText(chain)), chainText);
    assert.deepStrictEqual(
      await li.locator('.import-token').allTextContents(),
      chain.tokens.map((t) => chainTokenText(chain, t)),
    );
    assert.match(
      chainText,
      /page 2: continue at rv \d+ from key "\/registry\/pods\/default\/pod-1␀"/,
    );
    // Its relists at the lines the importer names; the chunked get's process has none.
    if (kubectl.relistDetails.length === 0)
      assert.strictEqual(await detail.locator('.import-relists').count(), 0);
    else {
      const relists = (await detail.locator('.import-relists').textContent()) ?? '';
      for (const x of kubectl.relistDetails) assert.ok(relists.includes(x.line), relists);
    }
    await shot('import-tab.png');

    // The client-go reflector of the -v=6 log (no User-Agent there: named by its file and pid):
    // the in-stream "too old resource version" its watch ended with, and its relist at the
    // importer's line.
    const reflector = r.clients.find((c) => c.userAgent === '' && c.process !== undefined)!;
    assert.deepStrictEqual([reflector.http410, reflector.relists], [1, 1]);
    const process = reflector.process ?? '';
    await panel().locator('.import-clients tbody tr', { hasText: process }).click();
    await detail.locator('h2', { hasText: process }).waitFor({ timeout: uiTimeoutMs });
    const relist = (await detail.locator('.import-relists').textContent()) ?? '';
    assert.ok(relist.includes(reflector.relistDetails[0].line), relist);
    assert.match(relist, /LIST of pods, [\d.]+ s after its watch ended expired/);
    await shot('import-tab-relist.png');

    // The hostile client: its user agent and the cut line as text (no element was made of them).
    await panel().locator('.import-clients tbody tr', { hasText: 'evil/1.0' }).click();
    await detail
      .locator('h2', { hasText: '<script>alert(1)</script>' })
      .waitFor({ timeout: uiTimeoutMs });
    const rejected = (await panel().locator('.import-rejected').textContent()) ?? '';
    const cut = r.rejected.samples[0];
    assert.strictEqual(r.rejected.count, 1);
    assert.ok(rejected.includes(`${cut.file}:${cut.line} ${cut.reason}`), rejected);
    assert.match(rejected, /hostile-audit\.log:2 .*\{"kind":"Event","userAgent":"<b>bold<\/b>/);
    assert.strictEqual(
      await panel().locator('.import-view script, .import-view img, .import-view b').count(),
      0,
    );
    assert.deepStrictEqual(await inspectorHook(page, (h: InspectorHook) => h.problems()), []);
    await shot('import-tab-hostile.png');
  });

  it("shows how the files' records were joined and the single LISTs, in the CLI's words", async () => {
    const r = traces.report;
    await openTrace(traces.imported);
    await showTab(page, 'Import');
    const cli = renderImportReport(r);
    const joins = joinsText(r);
    assert.strictEqual(
      joins,
      `${r.joins.auditID} by Audit-Id, ${r.joins.timeVerbURL} by time+verb+URL (the joins rule), ${r.requests.total - r.joins.auditID - r.joins.timeVerbURL} from one file only (not joined)`,
    );
    assert.deepStrictEqual([r.joins.auditID, r.joins.timeVerbURL], [4, 9], joins);
    assert.ok(cli.includes(`Joined across files: ${joins}`), 'the CLI says the same');
    await panel()
      .locator('.import-summary dd', { hasText: joins })
      .waitFor({ timeout: uiTimeoutMs });

    const names = shortImportedClientNames(r.clients);
    const kubectl = r.clients.find((c) => c.singleLists > 0 && c.userAgent)!;
    await panel()
      .locator('.import-clients tbody tr', {
        hasText: clientNamed(names.get(importedClientName(kubectl)) ?? ''),
      })
      .click();
    const detail = panel().locator('.import-client');
    const single = singleListsText(kubectl.singleLists, kubectl.singleListsRetried);
    assert.strictEqual(
      ((await detail.locator('.import-single-lists').textContent()) ?? '').trim(),
      single,
    );
    assert.ok(cli.includes(`: ${single}\n`), 'the CLI says the same');
    const rules = panel().locator('details.legend', { hasText: 'The rules these figures follow' });
    await rules.locator('summary').click();
    assert.ok(((await rules.textContent()) ?? '').includes(r.joins.rule));
    await detail.scrollIntoViewIfNeeded();
    await shot('import-tab-joins.png');
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

/** A client row by its whole name: "kubectl/v1.33.1" is not "kubectl/v1.33.1 · chunk.log pid 1". */
function clientNamed(name: string): RegExp {
  return new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?! ·)`);
}
