// `listwatch serve --etcd spawn` with real kubectl, next to `listwatch serve` on the in-memory
// etcd: the same objects written in the same order, then the same LISTs. Where etcd serves both
// (an exact resource version the watch cache no longer has, and the pages after it), every etcd
// call must be the same (key, range end, limit, revision, keys returned, count), and so must the
// continue tokens and the fetched/returned counts. Debian's etcd 3.4.23 does not support
// RequestWatchProgress (feature_support_checker.go wants 3.4.31), so kubectl's consistent LISTs,
// which the in-memory etcd's watch cache serves, are read from etcd there, as kube-apiserver
// does: the same objects, served by etcd under the rule that says why. A third server, the
// in-memory etcd reporting the spawned etcd's version (--etcd-version), is served exactly as the
// spawned one: every etcd call, token and count of every page. No upstream counterpart.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as net from 'net';
import { versionSupportsRequestWatchProgress } from '../../src/engine/etcd3/feature-support-checker';
import { findKubectls, kubectl, loggedRequests, type Kubectl } from '../server/harness/kubectl';
import { ServeProcess } from '../server/harness/serve-process';
import { sumMetric } from '../server/harness/metrics-text';
import type { RecentList } from '../../src/server/debug-state';

/** The version of the etcd `--etcd spawn` starts (Debian's etcd-server). */
const etcdVersion = /etcd Version: (\S+)/.exec(
  execFileSync('etcd', ['--version'], { encoding: 'utf8' }),
)?.[1];
const progressSupported = versionSupportsRequestWatchProgress(etcdVersion ?? '');

/** Namespaces × pods: enough for several pages and a selective label. */
const namespaces = ['apps', 'batch', 'web'];
const podsPerNamespace = 37;

/** The LISTs both servers answer, as kubectl arguments. */
const lists: string[][] = [
  ['get', 'pods', '-n', 'apps', '--chunk-size=7', '-o', 'name'],
  ['get', 'pods', '-A', '-l', 'tier=db', '--chunk-size=4', '-o', 'name'],
  ['get', 'pods', '-A', '--field-selector', 'metadata.name=pod-05', '--chunk-size=2', '-o', 'name'],
  ['get', 'pods', '-A', '--chunk-size=50', '-o', 'name'],
  ['get', 'pods', '-n', 'web', '--chunk-size=500', '-o', 'name'],
];

/** A LIST as the debug state records it, without what differs by nature (times, latencies, ids). */
function comparable(l: RecentList): unknown {
  return {
    requestLine: l.requestLine,
    servedBy: l.servedBy,
    rule: l.rule,
    fallback: l.fallback,
    fromCache: l.fromCache,
    pages: l.pages,
    returned: l.returned,
    error: l.error,
    etcdCalls: l.etcdCalls.map((c) => ({
      operation: c.operation,
      key: c.key,
      rangeEnd: c.rangeEnd,
      limit: c.limit,
      revision: c.revision,
      kvs: c.kvs,
      count: c.count,
      error: c.error,
    })),
  };
}

function refused(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port), u.hostname);
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });
}

