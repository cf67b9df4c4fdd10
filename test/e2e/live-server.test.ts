// The local API server in the real workbench, driven in Chromium like a person: Start from the
// palette with Enter, Enter, Enter, a real kubectl `get pods -w` and a client-node informer
// against it, the Server view's rows and the status bar item as shown (screenshot in
// test-results/e2e/live-server.png), then Stop and the view's welcome with its Start button; then
// a start on Debian's etcd-server (live-server-etcd.png), read through with kubectl, and stopped;
// then, with listwatch.server.etcdVersion set, the in-memory etcd reporting 3.4.23 named in the
// etcd step (live-server-etcd-version-step.png), the start message and the Server view
// (live-server-etcd-version.png), its etcd row's hover open while Uptime ticks
// (live-server-etcd-version-hover.png); and a 200,000-pod seed behind its progress notification
// (live-server-seed-progress.png), cancelled. Without a kubectl on the machine, the informer alone
// is the client. No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Locator, Page } from 'playwright-core';
import { CoreV1Api, KubeConfig, makeInformer, type V1Pod } from '@kubernetes/client-node';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import {
  acceptStep,
  palette,
  paletteRows,
  quickInput,
  uiTimeoutMs,
} from '../harness/workbench-driver';
import { findKubectls, startKubectl, type KubectlProcess } from '../server/harness/kubectl';
import { openWorkbench } from '../harness/open-workbench';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
const shots = testResultsDir('e2e');

/** The Server pane of the List/Watch side bar. */
function serverPane(page: Page): Locator {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Server' }) });
}

/** The rows of the Server view as shown: label and description. */
async function serverRows(page: Page): Promise<string[]> {
  return serverPane(page)
    .locator('.monaco-list-row')
    .evaluateAll((rows) =>
      rows.map((r) =>
        [
          r.querySelector('.label-name')?.textContent ?? '',
          r.querySelector('.label-description')?.textContent ?? '',
        ]
          .join(' ')
          .trim(),
      ),
    );
}

/** A screenshot of the window as it is, then Stop from the palette, until the status bar item goes. */
async function screenshotAndStop(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(shots, name), animations: 'disabled' });
  await palette(page, 'List/Watch: Stop Local API Server');
  await page.locator('.statusbar-item', { hasText: '127.0.0.1:' }).waitFor({
    state: 'detached',
    timeout: uiTimeoutMs,
  });
}

