// A real import run in the real workbench, driven in Chromium: the audit log with a known story
// (test/harness/audit-story.ts) read by the built CLI (`listwatch import --trace`: the streaming
// reader, the analysis and the replay through the engine), the trace opened in the inspector: its
// Import tab tells the log's story (the backup chain broken by a 410 and restarted, the operator's
// relist storm) and its Replay tab puts the engine's answers beside the log's. Screenshots:
// test-results/e2e/import-run-*.png.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { auditStory } from '../harness/audit-story';
import { inspectorHook, inspectorPanel, showTab } from '../harness/inspector-panel';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import { openFromFileDialog, uiTimeoutMs } from '../harness/workbench-driver';

const root = projectRoot();
const shots = testResultsDir('e2e');
const folder = testResultsDir('e2e', 'import-run');

interface InspectorHook {
  importRows(): string[][];
  problems(): string[];
}

describe('the inspector: a run imported from an audit log', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const story = auditStory();
  const trace = path.join(folder, 'story.jsonl');

  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });
  const panel = (): FrameLocator => inspectorPanel(page);

  before(async function () {
    fs.mkdirSync(folder, { recursive: true });
    const log = path.join(folder, 'audit.log');
    fs.writeFileSync(log, story.lines.join('\n') + '\n');
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
    await panel().locator('.run-params', { hasText: 'story.jsonl' }).waitFor({ timeout: 120_000 });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await shot(`import-run-failed-${this.currentTest.title.replace(/\W+/g, '-')}.png`).catch(
        () => undefined,
      );
  });

  it('the Import tab: every client, the broken backup chain and its restart, the storm', async () => {
    await showTab(page, 'Import');
    const rows = await inspectorHook(page, (h: InspectorHook) => h.importRows());
    const listers = rows.filter((r) => Number(r[3]) + Number(r[4]) > 0).map((r) => r[0]);
    assert.strictEqual(listers.length, story.facts.listWatchClients.length, JSON.stringify(rows));
    await panel().locator('.import-clients tbody tr', { hasText: 'velero' }).click();
    const detail = panel().locator('.import-client');
    await detail
      .locator('li', {
        hasText: `broken by 410 Expired at page ${story.facts.backup.brokenPages}, restarted as chain`,
      })
      .waitFor({ timeout: uiTimeoutMs });
    await detail
      .locator('li', { hasText: 'restarts chain' })
      .filter({ hasText: `${story.facts.backup.restartPages} pages` })
      .waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await panel().locator('.import-view').textContent()) ?? '',
      /my-operator\/v0\.4\.2[^]*6 relists/,
    );
    assert.deepStrictEqual(await inspectorHook(page, (h: InspectorHook) => h.problems()), []);
    await shot('import-run-import.png');
  });

  it('the Replay tab: the log beside the engine, each LIST and WATCH of the log', async () => {
    await showTab(page, 'Replay');
    const summary = panel().locator('.replay-view');
    await summary.locator('text=compared with the log').first().waitFor({ timeout: uiTimeoutMs });
    const text = (await summary.textContent()) ?? '';
    // replay-count.ts's one text: "N requests re-issued, M of them compared with the log", or
    // "N requests re-issued and compared with the log" when they are the same requests.
    const m =
      /([\d,]+) of them compared with the log/.exec(text) ??
      /([\d,]+) requests? re-issued and compared with the log/.exec(text);
    const compared = Number(m?.[1].replace(/,/g, ''));
    assert.ok(compared >= 50, `${compared} requests compared: ${text.slice(0, 200)}`);
    await shot('import-run-replay.png');
  });
});
