// The Watch cache tab's charts span the whole run, in the real workbench (issue #24): an audit log
// imported by the built CLI (`listwatch import --trace`) is opened in the inspector; each chart's
// time axis ends at the run's end and says so (its last label is the run's length), and a series
// is drawn no further than its data, and each value axis has distinct labels. Screenshot:
// test-results/e2e/watch-cache-axis-import.png.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { inspectorPanel, showTab } from '../harness/inspector-panel';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import { openFromFileDialog, uiTimeoutMs } from '../harness/workbench-driver';

const root = projectRoot();
const shots = testResultsDir('e2e');
const folder = testResultsDir('e2e', 'watch-cache-axis');

describe('the Watch cache tab of an imported run: the charts span the run', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const trace = path.join(folder, 'audit.jsonl');
  const panel = (): FrameLocator => inspectorPanel(page);

  before(async function () {
    fs.mkdirSync(folder, { recursive: true });
    const log = path.join(folder, 'audit.log');
    fs.copyFileSync(path.join(root, 'test', 'fixtures', 'audit.log'), log);
    execFileSync(process.execPath, [
      path.join(root, 'dist', 'cli.js'),
      'import',
      log,
      '--trace',
      trace,
    ]);
    ({ server, browser, page } = await openWorkbench({
      folder,
      extensionDevelopmentPath: root,
      settings: screenshotSettings,
    }));
    await page.keyboard.press('Control+B');
    await openFromFileDialog(page, 'List/Watch: Open Trace…', trace);
    await panel().locator('.run-params', { hasText: 'audit.jsonl' }).waitFor({ timeout: 120_000 });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await page
        .screenshot({
          path: path.join(shots, 'watch-cache-axis-failed.png'),
          animations: 'disabled',
        })
        .catch(() => undefined);
  });

  it("every chart's time axis ends at the run's end, labelled with its length (908.903 s)", async () => {
    await showTab(page, 'Watch cache');
    const charts = panel().locator('.watch-cache-view figure.chart:visible');
    await charts
      .first()
      .locator('.chart-tick')
      .first()
      .waitFor({ state: 'attached', timeout: uiTimeoutMs });
    const n = await charts.count();
    assert.ok(n >= 3, `${n} charts`);
    for (let i = 0; i < n; i++) {
      const chart = charts.nth(i);
      const title = (await chart.locator('.chart-title').textContent()) ?? '';
      const labels = await chart.locator('text.chart-axis-x').allTextContents();
      assert.ok(labels.length > 0, `${title}: no time labels`);
      assert.strictEqual(
        labels[labels.length - 1],
        '908.903 s',
        `${title}: ${JSON.stringify(labels)}`,
      );
      const ends = await chart.locator('text.chart-axis-end').count();
      assert.strictEqual(ends, 1, `${title}: the run's end is labelled once`);
      // Its value axis reads: at least two labels, none the same (a flat age of 0 ms read
      // "0 s, 0 s, 0 s").
      const values = await chart.locator('text.chart-axis-y').allTextContents();
      assert.ok(values.length >= 2, `${title}: ${JSON.stringify(values)}`);
      assert.strictEqual(
        new Set(values).size,
        values.length,
        `${title}: ${JSON.stringify(values)}`,
      );
      console.log(`      ${title}: ${values.join(', ')}`);
    }
    await page.screenshot({
      path: path.join(shots, 'watch-cache-axis-import.png'),
      animations: 'disabled',
    });
  });
});
