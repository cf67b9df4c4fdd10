// No upstream counterpart as one file: kube-apiserver's --etcd-servers (comma-separated client
// URLs), plus `spawn` (a private Debian etcd-server on loopback) and the default in-memory etcd.
import type { EtcdMember } from '../engine/etcd/etcd-member';

/** Where a server keeps its objects. */
export type EtcdChoice =
  { kind: 'memory' } | { kind: 'spawn' } | { kind: 'servers'; endpoints: string[] };

/** An etcd opened for a server: its client and what must happen when the server stops. */
export interface OpenedEtcd {
  member: EtcdMember;
  /** The client URLs (a spawned etcd's, or the ones given). */
  endpoints: string[];
  /** Stops a spawned etcd (its data directory goes with it); the client is closed by the registry. */
  stop(): Promise<void>;
}

/** `spawn`, or client URLs such as `http://127.0.0.1:2379,http://127.0.0.1:22379`. */
export function parseEtcdChoice(text: string): EtcdChoice {
  const t = text.trim();
  if (t === 'memory') return { kind: 'memory' };
  if (t === 'spawn') return { kind: 'spawn' };
  const endpoints = t.split(',').map((part, i) => etcdURL(part.trim(), i + 1));
  return { kind: 'servers', endpoints };
}

function etcdURL(part: string, position: number): string {
  const expected =
    'expected "spawn", "memory" or etcd client URLs (http://host:port, comma separated)';
  const where = `URL ${position} ${JSON.stringify(part)}`;
  let u: URL;
  try {
    u = new URL(part);
  } catch {
    throw new Error(`--etcd: ${where} is not a URL; ${expected}`);
  }
  if (u.protocol === 'https:')
    throw new Error(
      `--etcd: ${where}: etcd over TLS needs client certificates (kube-apiserver's --etcd-cafile, --etcd-certfile, --etcd-keyfile), which listwatch serve does not take; use an http:// client URL`,
    );
  if (u.protocol !== 'http:')
    throw new Error(`--etcd: ${where} has scheme ${u.protocol}; ${expected}`);
  if (u.port === '') throw new Error(`--etcd: ${where} has no port; ${expected}`);
  if ((u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || u.username)
    throw new Error(`--etcd: ${where} has more than scheme, host and port; ${expected}`);
  return `http://${u.host}`;
}

/**
 * Opens the chosen etcd: starts etcd-server for `spawn`, then connects the gRPC client, loaded only
 * now from its own chunk (dist/etcd-client.js): a server on the in-memory etcd never loads gRPC.
 * `memory` gives undefined.
 */
export async function openEtcd(
  choice: EtcdChoice,
  log?: (line: string) => void,
): Promise<OpenedEtcd | undefined> {
  if (choice.kind === 'memory') return undefined;
  const client = await import('../etcd-client');
  const spec = choice.kind === 'spawn' ? 'spawn' : choice.endpoints.join(',');
  let opened: Awaited<ReturnType<typeof client.openEtcd>>;
  try {
    opened = await client.openEtcd(spec, { log });
  } catch (e) {
    throw new EtcdOpenError(
      choice.kind === 'spawn'
        ? `--etcd spawn: ${(e as Error).message}`
        : `etcd at ${spec} does not answer: ${(e as Error).message}`,
    );
  }
  return {
    member: opened.etcd,
    endpoints: opened.clientURLs,
    stop: async () => {
      await opened.spawned?.stop();
    },
  };
}

/** The chosen etcd could not be started or reached: the message says which and why. */
export class EtcdOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EtcdOpenError';
  }
}
