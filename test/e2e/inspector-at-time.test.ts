// The List/Watch Inspector tells the truth at every instant, in the real workbench driven in
// Chromium: scrubbed to 0 s a watcher shows nothing yet, after the first heartbeat its figures
// move; each scenario opens on the tab that tells its story; the Lists detail follows the open run;
// watch-cache-resize's refused WATCH shows as a row with its 410; tabs with nothing to show say so;
// the panel at 500 px; and the panel at scale (100,000 watchers against 1,000: time to the first
// drawn rows, printed; rows asked for on demand and messages bounded, asserted). Screenshots go to
// test-results/e2e/ (at-time-*.png).
import * as assert from 'assert';
import * as path from 'path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import {
  cutTableCells,
  inspectorFrame,
  inspectorHook,
  inspectorPanel,
  showTab,
  timeText,
} from '../harness/inspector-panel';
import {
  listWatchSideBar,
  openActivity,
  runScenarioFromPalette,
  uiTimeoutMs,
} from '../harness/workbench-driver';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
const shots = testResultsDir('e2e');

/** What the webview's debugging hook answers (webview/main.ts). */
interface InspectorHook {
  run(): { id: string; title: string } | undefined;
  watcherTable(): {
    rows: number;
    matching: number;
    fetched: number;
    rendered: number;
    answers: number;
    largestPage: number;
  };
  firstFrame(): {
    runId?: string;
    loadedAt?: number;
    rowsAt?: number;
    loadedSize?: number;
    sizes: Record<string, number>;
  };
  problems(): string[];
}

