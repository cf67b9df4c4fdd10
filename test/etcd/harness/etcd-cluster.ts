// Test harness: a three-member etcd cluster on 127.0.0.1 (etcd's own docs, "Clustering Guide",
// static bootstrap), for the fault tests. No upstream counterpart: etcd's integration package
// (tests/framework/integration) runs members in process, which a Node test cannot.
import { spawn, execFile, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { freePort } from '../../harness/free-port';

/**
 * Raft timings. etcd's defaults (100 ms heartbeat, 1000 ms election timeout) make a leader loss
 * cost one to two seconds of waiting; 50/500 keep the ratio etcd recommends (election timeout
 * ≥ 5–10 heartbeats) on a loopback with no network latency, so a test sees several elections in
 * the time the defaults allow one. Two cores shared by several test runs: not shorter.
 */
export const heartbeatIntervalMs = 50;
export const electionTimeoutMs = 500;

export interface ClusterMemberInfo {
  name: string;
  clientURL: string;
  peerURL: string;
  dataDir: string;
}

/** One member's `etcdctl endpoint status -w json` (etcdserverpb.StatusResponse as JSON). */
export interface EndpointStatus {
  Endpoint: string;
  Status: {
    version: string;
    header: { cluster_id: number; member_id: number; revision: number; raft_term: number };
    leader: number;
    raftIndex: number;
    raftTerm: number;
  };
}

export interface EtcdClusterOptions {
  /** Members (default 3). */
  size?: number;
  binary?: string;
  etcdctl?: string;
  /** Every line a member writes (prefixed with its name). */
  log?: (line: string) => void;
}

class Member {
  process: ChildProcess | undefined;
  exited: Promise<void> = Promise.resolve();
  /** The last lines it wrote, for the error when it exits on its own. */
  tail: string[] = [];
  constructor(
    readonly info: ClusterMemberInfo,
    readonly args: string[],
  ) {}
}

/** A static three-member cluster, each with its own mkdtemp data dir and free loopback ports. */
export class EtcdCluster {
  private readonly members: Member[];
  private stopped = false;

  private constructor(
    members: Member[],
    private readonly binary: string,
    private readonly etcdctl: string,
    private readonly log: ((line: string) => void) | undefined,
  ) {
    this.members = members;
  }

  /** Starts every member and resolves once the cluster has a leader and every member is healthy. */
  static async start(o: EtcdClusterOptions = {}): Promise<EtcdCluster> {
    const size = o.size ?? 3;
    const token = `listwatch-faults-${process.pid}-${Date.now()}-${Math.floor(Math.random() * 1e9)}`;
    const infos: ClusterMemberInfo[] = [];
    for (let i = 0; i < size; i++) {
      const [client, peer] = [await freePort(), await freePort()];
      infos.push({
        name: `m${i}`,
        clientURL: `http://127.0.0.1:${client}`,
        peerURL: `http://127.0.0.1:${peer}`,
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), `listwatch-etcd-m${i}-`)),
      });
    }
    const initialCluster = infos.map((m) => `${m.name}=${m.peerURL}`).join(',');
    const members = infos.map(
      (m) =>
        new Member(m, [
          `--name=${m.name}`,
          `--data-dir=${m.dataDir}`,
          `--listen-client-urls=${m.clientURL}`,
          `--advertise-client-urls=${m.clientURL}`,
          `--listen-peer-urls=${m.peerURL}`,
          `--initial-advertise-peer-urls=${m.peerURL}`,
          `--initial-cluster=${initialCluster}`,
          '--initial-cluster-state=new',
          `--initial-cluster-token=${token}`,
          `--heartbeat-interval=${heartbeatIntervalMs}`,
          `--election-timeout=${electionTimeoutMs}`,
          '--logger=zap',
          '--log-outputs=stderr',
        ]),
    );
    const cluster = new EtcdCluster(
      members,
      o.binary ?? '/usr/bin/etcd',
      o.etcdctl ?? '/usr/bin/etcdctl',
      o.log,
    );
    try {
      for (let i = 0; i < members.length; i++) cluster.restart(i);
      await cluster.waitHealthy();
      return cluster;
    } catch (e) {
      await cluster.stop();
      throw e;
    }
  }

  /** Every member's client URL, in member order. */
  get clientURLs(): string[] {
    return this.members.map((m) => m.info.clientURL);
  }

  get size(): number {
    return this.members.length;
  }

  info(i: number): ClusterMemberInfo {
    return this.members[i].info;
  }

  pid(i: number): number | undefined {
    return this.members[i].process?.pid;
  }

  /** Whether member i's process is running (started and not exited). */
  running(i: number): boolean {
    const p = this.members[i].process;
    return p !== undefined && p.exitCode === null && p.signalCode === null;
  }

  /** Starts member i (again) on its ports and data dir: a restarted member rejoins with its WAL. */
  restart(i: number): void {
    if (this.stopped) throw new Error('etcd cluster: stopped');
    const m = this.members[i];
    if (this.running(i)) throw new Error(`etcd cluster: ${m.info.name} is running`);
    const child = spawn(this.binary, m.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    m.process = child;
    m.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        m.tail = [...m.tail, ...lines].slice(-5);
        if (this.log) for (const line of lines) this.log(`${m.info.name}: ${line}`);
      });
    }
  }

  /** SIGKILLs member i and resolves once its process is gone. */
  async kill(i: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const m = this.members[i];
    if (!this.running(i)) return;
    m.process?.kill(signal);
    await m.exited;
  }

  /** Every running member's status (members that do not answer are left out). */
  async statuses(): Promise<EndpointStatus[]> {
    return endpointStatuses(
      this.members.filter((_, i) => this.running(i)).map((m) => m.info.clientURL),
      this.etcdctl,
    );
  }

  /** The index of the member every answering member calls leader, if they agree on one. */
  async leader(): Promise<number | undefined> {
    const st = await this.statuses();
    if (st.length === 0) return undefined;
    const leaderId = st[0].Status.leader;
    if (leaderId === 0 || st.some((s) => s.Status.leader !== leaderId)) return undefined;
    const at = st.find((s) => s.Status.header.member_id === leaderId);
    if (!at) return undefined;
    return this.members.findIndex((m) => m.info.clientURL === at.Endpoint);
  }

  /**
   * Resolves with the leader's index once every running member answers and they agree on a
   * leader that is one of them (after a kill: a newly elected one). Polls; the mocha timeout
   * bounds it.
   */
  async waitHealthy(): Promise<number> {
    for (;;) {
      if (this.stopped) throw new Error('etcd cluster: stopped');
      for (let i = 0; i < this.members.length; i++) {
        const p = this.members[i].process;
        if (p && p.exitCode !== null && p.exitCode !== 0 && !p.signalCode)
          throw new Error(
            `etcd cluster: ${this.members[i].info.name} exited ${p.exitCode}; its last lines:\n${this.members[i].tail.join('\n')}`,
          );
      }
      const running = this.members.filter((_, i) => this.running(i)).length;
      const st = await this.statuses();
      if (st.length === running) {
        const l = await this.leader();
        if (l !== undefined && this.running(l)) return l;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Kills every member (by PID) and removes every data dir, whatever state the cluster is in. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(
      this.members.map(async (m, i) => {
        if (this.running(i)) {
          m.process?.kill('SIGKILL');
          await m.exited;
        }
      }),
    );
    for (const m of this.members) fs.rmSync(m.info.dataDir, { recursive: true, force: true });
  }
}

/** `etcdctl endpoint status -w json` of the given endpoints (those that answer). */
export async function endpointStatuses(
  endpoints: string[],
  etcdctl = '/usr/bin/etcdctl',
): Promise<EndpointStatus[]> {
  if (endpoints.length === 0) return [];
  // --cluster=false: only the endpoints given; a dead member makes etcdctl exit non-zero but
  // it still prints the others.
  const out = await new Promise<string>((resolve, reject) => {
    execFile(
      etcdctl,
      [
        'endpoint',
        'status',
        '-w',
        'json',
        `--endpoints=${endpoints.join(',')}`,
        '--dial-timeout=1s',
        '--command-timeout=2s',
      ],
      { env: { ...process.env, ETCDCTL_API: '3' } },
      (err, stdout) => {
        // An etcdctl that cannot run is not a member that does not answer: polling would never end.
        const code = (err as NodeJS.ErrnoException | null)?.code;
        if (code === 'ENOENT' || code === 'EACCES')
          reject(
            new Error(
              `etcd cluster: cannot run ${etcdctl} (${code}): install Debian's etcd-client (npm run test:setup)`,
            ),
          );
        else resolve(stdout);
      },
    );
  });
  try {
    return JSON.parse(out || '[]') as EndpointStatus[];
  } catch {
    return [];
  }
}