describe('the local API server in the workbench', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let watch: KubectlProcess | undefined;
  let informer: ReturnType<typeof makeInformer<V1Pod>> | undefined;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-live-e2e-'));

  before(async () => {
    ({ server, browser, page } = await openWorkbench({
      folder: fixtures,
      extensionDevelopmentPath: root,
      clipboard: true,
    }));
  });

  after(async () => {
    await watch?.kill();
    await informer?.stop().catch(() => undefined);
    if (page)
      await page
        .screenshot({ path: path.join(shots, 'live-server-last-state.png') })
        .catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('before Start: the side bar opens Scenarios and Runs, folds the rest; the palette offers Start, not Stop', async () => {
    const activity = page.locator(
      '.activitybar .action-item .action-label[aria-label^="List/Watch"]',
    );
    await activity.first().click();
    const header = (pane: string) => page.locator('.pane-header', { hasText: pane }).first();
    await header('Scenarios').waitFor({ timeout: uiTimeoutMs });
    const expanded: string[] = [];
    for (const pane of ['Scenarios', 'Runs', 'Watchers', 'Tokens', 'Server'])
      expanded.push(`${pane} ${await header(pane).getAttribute('aria-expanded')}`);
    assert.deepStrictEqual(expanded, [
      'Scenarios true',
      'Runs true',
      'Watchers false',
      'Tokens false',
      'Server false',
    ]);
    // As a newcomer sees it once the extension is up: the scenarios listed.
    await page
      .locator('.pane', { has: header('Scenarios') })
      .locator('.monaco-list-row')
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await page.screenshot({ path: path.join(shots, 'side-bar-first-open.png') });
    // "Local API Server" matches Start, Stop and the menu: only Start is offered with no server.
    const serverCommands = async (shown: string) =>
      (await paletteRows(page, 'Local API Server', shown))
        .filter((title) => title.includes('Local API Server'))
        .sort();
    assert.deepStrictEqual(await serverCommands('Start Local API Server…'), [
      'Start Local API Server…',
    ]);
  });

  it('Start from the palette, kubectl and an informer as clients: the Server view and the status bar show them; Stop leaves the Start button', async () => {
    await palette(page, 'List/Watch: Start Local API Server…');
    // Enter takes each prompt's default: profile 1.36, 10 pods and 3 configmaps, no CRD files,
    // the in-memory etcd.
    for (const title of [
      'profile (1/4)',
      'seed objects (2/4)',
      'custom resources (3/4)',
      'etcd (4/4)',
    ]) {
      await acceptStep(page, title);
    }
    const status = page.locator('.statusbar-item', { hasText: '127.0.0.1:' }).first();
    await status.waitFor({ timeout: uiTimeoutMs });
    const port = /127\.0\.0\.1:(\d+)/.exec(await status.innerText())?.[1];
    assert.ok(port, await status.innerText());
    // The kubeconfig path, as a person gets it: Copy KUBECONFIG Path.
    await palette(page, 'List/Watch: Copy KUBECONFIG Path');
    await quickInput(page).waitFor({ state: 'hidden', timeout: uiTimeoutMs });
    let kubeconfig = '';
    for (let i = 0; i < 100 && !kubeconfig.endsWith('kubeconfig'); i++) {
      kubeconfig = await page.evaluate(() => navigator.clipboard.readText());
      if (!kubeconfig.endsWith('kubeconfig')) await page.waitForTimeout(100);
    }
    assert.ok(fs.existsSync(kubeconfig), `clipboard: ${kubeconfig}`);

    const k = findKubectls().at(-1);
    const kubectlAgent = k ? `${path.basename(k.path)}/${k.gitVersion}` : undefined;
    if (k) {
      watch = startKubectl(k, { kubeconfig, dir: tmp }, ['get', 'pods', '-w']);
      await watch.until((p) => /^pod-0\s/m.test(p.stdout), 'kubectl printed pod-0');
    }
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    informer = makeInformer<V1Pod>(kc, '/api/v1/namespaces/default/pods', () =>
      core.listNamespacedPod({ namespace: 'default' }),
    );
    await informer.start();

    // The side bar with only the Server view open.
    const activity = page.locator(
      '.activitybar .action-item .action-label[aria-label^="List/Watch"]',
    );
    if (!(await serverPane(page).isVisible())) await activity.first().click();
    for (const pane of ['Scenarios', 'Runs', 'Watchers', 'Tokens']) {
      const header = page.locator('.pane-header', { hasText: pane }).first();
      if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
    }
    // Start showed the Server view (collapsed in the manifest, so as not to crowd the side bar).
    await page
      .locator('.pane-header[aria-expanded="true"]', { hasText: 'Server' })
      .waitFor({ timeout: uiTimeoutMs });
    const clients = k ? 2 : 1;
    // Both hold their watch open; the run has the same two clients as its Clients tab counts them.
    const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    // Connections open now, then every one seen since the start (discovery included): named
    // connections, not clients (the Clients tab's word for the connections that listed or watched).
    const expectedStatus = new RegExp(
      `${count(clients, 'connection', 'connections')} open \\(\\d+ since the start\\) · ${count(clients, 'watcher', 'watchers')}`,
    );
    await page
      .locator('.statusbar-item', { hasText: expectedStatus })
      .waitFor({ timeout: uiTimeoutMs });
    const watcherRow = (agent: string) =>
      serverPane(page).locator('.monaco-list-row', { hasText: `BookmarkSent · ${agent}` });
    await watcherRow('node-fetch/1.0').waitFor({ timeout: uiTimeoutMs });
    if (kubectlAgent) await watcherRow(kubectlAgent).waitFor({ timeout: uiTimeoutMs });
    const rows = await serverRows(page);
    const at = (prefix: string) => rows.findIndex((r) => r.startsWith(prefix));
    // Sections in order, each with its rows.
    const sections = ['Server', 'Resources', 'User agents', 'Watchers'].map((s) => at(`${s} `));
    assert.ok(
      sections.every((i, n) => i >= 0 && (n === 0 || i > sections[n - 1])),
      rows.join('\n'),
    );
    assert.strictEqual(rows[sections[0]], `Server https://127.0.0.1:${port}`);
    assert.strictEqual(rows[at('URL ')], `URL https://127.0.0.1:${port}`);
    assert.strictEqual(rows[at('Profile ')], 'Profile 1.36 (release-1.36)');
    assert.match(rows[at('Uptime ')], /^Uptime \d+s$/);
    assert.strictEqual(rows[at('etcd ')], 'etcd in memory');
    assert.match(rows[at('etcd revision ')], /^etcd revision \d+$/);
    assert.match(rows[at('pods ')], /^pods 10 objects · \d watchers? · RV \d+$/);
    assert.match(rows[at('configmaps ')], /^configmaps 3 objects · 0 watchers · RV \d+$/);
    assert.match(rows[at('namespaces ')], /^namespaces 4 objects · 0 watchers · RV \d+$/);
    assert.strictEqual(rows[sections[2]], `User agents ${clients}`);
    assert.ok(rows.includes('node-fetch/1.0 1 list · 1 watch'), rows.join('\n'));
    if (kubectlAgent) assert.ok(rows.includes(`${kubectlAgent} 1 list · 1 watch`), rows.join('\n'));
    const watcherRows = rows.slice(sections[3] + 1);
    assert.strictEqual(watcherRows.length, clients, rows.join('\n'));
    assert.deepStrictEqual(
      watcherRows.map((r) => r.replace(/^#\d+ /, '')).sort(),
      [
        ...(kubectlAgent ? [`pods BookmarkSent · ${kubectlAgent}`] : []),
        'pods BookmarkSent · node-fetch/1.0',
      ].sort(),
    );
    await page.screenshot({ path: path.join(shots, 'live-server.png'), animations: 'disabled' });
    // With a server running, the palette offers Stop as well.
    assert.deepStrictEqual(
      (await paletteRows(page, 'Local API Server', 'Stop Local API Server'))
        .filter((title) => title.includes('Local API Server'))
        .sort(),
      ['Start Local API Server…', 'Stop Local API Server'],
    );

    // Stop: the status bar item goes, the view shows its welcome with the Start button.
    await palette(page, 'List/Watch: Stop Local API Server');
    await serverPane(page)
      .locator('.welcome-view-content a, .welcome-view-content .monaco-button', {
        hasText: 'Start Local API Server…',
      })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await page.locator('.statusbar-item', { hasText: '127.0.0.1:' }).waitFor({
      state: 'detached',
      timeout: uiTimeoutMs,
    });
    if (watch) assert.strictEqual((await watch.exited).code, 0, watch.stderr);
  });

  it('Start on etcd-server: the Server view names the etcd it started, kubectl reads through it, Stop stops it', async () => {
    await palette(page, 'List/Watch: Start Local API Server…');
    for (const title of ['profile (1/4)', 'seed objects (2/4)', 'custom resources (3/4)']) {
      await acceptStep(page, title);
    }
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'etcd (4/4)' })
      .waitFor({ timeout: uiTimeoutMs });
    await quickInput(page).fill('Start etcd-server');
    await acceptStep(page, 'etcd (4/4)', 'Start etcd-server');
    const status = page.locator('.statusbar-item', { hasText: '127.0.0.1:' }).first();
    await status.waitFor({ timeout: uiTimeoutMs });
    const etcdRow = serverPane(page).locator('.monaco-list-row', { hasText: '(started here)' });
    await etcdRow.waitFor({ timeout: uiTimeoutMs });
    const rows = await serverRows(page);
    const etcd = rows.find((r) => r.startsWith('etcd http://'));
    const etcdUrl = /^etcd (http:\/\/127\.0\.0\.1:\d+) \(started here\)$/.exec(etcd ?? '')?.[1];
    assert.ok(etcdUrl, rows.join('\n'));
    assert.ok(
      rows.some((r) => /^etcd revision \(last seen\) \d+$/.test(r)),
      rows.join('\n'),
    );
    assert.ok(
      rows.some((r) => /^pods 10 objects · /.test(r)),
      rows.join('\n'),
    );
    const k = findKubectls().at(-1);
    if (k) {
      await palette(page, 'List/Watch: Copy KUBECONFIG Path');
      await quickInput(page).waitFor({ state: 'hidden', timeout: uiTimeoutMs });
      let kubeconfig = '';
      for (let i = 0; i < 100 && !kubeconfig.endsWith('kubeconfig'); i++) {
        kubeconfig = await page.evaluate(() => navigator.clipboard.readText());
        if (!kubeconfig.endsWith('kubeconfig')) await page.waitForTimeout(100);
      }
      const got = await startKubectl(k, { kubeconfig, dir: tmp }, [
        'get',
        'pods',
        '--chunk-size=3',
        '-o',
        'name',
      ]).exited;
      assert.strictEqual(got.code, 0, got.stderr);
      assert.strictEqual(got.stdout.trim().split('\n').length, 10, got.stdout);
    }
    await screenshotAndStop(page, 'live-server-etcd.png');
    // The etcd it started stopped with it: its port refuses connections.
    const port = Number(new URL(etcdUrl).port);
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = await new Promise<boolean>((resolve) => {
        const s = net.connect(port, '127.0.0.1');
        s.once('connect', () => {
          s.destroy();
          resolve(false);
        });
        s.once('error', () => resolve(true));
      });
      if (!refused) await page.waitForTimeout(100);
    }
    assert.ok(refused, `${etcdUrl} still answers after Stop`);
  });
});

