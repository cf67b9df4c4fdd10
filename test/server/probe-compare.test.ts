// `listwatch probe --compare` (KEP-2340's troubleshooting check) run as the CLI against
// `listwatch serve`, in memory and over a real etcd (`--etcd spawn`, Debian's etcd-server): the
// cache's LIST and the Exact LIST at its resourceVersion agree, paged or in one page (--rv0), and
// the server's own record of each LIST (GET /debug/listwatch/v1/state) says who served it, which
// the report's profile column is checked against. Then with the `cache-lag` fault (the cacher's
// reflector paused while a pod is written). No fault of src/server/faults.ts makes the watch cache
// inconsistent with etcd (hold different objects at one resourceVersion): cache-lag only holds it
// back, and a lagging cache is still consistent with itself. So the lag case asserts what really
// happens, which depends on the etcd: with RequestWatchProgress (the in-memory etcd) the consistent
// LIST waits 3 s and falls back to etcd, and the Exact LIST at etcd's revision waits 3 s for the
// cache and answers 504 (not compared, exit 1); without it (etcd 3.4.23, below 3.4.31) both go to
// etcd and agree, though the cache lags. With --rv0 the stale cache and its own snapshot agree.
// No upstream counterpart.
import * as assert from 'assert';
import { execFileSync, spawn } from 'child_process';
import * as path from 'path';
import { versionSupportsRequestWatchProgress } from '../../src/engine/etcd3/feature-support-checker';
import type { CompareReport } from '../../src/probe/probe-compare-run';
import type { RecentList } from '../../src/server/debug-state';
import { projectRoot } from '../harness/paths';
import { ServeProcess } from './harness/serve-process';

/** The version of the etcd `--etcd spawn` starts. */
const spawnedEtcdVersion = /etcd Version: (\S+)/.exec(
  execFileSync('etcd', ['--version'], { encoding: 'utf8' }),
)?.[1];

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node dist/cli.js probe --compare --yes --kubeconfig K ...args`. */
function probeCompare(kubeconfig: string, args: string[]): Promise<CliRun> {
  const cli = path.join(projectRoot(), 'dist', 'cli.js');
  const child = spawn(
    process.execPath,
    [cli, 'probe', '--compare', '--yes', '--kubeconfig', kubeconfig, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function report(run: CliRun): CompareReport {
  assert.ok(run.stdout.startsWith('{'), `stdout is the JSON report: ${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout) as CompareReport;
}

const pods = 23;
const configmaps = 4;

const backings: Array<{ name: string; args: string[]; progressSupported: boolean }> = [
  { name: 'in memory', args: [], progressSupported: true },
  {
    name: `over etcd ${spawnedEtcdVersion} (--etcd spawn)`,
    args: ['--etcd', 'spawn'],
    progressSupported: versionSupportsRequestWatchProgress(spawnedEtcdVersion ?? ''),
  },
];

