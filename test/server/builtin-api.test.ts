// The built-in API table served, with every kubectl on the machine against `listwatch serve` (the
// newest kubectl also with `--etcd spawn`):
// `api-resources -o wide` prints kube-apiserver's rows for the served built-ins (the upstream
// discovery documents written out in test/unit/request/kube-apiserver-discovery.ts), a get of
// kinds nobody created answers empty lists, and create -f / get / delete of a Deployment, Service,
// Lease and Secret work. No upstream counterpart: upstream tests kubectl in test/cmd against a real
// kube-apiserver.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { deletedLine, kubectl, requestsTo, type Kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';
import { projectRoot } from '../harness/paths';
import {
  upstreamDiscovery,
  upstreamReviewDiscovery,
} from '../unit/request/kube-apiserver-discovery';

/** `kubectl api-resources -o wide` as rows of its header's columns (cut at the header's offsets). */
function parseColumns(stdout: string): Array<Record<string, string>> {
  const [header, ...lines] = stdout.split('\n').filter((l) => l.trim() !== '');
  const starts = [...header.matchAll(/\S+/g)].map((m) => [m[0], m.index] as const);
  return lines.map((line) =>
    Object.fromEntries(
      starts.map(([name, at], i) => [name, line.slice(at, starts[i + 1]?.[1]).trim()]),
    ),
  );
}

/** A VERBS cell: `[create delete]` (kubectl before 1.2x's wide form) or `create,delete`. */
const verbsOf = (cell: string): string[] => cell.replace(/^\[|\]$/g, '').split(/[ ,]/);

/** From kubectl 1.32 the typed clients (`create secret generic`) send protobuf bodies. */
const sendsProtobuf = (k: Kubectl): boolean => k.major === 1 && k.minor >= 32;

const manifest = `${fs.readFileSync(path.join(projectRoot(), 'test', 'fixtures', 'deployment-web.yaml'), 'utf8')}---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: leader
spec:
  holderIdentity: web-0
  leaseDurationSeconds: 15
---
apiVersion: v1
kind: Secret
metadata:
  name: release
stringData:
  password: hunter2
`;

/** What `create -f` made: kubectl's name, the object's API path and a field it must keep. */
const created: Array<{
  printed: string;
  path: (ns: string) => string;
  field: string[];
  value: unknown;
}> = [
  {
    printed: 'deployment.apps/web',
    path: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments/web`,
    field: ['spec', 'replicas'],
    value: 2,
  },
  {
    printed: 'service/web',
    path: (ns) => `/api/v1/namespaces/${ns}/services/web`,
    field: ['spec', 'ports', '0', 'port'],
    value: 80,
  },
  {
    printed: 'lease.coordination.k8s.io/leader',
    path: (ns) => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/leader`,
    field: ['spec', 'holderIdentity'],
    value: 'web-0',
  },
  {
    printed: 'secret/release',
    path: (ns) => `/api/v1/namespaces/${ns}/secrets/release`,
    // stringData: upstream's conversion folds it into data (base64) and drops it.
    field: ['data', 'password'],
    value: 'aHVudGVyMg==',
  },
];

// Every kubectl against the in-memory etcd; the newest also against a spawned etcd (a real etcd's
// keys under each row's prefix, events without a watch cache).
const kubectls = suiteKubectls();
for (const k of kubectls) describeKubectl(k, []);
if (kubectls.length > 0) describeKubectl(kubectls[kubectls.length - 1], ['--etcd', 'spawn']);

