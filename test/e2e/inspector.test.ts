// The List/Watch Inspector in the real workbench, driven in Chromium like a person: scenarios run
// from the palette (with defaults, and with parameters typed into quick inputs) and from the side
// bar, every panel view opened, a watcher selected and its state machine shown, the timeline
// scrubbed, a trace with markup in its names opened (it must show as text and nothing may run),
// and the window reloaded (the panel comes back as it was). Screenshots go to test-results/e2e/.
//
// test/fixtures/hostile-names.jsonl is a real trace (slow-watcher-termination with 3 fast and 1
// slow watcher, plus the LIST of selector-death-spiral) whose label selectors, client names, pod
// names, phase texts, a metric label value and the continue token's start key were replaced with
// `<img src=x onerror=window.__xss=N>` and `<script>window.__xss=N</script>`.
import * as assert from 'assert';
import * as path from 'path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import {
  inspectorFrame,
  inspectorHook,
  inspectorPanel,
  showTab,
  timeText,
} from '../harness/inspector-panel';
import {
  acceptStep,
  listWatchSideBar,
  openFromFileDialog,
  palette,
  pickQuickPick,
  quickInput,
  uiTimeoutMs,
} from '../harness/workbench-driver';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
const hostileTrace = path.join(fixtures, 'hostile-names.jsonl');
const shots = testResultsDir('e2e');

/** What the webview's debugging hook answers (webview/main.ts). */
interface InspectorHook {
  watcherTable(): { rows: number; rendered: number };
  problems(): string[];
}

