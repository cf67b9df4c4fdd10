// `listwatch probe` against the real `listwatch serve` (ApiServer in-process, HTTPS with the bearer
// token of the kubeconfig it writes): a paged LIST with limit 2 (pages, decoded tokens,
// remainingItemCount), a label selector, a watch with bookmarks while pods are written, the
// /metrics scrape, a refused token (401), an unknown context, an unreachable server, an exec
// plugin (announced before it runs) and a client certificate (announced; the server does not ask
// for one, so the token authenticates). No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { ApiServer } from '../../src/server/api-server';
import { generateSelfSignedCertKey } from '../../src/server/self-signed-certificate';
import { loadClusterTarget } from '../../src/probe/kubeconfig-target';
import { describeProbe, runProbe, type ProbeRun } from '../../src/probe/probe-run';
import { parseProbeUrl } from '../../src/probe/probe-url';
import { ProbeError } from '../../src/probe/probe-error';
import { summarizeRecordedRun } from '../../src/run/recorded-run-summary';
import { loadRun } from '../../src/run/load-run';

interface KubeconfigDoc {
  clusters: Array<{ name: string; cluster: Record<string, unknown> }>;
  users: Array<{ name: string; user: Record<string, unknown> }>;
  contexts: Array<{ name: string; context: Record<string, unknown> }>;
  'current-context': string;
}

