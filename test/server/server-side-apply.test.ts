// Real kubectl 1.35 and 1.33 against `listwatch serve`: `apply --server-side` of a ConfigMap and a
// Pod, a second field manager refused with the conflict text kubectl prints for kube-apiserver's
// 409, `--force-conflicts` taking the field, `--dry-run=server` writing nothing, and
// `get --show-managed-fields` showing each manager's entry. No upstream counterpart: upstream
// tests this in test/cmd/apply.sh against a real cluster.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { kubectl, type Kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';
import { projectRoot } from '../harness/paths';

for (const k of suiteKubectls().filter((k) => k.minor === 35 || k.minor === 33)) describeKubectl(k);

const configMap = (value: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: "${value}"\n`;
const pod = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: c
    image: nginx
    ports:
    - containerPort: 80
`;

// What kubectl prints for a 409 from apply (cmd/apply's conflict hint).
const conflictText = (detail: string): string =>
  `error: Apply failed with 1 conflict: ${detail}
Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts
`;

const widget = (v: string): string =>
  `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  items:\n  - name: a\n    v: "${v}"\n`;

interface Managed {
  manager: string;
  operation: string;
  fieldsV1: unknown;
}

function describeKubectl(k: Kubectl): void {
  describe(`kubectl ${k.gitVersion}: server-side apply against listwatch serve`, function () {
    let serve: ServeProcess;
    const run = (args: string[]) =>
      kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);
    const manifest = (name: string, text: string): string => {
      const file = path.join(serve.dir, name);
      fs.writeFileSync(file, text);
      return file;
    };
    const managers = async (kind: string, name: string): Promise<Managed[]> => {
      const r = await run(['get', kind, name, '-o', 'json', '--show-managed-fields']);
      assert.strictEqual(r.code, 0, r.stderr);
      const obj = JSON.parse(r.stdout) as { metadata: { managedFields?: Managed[] } };
      return (obj.metadata.managedFields ?? []).map((m) => ({
        manager: m.manager,
        operation: m.operation,
        fieldsV1: m.fieldsV1,
      }));
    };

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

    it('apply --server-side --dry-run=server answers and writes nothing', async () => {
      const r = await run([
        'apply',
        '--server-side',
        '--dry-run=server',
        '-f',
        manifest('cm1.yaml', configMap('1')),
      ]);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, 'configmap/ssa serverside-applied (server dry run)\n');
      const g = await run(['get', 'configmap', 'ssa']);
      assert.strictEqual(g.stderr, 'Error from server (NotFound): configmaps "ssa" not found\n');
    });

    it('apply --server-side creates a ConfigMap owned by the kubectl Apply manager', async () => {
      const r = await run(['apply', '--server-side', '-f', manifest('cm1.yaml', configMap('1'))]);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, 'configmap/ssa serverside-applied\n');
      assert.deepStrictEqual(await managers('configmap', 'ssa'), [
        { manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } } },
      ]);
    });

    it('another manager changing the field conflicts with kubectl', async () => {
      const r = await run([
        'apply',
        '--server-side',
        '--field-manager=other',
        '-f',
        manifest('cm2.yaml', configMap('2')),
      ]);
      assert.strictEqual(r.code, 1);
      assert.strictEqual(r.stderr, conflictText('conflict with "kubectl": .data.a'));
    });

    it('a field a patch took conflicts naming the patch manager and its version', async () => {
      const p = await run([
        'patch',
        'configmap',
        'ssa',
        '--type=merge',
        '-p',
        '{"data":{"a":"3"}}',
      ]);
      assert.strictEqual(p.code, 0, p.stderr);
      const r = await run(['apply', '--server-side', '-f', manifest('cm1.yaml', configMap('1'))]);
      assert.strictEqual(r.code, 1);
      assert.strictEqual(r.stderr, conflictText('conflict with "kubectl-patch" using v1: .data.a'));
    });

    it('--force-conflicts takes the field', async () => {
      const r = await run([
        'apply',
        '--server-side',
        '--field-manager=other',
        '--force-conflicts',
        '-f',
        manifest('cm2.yaml', configMap('2')),
      ]);
      assert.strictEqual(r.code, 0, r.stderr);
      const v = await run(['get', 'configmap', 'ssa', '-o', 'jsonpath={.data.a}']);
      assert.strictEqual(v.stdout, '2');
      // kubectl-patch and kubectl, each left owning nothing, are gone.
      assert.deepStrictEqual(await managers('configmap', 'ssa'), [
        { manager: 'other', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } } },
      ]);
    });

    it('apply --server-side of a Pod keys its containers and ports by their list-map keys', async () => {
      const r = await run(['apply', '--server-side', '-f', manifest('pod.yaml', pod)]);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, 'pod/web serverside-applied\n');
      const y = await run(['get', 'pod', 'web', '-o', 'yaml', '--show-managed-fields']);
      assert.strictEqual(y.code, 0, y.stderr);
      const entry = [
        '  managedFields:',
        '  - apiVersion: v1',
        '    fieldsType: FieldsV1',
        '    fieldsV1:',
        '      f:spec:',
        '        f:containers:',
        '          k:{"name":"c"}:',
        '            .: {}',
        '            f:image: {}',
        '            f:name: {}',
        '            f:ports:',
        '              k:{"containerPort":80,"protocol":"TCP"}:',
        '                .: {}',
        '                f:containerPort: {}',
        '    manager: kubectl',
        '    operation: Apply',
        '',
      ].join('\n');
      assert.ok(y.stdout.includes(entry), y.stdout);
    });

    it('kubectl create records its kubectl-create Update entry', async () => {
      const c = await run(['create', 'configmap', 'plain', '--from-literal=x=y']);
      assert.strictEqual(c.code, 0, c.stderr);
      assert.deepStrictEqual(await managers('configmap', 'plain'), [
        {
          manager: 'kubectl-create',
          operation: 'Update',
          fieldsV1: { 'f:data': { '.': {}, 'f:x': {} } },
        },
      ]);
    });

    it('a custom resource’s map list is keyed by the CRD schema’s list-map keys', async () => {
      const r = await run(['apply', '--server-side', '-f', manifest('w.yaml', widget('1'))]);
      assert.strictEqual(r.code, 0, r.stderr);
      const o = await run([
        'apply',
        '--server-side',
        '--field-manager=other',
        '-f',
        manifest('w2.yaml', widget('2')),
      ]);
      assert.strictEqual(o.code, 1);
      assert.strictEqual(
        o.stderr,
        conflictText('conflict with "kubectl": .spec.items[name="a"].v'),
      );
      assert.deepStrictEqual(await managers('widget', 'w'), [
        {
          manager: 'kubectl',
          operation: 'Apply',
          fieldsV1: {
            'f:spec': { 'f:items': { 'k:{"name":"a"}': { '.': {}, 'f:name': {}, 'f:v': {} } } },
          },
        },
      ]);
    });
  });
}
