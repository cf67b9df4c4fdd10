// Takes the README's screenshots in the real workbench (the VS Code server in Chromium, driven like
// a person through the e2e harness) and writes them to media/screenshots/: the walkthrough, the
// hover on the sample log, the Lists view of the default scenario, a watcher scrubbed with the
// side bar's Watchers view, and the Explorer's "Open in List/Watch Inspector". It also lists every
// control of the inspector and of our side bar views that has no accessible name. Not a test (it
// writes into the source tree): `npm run screenshots`, then look at each picture.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FrameLocator, Page } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { projectRoot } from '../harness/paths';
import { startVSCodeServer } from '../harness/vscode-server';
import { openActivity, palette, quickInput, uiTimeoutMs } from '../harness/workbench-driver';
import { workbenchUrl } from '../harness/workbench-url';

const root = projectRoot();
const out = path.join(root, 'media', 'screenshots');
const viewport = { width: 1400, height: 860 };

function log(message: string): void {
  console.log(`[screenshots] ${message}`);
}

/** Every control in `scope` (a document) without an accessible name, described. */
const unnamedControls = `(() => {
  const controls = document.querySelectorAll(
    'button, input, select, textarea, a[href], [role=button], [role=slider], [role=tab], [role=grid], [role=treeitem], [tabindex]:not([tabindex="-1"]), vscode-button, vscode-text-field, vscode-dropdown, vscode-panel-tab',
  );
  const out = [];
  for (const el of controls) {
    const name =
      el.getAttribute('aria-label') ||
      el.getAttribute('aria-labelledby') ||
      el.getAttribute('title') ||
      (el.textContent || '').trim();
    if (!name) out.push(el.outerHTML.slice(0, 160));
  }
  return out;
})()`;