describe('listwatch probe against listwatch serve', function () {
  let server: ApiServer;
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-probe-'));
    server = await ApiServer.start({
      seed: { pods: 5 },
      kubeconfigPath: path.join(dir, 'kubeconfig'),
      // The server sends Audit-Id only when it audits (kube-apiserver always does).
      auditLogPath: path.join(dir, 'audit.log'),
    });
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The server's kubeconfig with `change` applied, written next to it. */
  function kubeconfigWith(name: string, change: (doc: KubeconfigDoc) => void): string {
    const doc = yaml.load(fs.readFileSync(server.kubeconfigPath, 'utf8')) as KubeconfigDoc;
    change(doc);
    const file = path.join(dir, name);
    fs.writeFileSync(file, yaml.dump(doc), { mode: 0o600 });
    return file;
  }

  async function createPod(name: string, labels: Record<string, string> = {}): Promise<void> {
    const res = await fetch(`${server.url}/api/v1/namespaces/default/pods`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      }),
    });
    assert.strictEqual(res.status, 201, await res.text());
  }

  async function probe(url: string, o: Parameters<typeof runProbe>[1] = {}): Promise<ProbeRun> {
    const target = await loadClusterTarget(server.kubeconfigPath);
    return runProbe(target, { url: parseProbeUrl(url), ...o });
  }

  it('pages a LIST with limit 2: tokens decoded, remainingItemCount, one resourceVersion', async () => {
    const run = await probe('/api/v1/namespaces/default/pods?limit=2');
    const pages = run.report.pages;
    assert.deepStrictEqual(
      pages.map((p) => [p.status, p.items, p.remainingItemCount, p.continueDecoded?.startKey]),
      [
        [200, 2, 3, '/registry/pods/default/pod-1\u0000'],
        [200, 2, 1, '/registry/pods/default/pod-3\u0000'],
        [200, 1, undefined, undefined],
      ],
    );
    const rv = pages[0].resourceVersion;
    assert.ok(/^\d+$/.test(rv), rv);
    assert.deepStrictEqual(
      pages.map((p) => p.resourceVersion),
      [rv, rv, rv],
    );
    assert.deepStrictEqual(
      pages.slice(0, 2).map((p) => p.continueDecoded?.resourceVersion),
      [rv, rv],
    );
    assert.ok(pages[1].request.includes(`&continue=${encodeURIComponent(pages[0].continue)}`));
    for (const p of pages) {
      assert.ok(p.bytes > 0 && p.ms > 0, `page ${p.page} weighed and timed`);
      assert.ok(p.auditId && /^[0-9a-f-]{36}$/.test(p.auditId), `Audit-Id ${p.auditId}`);
    }
    assert.strictEqual(run.report.items, 5);
    const { model } = await loadRun(run.traceLines);
    assert.strictEqual(model.header.scenario, 'probe');
    assert.deepStrictEqual(
      model.lists.map((l) => [l.returned, l.remainingItemCount, l.continue !== '']),
      [
        [2, 3, true],
        [2, 1, true],
        [1, undefined, false],
      ],
    );
    // The cluster served them; whether from its watch cache or from etcd is not seen, so not said.
    assert.deepStrictEqual(
      model.lists.map((l) => l.servedBy),
      ['cluster', 'cluster', 'cluster'],
    );
    assert.match(model.lists[0].rule, /^a real cluster answered: whether its watch cache or etcd/);
    assert.strictEqual(model.rejected.count, 0, model.rejected.samples.join('; '));
    // `listwatch report` on the probe's trace: the cluster's pages, no etcd figures it cannot see.
    const summary = summarizeRecordedRun(model);
    assert.deepStrictEqual(summary.facts, {
      lists: 3,
      watchRequests: 0,
      userAgents: 1,
      returnedItems: 5,
      http410: 0,
    });
    assert.match(
      summary.story[0],
      /^3 LISTs from 1 user agent \(served by cluster ×3\): the cluster returned 5 items; whether its watch cache or etcd served them is not seen/,
    );
  });

  it("the audit log keeps a failure's Status (status, message, reason, details, code) at level Metadata, as AuditContext.LogResponseObject copies it", async () => {
    const uri = '/api/v1/namespaces/default/pods/no-such-pod';
    const res = await fetch(`${server.url}${uri}`, {
      headers: { Authorization: `Bearer ${server.token}` },
    });
    assert.strictEqual(res.status, 404);
    const auditID = res.headers.get('audit-id');
    // The audit line is written when the response closes: read until it is there.
    let event: { stage: string; level: string; responseStatus?: unknown } | undefined;
    for (let i = 0; i < 100 && event === undefined; i++) {
      const lines = fs.readFileSync(path.join(dir, 'audit.log'), 'utf8').split('\n');
      event = lines
        .filter((l) => l.includes(`"auditID":"${auditID}"`) && l.includes('"ResponseComplete"'))
        .map((l) => JSON.parse(l) as NonNullable<typeof event>)[0];
      if (event === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(event, `no ResponseComplete event for ${auditID}`);
    assert.strictEqual(event.level, 'Metadata');
    assert.deepStrictEqual(event.responseStatus, {
      metadata: {},
      status: 'Failure',
      message: 'pods "no-such-pod" not found',
      reason: 'NotFound',
      details: { name: 'no-such-pod', kind: 'pods' },
      code: 404,
    });
  });

  it('sends the label selector: only the matching pods, paged', async () => {
    for (const n of ['web-a', 'web-b', 'web-c']) await createPod(n, { app: 'web' });
    const run = await probe('/api/v1/namespaces/default/pods?labelSelector=app%3Dweb&limit=2');
    assert.deepStrictEqual(
      run.report.pages.map((p) => p.items),
      [2, 1],
    );
    assert.ok(run.report.pages.every((p) => p.request.includes('labelSelector=app%3Dweb')));
  });

  it('watches with bookmarks: the initial events, the initial-events-end bookmark, then the writes', async () => {
    const target = await loadClusterTarget(server.kubeconfigPath);
    const before = (await probe('/api/v1/namespaces/default/pods')).report.items;
    // Written once the initial events are all sent (the watch lasts 2 s).
    let writes: Promise<void> | undefined;
    const running = runProbe(
      target,
      {
        url: parseProbeUrl('/api/v1/namespaces/default/pods?limit=500'),
        watchSeconds: 2,
        sendInitialEvents: true,
      },
      (line) => {
        if (line.includes('k8s.io/initial-events-end'))
          writes = (async () => {
            for (const n of ['during-1', 'during-2', 'during-3']) await createPod(n);
          })();
      },
    );
    const run = await running;
    await writes;
    const w = run.report.watch!;
    assert.strictEqual(w.status, 200);
    assert.strictEqual(w.ended, 'closed');
    assert.ok(w.request.includes('allowWatchBookmarks=true'), w.request);
    assert.ok(w.request.includes('sendInitialEvents=true&resourceVersionMatch=NotOlderThan'));
    const types = w.events.map((e) => e.type);
    const end = w.events.findIndex((e) => e.initialEventsEnd);
    assert.ok(end >= 0, `an initial-events-end bookmark in ${types.join(' ')}`);
    assert.strictEqual(types.slice(0, end).filter((t) => t === 'ADDED').length, before);
    assert.deepStrictEqual(
      w.events
        .slice(end + 1)
        .filter((e) => e.type === 'ADDED')
        .map((e) => e.object),
      ['default/during-1', 'default/during-2', 'default/during-3'],
    );
    assert.strictEqual(w.byType.ADDED, before + 3);
    const { model } = await loadRun(run.traceLines);
    assert.deepStrictEqual(
      model.watchRequests?.map((r) => r.outcome),
      ['started'],
    );
    assert.ok(model.phases?.some((p) => p.text.includes('k8s.io/initial-events-end')));
  });

  it('a watch from the LIST resourceVersion sees only what is written after it', async () => {
    const target = await loadClusterTarget(server.kubeconfigPath);
    // Written once the LIST is read: after its resourceVersion, whether the watch is open yet or not.
    let written: Promise<void> | undefined;
    const running = runProbe(
      target,
      { url: parseProbeUrl('/api/v1/namespaces/default/pods?limit=2'), watchSeconds: 2 },
      (line) => {
        if (line.includes('(last page)')) written = createPod('after-list');
      },
    );
    const w = (await running).report.watch!;
    await written;
    assert.ok(
      w.request.endsWith(`resourceVersion=${(await running).report.pages[0].resourceVersion}`),
    );
    assert.deepStrictEqual(
      w.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object}`),
      ['ADDED default/after-list'],
    );
  });

  it('scrapes /metrics: the storage list, watch cache, capacity and etcd latency families', async () => {
    const target = await loadClusterTarget(server.kubeconfigPath);
    const run = await runProbe(target, { metrics: true });
    const m = run.report.metrics!;
    assert.strictEqual(m.status, 200);
    const names = new Set(Object.keys(m.samples).map((k) => k.split('{')[0]));
    for (const name of [
      'apiserver_storage_list_total',
      'apiserver_watch_cache_resource_version',
      'watch_cache_capacity',
      'etcd_request_duration_seconds_bucket',
      'etcd_request_duration_seconds_count',
    ])
      assert.ok(names.has(name), `${name} in ${[...names].join(', ')}`);
    assert.ok(
      ![...names].some((n) => n.startsWith('apiserver_request_')),
      'other families left out',
    );
    const { model } = await loadRun(run.traceLines);
    assert.deepStrictEqual(model.metrics, m.samples);
    assert.strictEqual(model.scrapes?.length, 1);
    assert.strictEqual(model.header.params.metricsScrapedAt, m.scrapedAt);
    assert.ok(model.metricsText.includes('# TYPE watch_cache_capacity gauge'));
  });

  it('a refused token: 401 with the Status message, naming the user and kubeconfig', async () => {
    const file = kubeconfigWith('wrong-token', (d) => (d.users[0].user.token = 'not-the-token'));
    const target = await loadClusterTarget(file);
    await assert.rejects(
      runProbe(target, { url: parseProbeUrl('/api/v1/pods') }),
      (e: ProbeError) => {
        assert.strictEqual(e.status, 401);
        assert.strictEqual(
          e.message,
          `GET /api/v1/pods: 401 Unauthorized: Unauthorized (the cluster refused the credential of user "listwatch" in kubeconfig ${file}, context "listwatch")`,
        );
        return true;
      },
    );
  });

  it('an unknown context is named, with the contexts there are', async () => {
    await assert.rejects(loadClusterTarget(server.kubeconfigPath, 'prod'), {
      message: `context was not found for specified context: prod (kubeconfig ${server.kubeconfigPath} has contexts listwatch)`,
    });
  });

  it('an unreachable server is named with its kubeconfig and context', async () => {
    const file = kubeconfigWith(
      'closed-port',
      (d) => (d.clusters[0].cluster.server = 'https://127.0.0.1:1'),
    );
    const target = await loadClusterTarget(file);
    await assert.rejects(runProbe(target, { url: parseProbeUrl('/api/v1/pods') }), {
      message: `cannot reach the cluster "listwatch" at https://127.0.0.1:1 (kubeconfig ${file}, context "listwatch"): connect ECONNREFUSED 127.0.0.1:1`,
    });
  });

  it('an exec plugin: announced with its command before it runs, then its token is used', async () => {
    const marker = path.join(dir, 'exec-ran');
    const script = path.join(dir, 'credential.js');
    fs.writeFileSync(
      script,
      `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n` +
        `process.stdout.write(JSON.stringify({apiVersion:'client.authentication.k8s.io/v1',kind:'ExecCredential',status:{token:${JSON.stringify(server.token)}}}));\n`,
    );
    const file = kubeconfigWith('exec', (d) => {
      d.users[0].user = {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: [script],
          interactiveMode: 'Never',
        },
      };
    });
    const target = await loadClusterTarget(file);
    const plan = describeProbe(target, { url: parseProbeUrl('/api/v1/pods?limit=2') });
    assert.ok(!fs.existsSync(marker), 'loading and describing run nothing');
    assert.ok(
      plan.includes(
        `  exec plugin: RUNS the program ${JSON.stringify(process.execPath)} ${JSON.stringify(script)} (client.authentication.k8s.io/v1) before the first request, for an ExecCredential`,
      ),
      plan.join('\n'),
    );
    assert.ok(plan.includes("  Authorization: <from the exec plugin's ExecCredential, redacted>"));
    const steps: string[] = [];
    const run = await runProbe(target, { url: parseProbeUrl('/api/v1/pods?limit=2') }, (l) =>
      steps.push(l),
    );
    assert.ok(fs.existsSync(marker), 'the exec plugin ran');
    assert.ok(steps[0].startsWith('running the exec plugin '), steps[0]);
    assert.strictEqual(
      steps[1],
      'the exec plugin gave a credential: Authorization: Bearer <redacted, 64 chars>',
    );
    assert.strictEqual(run.report.authorization, 'Bearer <redacted, 64 chars>');
    assert.ok(run.report.items > 0);
  });

  it('a client certificate: its subject announced; the server asks for none, the token authenticates', async () => {
    const { cert, key } = generateSelfSignedCertKey(Date.now());
    const file = kubeconfigWith('client-cert', (d) => {
      d.users[0].user['client-certificate-data'] = Buffer.from(cert).toString('base64');
      d.users[0].user['client-key-data'] = Buffer.from(key).toString('base64');
    });
    const target = await loadClusterTarget(file);
    assert.strictEqual(target.credential.clientCertificateSubject, 'CN=listwatch');
    const plan = describeProbe(target, { url: parseProbeUrl('/api/v1/pods') });
    assert.ok(
      plan.includes('  client certificate (from client-certificate-data): subject CN=listwatch'),
    );
    const run = await runProbe(target, { url: parseProbeUrl('/api/v1/pods') });
    assert.strictEqual(run.report.pages[0].status, 200);
  });
});
