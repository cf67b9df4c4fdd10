// The hover on client-go's reflector lines in the real VS Code workbench, driven in Chromium like a
// person: a WatchList informer's log whose end bookmark never came (test/fixtures/
// client-go-0.35-watchlist-stuck.log) opened from Quick Open, the mouse on its first "awaiting
// required bookmark event" line, and the hover read and photographed (test-results/e2e/
// client-go-log-hover.png, and scrolled to its commands: client-go-log-hover-commands.png) for a
// person to look at.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import { goToLine, openFile, pointOfText, uiTimeoutMs } from '../harness/workbench-driver';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
const shots = testResultsDir('e2e');
const logFixture = 'client-go-0.35-watchlist-stuck.log';
const needle = 'awaiting required bookmark event';

describe('the client-go log hover in the workbench, driven in Chromium', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  before(async function () {
    ({ server, browser, page } = await openWorkbench({
      folder: fixtures,
      extensionDevelopmentPath: root,
      settings: { ...screenshotSettings, 'editor.wordWrap': 'on', 'editor.minimap.enabled': false },
      explorerRow: logFixture,
    }));
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  it('hovering "awaiting required bookmark event" explains the stuck WatchList and what to run', async () => {
    const lines = fs.readFileSync(path.join(fixtures, logFixture), 'utf8').split('\n');
    // The last such line: the hover opens above it, with the most room.
    const line = lines.map((l) => l.includes(needle)).lastIndexOf(true) + 1;
    assert.ok(line > 0, `${logFixture} has no "${needle}" line`);
    await openFile(page, logFixture, 'Listing and watching');
    await goToLine(page, line);
    // One word of it (the Log language's tokens and the wrapped rows split the phrase), on the
    // lowest row that shows it: the line gone to.
    let point: { x: number; y: number } | undefined;
    for (let attempt = 0; attempt < 50 && !point; attempt++) {
      point = await pointOfText(page, 'awaiting', 'lowest');
      if (!point) await page.waitForTimeout(200);
    }
    assert.ok(point, `"awaiting" is not rendered on line ${line}`);
    await page.mouse.move(point.x, point.y);
    const hover = page.locator('.monaco-hover', { hasText: 'client-go:' });
    await hover.waitFor({ state: 'visible', timeout: uiTimeoutMs });
    const text = await hover.innerText();
    for (const expected of [
      'client-go: A WatchList watch has received nothing yet, not even its initial events',
      'What happened.',
      'Server cause.',
      'Printed by client-go 0.31–0.32',
      'listwatch conform --kubeconfig KUBECONFIG',
      'listwatch fault --kubeconfig K omit-end-bookmark',
    ])
      assert.ok(text.includes(expected), `the hover lacks "${expected}":\n${text}`);
    await page.screenshot({
      path: path.join(shots, 'client-go-log-hover.png'),
      animations: 'disabled',
    });
    // The hover's height is capped: scrolled (the mouse on it keeps it open) to what to run.
    const box = await hover.boundingBox();
    assert.ok(box, 'the hover has no box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
    await page.mouse.wheel(0, 2000);
    await page
      .locator('.monaco-hover code', { hasText: 'omit-end-bookmark' })
      .waitFor({ state: 'visible', timeout: uiTimeoutMs });
    await page.waitForTimeout(300); // the scroll settles before the picture
    await page.screenshot({
      path: path.join(shots, 'client-go-log-hover-commands.png'),
      animations: 'disabled',
    });
  });
});
