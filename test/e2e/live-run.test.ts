// The live run in the real workbench, driven in Chromium like a person: the local API server
// started from the palette (5 pods), its live run opened in the inspector, real kubectl run in
// the background (`get pods -w`, then `get pods --chunk-size=2`), the Lists view and the growing
// timeline read while it follows now, a fault injected from the palette shown as a named marker,
// the timeline scrubbed back (following stops) and set to follow again. Screenshots go to
// test-results/e2e/.
import { CoreV1Api, KubeConfig, makeInformer, type V1Pod } from '@kubernetes/client-node';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { projectRoot, testResultsDir } from '../harness/paths';
import type { VSCodeServer } from '../harness/vscode-server';
import { openWorkbench, screenshotSettings } from '../harness/open-workbench';
import {
  cutTableCells,
  inspectorFrame,
  inspectorHook,
  inspectorPanel,
  showTab,
} from '../harness/inspector-panel';
import {
  acceptStep,
  palette,
  pickQuickPick,
  quickInput,
  uiTimeoutMs,
} from '../harness/workbench-driver';
import {
  findKubectls,
  kubectl,
  startKubectl,
  type KubectlProcess,
  type KubectlTarget,
  watchListEnv,
} from '../server/harness/kubectl';

const root = projectRoot();
const fixtures = path.join(root, 'test', 'fixtures');
const shots = testResultsDir('e2e');

/** What the webview's debugging hook answers (webview/main.ts). */
interface InspectorHook {
  following(): boolean;
  updateCosts(): number[];
  time(): number;
  durationMs(): number | undefined;
  problems(): string[];
}

