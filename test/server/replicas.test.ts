// `listwatch serve --replicas 3 --etcd spawn` (issue 26 item 5): three apiservers over one etcd
// behind one URL, read by kubectl 1.35 and plain HTTP (curl's requests). A write through one
// replica is read through each; round robin spreads consecutive requests over 1, 2, 3 (the audit
// log's listwatch.dev/replica says which served each); --sticky keeps a connection on one; a
// cache-lag on replica 2 makes a LIST at a resource version read from another replica wait
// blockTimeout there and answer upstream's 504 "Too large resource version" (storage/cacher:
// waitUntilFreshAndBlock), while a consistent read answers everywhere; bad --replicas are refused.
// No upstream counterpart: upstream tests HA apiservers in its e2e suites.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { ApiServer } from '../../src/server/api-server';
import { LiveRecorder } from '../../src/server/live-recorder';
import type { TraceRecord } from '../../src/run/trace/trace-format';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { eventually } from './harness/eventually';
import { kubectl, type Kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';
import { projectRoot } from '../harness/paths';

const configmaps = '/api/v1/namespaces/default/configmaps';
const secrets = '/api/v1/namespaces/default/secrets';
const replicaAnnotation = 'listwatch.dev/replica';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request over `agent` (a keep-alive agent keeps its connection; false: a new one each). */
function send(
  serve: ServeProcess,
  method: string,
  urlPath: string,
  o: { agent?: http.Agent | false; body?: unknown } = {},
): Promise<Answer> {
  const url = new URL(urlPath, serve.info.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent: o.agent,
        headers: {
          Authorization: `Bearer ${serve.info.token}`,
          Accept: 'application/json',
          ...(o.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(o.body === undefined ? undefined : JSON.stringify(o.body));
  });
}

/** The replica that served each request, by its Audit-Id, from the audit log's ResponseComplete. */
async function servedBy(auditLog: string, answers: readonly Answer[]): Promise<number[]> {
  return eventually(() => {
    const byId = new Map<string, number>();
    for (const line of fs.readFileSync(auditLog, 'utf8').split('\n')) {
      if (line === '') continue;
      const e = JSON.parse(line) as {
        auditID: string;
        stage: string;
        annotations?: Record<string, string>;
      };
      if (e.stage === 'ResponseComplete' && e.annotations?.[replicaAnnotation])
        byId.set(e.auditID, Number(e.annotations[replicaAnnotation]));
    }
    return answers.map((a) => {
      const n = byId.get(String(a.headers['audit-id']));
      if (n === undefined) throw new Error(`no audit event for ${String(a.headers['audit-id'])}`);
      return n;
    });
  });
}

/** `n` consecutive turns of round robin over 3 replicas from `first`. */
function turns(first: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => ((first - 1 + i) % 3) + 1);
}

const k35 = suiteKubectls().find((k) => k.major === 1 && k.minor === 35);
if (k35) describeReplicas(k35);

function describeReplicas(k: Kubectl): void {
  describe(`listwatch serve --replicas 3 --etcd spawn, read by kubectl ${k.gitVersion} and HTTP`, function () {
    let serve: ServeProcess;
    let auditDir: string;
    let auditLog: string;
    const run = async (args: string[]): Promise<string> => {
      const r = await kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);
      assert.strictEqual(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };

    before(async function () {
      recordKubectlTest(k);
      auditDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-replicas-test-'));
      auditLog = path.join(auditDir, 'audit.log');
      serve = await ServeProcess.start([
        '--replicas',
        '3',
        '--etcd',
        'spawn',
        '--audit-log',
        auditLog,
      ]);
    });

    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, serve.stderr);
      fs.rmSync(auditDir, { recursive: true, force: true });
    });

    it('says how many replicas and how requests are spread (--json)', () => {
      const info = serve.info as unknown as { replicas?: number; spread?: string };
      assert.deepStrictEqual(
        { replicas: info.replicas, spread: info.spread },
        { replicas: 3, spread: '3 replicas, round robin per request' },
      );
    });

    it('round robin: consecutive requests go to replicas 1, 2, 3 in turn', async () => {
      const answers: Answer[] = [];
      for (let i = 0; i < 7; i++) answers.push(await send(serve, 'GET', configmaps));
      for (const a of answers) assert.strictEqual(a.status, 200, a.body);
      const got = await servedBy(auditLog, answers);
      assert.deepStrictEqual(got, turns(got[0], 7));
    });

    it('a write through one replica is read through each of them', async () => {
      await run(['create', 'configmap', 'written-once', '--from-literal=k=v']);
      const created = await send(serve, 'GET', `${configmaps}/written-once`);
      const rv = (JSON.parse(created.body) as { metadata: { resourceVersion: string } }).metadata
        .resourceVersion;
      // Three LISTs at the write's resource version: each replica's watch cache answers it.
      const lists: Answer[] = [];
      for (let i = 0; i < 3; i++)
        lists.push(await send(serve, 'GET', `${configmaps}?resourceVersion=${rv}`));
      for (const l of lists) {
        assert.strictEqual(l.status, 200, l.body);
        const names = (JSON.parse(l.body) as { items: { metadata: { name: string } }[] }).items.map(
          (i) => i.metadata.name,
        );
        assert.ok(names.includes('written-once'), `${names.join(', ')}`);
      }
      assert.deepStrictEqual([...(await servedBy(auditLog, lists))].sort(), [1, 2, 3]);
      // kubectl reads it back, whichever replica its requests reach.
      assert.strictEqual(
        await run(['get', 'configmap', 'written-once', '-o', 'jsonpath={.data.k}']),
        'v',
      );
    });

    it("cache-lag on replica 2: a LIST at a newer resource version answers there upstream's 504 after blockTimeout; a consistent read answers everywhere", async () => {
      // `listwatch fault --replica 2`: the admin API, answered whichever replica's turn it is.
      const fault = spawnSync(
        process.execPath,
        [
          path.join(projectRoot(), 'dist', 'cli.js'),
          'fault',
          '--kubeconfig',
          serve.info.kubeconfig,
          'cache-lag',
          '--seconds',
          '600',
          '--resource',
          'secrets',
          '--replica',
          '2',
        ],
        { encoding: 'utf8' },
      );
      assert.strictEqual(fault.status, 0, fault.stderr);
      const lag = JSON.parse(fault.stdout) as {
        replica: number;
        resources: { resource: string; cacheResourceVersion: number }[];
      };
      assert.strictEqual(lag.replica, 2);
      const current = lag.resources[0].cacheResourceVersion;
      await run(['create', 'secret', 'generic', 'after-the-lag', '--from-literal=k=v']);
      const got = await send(serve, 'GET', `${secrets}/after-the-lag`);
      const rv = (JSON.parse(got.body) as { metadata: { resourceVersion: string } }).metadata
        .resourceVersion;
      const atRv: Answer[] = [];
      for (let i = 0; i < 3; i++)
        atRv.push(await send(serve, 'GET', `${secrets}?resourceVersion=${rv}`));
      const replicas = await servedBy(auditLog, atRv);
      const expected = replicas.map((n) => (n === 2 ? 504 : 200));
      assert.deepStrictEqual(
        atRv.map((a) => a.status),
        expected,
      );
      const timedOut = atRv[replicas.indexOf(2)];
      assert.deepStrictEqual(JSON.parse(timedOut.body), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Timeout: Too large resource version: ${rv}, current: ${current}`,
        reason: 'Timeout',
        details: {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        },
        code: 504,
      });
      assert.strictEqual(timedOut.headers['retry-after'], '1');
      // The debug state of each replica (`?replica=N`): replica 2's secrets cache stays at the
      // lag's RV, the others' hold the write; a replica the server does not run is refused.
      const cacheRvOf = async (query: string): Promise<[number, number | undefined]> => {
        const a = await send(serve, 'GET', `/debug/listwatch/v1/state${query}`);
        assert.strictEqual(a.status, 200, a.body);
        const view = JSON.parse(a.body) as {
          replica: number;
          resources: { resource: string; cacheResourceVersion?: number }[];
        };
        const r = view.resources.find((x) => x.resource === 'secrets');
        return [view.replica, r?.cacheResourceVersion];
      };
      const [one, oneRv] = await cacheRvOf('');
      const [two, twoRv] = await cacheRvOf('?replica=2');
      const [three, threeRv] = await cacheRvOf('?replica=3');
      assert.deepStrictEqual([one, two, three, twoRv], [1, 2, 3, current]);
      for (const v of [oneRv, threeRv]) assert.ok(v !== undefined && v >= Number(rv), String(v));
      const refused = await send(serve, 'GET', '/debug/listwatch/v1/state?replica=4');
      assert.strictEqual(refused.status, 400, refused.body);
      assert.strictEqual(
        (JSON.parse(refused.body) as { message: string }).message,
        'replica: "4": this server runs 3 replicas; expected 1..3',
      );
      // resourceVersion="" (a consistent read): answered by every replica, the secret in it.
      const consistent: Answer[] = [];
      for (let i = 0; i < 3; i++) consistent.push(await send(serve, 'GET', secrets));
      assert.deepStrictEqual([...(await servedBy(auditLog, consistent))].sort(), [1, 2, 3]);
      for (const c of consistent) {
        assert.strictEqual(c.status, 200, c.body);
        assert.ok(c.body.includes('"after-the-lag"'), c.body);
      }
    });

    it("a Service's clusterIP is allocated once for every replica (upstream keeps the bitmap in etcd)", async () => {
      const services = '/api/v1/namespaces/default/services';
      const service = (name: string, clusterIP?: string) => ({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        spec: { ports: [{ port: 80 }], ...(clusterIP ? { clusterIP } : {}) },
      });
      const first = await send(serve, 'POST', services, { body: service('allocated-first') });
      assert.strictEqual(first.status, 201, first.body);
      const ip = (JSON.parse(first.body) as { spec: { clusterIP: string } }).spec.clusterIP;
      // The same address asked for through each replica in turn: refused by every one.
      const asked: Answer[] = [];
      for (let i = 1; i <= 3; i++)
        asked.push(await send(serve, 'POST', services, { body: service(`same-ip-${i}`, ip) }));
      assert.deepStrictEqual([...(await servedBy(auditLog, asked))].sort(), [1, 2, 3]);
      for (const a of asked) {
        assert.strictEqual(a.status, 422, a.body);
        assert.match(
          (JSON.parse(a.body) as { message: string }).message,
          /provided IP is already allocated/,
        );
      }
    });

    it('a CRD created through one replica is served by every replica', async () => {
      const crd = path.join(serve.dir, 'widgets.json');
      fs.writeFileSync(
        crd,
        JSON.stringify({
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: 'widgets.example.com' },
          spec: {
            group: 'example.com',
            names: {
              plural: 'widgets',
              singular: 'widget',
              kind: 'Widget',
              listKind: 'WidgetList',
            },
            scope: 'Namespaced',
            versions: [
              {
                name: 'v1',
                served: true,
                storage: true,
                schema: {
                  openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            ],
          },
        }),
      );
      await run(['apply', '-f', crd]);
      await run(['wait', '--for=condition=Established', 'crd/widgets.example.com']);
      // Each replica's CRD controller serves it once its own sync ran, as each apiserver's does.
      await eventually(async () => {
        const lists: Answer[] = [];
        for (let i = 0; i < 3; i++)
          lists.push(await send(serve, 'GET', '/apis/example.com/v1/namespaces/default/widgets'));
        assert.deepStrictEqual(
          lists.map((l) => l.status),
          [200, 200, 200],
        );
        assert.deepStrictEqual([...(await servedBy(auditLog, lists))].sort(), [1, 2, 3]);
      });
    });

    it('a namespace deleted through any replica is finalized by the one namespace controller', async () => {
      const names = ['gone-1', 'gone-2', 'gone-3'];
      for (const name of names)
        assert.strictEqual(
          (await send(serve, 'POST', '/api/v1/namespaces', { body: { metadata: { name } } }))
            .status,
          201,
        );
      const deletes: Answer[] = [];
      for (const name of names)
        deletes.push(await send(serve, 'DELETE', `/api/v1/namespaces/${name}`));
      assert.deepStrictEqual([...(await servedBy(auditLog, deletes))].sort(), [1, 2, 3]);
      await eventually(async () => {
        for (const name of names)
          assert.strictEqual((await send(serve, 'GET', `/api/v1/namespaces/${name}`)).status, 404);
      }, 500);
    });

    it('a server fault naming no replica acts on each replica in turn', async () => {
      const r = await send(serve, 'POST', '/debug/listwatch/v1/faults/expire-history', {
        body: { resource: 'configmaps' },
      });
      assert.strictEqual(r.status, 200, r.body);
      const body = JSON.parse(r.body) as {
        replicas: { replica: number; resources: { resource: string }[] }[];
      };
      assert.deepStrictEqual(
        body.replicas.map((x) => [x.replica, x.resources.map((q) => q.resource)]),
        [
          [1, ['configmaps']],
          [2, ['configmaps']],
          [3, ['configmaps']],
        ],
      );
    });

    it('terminate-watcher naming no replica finds the watcher on the replica that holds it', async () => {
      const userAgent = 'replicas-test-watch/v0';
      // A watch, open until terminated: its headers come at once.
      let ended!: Promise<void>;
      const opened = await new Promise<http.IncomingMessage>((resolve, reject) => {
        // From resourceVersion 0: a cacher watcher (an unset one is delegated to etcd).
        const req = http.request(
          new URL(`${configmaps}?watch=true&resourceVersion=0`, serve.info.url),
          {
            headers: { Authorization: `Bearer ${serve.info.token}`, 'User-Agent': userAgent },
          },
        );
        req.on('response', (res) => {
          ended = new Promise((done) => res.on('end', done).on('close', done));
          res.resume();
          resolve(res);
        });
        req.on('error', reject);
        req.end();
      });
      assert.strictEqual(opened.statusCode, 200);
      const terminate = () =>
        send(serve, 'POST', '/debug/listwatch/v1/faults/terminate-watcher', {
          body: { userAgent },
        });
      const r = await eventually(async () => {
        const a = await terminate();
        assert.strictEqual(a.status, 200, a.body);
        return a;
      });
      await ended;
      const held = (JSON.parse(r.body) as { replicas: { replica: number }[] }).replicas.map(
        (x) => x.replica,
      );
      const watchAnswer: Answer = { status: 200, headers: opened.headers, body: '' };
      assert.deepStrictEqual(held, await servedBy(auditLog, [watchAnswer]));
      const again = await terminate();
      assert.strictEqual(again.status, 404, again.body);
      assert.strictEqual(
        (JSON.parse(again.body) as { message: string }).message,
        `no watcher of user agent ${JSON.stringify(userAgent)}`,
      );
    });

    it('a fault naming a replica the server does not run is refused (422)', async () => {
      const r = await send(serve, 'POST', '/debug/listwatch/v1/faults/cache-lag', {
        body: { seconds: 1, match: { replica: 4 } },
      });
      assert.strictEqual(r.status, 422, r.body);
      assert.strictEqual(
        (JSON.parse(r.body) as { message: string }).message,
        'match.replica: 4: this server runs 3 replicas; expected 1..3',
      );
    });
  });

  describe(`a live run of --replicas 3 records the replica of each request (kubectl ${k.gitVersion})`, function () {
    let server: ApiServer;
    let recorder: LiveRecorder;
    let dir: string;
    const records: TraceRecord[] = [];

    before(async () => {
      recordKubectlTest(k);
      server = await ApiServer.start({
        port: 0,
        replicas: 3,
        etcd: { kind: 'spawn' },
        clientsReport: true,
      });
      recorder = new LiveRecorder(server, { scrape: false });
      recorder.subscribe((r) => records.push(r));
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-replicas-live-'));
    });
    after(async () => {
      recorder?.dispose();
      await server?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it("each LIST and WATCH input names its replica, in round robin's order", async () => {
      // kubectl's LIST then WATCH (the watch ends after a second), through the one URL.
      const r = await kubectl(k, { kubeconfig: server.kubeconfigPath, dir }, [
        'get',
        'configmaps',
        '--watch',
        '--request-timeout=1s',
      ]);
      assert.ok(r.code !== null, r.stderr);
      for (let i = 0; i < 3; i++) {
        const answer = await fetch(`${server.url}${configmaps}`, {
          headers: { authorization: `Bearer ${server.token}` },
        });
        assert.strictEqual(answer.status, 200);
        await answer.text();
      }
      const sent = records.flatMap((rec) =>
        rec.kind === 'input' && (rec.action === 'list' || rec.action === 'watch')
          ? [{ action: rec.action, client: rec.client, replica: rec.replica }]
          : [],
      );
      const kubectlSent = sent.filter((s) => s.client.startsWith('kubectl'));
      assert.deepStrictEqual(
        kubectlSent.map((s) => s.action),
        ['list', 'watch'],
        JSON.stringify(sent),
      );
      for (const s of sent) assert.ok(s.replica !== undefined && s.replica >= 1 && s.replica <= 3);
      const fetched = sent.filter((s) => !s.client.startsWith('kubectl')).map((s) => s.replica!);
      assert.deepStrictEqual(fetched, turns(fetched[0], 3));
      // The clients report (GET /debug/listwatch/v1/clients) says which replica served each.
      const report = server.clientsReport();
      assert.ok(report);
      const reported = report.clients.flatMap((c) =>
        c.requests.map((q) => ({ verb: q.verb, replica: q.replica })),
      );
      assert.strictEqual(reported.length, sent.length, JSON.stringify(reported));
      for (const q of reported)
        assert.ok(q.replica !== undefined && q.replica >= 1 && q.replica <= 3, JSON.stringify(q));
    });
  });

  describe(`listwatch serve --replicas 3 --sticky --etcd spawn (kubectl ${k.gitVersion} suite)`, function () {
    let serve: ServeProcess;
    let auditDir: string;
    let auditLog: string;

    before(async () => {
      auditDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-replicas-test-'));
      auditLog = path.join(auditDir, 'audit.log');
      serve = await ServeProcess.start([
        '--replicas',
        '3',
        '--sticky',
        '--etcd',
        'spawn',
        '--audit-log',
        auditLog,
      ]);
    });

    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, serve.stderr);
      fs.rmSync(auditDir, { recursive: true, force: true });
    });

    it('keeps every request of a connection on one replica; new connections take turns', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const kept: Answer[] = [];
        for (let i = 0; i < 5; i++) kept.push(await send(serve, 'GET', configmaps, { agent }));
        const keptOn = await servedBy(auditLog, kept);
        assert.deepStrictEqual(keptOn, Array(5).fill(keptOn[0]));
        const fresh: Answer[] = [];
        for (let i = 0; i < 3; i++)
          fresh.push(await send(serve, 'GET', configmaps, { agent: false }));
        assert.deepStrictEqual(await servedBy(auditLog, fresh), turns((keptOn[0] % 3) + 1, 3));
      } finally {
        agent.destroy();
      }
    });
  });
}

describe('listwatch serve --replicas: refused values (usage errors, exit 2)', () => {
  const cases: [string, string[], string][] = [
    [
      'on the in-memory etcd',
      ['--replicas', '3'],
      '--replicas 3 needs an etcd the replicas share: --etcd spawn (a private etcd-server) or --etcd http://host:port; each replica is an apiserver with its own watch caches fed by its own etcd watch, and the in-memory etcd lives inside one apiserver',
    ],
    [
      'zero',
      ['--replicas', '0', '--etcd', 'spawn'],
      '--replicas expects a number of apiservers 1..8, got "0"',
    ],
    [
      'more than 8',
      ['--replicas', '9', '--etcd', 'spawn'],
      '--replicas expects a number of apiservers 1..8, got "9"',
    ],
    [
      'not a number',
      ['--replicas', 'two', '--etcd', 'spawn'],
      '--replicas expects a number of apiservers 1..8, got "two"',
    ],
    [
      '--sticky alone',
      ['--sticky', '--etcd', 'spawn'],
      '--sticky keeps each connection on one replica: it goes with --replicas 2 or more',
    ],
  ];
  for (const [name, args, message] of cases)
    it(`${name} (v1.35 suite)`, () => {
      const r = spawnSync(
        process.execPath,
        [path.join(projectRoot(), 'dist', 'cli.js'), 'serve', ...args],
        { encoding: 'utf8' },
      );
      assert.strictEqual(r.status, 2, r.stderr);
      assert.strictEqual(r.stderr.split('\n')[0], `listwatch serve: ${message}`, name);
    });
});
