// Test harness: which real clients the server suite runs, printed once as the suite's first lines,
// and the record of the ones that ran (test-results/server-clients.json), which .ci/run reads to
// require a client-go >= 1.30. No upstream counterpart.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { testResultsDir } from '../../harness/paths';
import { findKubectls, watchListEnv, type Kubectl } from './kubectl';

/** The @kubernetes/client-node version installed (read from its package.json). */
export function clientNodeVersion(): string {
  const manifest = require.resolve('@kubernetes/client-node/package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Debian's interpreter: python3-kubernetes installs into its dist-packages, not another Python's. */
export const debianPython = '/usr/bin/python3';

/** The Kubernetes Python client's version for Debian's python3, or undefined where it is absent. */
export function pythonClientVersion(): string | undefined {
  try {
    return execFileSync(debianPython, ['-c', 'import kubernetes; print(kubernetes.__version__)'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** The record .ci/run reads: the clients whose tests ran in this run. */
export interface ClientsRecord {
  kubectl: { gitVersion: string; path: string; tests: number }[];
  clientNode: { version: string; tests: number } | null;
  python: { version: string; tests: number } | null;
}

const recordFile = (): string => path.join(testResultsDir(), 'server-clients.json');

/**
 * Per process, not per module: each suite file is a bundle of its own with its own copy of this
 * module, and the table is printed once.
 */
const shared = globalThis as { listwatchServerClients?: { record: ClientsRecord } };

/**
 * The kubectls to run, after printing (once per process) the table of every client the suite
 * runs; a version that is absent is simply not in it. Also starts this run's record afresh.
 */
export function suiteKubectls(): Kubectl[] {
  const kubectls = findKubectls();
  if (!shared.listwatchServerClients) {
    fs.rmSync(recordFile(), { force: true });
    shared.listwatchServerClients = { record: { kubectl: [], clientNode: null, python: null } };
    const python = pythonClientVersion();
    const rows = [
      ...kubectls.map((k) => [
        `kubectl ${k.gitVersion}`,
        watchListEnv(k)
          ? `WatchList ${k.minor >= 35 ? 'by default' : 'via'} ${Object.keys(watchListEnv(k) ?? {})[0]}`
          : 'no WatchList',
        k.path,
      ]),
      [`@kubernetes/client-node ${clientNodeVersion()}`, 'makeInformer', 'node_modules'],
      [
        `python3-kubernetes ${python ?? '(missing)'}`,
        'list and watch',
        python ? debianPython : 'npm run test:setup installs it',
      ],
    ];
    const w = [0, 1].map((i) => Math.max(...rows.map((r) => r[i].length)));
    console.log(
      `server suite: ${kubectls.length} kubectl version${kubectls.length === 1 ? '' : 's'} (${kubectls.map((k) => k.gitVersion).join(', ') || 'none'}), client-node ${clientNodeVersion()} and python3-kubernetes ${python ?? '(missing)'}`,
    );
    for (const r of rows) console.log(`  ${r[0].padEnd(w[0])}  ${r[1].padEnd(w[1])}  ${r[2]}`);
  }
  return kubectls;
}

function save(record: ClientsRecord): void {
  fs.writeFileSync(recordFile(), JSON.stringify(record, null, 2) + '\n');
}

/** Counts one test that ran with this kubectl. */
export function recordKubectlTest(k: Kubectl): void {
  const record = shared.listwatchServerClients?.record;
  if (!record) return;
  const row = record.kubectl.find((r) => r.gitVersion === k.gitVersion);
  if (row) row.tests++;
  else record.kubectl.push({ gitVersion: k.gitVersion, path: k.path, tests: 1 });
  save(record);
}

/** Counts one test that ran with client-node. */
export function recordClientNodeTest(): void {
  const record = shared.listwatchServerClients?.record;
  if (!record) return;
  record.clientNode ??= { version: clientNodeVersion(), tests: 0 };
  record.clientNode.tests++;
  save(record);
}

/** Counts one test that ran with the Python client. */
export function recordPythonTest(version: string): void {
  const record = shared.listwatchServerClients?.record;
  if (!record) return;
  record.python ??= { version, tests: 0 };
  record.python.tests++;
  save(record);
}