describe('the List/Watch Inspector in the workbench', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  // Timings measured along the way, printed at the end (information, not assertions).
  const timings: string[] = [];

  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });
  const panel = (): FrameLocator => inspectorPanel(page);
  const hook = <T>(read: (h: InspectorHook) => T): Promise<T> => inspectorHook(page, read);

  /** Waits until the panel shows the run titled `title` (its header). */
  async function waitForRun(title: string | RegExp): Promise<void> {
    await panel().locator('.run-header h1', { hasText: title }).waitFor({ timeout: 90_000 });
  }

  async function setPaneExpanded(title: string, expanded: boolean): Promise<void> {
    const header = page.locator('.pane-header', { hasText: title }).first();
    if ((await header.getAttribute('aria-expanded')) !== String(expanded)) await header.click();
    await page
      .locator(`.pane-header[aria-expanded="${expanded}"]`, { hasText: title })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
  }

  before(async function () {
    ({ server, browser, page } = await openWorkbench({
      folder: fixtures,
      extensionDevelopmentPath: root,
      settings: screenshotSettings,
      clipboard: true,
      explorerRow: 'hostile-names.jsonl',
    }));
  });

  after(async () => {
    if (page) await shot('inspector-last-state.png').catch(() => undefined);
    if (timings.length)
      console.log(
        `      timings (information only):\n${timings.map((t) => `        ${t}`).join('\n')}`,
      );
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await shot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}.png`).catch(
        () => undefined,
      );
  });

  it('runs a scenario from the palette with its defaults: 10,000 watchers in a virtualised table', async () => {
    // The side bar closed: the panel gets the whole width for its screenshots.
    await page.keyboard.press('Control+B');
    const started = Date.now();
    await palette(page, 'List/Watch: Run Scenario…');
    await pickQuickPick(page, 'bookmark-heartbeats', 'Bookmark heartbeats');
    await pickQuickPick(page, 'defaults', 'Run with defaults');
    await waitForRun(/^Bookmark heartbeats/);
    const count = panel().locator('.watchers-view .count');
    await count.filter({ hasText: '10,000 of 10,000 watchers' }).waitFor({ timeout: uiTimeoutMs });
    timings.push(
      `bookmark-heartbeats (10,000 watchers): palette to table ${Date.now() - started} ms`,
    );
    const table = await hook((h) => h.watcherTable());
    assert.strictEqual(table.rows, 10_000);
    assert.ok(
      table.rendered > 10 && table.rendered < 200,
      `${table.rendered} row elements for 10,000 rows: not virtualised`,
    );
    assert.ok((await panel().locator('#view-watchers .vt-row:not([hidden])').count()) < 200);

    // Keyboard: the grid takes focus, End jumps to the last row, still few elements.
    let t = Date.now();
    await panel().locator('#view-watchers .vt').first().focus();
    await page.keyboard.press('End');
    await panel()
      .locator('#view-watchers .vt-row.active', { hasText: /^9999/ })
      .waitFor({ timeout: uiTimeoutMs });
    timings.push(`10,000 rows: End to the last row ${Date.now() - t} ms`);
    assert.ok((await hook((h) => h.watcherTable())).rendered < 200);
    await page.keyboard.press('Home');

    t = Date.now();
    await panel().locator('.watchers-view vscode-text-field').click();
    await page.keyboard.type('999');
    await count
      .filter({ hasText: /^\d+ of 10,000 watchers/ })
      .filter({ hasNotText: '10,000 of' })
      .waitFor({ timeout: uiTimeoutMs });
    timings.push(`10,000 rows: search to filtered table ${Date.now() - t} ms`);
    const filtered = Number((await count.textContent())?.split(' ')[0].replace(/,/g, ''));
    assert.strictEqual(
      filtered,
      29,
      'ids (0..9999) or client names (watcher-000001..watcher-010000) containing 999',
    );
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    await count.filter({ hasText: '10,000 of 10,000 watchers' }).waitFor({ timeout: uiTimeoutMs });
    // At the end of the run, one watcher selected: what a person looks at first.
    await panel().locator('.tl-slider').focus();
    await page.keyboard.press('End');
    await panel().locator('#view-watchers .vt-row', { hasText: /^5/ }).first().click();
    await panel().locator('.detail svg.state-machine').waitFor({ timeout: uiTimeoutMs });
    await shot('5-inspector-watchers-10k.png');
  });

  it('scrubs the timeline: home, end, step, play and pause', async () => {
    const slider = panel().locator('.tl-slider');
    await slider.focus();
    await page.keyboard.press('Home');
    // The time is drawn on the next frame (timeText waits for it).
    assert.match(await timeText(page), /^0\.000 s of 210\.10\d s$/);
    // Before the watches open nobody is in a state yet.
    await panel()
      .locator('#view-watchers .vt-row')
      .first()
      .filter({ hasText: 'Not opened yet' })
      .waitFor({ timeout: uiTimeoutMs });
    await page.keyboard.press('ArrowRight'); // step to the next moment something happened
    const stepped = await timeText(page);
    assert.doesNotMatch(stepped, /^0\.000 s of /);
    await page.keyboard.press('End');
    assert.match(await timeText(page), /^(210\.10\d) s of \1 s$/);
    await panel()
      .locator('#view-watchers .vt-row')
      .first()
      .filter({ hasText: 'Streaming' })
      .waitFor({ timeout: uiTimeoutMs });
    // Click in the middle of the track, then play a little at 5×.
    const box = await slider.boundingBox();
    assert.ok(box);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const middle = Number((await timeText(page)).split(' ')[0]);
    assert.ok(middle > 90 && middle < 120, `clicking the middle of the track moved to ${middle} s`);
    await panel().locator('vscode-dropdown.speed').click();
    // The speeds fit the run's 3.5 minutes; each says how long the run plays.
    await panel()
      .locator('vscode-option', { hasText: /^5× \(plays in/ })
      .click();
    await panel().locator('vscode-button[aria-label="Play"]').click();
    await page.waitForTimeout(600);
    await panel().locator('vscode-button[aria-label="Pause"]').click();
    const played = Number((await timeText(page)).split(' ')[0]);
    assert.ok(
      played > middle && played < 210.2,
      `playing did not move the time forward (${middle} s -> ${played} s)`,
    );
    await shot('6-inspector-timeline.png');
  });

  it('runs a scenario with parameters asked one by one, selects a watcher and shows its state machine', async () => {
    await palette(page, 'List/Watch: Run Scenario…');
    await pickQuickPick(page, 'slow-watcher-termination', 'slow-watcher-termination');
    await pickQuickPick(page, 'parameters', 'Set parameters…');
    const input = quickInput(page);
    // fastWatchers: a wrong value is refused with a message naming the parameter.
    await page
      .locator('.quick-input-title', { hasText: 'fastWatchers' })
      .waitFor({ timeout: uiTimeoutMs });
    await input.fill('many');
    const message = page.locator('.quick-input-message', { hasText: 'fastWatchers' });
    await message.waitFor({ timeout: uiTimeoutMs });
    assert.match((await message.textContent()) ?? '', /expects a whole number/);
    await input.fill('20');
    await acceptStep(page, 'fastWatchers (');
    for (const name of [
      'slowWatchers',
      'eventsPerSecond',
      'etcdLatency',
      'etcdLatencyScale',
      'seed',
    ]) {
      await acceptStep(page, `: ${name} (`); // the default
    }
    await waitForRun(/^Slow watchers.*fastWatchers=20/);
    await panel()
      .locator('.watchers-view .count', { hasText: '25 of 25 watchers' })
      .waitFor({ timeout: uiTimeoutMs });
    // The WatchList watcher that passed through all three states and was drained gracefully.
    await panel().locator('.watchers-view vscode-text-field').click();
    await page.keyboard.type('graceful');
    await panel()
      .locator('.watchers-view .count', { hasText: '1 of 25 watchers' })
      .waitFor({ timeout: uiTimeoutMs });
    await panel().locator('#view-watchers .vt-row').first().click();
    const diagram = panel().locator('.detail svg.state-machine');
    await diagram.waitFor({ timeout: uiTimeoutMs });
    await panel().locator('.tl-slider').focus();
    await page.keyboard.press('End');
    const text = (await diagram.textContent()) ?? '';
    // Each state as its user reads it, with upstream's name beneath.
    for (const state of [
      'Initial events',
      'WaitingForBookmark',
      'End bookmark due',
      'BookmarkReceived',
      'Streaming',
      'BookmarkSent',
    ])
      assert.ok(text.includes(state), `the diagram lacks ${state}: ${text}`);
    assert.match(text, /1× at /, 'transitions show their count and time');
    assert.match(text, /ended at .*graceful drain/);
    assert.strictEqual(
      await diagram.locator('.sm-node.current').count(),
      1,
      'the current state is highlighted',
    );
    assert.match((await diagram.locator('.sm-node.current').textContent()) ?? '', /Streaming/);
    await shot('7-inspector-state-machine.png');
    // Back to the start: the watch is not open yet, nothing is highlighted, every edge is "later".
    await page.keyboard.press('Home');
    await panel()
      .locator('.detail svg.state-machine .sm-edge.taken')
      .first()
      .waitFor({ state: 'detached', timeout: uiTimeoutMs });
    assert.strictEqual(
      await panel().locator('.detail svg.state-machine .sm-node.current').count(),
      0,
    );
    await page.keyboard.press('End');
    await panel().locator('.watchers-view vscode-text-field').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
  });

  it('opens every view of the panel', async () => {
    await showTab(page, 'Watch cache');
    await panel()
      .locator('.watch-cache-view .chart-svg .chart-axis')
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    assert.ok(
      (await panel().locator('.watch-cache-view tbody tr').count()) >= 2,
      'capacity changes are listed',
    );
    await showTab(page, 'Serialization');
    // Cards when something was serialized, else a plain sentence saying why nothing was.
    await panel()
      .locator('.serialization-view .card, .serialization-view .empty-tab')
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await showTab(page, 'Lists');
    await panel().locator('.lists-view .count').waitFor({ timeout: uiTimeoutMs });
    await showTab(page, 'Metrics');
    await panel()
      .locator('.metrics-view td.metric-name', { hasText: 'apiserver_terminated_watchers_total' })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await panel().locator('vscode-button', { hasText: 'Copy as Prometheus text' }).click();
    await panel()
      .locator('.metrics-view .count', { hasText: 'Copied' })
      .waitFor({ timeout: uiTimeoutMs });
    await shot('8-inspector-metrics.png');
    await showTab(page, 'Watchers');
  });

  it('runs scenarios from the Scenarios view; Runs and Watchers views list them', async () => {
    const runs = await listWatchSideBar(page);
    // Every scenario in view: the other views collapsed for now.
    for (const pane of ['Runs', 'Watchers', 'Tokens']) await setPaneExpanded(pane, false);
    const scenarios = page.locator('.pane', {
      has: page.locator('.pane-header', { hasText: 'Scenarios' }),
    });
    // Each row shows the scenario's short label, its title beside it.
    for (const [label, title, tab, ready, screenshot] of [
      [
        'Watch cache resize',
        'The watch cache history',
        'Watch cache',
        '.watch-cache-view .chart-marker',
        '9-inspector-watch-cache.png',
      ],
      [
        'Serialization fan-out',
        'Serialize once per content type',
        'Serialization',
        '.serialization-view .vt-row',
        '10-inspector-serialization.png',
      ],
      [
        'Selector death spiral',
        'A filtered LIST from etcd',
        'Lists',
        '.lists-view .vt-row',
        undefined,
      ],
    ] as const) {
      const row = scenarios.locator('.monaco-list-row', { hasText: label }).first();
      await row.hover();
      await row.locator('.action-label[aria-label="Run with Defaults"]').click();
      await waitForRun(new RegExp(`^${title}`));
      await showTab(page, tab);
      await panel().locator(ready).first().waitFor({ timeout: 90_000 });
      if (screenshot) await shot(screenshot);
    }
    await setPaneExpanded('Runs', true);
    // Newest first, the open one marked.
    await runs
      .locator('.monaco-list-row')
      .first()
      .filter({ hasText: 'Selector death spiral' })
      .filter({ hasText: 'open ·' })
      .waitFor({ timeout: uiTimeoutMs });
    // The LIST of the selector death spiral: its pages double; its continue token decodes.
    await panel().locator('#view-lists .vt-row').first().click();
    const bars = panel().locator('.lists-view .limit-bars');
    await bars.waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await bars.getAttribute('aria-label')) ?? '',
      /100, 200, 400, 800, 1600, 3200, 6400/,
      'the limit doubles page by page',
    );
    await shot('11-inspector-lists.png');
    await panel().locator('.lists-view vscode-button', { hasText: 'Decode' }).click();
    await panel()
      .locator('.lists-view .explanation', { hasText: 'start key' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await panel().locator('.lists-view .explanation').textContent()) ?? '',
      /pod-009999\u2400/,
      'the NUL byte shows as ␀',
    );
    // The Watchers view follows the open run; a click there selects the watcher in the panel.
    await runs.locator('.monaco-list-row', { hasText: 'Slow watcher termination' }).first().click();
    await waitForRun(/fastWatchers=20/);
    // The Watchers pane is folded at first (the side bar opens Scenarios and Runs): open it, and
    // fold Scenarios so it has room.
    await setPaneExpanded('Scenarios', false);
    await setPaneExpanded('Watchers', true);
    const watchers = page.locator('.pane', {
      has: page.locator('.pane-header', { hasText: 'Watchers' }),
    });
    const watcherRow = watchers.locator('.monaco-list-row', { hasText: /^watcher \d+/ }).first();
    await watcherRow.waitFor({ timeout: uiTimeoutMs });
    const id = /^watcher (\d+)/.exec((await watcherRow.textContent()) ?? '')?.[1];
    assert.ok(id, 'the Watchers view names its watchers');
    await watcherRow.click();
    await panel()
      .locator('.detail h2', { hasText: `Watcher ${id}` })
      .waitFor({ timeout: uiTimeoutMs });
    await shot('12-sidebar-watchers.png');
    await page.keyboard.press('Control+B');
  });

  it('shows markup from a trace as text and runs none of it', async () => {
    await openFromFileDialog(page, 'List/Watch: Open Trace…', hostileTrace);
    await waitForRun('hostile-names.jsonl');
    const img = '<img src=x onerror=window.__xss=1>';
    await panel()
      .locator('#view-watchers .vt-row', { hasText: `app=${img}` })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await panel().locator('#view-watchers .vt-row').first().click();
    await panel()
      .locator('.detail dd', { hasText: `app=${img}` })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await panel().locator('.tl-phase').waitFor({ timeout: uiTimeoutMs });
    await shot('13-hostile-watchers.png');
    await showTab(page, 'Lists');
    await panel()
      .locator('#view-lists .vt-row', {
        hasText: 'labelSelector=app=<img src=x onerror=window.__xss=3>',
      })
      .first()
      .click();
    await panel().locator('.lists-view vscode-button', { hasText: 'Decode' }).click();
    await panel()
      .locator('.lists-view .explanation dd', { hasText: 'pod-<img src=x onerror=window.__xss=6>' })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await panel()
      .locator('.lists-view td', { hasText: 'pod-<img src=x onerror=window.__xss=4>' })
      .first()
      .waitFor({ state: 'attached', timeout: uiTimeoutMs });
    await shot('14-hostile-lists.png');
    await showTab(page, 'Metrics');
    await panel().locator('.metrics-view vscode-text-field').click();
    await page.keyboard.type('watch_events');
    await panel()
      .locator('.metrics-view td', { hasText: 'kind="<img src=x onerror=window.__xss=5>"' })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await shot('15-hostile-metrics.png');
    for (let i = 0; i < 'watch_events'.length; i++) await page.keyboard.press('Backspace');
    // Nothing ran: no element was made from the markup, no handler set the flag, the browser
    // refused nothing (a refused inline handler would show as a CSP violation).
    const frame = await inspectorFrame(page);
    const dom = await frame.evaluate(() => ({
      imgs: document.querySelectorAll('img').length,
      scripts: Array.from(document.querySelectorAll('script')).map(
        (s) => s.getAttribute('src') ?? 'inline',
      ),
      scriptText: Array.from(document.querySelectorAll('script'))
        .map((s) => s.textContent ?? '')
        .join('\n'),
      flag: (window as unknown as { __xss?: unknown }).__xss,
      text:
        document.body.innerText.includes('<script>window.__xss=2</script>') ||
        document.body.innerText.includes('<img src=x'),
    }));
    assert.strictEqual(dom.imgs, 0, 'an <img> element was created from trace text');
    // VS Code's own inline bootstrap and our bundle; none made from the trace.
    assert.ok(
      dom.scripts.length <= 2 &&
        dom.scripts
          .filter((src) => src !== 'inline')
          .every((src) => src.endsWith('/dist/webview.js')),
      `scripts in the page: ${dom.scripts.join(', ')}`,
    );
    assert.ok(!dom.scriptText.includes('__xss'), 'a script element holds text from the trace');
    assert.strictEqual(dom.flag, undefined, 'markup from the trace ran');
    assert.ok(dom.text, 'the markup is not shown as text');
    assert.deepStrictEqual(await hook((h) => h.problems()), []);
    await showTab(page, 'Watchers');
  });

  it('keeps the panel, its run, time and selection across a window reload', async () => {
    // A known state: the slow-watchers run, watcher 3 selected, the scrubber three steps in.
    const runs = await listWatchSideBar(page);
    await runs.locator('.monaco-list-row', { hasText: 'Slow watcher termination' }).first().click();
    await waitForRun(/fastWatchers=20/);
    await page.keyboard.press('Control+B');
    await panel().locator('#view-watchers .vt-row', { hasText: /^3/ }).first().click();
    await panel().locator('.tl-slider').focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const before = await timeText(page);
    // The webview saves its state at once; the host learns it within a quarter second.
    await page.waitForTimeout(500);
    const started = Date.now();
    await palette(page, 'Developer: Reload Window');
    await page.waitForTimeout(1000);
    await waitForRun(/fastWatchers=20/);
    await panel().locator('.detail h2', { hasText: 'Watcher 3' }).waitFor({ timeout: 90_000 });
    timings.push(`reload to restored panel ${Date.now() - started} ms`);
    assert.strictEqual(await timeText(page), before);
    await shot('16-after-reload.png');
  });

  it('follows the light and high-contrast themes', async () => {
    const background = async () =>
      (await inspectorFrame(page)).evaluate(() => getComputedStyle(document.body).backgroundColor);
    for (const [theme, screenshot] of [
      ['Light Modern', '17-theme-light.png'],
      ['Dark High Contrast', '18-theme-high-contrast.png'],
      ['Dark Modern', undefined],
    ] as const) {
      const before = await background();
      await palette(page, 'Preferences: Color Theme');
      await pickQuickPick(page, theme, theme);
      // The webview takes the workbench's colours as --vscode-* variables when the theme changes.
      let now = before;
      for (let i = 0; i < 100 && now === before; i++) {
        await page.waitForTimeout(100);
        now = await background();
      }
      assert.notStrictEqual(now, before, `the panel did not follow ${theme}`);
      if (screenshot) await shot(screenshot);
    }
  });
});