for (const backing of backings)
  describe(`listwatch probe --compare against listwatch serve ${backing.name}`, function () {
    let server: ServeProcess;

    before(async () => {
      server = await ServeProcess.start([
        '--seed',
        `pods=${pods},configmaps=${configmaps}`,
        ...backing.args,
      ]);
    });
    after(async () => {
      await server?.stop();
    });

    /** The probe's LISTs as the server recorded them, oldest first. */
    async function probeLists(): Promise<RecentList[]> {
      const state = await server.state();
      return state.recentLists.filter((l) => l.userAgent?.startsWith('listwatch-probe')).reverse();
    }

    it('paged by 5: the cache LIST and the Exact LIST agree item by item (exit 0)', async () => {
      const run = await probeCompare(server.info.kubeconfig, [
        '--resource',
        'pods',
        '--resource',
        'cm',
        '--namespace',
        'default',
        '--limit',
        '5',
        '--json',
      ]);
      assert.strictEqual(run.code, 0, run.stderr);
      const r = report(run);
      assert.deepStrictEqual(
        r.resources.map((x) => [x.resource, x.outcome, x.same, x.differences.length]),
        [
          ['pods', 'same', pods, 0],
          ['configmaps', 'same', configmaps, 0],
        ],
      );
      const p = r.resources[0];
      assert.strictEqual(p.cache.pages, 5);
      assert.strictEqual(p.exact?.pages, 5);
      assert.strictEqual(
        p.exact?.request,
        `${p.path}?limit=5&resourceVersion=${p.resourceVersion}&resourceVersionMatch=Exact`,
      );
      // Progress on stderr, with the total from remainingItemCount.
      assert.match(
        run.stderr,
        new RegExp(`pods: cache ${pods}/${pods} items, Exact ${pods}/${pods} items`),
      );
      // The profile (release-1.36, a healthy cache assumed): the consistent read from the cache,
      // the Exact LIST and every continue page from a snapshot.
      assert.deepStrictEqual(
        [p.cache.servedBy, p.cache.continueServedBy, p.exact?.servedBy, p.exact?.continueServedBy],
        ['cache', 'cache-snapshot', 'cache-snapshot', 'cache-snapshot'],
      );
      // What the server did: the first page of each side as its delegator decided it.
      const lists = (await probeLists()).filter((l) => l.resource === 'pods');
      const first = lists.find((l) => l.resourceVersion === '' && l.limit === 5);
      const exact = lists.find((l) => l.resourceVersionMatch === 'Exact');
      assert.deepStrictEqual(
        [first?.servedBy, first?.rule],
        backing.progressSupported
          ? ['cache', 'consistent-read']
          : // etcd below 3.4.31: no RequestWatchProgress, so the profile's assumption fails and
            // the consistent read goes to etcd, as kube-apiserver does.
            ['etcd', 'consistent-read-unsupported'],
      );
      assert.deepStrictEqual(
        [exact?.servedBy, exact?.rule],
        backing.progressSupported
          ? ['cache', 'snapshot-available']
          : // Without progress notifications the pods cache's RV moves only with pod events, so
            // etcd's revision (the configmaps were written after the pods) is newer than the
            // cache: the Exact LIST goes to etcd too, and etcd is compared with itself.
            ['etcd', 'future-rv-unsupported'],
      );
    });

    it('--rv0: the whole cache in one page (limit ignored) against the Exact pages: the same', async () => {
      const run = await probeCompare(server.info.kubeconfig, [
        '--resource',
        'pods',
        '--rv0',
        '--limit',
        '10',
        '--json',
      ]);
      assert.strictEqual(run.code, 0, run.stderr);
      const p = report(run).resources[0];
      assert.deepStrictEqual(
        [p.outcome, p.same, p.cache.pages, p.exact?.pages, p.cache.servedBy, p.exact?.servedBy],
        ['same', pods, 1, 3, 'cache', 'cache-snapshot'],
      );
    });

    it('the text report: a line per resource, who served each side, the snapshot note', async () => {
      const run = await probeCompare(server.info.kubeconfig, [
        '--resource',
        'pods',
        '--limit',
        '50',
      ]);
      assert.strictEqual(run.code, 0, run.stderr);
      const lines = run.stdout.split('\n');
      assert.match(lines[0], /^pods: the same at resourceVersion \d+: 23 items alike/);
      assert.match(
        lines[1],
        /^ {2}cache: GET \/api\/v1\/pods\?limit=50: 1 page, 23 items in \d+ ms; profile release-1\.36: the watch cache \(consistent read/,
      );
      assert.match(
        lines[2],
        /^ {2}Exact: GET \/api\/v1\/pods\?limit=50&resourceVersion=\d+&resourceVersionMatch=Exact: 1 page, 23 items .*a watch-cache snapshot/,
      );
      assert.ok(
        run.stdout.includes(
          'not etcd: they compare the cache with its own snapshot at that resourceVersion',
        ),
        run.stdout,
      );
      // The plan goes to stderr before anything is sent; progress there names no verdict twice.
      assert.match(run.stderr, /^The probe will read \(GET only, never write\)/);
      assert.match(run.stderr, /listwatch probe: pods: the same \(1 of 1 resource compared\)/);
      assert.strictEqual(
        (run.stdout + run.stderr).split('items alike').length - 1,
        1,
        `the verdict is said once:\n${run.stdout}\n${run.stderr}`,
      );
    });

    it('cache-lag (no fault makes the cache inconsistent): what really happens to each LIST', async () => {
      await server.fault('cache-lag', { seconds: 60, resource: 'pods' });
      const written = await server.createPod('written-while-lagging');
      const etcdRV = written.metadata.resourceVersion!;

      // --rv0: the lagging cache answers at once, without the new pod, at its own older RV; the
      // Exact LIST at that RV is its snapshot: the same (a stale cache, consistent with itself).
      const any = report(
        await probeCompare(server.info.kubeconfig, ['--resource', 'pods', '--rv0', '--json']),
      ).resources[0];
      assert.strictEqual(any.outcome, 'same');
      assert.strictEqual(any.same, pods);
      assert.ok(Number(any.resourceVersion) < Number(etcdRV), `${any.resourceVersion} < ${etcdRV}`);

      // The consistent LIST (resourceVersion "").
      const run = await probeCompare(server.info.kubeconfig, ['--resource', 'pods', '--json']);
      const p = report(run).resources[0];
      // Served at etcd's revision with the new pod in either case: by etcd after the cache's 3 s
      // wait (fallback), or by etcd at once (no RequestWatchProgress).
      assert.strictEqual(p.resourceVersion, etcdRV);
      assert.strictEqual(p.cache.items, pods + 1);
      const lists = (await probeLists()).filter((l) => l.resource === 'pods');
      const exact = lists.filter((l) => l.resourceVersionMatch === 'Exact').at(-1);
      const first = lists.filter((l) => l.resourceVersion === '' && l.limit === 500).at(-1);
      assert.deepStrictEqual(
        [first?.servedBy, first?.rule, first?.fallback],
        backing.progressSupported
          ? ['etcd', 'consistent-read', 'true']
          : ['etcd', 'consistent-read-unsupported', undefined],
      );
      if (backing.progressSupported) {
        // The Exact LIST at etcd's revision waits for the cache (3 s, blockTimeout) and answers
        // 504, as upstream's waitUntilFreshAndBlock does: not compared, exit 1, said as a lag.
        assert.strictEqual(run.code, 1, run.stderr);
        assert.strictEqual(p.outcome, 'error');
        assert.strictEqual(p.exact?.error?.code, 504);
        assert.strictEqual(
          p.exact?.error?.message,
          `Timeout: Too large resource version: ${etcdRV}, current: ${any.resourceVersion}`,
        );
        assert.ok(p.exact!.ms >= 3000, `the Exact LIST waited ${p.exact!.ms} ms`);
        assert.match(p.meaning ?? '', /^the watch cache is behind etcd/);
        assert.strictEqual(exact?.rule, 'future-rv');
      } else {
        // Without RequestWatchProgress the Exact LIST at an RV newer than the cache goes to etcd
        // too: both from etcd, the same, though the cache lags (exit 0).
        assert.strictEqual(run.code, 0, run.stderr);
        assert.deepStrictEqual([p.outcome, p.same], ['same', pods + 1]);
        assert.deepStrictEqual([exact?.servedBy, exact?.rule], ['etcd', 'future-rv-unsupported']);
      }
    });

    // Where the LISTs wait for the lagging cache (the fault above is still in force), Ctrl-C
    // stops the probe in the middle of a request.
    if (backing.progressSupported)
      it('Ctrl-C while a LIST waits for the lagging cache: stopped, exit 130', async () => {
        const cli = path.join(projectRoot(), 'dist', 'cli.js');
        const child = spawn(
          process.execPath,
          [
            cli,
            'probe',
            '--compare',
            '--yes',
            '--kubeconfig',
            server.info.kubeconfig,
            '--resource',
            'pods',
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stderr = '';
        let sent = false;
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          // The plan is printed (synchronously, to a pipe) just before the SIGINT handler is set
          // and the first request sent; the LIST then waits 3 s for the lagging cache.
          if (!sent && stderr.includes('Credential:')) {
            sent = true;
            child.kill('SIGINT');
          }
        });
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        assert.strictEqual(code, 130, stderr);
        // Stopped while the first LIST waited (or, had the signal come first, before it was sent).
        assert.match(
          stderr,
          /listwatch probe: stopped \(Ctrl-C\)(; nothing compared is reported)?\n$/,
        );
      });
  });
