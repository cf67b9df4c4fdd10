// No upstream counterpart: which requests a fault hits, by the attributes upstream's filters read
// from RequestInfo (verb, resource, namespace), the User-Agent and whether the watch asked for its
// initial events (a WatchList), and the replica that took it (`serve --replicas`). The admin API and the health endpoints are never matched: a fault
// must not stop the way to clear it, nor the probes that tell a server is alive.

/** A fault's matchers; an absent one matches every request. */
export interface FaultMatcher {
  /** The RequestInfo verb: get, list, watch, create, update, patch, delete, deletecollection. */
  verb?: string;
  /** `pods`, or `<plural>.<group>` (`deployments.apps`, `widgets.example.com`). */
  resource?: string;
  namespace?: string;
  /** A substring of the User-Agent header. */
  userAgent?: string;
  /** true: only WatchList requests (a watch with sendInitialEvents=true); false: only others. */
  watchList?: boolean;
  /** `serve --replicas`: the replica (1..N) that took the request; a server fault: the one it acts on. */
  replica?: number;
}

/** What a matcher reads of one request. */
export interface MatchedRequest {
  path: string;
  verb: string;
  /** `pods`, `deployments.apps`; '' for a non-resource request. */
  resource: string;
  namespace: string;
  userAgent: string;
  watchList: boolean;
  /** The replica (1..N) that took it; 1 on a server of one. */
  replica: number;
}

/** The matchers, as the admin API lists them (the CLI's flags are their kebab-case names). */
export const matcherFields: readonly {
  name: keyof FaultMatcher;
  type: 'string' | 'boolean' | 'integer';
  description: string;
  enum?: readonly string[];
}[] = [
  {
    name: 'verb',
    type: 'string',
    description: 'The request verb (RequestInfo: list, watch, get, create, …).',
    enum: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
  },
  { name: 'resource', type: 'string', description: 'pods, or <plural>.<group>.' },
  { name: 'namespace', type: 'string', description: "The request's namespace." },
  { name: 'userAgent', type: 'string', description: 'A substring of the User-Agent.' },
  {
    name: 'watchList',
    type: 'boolean',
    description: 'true: only WatchList requests (sendInitialEvents=true); false: only others.',
  },
  {
    name: 'replica',
    type: 'integer',
    description:
      'serve --replicas: the replica (1..N) that took the request; a server fault acts on that replica only.',
  },
];

/** The paths no fault touches: the admin API (/debug/listwatch/…) and /healthz, /livez, /readyz. */
export function isExemptPath(path: string): boolean {
  return (
    path.startsWith('/debug/listwatch/') ||
    /^\/(healthz|livez|readyz)(\/|$)/.test(path) ||
    path === '/debug/listwatch'
  );
}

/** Whether `m` matches `r` (an exempt path never matches). */
export function matchesRequest(m: FaultMatcher, r: MatchedRequest): boolean {
  if (isExemptPath(r.path)) return false;
  if (m.verb !== undefined && m.verb !== r.verb) return false;
  if (m.resource !== undefined && m.resource !== r.resource) return false;
  if (m.namespace !== undefined && m.namespace !== r.namespace) return false;
  if (m.userAgent !== undefined && !r.userAgent.includes(m.userAgent)) return false;
  if (m.watchList !== undefined && m.watchList !== r.watchList) return false;
  if (m.replica !== undefined && m.replica !== r.replica) return false;
  return true;
}

/**
 * The matchers of a JSON value (the admin API's `match`, a schedule's `match:`), or what is wrong
 * with it: `field` names the matcher (undefined: the value itself).
 */
export function parseFaultMatcher(
  v: unknown,
): { matcher: FaultMatcher } | { field?: string; message: string } {
  if (v === undefined || v === null) return { matcher: {} };
  if (typeof v !== 'object' || Array.isArray(v))
    return {
      message: `expected an object of matchers (${matcherFields.map((f) => f.name).join(', ')})`,
    };
  const matcher: FaultMatcher = {};
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    const field = matcherFields.find((f) => f.name === k);
    if (!field)
      return {
        field: k,
        message: `unknown matcher; expected one of ${matcherFields.map((f) => f.name).join(', ')}`,
      };
    if (field.type === 'boolean') {
      if (typeof value !== 'boolean')
        return { field: k, message: `expected true or false, got ${JSON.stringify(value)}` };
      matcher.watchList = value;
      continue;
    }
    if (field.type === 'integer') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
        return { field: k, message: `expected an integer >= 1, got ${JSON.stringify(value)}` };
      matcher.replica = value;
      continue;
    }
    if (typeof value !== 'string' || value === '')
      return { field: k, message: `expected a non-empty string, got ${JSON.stringify(value)}` };
    if (field.enum && !field.enum.includes(value))
      return {
        field: k,
        message: `expected one of ${field.enum.join(', ')}, got ${JSON.stringify(value)}`,
      };
    (matcher as Record<string, string>)[k] = value;
  }
  return { matcher };
}
