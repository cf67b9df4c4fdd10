// Test harness: every kubectl on the machine (Debian's kubernetes-client 1.20 and the kubectl
// 1.34/1.35 layers unpacked by `npm run test:setup`, the image's versioned kubectl.1.NN), run against a `listwatch serve`
// kubeconfig, and the requests their `-v=6` logs record. No upstream counterpart.
import { execFileSync, spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { projectRoot } from '../../harness/paths';

export interface Kubectl {
  path: string;
  /** `v1.33.1`. */
  gitVersion: string;
  major: number;
  minor: number;
}

/** Folders the image's kubectl package puts its versioned binaries in, besides those on PATH. */
const knownBinDirs = ['/usr/lib/google-cloud-sdk/bin', '/usr/bin'];

/**
 * The candidate binaries: the unpacked 1.20 and 1.34/1.35, then every `kubectl.1.NN` on PATH and in the image's
 * folders, then `LISTWATCH_KUBECTLS` (colon-separated paths, for a machine with kubectls elsewhere).
 * The plain `kubectl` on PATH is left out: on this image it is a dispatcher that writes a cache
 * under ~/.kube and runs one of the versioned binaries anyway.
 */
function candidates(): string[] {
  const found = [
    path.join(projectRoot(), '.vscode-test', 'kubernetes-client', 'usr', 'bin', 'kubectl'),
    ...['v34', 'v35'].map((v) =>
      path.join(projectRoot(), '.vscode-test', `kubectl-layer-${v}`, 'kubectl', 'kubectl'),
    ),
  ];
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), ...knownBinDirs];
  for (const dir of new Set(dirs.filter((d) => d !== ''))) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names.filter((n) => /^kubectl\.1\.\d+$/.test(n)).sort()) {
      found.push(path.join(dir, n));
    }
  }
  for (const p of (process.env.LISTWATCH_KUBECTLS ?? '').split(':')) if (p !== '') found.push(p);
  return found;
}

let discovered: Kubectl[] | undefined;

/** Every distinct kubectl version on the machine, oldest first (asked `version --client -o json`). */
export function findKubectls(): Kubectl[] {
  if (discovered) return discovered;
  const byVersion = new Map<string, Kubectl>();
  for (const p of candidates()) {
    if (!fs.existsSync(p)) continue;
    const real = fs.realpathSync(p);
    let out: string;
    try {
      out = execFileSync(real, ['version', '--client', '-o', 'json'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      continue;
    }
    const v = (JSON.parse(out) as { clientVersion: { gitVersion: string } }).clientVersion;
    const m = /^v(\d+)\.(\d+)\./.exec(v.gitVersion);
    if (!m || byVersion.has(v.gitVersion)) continue;
    byVersion.set(v.gitVersion, {
      path: real,
      gitVersion: v.gitVersion,
      major: Number(m[1]),
      minor: Number(m[2]),
    });
  }
  discovered = [...byVersion.values()].sort((a, b) => a.major - b.major || a.minor - b.minor);
  return discovered;
}

/**
 * The environment that turns on client-go's WatchList in the reflector (`kubectl wait` and every
 * informer), per version, or undefined where it does not exist. client-go 1.27 to 1.30 read
 * ENABLE_CLIENT_GO_WATCH_LIST_ALPHA (tools/cache/reflector.go); from 1.31 the env-var feature gates
 * read KUBE_FEATURE_WatchListClient (features/envvar.go). Both wait for the
 * `k8s.io/initial-events-end` bookmark. Seen with the binaries: each one sends
 * `sendInitialEvents=true` with its own variable and not with the other.
 */
export function watchListEnv(k: Kubectl): Record<string, string> | undefined {
  if (k.major !== 1 || k.minor < 27) return undefined;
  return k.minor <= 30
    ? { ENABLE_CLIENT_GO_WATCH_LIST_ALPHA: 'true' }
    : { KUBE_FEATURE_WatchListClient: 'true' };
}

/**
 * What `kubectl delete` prints for a namespaced object: from 1.34 it names the namespace
 * (`pod "x" deleted from default namespace`), before it did not.
 */
export function deletedLine(k: Kubectl, object: string, namespace: string): string {
  return k.major === 1 && k.minor >= 34
    ? `${object} deleted from ${namespace} namespace\n`
    : `${object} deleted\n`;
}

/**
 * The environment that keeps client-go's reflector on LIST then WATCH: from 1.35 WatchList is on by
 * default (features/known_features.go: WatchListClient Beta, default true), so it is turned off.
 */
export function listThenWatchEnv(k: Kubectl): Record<string, string> {
  return k.major === 1 && k.minor >= 35 ? { KUBE_FEATURE_WatchListClient: 'false' } : {};
}

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where a kubectl run against one server keeps its discovery cache and HOME. */
export interface KubectlTarget {
  kubeconfig: string;
  /** A folder of the suite's own. */
  dir: string;
}

function kubectlArgs(k: Kubectl, target: KubectlTarget, args: readonly string[]): string[] {
  return [
    '--kubeconfig',
    target.kubeconfig,
    '--cache-dir',
    path.join(target.dir, `kube-cache-${k.gitVersion}`),
    ...args,
  ];
}

function kubectlEnv(target: KubectlTarget, env: Record<string, string>): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, HOME: target.dir, ...env };
  // The kubeconfig given is the only one read.
  delete e.KUBECONFIG;
  return e;
}

