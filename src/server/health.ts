// Mirrors k8s.io/apiserver pkg/server/healthz/healthz.go (handleRootHealth, adaptCheckToHandler),
// pkg/server/storage_readiness_hook.go and the poststarthook check of pkg/server/hooks.go
// (release-1.36): /healthz, /livez, /readyz, their ?verbose and ?exclude forms and one path per
// check. The checks are those of kube-apiserver that this server has a counterpart for: ping,
// log, etcd (the in-memory etcd always answers), etcd-readiness and informer-sync (readyz only),
// poststarthook/storage-readiness (not finished until every watch cache was initialised once, as
// WatchCacheInitializationPostStartHook makes it; always finished when the gate is off) and
// shutdown (readyz only). Deliberate difference: the other post-start hooks kube-apiserver runs
// (admission, RBAC bootstrap, …) have nothing to wait for here and are not listed.
import type { Clock } from '../engine';
import type { ServedResource } from './served-resource';
import type { ServedResponse } from './served-response';

/** healthz.HealthChecker: a name and a check that returns an error while unhealthy. */
export interface HealthChecker {
  readonly name: string;
  /** A GroupedHealthChecker's group (`?exclude=<group>` excludes every check in it). */
  readonly groupName?: string;
  check(): Error | undefined;
}

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

/** StorageInitializationTimeout's default: the hook stops waiting after a minute. */
export const defaultStorageInitializationTimeoutMs = 60_000;

/** errHookNotFinished. */
const hookNotFinished = new Error('not finished');

/**
 * StorageReadinessHook as its post-start hook's health check: finished (for good) once every
 * resource's watch cache is ready, or once the timeout passed (upstream then ignores the rest).
 */
export class StorageReadinessHook implements HealthChecker {
  readonly name = 'poststarthook/storage-readiness';
  private done = false;

  constructor(
    private readonly resources: readonly ServedResource[],
    private readonly clock: Clock,
    private readonly startedAt: number,
    private readonly timeoutMs = defaultStorageInitializationTimeoutMs,
  ) {}

  check(): Error | undefined {
    if (!this.done) {
      this.done =
        // Only cachers register: a resource without a watch cache (events) has none to wait for.
        this.resources.every((r) => !r.engine.watchCacheEnabled || r.engine.cacher.isReady()) ||
        this.clock.now() - this.startedAt >= this.timeoutMs;
    }
    return this.done ? undefined : hookNotFinished;
  }
}

const ok = (): undefined => undefined;

/** The checks of each endpoint, in the order kube-apiserver lists them. */
export function kubeApiserverHealthChecks(o: {
  resources: readonly ServedResource[];
  clock: Clock;
  /** When the server started serving (the post-start hooks' start). */
  startedAt: number;
  /** True once shutdown began. */
  shuttingDown: () => boolean;
  storageInitializationTimeoutMs?: number;
}): Record<HealthEndpoint, HealthChecker[]> {
  const ping: HealthChecker = { name: 'ping', check: ok };
  const log: HealthChecker = { name: 'log', check: ok };
  const etcd: HealthChecker = { name: 'etcd', check: ok };
  // kube-apiserver adds the storage-readiness hook only with WatchCacheInitializationPostStartHook.
  const hooks = o.resources.some((r) => r.engine.gates.WatchCacheInitializationPostStartHook)
    ? [
        new StorageReadinessHook(
          o.resources,
          o.clock,
          o.startedAt,
          o.storageInitializationTimeoutMs,
        ),
      ]
    : [];
  const boot = [ping, log, etcd, ...hooks];
  return {
    healthz: boot,
    livez: boot,
    readyz: [
      ping,
      log,
      etcd,
      { name: 'etcd-readiness', groupName: 'etcd-readiness', check: ok },
      { name: 'informer-sync', check: ok },
      ...hooks,
      {
        name: 'shutdown',
        check: () => (o.shuttingDown() ? new Error('process is shutting down') : undefined),
      },
    ],
  };
}

/**
 * GET /healthz, /livez, /readyz and /<endpoint>/<check>;
 * undefined for any other path. `query` is the request's query string.
 */
export function serveHealth(
  path: string,
  query: URLSearchParams,
  checks: Record<HealthEndpoint, readonly HealthChecker[]>,
): ServedResponse | undefined {
  // The mux registers each path exactly: `/readyz/` is no health path.
  const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
  if (!m) return undefined;
  const name = m[1] as HealthEndpoint;
  const rest = m[2];
  if (rest === undefined) return handleRootHealth(name, query, checks[name]);
  const one = checks[name].find((c) => c.name === rest);
  return one ? adaptCheckToHandler(one) : undefined;
}

function handleRootHealth(
  name: HealthEndpoint,
  query: URLSearchParams,
  checks: readonly HealthChecker[],
): ServedResponse {
  const excluded = new Set(query.getAll('exclude'));
  const unknownExcluded = new Set(excluded);
  let output = '';
  let failed = false;
  for (const check of checks) {
    if (excluded.has(check.name)) {
      unknownExcluded.delete(check.name);
      output += `[+]${check.name} excluded: ok\n`;
      continue;
    }
    if (check.groupName !== undefined && excluded.has(check.groupName)) {
      unknownExcluded.delete(check.groupName);
      output += `[+]${check.name} excluded with ${check.groupName}: ok\n`;
      continue;
    }
    if (check.check()) {
      // The reason stays out of the answer: the endpoint is public.
      output += `[-]${check.name} failed: reason withheld\n`;
      failed = true;
    } else {
      output += `[+]${check.name} ok\n`;
    }
  }
  if (unknownExcluded.size > 0) {
    const names = [...unknownExcluded].sort().map((n) => JSON.stringify(n));
    output += `warn: some health checks cannot be excluded: no matches for ${names.join(',')}\n`;
  }
  // Always verbose on failure.
  if (failed) return httpError(500, `${output}${name} check failed`);
  return {
    status: 200,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
    body: query.has('verbose') ? `${output}${name} check passed\n` : 'ok',
  };
}

function adaptCheckToHandler(check: HealthChecker): ServedResponse {
  const err = check.check();
  if (err) return httpError(500, `internal server error: ${err.message}`);
  // net/http sniffs "ok" as text/plain.
  return { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'ok' };
}

/** net/http's Error: plain text, nosniff, the message and a newline. */
function httpError(status: number, message: string): ServedResponse {
  return {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
    body: `${message}\n`,
  };
}
