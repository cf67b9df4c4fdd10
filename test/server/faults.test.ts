// Request faults against real clients (issue 26): an ApiServer in this process, its faults
// injected as the admin API does (ApiServer.injectFault), read by kubectl 1.33 and 1.35. What each
// client does is upstream client-go's: a 429 with Retry-After is retried, a watch cut without an
// ERROR event is re-established, a WatchList stream with no initial-events-end bookmark never
// syncs, a stalled watch delivers what was held. Also each http-error's bytes, the blackhole's
// held connection, and that no fault reaches the admin API or /healthz. After each, what the
// clients report (GET /debug/listwatch/v1/clients) says the client did. No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiServer } from '../../src/server/api-server';
import { faultsPath } from '../../src/server/faults';
import { clientsPath } from '../../src/server/clients-endpoint';
import type { ClientReport, ClientsReport } from '../../src/run/clients-report';
import { clientsCommand } from '../../src/cli/clients-command';

/** `s` as a literal inside a RegExp. */
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import {
  kubectl,
  listThenWatchEnv,
  loggedRequests,
  requestsTo,
  startKubectl,
  watchListEnv,
  type Kubectl,
  type KubectlProcess,
} from './harness/kubectl';

const pods = '/api/v1/namespaces/default/pods';

// kubectl 1.33 (WatchList through KUBE_FEATURE_WatchListClient) and 1.35 (WatchList by default).
for (const k of suiteKubectls()) if (k.minor === 33 || k.minor === 35) describeFaults(k);

