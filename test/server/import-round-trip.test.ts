// The import round trip: real kubectl (1.33 and the oldest on the machine) and a real
// @kubernetes/client-node informer drive `listwatch serve --audit-log`; the audit log it wrote is
// imported (importFiles + ImportReportBuilder), and the report must find every client, chain,
// watch and relist the test produced. No upstream counterpart.
import type { ImportReport, ImportedClient } from '../../src/run/import-report';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CoreV1Api, KubeConfig, makeInformer, type V1Pod } from '@kubernetes/client-node';
import { importFiles } from '../../src/import/import-files';
import { ImportReportBuilder } from '../../src/import/import-report';
import { recordClientNodeTest, recordKubectlTest, suiteKubectls } from './harness/clients';
import { eventually } from './harness/eventually';
import { kubectl, watchListEnv } from './harness/kubectl';
import { ServeProcess, requestQuery } from './harness/serve-process';

describe('import round trip: real clients against listwatch serve --audit-log', function () {
  const kubectls = suiteKubectls();
  const newest = kubectls[kubectls.length - 1];
  const oldest = kubectls[0];
  let serve: ServeProcess;
  let auditLog: string;
  let logDir: string;
  let report: ImportReport;
  const agents: string[] = [];
  let informerLists = 0;

  // kubectl names itself after its binary: `kubectl.1.33/v1.33.1 (linux/amd64) kubernetes/8adc0f0`.
  const client = (version: string): ImportedClient => {
    const c = report.clients.find(
      (x) => /^kubectl[^/]*\//.test(x.userAgent) && x.userAgent.includes(`/${version} `),
    );
    assert.ok(c, `no kubectl ${version} in ${report.clients.map((x) => x.userAgent).join(', ')}`);
    return c;
  };
  const target = () => ({ kubeconfig: serve.info.kubeconfig, dir: serve.dir });

  before(async () => {
    if (!newest) throw new Error('no kubectl on this machine: run `npm run test:setup`');
    logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-audit-'));
    auditLog = path.join(logDir, 'audit.log');
    serve = await ServeProcess.start(['--audit-log', auditLog]);
    for (let i = 0; i < 5; i++) await serve.createPod(`p-${i}`, { app: 'round-trip' });

    // Paged LISTs: 5 pods, 2 a page: three pages each, the tokens linking them.
    for (const k of new Set([oldest, newest])) {
      recordKubectlTest(k);
      const r = await kubectl(k, target(), ['get', 'pods', '--chunk-size=2', '-o', 'name']);
      assert.strictEqual(r.code, 0, r.stderr);
      agents.push(k.gitVersion);
    }
    // A WatchList watch (client-go's reflector in kubectl wait), ended by its timeout.
    const env = watchListEnv(newest);
    assert.ok(env, `${newest.gitVersion} has no WatchList client`);
    {
      const r = await kubectl(
        newest,
        target(),
        ['wait', '--for=delete', 'pod/p-0', '--timeout=2s'],
        env,
      );
      assert.notStrictEqual(r.code, 0, 'kubectl wait times out: the pod stays');
    }

    // An informer: LIST, WATCH; the watch is ended after expire-history, its resume gets a 410, it relists.
    recordClientNodeTest();
    const kc = new KubeConfig();
    kc.loadFromFile(serve.info.kubeconfig);
    const api = kc.makeApiClient(CoreV1Api);
    const namespace = serve.namespace;
    const informer = makeInformer<V1Pod>(
      kc,
      `/api/v1/namespaces/${namespace}/pods`,
      async () => {
        informerLists++;
        return api.listNamespacedPod({ namespace, labelSelector: 'app=round-trip' });
      },
      'app=round-trip',
    );
    informer.on('error', () => undefined);
    await informer.start();
    const watcherOf = async () =>
      (await serve.state()).watchers.filter(
        (w) =>
          w.resource === 'pods' &&
          requestQuery(w.requestLine).get('labelSelector') === 'app=round-trip',
      );
    await eventually(async () => assert.strictEqual((await watcherOf()).length, 1));
    await serve.createPod('unseen', { app: 'elsewhere' });
    await serve.fault('expire-history', { resource: 'pods' });
    await serve.fault('terminate-watcher', { id: (await watcherOf())[0].id });
    await eventually(() => assert.strictEqual(informerLists, 2, 'the informer relisted'));
    await eventually(async () => assert.strictEqual((await watcherOf()).length, 1));
    await informer.stop();

    assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    const builder = new ImportReportBuilder();
    report = builder.finish(
      await importFiles([{ path: auditLog, name: 'audit.log' }], {}, builder),
    );
  });

  after(async () => {
    if (serve) await serve.stop();
    fs.rmSync(logDir, { recursive: true, force: true });
  });

  it('reads the whole log', () => {
    assert.strictEqual(report.rejected.count, 0, JSON.stringify(report.rejected.samples));
    assert.ok(report.records > 0);
  });

  it('finds each kubectl and its complete three-page chain', () => {
    for (const ua of agents) {
      const chains = client(ua).paginationChains.filter((c) => c.path.endsWith('/pods'));
      assert.strictEqual(chains.length, 1, `${ua}: ${JSON.stringify(chains)}`);
      assert.strictEqual(chains[0].pages, 3, ua);
      assert.deepStrictEqual(chains[0].codes, [200, 200, 200], ua);
      assert.strictEqual(chains[0].complete, true, ua);
      assert.strictEqual(chains[0].tokens.length, 2, ua);
    }
  });

  it('finds the WatchList watch and its end', () => {
    const c = client(newest.gitVersion);
    assert.ok(c.watchLists >= 1, JSON.stringify(c.watchSamples));
    assert.strictEqual(c.watchesOpenAtEnd, 0);
    assert.strictEqual(c.watchDurationsSeconds.count, c.watches);
  });

  it('finds the informer: its LIST, its watches, and the relist after the 410', () => {
    const c = report.clients.find((x) => x.lists === informerLists && x.relists > 0);
    assert.ok(
      c,
      `no client with ${informerLists} LISTs and a relist: ${JSON.stringify(report.clients.map((x) => [x.userAgent, x.lists, x.watches, x.relists]))}`,
    );
    assert.strictEqual(c.relists, 1);
    assert.ok(c.watches >= 2, `watches: ${c.watches}`);
    assert.strictEqual(c.mode, 'list-watch');
  });
});
