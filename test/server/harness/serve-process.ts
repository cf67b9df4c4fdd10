// Test harness: `listwatch serve --json --port 0` as a child process, one per suite, and a small
// authenticated HTTP client for its API (fixtures, /metrics, the debug state and the faults).
// No upstream counterpart: upstream's integration tests start kube-apiserver in process.
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import type { DebugStateView } from '../../../src/server/debug-state';
import { projectRoot } from '../../harness/paths';
import { parseMetrics, type MetricSample } from './metrics-text';

/** The first stdout line of `listwatch serve --json`, printed once it serves. */
export interface ServeInfo {
  url: string;
  kubeconfig: string;
  token: string;
  /** A real etcd's client URLs (`--etcd`). */
  etcd?: string[];
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** How long the server may take to print its first line before the suite fails (not a limit on speed). */
const startTimeoutMs = 60_000;
/** How long it may take to exit after SIGTERM before it is killed and the stop fails. */
const stopTimeoutMs = 30_000;

export class ServeProcess {
  private stderrText = '';
  private exited: Promise<number | null>;
  private exitCode: number | null | undefined;
  /** Trusted certificate authority from the kubeconfig (an https server). */
  private readonly ca: string | undefined;
  private readonly insecure: boolean;
  /** The kubeconfig context's namespace (kubectl's default): `default` unless it names one. */
  readonly namespace: string;

  private constructor(
    private readonly child: ChildProcess,
    readonly info: ServeInfo,
    /** A folder of this suite's own (kubeconfig, kubectl caches, manifests); removed by stop(). */
    readonly dir: string,
    stderrSoFar: string,
    exited: Promise<number | null>,
  ) {
    this.stderrText = stderrSoFar;
    child.stderr?.on('data', (d: Buffer) => (this.stderrText += d.toString()));
    this.exited = exited.then((code) => (this.exitCode = code));
    const cluster = readCluster(info.kubeconfig);
    this.ca = cluster.ca;
    this.insecure = cluster.insecure;
    this.namespace = cluster.namespace;
  }

  /** Starts `node dist/cli.js serve --json --port 0 --kubeconfig <tmp> ...args`. */
  static async start(args: readonly string[] = []): Promise<ServeProcess> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-serve-test-'));
    const cli = path.join(projectRoot(), 'dist', 'cli.js');
    if (!fs.existsSync(cli)) throw new Error(`${cli} not built: run \`node esbuild.js\` first`);
    const argv = [
      cli,
      'serve',
      '--json',
      '--port',
      '0',
      '--kubeconfig',
      path.join(dir, 'kubeconfig'),
      ...args,
    ];
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const onStderr = (d: Buffer): void => void (stderr += d.toString());
    child.stderr.on('data', onStderr);
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const info = await new Promise<ServeInfo>((resolve, reject) => {
      let stdout = '';
      const fail = (why: string): void => {
        child.kill('SIGKILL');
        reject(new Error(`listwatch serve ${why}\nargv: ${argv.join(' ')}\nstderr:\n${stderr}`));
      };
      const timer = setTimeout(
        () => fail(`printed no first line in ${startTimeoutMs / 1000} s`),
        startTimeoutMs,
      );
      const onData = (d: Buffer): void => {
        stdout += d.toString();
        const nl = stdout.indexOf('\n');
        if (nl < 0) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.off('exit', onExit);
        // The rest of stdout is not ours to read, but it must be drained.
        child.stdout.resume();
        try {
          const parsed = JSON.parse(stdout.slice(0, nl)) as Partial<ServeInfo>;
          if (typeof parsed.url !== 'string' || typeof parsed.kubeconfig !== 'string') {
            throw new Error('no url or kubeconfig');
          }
          resolve(parsed as ServeInfo);
        } catch (e) {
          fail(`printed a first line that is not {"url","kubeconfig","token"} (${e}): ${stdout}`);
        }
      };
      const onExit = (code: number | null): void => {
        clearTimeout(timer);
        reject(new Error(`listwatch serve exited (${code}) before serving\nstderr:\n${stderr}`));
      };
      child.stdout.on('data', onData);
      child.on('exit', onExit);
    });
    child.stderr.off('data', onStderr);
    return new ServeProcess(child, info, dir, stderr, exited);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** What the server wrote to stderr so far. */
  get stderr(): string {
    return this.stderrText;
  }

