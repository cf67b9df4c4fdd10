// Real kubectl against `listwatch serve`'s deletion lifecycle: every kubectl on the machine, each
// against a server of its own. `delete ns` ends with the namespace and its content gone (the
// emulated namespace controller), a finalizer keeps a configmap until a merge patch removes it,
// and an immortal namespace is refused with kube-apiserver's words. No upstream counterpart:
// upstream tests this in test/cmd and test/integration/namespace against a real cluster.
import * as assert from 'assert';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import {
  deletedLine,
  kubectl,
  requestsTo,
  type Kubectl,
  type KubectlResult,
} from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';

/** What `kubectl create` and `kubectl delete ns doomed -v=6` printed and exited with. */
interface NamespaceDeletion {
  createNamespace: KubectlResult;
  createConfigMaps: KubectlResult[];
  deleteNamespace: KubectlResult;
}

// `delete ns` waits for the namespace to be gone, which the namespace controller's 5 s grace period
// (namespaceDeletionGracePeriod) holds back: every kubectl's server is started at once and every
// kubectl's `delete ns` is sent at once, so the suite waits for the grace period once, not once per
// kubectl. Each kubectl's test then asserts on its own deletion.
describe('deletion lifecycle against listwatch serve, every kubectl', function () {
  const kubectls = suiteKubectls();
  const servers = new Map<Kubectl, ServeProcess>();
  const deletions = new Map<Kubectl, Promise<NamespaceDeletion>>();

  before(async () => {
    const started = await Promise.allSettled(kubectls.map(() => ServeProcess.start()));
    started.forEach((s, i) => {
      if (s.status === 'fulfilled') servers.set(kubectls[i], s.value);
    });
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    for (const [k, serve] of servers) {
      const deletion = deleteDoomedNamespace(k, serve);
      deletion.catch(() => undefined); // awaited (and reported) by the kubectl's own test
      deletions.set(k, deletion);
    }
  });
  after(async () => {
    const codes = await Promise.all([...servers.values()].map((serve) => serve.stop()));
    codes.forEach((code) => assert.strictEqual(code, 0, 'listwatch serve exit code on SIGTERM'));
  });

  for (const k of kubectls) describeKubectl(k, servers, deletions);
});

/** Creates namespace doomed with two configmaps, then deletes it with `kubectl delete ns -v=6`. */
async function deleteDoomedNamespace(k: Kubectl, serve: ServeProcess): Promise<NamespaceDeletion> {
  const run = (args: string[]) =>
    kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);
  const createNamespace = await run(['create', 'namespace', 'doomed']);
  const createConfigMaps: KubectlResult[] = [];
  for (const name of ['one', 'two'])
    createConfigMaps.push(
      await run(['create', 'configmap', name, '-n', 'doomed', '--from-literal=a=b']),
    );
  return {
    createNamespace,
    createConfigMaps,
    deleteNamespace: await run(['delete', 'ns', 'doomed', '-v=6']),
  };
}

function describeKubectl(
  k: Kubectl,
  servers: ReadonlyMap<Kubectl, ServeProcess>,
  deletions: ReadonlyMap<Kubectl, Promise<NamespaceDeletion>>,
): void {
  describe(`kubectl ${k.gitVersion}: deletion lifecycle against listwatch serve`, function () {
    let serve: ServeProcess;
    const run = (args: string[]) =>
      kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);

    before(() => {
      serve = servers.get(k)!;
    });
    beforeEach(() => recordKubectlTest(k));

    it('delete ns X waits until the namespace and its configmaps are gone', async () => {
      const { createNamespace, createConfigMaps, deleteNamespace: r } = await deletions.get(k)!;
      assert.strictEqual(createNamespace.code, 0);
      for (const cm of createConfigMaps) assert.strictEqual(cm.code, 0, cm.stderr);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, 'namespace "doomed" deleted\n');
      assert.deepStrictEqual(
        requestsTo(r.stderr, '/api/v1/namespaces/doomed')
          .filter((s) => s.verb === 'DELETE')
          .map((s) => s.status),
        [200],
      );
      const gone = await serve.request('GET', '/api/v1/namespaces/doomed');
      assert.strictEqual(gone.status, 404, gone.body);
      const cms = await serve.json<{ items: unknown[] }>(
        'GET',
        '/api/v1/namespaces/doomed/configmaps',
        200,
      );
      assert.deepStrictEqual(cms.items, []);
    });

    it('a configmap with a finalizer stays after delete --wait=false; patch finalizers:null deletes it', async () => {
      const path = `/api/v1/namespaces/${serve.namespace}/configmaps`;
      await serve.json('POST', path, 201, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'held', finalizers: ['example.com/hold'] },
        data: { a: 'b' },
      });
      const d = await run(['delete', 'configmap', 'held', '--wait=false']);
      assert.strictEqual(d.code, 0, d.stderr);
      assert.strictEqual(d.stdout, deletedLine(k, 'configmap "held"', serve.namespace));
      const got = await run(['get', 'configmap', 'held', '-o', 'json']);
      assert.strictEqual(got.code, 0, got.stderr);
      const held = JSON.parse(got.stdout) as {
        metadata: {
          deletionTimestamp?: string;
          deletionGracePeriodSeconds?: number;
          finalizers?: string[];
        };
      };
      assert.match(held.metadata.deletionTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.strictEqual(held.metadata.deletionGracePeriodSeconds, 0);
      assert.deepStrictEqual(held.metadata.finalizers, ['example.com/hold']);
      const p = await run([
        'patch',
        'configmap',
        'held',
        '--type=merge',
        '-p',
        '{"metadata":{"finalizers":null}}',
      ]);
      assert.strictEqual(p.code, 0, p.stderr);
      assert.strictEqual(p.stdout, 'configmap/held patched\n');
      const gone = await serve.request('GET', `${path}/held`);
      assert.strictEqual(gone.status, 404, gone.body);
    });

    it('delete ns default is refused: this namespace may not be deleted', async () => {
      const r = await run(['delete', 'ns', 'default']);
      assert.strictEqual(r.code, 1);
      assert.strictEqual(
        r.stderr,
        'Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted\n',
      );
      const ns = await serve.json<{ status: { phase: string } }>(
        'GET',
        '/api/v1/namespaces/default',
        200,
      );
      assert.strictEqual(ns.status.phase, 'Active');
    });
  });
}
