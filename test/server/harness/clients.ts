// Test harness: which real clients the server suite runs, printed once as the suite's first lines,
// and the record of the ones that ran (test-results/server-clients.json), which .ci/run reads to
// require a client-go >= 1.30. Each process (mocha's, or each worker of `mocha --parallel`) writes
// its own part; the parts are summed into the record (record-fixture.ts does it once more after the
// last worker). No upstream counterpart.
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
/** One part per process: `mocha --parallel` workers count their own tests. */
const partsDir = (): string => testResultsDir('server-clients.d');

/**
 * Set by record-fixture.ts's global setup (inherited by the workers it forks): it has already
 * removed the last run's record and parts, which a worker must not do once another has written.
 */
export const recordStartedEnv = 'LISTWATCH_SERVER_CLIENTS_RECORD_STARTED';

/** Removes the last run's record and parts. */
export function startRecord(): void {
  fs.rmSync(recordFile(), { force: true });
  fs.rmSync(partsDir(), { recursive: true, force: true });
}

/** Sums every process's part into test-results/server-clients.json. */
export function mergeRecordParts(): void {
  const merged: ClientsRecord = { kubectl: [], clientNode: null, python: null };
  const dir = partsDir();
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue;
    const part = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as ClientsRecord;
    for (const k of part.kubectl) {
      const row = merged.kubectl.find((r) => r.gitVersion === k.gitVersion);
      if (row) row.tests += k.tests;
      else merged.kubectl.push({ ...k });
    }
    for (const key of ['clientNode', 'python'] as const) {
      const got = part[key];
      if (!got) continue;
      const row = merged[key];
      if (row) row.tests += got.tests;
      else merged[key] = { ...got };
    }
  }
  // Sorted by version whichever worker ran which file first.
  merged.kubectl.sort((a, b) => versionOrder(a.gitVersion) - versionOrder(b.gitVersion));
  writeAtomically(recordFile(), JSON.stringify(merged, null, 2) + '\n');
}

/** v1.MINOR.PATCH as one number, for sorting. */
function versionOrder(gitVersion: string): number {
  const m = /^v(\d+)\.(\d+)\.(\d+)/.exec(gitVersion);
  return m ? Number(m[1]) * 1e6 + Number(m[2]) * 1e3 + Number(m[3]) : 0;
}

/** Another process reading it sees the old text or the new, never half of one. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/**
 * Per process, not per module: each suite file is a bundle of its own with its own copy of this
 * module, and the table is printed once.
 */
const shared = globalThis as { listwatchServerClients?: { record: ClientsRecord } };

/**
 * The kubectls to run, after printing (once per run) the table of every client the suite runs; a
 * version that is absent is simply not in it. Also starts this run's record afresh.
 */
export function suiteKubectls(): Kubectl[] {
  const kubectls = findKubectls();
  if (!shared.listwatchServerClients) {
    shared.listwatchServerClients = { record: { kubectl: [], clientNode: null, python: null } };
    // Under record-fixture.ts, mocha's own process printed the table and started the record.
    if (!process.env[recordStartedEnv]) {
      startRecord();
      printClientsTable(kubectls);
    }
  }
  return kubectls;
}

/** The table of every client the suite runs, as its first lines. */
export function printClientsTable(kubectls: readonly Kubectl[] = findKubectls()): void {
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

function save(record: ClientsRecord): void {
  writeAtomically(
    path.join(partsDir(), `${process.pid}.json`),
    JSON.stringify(record, null, 2) + '\n',
  );
  mergeRecordParts();
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