function describeFaults(k: Kubectl): void {
  describe(`request faults read by kubectl ${k.gitVersion}`, function () {
    let server: ApiServer;
    let dir: string;
    const background: KubectlProcess[] = [];
    const target = () => ({ kubeconfig: server.kubeconfigPath, dir });
    const start = (args: string[], env: Record<string, string> = {}): KubectlProcess => {
      const p = startKubectl(k, target(), args, env);
      background.push(p);
      return p;
    };
    const call = async (
      method: string,
      url: string,
      body?: unknown,
      contentType = 'application/json',
    ) => {
      const r = await fetch(`${server.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, headers: r.headers, text: await r.text() };
    };
    const createPod = async (name: string) => {
      const r = await call('POST', pods, {
        metadata: { name },
        spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] },
      });
      assert.strictEqual(r.status, 201, r.text);
      return JSON.parse(r.text) as { metadata: { resourceVersion: string } };
    };
    const inject = async (name: string, params: Record<string, unknown>): Promise<number> => {
      const r = await server.injectFault(name, params);
      assert.strictEqual(r.status, 200, JSON.stringify(r.body));
      return (r.body as { id: number }).id;
    };
    /** The report as a test reads it: over HTTP, with the token. */
    const clientsReport = async (): Promise<ClientsReport> => {
      const r = await call('GET', clientsPath);
      assert.strictEqual(r.status, 200, r.text);
      return JSON.parse(r.text) as ClientsReport;
    };
    /** The one kubectl client that sent requests for pods since `since` (ms since the start). */
    const kubectlClient = (report: ClientsReport, since: number): ClientReport => {
      const found = report.clients.filter(
        (c) =>
          c.userAgent.startsWith('kubectl') &&
          c.requests.some((q) => q.at >= since && q.request.startsWith(pods)),
      );
      assert.strictEqual(found.length, 1, JSON.stringify(found.map((c) => c.id)));
      return found[0];
    };
    const watched = (p: KubectlProcess): boolean =>
      requestsTo(p.stderr, pods).some((s) => s.url.searchParams.get('watch') === 'true');

    before(async () => {
      server = await ApiServer.start({ port: 0, clientsReport: true });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-faults-'));
      // Discovery cached first: the faults below meet the requests they are about.
      const warm = await kubectl(k, target(), ['get', 'pods']);
      assert.strictEqual(warm.code, 0, warm.stderr);
    });
    beforeEach(() => recordKubectlTest(k));
    afterEach(async () => {
      for (const p of background.splice(0)) await p.kill();
      server.clearFault('all');
    });
    after(async () => {
      await server?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('get under http-error --code 429 --nth 1: the 429 (Retry-After 1), then the retry answered 200', async () => {
      await createPod('retried');
      const id = await inject('http-error', {
        code: 429,
        match: { verb: 'list', resource: 'pods' },
        trigger: { nth: 1 },
      });
      const since = (await clientsReport()).at;
      const r = await kubectl(k, target(), ['get', 'pods', '-o', 'name', '-v=6']);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, 'pod/retried\n');
      assert.deepStrictEqual(
        requestsTo(r.stderr, pods).map((q) => q.status),
        [429, 200],
        r.stderr,
      );
      // Spent after its one hit: no longer in force.
      assert.strictEqual(
        server.activeFaults().some((f) => f.id === id),
        false,
      );
      // The report: the 429, then the same LIST again (a retry), and the recovery by it.
      const report = await clientsReport();
      assert.deepStrictEqual(
        report.faults.filter((f) => f.id === id).map((f) => [f.name, f.hits]),
        [['http-error', 1]],
      );
      const c = kubectlClient(report, since);
      assert.deepStrictEqual(
        c.requests.map((q) => [q.verb, q.status, q.retryOf, q.faults]),
        [
          ['list', 429, undefined, [id]],
          ['list', 200, 0, undefined],
        ],
        JSON.stringify(c),
      );
      assert.strictEqual(c.answers['429'], 1, JSON.stringify(c.answers));
      assert.strictEqual(c.lists.retries, 1);
      assert.ok(c.bytesSent > 0);
      const [f] = c.faults;
      assert.deepStrictEqual(
        [f.id, f.name, f.hits, f.recovered, f.recoveredBy],
        [id, 'http-error', 1, true, 'retry'],
        JSON.stringify(f),
      );
      assert.ok(typeof f.recoveryMs === 'number' && f.recoveryMs >= 0, f.recovery);
      // `listwatch clients`: the same figures through the kubeconfig, as a table and as JSON.
      for (const [args, expect] of [
        [
          [],
          new RegExp(
            `#${id} http-error → ${escape(c.id)}: 1 hit, recovered in \\d+ ms \\(retry\\)`,
          ),
        ],
        [['--json'], new RegExp(`"recoveredBy": "retry"`)],
      ] as const) {
        let out = '';
        const code = await clientsCommand.run(['--kubeconfig', server.kubeconfigPath, ...args], {
          out: (t) => (out += t),
          err: (t) => assert.fail(t),
          stdinLines: () => (async function* () {})(),
        });
        assert.strictEqual(code, 0);
        assert.match(out, expect);
      }
    });

    it('wait --for=delete (a reflector, LIST then WATCH) under drop-connection --after-events 1: re-watches from the last RV it read, no relist, and sees the delete', async () => {
      await createPod('cut');
      const since = (await clientsReport()).at;
      const id = await inject('drop-connection', {
        afterEvents: 1,
        match: { verb: 'watch', resource: 'pods' },
        trigger: { count: 1 },
      });
      const wait = start(
        ['wait', '--for=delete', 'pod/cut', '--timeout=60s', '-v=6'],
        listThenWatchEnv(k),
      );
      await wait.until(watched, 'the reflector watched');
      // One event (this MODIFIED) is written, then the connection is cut: no ERROR, no end chunk.
      const patched = await call(
        'PATCH',
        `${pods}/cut`,
        { metadata: { labels: { touched: 'yes' } } },
        'application/merge-patch+json',
      );
      assert.strictEqual(patched.status, 200, patched.text);
      const rv = (JSON.parse(patched.text) as { metadata: { resourceVersion: string } }).metadata
        .resourceVersion;
      const watches = (p: KubectlProcess) =>
        requestsTo(p.stderr, pods).filter((q) => q.url.searchParams.get('watch') === 'true');
      await wait.until((p) => watches(p).length >= 2, 'a second watch');
      assert.strictEqual(server.activeFaults().length, 0, 'spent on the first watch');
      assert.strictEqual((await call('DELETE', `${pods}/cut`)).status, 200);
      const r = await wait.exited;
      assert.strictEqual(r.code, 0, r.stderr);
      assert.match(r.stdout, /pod\/cut condition met/);
      const all = requestsTo(r.stderr, pods);
      const first = all.findIndex((q) => q.url.searchParams.get('watch') === 'true');
      assert.deepStrictEqual(
        all.slice(first).map((q) => [q.url.searchParams.get('watch'), q.status]),
        [
          ['true', 200],
          ['true', 200],
        ],
        'a LIST, a WATCH cut after one event, a WATCH again (no relist)',
      );
      assert.strictEqual(watches(wait)[1].url.searchParams.get('resourceVersion'), rv);
      // The report: the cut watch, the re-watch from the last RV it read, no relist.
      const c = kubectlClient(await clientsReport(), since);
      const sent = c.requests.filter((q) => q.request.startsWith(pods));
      assert.deepStrictEqual(
        sent.map((q) => [q.verb, q.status, q.faults, q.restart, q.relist]),
        [
          ['list', 200, undefined, undefined, undefined],
          ['watch', 200, [id], undefined, undefined],
          ['watch', 200, undefined, { fromLastRv: true }, undefined],
        ],
        JSON.stringify(c),
      );
      assert.deepStrictEqual([c.restarts, c.relists], [{ total: 1, fromLastRv: 1 }, 0]);
      const [f] = c.faults;
      assert.deepStrictEqual(
        [f.id, f.name, f.hits, f.recovered, f.recoveredBy],
        [id, 'drop-connection', 1, true, 'rewatch'],
        JSON.stringify(f),
      );
    });

    it('a WatchList wait --timeout=5s under omit-end-bookmark never syncs and times out; without the fault it succeeds', async () => {
      const env = watchListEnv(k);
      assert.ok(env, `kubectl ${k.gitVersion} has WatchList`);
      await createPod('unsynced');
      const id = await inject('omit-end-bookmark', { match: { resource: 'pods' } });
      const args = [
        'wait',
        '--for=jsonpath={.metadata.name}=unsynced',
        'pod/unsynced',
        '--timeout=5s',
        '-v=6',
      ];
      const since = (await clientsReport()).at;
      const hung = await kubectl(k, target(), args, env);
      assert.notStrictEqual(hung.code, 0, hung.stdout);
      assert.match(hung.stderr, /timed out waiting for the condition/);
      // It did ask for a WatchList stream, and the server answered it.
      const streams = requestsTo(hung.stderr, pods).filter(
        (q) => q.url.searchParams.get('sendInitialEvents') === 'true',
      );
      assert.ok(streams.length >= 1 && streams.every((q) => q.status === 200), hung.stderr);
      assert.ok((server.activeFaults().find((f) => f.id === id)?.hits ?? 0) >= 1);
      // The report: every WatchList sync of that client never ended, and it did not recover.
      const unsynced = kubectlClient(await clientsReport(), since);
      assert.ok(unsynced.watchListSyncs.length >= 1, JSON.stringify(unsynced));
      assert.deepStrictEqual(
        unsynced.watchListSyncs.map((w) => [w.ended, w.endedAt]),
        unsynced.watchListSyncs.map(() => [false, null]),
      );
      assert.deepStrictEqual(
        unsynced.faults.map((f) => [f.id, f.recovered, f.recoveryMs, f.recovery]),
        [[id, false, null, 'not recovered']],
      );
      server.clearFault(id);
      const again = (await clientsReport()).at;
      const synced = await kubectl(k, target(), args, env);
      assert.strictEqual(synced.code, 0, synced.stderr);
      assert.match(synced.stdout, /pod\/unsynced condition met/);
      const ok = kubectlClient(await clientsReport(), again);
      assert.deepStrictEqual(
        ok.watchListSyncs.map((w) => w.ended),
        [true],
        JSON.stringify(ok),
      );
      assert.deepStrictEqual(ok.faults, []);
    });

    it('a WatchList wait --timeout=5s under ignore-send-initial-events gets no initial event and never syncs', async () => {
      const env = watchListEnv(k);
      assert.ok(env, `kubectl ${k.gitVersion} has WatchList`);
      await createPod('ignored');
      const id = await inject('ignore-send-initial-events', { match: { resource: 'pods' } });
      const hung = await kubectl(
        k,
        target(),
        ['wait', '--for=jsonpath={.metadata.name}=ignored', 'pod/ignored', '--timeout=5s', '-v=6'],
        env,
      );
      assert.notStrictEqual(hung.code, 0, hung.stdout);
      assert.match(hung.stderr, /timed out waiting for the condition/);
      const streams = requestsTo(hung.stderr, pods).filter(
        (q) => q.url.searchParams.get('sendInitialEvents') === 'true',
      );
      assert.ok(streams.length >= 1 && streams.every((q) => q.status === 200), hung.stderr);
      assert.ok((server.activeFaults().find((f) => f.id === id)?.hits ?? 0) >= 1);
      server.clearFault(id);
    });

    it('get -w under stall-watch --then deliver: nothing while stalled, then the held events in order', async () => {
      await inject('stall-watch', {
        seconds: 3,
        then: 'deliver',
        match: { verb: 'watch', resource: 'pods', userAgent: 'kubectl' },
        trigger: { count: 1 },
      });
      const getW = start([
        'get',
        'pods',
        '-w',
        '--output-watch-events',
        '-o',
        'jsonpath={.type} {.object.metadata.name} {.object.metadata.resourceVersion}{"\\n"}',
        '-v=6',
      ]);
      const listed = JSON.parse((await call('GET', pods)).text) as {
        items: { metadata: { name: string } }[];
      };
      await getW.until(
        (p) => watched(p) && listed.items.every((o) => p.stdout.includes(` ${o.metadata.name} `)),
        'the watch began, the listed pods printed',
      );
      const before = getW.stdout;
      const created: string[] = [];
      for (const name of ['held-0', 'held-1', 'held-2'])
        created.push(`ADDED ${name} ${(await createPod(name)).metadata.resourceVersion}`);
      // Stalled: the events are held (3 s from the watch's start; these creates take milliseconds).
      assert.strictEqual(getW.stdout, before, 'nothing is written while the watch is stalled');
      await getW.until((p) => created.every((l) => p.stdout.includes(l)), 'the held events');
      const lines = getW.stdout.slice(before.length).trim().split('\n');
      assert.deepStrictEqual(lines, created);
    });

    it('blackhole holds matching requests, never the admin API or /healthz; clearing it closes them; http-error answers as upstream', async () => {
      const id = await inject('blackhole', {});
      const held = fetch(`${server.url}${pods}`, {
        headers: { authorization: `Bearer ${server.token}` },
      }).then(
        () => 'answered',
        () => 'closed',
      );
      for (const p of ['/healthz', '/livez', '/readyz', `${faultsPath}/active`]) {
        const r = await call('GET', p);
        assert.strictEqual(r.status, 200, `${p} answered under blackhole: ${r.text}`);
      }
      const listed = JSON.parse((await call('GET', `${faultsPath}/active`)).text) as {
        faults: { id: number; held?: number; hits: number }[];
      };
      assert.deepStrictEqual(
        listed.faults.map((f) => [f.id, f.hits, f.held]),
        [[id, 1, 1]],
      );
      const cleared = await call('DELETE', `${faultsPath}/active/${id}`);
      assert.strictEqual(cleared.status, 200, cleared.text);
      assert.strictEqual(await held, 'closed');
      const unknown = await call('DELETE', `${faultsPath}/active/${id}`);
      assert.strictEqual(unknown.status, 404);
      assert.match(unknown.text, new RegExp(`no active fault with id \\\\"${id}\\\\"`));

      // Each code's bytes (request-faults.ts says where upstream writes each).
      const answers: [number, string, string, string | null][] = [
        [429, 'text/plain; charset=utf-8', 'Too many requests, please try again later.\n', '1'],
        [
          500,
          'application/json',
          '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: injected by listwatch fault http-error","reason":"InternalError","details":{"causes":[{"message":"injected by listwatch fault http-error"}]},"code":500}\n',
          null,
        ],
        [
          503,
          'application/json',
          '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"apiserver is shutting down","reason":"ServiceUnavailable","code":503}\n',
          '1',
        ],
        [
          504,
          'text/plain; charset=utf-8',
          '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n',
          null,
        ],
      ];
      for (const [code, contentType, body, retryAfter] of answers) {
        await inject('http-error', { code, match: { verb: 'get' }, trigger: { nth: 1 } });
        const r = await call('GET', `${pods}/nothing`);
        assert.deepStrictEqual(
          [r.status, r.headers.get('content-type'), r.text, r.headers.get('retry-after')],
          [code, contentType, body, retryAfter],
          `http-error ${code}`,
        );
      }
      // Spent, each: the next GET is the real 404.
      assert.strictEqual((await call('GET', `${pods}/nothing`)).status, 404);
    });

    it('latency delays matching requests by --ms on the server clock', async () => {
      await inject('latency', {
        ms: 400,
        match: { verb: 'list', resource: 'pods' },
        trigger: { count: 1 },
      });
      const r = await kubectl(k, target(), ['get', 'pods', '-o', 'name', '-v=6']);
      assert.strictEqual(r.code, 0, r.stderr);
      const list = loggedRequests(r.stderr).find((q) => q.url.pathname === pods);
      assert.ok(list, r.stderr);
      const ms =
        /"Response" verb="GET" url="[^"]*\/pods[^"]*" status="200 OK" milliseconds=(\d+)/.exec(
          r.stderr,
        );
      assert.ok(ms && Number(ms[1]) >= 400, `the LIST took ${ms?.[1]} ms`);
    });
  });
}
