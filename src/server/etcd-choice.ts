// No upstream counterpart as one file: kube-apiserver's --etcd-servers (comma-separated client
// URLs), plus `spawn` (a private Debian etcd-server on loopback) and the default in-memory etcd.
import type { EtcdMember } from '../engine';
import { membersSupportRequestWatchProgress, parseSemantic } from '../engine/http-face';

/**
 * Where a server keeps its objects. The in-memory etcd may be given a version to report to the
 * storage feature check, so that a run on it is served as one on a real etcd of that version.
 */
export type EtcdChoice =
  | { kind: 'memory'; version?: string }
  | { kind: 'spawn' }
  | { kind: 'servers'; endpoints: string[] };

/** What the storage feature check (CheckClient) found for a server's etcd members. */
export interface EtcdCheck {
  /** Each member's version (Maintenance Status), or why it could not be read. */
  members: { endpoint: string; version?: string; error?: string }[];
  /** The storage feature checker's answer for those versions (feature_support_checker.go). */
  requestWatchProgressSupported: boolean;
}

/** An etcd opened for a server: its client and what must happen when the server stops. */
export interface OpenedEtcd extends EtcdCheck {
  member: EtcdMember;
  /** The client URLs (a spawned etcd's, or the ones given). */
  endpoints: string[];
  /** Stops a spawned etcd (its data directory goes with it); the client is closed by the registry. */
  stop(): Promise<void>;
}

/** The endpoint name the in-memory etcd's reported version is listed under. */
export const memoryEndpoint = 'memory';

/** `--etcd-version`: the in-memory etcd reports `version`, checked as a real member's would be. */
export function memoryEtcdCheck(version: string): EtcdCheck {
  if (!parseSemantic(version))
    throw new Error(
      `--etcd-version expects an etcd version such as 3.4.23 or 3.6.6 (major.minor.patch), got ${JSON.stringify(version)}`,
    );
  return {
    members: [{ endpoint: memoryEndpoint, version }],
    requestWatchProgressSupported: membersSupportRequestWatchProgress([version]),
  };
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
  // require, not import(): the CLI runs its chunks from V8's code cache (src/cli/compile-cache.ts),
  // where a dynamic import() has no loader without an experimental flag.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const client = require('../etcd-client') as typeof import('../etcd-client');
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
  // CheckClient: every member's version decides whether a consistent read may trust etcd's
  // progress notifications. A member that cannot be asked counts as not supporting it (upstream
  // keeps asking in the background; here the answer is taken once, at start).
  const members = await Promise.all(
    opened.clientURLs.map(async (endpoint) => {
      try {
        return { endpoint, version: (await opened.etcd.status(endpoint)).version };
      } catch (e) {
        return { endpoint, error: (e as Error).message };
      }
    }),
  );
  const versions = members.map((m) => m.version);
  return {
    member: opened.etcd,
    endpoints: opened.clientURLs,
    stop: async () => {
      await opened.spawned?.stop();
    },
    members,
    requestWatchProgressSupported: versions.every((v) => v !== undefined)
      ? membersSupportRequestWatchProgress(versions as string[])
      : false,
  };
}

/** The log line that says what the feature check decided, in kube-apiserver's words where it has them. */
export function requestWatchProgressLine(e: EtcdCheck): string {
  const members = e.members
    .map(
      (m) =>
        `${m.endpoint} ${m.version !== undefined ? `etcd ${m.version}` : `unknown (${m.error})`}`,
    )
    .join(', ');
  if (e.requestWatchProgressSupported)
    return `RequestWatchProgress supported by every endpoint (${members})`;
  const line = `RequestWatchProgress feature is not supported (${members}; it needs etcd >= 3.4.31, and not 3.5.0-3.5.12): as in kube-apiserver, consistent LISTs are read from etcd, not the watch cache, and WatchList requests end with an error (clients fall back to LIST and WATCH)`;
  // A real etcd's run differs from a default in-memory one there: say how to get a twin.
  const version = e.members[0]?.version;
  return e.members[0]?.endpoint !== memoryEndpoint &&
    version !== undefined &&
    e.members.every((m) => m.version === version)
    ? `${line}; an in-memory run served the same way: listwatch serve --etcd-version ${version}`
    : line;
}

/** The chosen etcd could not be started or reached: the message says which and why. */
export class EtcdOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EtcdOpenError';
  }
}
