// The client-node 1.4.0 controller of the server suite (test/server/controller/widget-controller.ts:
// a Lease won, an informer on a CRD, an owned ConfigMap, an Event, status through /status) run
// against the local API server started from the palette with its CRD chosen in the file dialog;
// its client as the workbench shows it, read against the server's own record
// (GET /debug/listwatch/v1/state): the Server view's Clients row (User-Agent, its requests by
// kind) with the resources it touched, and the live run's Clients tab (its LISTs and WATCHes, the
// widgets informer's requests in the detail). Screenshots in test-results/e2e/controller-clients-*.png.
// No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { KubeConfig } from '@kubernetes/client-node';
import type { ClientCounts, DebugStateView } from '../../src/server/debug-state';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';
import { cutTableCells, inspectorHook, inspectorPanel, showTab } from '../harness/inspector-panel';
import {
  acceptStep,
  chooseInFileDialog,
  palette,
  quickInput,
  uiTimeoutMs,
} from '../harness/workbench-driver';
import { WidgetController } from '../server/controller/widget-controller';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
const shots = testResultsDir('e2e');
/** client-node 1.4.0 sends node-fetch's User-Agent; the views group a client by it. */
const controllerAgent = /^node-fetch\//;

const widgetCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`;

/** What the webview's debugging hook answers (webview/main.ts). */
interface InspectorHook {
  /** Client, connection, LISTs, WATCHes, 410s, restarts, relists, as the table shows them. */
  clientRows(): string[][];
  problems(): string[];
}

/** One request to the server the kubeconfig names, with its token, as `userAgent`. */
function apiRequest(
  kubeconfig: string,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const cluster = kc.getCurrentCluster();
  const token = kc.getCurrentUser()?.token;
  assert.ok(cluster && token, `${kubeconfig}: no cluster or token`);
  const ca = cluster.caData ? Buffer.from(cluster.caData, 'base64') : undefined;
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(urlPath, cluster.server),
      {
        method,
        ca,
        rejectUnauthorized: !cluster.skipTLSVerify,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'User-Agent': 'controller-clients-e2e/1.0',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe("a client-node controller's client in the workbench, against the server's record", function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let controller: WidgetController | undefined;
  let kubeconfig = '';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-controller-e2e-'));

  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });
  const panel = (): FrameLocator => inspectorPanel(page);
  const hook = <T>(read: (h: InspectorHook) => T): Promise<T> => inspectorHook(page, read);
  const serverPane = (): Locator =>
    page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Server' }) });

  /** The server's record of the controller's client, once two reads a second apart agree. */
  async function settledControllerCounts(): Promise<ClientCounts> {
    let last = '';
    for (;;) {
      const r = await apiRequest(kubeconfig, 'GET', '/debug/listwatch/v1/state');
      assert.strictEqual(r.status, 200, r.body);
      const state = JSON.parse(r.body) as DebugStateView;
      const clients = state.clients.filter((c) => controllerAgent.test(c.userAgent));
      assert.strictEqual(clients.length, 1, JSON.stringify(state.clients));
      const now = JSON.stringify(clients[0]);
      if (now === last) return clients[0];
      last = now;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  before(async () => {
    ({ server, browser, page } = await openWorkbench({
      folder: fixtures,
      extensionDevelopmentPath: root,
      settings: screenshotSettings,
      clipboard: true,
    }));
  });

  after(async () => {
    await controller?.stop().catch(() => undefined);
    if (page) await shot('controller-clients-last-state.png').catch(() => undefined);
    if (page) await palette(page, 'List/Watch: Stop Local API Server').catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await shot(
        `controller-clients-failed-${this.currentTest.title.replace(/\W+/g, '-')}.png`,
      ).catch(() => undefined);
  });

  it('starts the server with the Widget CRD chosen in the file dialog, opens its live run, runs the controller', async () => {
    const crd = path.join(tmp, 'widgets-crd.yaml');
    fs.writeFileSync(crd, widgetCrd);
    await palette(page, 'List/Watch: Start Local API Server…');
    await acceptStep(page, 'profile (1/4)');
    await acceptStep(page, 'seed objects (2/4)');
    await page
      .locator('.quick-input-title', { hasText: 'custom resources (3/4)' })
      .waitFor({ timeout: uiTimeoutMs });
    await quickInput(page).fill('Choose CRD');
    await page
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Choose CRD files…' })
      .waitFor({ timeout: uiTimeoutMs });
    await quickInput(page).press('Enter');
    const etcdStep = page.locator('.quick-input-title', { hasText: 'etcd (4/4)' });
    await chooseInFileDialog(page, crd, etcdStep);
    await acceptStep(page, 'etcd (4/4)', 'In-memory etcd');
    for (let i = 0; i < 60 && !kubeconfig.endsWith('kubeconfig'); i++) {
      await page.waitForTimeout(500);
      await palette(page, 'List/Watch: Copy KUBECONFIG Path');
      await page.waitForTimeout(200);
      kubeconfig = await page.evaluate(() => navigator.clipboard.readText());
    }
    assert.ok(fs.existsSync(kubeconfig), `kubeconfig ${kubeconfig}`);

    await palette(page, 'List/Watch: Open Live Run in Inspector');
    await panel()
      .locator('.run-header h1', { hasText: /^Live run of / })
      .waitFor({ timeout: 90_000 });

    // One campaign: the Lease is free, so it is created; no renewal during the test (a renewal
    // every retry period would move the figures while they are read).
    controller = new WidgetController({
      kubeconfig,
      namespace: 'default',
      identity: 'manager-a',
      group: 'example.com',
      version: 'v1',
      plural: 'widgets',
      leaseName: 'widget-controller',
      retryPeriodMs: 3_600_000,
    });
    await controller.start();
    assert.strictEqual(controller.leader, true);
    const created = await apiRequest(
      kubeconfig,
      'POST',
      '/apis/example.com/v1/namespaces/default/widgets',
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'hello' },
        spec: { greeting: 'hi' },
      },
    );
    assert.strictEqual(created.status, 201, created.body);
    for (let i = 0; i < 300 && !controller.reconciled.includes('hello'); i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.deepStrictEqual(controller.reconciled, ['hello'], String(controller.errors));
    const widget = await apiRequest(
      kubeconfig,
      'GET',
      '/apis/example.com/v1/namespaces/default/widgets/hello',
    );
    assert.match(widget.body, /"observedGeneration":1/);
    assert.deepStrictEqual(controller.errors, []);
  });

  it("the Server view's Clients row shows the controller's requests as the server counted them", async () => {
    const counts = await settledControllerCounts();
    // The controller's requests, by kind: the Lease read (404) and created; the widgets listed
    // and watched, the status written; the ConfigMap created, then on the status's update event
    // created again (409) and replaced; one Event.
    assert.deepStrictEqual(
      { lists: counts.lists, watches: counts.watches, gets: counts.gets, writes: counts.writes },
      { lists: 1, watches: 1, gets: 1, writes: 6 },
      JSON.stringify(counts),
    );
    const expected = `${counts.userAgent.split(' ')[0]} 1 list · 1 watch · 1 get · 6 writes`;

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
    const row = serverPane().locator('.monaco-list-row', { hasText: /^node-fetch\// });
    await row.filter({ hasText: '6 writes' }).waitFor({ timeout: uiTimeoutMs });
    const shown = (r: Locator) =>
      r.evaluateAll((rows) =>
        rows.map((e) =>
          [
            e.querySelector('.label-name')?.textContent ?? '',
            e.querySelector('.label-description')?.textContent ?? '',
          ]
            .join(' ')
            .trim(),
        ),
      );
    assert.deepStrictEqual(await shown(row), [expected]);
    // Opened, it names the resources of those requests (the side bar cuts the row's own line).
    await row.click();
    const perResource = serverPane().locator('.monaco-list-row[aria-level="3"]');
    await perResource.first().waitFor({ timeout: uiTimeoutMs });
    const kinds = [
      ['lists', 'list', 'lists'],
      ['watches', 'watch', 'watches'],
      ['gets', 'get', 'gets'],
      ['writes', 'write', 'writes'],
      ['other', 'other', 'other'],
    ] as const;
    const asServerCounted = Object.entries(counts.resources)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([resource, n]) =>
        [
          resource,
          kinds
            .filter(([kind]) => n[kind] > 0)
            .map(([kind, one, many]) => `${n[kind]} ${n[kind] === 1 ? one : many}`)
            .join(' · '),
        ].join(' '),
      );
    assert.deepStrictEqual(asServerCounted, [
      'configmaps 3 writes',
      'events 1 write',
      'leases.coordination.k8s.io 1 get · 1 write',
      'widgets.example.com 1 list · 1 watch · 1 write',
    ]);
    assert.deepStrictEqual(await shown(perResource), asServerCounted);
    // events has no watch cache (as upstream's cache sizes have it): no count of the cache's
    // objects says it is empty after the controller's Event.
    assert.deepStrictEqual(
      await shown(serverPane().locator('.monaco-list-row[aria-level="2"]', { hasText: /^events/ })),
      [
        'events no watch cache, read from etcd',
        'events.events.k8s.io no watch cache, read from etcd',
      ],
    );
    // As a person reads the rows whole: the toasts cleared, the side bar dragged wider.
    await palette(page, 'Notifications: Clear All Notifications');
    const bar = await page.locator('#workbench\\.parts\\.sidebar').boundingBox();
    assert.ok(bar);
    await page.mouse.move(bar.x + bar.width, bar.y + bar.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width + 180, bar.y + bar.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await shot('controller-clients-server-view.png');
    // The inspector beside the wider side bar: the controller's watcher row reads whole (its
    // state, "Streaming (no bookmarks asked)" with BookmarkSent, was clamped at 10em).
    assert.deepStrictEqual(
      (await cutTableCells(page, '#view-watchers')).filter(
        (c) => !/scrolls sideways|out of the table's view/.test(c),
      ),
      [],
      'the Watchers table beside the side bar',
    );
  });

  it("the live run's Clients tab: the controller's LISTs and WATCHes as the server counted them, the widgets informer's in the detail", async () => {
    const counts = await settledControllerCounts();
    await showTab(page, 'Clients');
    let rows: string[][] = [];
    for (let i = 0; i < 100; i++) {
      rows = (await hook((h) => h.clientRows())).filter((r) => controllerAgent.test(r[0]));
      if (rows.length > 0) break;
      await page.waitForTimeout(200);
    }
    assert.ok(rows.length > 0, 'no node-fetch client in the Clients tab');
    const sum = (i: number) => rows.reduce((n, r) => n + Number(r[i]), 0);
    // Its LISTs and WATCHes over its connections, as the server counted them; nothing refused.
    assert.deepStrictEqual(
      { lists: sum(2), watches: sum(3), expired: sum(4), restarts: sum(5), relists: sum(6) },
      { lists: counts.lists, watches: counts.watches, expired: 0, restarts: 0, relists: 0 },
      JSON.stringify(rows),
    );
    const row = panel()
      .locator('.clients-view .vt-row', { hasText: /^node-fetch\// })
      .first();
    await row.click();
    const detail = panel().locator('.clients-view .detail');
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    await detail
      .locator('.client-request.list', { hasText: widgets })
      .waitFor({ timeout: uiTimeoutMs });
    await detail
      .locator('.client-request.watch', { hasText: `${widgets}?` })
      .waitFor({ timeout: uiTimeoutMs });
    await shot('controller-clients-inspector.png');
    assert.deepStrictEqual(await hook((h) => h.problems()), []);
  });
});
