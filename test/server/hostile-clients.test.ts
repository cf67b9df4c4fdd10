// Hostile clients against `listwatch serve` (issue 22, items 9 and 10): YAML "billion laughs"
// bodies, 5,000 idle sockets and a client that never finishes its headers, all at once, while
// real kubectl and a plain client are answered; the bombs get kube-apiserver's 400, the server
// closes the idle and slow sockets (kube-apiserver's ReadHeaderTimeout, shortened here through
// LISTWATCH_SERVING_LIMITS so the test does not wait 32 s), and its memory stays bounded. No
// upstream counterpart: upstream tests the alias limit in go-yaml and the timeouts in net/http.
import * as assert from 'assert';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { kubectl, type Kubectl } from './harness/kubectl';
import { holdSockets, residentBytes, yamlBomb } from './harness/hostile-clients';
import { ServeProcess } from './harness/serve-process';

// One kubectl is enough here (the attack is the same for every client): 1.33, or the newest.
const kubectls = suiteKubectls();
const k: Kubectl | undefined = kubectls.find((c) => c.minor === 33) ?? kubectls.at(-1);
if (k) describeHostileClients(k);

function describeHostileClients(k: Kubectl): void {
  describe(`hostile clients against listwatch serve, kubectl ${k.gitVersion} answered meanwhile`, function () {
    let serve: ServeProcess;
    before(async () => {
      // Short enough that the test waits seconds, long enough that everything below happens first.
      process.env.LISTWATCH_SERVING_LIMITS = JSON.stringify({
        readHeaderTimeoutMs: 10_000,
        idleTimeoutMs: 10_000,
      });
      try {
        serve = await ServeProcess.start();
      } finally {
        delete process.env.LISTWATCH_SERVING_LIMITS;
      }
    });
    beforeEach(() => recordKubectlTest(k));
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    it('YAML bombs, 5,000 idle sockets and a slow-header client leave the server answering, its memory bounded', async () => {
      const port = Number(new URL(serve.info.url).port);
      const idleRss = residentBytes(serve.pid);

      const idle = await holdSockets(port, 5000);
      const [slow] = await holdSockets(
        port,
        1,
        `GET /api HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${serve.info.token}\r\n`,
      );
      const bombs = Array.from({ length: 4 }, () =>
        serve.request('POST', `/api/v1/namespaces/${serve.namespace}/configmaps`, {
          body: yamlBomb(),
          headers: { 'Content-Type': 'application/yaml' },
        }),
      );
      const got = await kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, [
        'get',
        'namespaces',
        '-o',
        'name',
      ]);
      assert.strictEqual(got.code, 0, got.stderr);
      assert.match(got.stdout, /^namespace\/default$/m);
      const version = await serve.request('GET', '/version');
      assert.strictEqual(version.status, 200, version.body);

      for (const answer of await Promise.all(bombs)) {
        assert.strictEqual(answer.status, 400, answer.body);
        const status = JSON.parse(answer.body) as { message: string; reason: string };
        assert.strictEqual(status.reason, 'BadRequest');
        assert.match(
          status.message,
          /^the object provided is unrecognized \(must be of type ConfigMap\): error converting YAML to JSON: yaml: document contains excessive aliasing \(/,
        );
      }
      const busyRss = residentBytes(serve.pid);
      // Nothing was written: the bombs were refused before anything was built.
      const cm = await serve.request(
        'GET',
        `/api/v1/namespaces/${serve.namespace}/configmaps/laughs`,
      );
      assert.strictEqual(cm.status, 404, cm.body);

      // The server closes what never sent a request, and what never finished one, without a word.
      assert.deepStrictEqual(new Set(await Promise.all(idle.map((s) => s.closed))), new Set(['']));
      assert.strictEqual(await slow.closed, '');

      // Generous: the bombs took 2 GB before, the idle sockets some kB each.
      const bound = 256 * 1024 * 1024;
      assert.ok(
        busyRss - idleRss < bound,
        `RSS grew from ${idleRss} to ${busyRss} bytes under the attack (bound ${bound})`,
      );
      const again = await serve.request('GET', '/version');
      assert.strictEqual(again.status, 200, again.body);
    });
  });
}