/** A running kubectl: its output so far, waits on it, and a kill by PID. */
export class KubectlProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<KubectlResult>;
  private readonly child: ChildProcess;
  private waiters: (() => void)[] = [];

  constructor(
    k: Kubectl,
    target: KubectlTarget,
    args: readonly string[],
    env: Record<string, string>,
  ) {
    this.child = spawn(k.path, kubectlArgs(k, target, args), {
      env: kubectlEnv(target, env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const wake = (): void => {
      for (const w of this.waiters) w();
    };
    this.child.stdout?.on('data', (d: Buffer) => {
      this.stdout += d.toString();
      wake();
    });
    this.child.stderr?.on('data', (d: Buffer) => {
      this.stderr += d.toString();
      wake();
    });
    this.exited = new Promise((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('close', (code) => {
        wake();
        resolve({ code, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Resolves once `test` holds for the output so far; rejects when kubectl exits first. No time
   * limit of its own: mocha's test timeout fails a hung wait.
   */
  until(test: (p: KubectlProcess) => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (test(this)) {
          this.waiters = this.waiters.filter((w) => w !== check);
          resolve();
        } else if (!this.running) {
          this.waiters = this.waiters.filter((w) => w !== check);
          reject(
            new Error(
              `kubectl exited (${this.child.exitCode ?? this.child.signalCode}) before ${what}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
            ),
          );
        }
      };
      this.waiters.push(check);
      check();
    });
  }

  /** SIGTERM by PID; resolves with what it printed. */
  async kill(): Promise<KubectlResult> {
    if (this.running && this.child.pid !== undefined) process.kill(this.child.pid, 'SIGTERM');
    return this.exited;
  }
}

export function startKubectl(
  k: Kubectl,
  target: KubectlTarget,
  args: readonly string[],
  env: Record<string, string> = {},
): KubectlProcess {
  return new KubectlProcess(k, target, args, env);
}

/** Runs kubectl to its exit. */
export function kubectl(
  k: Kubectl,
  target: KubectlTarget,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<KubectlResult> {
  return startKubectl(k, target, args, env).exited;
}

/** One request a `-v=6` (or higher) log records, with the status its response had. */
export interface LoggedRequest {
  verb: string;
  url: URL;
  status: number;
}

/**
 * The requests in a kubectl log, in order: up to 1.32 `round_trippers.go:NNN] GET <url> 200 OK in
 * N milliseconds`, from 1.33 `"Response" verb="GET" url="<url>" status="200 OK" milliseconds=N`.
 * A watch is logged once its response headers arrive.
 */
export function loggedRequests(stderr: string): LoggedRequest[] {
  const out: LoggedRequest[] = [];
  const re =
    /round_trippers\.go:\d+\] ([A-Z]+) (\S+) (\d{3}) |"Response" verb="([A-Z]+)" url="([^"]+)" status="(\d{3})/g;
  for (let m = re.exec(stderr); m; m = re.exec(stderr)) {
    out.push({
      verb: m[1] ?? m[4],
      url: new URL(m[2] ?? m[5]),
      status: Number(m[3] ?? m[6]),
    });
  }
  return out;
}

/** The logged requests for one resource collection path (`/api/v1/namespaces/default/pods`), query and all. */
export function requestsTo(stderr: string, collection: string): LoggedRequest[] {
  return loggedRequests(stderr).filter((r) => r.url.pathname === collection);
}
