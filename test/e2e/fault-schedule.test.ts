// A fault schedule in the real workbench (issue 26): listwatch.server.faults names a schedule file
// (the same file as `listwatch serve --faults FILE`), Start from the palette applies it, and a
// real kubectl runs through it: its first LIST of pods is answered 429 (http-error, nth 1) and
// retried, every LIST of pods waits 200 ms more (latency). The Server view's Faults section shows
// both in force before kubectl (fault-schedule-server-view-before.png), then the latency alone with
// its hits once the 429 is spent (fault-schedule-server-view.png), as the admin API lists them;
// the live run's Clients tab shows kubectl's two LISTs on its one connection, the 429 and the
// retry in its detail, and the faults' markers on the timeline (fault-schedule-clients-view.png).
// No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Locator, Page } from 'playwright-core';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';
import { inspectorHook, inspectorPanel, showTab } from '../harness/inspector-panel';
import { acceptStep, palette, quickInput, uiTimeoutMs } from '../harness/workbench-driver';
import { findKubectls, kubectl, requestsTo } from '../server/harness/kubectl';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
const shots = testResultsDir('e2e');

const schedule = `faults:
  - name: http-error
    parameters: {code: 429}
    match: {verb: list, resource: pods, userAgent: kubectl}
    trigger: {nth: 1}
  - name: latency
    parameters: {ms: 200}
    match: {verb: list, resource: pods}
`;

/** What the webview's debugging hook answers (webview/main.ts). */
interface InspectorHook {
  /** Client, connection, LISTs, WATCHes, 410s, restarts, relists, as the table shows them. */
  clientRows(): string[][];
  problems(): string[];
}

describe('a fault schedule (listwatch.server.faults) in the workbench, a real kubectl through it', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-fault-schedule-e2e-'));
  const scheduleFile = path.join(tmp, 'faults.yaml');
  fs.writeFileSync(scheduleFile, schedule);
  let kubeconfig = '';

  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });
  const serverPane = (): Locator =>
    page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Server' }) });
  /** The Faults section's rows as shown: label and description. */
  const faultRows = async (): Promise<string[]> => {
    const rows = await serverPane()
      .locator('.monaco-list-row')
      .evaluateAll((els) =>
        els.map((e) =>
          [
            e.querySelector('.label-name')?.textContent ?? '',
            e.querySelector('.label-description')?.textContent ?? '',
          ]
            .join(' ')
            .trim(),
        ),
      );
    const at = rows.findIndex((r) => /^Faults \d+$/.test(r));
    return at < 0 ? [] : rows.slice(at);
  };
  const waitForFaultRows = async (want: string[]): Promise<void> => {
    let got: string[] = [];
    for (let i = 0; i < 100; i++) {
      got = await faultRows();
      if (JSON.stringify(got) === JSON.stringify(want)) return;
      await page.waitForTimeout(200);
    }
    assert.deepStrictEqual(got, want);
  };

  before(async () => {
    ({ server, browser, page } = await openWorkbench({
      folder: fixtures,
      extensionDevelopmentPath: root,
      settings: { ...screenshotSettings, 'listwatch.server.faults': scheduleFile },
      clipboard: true,
    }));
  });

  after(async () => {
    if (page) await shot('fault-schedule-last-state.png').catch(() => undefined);
    if (page) await palette(page, 'List/Watch: Stop Local API Server').catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await shot(`fault-schedule-failed-${this.currentTest.title.replace(/\W+/g, '-')}.png`).catch(
        () => undefined,
      );
  });

  it('Start applies the schedule: the Server view lists both faults in force, pending their first hit', async () => {
    await palette(page, 'List/Watch: Start Local API Server…');
    for (const title of [
      'profile (1/4)',
      'seed objects (2/4)',
      'custom resources (3/4)',
      'etcd (4/4)',
    ])
      await acceptStep(page, title);
    await page.locator('.statusbar-item', { hasText: '127.0.0.1:' }).first().waitFor({
      timeout: uiTimeoutMs,
    });
    await palette(page, 'List/Watch: Copy KUBECONFIG Path');
    await quickInput(page).waitFor({ state: 'hidden', timeout: uiTimeoutMs });
    for (let i = 0; i < 100 && !kubeconfig.endsWith('kubeconfig'); i++) {
      kubeconfig = await page.evaluate(() => navigator.clipboard.readText());
      if (!kubeconfig.endsWith('kubeconfig')) await page.waitForTimeout(100);
    }
    assert.ok(fs.existsSync(kubeconfig), `clipboard: ${kubeconfig}`);

    const activity = page.locator(
      '.activitybar .action-item .action-label[aria-label^="List/Watch"]',
    );
    if (!(await serverPane().isVisible())) await activity.first().click();
    for (const pane of ['Scenarios', 'Runs', 'Watchers', 'Tokens']) {
      const header = page.locator('.pane-header', { hasText: pane }).first();
      if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
    }
    await page
      .locator('.pane-header[aria-expanded="true"]', { hasText: 'Server' })
      .waitFor({ timeout: uiTimeoutMs });
    await waitForFaultRows([
      'Faults 2',
      '#1 http-error armed · 0 hits · code=429 · verb=list · resource=pods · userAgent=kubectl · nth=1',
      '#2 latency armed · 0 hits · ms=200 · verb=list · resource=pods',
    ]);
    await palette(page, 'Notifications: Clear All Notifications');
    await shot('fault-schedule-server-view-before.png');
  });

  it('kubectl get pods: the 429 then the retry; the Faults section keeps the latency with its hits; the Clients tab shows kubectl', async function () {
    const k = findKubectls().at(-1);
    assert.ok(k, 'no kubectl on the machine (npm run test:setup installs them)');
    await palette(page, 'List/Watch: Open Live Run in Inspector');
    await inspectorPanel(page)
      .locator('.run-header h1', { hasText: /^Live run of / })
      .waitFor({ timeout: 90_000 });

    const r = await kubectl(k, { kubeconfig, dir: tmp }, ['get', 'pods', '-o', 'name', '-v=6']);
    assert.strictEqual(r.code, 0, r.stderr);
    assert.strictEqual(r.stdout.trim().split('\n').length, 10, r.stdout);
    assert.deepStrictEqual(
      requestsTo(r.stderr, '/api/v1/namespaces/default/pods').map((q) => q.status),
      [429, 200],
      r.stderr,
    );
    // The http-error is spent (nth 1) and leaves the list; the latency hit both LISTs.
    await waitForFaultRows([
      'Faults 1',
      '#2 latency armed · 2 hits · ms=200 · verb=list · resource=pods',
    ]);
    await shot('fault-schedule-server-view.png');

    await showTab(page, 'Clients');
    // Both LISTs (the 429 and its retry) are kubectl's, on its one connection.
    let rows: string[][] = [];
    for (let i = 0; i < 100; i++) {
      rows = (await inspectorHook(page, (h: InspectorHook) => h.clientRows())).filter((row) =>
        row[0].startsWith('kubectl'),
      );
      if (rows.some((row) => row[2] === '2')) break;
      await page.waitForTimeout(200);
    }
    assert.deepStrictEqual(
      rows.map((row) => row.slice(2, 4)),
      [['2', '0']],
      `kubectl's LISTs in the Clients tab: ${JSON.stringify(rows)}`,
    );
    await inspectorPanel(page)
      .locator('.clients-view .vt-row', { hasText: /^kubectl\// })
      .first()
      .click();
    await inspectorPanel(page)
      .locator('.clients-view .detail .client-request.list', {
        hasText: '/api/v1/namespaces/default/pods',
      })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await shot('fault-schedule-clients-view.png');
  });
});