describe('the inspector at every instant, and at scale', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const figures: string[] = [];

  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });
  const panel = (): FrameLocator => inspectorPanel(page);
  const hook = <T>(read: (h: InspectorHook) => T): Promise<T> => inspectorHook(page, read);

  const runScenario = (name: string, set: Record<string, string> = {}): Promise<void> =>
    runScenarioFromPalette(page, name, set);

  async function waitForRun(title: string | RegExp, timeout = 120_000): Promise<void> {
    await panel().locator('.run-header h1', { hasText: title }).waitFor({ timeout });
  }

  async function activeTab(): Promise<string> {
    return (
      (await panel().locator('vscode-panel-tab[aria-selected="true"]').textContent()) ?? ''
    ).trim();
  }

  /** The text of a watcher row's cell, by its column's header title. */
  async function cell(row: Locator, column: string): Promise<string> {
    const titles = await panel().locator('#view-watchers .vt-headcell').allTextContents();
    const i = titles.findIndex((t) => t.trim() === column);
    assert.ok(i >= 0, `no column ${column} in ${titles.join(', ')}`);
    return ((await row.locator('.vt-cell').nth(i).textContent()) ?? '').trim();
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
    if (figures.length)
      console.log(`      figures measured:\n${figures.map((t) => `        ${t}`).join('\n')}`);
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await shot(`at-time-failed-${this.currentTest.title.replace(/\W+/g, '-')}.png`).catch(
        () => undefined,
      );
  });

  it('a watcher at 0 s shows nothing yet; after the first heartbeat its figures move', async () => {
    await runScenario('bookmark-heartbeats', { watchers: '1000' });
    await waitForRun(/^Bookmark heartbeats/);
    assert.strictEqual(await activeTab(), 'Watchers', 'the story of bookmark-heartbeats');
    const first = panel().locator('#view-watchers .vt-row:not(.loading)').first();
    await panel()
      .locator('.watchers-view .count', { hasText: '1,000 of 1,000 watchers' })
      .waitFor({ timeout: uiTimeoutMs });
    const slider = panel().locator('.tl-slider');
    await slider.focus();
    await page.keyboard.press('Home');
    await panel()
      .locator('.tl-time', { hasText: /^0\.000 s of 210\.10\d s$/ })
      .waitFor({ timeout: uiTimeoutMs });
    await first.filter({ hasText: 'Not opened yet' }).waitFor({ timeout: uiTimeoutMs });
    for (const column of ['Last RV', 'Read', 'Buffer', 'Next bookmark', 'Floor RV'])
      assert.strictEqual(await cell(first, column), '—', `${column} at 0 s`);
    assert.strictEqual(
      await cell(first, 'Outcome'),
      '',
      'no outcome (nor its end) before it opens',
    );
    // Nothing selected: the pane counts the same watchers as the table, at the scrubber's time.
    const detail = panel().locator('.watchers-view .detail');
    await detail
      .locator('.hint', { hasText: 'No watch is open at 0.000 s; 1,000 open later.' })
      .waitFor({ timeout: uiTimeoutMs });
    await shot('at-time-0-no-watch-open-yet.png');
    await first.click();
    await detail.locator('.at-time', { hasText: 'Not opened yet at 0.000 s' }).waitFor({
      timeout: uiTimeoutMs,
    });
    await shot('at-time-1-watcher-at-0s.png');

    // Step to the first heartbeat tick: the phases mark the run; the tick is a moment.
    await slider.focus();
    let stepped = 0;
    for (; stepped < 20; stepped++) {
      const before = await timeText(page);
      await page.keyboard.press('ArrowRight');
      // The time is drawn on the next frame.
      await panel()
        .locator('.tl-time')
        .filter({ hasNotText: before })
        .waitFor({ timeout: uiTimeoutMs });
      const at = Number((await timeText(page)).split(' ')[0]);
      if (at >= 60) break;
    }
    // Heartbeat watchers asked for bookmarks and no initial events: Streaming, upstream's name beside.
    await first.filter({ hasText: 'StreamingBookmarkSent' }).waitFor({ timeout: uiTimeoutMs });
    await panel()
      .locator('#view-watchers .vt-row:not(.loading)')
      .first()
      .filter({ hasText: '71' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.strictEqual(await cell(first, 'Last RV'), '71', 'the first heartbeat carries RV 71');
    assert.strictEqual(await cell(first, 'Read'), '1 (1)', 'one bookmark read');
    assert.strictEqual(await cell(first, 'Next bookmark'), '120.000 s', 'the next bucket');
    assert.strictEqual(await cell(first, 'Outcome'), 'open', 'open, how it ends is later');
    await detail
      .locator('dd', { hasText: '1 (events and bookmarks; 1 bookmark sent)' })
      .waitFor({ timeout: uiTimeoutMs });
    await shot('at-time-2-watcher-after-first-heartbeat.png');

    // At the end: the run's final figures.
    await slider.focus();
    await page.keyboard.press('End');
    await panel()
      .locator('#view-watchers .vt-row:not(.loading)')
      .first()
      .filter({ hasText: '191' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.strictEqual(await cell(first, 'Read'), '3 (3)');
    // The timeline: ticks on an axis, the phases named, speeds that fit 3.5 minutes.
    const ticks = await panel().locator('.tl-axis .tl-tick').allTextContents();
    assert.ok(ticks.length >= 4 && ticks[0] === '0', `ticks: ${ticks.join(' ')}`);
    assert.deepStrictEqual(await panel().locator('.tl-phase-label').allTextContents(), [
      'watch',
      'run',
    ]);
    await panel().locator('vscode-dropdown.speed').click();
    const speeds = await panel().locator('vscode-dropdown.speed vscode-option').allTextContents();
    await page.keyboard.press('Escape');
    assert.ok(
      speeds.every((s) => /plays in/.test(s)),
      `each speed says how long the run plays: ${speeds.join(', ')}`,
    );
  });

  it('each scenario opens on the tab that tells its story; empty tabs say so', async () => {
    // Without etcd latency the whole run happens at one instant.
    await runScenario('selector-death-spiral', { etcdLatency: 'zero' });
    await waitForRun(/^A filtered LIST from etcd/);
    assert.strictEqual(await activeTab(), 'Lists');
    await panel().locator('#view-lists .vt-row').first().click();
    const detail = panel().locator('.lists-view .detail');
    await detail.locator('dd', { hasText: 'kubectl' }).first().waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await panel().locator('.lists-view .count').textContent()) ?? '',
      /^1 LIST in the run/,
    );
    await panel()
      .locator('.tl-instant', { hasText: 'happens at 0 s' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.ok(!(await panel().locator('vscode-dropdown.speed').isVisible()), 'no speed to pick');
    await shot('at-time-3-lists-story.png');
    await showTab(page, 'Watchers');
    await panel()
      .locator('#view-watchers .vt-empty', { hasText: 'This run has no watchers' })
      .waitFor({ timeout: uiTimeoutMs });
    await showTab(page, 'Watch cache');
    await panel()
      .locator('.watch-cache-view .empty-tab', {
        hasText: 'This scenario does not start the watch cache',
      })
      .waitFor({ timeout: uiTimeoutMs });
    await shot('at-time-4-watch-cache-not-started.png');
    await showTab(page, 'Metrics');
    // Buckets in le order: 0.005 before 1 before 10 before +Inf.
    const labels = await panel().locator('.metrics-view td.metric-labels').allTextContents();
    const les = labels
      .map((l) => /le="([^"]+)"/.exec(l)?.[1])
      .filter((v): v is string => v !== undefined);
    const firstFamily = les.slice(0, les.indexOf('+Inf') + 1).map(Number);
    assert.deepStrictEqual(
      firstFamily,
      [...firstFamily].sort((a, b) => a - b),
      `buckets in le order: ${les.slice(0, 20).join(', ')}`,
    );
    await shot('at-time-5-metrics.png');
  });

  it('the Lists detail follows the open run', async () => {
    // selector-death-spiral's LIST is selected; another run with LISTs opens.
    await runScenario('read-your-writes');
    await waitForRun(/^Consistent reads from a lagging watch cache/);
    assert.strictEqual(await activeTab(), 'Lists');
    const detail = panel().locator('.lists-view .detail');
    await detail.locator('.hint', { hasText: 'Select a LIST' }).waitFor({ timeout: uiTimeoutMs });
    assert.ok(
      !((await detail.textContent()) ?? '').includes('kubectl'),
      "the previous run's LIST is gone",
    );
    await panel().locator('#view-lists .vt-row').first().click();
    await detail.locator('h2', { hasText: 'LIST at' }).waitFor({ timeout: uiTimeoutMs });
    await shot('at-time-6-lists-after-switch.png');
    // Scrubbed to 0 s, before the first read is sent: no Rule, no counts, nothing of its answer.
    const slider = panel().locator('.tl-slider');
    await slider.focus();
    await page.keyboard.press('Home');
    await panel()
      .locator('.tl-time', { hasText: /^0\.000 s of / })
      .waitFor({ timeout: uiTimeoutMs });
    const row = panel().locator('#view-lists .vt-row').first();
    await row.filter({ hasText: 'not sent yet' }).waitFor({ timeout: uiTimeoutMs });
    const cells = await row.locator('.vt-cell').allTextContents();
    assert.ok(
      !cells.some((t) => /consistent read|\d+ \/ \d+ \/ \d+/.test(t)),
      `no Rule and no counts before it is sent: ${cells.join(' | ')}`,
    );
    await detail.locator('dd', { hasText: '— (not sent yet)' }).first().waitFor({
      timeout: uiTimeoutMs,
    });
    await shot('at-time-6b-lists-at-0s.png');
  });

  it("watch-cache-resize: the refused WATCH is a row with its 410, and the story is the cache's", async () => {
    await runScenario('watch-cache-resize');
    await waitForRun(/^The watch cache history/);
    assert.strictEqual(await activeTab(), 'Watch cache');
    await panel().locator('.watch-cache-view .chart-marker').first().waitFor({ timeout: 90_000 });
    await shot('at-time-7-watch-cache.png');
    await showTab(page, 'Watchers');
    const row = panel().locator('#view-watchers .vt-row.failed').first();
    await row.waitFor({ timeout: uiTimeoutMs });
    assert.strictEqual(await cell(row, 'Client'), 'late-watcher');
    assert.match(await cell(row, 'Outcome'), /^410 Expired: too old resource version/);
    await row.click();
    await panel()
      .locator('.watchers-view .detail dd', { hasText: '410 Expired' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await panel().locator('.watchers-view .count').textContent()) ?? '',
      /1 refused watch request/,
    );
    await shot('at-time-8-refused-watch.png');

    // At 1100×720 with the side bar open the table is narrower than its columns: the whole table
    // reads without scrolling sideways. What a user reads first stays (client, selector, state,
    // outcome with its 410, last RV); the less-needed columns fold into the detail pane, which
    // says each of them, and the toolbar names those folded.
    await page.setViewportSize({ width: 1100, height: 720 });
    await listWatchSideBar(page);
    try {
      await page.waitForTimeout(800);
      const table = panel().locator('#view-watchers .vt');
      const seen = await table.evaluate((t) => ({
        tableWidth: `${t.scrollWidth} px of columns in ${t.clientWidth} px`,
        drawn: Array.from(t.querySelectorAll('.vt-headcell'))
          .filter((c) => !(c as HTMLElement).hidden)
          .map((c) => (c.textContent ?? '').trim()),
      }));
      figures.push(
        `1100×720 with the side bar: Watchers table ${seen.tableWidth}, columns ${seen.drawn.join(', ')}`,
      );
      for (const column of ['Client', 'Selector', 'State', 'Outcome', 'Last RV'])
        assert.ok(seen.drawn.includes(column), `${column} drawn: ${seen.drawn.join(', ')}`);
      assert.deepStrictEqual(
        await cutTableCells(page, '#view-watchers'),
        [],
        'Watchers at 1100×720 with the side bar',
      );
      assert.match(await cell(row, 'Outcome'), /^410 Expired/);
      const folded = (await panel().locator('.watchers-view .folded-columns').textContent()) ?? '';
      const titles = ['ID', 'Read', 'Buffer', 'Next bookmark', 'Floor RV', 'Type'].filter(
        (t) => !seen.drawn.includes(t),
      );
      assert.ok(titles.length > 0, 'some columns fold at this width');
      assert.strictEqual(
        folded,
        `Narrow table: ${titles.join(', ')} in the selected watcher's detail`,
      );
      await shot('at-time-8b-watchers-1100x720.png');
      // A run with watchers at the same size: their rows read whole too (the Buffer gauge, Read
      // and Next bookmark figures fold with their columns), and a watcher's detail says what the
      // folded columns would.
      await runScenario('bookmark-heartbeats', { watchers: '50' });
      await waitForRun(/^Bookmark heartbeats/);
      await showTab(page, 'Watchers');
      const watcher = panel().locator('#view-watchers .vt-row:not(.loading)').first();
      await watcher.waitFor({ timeout: uiTimeoutMs });
      await page.waitForTimeout(500);
      assert.deepStrictEqual(
        await cutTableCells(page, '#view-watchers'),
        [],
        'Watchers of bookmark-heartbeats at 1100×720 with the side bar',
      );
      await watcher.click();
      const facts = panel().locator('.watchers-view .detail dl.facts');
      await facts.waitFor({ timeout: uiTimeoutMs });
      const factNames = await facts.locator('dt').allTextContents();
      for (const fact of [
        'Read by the client',
        'Input buffer',
        'Next bookmark',
        'Bookmark floor RV',
        'Content type',
      ])
        assert.ok(factNames.includes(fact), `${fact} in the detail: ${factNames.join(', ')}`);
      await shot('at-time-8c-watchers-1100x720-detail.png');
    } finally {
      // Clicking the icon of the side bar that shows hides it again.
      await openActivity(page, 'List/Watch');
      await page.setViewportSize({ width: 1400, height: 900 });
    }
    await showTab(page, 'Serialization');
    await shot('at-time-9-serialization.png');
  });

  it('stays usable at 500 px wide', async () => {
    const frame = await inspectorFrame(page);
    await page.setViewportSize({ width: 560, height: 900 });
    await page.waitForTimeout(800);
    const width = await frame.evaluate(() => document.body.clientWidth);
    figures.push(`narrow panel: ${width} px wide`);
    for (const [tab, name] of [
      ['Watchers', 'at-time-10-narrow-watchers.png'],
      ['Watch cache', 'at-time-11-narrow-watch-cache.png'],
      ['Lists', 'at-time-12-narrow-lists.png'],
      ['Metrics', 'at-time-13-narrow-metrics.png'],
    ] as const) {
      await showTab(page, tab);
      await page.waitForTimeout(300);
      // Nothing but the tables scrolls sideways: the page itself fits.
      const overflow = await frame.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 1, `${tab}: the page is ${overflow} px wider than the panel`);
      await shot(name);
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('at scale: rows come on demand; the first frame of 100,000 watchers against 1,000', async function () {
    this.timeout(900_000);
    await runScenario('bookmark-heartbeats', { watchers: '100000' });
    await panel()
      .locator('.watchers-view .count', { hasText: '100,000 of 100,000 watchers' })
      .waitFor({ timeout: 600_000 });
    const runs = await listWatchSideBar(page);
    const loadedSize: Record<string, number> = {};
    let reclicks = 0;
    /** Opens a run from the Runs view; the time until its first rows were drawn. */
    async function firstFrameOf(description: string): Promise<number> {
      const row = runs.locator('.monaco-list-row', { hasText: description }).first();
      let clicked = Date.now();
      await row.click();
      for (let clicks = 1; ;) {
        const f = await hook((h) => ({ ...h.firstFrame(), run: h.run() }));
        if (f.rowsAt !== undefined && f.run?.id === f.runId && f.loadedAt! >= clicked) {
          loadedSize[description] = f.loadedSize ?? 0;
          return f.rowsAt - clicked;
        }
        // A run opens in well under a second here: no run/loaded 10 s after the click means the
        // workbench lost it (seen once in CI: the row selected, the run not opened). Click
        // again, at most twice, and count it.
        if (f.loadedAt === undefined || f.loadedAt < clicked) {
          if (Date.now() - clicked > 10_000 && clicks < 3) {
            clicks++;
            reclicks++;
            clicked = Date.now();
            await row.click();
            continue;
          }
        }
        if (Date.now() - clicked > 120_000)
          throw new Error(`no first frame for ${description} after ${clicks} clicks`);
        await page.waitForTimeout(20);
      }
    }
    const small: number[] = [];
    const big: number[] = [];
    for (let i = 0; i < 3; i++) {
      small.push(await firstFrameOf('1,000 watchers'));
      big.push(await firstFrameOf('100,000 watchers'));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    figures.push(
      `first drawn frame, 1,000 watchers: ${small.join(', ')} ms (median ${median(small)} ms)`,
      `first drawn frame, 100,000 watchers: ${big.join(', ')} ms (median ${median(big)} ms)`,
      `ratio (medians): ${(median(big) / median(small)).toFixed(2)}`,
      `run/loaded: ${loadedSize['1,000 watchers']} characters for 1,000 watchers, ${loadedSize['100,000 watchers']} for 100,000`,
      `clicks on a Runs row clicked again (nothing opened within 10 s): ${reclicks}`,
    );
    // Behaviour, not times: few rows fetched, pages bounded, run/loaded the same size.
    const stats = await hook((h) => h.watcherTable());
    const frame = await hook((h) => h.firstFrame());
    figures.push(
      `100,000 watchers: ${stats.fetched} rows fetched, ${stats.rendered} in the DOM, largest page ${stats.largestPage}`,
      `largest messages of the session: ${Object.entries(frame.sizes)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')} characters`,
    );
    assert.strictEqual(stats.rows, 100_000);
    assert.ok(stats.fetched <= 400, `${stats.fetched} rows fetched for one screen`);
    assert.ok(stats.largestPage <= 200, `a page of ${stats.largestPage} rows`);
    assert.ok(
      loadedSize['100,000 watchers'] < 2 * loadedSize['1,000 watchers'],
      'run/loaded does not grow with the watchers',
    );
    assert.ok(
      (frame.sizes['watchers/rows'] ?? 0) < 100_000,
      `a watchers/rows message of ${frame.sizes['watchers/rows']} characters`,
    );
    // Scrolling to the end asks for the rows there, and only those.
    const before = stats.answers;
    await panel().locator('#view-watchers .vt').first().focus();
    await page.keyboard.press('End');
    await panel()
      .locator('#view-watchers .vt-row.active:not(.loading)')
      .waitFor({ timeout: uiTimeoutMs });
    const after = await hook((h) => h.watcherTable());
    assert.ok(after.answers > before, 'End asked the host for the last rows');
    assert.ok(after.fetched <= 400, `${after.fetched} rows fetched after End`);
    await shot('at-time-14-100k-watchers.png');
    assert.deepStrictEqual(await hook((h) => h.problems()), []);
  });
});
