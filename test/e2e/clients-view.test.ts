// The inspector's Clients tab in the real workbench, driven in Chromium: watch-cache-resize's late
// client (a LIST, then a WATCH from its old RV answered 410 Expired) as a row with its counts at
// the scrubber's time, its requests in time order, a LIST sent on to the Lists tab; and
// watchlist-starvation's WatchList clients, each WATCH refused with 504 and restarted; and a
// live-style trace (test/fixtures/live-clients.jsonl: user agents and connection ids as a live
// run's recorder writes them; two kubectl connections, one chunked LIST chain complete and one
// broken by 410 Expired and restarted, a `get -w` whose watch timed out and resumed from its last
// RV, and relisty-operator, whose watch the server closed, whose re-watch got 410 and which relisted
// in two pages). Screenshots go to test-results/e2e/ (clients-*.png).
import * as assert from 'assert';
import * as path from 'path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import {
  cutTableCells,
  inspectorFrame,
  inspectorHook,
  inspectorPanel,
  showTab,
} from '../harness/inspector-panel';
import {
  listWatchSideBar,
  openActivity,
  openFromFileDialog,
  runScenarioFromPalette,
  uiTimeoutMs,
} from '../harness/workbench-driver';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
const liveTrace = path.join(fixtures, 'live-clients.jsonl');
const kubectl = 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0';
const shots = testResultsDir('e2e');

/** What the webview's debugging hook answers (webview/main.ts). */
interface InspectorHook {
  /** Client, connection, LISTs, WATCHes, 410s, restarts, relists, as the table shows them. */
  clientRows(): string[][];
  problems(): string[];
}