describe('the local API server in the workbench, on an in-memory etcd reporting 3.4.23', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    ({ server, browser, page } = await openWorkbench({
      folder: fixtures,
      extensionDevelopmentPath: root,
      settings: { 'listwatch.server.etcdVersion': '3.4.23' },
    }));
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  it("the etcd step and the Server view name the version; the etcd row's hover stays while Uptime ticks", async () => {
    await palette(page, 'List/Watch: Start Local API Server…');
    for (const title of ['profile (1/4)', 'seed objects (2/4)', 'custom resources (3/4)']) {
      await acceptStep(page, title);
    }
    const memoryRow = page.locator('.quick-input-list .monaco-list-row.focused', {
      hasText: 'In-memory etcd',
    });
    await memoryRow.waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await memoryRow.textContent()) ?? '',
      /reporting etcd 3\.4\.23.*the version from listwatch\.server\.etcdVersion/,
    );
    await page.screenshot({ path: path.join(shots, 'live-server-etcd-version-step.png') });
    await acceptStep(page, 'etcd (4/4)', 'In-memory etcd');
    const etcdRow = serverPane(page).locator('.monaco-list-row', {
      hasText: 'in memory, reports etcd 3.4.23',
    });
    await etcdRow.waitFor({ timeout: uiTimeoutMs });
    await page
      .locator('.notification-toast', { hasText: 'etcd in memory, reports etcd 3.4.23' })
      .waitFor({ timeout: uiTimeoutMs });
    // The row's tooltip says what the feature check decided, and stays up while the Uptime row
    // above it ticks (it is redrawn alone: redrawing the section closed every hover in it).
    await etcdRow.hover();
    const hover = page.locator('.monaco-hover', {
      hasText: 'RequestWatchProgress feature is not supported',
    });
    await hover.waitFor({ timeout: uiTimeoutMs });
    const uptime = serverPane(page).locator('.monaco-list-row', { hasText: 'Uptime' });
    // The Runs view's live row ticks too (it showed "up 0s" for half a minute before).
    const liveRun = page
      .locator('.pane', { has: page.locator('.pane-header', { hasText: 'Runs' }) })
      .locator('.monaco-list-row', { hasText: 'live, up ' });
    await liveRun.waitFor({ timeout: uiTimeoutMs });
    const seen = new Set([await uptime.innerText()]);
    const seenLive = new Set([await liveRun.innerText()]);
    for (let i = 0; i < 100 && (seen.size < 3 || seenLive.size < 3); i++) {
      await page.waitForTimeout(200);
      seen.add(await uptime.innerText());
      seenLive.add(await liveRun.innerText());
    }
    assert.strictEqual(seen.size, 3, `Uptime did not tick twice: ${[...seen].join(' / ')}`);
    assert.strictEqual(
      seenLive.size,
      3,
      `the live run's row did not tick twice: ${[...seenLive].join(' / ')}`,
    );
    assert.ok(
      [...seenLive].every((t) => /live, up \d+s · \d+ watchers · \d+ lists/.test(t)),
      [...seenLive].join(' / '),
    );
    assert.ok(await hover.isVisible(), "the etcd row's hover closed while Uptime ticked");
    await page.screenshot({ path: path.join(shots, 'live-server-etcd-version-hover.png') });
    await page.mouse.move(0, 0);
    await screenshotAndStop(page, 'live-server-etcd-version.png');
  });

  it('a big seed starts behind a notification with its progress, and Cancel stops it', async () => {
    await palette(page, 'List/Watch: Start Local API Server…');
    await acceptStep(page, 'profile (1/4)');
    await page
      .locator('.quick-input-title', { hasText: 'seed objects (2/4)' })
      .waitFor({ timeout: uiTimeoutMs });
    await quickInput(page).fill('pods=200000');
    await acceptStep(page, 'seed objects (2/4)');
    await acceptStep(page, 'custom resources (3/4)');
    await acceptStep(page, 'etcd (4/4)', 'In-memory etcd');
    const toast = page.locator('.notification-toast', {
      hasText: 'Starting the local API server: seeding 200000 objects (pods=200000,configmaps=0)',
    });
    await toast
      .locator('.notification-list-item-message', { hasText: /of 200000 created/ })
      .waitFor({
        timeout: uiTimeoutMs,
      });
    await page.screenshot({ path: path.join(shots, 'live-server-seed-progress.png') });
    await toast.locator('.monaco-button', { hasText: 'Cancel' }).click({ timeout: uiTimeoutMs });
    await page
      .locator('.notification-toast', {
        hasText:
          /Local API server start cancelled: interrupted while seeding: \d+ of 200000 objects in place/,
      })
      .waitFor({ timeout: uiTimeoutMs });
    // Nothing serves: the status bar has no server item.
    assert.strictEqual(await page.locator('.statusbar-item', { hasText: '127.0.0.1:' }).count(), 0);
  });
});