describe('listwatch serve --etcd spawn, with real kubectl, against the in-memory etcd', function () {
  let memory: ServeProcess | undefined;
  let real: ServeProcess | undefined;
  /** The in-memory etcd reporting the spawned etcd's version. */
  let asReal: ServeProcess | undefined;
  const k: Kubectl | undefined = findKubectls().at(-1);

  before(async () => {
    assert.ok(etcdVersion, 'etcd --version printed no version');
    [memory, real, asReal] = await Promise.all([
      ServeProcess.start(['--no-namespace-controller']),
      ServeProcess.start(['--no-namespace-controller', '--etcd', 'spawn']),
      ServeProcess.start(['--no-namespace-controller', '--etcd-version', etcdVersion]),
    ]);
    for (const s of [memory, real, asReal]) {
      for (const ns of namespaces)
        await s.json('POST', '/api/v1/namespaces', 201, { metadata: { name: ns } });
      for (const ns of namespaces)
        for (let i = 0; i < podsPerNamespace; i++)
          await s.createPod(
            `pod-${String(i).padStart(2, '0')}`,
            { app: ns, tier: i % 9 === 0 ? 'db' : 'web' },
            ns,
          );
    }
  });

  after(async () => {
    const etcd = real?.info.etcd ?? [];
    assert.strictEqual(await memory?.stop(), 0);
    assert.strictEqual(await real?.stop(), 0);
    assert.strictEqual(await asReal?.stop(), 0);
    // The spawned etcd went with the server.
    for (const url of etcd) assert.ok(await refused(url), `${url} still answers`);
  });

  it('the ready line names the spawned etcd; the debug state says which etcd, its version and what it saw', async () => {
    assert.ok(real && memory);
    assert.strictEqual(real.info.etcd?.length, 1);
    assert.match(real.info.etcd[0], /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.strictEqual(memory.info.etcd, undefined);
    const [m, r] = await Promise.all([memory.state(), real.state()]);
    assert.strictEqual(m.etcd.kind, 'memory');
    assert.strictEqual(r.etcd.kind, 'grpc');
    assert.deepStrictEqual(r.etcd.endpoints, real.info.etcd);
    assert.deepStrictEqual(r.etcd.members, [{ endpoint: real.info.etcd[0], version: etcdVersion }]);
    assert.strictEqual(r.etcd.requestWatchProgressSupported, progressSupported);
    assert.ok(
      real.stderr.includes(
        progressSupported
          ? `RequestWatchProgress supported by every endpoint (${real.info.etcd[0]} etcd ${etcdVersion})`
          : `RequestWatchProgress feature is not supported (${real.info.etcd[0]} etcd ${etcdVersion}; it needs etcd >= 3.4.31`,
      ),
      real.stderr,
    );
    // The same writes in the same order: the same revision on both.
    assert.strictEqual(r.etcd.revisionSeen, m.etcd.revision);
    // The in-memory etcd given that version: checked as the real member was.
    assert.ok(asReal);
    const a = await asReal.state();
    assert.strictEqual(a.etcd.kind, 'memory');
    assert.deepStrictEqual(a.etcd.members, [{ endpoint: 'memory', version: etcdVersion }]);
    assert.strictEqual(a.etcd.requestWatchProgressSupported, progressSupported);
    assert.strictEqual(a.etcd.revision, m.etcd.revision);
    assert.ok(
      asReal.stderr.includes(
        `RequestWatchProgress ${progressSupported ? 'supported by every endpoint' : 'feature is not supported'} (memory etcd ${etcdVersion}`,
      ),
      asReal.stderr,
    );
    if (!progressSupported)
      assert.ok(
        real.stderr.includes(
          `an in-memory run served the same way: listwatch serve --etcd-version ${etcdVersion}\n`,
        ),
        real.stderr,
      );
    assert.ok(!asReal.stderr.includes('an in-memory run'), asReal.stderr);
    // The default in-memory etcd reports no version and says nothing about the check.
    assert.strictEqual(m.etcd.members, undefined);
    assert.ok(!memory.stderr.includes('RequestWatchProgress'), memory.stderr);
  });

  it('the faults that act on the model answer 409 on a real etcd', async () => {
    assert.ok(real);
    const r = await real.request('POST', '/debug/listwatch/v1/faults/etcd-latency', {
      body: { perRequestMs: 5 },
    });
    assert.strictEqual(r.status, 409, r.body);
    assert.match(
      (JSON.parse(r.body) as { message: string }).message,
      /^fault etcd-latency acts on the in-memory etcd, and this server runs on a real etcd/,
    );
  });

  it('paged LISTs at an exact resource version older than the watch cache: etcd serves both alike', async () => {
    assert.ok(k, 'no kubectl on this machine (npm run test:setup unpacks 1.20)');
    assert.ok(memory && real);
    const chain = async (s: ServeProcess, rv: number, query: string) => {
      const pages: { items: string[]; continue?: string }[] = [];
      let next: string | undefined =
        `limit=6&resourceVersion=${rv}&resourceVersionMatch=Exact${query}`;
      while (next !== undefined) {
        const out = await kubectl(k, { kubeconfig: s.info.kubeconfig, dir: s.dir }, [
          'get',
          '--raw',
          `/api/v1/pods?${next}`,
        ]);
        assert.strictEqual(out.code, 0, out.stderr);
        const list = JSON.parse(out.stdout) as {
          metadata: { continue?: string };
          items: { metadata: { namespace: string; name: string } }[];
        };
        pages.push({
          items: list.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`),
          continue: list.metadata.continue,
        });
        next = list.metadata.continue
          ? `limit=6&continue=${encodeURIComponent(list.metadata.continue)}${query}`
          : undefined;
      }
      const lists = (await s.state()).recentLists
        .filter((l) => l.resource === 'pods')
        .slice(0, pages.length)
        .reverse();
      return { pages, lists: lists.map(comparable) };
    };
    assert.ok(asReal);
    const results = [];
    for (const s of [memory, real, asReal]) {
      // The watch cache forgets its history (as a restarted one has none): an exact resource
      // version before it is read from etcd, and so are the pages after it.
      await s.fault('expire-history', { resource: 'pods' });
      const { etcd } = await s.state();
      const rv = Number(etcd[etcd.kind === 'memory' ? 'revision' : 'revisionSeen']) - 40;
      results.push({
        all: await chain(s, rv, ''),
        filtered: await chain(s, rv, '&labelSelector=tier%3Ddb'),
      });
    }
    const [m, r, a] = results;
    assert.deepStrictEqual(a, m);
    const etcdCalls = m.all.lists.flatMap((l) => (l as { etcdCalls: unknown[] }).etcdCalls);
    assert.ok(
      m.all.pages.length > 3 && etcdCalls.length >= m.all.pages.length,
      JSON.stringify(m.all),
    );
    assert.deepStrictEqual(r, m);
  });

  for (const args of lists) {
    it(`kubectl ${args.join(' ')}: the same objects, served as the etcd version allows`, async () => {
      assert.ok(k, 'no kubectl on this machine (npm run test:setup unpacks 1.20)');
      assert.ok(memory && real);
      // The storage list counters this LIST added (fetched, returned), by their metric names.
      const counters = async (s: ServeProcess) => {
        const metrics = await s.metrics();
        return ['fetched', 'returned'].map((what) =>
          sumMetric(metrics, `apiserver_storage_list_${what}_objects_total`, { resource: 'pods' }),
        );
      };
      const run = async (s: ServeProcess) => {
        const before = (await s.state()).recentLists.map((l) => l.requestId);
        const countedBefore = await counters(s);
        const out = await kubectl(k, { kubeconfig: s.info.kubeconfig, dir: s.dir }, [
          ...args,
          '-v=6',
        ]);
        assert.strictEqual(out.code, 0, out.stderr);
        const state = await s.state();
        const mine = state.recentLists
          .filter((l) => !before.includes(l.requestId) && l.resource === 'pods')
          .reverse();
        const counted = (await counters(s)).map((n, i) => n - countedBefore[i]);
        return {
          stdout: out.stdout,
          requests: loggedRequests(out.stderr).filter((q) => q.url.pathname.endsWith('/pods')),
          lists: mine,
          counted,
        };
      };
      const m = await run(memory);
      const r = await run(real);
      assert.ok(m.requests.length > 0, 'kubectl logged no pods request');
      // The in-memory etcd reporting the real one's version: every page served alike, with the
      // same etcd calls, fetched and returned counts and continue tokens.
      assert.ok(asReal);
      const a = await run(asReal);
      assert.strictEqual(a.stdout, r.stdout);
      assert.deepStrictEqual(
        a.requests.map((q) => [q.verb, q.url.pathname + q.url.search, q.status]),
        r.requests.map((q) => [q.verb, q.url.pathname + q.url.search, q.status]),
      );
      assert.deepStrictEqual(a.lists.map(comparable), r.lists.map(comparable));
      assert.deepStrictEqual(a.counted, r.counted);
      assert.strictEqual(r.stdout, m.stdout);
      assert.deepStrictEqual(
        r.requests.map((q) => [q.verb, q.url.pathname, q.url.searchParams.get('limit'), q.status]),
        m.requests.map((q) => [q.verb, q.url.pathname, q.url.searchParams.get('limit'), q.status]),
      );
      // The first page: the in-memory etcd's watch cache serves a consistent read; on etcd 3.4.23
      // etcd does, as kube-apiserver decides from the members' versions.
      assert.deepStrictEqual([m.lists[0].servedBy, m.lists[0].rule], ['cache', 'consistent-read']);
      assert.deepStrictEqual(
        [r.lists[0].servedBy, r.lists[0].rule],
        progressSupported ? ['cache', 'consistent-read'] : ['etcd', 'consistent-read-unsupported'],
      );
      if (!progressSupported)
        assert.ok(r.lists[0].etcdCalls.some((c) => c.operation === 'list' && c.kvs > 0));
      // The same objects returned in all.
      assert.strictEqual(
        r.lists.reduce((n, l) => n + (l.returned ?? 0), 0),
        m.lists.reduce((n, l) => n + (l.returned ?? 0), 0),
      );
    });
  }
});