function describeKubectl(k: Kubectl, serveArgs: readonly string[]): void {
  const against = serveArgs.length ? `listwatch serve ${serveArgs.join(' ')}` : 'listwatch serve';
  describe(`kubectl ${k.gitVersion}: the built-in API against ${against}`, function () {
    let serve: ServeProcess;
    const run = (args: string[]) =>
      kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);

    before(async () => {
      serve = await ServeProcess.start(serveArgs);
    });
    beforeEach(() => recordKubectlTest(k));
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    it("api-resources -o wide prints kube-apiserver 1.36's rows for every served built-in and review", async () => {
      const r = await run(['api-resources', '-o', 'wide']);
      assert.strictEqual(r.code, 0, r.stderr);
      const got = parseColumns(r.stdout).map((row) => ({
        name: row.NAME,
        shortNames: row.SHORTNAMES,
        apiVersion: row.APIVERSION,
        namespaced: row.NAMESPACED,
        kind: row.KIND,
        verbs: verbsOf(row.VERBS),
        // kubectl before 1.2x has no CATEGORIES column.
        ...(row.CATEGORIES !== undefined ? { categories: row.CATEGORIES } : {}),
      }));
      const hasCategories = got.some((row) => row.categories !== undefined);
      // kubectl sorts by API group, then by name.
      const groupOf = (gv: string) => (gv.includes('/') ? gv.split('/')[0] : '');
      // The review resources (create only, no storage) are listed among them, as upstream.
      const want = [...upstreamDiscovery, ...upstreamReviewDiscovery]
        .flatMap(({ groupVersion, resources }) =>
          resources.map((u) => ({
            name: u.name,
            shortNames: (u.shortNames ?? []).join(','),
            apiVersion: groupVersion,
            namespaced: String(u.namespaced),
            kind: u.kind,
            verbs: [...u.verbs],
            ...(hasCategories ? { categories: (u.categories ?? []).join(',') } : {}),
          })),
        )
        .sort((a, b) => {
          const ga = groupOf(a.apiVersion);
          const gb = groupOf(b.apiVersion);
          return ga !== gb ? (ga < gb ? -1 : 1) : a.name < b.name ? -1 : 1;
        });
      assert.deepStrictEqual(got, want);
    });

    it('get deployments,secrets,leases -A: every list answers, empty (no 404)', async () => {
      const r = await run(['get', 'deployments,secrets,leases', '-A', '-v=6']);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, '');
      assert.match(r.stderr, /No resources found/);
      for (const collection of [
        '/apis/apps/v1/deployments',
        '/api/v1/secrets',
        '/apis/coordination.k8s.io/v1/leases',
      ])
        assert.deepStrictEqual(
          requestsTo(r.stderr, collection).map((q) => [q.verb, q.status]),
          [['GET', 200]],
          collection,
        );
    });

    it('create -f of a Deployment, Service, Lease and Secret (JSON bodies), get, delete', async () => {
      const ns = serve.namespace;
      const file = path.join(serve.dir, 'builtin-objects.yaml');
      fs.writeFileSync(file, manifest);
      const c = await run(['create', '-f', file]);
      assert.strictEqual(c.code, 0, c.stderr);
      assert.strictEqual(c.stdout, created.map((o) => `${o.printed} created\n`).join(''));
      for (const o of created) {
        const stored = await serve.json<Record<string, unknown>>('GET', o.path(ns), 200);
        let v: unknown = stored;
        for (const f of o.field) v = (v as Record<string, unknown>)[f];
        assert.strictEqual(v, o.value, `${o.printed} ${o.field.join('.')}`);
      }
      const g = await run(['get', '-f', file, '-o', 'name']);
      assert.strictEqual(g.code, 0, g.stderr);
      assert.strictEqual(g.stdout, created.map((o) => `${o.printed}\n`).join(''));
      const d = await run(['delete', '-f', file]);
      assert.strictEqual(d.code, 0, d.stderr);
      assert.strictEqual(
        d.stdout,
        created
          .map((o) => {
            const [type, name] = o.printed.split('/');
            return deletedLine(k, `${type} "${name}"`, ns);
          })
          .join(''),
      );
      for (const o of created) await serve.json('GET', o.path(ns), 404);
    });

    // [kubectl create arguments, what it prints, the object's path under the namespace]
    const typedCreates: [string[], string, string][] = [
      [['secret', 'generic', 'typed', '--from-literal=a=b'], 'secret/typed', 'secrets/typed'],
      [['deployment', 'web2', '--image=nginx'], 'deployment.apps/web2', 'deployments/web2'],
      [['service', 'clusterip', 'svc2', '--tcp=80:8080'], 'service/svc2', 'services/svc2'],
      [['job', 'job2', '--image=busybox'], 'job.batch/job2', 'jobs/job2'],
    ];
    for (const [args, printed, path] of typedCreates) {
      it(`create ${args.slice(0, 2).join(' ')} (${sendsProtobuf(k) ? 'a protobuf' : 'a JSON'} body) stores it`, async () => {
        const r = await run(['create', ...args]);
        assert.strictEqual(r.code, 0, r.stderr);
        assert.strictEqual(r.stdout, `${printed} created\n`);
        const group = path.startsWith('deployments')
          ? '/apis/apps/v1'
          : path.startsWith('jobs')
            ? '/apis/batch/v1'
            : '/api/v1';
        const stored = await serve.json<{
          metadata: { name: string };
          data?: Record<string, string>;
        }>('GET', `${group}/namespaces/${serve.namespace}/${path}`, 200);
        assert.strictEqual(stored.metadata.name, path.split('/')[1]);
        // (a Secret's type stays unset: its defaulting to Opaque is not modelled yet.)
        if (path.startsWith('secrets'))
          assert.deepStrictEqual(stored.data, { a: Buffer.from('b').toString('base64') });
      });
    }
  });
}
