// No upstream counterpart: `listwatch probe --compare`, KEP-2340's troubleshooting procedure
// ("Consistent Reads from Cache", Troubleshooting) run against a real cluster, per resource: a
// LIST the watch cache serves (resourceVersion "" — a consistent read — or "0"), then the same
// LIST with resourceVersion=<its RV>&resourceVersionMatch=Exact, both paged with limit/continue in
// step, compared item by item (cache-etcd-compare.ts), with what the profile says served each
// (compare-served-by.ts). Every request is a GET.
import type { SemanticsProfile } from '../engine';
import { visibleText } from '../format/visible-text';
import { plural } from '../format/count-text';
import type { ClientError } from '../run/trace/trace-format';
import {
  CacheEtcdComparison,
  differenceText,
  type CompareSide,
  type ItemDifference,
} from './cache-etcd-compare';
import {
  clusterGet,
  connect,
  shownHeaders,
  baseHeaders,
  type ClusterConnection,
} from './cluster-connection';
import { errorMessage, statusOfBody } from './cluster-status';
import {
  servedByProfile,
  servedByText,
  profileAssumption,
  type ServedBy,
} from './compare-served-by';
import type { CompareResource } from './compare-resource';
import type { ClusterTarget } from './kubeconfig-target';
import { ProbeError } from './probe-error';

/** The page size when none is given: what client-go's reflector and kubectl ask for. */
export const defaultCompareLimit = 500;

export interface CompareOptions {
  resources: CompareResource[];
  /** The page size of both lists. */
  limit: number;
  /** The cache's LIST: a consistent read (resourceVersion "") or Any (resourceVersion "0"). */
  cacheResourceVersion: '' | '0';
  profile: SemanticsProfile;
}

/** One side of one resource's comparison. */
export interface CompareListReport {
  /** The first page's request (path and query). */
  request: string;
  pages: number;
  items: number;
  /** Time spent on this side's pages, in ms (an Exact list that waits for the cache shows it). */
  ms: number;
  /** What the profile says serves the first page, then the continue pages. */
  servedBy: ServedBy;
  rule: string;
  continueServedBy?: ServedBy;
  /** The side answered an error (the comparison stopped there). */
  error?: ClientError;
}

export type CompareOutcome = 'same' | 'differ' | 'error';

export interface ResourceComparison {
  resource: string;
  path: string;
  /** The RV the cache's LIST answered: where the Exact LIST reads. */
  resourceVersion: string;
  cache: CompareListReport;
  exact?: CompareListReport;
  outcome: CompareOutcome;
  same: number;
  differences: ItemDifference[];
  differencesNotListed: number;
  /** What an error answer means here, in words. */
  meaning?: string;
}

export interface CompareReport {
  server: string;
  context: string;
  profile: string;
  assumption: string;
  resources: ResourceComparison[];
  same: number;
  differ: number;
  errors: number;
}

/** Progress lines (the CLI writes them to stderr). */
export type CompareProgress = (line: string) => void;

/**
 * A page's query. A continue page sends limit and continue only: its token carries the RV, and
 * ValidateListOptions forbids resourceVersionMatch with continue (and an RV other than "0").
 */
function query(
  o: { limit: number; resourceVersion?: string; exact?: boolean },
  token?: string,
): string {
  if (token) return `limit=${o.limit}&continue=${encodeURIComponent(token)}`;
  const pairs = [`limit=${o.limit}`];
  if (o.resourceVersion) pairs.push(`resourceVersion=${encodeURIComponent(o.resourceVersion)}`);
  if (o.exact) pairs.push('resourceVersionMatch=Exact');
  return pairs.join('&');
}

/** What the probe will send, before anything is sent or run. */
export function describeCompare(t: ClusterTarget, o: CompareOptions): string[] {
  const lines = [
    `The probe will read (GET only, never write) from cluster "${t.cluster}" at ${t.server}`,
    `  kubeconfig ${t.kubeconfig}, context "${t.context}", user "${t.user}"`,
    `For each resource, KEP-2340's check: a LIST the watch cache serves, the same LIST at its resourceVersion with resourceVersionMatch=Exact, compared item by item (profile ${o.profile.name}):`,
  ];
  for (const r of o.resources) {
    const c = servedByProfile(o.profile, r.watchCache, {
      resourceVersion: o.cacheResourceVersion,
      limit: o.limit,
    });
    const e = servedByProfile(o.profile, r.watchCache, {
      resourceVersion: '1',
      resourceVersionMatch: 'Exact',
      limit: o.limit,
    });
    lines.push(
      `GET ${t.server}${r.path}?${query({ limit: o.limit, resourceVersion: o.cacheResourceVersion })}  (${servedByText(c.servedBy)})`,
      `GET ${t.server}${r.path}?limit=${o.limit}&resourceVersion=<the first LIST's resourceVersion>&resourceVersionMatch=Exact  (${servedByText(e.servedBy)})`,
    );
  }
  lines.push(
    `then, for each, GET ${t.server}<its path>?limit=${o.limit}&continue=<the previous page's continue token>  (while a page has one)`,
    'Headers:',
    ...shownHeaders(baseHeaders('application/json')).map((h) => `  ${h}`),
    `  Authorization: ${t.credential.authorization ?? (t.credential.exec ? "<from the exec plugin's ExecCredential, redacted>" : '(none)')}`,
    `TLS: ${t.tls}`,
    'Credential:',
    ...t.credential.lines.map((l) => `  ${l}`),
  );
  return lines.map((l) => visibleText(l));
}

