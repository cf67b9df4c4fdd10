// The inspector's Replay tab in the real workbench, driven in Chromium: a replayed import (a LIST
// chain whose second page the log answered 410 Expired, which the replay re-creates; a dashboard's
// LIST the log answered 504, a fault the replay does not model; a client with `<script>` in its
// user agent; a watch held for its logged duration; a watch the log answered 410 with no write
// since its resourceVersion) opened as a trace; the tab lists each request with the log's answer
// beside the engine's, says the 504 as the log's own fault and the watch's 410 as one the replay
// cannot reproduce (never "agrees", never the apiserver disagreeing), and shows the hostile user
// agent as text. Screenshots go to
// test-results/e2e/ (replay-*.png).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import type { ImportedRequest } from '../../src/run/imported-request';
import { replayImport } from '../../src/replay/replay-import';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import { inspectorPanel, showTab } from '../harness/inspector-panel';
import { openFromFileDialog, uiTimeoutMs } from '../harness/workbench-driver';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
const shots = testResultsDir('e2e');
const hostile = '<script>alert(1)</script> evil-operator/v1';
const t0 = Date.UTC(2025, 2, 12, 10, 15, 0);

function req(
  n: number,
  verb: string,
  uri: string,
  atS: number,
  o: Partial<ImportedRequest> = {},
): ImportedRequest {
  return {
    id: `a${n}`,
    sources: [{ file: 'audit.log', line: n, format: 'audit' }],
    verb,
    requestURI: uri,
    userAgent: 'velero/v1.14.0',
    receivedAt: t0 + atS * 1000,
    completedAt: t0 + atS * 1000 + 40,
    startInFile: true,
    endInFile: true,
    code: 200,
    ...o,
  };
}

async function writeReplayTrace(file: string): Promise<void> {
  const token = Buffer.from(
    '{"v":"meta.k8s.io/v1","rv":48213,"start":"default/p500\\u0000"}',
  ).toString('base64url');
  const lines: string[] = [];
  await replayImport(
    [
      req(1, 'list', '/api/v1/pods?limit=500', 0, {
        response: {
          items: 500,
          remainingItemCount: 700,
          continue: token,
          resourceVersion: '48213',
        },
      }),
      req(2, 'list', `/api/v1/pods?continue=${token}&limit=500`, 2, {
        code: 410,
        status: {
          reason: 'Expired',
          message:
            'The provided continue parameter is too old to display a consistent list result.',
        },
      }),
      req(3, 'list', '/api/v1/namespaces/shop/pods', 3, { userAgent: hostile }),
      req(5, 'list', '/api/v1/pods?limit=500', 3.5, {
        userAgent: 'dashboard/v2.7.0',
        code: 504,
        status: {
          reason: 'Timeout',
          message: 'Timeout: Too large resource version: 50003, current: 49993',
        },
      }),
      req(4, 'watch', '/api/v1/pods?resourceVersion=48213&watch=true', 4, {
        completedAt: t0 + 4000 + 60_000,
      }),
      req(6, 'watch', '/api/v1/pods?resourceVersion=48213&watch=true', 5, {
        userAgent: 'kubelet/v1.33.1',
        code: 410,
        status: { reason: 'Expired', message: 'too old resource version: 48213 (48300)' },
      }),
    ],
    { profile: '1.36', seed: 1, files: ['audit.log'] },
    (l) => lines.push(JSON.stringify(l)),
  );
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

describe('the inspector: the Replay tab', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-replay-e2e-'));
  const trace = path.join(tmp, 'import-replay.jsonl');
  const panel = (): FrameLocator => inspectorPanel(page);
  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });

  before(async function () {
    await writeReplayTrace(trace);
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
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("lists the requests, the log beside the engine: the re-created 410 agrees, the log's 504 is said as its own fault, the watch's 410 as not reproduced", async () => {
    await openFromFileDialog(page, 'List/Watch: Open Trace…', trace);
    await panel()
      .locator('.run-header h1', { hasText: /import-replay\.jsonl/ })
      .waitFor({ timeout: 120_000 });
    await showTab(page, 'Replay');
    const view = panel().locator('.replay-view');
    const fault = view.locator('.vt-cell.replay-not-modelled');
    await fault.first().waitFor({ timeout: uiTimeoutMs });
    assert.deepStrictEqual(
      await fault.allTextContents(),
      ['not modelled', 'not reproduced'],
      "the log's 504, then the watch's 410",
    );
    assert.strictEqual(await view.locator('.vt-row.replay-row-disagrees').count(), 0);
    const expired = view.locator('.vt-row', { hasText: /410 Expired/ });
    assert.match((await expired.first().textContent()) ?? '', /410 Expired.*410 Expired.*agrees/);
    assert.strictEqual(
      (await view.locator('.replay-summary').textContent()) ?? '',
      "6 requests re-issued and compared with the log: the engine agrees with 4; it does not reproduce the log's 504 (a fault or overload the replay does not model); it cannot reproduce the log's 410 on the watch at audit.log:6: the log holds no write of pods since its resourceVersion, so nothing could have pushed the watch cache's history past it.",
    );
    // The hostile user agent is text in a cell, not markup in the page.
    await view.locator('.vt-cell', { hasText: hostile }).first().waitFor({ timeout: uiTimeoutMs });
    assert.strictEqual(await panel().locator('.replay-view script').count(), 0);
    await shot('replay-1-log-fault.png');
  });
});