describe('the inspector: the Clients tab', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });
  const panel = (): FrameLocator => inspectorPanel(page);
  const hook = <T>(read: (h: InspectorHook) => T): Promise<T> => inspectorHook(page, read);

  const runScenario = (name: string, set: Record<string, string> = {}): Promise<void> =>
    runScenarioFromPalette(page, name, set);

  async function waitForRun(title: RegExp): Promise<void> {
    await panel().locator('.run-header h1', { hasText: title }).waitFor({ timeout: 120_000 });
  }

  /** The rows once the table shows `n` of them. */
  async function rowsWhen(ok: (rows: string[][]) => boolean): Promise<string[][]> {
    const deadline = Date.now() + uiTimeoutMs;
    for (;;) {
      const rows = await hook((h) => h.clientRows());
      if (ok(rows) || Date.now() > deadline) return rows;
      await page.waitForTimeout(100);
    }
  }

  before(async function () {
    ({ server, browser, page } = await openWorkbench({
      folder: fixtures,
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
      await shot(`clients-failed-${this.currentTest.title.replace(/\W+/g, '-')}.png`).catch(
        () => undefined,
      );
  });

  it("watch-cache-resize: the late client's LIST and its WATCH answered 410, at the scrubber's time", async () => {
    await runScenario('watch-cache-resize');
    await waitForRun(/^The watch cache history/);
    await showTab(page, 'Clients');
    // At the end of the run: one LIST, one WATCH, its 410.
    const atEnd = [['late-watcher', '', '1', '1', '1', '0', '0']];
    assert.deepStrictEqual(await rowsWhen((r) => r.length === 1), atEnd);
    const row = panel().locator('.clients-view .vt-row', { hasText: 'late-watcher' });
    await row.click();
    const detail = panel().locator('.clients-view .detail');
    await detail
      .locator('.client-request.watch', { hasText: '410 Expired' })
      .waitFor({ timeout: uiTimeoutMs });
    await detail
      .locator('.client-request.list', { hasText: '100 items, no etcd request' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await panel().locator('.clients-view .count').textContent()) ?? '',
      /^1 client in the run/,
    );
    await shot('clients-1-watch-cache-resize-410.png');

    // At 0 s nothing has been sent: the counts say so, and the detail too.
    const slider = panel().locator('.tl-slider');
    await slider.focus();
    await page.keyboard.press('Home');
    assert.deepStrictEqual(await rowsWhen((r) => r[0]?.[2] === '0'), [
      ['late-watcher', '', '0', '0', '0', '0', '0'],
    ]);
    await detail.locator('.hint', { hasText: 'No request sent by 0.000 s.' }).waitFor({
      timeout: uiTimeoutMs,
    });
    await slider.focus();
    await page.keyboard.press('End');
    assert.deepStrictEqual(await rowsWhen((r) => r[0]?.[4] === '1'), atEnd);

    // A LIST goes to the Lists tab, selected there.
    await detail.locator('vscode-button', { hasText: 'In Lists' }).click();
    await panel()
      .locator('vscode-panel-tab[aria-selected="true"]', { hasText: 'Lists' })
      .waitFor({ timeout: uiTimeoutMs });
    await panel()
      .locator('#view-lists .vt-row.selected', { hasText: 'late-watcher' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.deepStrictEqual(await hook((h) => h.problems()), []);
  });

  it('watchlist-starvation: each WatchList client restarts its refused WATCH; a watch goes to Watchers', async () => {
    await runScenario('watchlist-starvation', { watchers: '3' });
    await waitForRun(/WatchList/);
    await showTab(page, 'Clients');
    const rows = await rowsWhen((r) => r.length === 3);
    assert.strictEqual(rows.length, 3, JSON.stringify(rows));
    for (const r of rows) {
      assert.match(r[0], /^watchlist-0000[123]$/);
      const [lists, watches, expired, restarts, relists] = r.slice(2).map(Number);
      assert.deepStrictEqual([lists, expired, relists], [0, 0, 0], r[0]);
      assert.ok(watches >= 2, `${r[0]}: refused at least once, then watched`);
      assert.strictEqual(restarts, watches - 1, `${r[0]}: every WATCH after the first restarts`);
    }
    await panel().locator('.clients-view .vt-row').first().click();
    const detail = panel().locator('.clients-view .detail');
    await detail
      .locator('.client-request.watch .restart', { hasText: 'asks for no resourceVersion' })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await shot('clients-2-watchlist-restarts.png');
    await detail.locator('vscode-button', { hasText: 'In Watchers' }).last().click();
    await panel()
      .locator('vscode-panel-tab[aria-selected="true"]', { hasText: 'Watchers' })
      .waitFor({ timeout: uiTimeoutMs });
    await panel()
      .locator('.watchers-view .detail h2', { hasText: /Watcher \d+/ })
      .waitFor({ timeout: uiTimeoutMs });
    assert.deepStrictEqual(await hook((h) => h.problems()), []);
  });

  it('a live-style trace: clients by user agent and connection, chains, a 410, a relist and its cost', async () => {
    await openFromFileDialog(page, 'List/Watch: Open Trace…', liveTrace);
    await waitForRun(/live-clients\.jsonl/);
    await showTab(page, 'Clients');
    // The most eventful first: 410s, then relists, restarts, requests.
    assert.deepStrictEqual(await rowsWhen((r) => r.length === 3), [
      ['relisty-operator/v0.3.1', 'c2', '4', '3', '1', '1', '1'],
      ['kubectl/v1.33.1', 'c1', '6', '0', '1', '0', '0'],
      ['kubectl/v1.33.1', 'c3', '1', '2', '0', '1', '0'],
    ]);
    const rows = panel().locator('.clients-view .vt-row');
    assert.strictEqual(
      await rows.nth(1).locator('.vt-cell').first().getAttribute('title'),
      kubectl,
    );
    await rows.first().click();
    const detail = panel().locator('.clients-view .detail');
    await detail
      .locator('.client-request.is-relist .relist', {
        hasText: 'relist: 800 ms after the watch of 30.800 s ended (410 Expired)',
      })
      .waitFor({ timeout: uiTimeoutMs });
    await detail
      .locator('dd', { hasText: '810 items, 2 etcd requests (810 keys), 500 ms' })
      .waitFor({ timeout: uiTimeoutMs });
    await detail.locator('.client-request.is-relist').first().scrollIntoViewIfNeeded();
    await shot('clients-3-live-relist.png');
    await rows.nth(1).click();
    await detail
      .locator('.chain-summary', { hasText: 'chain 1: 3 pages, complete' })
      .waitFor({ timeout: uiTimeoutMs });
    await detail
      .locator('.chain-summary', {
        hasText: 'chain 2: 2 pages, broken by 410 Expired, restarted from scratch as chain 3',
      })
      .waitFor({ timeout: uiTimeoutMs });
    await detail
      .locator('.client-request', { hasText: 'continues from start key "pod-0001␀" at rv 100' })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await shot('clients-4-live-chains.png');
    assert.deepStrictEqual(await hook((h) => h.problems()), []);
  });

  it('stays usable at 500 px wide: six tabs and the Clients table fit the panel', async () => {
    const frame = await inspectorFrame(page);
    await page.setViewportSize({ width: 560, height: 900 });
    await page.waitForTimeout(800);
    for (const tab of ['Clients', 'Watchers']) {
      await showTab(page, tab);
      await page.waitForTimeout(300);
      const overflow = await frame.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 1, `${tab}: the page is ${overflow} px wider than the panel`);
    }
    await showTab(page, 'Clients');
    await shot('clients-5-narrow.png');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  // #24: at 1100×720 with the side bar open (1400 px beside a detail pane is as narrow) a table
  // narrower than its columns cut the last ones off (the Clients table's Faults). Each table of the
  // live-style trace reads whole: a column is drawn inside the table's box, or folded, named in
  // the toolbar and said in the selected row's detail.
  it('at 1100×720 with the side bar: every column of the Clients and Lists tables reads whole or is folded', async () => {
    await page.setViewportSize({ width: 1100, height: 720 });
    await listWatchSideBar(page);
    const tables = [
      // Clients folds; Lists fits (its columns with nothing to say are hidden).
      { tab: 'Clients', view: '#view-clients', folds: true },
      { tab: 'Lists', view: '#view-lists', folds: false },
    ];
    try {
      for (const t of tables) {
        await showTab(page, t.tab);
        await panel().locator(`${t.view} .vt-row`).first().waitFor({ timeout: uiTimeoutMs });
        await page.waitForTimeout(500);
        const seen = await panel()
          .locator(`${t.view} .vt`)
          .evaluate((table) => {
            const cells = Array.from(table.querySelectorAll('.vt-headcell')) as HTMLElement[];
            return {
              drawn: cells.filter((c) => !c.hidden).map((c) => (c.textContent ?? '').trim()),
              notDrawn: cells.filter((c) => c.hidden).map((c) => (c.textContent ?? '').trim()),
            };
          });
        // The Clients table's text reads whole too; the Lists table's long request and rule
        // wrap onto its lines and may stop there (their tooltip and the detail say them whole).
        const cut = (await cutTableCells(page, t.view)).filter(
          (c) => t.tab === 'Clients' || !/ px × [1-9]\d* px$/.test(c),
        );
        assert.deepStrictEqual(cut, [], `${t.tab} at 1100×720 (columns ${seen.drawn.join(', ')})`);
        const folded = panel().locator(`${t.view} .folded-columns`);
        if (t.folds)
          assert.strictEqual(
            await folded.textContent(),
            `Narrow table: ${seen.notDrawn.join(', ')} in the selected client's detail`,
            `${t.tab}: drawn ${seen.drawn.join(', ')}`,
          );
        await shot(`clients-6-${t.tab.toLowerCase()}-1100x720.png`);
      }
      // Watch cache and Metrics are plain tables: they wrap, and nothing in them is out of reach.
      for (const [tab, view] of [
        ['Watch cache', '#view-watchCache'],
        ['Metrics', '#view-metrics'],
      ]) {
        await showTab(page, tab);
        await page.waitForTimeout(500);
        const wide = await panel()
          .locator(view)
          .evaluate((v) =>
            Array.from(v.querySelectorAll('table'))
              .filter((t) => t.getBoundingClientRect().right > v.getBoundingClientRect().right + 1)
              .map((t) => t.getAttribute('aria-label') ?? t.className),
          );
        assert.deepStrictEqual(wide, [], `${tab}: tables wider than the tab at 1100×720`);
        await shot(`clients-6-${tab.replace(' ', '-').toLowerCase()}-1100x720.png`);
      }
      // A folded column's figures are said in the selected client's detail.
      await showTab(page, 'Clients');
      await panel().locator('.clients-view .vt-row', { hasText: 'relisty-operator' }).click();
      await panel()
        .locator('.clients-view .detail dd', { hasText: '810 items, 2 etcd requests (810 keys)' })
        .waitFor({ timeout: uiTimeoutMs });
      assert.deepStrictEqual(await hook((h) => h.problems()), []);
    } finally {
      // Clicking the icon of the side bar that shows hides it again.
      await openActivity(page, 'List/Watch');
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });
});
