// The per-kind strategies and strict field validation (issue #25) with real kubectl 1.35 and newer
// against `listwatch serve`: what `kubectl create secret generic --from-literal`, `create service
// clusterip` and `create deployment` store carries kube-apiserver 1.36's defaults (`get -o json`),
// a spec change bumps metadata.generation, and `kubectl apply -f` of a manifest with an unknown
// field fails as against a real apiserver (kubectl sends fieldValidation=Strict). No upstream
// counterpart: upstream checks these in test/integration and test/cmd against kube-apiserver.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { kubectl, type Kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';
import { valueAtPath } from '../harness/value-at-path';

type Loose = Record<string, unknown>;

/** Each create command, the object it makes, and fields of `get -o json` with their values. */
const creates: Array<{
  name: string;
  args: string[];
  get: string[];
  fields: Record<string, unknown>;
}> = [
  {
    name: 'create secret generic --from-literal: type Opaque, data in base64',
    args: ['create', 'secret', 'generic', 'db', '--from-literal=password=hunter2'],
    get: ['secret', 'db'],
    fields: {
      type: 'Opaque',
      'data.password': Buffer.from('hunter2').toString('base64'),
      'metadata.generation': undefined,
    },
  },
  {
    name: 'create service clusterip: SetDefaults_Service, one IPv4 clusterIP',
    args: ['create', 'service', 'clusterip', 'web', '--tcp=80:8080'],
    get: ['service', 'web'],
    fields: {
      'spec.type': 'ClusterIP',
      'spec.sessionAffinity': 'None',
      'spec.ipFamilies': ['IPv4'],
      'spec.ipFamilyPolicy': 'SingleStack',
      'spec.internalTrafficPolicy': 'Cluster',
      'spec.ports.0.protocol': 'TCP',
      'spec.ports.0.port': 80,
      'spec.ports.0.targetPort': 8080,
      'metadata.generation': undefined,
    },
  },
  {
    name: 'create deployment: apps/v1 and pod template defaults, generation 1',
    args: ['create', 'deployment', 'web', '--image=nginx'],
    get: ['deployment', 'web'],
    fields: {
      'metadata.generation': 1,
      'spec.replicas': 1,
      'spec.revisionHistoryLimit': 10,
      'spec.progressDeadlineSeconds': 600,
      'spec.strategy': {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
      },
      'spec.template.spec.restartPolicy': 'Always',
      'spec.template.spec.dnsPolicy': 'ClusterFirst',
      'spec.template.spec.terminationGracePeriodSeconds': 30,
      'spec.template.spec.schedulerName': 'default-scheduler',
      'spec.template.spec.securityContext': {},
      'spec.template.spec.containers.0.imagePullPolicy': 'Always',
      'spec.template.spec.containers.0.terminationMessagePath': '/dev/termination-log',
      'spec.template.spec.containers.0.terminationMessagePolicy': 'File',
    },
  },
];

const unknownFieldManifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: strict
spec:
  foo: bar
  selector:
    matchLabels: {app: strict}
  template:
    metadata:
      labels: {app: strict}
    spec:
      containers:
      - name: c
        image: nginx
        bar: 1
`;

const kubectls = suiteKubectls().filter((k) => k.major === 1 && k.minor >= 35);
for (const k of kubectls) describeKubectl(k);

function describeKubectl(k: Kubectl): void {
  describe(`kubectl ${k.gitVersion}: per-kind strategies and strict field validation`, function () {
    let serve: ServeProcess;
    const run = (args: string[]) =>
      kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);
    const getJSON = async (what: string[]): Promise<Loose> => {
      const r = await run(['get', ...what, '-o', 'json']);
      assert.strictEqual(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Loose;
    };

    before(async () => {
      serve = await ServeProcess.start();
    });
    beforeEach(() => recordKubectlTest(k));
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    for (const c of creates)
      it(c.name, async () => {
        const r = await run(c.args);
        assert.strictEqual(r.code, 0, r.stderr);
        const obj = await getJSON(c.get);
        for (const [field, want] of Object.entries(c.fields))
          assert.deepStrictEqual(valueAtPath(obj, field), want, field);
      });

    it('the Service got an address of 10.96.0.0/12, the same in clusterIP and clusterIPs', async () => {
      const svc = await getJSON(['service', 'web']);
      const ip = valueAtPath(svc, 'spec.clusterIP');
      assert.match(String(ip), /^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
      assert.deepStrictEqual(valueAtPath(svc, 'spec.clusterIPs'), [ip]);
    });

    it('a spec change bumps the generation; a label change does not', async () => {
      const label = await run(['label', 'deployment', 'web', 'tier=front']);
      assert.strictEqual(label.code, 0, label.stderr);
      assert.strictEqual(
        valueAtPath(await getJSON(['deployment', 'web']), 'metadata.generation'),
        1,
      );
      const image = await run([
        'patch',
        'deployment',
        'web',
        '--type=merge',
        '-p',
        '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}}}',
      ]);
      assert.strictEqual(image.code, 0, image.stderr);
      const d = await getJSON(['deployment', 'web']);
      assert.strictEqual(valueAtPath(d, 'metadata.generation'), 2);
      // The patched container is defaulted again: a tag other than latest is pulled IfNotPresent.
      assert.strictEqual(
        valueAtPath(d, 'spec.template.spec.containers.0.imagePullPolicy'),
        'IfNotPresent',
      );
    });

    it("apply -f with unknown fields is refused with upstream's strict decoding error", async () => {
      const file = path.join(serve.dir, 'strict.yaml');
      fs.writeFileSync(file, unknownFieldManifest);
      const r = await run(['apply', '-f', file]);
      assert.strictEqual(r.code, 1);
      assert.strictEqual(
        r.stderr,
        `Error from server (BadRequest): error when creating "${file}": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo", unknown field "spec.template.spec.containers[0].bar"\n`,
      );
      const get = await run(['get', 'deployment', 'strict']);
      assert.strictEqual(get.code, 1, 'nothing was created');
    });

    it('create --validate=warn: the same unknown fields as Warning lines, the object created', async () => {
      const file = path.join(serve.dir, 'warn.yaml');
      fs.writeFileSync(file, unknownFieldManifest.replace('name: strict', 'name: warned'));
      const r = await run(['create', '-f', file, '--validate=warn']);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, 'deployment.apps/warned created\n');
      assert.strictEqual(
        r.stderr,
        'Warning: unknown field "spec.foo"\nWarning: unknown field "spec.template.spec.containers[0].bar"\n',
      );
    });

    it("the selector must match the template labels (422 with upstream's message)", async () => {
      const file = path.join(serve.dir, 'mismatch.yaml');
      fs.writeFileSync(
        file,
        unknownFieldManifest
          .replace('  foo: bar\n', '')
          .replace('        bar: 1\n', '')
          .replace('labels: {app: strict}', 'labels: {app: other}'),
      );
      const r = await run(['create', '-f', file]);
      assert.strictEqual(r.code, 1);
      assert.strictEqual(
        r.stderr,
        'The Deployment "strict" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`\n',
      );
    });
  });
}