describe('the live run in the workbench', function () {
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let watch: KubectlProcess | undefined;
  let informer: ReturnType<typeof makeInformer<V1Pod>> | undefined;
  let dir: string;
  const k = findKubectls().at(-1);

  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, name), animations: 'disabled' });
  const panel = (): FrameLocator => inspectorPanel(page);
  const hook = <T>(read: (h: InspectorHook) => T): Promise<T> => inspectorHook(page, read);
  /** The timeline's fault names: at least `atLeast`, none drawn over another (a hidden one is not drawn). */
  const noFaultNamesOverlap = async (atLeast: number): Promise<void> => {
    const boxes = await panel()
      .locator('.tl-fault-label')
      .evaluateAll((labels) =>
        labels.map((l) => {
          const r = l.getBoundingClientRect();
          return { text: l.textContent ?? '', left: r.left, right: r.right, top: r.top };
        }),
      );
    assert.ok(boxes.length >= atLeast, JSON.stringify(boxes));
    const drawn = boxes.filter((b) => b.right > b.left);
    for (const [i, a] of drawn.entries())
      for (const b of drawn.slice(i + 1))
        assert.ok(
          Math.abs(a.top - b.top) > 1 || a.right <= b.left || b.right <= a.left,
          `fault names overlap: ${JSON.stringify([a, b])}`,
        );
  };

  before(async function () {
    assert.ok(k, 'no kubectl found (npm run test:setup unpacks one)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-e2e-live-'));
    ({ server, browser, page } = await openWorkbench({
      folder: fixtures,
      extensionDevelopmentPath: root,
      settings: screenshotSettings,
      clipboard: true,
    }));
  });

  after(async () => {
    await watch?.kill();
    await informer?.stop().catch(() => undefined);
    if (page) await shot('live-run-last-state.png').catch(() => undefined);
    if (page) await palette(page, 'List/Watch: Stop Local API Server').catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await shot(`failed-live-${this.currentTest.title.replace(/\W+/g, '-')}.png`).catch(
        () => undefined,
      );
  });

  it('starts the server, opens its live run, and shows kubectl get --chunk-size=2 as it happens', async () => {
    await palette(page, 'List/Watch: Start Local API Server…');
    const input = quickInput(page);
    await acceptStep(page, 'profile (1/4)');
    await page
      .locator('.quick-input-title', { hasText: 'seed objects (2/4)' })
      .waitFor({ timeout: uiTimeoutMs });
    await input.fill('pods=5');
    await acceptStep(page, 'seed objects (2/4)');
    await acceptStep(page, 'custom resources (3/4)');
    await acceptStep(page, 'etcd (4/4)');
    // The server is up once its kubeconfig can be copied.
    let kubeconfig = '';
    for (let i = 0; i < 60 && !kubeconfig.endsWith('kubeconfig'); i++) {
      await page.waitForTimeout(500);
      await palette(page, 'List/Watch: Copy KUBECONFIG Path');
      await page.waitForTimeout(200);
      kubeconfig = await page.evaluate(() => navigator.clipboard.readText());
    }
    assert.ok(fs.existsSync(kubeconfig), `kubeconfig ${kubeconfig}`);
    const target: KubectlTarget = { kubeconfig, dir };

    await palette(page, 'List/Watch: Open Live Run in Inspector');
    await panel()
      .locator('.run-header h1', { hasText: /^Live run of / })
      .waitFor({ timeout: 90_000 });
    // The side bar closed: the panel gets the whole width for its screenshots.
    await page.keyboard.press('Control+B');
    assert.strictEqual(await hook((h) => h.following()), true, 'a live run opens following now');

    watch = startKubectl(k!, target, ['get', 'pods', '-w']);
    await watch.until((p) => /pod-4/.test(p.stdout), 'the watch printed the pods');
    const chunked = await kubectl(k!, target, ['get', 'pods', '--chunk-size=2']);
    assert.strictEqual(chunked.code, 0, chunked.stderr);

    await showTab(page, 'Lists');
    const rows = panel().locator('#view-lists .vt-row:not([hidden])', { hasText: 'limit=2' });
    for (let i = 0; i < 100 && (await rows.count()) < 3; i++) await page.waitForTimeout(200);
    assert.strictEqual(await rows.count(), 3, 'the three pages of get --chunk-size=2');
    await rows.last().click();
    await panel().locator('#view-lists .detail').first().waitFor({ timeout: uiTimeoutMs });
    // With the detail pane open at 1400 px, every column reads whole without scrolling sideways:
    // the Client ("kubectl/v1.35.2", not "kubec…", as the second review saw it), the Request and
    // the Rule (cut, with the table scrolling to its last columns, before).
    const clientCell = rows.last().locator('.vt-cell').nth(1);
    assert.match((await clientCell.textContent()) ?? '', /^kubectl\/v1\.\d+\.\d+$/);
    assert.deepStrictEqual(await cutTableCells(page, '#view-lists'), [], 'Lists at 1400 px');
    // Following: the scrubber stands at the run's end, which grew past the LISTs.
    const [following, at, end] = await hook((h) => [h.following(), h.time(), h.durationMs()]);
    assert.ok(following && end !== undefined && at === end && end > 0, `${at} of ${end}`);
    await shot('live-run-lists-chunk-size.png');

    // Nothing happens: the run's end is now all the same (the host tells the time once a second),
    // and the scrubber following now moves with it.
    const before = await hook((h) => h.durationMs() ?? 0);
    await page.waitForTimeout(2500);
    const [followingNow, atNow, endNow] = await hook((h) => [
      h.following(),
      h.time(),
      h.durationMs() ?? 0,
    ]);
    assert.ok(endNow >= before + 1500, `the end moved with now: ${before} then ${endNow}`);
    assert.ok(followingNow && atNow === endNow, `following now: ${atNow} of ${endNow}`);
    assert.strictEqual(await rows.count(), 3, 'the Lists view at now shows the same LISTs');

    // A WatchList `kubectl wait` while the pod exists, then the pod deleted: the wait's watch in
    // Watchers and Clients.
    const wl = findKubectls()
      .filter((c) => watchListEnv(c)?.KUBE_FEATURE_WatchListClient)
      .at(-1);
    if (wl) {
      const wait = startKubectl(
        wl,
        target,
        ['wait', '--for=delete', 'pod/pod-0', '--timeout=60s'],
        watchListEnv(wl),
      );
      const agent = `kubectl.1.${wl.minor}/${wl.gitVersion}`;
      await showTab(page, 'Watchers');
      // The wait's own row: `get pods -w` above runs the same kubectl (same User-Agent), so the
      // row is found by the wait's selector.
      const waitRows = panel().locator('#view-watchers .vt-row:not(.loading)', {
        hasText: 'metadata.name=pod-0',
      });
      await waitRows.first().waitFor({ timeout: 30_000 });
      await waitRows.first().click();
      // It read its initial ADDED event and the initial-events-end bookmark: Read ≥ 2, and Last
      // RV is the bookmark's (a number, not "nothing read yet").
      const fact = (name: string) =>
        panel()
          .locator('#view-watchers .detail dl.facts dt', { hasText: name })
          .locator('xpath=following-sibling::dd[1]');
      for (let i = 0; i < 50; i++) {
        const read = Number(
          /^\d+/.exec((await fact('Read by the client').textContent()) ?? '')?.[0],
        );
        if (read >= 2) break;
        await page.waitForTimeout(200);
      }
      const readText = (await fact('Read by the client').textContent()) ?? '';
      assert.ok(Number(/^\d+/.exec(readText)?.[0]) >= 2, `WatchList wait: Read ${readText}`);
      assert.match((await fact('Last RV read').textContent()) ?? '', /^\d+$/);
      // Its first bookmark bucket (the current second when it opened) began before the run did:
      // said as due or a time in the run, never as a negative second.
      assert.doesNotMatch((await fact('Next bookmark').textContent()) ?? '', /-\d|second -/);
      // Every column of the Watchers table reads whole beside the detail pane.
      assert.deepStrictEqual(
        await cutTableCells(page, '#view-watchers'),
        [],
        'Watchers at 1400 px',
      );
      await shot('live-run-watchers-watchlist-wait.png');
      const deleted = await kubectl(k!, target, ['delete', 'pod', 'pod-0']);
      assert.strictEqual(deleted.code, 0, deleted.stderr);
      const waited = await wait.exited;
      assert.strictEqual(waited.code, 0, waited.stderr);
      await showTab(page, 'Clients');
      const client = panel().locator('.clients-view .vt-row', { hasText: wl.gitVersion });
      await client.first().waitFor({ timeout: 30_000 });
      await client.first().click();
      await panel().locator('.clients-view .detail').waitFor({ timeout: uiTimeoutMs });
      await shot('live-run-clients-watchlist-wait.png');
      console.log(`      wait client: ${agent}`);
    }

    // A reflector whose watch ends after the history expired: a WatchList `kubectl wait` on
    // pod-1, pod-2 deleted, the history expired, then its watch terminated: it resumes.
    const relister = wl
      ? startKubectl(
          wl,
          target,
          ['wait', '--for=delete', 'pod/pod-1', '--timeout=120s'],
          watchListEnv(wl),
        )
      : undefined;
    const fault = async (name: string, params: object) => {
      const body = path.join(dir, `${name}.json`);
      fs.writeFileSync(body, JSON.stringify(params));
      const r = await kubectl(k!, target, [
        'create',
        '--raw',
        `/debug/listwatch/v1/faults/${name}`,
        '-f',
        body,
      ]);
      assert.strictEqual(r.code, 0, r.stderr);
    };
    if (relister && wl) {
      await showTab(page, 'Watchers');
      const open = panel().locator('#view-watchers .vt-row:not(.loading)', {
        hasText: 'metadata.name=pod-1',
      });
      await open.first().waitFor({ timeout: 30_000 });
      await showTab(page, 'Clients');
      // The relister's row: the table orders its clients by what they did, so find the one whose
      // detail shows its watch of pod-1 (the `wait` above watched pod-0 with the same version).
      const rows = panel().locator('.clients-view .vt-row', { hasText: wl.gitVersion });
      const detail = panel().locator('.clients-view .detail');
      for (let i = 0; i < (await rows.count()); i++) {
        await rows.nth(i).click();
        await page.waitForTimeout(300);
        if (/metadata\.name(%3D|=)pod-1\b/.test((await detail.textContent()) ?? '')) break;
      }
      const detailText = (await detail.textContent()) ?? '';
      assert.match(detailText, /metadata\.name(%3D|=)pod-1\b/, 'the relister is a row of its own');
      const ua = /User-Agent\s*(kubectl\S+ \(\S+\) kubernetes\/[0-9a-f]{7})/.exec(detailText)?.[1];
      assert.ok(ua, 'the client detail names its User-Agent');
      // Back to back, before a bookmark brings the watcher to the new resource version.
      const gone = await kubectl(k!, target, ['delete', 'pod', 'pod-2', '--wait=false']);
      assert.strictEqual(gone.code, 0, gone.stderr);
      await fault('expire-history', { resource: 'pods' });
      await fault('terminate-watcher', { userAgent: ua });
      // What the reflector does next depends on how long its watch lived: usually it resumes
      // from its last RV (no 410, see the report); a watch cut less than a second after its list
      // ended, with no event since, failed (client-go reflector.go handleWatch's "very short
      // watch"), and a WatchList client then lists again by a WATCH with sendInitialEvents=true.
      // The view must say which it did.
      const watches = panel().locator('.clients-view .detail .client-request.watch');
      await watches.nth(1).waitFor({ timeout: 30_000 });
      const next = watches.nth(1);
      const nextText = (await next.textContent()) ?? '';
      if (nextText.includes('sendInitialEvents=true')) {
        assert.match(
          nextText,
          /relist, a WatchList WATCH \(sendInitialEvents=true\): [\d,]+ ms after/,
        );
        assert.match((await next.getAttribute('class')) ?? '', /\bis-relist\b/);
        console.log('      the reflector relisted (WatchList) after its short watch');
      } else {
        const resumed = next.locator('.restart', { hasText: 'resumes from its last RV' });
        await resumed.waitFor({ timeout: 30_000 });
      }
      await page.waitForTimeout(1500);
      await shot('live-run-clients-watch-resumed.png');
      // The table re-sorts as the client acts: log the selected client's own detail, not a row.
      const connection = /Connection\s*(c\d+)/.exec((await detail.textContent()) ?? '')?.[1];
      console.log(`      relister: ${connection} (${ua})`);
      await relister.kill();
    }

    // A client that relists: a client-node informer whose watch resumes from an RV the expired
    // history no longer reaches (a pod written in another namespace moved the cache past it, and
    // the informer watches only default). It gets the 410 and lists again.
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    informer = makeInformer<V1Pod>(kc, '/api/v1/namespaces/default/pods', () =>
      core.listNamespacedPod({ namespace: 'default' }),
    );
    await informer.start();
    await showTab(page, 'Clients');
    const informerRow = panel()
      .locator('.clients-view .vt-row', { hasText: 'node-fetch/' })
      .first();
    await informerRow.waitFor({ timeout: 30_000 });
    await core.createNamespacedPod({
      namespace: 'kube-system',
      body: { metadata: { name: 'unseen' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    });
    await fault('expire-history', { resource: 'pods' });
    await fault('terminate-watcher', {
      userAgent: 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
    });
    // Columns: client, connection, LISTs, WATCHes, 410s, restarts, relists, relist cost.
    const informerCells = async (): Promise<string[]> =>
      (await informerRow.locator('.vt-cell').allTextContents()).map((c) => c.trim());
    const deadline = Date.now() + 30_000;
    while ((await informerCells())[6] !== '1' && Date.now() < deadline)
      await page.waitForTimeout(250);
    const relisted = await informerCells();
    assert.strictEqual(relisted[4], '1', `one 410: ${relisted.join(' | ')}`);
    assert.strictEqual(relisted[6], '1', `one relist: ${relisted.join(' | ')}`);
    assert.strictEqual(relisted[2], '2', `the first LIST and the relist: ${relisted.join(' | ')}`);
    await informerRow.click();
    await panel()
      .locator('.clients-view .detail', { hasText: 'relist' })
      .waitFor({ timeout: uiTimeoutMs });
    // The status bar counts connections (any request, discovery too), the Clients tab clients
    // (the connections that listed or watched): two names, and the figures agree (each client is
    // at least one connection the status bar saw).
    const tabCount = (await panel().locator('.clients-view .count').first().textContent()) ?? '';
    const statusText =
      (await page
        .locator('.statusbar-item', { hasText: 'since the start' })
        .first()
        .textContent()) ?? '';
    const inRun = Number(/^([\d,]+) clients? in the run/.exec(tabCount)?.[1].replace(/,/g, ''));
    const seen = Number(/\d+ connections? open \((\d+) since the start\)/.exec(statusText)?.[1]);
    assert.ok(inRun > 0 && seen >= inRun, `Clients tab "${tabCount}", status bar "${statusText}"`);
    assert.doesNotMatch(statusText, /client/i, 'the status bar does not call connections clients');
    console.log(`      clients tab: ${tabCount}; status bar: ${statusText}`);
    await shot('live-run-clients-relist.png');

    // A watch a fault cuts: drop-connection armed for the informer's next watch, then its open
    // watch terminated. The Watchers tab names the cut's cause, not "stopped" (the client side).
    await fault('drop-connection', {
      match: { verb: 'watch', userAgent: 'node-fetch/' },
      trigger: { count: 1 },
    });
    await fault('terminate-watcher', {
      userAgent: 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
    });
    await showTab(page, 'Watchers');
    const cut = panel().locator('#view-watchers .vt-row:not(.loading)', {
      hasText: 'connection cut by a fault',
    });
    await cut.first().waitFor({ timeout: 30_000 });
    await cut.first().click();
    await panel()
      .locator('#view-watchers .detail', { hasText: 'connection cut by a fault' })
      .first()
      .waitFor({ timeout: uiTimeoutMs });
    await shot('live-run-watchers-fault-cut.png');
    await informer.stop();
    informer = undefined;

    // A fault from the editor becomes a named marker on the timeline.
    const markersBefore = await panel()
      .locator('.tl-fault-label', { hasText: 'expire-history' })
      .count();
    await palette(page, 'List/Watch: Inject Fault…');
    await pickQuickPick(page, 'expire-history', 'expire-history');
    await page
      .locator('.quick-input-title', { hasText: 'Inject expire-history: resource' })
      .waitFor({ timeout: uiTimeoutMs });
    await pickQuickPick(page, 'pods', 'pods');
    // A server fault asks only when: now, or after seconds.
    await page
      .locator('.quick-input-title', { hasText: 'Inject expire-history: when' })
      .waitFor({ timeout: uiTimeoutMs });
    await pickQuickPick(page, 'At once', 'At once');
    // One more expire-history marker than the steps above left.
    await panel()
      .locator('.tl-fault-label', { hasText: 'expire-history' })
      .nth(markersBefore)
      .waitFor({ timeout: uiTimeoutMs });
    // The faults came in bursts (terminate-watcher, expire-history within a second): each name
    // reads on its own, none drawn over another (they stack on up to three lines).
    await noFaultNamesOverlap(3);
    await shot('live-run-fault-marker.png');

    // cache-lag: the reflector paused 10 s; a consistent LIST (no resourceVersion) waits up to 3 s
    // for the cache, then is served from etcd or refused with 429 (the profile decides). 5 s was
    // too short on a loaded machine: the lag ended while the LIST waited (served by the cache
    // after 2.85 s) because kubectl's delete and get took that long to send it.
    await fault('cache-lag', { seconds: 10, resource: 'pods' });
    // A write the paused reflector holds: etcd is ahead of the watch cache.
    const held = await kubectl(k!, target, ['delete', 'pod', 'pod-3', '--wait=false']);
    assert.strictEqual(held.code, 0, held.stderr);
    const lagged = await kubectl(k!, target, ['get', 'pods']);
    console.log(`      get pods during cache-lag: code ${lagged.code} ${lagged.stderr.trim()}`);
    await showTab(page, 'Lists');
    const lagRow = panel().locator('#view-lists .vt-row:not([hidden])').last();
    await page.waitForTimeout(1000);
    await lagRow.click();
    const answered = (await panel().locator('#view-lists .detail').first().textContent()) ?? '';
    assert.match(answered, /Served byetcd/, 'the consistent LIST fell back to etcd');
    // At least the 3 s wait for the cache (no upper bound: a wall-clock limit on a shared machine;
    // once the fallback was answered only when the 5 s lag ended, 4.844 s later).
    const later = /\((\d+\.\d{3}) s later\)/.exec(answered);
    assert.ok(later && Number(later[1]) >= 3, `after the 3 s wait for the cache: ${answered}`);
    assert.match(answered, /fell back to etcd\)/, 'the rule says the cache did not serve it');
    // cache-lag's name too: none drawn over another.
    await noFaultNamesOverlap(4);
    // The Wait and Fallback columns now have a LIST each: still every column whole at 1400 px.
    assert.deepStrictEqual(await cutTableCells(page, '#view-lists'), [], 'Lists at 1400 px');
    await shot('live-run-lists-cache-lag.png');

    // At 1100×720 the detail pane goes under the table: both tables read whole there too.
    await page.setViewportSize({ width: 1100, height: 720 });
    try {
      await page.waitForTimeout(800);
      assert.deepStrictEqual(await cutTableCells(page, '#view-lists'), [], 'Lists at 1100×720');
      await shot('live-run-lists-1100x720.png');
      await showTab(page, 'Watchers');
      await page.waitForTimeout(500);
      assert.deepStrictEqual(
        await cutTableCells(page, '#view-watchers'),
        [],
        'Watchers at 1100×720',
      );
      await shot('live-run-watchers-1100x720.png');
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }

    // The Watch cache tab of the live run: the pods watch cache started (its state observed when
    // recording began), the history window with the expire-history jumps, and the cache RV behind
    // etcd's while the reflector was paused, caught up once the lag ended.
    await showTab(page, 'Watch cache');
    const cacheView = panel().locator('.watch-cache-view');
    await cacheView
      .locator('p', { hasText: 'The watch cache of pods' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.strictEqual(
      await cacheView.locator('p.empty-tab', { hasText: 'does not start' }).isVisible(),
      false,
      'a live run does not say its watch cache never started',
    );
    const windowChart = cacheView.locator('figure.chart', {
      hasText: 'History window: the oldest resourceVersion a watch can start from',
    });
    assert.match(
      (await windowChart.locator('svg').getAttribute('aria-label')) ?? '',
      /: [2-9]\d* jumps/,
      'each expire-history is a jump of the window',
    );
    assert.ok(
      (await cacheView.locator('.chart-marker[aria-label*="fault cache-lag"]').count()) > 0,
      'the cache-lag fault is marked on the RV chart',
    );
    const caughtUp = cacheView.locator('.now-line', { hasText: 'caught up' });
    await caughtUp.waitFor({ timeout: 30_000 });
    const nowLine = (await caughtUp.textContent()) ?? '';
    assert.match(nowLine, /capacity \d+/);
    assert.match(nowLine, /history [\d,]+ of [\d,]+ events, watches from RV \d+ on/);
    console.log(`      watch cache at now: ${nowLine}`);
    await shot('live-run-watch-cache.png');
    // The charts' time axis spans the live run: its end is labelled with the run's length, and it
    // grows with the header's on every tick of now (each second), batch or no batch.
    const frame = await inspectorFrame(page);
    /**
     * Every visible chart of `view` ends at the run's length two frames after each tick of now
     * (`run/now`, the host's second), batch or no batch, for 4 s of the live run: what each tick
     * read, [the run's length, every chart's end label in ms].
     */
    const chartsFollowNow = async (view: string): Promise<number> => {
      const seen: Array<[number, number[]]> = await frame.evaluate(
        (v) =>
          new Promise((resolve) => {
            const ticks: Array<[number, number[]]> = [];
            const onMessage = (event: MessageEvent) => {
              const data = event.data as { type?: string; at?: number };
              if (data?.type !== 'run/now') return;
              // After the panel's own listener (it registered first) and the charts' next frame.
              requestAnimationFrame(() =>
                requestAnimationFrame(() => {
                  const length = (
                    window as unknown as { listwatchInspector: InspectorHook }
                  ).listwatchInspector.durationMs();
                  // Another message in between moved the end again: not this tick's to judge.
                  if (length === undefined || length !== data.at) return;
                  const ends = Array.from(document.querySelectorAll(`${v} text.chart-axis-end`))
                    .filter((t) => (t as SVGElement).getBoundingClientRect().width > 0)
                    .map((t) => Number((t.textContent ?? '').replace(/ s$/, '')) * 1000);
                  ticks.push([length, ends]);
                }),
              );
            };
            window.addEventListener('message', onMessage);
            setTimeout(() => {
              window.removeEventListener('message', onMessage);
              resolve(ticks);
            }, 4000);
          }),
        view,
      );
      assert.ok(seen.length >= 2, `${view}: ticks of now seen: ${JSON.stringify(seen)}`);
      for (const [length, ends] of seen)
        assert.ok(
          ends.length > 0 && ends.every((e) => Math.abs(e - length) < 1),
          `${view}: the charts end at ${JSON.stringify(ends)} ms, the run at ${length} ms`,
        );
      return seen[0][1].length;
    };
    assert.ok((await chartsFollowNow('.watch-cache-view')) >= 3, 'the Watch cache charts');
    // The Serialization tab's chart too (it stood at the last batch's end while the header and the
    // timeline followed now).
    await showTab(page, 'Serialization');
    await panel().locator('.serialization-view figure.chart').waitFor({ timeout: uiTimeoutMs });
    await chartsFollowNow('.serialization-view');
    await shot('live-run-serialization.png');
    await showTab(page, 'Watch cache');

    // Another resource's watch cache, picked: its own charts. The expire-history and cache-lag
    // above were aimed at pods, so configmaps' history never jumped and no fault is marked.
    const picker = cacheView.locator('vscode-dropdown');
    await picker.click();
    await cacheView.locator('vscode-option', { hasText: 'configmaps' }).click();
    await cacheView
      .locator('p', { hasText: 'The watch cache of configmaps' })
      .waitFor({ timeout: uiTimeoutMs });
    assert.match(
      (await windowChart.locator('svg').getAttribute('aria-label')) ?? '',
      /: 0 jumps/,
      "configmaps' history window did not take pods' expire-history",
    );
    assert.strictEqual(
      await cacheView.locator('.chart-marker[aria-label*="fault cache-lag"]').count(),
      0,
      "pods' cache-lag is not marked on configmaps' chart",
    );
    await shot('live-run-watch-cache-configmaps.png');
    await picker.click();
    await cacheView.locator('vscode-option', { hasText: 'pods' }).click();
    await cacheView
      .locator('p', { hasText: 'The watch cache of pods' })
      .waitFor({ timeout: uiTimeoutMs });

    // Scrubbing back stops following; the button follows again.
    const slider = panel().locator('.tl-slider');
    const box = await slider.boundingBox();
    assert.ok(box);
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height / 2);
    assert.strictEqual(await hook((h) => h.following()), false, 'scrubbing back stops following');
    await shot('live-run-timeline-scrubbed-back.png');
    await panel().locator('vscode-button.tl-follow').click();
    assert.strictEqual(await hook((h) => h.following()), true, 'Follow now follows again');
    const [at2, end2] = await hook((h) => [h.time(), h.durationMs()]);
    assert.strictEqual(at2, end2);
    assert.deepStrictEqual(await hook((h) => h.problems()), []);
    const costs = await hook((h) => h.updateCosts());
    assert.ok(costs.length > 0, 'the panel applied live batches');
    const sorted = [...costs].sort((a, b) => a - b);
    console.log(
      `      webview: ${costs.length} batches applied, median ${sorted[sorted.length >> 1].toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (information only)`,
    );
  });
});
