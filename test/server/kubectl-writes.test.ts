// kubectl 1.35 (client-go 1.35, WatchList on by default) against `listwatch serve`, in memory and
// with `--etcd spawn`: `--dry-run=server` on every write answers as kube-apiserver does and writes
// nothing (no new etcd revision), `kubectl events` and `get events`, `get --sort-by`, `wait
// --for=delete` with and without WatchList, `/scale` (its Table, `kubectl scale`), `explain` from
// OpenAPI v3 and `auth can-i`. No upstream counterpart: upstream tests these in test/cmd against a
// real kube-apiserver.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { kubectl, startKubectl, type Kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';
import { projectRoot } from '../harness/paths';

const deploymentWeb = fs.readFileSync(
  path.join(projectRoot(), 'test', 'fixtures', 'deployment-web.yaml'),
  'utf8',
);
/** The fixture under another name (`create -f` of an object that does not exist yet). */
const deploymentNamed = (name: string): string =>
  deploymentWeb.replace('name: web\nspec:', `name: ${name}\nspec:`);

const k35 = suiteKubectls().find((k) => k.major === 1 && k.minor === 35);
if (k35) {
  describeKubectl(k35, []);
  describeKubectl(k35, ['--etcd', 'spawn']);
}

function describeKubectl(k: Kubectl, serveArgs: readonly string[]): void {
  const against = serveArgs.length ? `listwatch serve ${serveArgs.join(' ')}` : 'listwatch serve';
  describe(`kubectl ${k.gitVersion}: writes, events, sort, wait, /scale and explain against ${against}`, function () {
    let serve: ServeProcess;
    const target = () => ({ kubeconfig: serve.info.kubeconfig, dir: serve.dir });
    const run = (args: string[], env: Record<string, string> = {}) =>
      kubectl(k, target(), args, env);
    const ok = async (args: string[]): Promise<string> => {
      const r = await run(args);
      assert.strictEqual(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    const manifest = (name: string, text: string): string => {
      const file = path.join(serve.dir, name);
      fs.writeFileSync(file, text);
      return file;
    };
    const deployments = `/apis/apps/v1/namespaces/default/deployments`;
    /** A consistent LIST's resourceVersion: etcd's current revision (any write moves it). */
    const revision = async (): Promise<string> =>
      (await serve.json<{ metadata: { resourceVersion: string } }>('GET', deployments, 200))
        .metadata.resourceVersion;

    /**
     * A deployment's managedFields by manager: the fields of a scale entry, and for every other entry
     * whether it still owns spec.replicas.
     */
    const managers = async (name: string): Promise<unknown[]> => {
      const obj = JSON.parse(
        await ok(['get', 'deployment', name, '-o', 'json', '--show-managed-fields']),
      ) as { metadata: { managedFields?: Array<Record<string, unknown>> } };
      // Sorted by manager: the server orders entries by time, which moves with the clock.
      const entries = [...(obj.metadata.managedFields ?? [])].sort((a, b) =>
        String(a.manager) < String(b.manager) ? -1 : 1,
      );
      return entries.map((m) => ({
        manager: m.manager,
        operation: m.operation,
        subresource: m.subresource,
        ...(m.subresource === 'scale'
          ? { fieldsV1: m.fieldsV1 }
          : {
              replicas:
                ((m.fieldsV1 as Record<string, Record<string, unknown>>)['f:spec'] ?? {})[
                  'f:replicas'
                ] !== undefined,
            }),
      }));
    };

    before(async () => {
      serve = await ServeProcess.start(serveArgs);
    });
    beforeEach(() => recordKubectlTest(k));
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    describe('--dry-run=server prints what kubectl prints for kube-apiserver and writes nothing', function () {
      let web: string;
      before(async () => {
        web = manifest('web.yaml', deploymentWeb);
        assert.strictEqual(await ok(['create', '-f', web]), 'deployment.apps/web created\n');
      });

      // [kubectl arguments (before --dry-run=server), what it prints]. kubectl patch prints no
      // `(server dry run)`: patch.go sets the printer's operation after PrintFlagsWithDryRunStrategy.
      const cases: Array<[string, () => string[], string]> = [
        [
          'create (typed)',
          () => ['create', 'deployment', 'd2', '--image=nginx'],
          'deployment.apps/d2 created (server dry run)\n',
        ],
        [
          'create -f',
          () => ['create', '-f', manifest('web2.yaml', deploymentNamed('web2'))],
          'deployment.apps/web2 created (server dry run)\n',
        ],
        [
          'apply (client-side) of a new object',
          () => ['apply', '-f', manifest('web2.yaml', deploymentNamed('web2'))],
          'deployment.apps/web2 created (server dry run)\n',
        ],
        [
          'apply (client-side) of a stored object: a strategic merge patch',
          () => ['apply', '-f', web],
          'deployment.apps/web configured (server dry run)\n',
        ],
        [
          'apply --server-side',
          () => ['apply', '--server-side', '-f', web],
          'deployment.apps/web serverside-applied (server dry run)\n',
        ],
        [
          'replace',
          () => ['replace', '-f', web],
          'deployment.apps/web replaced (server dry run)\n',
        ],
        [
          'patch --type=merge',
          () => ['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":5}}'],
          'deployment.apps/web patched\n',
        ],
        [
          'patch --type=json',
          () => [
            'patch',
            'deployment',
            'web',
            '--type=json',
            '-p',
            '[{"op":"replace","path":"/spec/replicas","value":5}]',
          ],
          'deployment.apps/web patched\n',
        ],
        [
          'patch --type=strategic',
          () => [
            'patch',
            'deployment',
            'web',
            '--type=strategic',
            '-p',
            '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}}}',
          ],
          'deployment.apps/web patched\n',
        ],
        [
          'label',
          () => ['label', 'deployment', 'web', 'tier=front'],
          'deployment.apps/web labeled (server dry run)\n',
        ],
        [
          'annotate',
          () => ['annotate', 'deployment', 'web', 'note=x'],
          'deployment.apps/web annotated (server dry run)\n',
        ],
        [
          'scale',
          () => ['scale', 'deployment', 'web', '--replicas=7'],
          'deployment.apps/web scaled (server dry run)\n',
        ],
        [
          'set image',
          () => ['set', 'image', 'deployment/web', 'web=nginx:2'],
          'deployment.apps/web image updated (server dry run)\n',
        ],
        [
          'delete',
          () => ['delete', 'deployment', 'web'],
          'deployment.apps "web" deleted from default namespace (server dry run)\n',
        ],
      ];
      const stored = (): Promise<string> =>
        ok([
          'get',
          'deployments',
          '-o',
          'jsonpath={range .items[*]}{.metadata.name} {.metadata.resourceVersion} {.spec.replicas} {.metadata.labels} {.metadata.annotations} {.spec.template.spec.containers[0].image}{"\\n"}{end}',
        ]);
      for (const [name, args, printed] of cases) {
        it(`${name}: ${printed.trim()}`, async () => {
          const before = await stored();
          const rv = await revision();
          const r = await run([...args(), '--dry-run=server']);
          assert.strictEqual(r.code, 0, r.stderr);
          assert.strictEqual(r.stdout, printed);
          assert.strictEqual(await stored(), before, 'the stored deployments');
          assert.strictEqual(await revision(), rv, 'etcd revision after a dry run');
        });
      }
    });

    it('apply (client-side) and set image of a stored Deployment: strategic merge patches merge containers by name', async () => {
      const file = manifest('web3.yaml', deploymentNamed('web3'));
      assert.strictEqual(await ok(['apply', '-f', file]), 'deployment.apps/web3 created\n');
      assert.strictEqual(
        await ok(['set', 'image', 'deployment/web3', 'web=nginx:2']),
        'deployment.apps/web3 image updated\n',
      );
      assert.strictEqual(
        await ok([
          'get',
          'deployment',
          'web3',
          '-o',
          'jsonpath={range .spec.template.spec.containers[*]}{.name}={.image} {end}',
        ]),
        'web=nginx:2 sidecar=busybox ',
      );
      const edited = deploymentNamed('web3').replace('replicas: 2', 'replicas: 3');
      assert.strictEqual(
        await ok(['apply', '-f', manifest('web3.yaml', edited)]),
        'deployment.apps/web3 configured\n',
      );
      assert.strictEqual(
        await ok(['get', 'deployment', 'web3', '-o', 'jsonpath={.spec.replicas}']),
        '3',
      );
    });

    // kubectl patch has no --validate: it sends no fieldValidation, which the server takes as Warn.
    describe('patch: unknown and duplicate fields of a patch are Warning headers kubectl prints', function () {
      const cases: Array<{ type: string; patch: string; stderr: string }> = [
        {
          type: 'strategic',
          patch: '{"spec":{"foo":1,"paused":true,"paused":false}}',
          stderr: 'Warning: duplicate field "spec.paused"\nWarning: unknown field "spec.foo"\n',
        },
        {
          type: 'merge',
          patch: '{"spec":{"bar":1}}',
          stderr: 'Warning: unknown field "spec.bar"\n',
        },
        {
          type: 'json',
          patch: '[{"op":"add","path":"/spec/baz","value":1,"x":2}]',
          stderr: 'Warning: json patch unknown field "[0].x"\nWarning: unknown field "spec.baz"\n',
        },
      ];
      for (const c of cases)
        it(`patch --type=${c.type} ${c.patch}`, async () => {
          const name = `web4-${c.type}`;
          await ok(['create', '-f', manifest(`${name}.yaml`, deploymentNamed(name))]);
          const r = await run(['patch', 'deployment', name, '--type', c.type, '-p', c.patch]);
          assert.strictEqual(r.stderr, c.stderr);
          assert.strictEqual(r.code, 0);
        });
    });

    it('get --sort-by=.metadata.name and .metadata.creationTimestamp ask includeObject=Object and sort', async () => {
      for (const name of ['sort-c', 'sort-a', 'sort-b'])
        await ok(['create', 'configmap', name, '--from-literal=k=v']);
      const byName = await run(['get', 'configmaps', '--sort-by=.metadata.name', '-v=6']);
      assert.strictEqual(byName.code, 0, byName.stderr);
      assert.match(byName.stderr, /configmaps\?includeObject=Object" status="200 OK"/);
      const names = (out: string) =>
        out
          .split('\n')
          .slice(1)
          .map((l) => l.split(/\s+/)[0])
          .filter((n) => n.startsWith('sort-'));
      assert.deepStrictEqual(names(byName.stdout), ['sort-a', 'sort-b', 'sort-c']);
      const byTime = await run(['get', 'configmaps', '--sort-by=.metadata.creationTimestamp']);
      assert.strictEqual(byTime.code, 0, byTime.stderr);
      // Created within the same second: a stable sort keeps the list's (name) order.
      assert.deepStrictEqual(names(byTime.stdout).sort(), ['sort-a', 'sort-b', 'sort-c']);
    });

    // [environment, what the reflector sends]
    const waits: Array<[string, Record<string, string>, RegExp]> = [
      ['WatchList (the 1.35 default)', {}, /sendInitialEvents=true/],
      [
        'KUBE_FEATURE_WatchListClient=false',
        { KUBE_FEATURE_WatchListClient: 'false' },
        /limit=500/,
      ],
    ];
    for (const [name, env, sent] of waits) {
      it(`wait --for=delete secret/x while another kubectl deletes it: ${name}`, async () => {
        const secret = `gone-${Object.keys(env).length}`;
        await ok(['create', 'secret', 'generic', secret, '--from-literal=a=b']);
        const w = startKubectl(
          k,
          target(),
          ['wait', '--for=delete', `secret/${secret}`, '--timeout=60s', '-v=6'],
          env,
        );
        await w.until((p) => /watch=true/.test(p.stderr), 'its watch is open');
        assert.match(w.stderr, sent);
        assert.strictEqual(
          await ok(['delete', 'secret', secret]),
          `secret "${secret}" deleted from default namespace\n`,
        );
        const r = await w.exited;
        assert.strictEqual(r.code, 0, r.stderr);
        assert.strictEqual(r.stdout, `secret/${secret} condition met\n`);
      });
    }

    describe('/scale', function () {
      before(async () => {
        await ok(['create', '-f', manifest('scaled.yaml', deploymentNamed('scaled'))]);
      });

      it('kubectl scale --replicas writes spec.replicas', async () => {
        assert.strictEqual(
          await ok(['scale', 'deployment', 'scaled', '--replicas=3']),
          'deployment.apps/scaled scaled\n',
        );
        assert.strictEqual(
          await ok(['get', 'deployment', 'scaled', '-o', 'jsonpath={.spec.replicas}']),
          '3',
        );
      });

      it('kubectl scale records its Update entry on the deployment with subresource scale, taking spec.replicas', async () => {
        assert.deepStrictEqual(await managers('scaled'), [
          {
            manager: 'kubectl',
            operation: 'Update',
            subresource: 'scale',
            fieldsV1: { 'f:spec': { 'f:replicas': {} } },
          },
          {
            manager: 'kubectl-create',
            operation: 'Update',
            subresource: undefined,
            replicas: false,
          },
        ]);
      });

      it('apply --server-side --subresource=scale of a Deployment manifest: 400 invalid object type, as kube-apiserver', async () => {
        const r = await run([
          'apply',
          '--server-side',
          '--subresource=scale',
          '-f',
          manifest('scaled.yaml', deploymentNamed('scaled')),
        ]);
        assert.strictEqual(r.code, 1);
        assert.strictEqual(
          r.stderr,
          'Error from server (BadRequest): invalid object type: apps/v1, Kind=Deployment\n',
        );
      });

      it('an apply of a Scale to /scale (forced) moves spec.replicas to its manager on the deployment', async () => {
        const r = await serve.request(
          'PATCH',
          `${deployments}/scaled/scale?fieldManager=autoscaler&force=true`,
          {
            body: 'apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: scaled\nspec:\n  replicas: 4\n',
            headers: { 'Content-Type': 'application/apply-patch+yaml' },
          },
        );
        assert.strictEqual(r.status, 200, r.body);
        assert.deepStrictEqual((JSON.parse(r.body) as { spec: unknown }).spec, { replicas: 4 });
        assert.deepStrictEqual(await managers('scaled'), [
          {
            manager: 'autoscaler',
            operation: 'Apply',
            subresource: 'scale',
            fieldsV1: { 'f:spec': { 'f:replicas': {} } },
          },
          {
            manager: 'kubectl-create',
            operation: 'Update',
            subresource: undefined,
            replicas: false,
          },
        ]);
      });

      it("get --subresource=scale prints the Scale's table (NAME DESIRED AVAILABLE AGE)", async () => {
        const out = await ok(['get', 'deployment', 'scaled', '--subresource=scale']);
        const [header, row] = out.split('\n');
        assert.deepStrictEqual(header.split(/\s+/), ['NAME', 'DESIRED', 'AVAILABLE', 'AGE']);
        assert.deepStrictEqual(row.split(/\s+/).slice(0, 3), ['scaled', '4', '0']);
        const y = JSON.parse(
          await ok(['get', 'deployment', 'scaled', '--subresource=scale', '-o', 'json']),
        ) as { kind: string; apiVersion: string; spec: unknown };
        assert.deepStrictEqual(
          [y.apiVersion, y.kind, y.spec],
          ['autoscaling/v1', 'Scale', { replicas: 4 }],
        );
      });
    });

    it('a core/v1 Event and an events.k8s.io/v1 Event: kubectl events, get events and get events.events.k8s.io show both', async () => {
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      await serve.json('POST', '/api/v1/namespaces/default/events', 201, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.1' },
        involvedObject: { kind: 'Deployment', name: 'web', namespace: 'default' },
        reason: 'ScalingReplicaSet',
        message: 'Scaled up replica set web-1 to 2',
        type: 'Normal',
        source: { component: 'deployment-controller' },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      });
      await serve.json('POST', '/apis/events.k8s.io/v1/namespaces/default/events', 201, {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'web.2' },
        eventTime: now.replace('Z', '.000000Z'),
        reportingController: 'example.com/scaler',
        reportingInstance: 'scaler-0',
        action: 'Scale',
        reason: 'Scaled',
        regarding: { kind: 'Deployment', name: 'web', namespace: 'default' },
        note: 'Scaled web to 3',
        type: 'Normal',
      });
      // kubectl events reads core/v1 (events.go: CoreV1().Events) and prints Kind/name.
      const e = await ok(['events']);
      const [header, ...rows] = e.trim().split('\n');
      assert.deepStrictEqual(header.split(/\s{2,}/), [
        'LAST SEEN',
        'TYPE',
        'REASON',
        'OBJECT',
        'MESSAGE',
      ]);
      assert.deepStrictEqual(rows.map((r) => r.split(/\s{2,}/).slice(1)).sort(), [
        ['Normal', 'Scaled', 'Deployment/web', 'Scaled web to 3'],
        ['Normal', 'ScalingReplicaSet', 'Deployment/web', 'Scaled up replica set web-1 to 2'],
      ]);
      const core = await ok([
        'get',
        'events',
        '-o',
        'jsonpath={range .items[*]}{.apiVersion} {.metadata.name} {.involvedObject.name} {.reportingComponent} {.message}{"\\n"}{end}',
      ]);
      assert.strictEqual(
        core,
        'v1 web.1 web  Scaled up replica set web-1 to 2\nv1 web.2 web example.com/scaler Scaled web to 3\n',
      );
      const v1 = await ok([
        'get',
        'events.events.k8s.io',
        '-o',
        'jsonpath={range .items[*]}{.apiVersion} {.metadata.name} {.regarding.name} {.deprecatedSource.component} {.note}{"\\n"}{end}',
      ]);
      assert.strictEqual(
        v1,
        'events.k8s.io/v1 web.1 web deployment-controller Scaled up replica set web-1 to 2\nevents.k8s.io/v1 web.2 web  Scaled web to 3\n',
      );
    });

    it('explain deployment.spec.strategy and explain secrets read OpenAPI v3', async () => {
      const s = await ok(['explain', 'deployment.spec.strategy']);
      assert.match(
        s,
        /^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: strategy <DeploymentStrategy>\n/,
      );
      assert.match(s, /FIELDS:\n {2}rollingUpdate\t<RollingUpdateDeployment>\n/);
      const secrets = await ok(['explain', 'secrets']);
      assert.match(
        secrets,
        /^KIND:\s+Secret\nVERSION:\s+v1\n\nDESCRIPTION:\n {4}Secret holds secret data/,
      );
      assert.match(secrets, /\n {2}stringData\t<map\[string\]string>\n/);
    });

    it('auth can-i create deployments: yes', async () => {
      assert.strictEqual(await ok(['auth', 'can-i', 'create', 'deployments']), 'yes\n');
    });
  });
}
