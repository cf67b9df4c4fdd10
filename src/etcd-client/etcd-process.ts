// No upstream counterpart: starts one etcd member (Debian's etcd-server 3.4) on loopback for tests,
// benchmarks and `listwatch serve --etcd spawn`, as etcd's own integration tests start theirs: a
// fresh data directory, port 0 for peer and client listeners (the client port is read back from
// etcd's log), stopped by PID with SIGTERM, then SIGKILL after a grace period, data removed.

import { spawn, type ChildProcess } from 'child_process';
import { mkdtemp, rm } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';

export interface SpawnedEtcd {
  clientURLs: string[];
  dataDir: string;
  pid: number;
  /** SIGTERM, SIGKILL after the grace period, then the data directory is removed. Idempotent. */
  stop(): Promise<void>;
}

export interface SpawnEtcdOptions {
  /** The etcd binary (default `etcd` on PATH). */
  binary?: string;
  /** Every line etcd writes to stderr/stdout. */
  log?: (line: string) => void;
  /** Extra flags, e.g. ['--experimental-watch-progress-notify-interval=100ms']. */
  args?: string[];
  /** Member name (default `listwatch`). */
  name?: string;
  /** How long etcd may take to serve (default 30 s). */
  startTimeoutMs?: number;
  /**
   * An existing data directory (a restart of the same member): the caller owns it, stop() leaves
   * it. Default: a fresh mkdtemp directory that stop() removes.
   */
  dataDir?: string;
  /** The client port (a restart on the same URL); default 0, a free one the kernel picks. */
  clientPort?: number;
}

/** SIGTERM's grace before SIGKILL. */
export const stopGraceMs = 5000;
/** Log lines kept for the error of an etcd that exited early: the first (a flag error comes before the usage text) and the last. */
const firstLines = 5;
const lastLines = 20;

export const etcdNotFoundMessage =
  "`etcd` not found: install Debian's etcd-server (apt-get install etcd-server, or npm run test:setup)";

/**
 * The client port from one etcd log line, if it is the line that announces the client listener:
 * zap's `"msg":"serving client traffic insecurely; …","address":"127.0.0.1:NNNN"` (3.4 --logger
 * zap, 3.5+) or capnslog's `serving insecure client requests on 127.0.0.1:NNNN` (3.4's default).
 */
export function clientAddressFromLogLine(line: string): { host: string; port: number } | undefined {
  let addr: string | undefined;
  if (line.includes('serving client traffic insecurely')) {
    try {
      const j = JSON.parse(line) as { address?: unknown };
      if (typeof j.address === 'string') addr = j.address;
    } catch {
      addr = /"address":"([^"]+)"/.exec(line)?.[1];
    }
  } else {
    addr = /serving insecure client requests on (\S+?),?(?:\s|$)/.exec(line)?.[1];
  }
  const m = addr && /^(.*):(\d+)$/.exec(addr);
  return m ? { host: m[1], port: Number(m[2]) } : undefined;
}

/** Starts one etcd member on 127.0.0.1; resolves once it serves clients. */
export async function spawnEtcd(o: SpawnEtcdOptions = {}): Promise<SpawnedEtcd> {
  const ownDir = o.dataDir === undefined;
  const dataDir = o.dataDir ?? (await mkdtemp(join(tmpdir(), 'listwatch-etcd-')));
  const name = o.name ?? 'listwatch';
  const any = 'http://127.0.0.1:0';
  const client = `http://127.0.0.1:${o.clientPort ?? 0}`;
  const args = [
    `--name=${name}`,
    `--data-dir=${dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${any}`,
    `--initial-advertise-peer-urls=${any}`,
    `--initial-cluster=${name}=${any}`,
    '--logger=zap',
    '--log-outputs=stderr',
    // The gateway dials the advertised client URL (port 0 here) and would only log failures.
    '--enable-grpc-gateway=false',
    ...(o.args ?? []),
  ];
  let child: ChildProcess;
  try {
    child = spawn(o.binary ?? 'etcd', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    throw e;
  }
  const head: string[] = [];
  const tail: string[] = [];
  let skipped = 0;
  const logText = () => [...head, ...(skipped ? [`… (${skipped} lines)`] : []), ...tail].join('\n');
  let stopping: Promise<void> | undefined;
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await stopProcess(child, stopGraceMs);
      process.off('exit', killOnExit);
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    })());

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `etcd did not serve clients within ${o.startTimeoutMs ?? 30000} ms; last log lines:\n${logText()}`,
            ),
          ),
        o.startTimeoutMs ?? 30000,
      );
      const onLine = (line: string) => {
        if (head.length < firstLines) head.push(line);
        else {
          tail.push(line);
          if (tail.length > lastLines) {
            tail.shift();
            skipped++;
          }
        }
        o.log?.(line);
        const a = clientAddressFromLogLine(line);
        if (a) {
          clearTimeout(timer);
          resolve(`http://${a.host}:${a.port}`);
        }
      };
      forEachLine(child.stdout, onLine);
      forEachLine(child.stderr, onLine);
      child.once('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(e.code === 'ENOENT' ? new Error(etcdNotFoundMessage) : e);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(
            `etcd exited before serving clients (${signal ?? `exit code ${code}`}); last log lines:\n${logText()}`,
          ),
        );
      });
    });
    return { clientURLs: [url], dataDir, pid: child.pid as number, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Stops a child by PID: SIGTERM, SIGKILL once `graceMs` passed; resolves when it has exited. */
export function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Calls `fn` for every line the stream carries. */
export function forEachLine(
  stream: NodeJS.ReadableStream | null,
  fn: (line: string) => void,
): void {
  if (!stream) return;
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    rest += chunk;
    let i: number;
    while ((i = rest.indexOf('\n')) >= 0) {
      fn(rest.slice(0, i));
      rest = rest.slice(i + 1);
    }
  });
  stream.on('end', () => {
    if (rest) fn(rest);
    rest = '';
  });
}