/** One side's paging state. */
interface SideState {
  side: CompareSide;
  report: CompareListReport;
  token?: string;
  done: boolean;
  total?: number;
}

/** What an error answer to one side means for the comparison. */
function meaningOf(side: CompareSide, e: ClientError, rv: string): string {
  if (side === 'exact' && e.code === 504)
    return `the watch cache is behind etcd: the Exact LIST waited for resourceVersion ${rv} (blockTimeout, 3 s) and gave up with 504, as upstream's waitUntilFreshAndBlock does; the cache lags, so the lists cannot be compared now (run it again, or watch apiserver_watch_cache_read_wait)`;
  if (e.code === 410)
    return `resourceVersion ${rv} is gone (compacted, or older than the watch cache's snapshots): run it again`;
  if (e.code === 429)
    return 'the server is not ready to serve it (its watch cache is not initialised, or it sheds load): run it again';
  return `the ${side === 'cache' ? "cache's" : 'Exact'} LIST failed: nothing to compare`;
}

/** Runs the comparison (the caller has shown describeCompare and been told to go on). */
export async function runCompare(
  t: ClusterTarget,
  o: CompareOptions,
  progress: CompareProgress = () => {},
  signal?: AbortSignal,
): Promise<CompareReport> {
  const conn = await connect(t, 'application/json');
  const report: CompareReport = {
    server: t.server,
    context: t.context,
    profile: o.profile.name,
    assumption: profileAssumption,
    resources: [],
    same: 0,
    differ: 0,
    errors: 0,
  };
  for (const [i, r] of o.resources.entries()) {
    signal?.throwIfAborted();
    const rc = await compareResource(conn, r, o, progress, signal);
    report.resources.push(rc);
    if (rc.outcome === 'same') report.same++;
    else if (rc.outcome === 'differ') report.differ++;
    else report.errors++;
    // Progress only: the verdict itself is the report's (text or JSON), said once.
    const outcome = { same: 'the same', differ: 'DIFFER', error: 'NOT COMPARED' }[rc.outcome];
    progress(
      `${rc.resource}: ${outcome} (${i + 1} of ${plural(o.resources.length, 'resource', { plain: true })} compared)`,
    );
  }
  return report;
}

async function compareResource(
  conn: ClusterConnection,
  r: CompareResource,
  o: CompareOptions,
  progress: CompareProgress,
  signal?: AbortSignal,
): Promise<ResourceComparison> {
  const cmp = new CacheEtcdComparison();
  const cacheServing = servedByProfile(o.profile, r.watchCache, {
    resourceVersion: o.cacheResourceVersion,
    limit: o.limit,
  });
  const cache: SideState = {
    side: 'cache',
    done: false,
    report: {
      request: `${r.path}?${query({ limit: o.limit, resourceVersion: o.cacheResourceVersion })}`,
      pages: 0,
      items: 0,
      ms: 0,
      servedBy: cacheServing.servedBy,
      rule: cacheServing.rule,
    },
  };
  const rc: ResourceComparison = {
    resource: r.name,
    path: r.path,
    resourceVersion: '',
    cache: cache.report,
    outcome: 'same',
    same: 0,
    differences: [],
    differencesNotListed: 0,
  };
  let exact: SideState | undefined;
  let rv = '';
  const page = async (s: SideState): Promise<boolean> => {
    const request =
      s.side === 'cache'
        ? `${r.path}?${query({ limit: o.limit, resourceVersion: o.cacheResourceVersion }, s.token)}`
        : `${r.path}?${query({ limit: o.limit, resourceVersion: rv, exact: true }, s.token)}`;
    const res = await clusterGet(conn, request, signal);
    s.report.ms += Math.round(res.ms);
    const text = res.body.toString('utf8');
    if (res.status !== 200) {
      const e = statusOfBody(text, res.status);
      // The cache's first page failing for the credential or the path: nothing was compared.
      if (s.side === 'cache' && s.report.pages === 0 && [400, 401, 403, 404].includes(e.code))
        throw new ProbeError(errorMessage(conn.target, request, e), e.code);
      s.report.error = e;
      rc.outcome = 'error';
      rc.meaning = meaningOf(s.side, e, rv || o.cacheResourceVersion);
      return false;
    }
    let list: { items?: unknown[]; metadata?: Record<string, unknown> };
    try {
      list = JSON.parse(text) as typeof list;
    } catch {
      throw new ProbeError(`GET ${request}: the answer is not JSON`);
    }
    const items = Array.isArray(list.items) ? list.items : [];
    const meta = list.metadata ?? {};
    s.report.pages++;
    s.report.items += items.length;
    if (s.report.pages === 1 && typeof meta.remainingItemCount === 'number')
      s.total = items.length + meta.remainingItemCount;
    if (s.side === 'cache' && s.report.pages === 1)
      rv = typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '';
    cmp.addPage(s.side, items);
    const token = typeof meta.continue === 'string' ? meta.continue : '';
    if (token && s.report.pages === 1) {
      const cont = servedByProfile(o.profile, r.watchCache, {
        resourceVersion: '',
        limit: o.limit,
        continueResourceVersion: Number(rv) || 0,
      });
      s.report.continueServedBy = cont.servedBy;
    }
    s.token = token || undefined;
    s.done = !token;
    return true;
  };
  const count = (s: SideState): string =>
    `${s.report.items}${s.total !== undefined ? `/${s.total}` : ''}`;
  // The cache's first page gives the RV; then both sides page in step, so the comparison holds
  // about a page of each while it waits for the other side's counterpart.
  if (await page(cache)) {
    rc.resourceVersion = rv;
    const exactServing = servedByProfile(o.profile, r.watchCache, {
      resourceVersion: rv,
      resourceVersionMatch: 'Exact',
      limit: o.limit,
    });
    exact = {
      side: 'exact',
      done: false,
      report: {
        request: `${r.path}?${query({ limit: o.limit, resourceVersion: rv, exact: true })}`,
        pages: 0,
        items: 0,
        ms: 0,
        servedBy: exactServing.servedBy,
        rule: exactServing.rule,
      },
    };
    rc.exact = exact.report;
    let ok = true;
    while (ok && !(cache.done && exact.done)) {
      if (!exact.done) ok = await page(exact);
      if (ok && !cache.done) ok = await page(cache);
      progress(`${r.name}: cache ${count(cache)} items, Exact ${count(exact)} items`);
    }
  }
  const result = cmp.finish();
  rc.same = result.same;
  rc.differences = result.differences;
  rc.differencesNotListed = result.differencesNotListed;
  if (rc.outcome !== 'error' && (result.differences.length || result.differencesNotListed))
    rc.outcome = 'differ';
  return rc;
}

