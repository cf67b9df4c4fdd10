// The extension in the real VS Code workbench, driven in Chromium like a person: the command
// palette, a hover in a .log file, the List/Watch side bar, a wrong setting. Screenshots go to
// test-results/e2e/ for a person to look at.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { explainContinueToken } from '../../src/engine';
import { findContinueTokens } from '../../src/scan/continue-token-scan';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import {
  goToLine,
  openActivity,
  openFile,
  pointOfText,
  quickInput,
  runCommand,
  uiTimeoutMs,
} from '../harness/workbench-driver';
import { openWorkbench } from '../harness/open-workbench';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
// Emptied at the start, so what is there after a run is from that run.
const shots = testResultsDir('e2e');
for (const old of fs.readdirSync(shots))
  fs.rmSync(path.join(shots, old), { recursive: true, force: true });
const logFixture = 'kubectl-v8-1.33.log';

// A token as the apiserver issues it for the page after pod shop/web-1 at revision 48213.
const typedToken = Buffer.from(
  '{"v":"meta.k8s.io/v1","rv":48213,"start":"shop/web-1\\u0000"}',
).toString('base64url');

/** The first token in the fixture that the apiserver accepts, with its 1-based line. */
function firstValidToken(): { token: string; line: number; rv: string; startKey: string } {
  const lines = fs.readFileSync(path.join(fixtures, logFixture), 'utf8').split('\n');
  for (const [i, text] of lines.entries()) {
    for (const found of findContinueTokens(text)) {
      const e = explainContinueToken(found.token, '/registry/pods/');
      if (e.valid && e.fields && e.startKey)
        return { token: found.token, line: i + 1, rv: e.fields.rv, startKey: e.startKey.absolute };
    }
  }
  throw new Error(`${logFixture} holds no valid continue token`);
}

describe('the workbench, driven in Chromium', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });

  before(async function () {
    ({ server, browser, page } = await openWorkbench({
      folder: fixtures,
      extensionDevelopmentPath: root,
      // Wrapped lines keep every token on screen; no minimap to cover the right edge.
      // Typed text lands as typed (no auto-closing quotes or brackets).
      settings: {
        'editor.wordWrap': 'on',
        'editor.minimap.enabled': false,
        'editor.autoClosingBrackets': 'never',
        'editor.autoClosingQuotes': 'never',
        'editor.formatOnType': false,
      },
      clipboard: true,
      explorerRow: logFixture,
    }));
  });

  after(async () => {
    if (page) await shot('last-state.png').catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await shot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}.png`).catch(
        () => undefined,
      );
    await page.keyboard.press('Escape');
  });

  it('F1 "List/Watch: Decode Continue Token" decodes a typed token', async () => {
    await runCommand(page, 'List/Watch: Decode Continue Token');
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Decode Continue Token' })
      .waitFor({ timeout: uiTimeoutMs });
    await quickInput(page).fill(typedToken);
    await quickInput(page).press('Enter');
    await page
      .locator('.tab.active', { hasText: 'Continue token' })
      .waitFor({ timeout: uiTimeoutMs });
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await editor
      .locator('.view-line', { hasText: '/registry/pods/shop/web-1' })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    const text = await editor.locator('.view-lines').innerText();
    assert.match(text, /48213/, `decoder view lacks the rv:\n${text}`);
    assert.match(text, /valid:\s+yes/, `decoder view does not call it valid:\n${text}`);
    await shot('1-palette-decode.png');
  });

  it('hovering a token in a .log file explains it and links to the decoder', async () => {
    const target = firstValidToken();
    await page.keyboard.press('Control+K');
    await page.keyboard.press('W'); // close the editors of the previous test (Ctrl+K W)
    await openFile(page, logFixture, 'round_trippers');
    await goToLine(page, target.line);
    const needle = target.token.slice(0, 16);
    let point: { x: number; y: number } | undefined;
    for (let attempt = 0; attempt < 50 && !point; attempt++) {
      point = await pointOfText(page, needle);
      if (!point) await page.waitForTimeout(200);
    }
    assert.ok(point, `the token ${needle}… is not rendered on line ${target.line}`);
    await page.mouse.move(point.x, point.y);
    const hover = page.locator('.monaco-hover', { hasText: 'continue token' });
    await hover.waitFor({ state: 'visible', timeout: uiTimeoutMs });
    const text = await hover.innerText();
    assert.ok(text.includes(target.rv), `hover lacks rv ${target.rv}:\n${text}`);
    assert.ok(
      text.includes(target.startKey.split('\u0000').join('\u2400')),
      `hover lacks the start key ${target.startKey}:\n${text}`,
    );
    await shot('2-hover-log.png');
    await hover.locator('a', { hasText: 'Open in decoder' }).click();
    await page
      .locator('.tab.active', { hasText: 'Continue token' })
      .waitFor({ timeout: uiTimeoutMs });
  });

  it('the List/Watch side bar lists the decoded tokens in the Tokens view', async () => {
    await openActivity(page, 'List/Watch');
    // The Tokens pane is folded at first (Scenarios and Runs are what a newcomer needs): open it,
    // and fold those two so that its expanded row has room.
    for (const [pane, expanded] of [
      ['Scenarios', 'false'],
      ['Runs', 'false'],
      ['Tokens', 'true'],
    ]) {
      const header = page.locator('.pane-header', { hasText: pane }).first();
      await header.waitFor({ timeout: uiTimeoutMs });
      if ((await header.getAttribute('aria-expanded')) !== expanded) await header.click();
    }
    const view = page.locator('.pane', {
      has: page.locator('.pane-header', { hasText: 'Tokens' }),
    });
    const rows = view.locator('.monaco-list-row');
    await rows.first().waitFor({ timeout: uiTimeoutMs });
    // Newest first: the token opened from the hover, then the one typed into the palette.
    const target = firstValidToken();
    const hovered = rows.filter({ hasText: `rv ${target.rv} · ` }).first();
    const typed = rows.filter({ hasText: 'rv 48213 · shop/web-1' }).first();
    await hovered.waitFor({ timeout: uiTimeoutMs });
    await typed.waitFor({ timeout: uiTimeoutMs });
    assert.ok(
      await hovered.evaluate(
        (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING),
        await typed.elementHandle(),
      ),
      'the token opened last (from the hover) should be listed first',
    );
    await typed.click(); // expand into the fields
    await view
      .locator('.monaco-list-row', { hasText: 'start key' })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    const fields = await view.locator('.monaco-list-rows').innerText();
    assert.ok(
      fields.includes('/registry/pods/shop/web-1\u2400'),
      `the expanded row lacks the start key:\n${fields}`,
    );
    await shot('3-tokens-view.png');
  });

  it('a key prefix setting that is not a path gets a clear message', async () => {
    await runCommand(page, 'Preferences: Open User Settings (JSON)');
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await page
      .locator('.tab.active', { hasText: 'settings.json' })
      .waitFor({ timeout: uiTimeoutMs });
    await editor.locator('.view-lines').click();
    // A new first entry: after the opening brace.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.insertText('\n  "listwatch.keyPrefix": "registry/pods",');
    await page.keyboard.press('Control+S');
    const toast = page.locator('.notifications-toasts .notification-toast', {
      hasText: 'listwatch.keyPrefix',
    });
    await toast.waitFor({ timeout: uiTimeoutMs });
    const text = await toast.innerText();
    assert.match(text, /must start with '\/'/);
    assert.match(text, /Using the default \/registry\/pods\//);
    await shot('4-key-prefix-warning.png');
  });
});
