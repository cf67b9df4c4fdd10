// "List/Watch: Probe Cluster…" and "Scrape Cluster Metrics…" in the real extension host against an
// ApiServer started here: the modal confirmation shows exactly what will be sent (the token
// redacted) before anything is; declining sends nothing; accepting opens the probe as a run with
// its pages in the Lists tab's model and in the Runs view; the scrape's samples are the cluster's;
// the cluster pick offers the local server's kubeconfig and each context of $KUBECONFIG, the last
// used first.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { dump, load } from 'js-yaml';
import type { StoredRun } from '../../../src/extension/runs/run-store';
import { ApiServer } from '../../../src/server/api-server';
import { activeApi } from './extension-api';

describe('probe cluster commands', function () {
  this.timeout(120_000);
  let server: ApiServer;
  let dir: string;
  const asked: Array<{ message: string; detail: string; action: string }> = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-probe-ext-'));
    server = await ApiServer.start({
      seed: { pods: 5 },
      kubeconfigPath: path.join(dir, 'kubeconfig'),
    });
  });
  afterEach(async () => (await activeApi()).useConfirmations(undefined));
  after(async () => {
    await server?.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function answer(send: boolean): Promise<void> {
    asked.length = 0;
    (await activeApi()).useConfirmations({
      confirm: async (message, detail, action) => {
        asked.push({ message, detail, action });
        return send;
      },
    });
  }

  // First: nothing is remembered yet (the later tests name their kubeconfig, which is remembered).
  it("Scrape and Probe offer the local server's kubeconfig and each context of $KUBECONFIG, the last used first", async () => {
    const api = await activeApi();
    await answer(false);
    // $KUBECONFIG with two contexts: 'elsewhere' (its current-context) and 'listwatch' (the server).
    const own = load(fs.readFileSync(server.kubeconfigPath, 'utf8')) as Record<string, unknown[]>;
    const kubeconfig = path.join(dir, 'two-contexts');
    fs.writeFileSync(
      kubeconfig,
      dump({
        ...own,
        clusters: [
          ...own.clusters,
          { name: 'elsewhere', cluster: { server: 'https://127.0.0.1:1' } },
        ],
        contexts: [
          ...own.contexts,
          { name: 'elsewhere', context: { cluster: 'elsewhere', user: 'listwatch' } },
        ],
        'current-context': 'elsewhere',
      }),
    );
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = kubeconfig;
    const local = await vscode.commands.executeCommand<
      { kubeconfigPath: string; port: number } | undefined
    >('listwatch.startLocalApiServer', {
      profile: '1.36',
      seed: { pods: 2 },
      crdFiles: [],
      etcd: 'memory',
      port: 0,
    });
    assert.ok(local, 'the local server started');
    const offered: string[][] = [];
    /** Answers the target pick with the row `label` (and its detail), recording every row. */
    const picking = (label: string, detail: string) =>
      api.localServer.usePrompts({
        pick: (items) => {
          offered.push(items.map((i) => `${i.label} | ${i.description ?? ''} | ${i.detail ?? ''}`));
          return Promise.resolve(
            items.find((i) => i.label === label && (i.detail ?? '') === detail),
          );
        },
      });
    try {
      picking('listwatch', kubeconfig);
      await vscode.commands.executeCommand('listwatch.scrapeClusterMetrics');
      assert.deepStrictEqual(offered[0], [
        `Local API server | running in this window | ${local.kubeconfigPath}`,
        `elsewhere | current-context of $KUBECONFIG | ${kubeconfig}`,
        `listwatch | context of $KUBECONFIG | ${kubeconfig}`,
        'Browse… | pick a kubeconfig file | ',
      ]);
      // The context picked is the one asked about: no second pick of a context.
      assert.strictEqual(offered.length, 1);
      assert.strictEqual(
        asked[0]?.message,
        'Scrape the metrics of cluster "listwatch" (context "listwatch")?',
      );
      // Next time (Probe too), the last one used comes first.
      picking('Local API server', local.kubeconfigPath);
      await vscode.commands.executeCommand(
        'listwatch.probeCluster',
        undefined,
        undefined,
        '/api/v1/pods?limit=1',
        {},
      );
      assert.deepStrictEqual(offered[1], [
        `listwatch | context of $KUBECONFIG · last used | ${kubeconfig}`,
        `Local API server | running in this window | ${local.kubeconfigPath}`,
        `elsewhere | current-context of $KUBECONFIG | ${kubeconfig}`,
        'Browse… | pick a kubeconfig file | ',
      ]);
      assert.ok(
        asked.at(-1)?.detail.includes(`GET https://127.0.0.1:${local.port}/api/v1/pods?limit=1`),
      );
      api.localServer.usePrompts({
        pick: (items) => {
          offered.push(items.map((i) => `${i.label} | ${i.description ?? ''} | ${i.detail ?? ''}`));
          return Promise.resolve(undefined);
        },
      });
      await vscode.commands.executeCommand('listwatch.scrapeClusterMetrics');
      assert.strictEqual(
        offered[2][0],
        `Local API server | running in this window · last used | ${local.kubeconfigPath}`,
      );
    } finally {
      api.localServer.usePrompts(undefined);
      process.env.KUBECONFIG = saved;
      if (saved === undefined) delete process.env.KUBECONFIG;
      await vscode.commands.executeCommand('listwatch.stopLocalApiServer');
    }
  });

  it('declined: the confirmation shows the plan, nothing is sent, no run is added', async () => {
    const api = await activeApi();
    await answer(false);
    const runsBefore = api.runs().length;
    const listsBefore =
      server.resources.metrics.samples()[
        'apiserver_cache_list_total{group="",index="",resource="pods"}'
      ] ?? 0;
    const run = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.probeCluster',
      server.kubeconfigPath,
      'listwatch',
      '/api/v1/namespaces/default/pods?limit=2',
      {},
    );
    assert.strictEqual(run, undefined);
    assert.strictEqual(asked.length, 1);
    assert.strictEqual(asked[0].message, 'Probe cluster "listwatch" (context "listwatch")?');
    assert.strictEqual(asked[0].action, 'Send');
    const detail = asked[0].detail.split('\n');
    assert.ok(
      detail.includes(`GET ${server.httpsUrl}/api/v1/namespaces/default/pods?limit=2`),
      asked[0].detail,
    );
    assert.ok(detail.includes('  Authorization: Bearer <redacted, 64 chars>'), asked[0].detail);
    assert.ok(!asked[0].detail.includes(server.token), 'the token itself is never shown');
    assert.strictEqual(api.runs().length, runsBefore);
    assert.strictEqual(
      server.resources.metrics.samples()[
        'apiserver_cache_list_total{group="",index="",resource="pods"}'
      ] ?? 0,
      listsBefore,
      'no LIST reached the server',
    );
  });

  it('accepted: the pages open as a probe run, in the inspector and the Runs view', async () => {
    const api = await activeApi();
    await answer(true);
    const run = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.probeCluster',
      server.kubeconfigPath,
      'listwatch',
      '/api/v1/namespaces/default/pods?limit=2',
      {},
    );
    assert.ok(run, 'a run');
    assert.strictEqual(run.scenario, 'probe');
    assert.strictEqual(run.lists, 3);
    const open = api.currentRun();
    assert.strictEqual(open?.run.id, run.id);
    assert.deepStrictEqual(
      open.model.lists.map((l) => [l.returned, l.remainingItemCount]),
      [
        [2, 3],
        [2, 1],
        [1, undefined],
      ],
    );
    assert.ok(api.runs().some((r) => r.id === run.id));
    assert.ok(
      api.runsViewRows().some((r) => JSON.stringify(r).includes('Probe listwatch')),
      JSON.stringify(api.runsViewRows()),
    );
    assert.ok(api.inspector.isOpen());
  });

  it("Scrape Cluster Metrics…: the cluster's samples become the run's metrics", async () => {
    await answer(true);
    const run = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.scrapeClusterMetrics',
      server.kubeconfigPath,
      'listwatch',
    );
    assert.ok(run, 'a run');
    assert.ok(asked[0].detail.includes(`GET ${server.httpsUrl}/metrics`), asked[0].detail);
    const model = (await activeApi()).currentRun()!.model;
    assert.ok(Object.keys(model.metrics).some((k) => k.startsWith('watch_cache_capacity{')));
    assert.strictEqual(typeof model.header.params.metricsScrapedAt, 'string');
  });
});
