// No upstream counterpart: the order and the virtual times at which a replay re-issues imported
// requests, and what each addresses (RequestInfoFactory.NewRequestInfo on its method and URL, as
// the apiserver's filters read it). Times are relative to the first request's, so the spacing of
// the log is kept; requests without a time keep their place after the previous timed one.
import type { ImportedRequest } from '../run/imported-request';
import { importedClientName } from '../run/views/client-name';
import { RequestInfoFactory, splitRequestTarget } from '../request/request-info';

/** The verbs the replay re-issues; the rest are counted as skipped. */
export type ReplayVerb = 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

const replayVerbs: ReadonlySet<string> = new Set([
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
]);

const methodOfVerb: Readonly<Record<string, string>> = {
  list: 'GET',
  watch: 'GET',
  get: 'GET',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETE',
};

/** One imported request, placed in virtual time, with what it addresses. */
export interface ScheduledRequest {
  request: ImportedRequest;
  verb: ReplayVerb;
  /** Virtual ms after the first request. */
  atMs: number;
  /** False: the log gave no time; it keeps its place after the previous timed request. */
  timed: boolean;
  group: string;
  resource: string;
  /** '' : all namespaces (or a cluster-scoped resource). */
  namespace: string;
  /** The object's name in the path ('' for a collection). */
  name: string;
  /** The raw query, without the leading '?'. */
  query: string;
  /**
   * The client, as the import report names it (importedClientName: the user agent, and the process
   * a client log names: each process is a client of its own), else the user.
   */
  client: string;
}

export interface Schedule {
  requests: ScheduledRequest[];
  skipped: Record<string, number>;
  untimed: number;
  /** The epoch ms of virtual time 0 (the first request's time; 0 when none has one). */
  originMs: number;
}

/** The key a resource is known by in a replay: `pods`, `apps/deployments`. */
export function resourceKey(group: string, resource: string): string {
  return group ? `${group}/${resource}` : resource;
}

function count(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

/** Places the requests in virtual time; what it cannot replay it counts, by reason. */
export function scheduleRequests(requests: readonly ImportedRequest[]): Schedule {
  const factory = new RequestInfoFactory();
  const skipped: Record<string, number> = {};
  // Each request's time: its own, else the previous timed one's (it keeps its order).
  let last: number | undefined;
  const placed: Array<{ r: ImportedRequest; at: number | undefined; index: number }> = [];
  let untimed = 0;
  requests.forEach((r, index) => {
    const own = r.receivedAt ?? r.completedAt;
    if (own !== undefined) last = own;
    else untimed++;
    placed.push({ r, at: own ?? last, index });
  });
  const times = placed.map((p) => p.at).filter((t): t is number => t !== undefined);
  const originMs = times.length ? Math.min(...times) : 0;
  // Stable: equal times keep the input order (requests before the first timed one come first).
  placed.sort((a, b) => (a.at ?? originMs) - (b.at ?? originMs) || a.index - b.index);
  const out: ScheduledRequest[] = [];
  for (const { r, at } of placed) {
    if (!replayVerbs.has(r.verb)) {
      count(skipped, `${r.verb || 'unknown verb'}: not replayed`);
      continue;
    }
    if (r.code !== undefined && r.code >= 400 && r.verb !== 'list' && r.verb !== 'watch') {
      // A failed write changed nothing in the real cluster.
      count(skipped, `${r.verb} failed in the log (${r.code})`);
      continue;
    }
    let info;
    try {
      info = factory.newRequestInfo(r.method ?? methodOfVerb[r.verb] ?? 'GET', r.requestURI);
    } catch {
      count(skipped, 'URL not understood');
      continue;
    }
    if (!info.isResourceRequest || info.resource === '') {
      count(skipped, 'not a resource request');
      continue;
    }
    if (info.subresource !== '') {
      count(skipped, `subresource ${info.subresource}: not replayed`);
      continue;
    }
    out.push({
      request: r,
      verb: r.verb as ReplayVerb,
      atMs: (at ?? originMs) - originMs,
      timed: (r.receivedAt ?? r.completedAt) !== undefined,
      group: info.apiGroup,
      resource: info.resource,
      namespace: info.namespace,
      // parts[1] is the path's name (a watch's metadata.name field selector is not).
      name: info.parts.length >= 2 ? info.parts[1] : (r.objectRef?.name ?? ''),
      query: splitRequestTarget(r.requestURI).rawQuery,
      client:
        importedClientName({
          userAgent: r.userAgent,
          ...(r.clientProcess !== undefined ? { process: r.clientProcess } : {}),
        }) ||
        r.user ||
        'unknown client',
    });
  }
  return { requests: out, skipped, untimed, originMs };
}