/** One resource's verdict in one line. */
export function resultLine(rc: ResourceComparison): string {
  const n = rc.differences.length + rc.differencesNotListed;
  const at = `at resourceVersion ${rc.resourceVersion || '""'}`;
  const text =
    rc.outcome === 'same'
      ? `${rc.resource}: the same ${at}: ${plural(rc.same, 'item', { plain: true })} alike (name, uid, resourceVersion, bytes)`
      : rc.outcome === 'differ'
        ? `${rc.resource}: DIFFER ${at}: ${plural(n, 'difference', { plain: true })}, ${rc.same} alike: a stale or inconsistent watch cache`
        : `${rc.resource}: NOT COMPARED: ${[rc.cache.error, rc.exact?.error]
            .filter((e): e is ClientError => e !== undefined)
            .map((e) => `${e.code}${e.reason ? ` ${e.reason}` : ''}: ${e.message}`)
            .join('; ')}`;
  return visibleText(text);
}

/** The report as text, a block per resource. */
export function compareReportText(report: CompareReport): string[] {
  const lines: string[] = [];
  for (const rc of report.resources) {
    lines.push(resultLine(rc));
    const side = (name: string, s: CompareListReport): string =>
      `  ${name}: GET ${s.request}: ${s.error ? `${s.error.code} after ${s.ms} ms` : `${plural(s.pages, 'page', { plain: true })}, ${plural(s.items, 'item', { plain: true })} in ${s.ms} ms`}; profile ${report.profile}: ${servedByText(s.servedBy)}${s.continueServedBy && s.continueServedBy !== s.servedBy ? `, its continue pages ${servedByText(s.continueServedBy)}` : ''} (${s.rule})`;
    lines.push(side('cache', rc.cache));
    if (rc.exact) lines.push(side('Exact', rc.exact));
    if (rc.meaning) lines.push(`  ${rc.meaning}`);
    for (const d of rc.differences) lines.push(`  ${differenceText(d)}`);
    if (rc.differencesNotListed) lines.push(`  … and ${rc.differencesNotListed} more differences`);
    if (rc.cache.pages > 1 && rc.cache.continueServedBy !== rc.cache.servedBy)
      lines.push(
        `  note: the cache's pages after the first are continue pages, served as the Exact list's are (the token carries resourceVersion ${rc.resourceVersion}): only its first page is the cache's current state; --rv0 reads the whole cache in one page (the cache ignores limit there)`,
      );
  }
  if (report.resources.some((rc) => rc.exact && rc.exact.servedBy !== 'etcd'))
    lines.push(
      `note: profile ${report.profile} serves the Exact LISTs of cached resources from a watch-cache snapshot (ListFromCacheSnapshot), not etcd: they compare the cache with its own snapshot at that resourceVersion`,
    );
  lines.push(
    `${plural(report.resources.length, 'resource', { plain: true })}: ${report.same} the same, ${report.differ} differ, ${report.errors} not compared (profile ${report.profile}, ${report.assumption})`,
  );
  return lines.map((l) => visibleText(l));
}
