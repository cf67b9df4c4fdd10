// Real kubectl 1.35 and 1.20 against `listwatch serve`: `patch --subresource=status` (kubectl
// 1.24 and later) writes status and leaves spec alone, a main-resource patch leaves status alone,
// `kubectl scale` writes spec.replicas through /scale, `get -o jsonpath='{.status}'` reads it
// back, and a custom resource whose CRD declares status and scale is served both. No upstream
// counterpart: upstream tests these in test/cmd (apps.sh, crd.sh) against a real cluster.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { kubectl, type Kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';
import { projectRoot } from '../harness/paths';

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: x
spec:
  replicas: 1
  selector:
    matchLabels: {app: x}
  template:
    metadata:
      labels: {app: x}
    spec:
      containers:
      - name: c
        image: registry.k8s.io/pause:3.10
`;

const widget = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  replicas: 1
status:
  replicas: 9
`;

// kubectl patch learnt --subresource in 1.24.
const hasSubresourceFlag = (k: Kubectl): boolean => k.major === 1 && k.minor >= 24;

function describeKubectl(k: Kubectl): void {
  describe(`kubectl ${k.gitVersion}: /status and /scale against listwatch serve`, function () {
    let serve: ServeProcess;
    const run = (args: string[]) =>
      kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);
    const ok = async (args: string[]): Promise<string> => {
      const r = await run(args);
      assert.strictEqual(r.code, 0, r.stderr);
      return r.stdout;
    };
    const create = (name: string, text: string): Promise<string> => {
      const file = path.join(serve.dir, name);
      fs.writeFileSync(file, text);
      return ok(['create', '-f', file]);
    };
    const jsonpath = (kind: string, expr: string): Promise<string> =>
      ok(['get', kind, '-o', `jsonpath=${expr}`]);

    before(async () => {
      serve = await ServeProcess.start([
        '--crd',
        path.join(projectRoot(), 'test', 'fixtures', 'widget-crd.yaml'),
      ]);
    });
    beforeEach(() => recordKubectlTest(k));
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    it('create of a Deployment: status is the empty DeploymentStatus', async () => {
      assert.strictEqual(await create('dep.yaml', deployment), 'deployment.apps/x created\n');
      assert.strictEqual(await jsonpath('deployment/x', '{.status}'), '{}');
    });

    if (hasSubresourceFlag(k))
      it('patch --subresource=status writes status, not spec', async () => {
        assert.strictEqual(
          await ok([
            'patch',
            'deployment',
            'x',
            '--subresource=status',
            '--type=merge',
            '-p',
            '{"status":{"replicas":2},"spec":{"replicas":7}}',
          ]),
          'deployment.apps/x patched\n',
        );
        assert.strictEqual(
          await jsonpath('deployment/x', '{.spec.replicas} {.status.replicas}'),
          '1 2',
        );
      });

    it('a patch of the deployment writes spec, not status', async () => {
      const before = await jsonpath('deployment/x', '{.status}');
      await ok([
        'patch',
        'deployment',
        'x',
        '--type=merge',
        '-p',
        '{"status":{"replicas":5},"spec":{"replicas":4}}',
      ]);
      assert.strictEqual(await jsonpath('deployment/x', '{.spec.replicas}'), '4');
      assert.strictEqual(await jsonpath('deployment/x', '{.status}'), before);
    });

    it('kubectl scale deployment x --replicas=3 writes spec.replicas through /scale', async () => {
      assert.strictEqual(
        await ok(['scale', 'deployment', 'x', '--replicas=3']),
        'deployment.apps/x scaled\n',
      );
      assert.strictEqual(await jsonpath('deployment/x', '{.spec.replicas}'), '3');
      const scale = JSON.parse(
        await ok(['get', '--raw', '/apis/apps/v1/namespaces/default/deployments/x/scale']),
      ) as { kind: string; spec: unknown; status: { selector: string } };
      assert.deepStrictEqual(
        [scale.kind, scale.spec, scale.status.selector],
        ['Scale', { replicas: 3 }, 'app=x'],
      );
    });

    it('a custom resource with status and scale: create drops status, scale writes the spec path', async () => {
      assert.strictEqual(await create('w.yaml', widget), 'widget.example.com/w created\n');
      assert.strictEqual(await jsonpath('widget/w', '{.status}'), '');
      if (hasSubresourceFlag(k)) {
        await ok([
          'patch',
          'widget',
          'w',
          '--subresource=status',
          '--type=merge',
          '-p',
          '{"status":{"replicas":2}}',
        ]);
        assert.strictEqual(await jsonpath('widget/w', '{.status.replicas}'), '2');
      }
      assert.strictEqual(
        await ok(['scale', 'widget', 'w', '--replicas=5']),
        'widget.example.com/w scaled\n',
      );
      assert.strictEqual(await jsonpath('widget/w', '{.spec.replicas}'), '5');
    });
  });
}

for (const k of suiteKubectls().filter((k) => k.minor === 35 || k.minor === 20)) describeKubectl(k);