async function main(): Promise<void> {
  fs.mkdirSync(out, { recursive: true });
  // A workspace a user might have: a trace recorded with the CLI next to their notes.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-screenshots-'));
  execFileSync(process.execPath, [
    path.join(root, 'dist', 'cli.js'),
    'scenario',
    'run',
    'slow-watcher-termination',
    '--trace',
    path.join(folder, 'slow-watchers.jsonl'),
  ]);
  fs.writeFileSync(path.join(folder, 'notes.md'), '# Notes\n');
  const server = await startVSCodeServer({
    settings: {
      'workbench.colorTheme': 'Default Dark Modern',
      'workbench.editor.enablePreview': false,
      'editor.minimap.enabled': false,
      'window.commandCenter': true,
    },
  });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(workbenchUrl(server.base, { folder, extensionDevelopmentPath: root }));
    await page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: 'slow-watchers.jsonl' })
      .waitFor({ timeout: 90_000 });
    await page
      .locator('.activitybar .action-item .action-label[aria-label^="List/Watch"]')
      .waitFor({ timeout: 90_000 });
    const shot = async (name: string, clip?: Clip) => {
      const file = path.join(out, name);
      await page.screenshot({ path: file, animations: 'disabled', clip });
      log(`${name}: ${fs.statSync(file).size} bytes`);
    };
    const panel = (): FrameLocator =>
      page
        .frameLocator('iframe.webview.ready[src*="extensionId=listwatch"]')
        .frameLocator('#active-frame');

    await explorerMenu(page, shot);
    await walkthrough(page, shot, panel);
    await sidebarWatchers(page, shot, panel);

    // Accessible names: the inspector's controls and our side bar's rows.
    const frameHandle = await page
      .frameLocator('iframe.webview.ready[src*="extensionId=listwatch"]')
      .locator('#active-frame')
      .elementHandle({ timeout: uiTimeoutMs });
    const frame = await frameHandle?.contentFrame();
    assert.ok(frame);
    const unnamed = (await frame.evaluate(unnamedControls)) as string[];
    log(`inspector controls without an accessible name: ${unnamed.length}`);
    for (const u of unnamed) log(`  ${u}`);
    const rows = await page
      .locator('.pane-body .monaco-list-row[role="treeitem"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    log(`side bar rows: ${rows.length}, without a name: ${rows.filter((r) => !r).length}`);
    for (const r of rows.slice(0, 6)) log(`  ${r}`);
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

type Shot = (name: string, clip?: Clip) => Promise<void>;
type Clip = { x: number; y: number; width: number; height: number };

async function explorerMenu(page: Page, shot: Shot): Promise<void> {
  log('Explorer: Open in List/Watch Inspector');
  const row = page.locator('.explorer-folders-view .monaco-list-row', {
    hasText: 'slow-watchers.jsonl',
  });
  await row.click({ button: 'right' });
  const item = page.locator('.context-view .action-label', {
    hasText: 'Open in List/Watch Inspector',
  });
  await item.waitFor({ timeout: uiTimeoutMs });
  await item.hover();
  await shot('explorer-open-trace.png', { x: 0, y: 0, width: 600, height: 540 });
  await item.click();
  await page
    .frameLocator('iframe.webview.ready[src*="extensionId=listwatch"]')
    .frameLocator('#active-frame')
    .locator('.run-header h1')
    .waitFor({ timeout: 90_000 });
  await page.keyboard.press('Control+K');
  await page.keyboard.press('W');
}

async function walkthrough(page: Page, shot: Shot, panel: () => FrameLocator): Promise<void> {
  log('walkthrough');
  await palette(page, 'Welcome: Open Walkthrough...');
  const input = quickInput(page);
  await input.fill('List/Watch');
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with List/Watch' })
    .first()
    .click({ timeout: uiTimeoutMs });
  const steps = page.locator('.gettingStartedContainer');
  await steps
    .locator('.getting-started-step', { hasText: 'Decode a continue token from a log' })
    .first()
    .waitFor({ timeout: uiTimeoutMs });
  // The whole width for the page, the mouse off the tab (its tooltip).
  await page.mouse.move(viewport.width - 20, viewport.height / 2);
  await page.keyboard.press('Control+B');
  await page.waitForTimeout(1500); // the step's SVG media
  await shot('walkthrough.png');
  await page.keyboard.press('Control+B');

  // Step 1: the sample log, its token selected; hover it.
  await steps
    .locator('.button-link, .monaco-button', { hasText: 'Open Sample Log' })
    .first()
    .click();
  await page
    .locator('.tab.active', { hasText: 'kubectl-v8.log' })
    .waitFor({ timeout: uiTimeoutMs });
  const selected = page.locator('.editor-group-container.active .selected-text').first();
  await selected.waitFor({ timeout: uiTimeoutMs });
  // The selection is drawn before the editor has scrolled it into view: wait for its box.
  let box = await selected.boundingBox();
  for (let i = 0; !box && i < 40; i++) {
    await page.waitForTimeout(250);
    box = await selected.boundingBox();
  }
  assert.ok(box, 'the selected token is not on screen');
  await page.mouse.move(box.x + Math.min(40, box.width / 2), box.y + box.height / 2);
  const hover = page.locator('.monaco-hover', { hasText: 'continue token' });
  await hover.waitFor({ state: 'visible', timeout: uiTimeoutMs });
  await page.waitForTimeout(500);
  await shot('hover-sample-log.png');
  await page.keyboard.press('Escape');

  // Step 2 and 3: the default scenario and its Lists view, from the walkthrough's buttons.
  await page.locator('.tab', { hasText: 'Walkthrough' }).first().click();
  await steps.locator('.getting-started-step', { hasText: 'Run the default scenario' }).click();
  await steps
    .locator('.button-link, .monaco-button', { hasText: 'Run Selector Death Spiral' })
    .first()
    .click();
  await panel()
    .locator('.run-header h1', { hasText: /^A filtered LIST from etcd/ })
    .waitFor({ timeout: 90_000 });
  await page.locator('.tab', { hasText: 'Walkthrough' }).first().click();
  await steps.locator('.getting-started-step', { hasText: 'Read its Lists view' }).click();
  await steps
    .locator('.button-link, .monaco-button', { hasText: 'Show the Lists View' })
    .first()
    .click();
  await panel()
    .locator('vscode-panel-tab[aria-selected="true"]', { hasText: 'Lists' })
    .waitFor({ timeout: uiTimeoutMs });
  await panel().locator('#view-lists .vt-row').first().click();
  await panel().locator('.lists-view .limit-bars').waitFor({ timeout: uiTimeoutMs });
  await page.waitForTimeout(500);
  await shot('inspector-lists.png');
}

async function sidebarWatchers(page: Page, shot: Shot, panel: () => FrameLocator): Promise<void> {
  log('Watchers: the slow-watchers trace, sorted by interest, one selected and scrubbed');
  const runs = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Runs' }) });
  if (!(await runs.isVisible())) await openActivity(page, 'List/Watch');
  await runs.waitFor({ timeout: uiTimeoutMs });
  // Watchers opened (folded at first), Scenarios and Tokens folded.
  for (const [pane, expanded] of [
    ['Scenarios', 'false'],
    ['Tokens', 'false'],
    ['Watchers', 'true'],
  ]) {
    const header = page.locator('.pane-header', { hasText: pane }).first();
    if ((await header.getAttribute('aria-expanded')) !== expanded) await header.click();
  }
  await runs.locator('.monaco-list-row', { hasText: 'slow-watchers.jsonl' }).first().click();
  await panel()
    .locator('.run-header h1', { hasText: 'slow-watchers.jsonl' })
    .waitFor({ timeout: 90_000 });
  const watchers = page.locator('.pane', {
    has: page.locator('.pane-header', { hasText: 'Watchers' }),
  });
  const first = watchers.locator('.monaco-list-row').first();
  await first.waitFor({ timeout: uiTimeoutMs });
  await first.click();
  await panel().locator('.detail h2').first().waitFor({ timeout: uiTimeoutMs });
  // Scrub: a click on the timeline's track at 40 % of the run.
  const slider = panel().locator('.tl-slider');
  const track = await slider.boundingBox();
  assert.ok(track, 'no timeline');
  await slider.click({ position: { x: track.width * 0.4, y: track.height / 2 } });
  await page.waitForTimeout(800);
  await shot('sidebar-watchers.png');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
