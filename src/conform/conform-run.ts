// No upstream counterpart: one run of the `listwatch conform` battery against a server. It checks
// the server answers (else ConformUnreachable: the CLI exits 2), creates its namespace unless
// read-only or given one, grades each resource family by family, and deletes what it created
// afterwards, also after a failure or an interruption (the abort signal).
import { randomBytes } from 'node:crypto';
import { conformReport, type CheckResult, type ConformReport } from './conform-check';
import { ConformHttp, type ConformEndpoint } from './conform-http';
import { answerText, parseJSON, type ConformScope } from './conform-scope';
import { checkDiscovery } from './discovery-check';
import { formatChecks } from './format-checks';
import { checkExpiredContinue, compactFaultPath, listChecks } from './list-checks';
import { createObject, deleteObject, runNamespaceName, whyNotWritable } from './conform-objects';
import { checkBookmarksAndTimeout, checkTooOldRv, checkWatchFromListRv } from './watch-checks';
import { checkWatchList } from './watch-list-checks';

export interface ConformOptions {
  endpoint: ConformEndpoint;
  /** Resources to grade: `configmaps`, `deployments.apps`; default configmaps. */
  resources?: readonly string[];
  /** Where to list and write (namespaced resources); default: a namespace the run creates. */
  namespace?: string;
  /** GETs only: what needs writes is skipped, with the reason. */
  readOnly: boolean;
  /** Ctrl-C: the checks in flight stop, the rest are not run, cleanup still runs. */
  signal?: AbortSignal;
  /** Told of each check as it ends (progress). */
  onCheck?: (r: CheckResult) => void;
  /** Told of what the run does besides checks (the namespace it creates and deletes). */
  log?: (line: string) => void;
}

export interface ConformRun {
  report: ConformReport;
  /** Every request sent, in order (what --read-only promises). */
  sent: ConformHttp['sent'];
  /** The run was interrupted (the report has the checks that ended). */
  interrupted: boolean;
}

/** The server did not answer, or refused the credential: nothing was graded. */
export class ConformUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformUnreachable';
  }
}

/** Objects seeded in each writable resource before the checks (enough for three pages). */
const seededObjects = 5;

const defaultResources = ['configmaps'];

export async function runConform(o: ConformOptions): Promise<ConformRun> {
  const http = new ConformHttp(o.endpoint, o.readOnly, o.signal);
  const version = await http.request('GET', '/version');
  if (version.status === 0)
    throw new ConformUnreachable(
      `cannot reach ${o.endpoint.server}: ${version.error ?? 'no answer'}`,
    );
  if (version.status === 401 || version.status === 403)
    throw new ConformUnreachable(
      `${o.endpoint.server} refused the credential: GET /version: ${answerText(version)}`,
    );
  const runId = randomBytes(4).toString('hex');
  const checks: CheckResult[] = [];
  const record = (r: CheckResult): void => {
    checks.push(r);
    o.onCheck?.(r);
  };
  let noWrites: string | undefined = o.readOnly ? 'read-only (--read-only): GETs only' : undefined;
  let createdNamespace: string | undefined;
  let namespace = o.namespace;
  const scopes: ConformScope[] = [];
  const cleanupHttp = http.uninterrupted();
  try {
    if (noWrites === undefined && namespace === undefined) {
      const name = runNamespaceName(runId);
      const a = await http.request('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
      });
      if (a.status === 201) {
        createdNamespace = namespace = name;
        o.log?.(`created namespace ${name}`);
      } else noWrites = `could not create namespace ${name}: ${answerText(a)}`;
    }
    const admin = noWrites === undefined ? await compactionAvailable(http) : noWrites;
    const names = o.resources?.length ? o.resources : defaultResources;
    for (const name of names) {
      if (o.signal?.aborted) break;
      const found = await checkDiscovery(http, name, names.length > 1);
      record(found.result);
      if (!found.resource) continue;
      const s: ConformScope = {
        http,
        resource: found.resource,
        namespace: found.resource.namespaced ? namespace : undefined,
        noWrites: noWrites ?? whyNotWritable(found.resource),
        noAdminApi: admin,
        several: names.length > 1,
        runLabel: runId,
        created: new Set(),
      };
      scopes.push(s);
      if (s.noWrites === undefined)
        for (let i = 0; i < seededObjects; i++) {
          const a = await createObject(s, `conform-${i}-${runId}`, i);
          if (a.status !== 201) {
            s.noWrites = `could not create ${s.resource.name} conform-${i}-${runId}: ${answerText(a)}`;
            break;
          }
        }
      const families: ((s: ConformScope) => Promise<CheckResult | CheckResult[]>)[] = [
        ...listChecks.filter((c) => c !== checkExpiredContinue),
        checkWatchFromListRv,
        checkTooOldRv,
        checkBookmarksAndTimeout,
        checkWatchList,
        ...formatChecks,
        // It compacts the server's history: last.
        checkExpiredContinue,
      ];
      for (const check of families) {
        if (o.signal?.aborted) break;
        const r = await check(s);
        for (const one of Array.isArray(r) ? r : [r]) record(one);
      }
    }
  } finally {
    await cleanup(cleanupHttp, scopes, createdNamespace, o.log);
  }
  return {
    report: conformReport(o.endpoint.server, checks),
    sent: http.sent,
    interrupted: o.signal?.aborted === true,
  };
}

/** Whether listwatch serve's admin API can compact on cue; the reason when it cannot. */
async function compactionAvailable(http: ConformHttp): Promise<string | undefined> {
  const a = await http.request('GET', compactFaultPath);
  const body = parseJSON(a.body);
  if (a.status === 200 && body?.name === 'compact') return undefined;
  return `needs the server's history compacted on cue: only listwatch serve's admin API (POST ${compactFaultPath}) does that (GET answered ${answerText(a)})`;
}

/** Deletes the namespace the run created, else each object it created. */
async function cleanup(
  http: ConformHttp,
  scopes: readonly ConformScope[],
  createdNamespace: string | undefined,
  log?: (line: string) => void,
): Promise<void> {
  if (createdNamespace !== undefined) {
    const a = await http.request('DELETE', `/api/v1/namespaces/${createdNamespace}`);
    log?.(`deleted namespace ${createdNamespace}: ${answerText(a)}`);
    return;
  }
  for (const s of scopes) {
    const mine = { ...s, http };
    for (const name of [...s.created]) await deleteObject(mine, name);
  }
}