  /**
   * SIGTERM by PID, then waits for the exit (SIGKILL after a generous wait) and removes the
   * suite's folder. Returns the exit code (0: it closed every watch and exited as upstream does).
   */
  async stop(): Promise<number | null> {
    if (this.exitCode === undefined) {
      process.kill(this.pid, 'SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), stopTimeoutMs);
      await this.exited;
      clearTimeout(timer);
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
    return this.exitCode ?? null;
  }

  /** One request with the bearer token (unless `token: null`); the body is sent as JSON. */
  request(
    method: string,
    urlPath: string,
    o: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
  ): Promise<HttpResponse> {
    const url = new URL(urlPath, this.info.url);
    const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
    const token = o.token === undefined ? this.info.token : o.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (o.body !== undefined) {
      payload = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = mod.request(
        url,
        { method, headers, ca: this.ca, rejectUnauthorized: !this.insecure },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A request whose answer must have `status`; returns the parsed JSON body. */
  async json<T = Record<string, unknown>>(
    method: string,
    urlPath: string,
    status: number,
    body?: unknown,
  ): Promise<T> {
    const r = await this.request(method, urlPath, { body });
    if (r.status !== status) {
      throw new Error(`${method} ${urlPath}: ${r.status}, expected ${status}: ${r.body}`);
    }
    return JSON.parse(r.body) as T;
  }

  /** POST /api/v1/namespaces/<ns>/pods with a minimal pod; returns the created object. */
  createPod(
    name: string,
    labels: Record<string, string> = {},
    namespace = this.namespace,
  ): Promise<PodObject> {
    return this.json<PodObject>('POST', `/api/v1/namespaces/${namespace}/pods`, 201, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels },
      spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] },
    });
  }

  /** GET /metrics, parsed. */
  async metrics(): Promise<MetricSample[]> {
    const r = await this.request('GET', '/metrics', { headers: { Accept: 'text/plain' } });
    if (r.status !== 200) throw new Error(`GET /metrics: ${r.status}: ${r.body}`);
    return parseMetrics(r.body);
  }

  /** GET /debug/listwatch/v1/state: the engine's live view. */
  state(): Promise<DebugStateView> {
    return this.json<DebugStateView>('GET', '/debug/listwatch/v1/state', 200);
  }

  /** POST /debug/listwatch/v1/faults/<name> with a JSON body. */
  fault<T = Record<string, unknown>>(name: string, body: unknown = {}): Promise<T> {
    return this.json<T>('POST', `/debug/listwatch/v1/faults/${name}`, 200, body);
  }
}

export interface PodObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
  };
}

/** The current context's namespace, and its cluster's certificate authority and insecure-skip-tls-verify. */
function readCluster(kubeconfig: string): { ca?: string; insecure: boolean; namespace: string } {
  interface Kubeconfig {
    'current-context'?: string;
    contexts?: { name: string; context: { cluster: string; namespace?: string } }[];
    clusters?: {
      name: string;
      cluster: {
        'certificate-authority-data'?: string;
        'certificate-authority'?: string;
        'insecure-skip-tls-verify'?: boolean;
      };
    }[];
  }
  const config = yaml.load(fs.readFileSync(kubeconfig, 'utf8')) as Kubeconfig;
  const context = config.contexts?.find((c) => c.name === config['current-context']);
  const cluster = config.clusters?.find((c) => c.name === context?.context.cluster)?.cluster;
  if (!cluster) throw new Error(`${kubeconfig}: no cluster for its current context`);
  const data = cluster['certificate-authority-data'];
  const file = cluster['certificate-authority'];
  const ca =
    data !== undefined
      ? Buffer.from(data, 'base64').toString()
      : file !== undefined
        ? fs.readFileSync(file, 'utf8')
        : undefined;
  return {
    ca,
    insecure: cluster['insecure-skip-tls-verify'] === true,
    namespace: context?.context.namespace ?? 'default',
  };
}

/** The query of a request line (`GET /api/v1/…?labelSelector=…`) the debug state reports. */
export function requestQuery(requestLine: string | undefined): URLSearchParams {
  const target = requestLine?.split(' ')[1] ?? '';
  return new URL(target, 'http://request.line').searchParams;
}
