// No upstream counterpart as a file: discovery and the formats informers and kubectl ask for, in
// `listwatch conform`: the resource in its group version's discovery with list and watch, Table
// (kubectl get and get -w) and PartialObjectMetadata (client-go's metadata informers) on LIST and
// WATCH, with the Accept headers those clients send.
import { resultOf, checkId, type CheckDefinition, type CheckResult } from './conform-check';
import { answerText, listOf, listPath, parseJSON, type ConformScope } from './conform-scope';

/** kubectl get's Accept (k8s.io/kubectl pkg/cmd/get/get.go, the Table media types then JSON). */
export const kubectlTableAccept =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
/** client-go's metadata client in JSON (k8s.io/client-go metadata/metadata.go, as=PartialObjectMetadataList). */
export const metadataListAccept =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
/** The same for one object or a watch's events (as=PartialObjectMetadata). */
export const metadataAccept =
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

const tableList: CheckDefinition = {
  id: 'format.table-list',
  title:
    'LIST as a Table (kubectl get): meta.k8s.io/v1 Table, column definitions, a row per object with its metadata',
  rule: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/response.go transformResponseObject (asTable); staging/src/k8s.io/apiserver/pkg/registry/rest/table.go',
  impact:
    'kubectl get prints the server\'s Table rows; given plain JSON it falls back to NAME and AGE only, and a malformed Table breaks kubectl get ("unable to decode").',
};

const tableWatch: CheckDefinition = {
  id: 'format.table-watch',
  title: 'WATCH as Tables (kubectl get -w): each event object a Table with one row',
  rule: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go serveWatchHandler (the Table of each event); handlers/response.go asTable',
  impact:
    'kubectl get -w prints each event as a row of the Table: without it, kubectl get -w fails or prints raw objects.',
};

const metadataList: CheckDefinition = {
  id: 'format.metadata-list',
  title: 'LIST as PartialObjectMetadataList (metadata informers): items with metadata only',
  rule: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/response.go transformResponseObject (asPartialObjectMetadataList)',
  impact:
    'client-go\'s metadata informers (kube-controller-manager\'s garbage collector and quota monitor, metadatainformer users) list this way: a refusal or full objects leave them unsynced ("timed out waiting for caches to sync") or decoding objects they cannot read.',
};

const metadataWatch: CheckDefinition = {
  id: 'format.metadata-watch',
  title: 'WATCH as PartialObjectMetadata (metadata informers): each event object metadata only',
  rule: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go serveWatchHandler; handlers/response.go asPartialObjectMetadata',
  impact:
    "client-go's metadata informers watch this way: full objects or a refusal break the garbage collector's and quota monitor's watches.",
};

export const formatCheckDefinitions = [tableList, tableWatch, metadataList, metadataWatch];

function def(s: ConformScope, d: CheckDefinition): CheckDefinition {
  return { ...d, id: checkId(d.id, s.resource.name, s.several) };
}

/** Keys an object has beyond kind, apiVersion and metadata. */
function beyondMetadata(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => k !== 'kind' && k !== 'apiVersion' && k !== 'metadata');
}

/** A Table's problems: kind, apiVersion, columns, rows (`rows` undefined: any number). */
function tableProblems(
  t: Record<string, unknown> | undefined,
  rows?: number,
  columns = true,
): string[] {
  if (!t) return ['not a JSON object'];
  const p: string[] = [];
  if (t.kind !== 'Table' || t.apiVersion !== 'meta.k8s.io/v1')
    p.push(`kind ${String(t.kind)}, apiVersion ${String(t.apiVersion)}`);
  const cols = t.columnDefinitions;
  if (columns && (!Array.isArray(cols) || cols.length === 0)) p.push('no columnDefinitions');
  const r = t.rows;
  if (!Array.isArray(r)) p.push('no rows');
  else {
    if (rows !== undefined && r.length !== rows) p.push(`${r.length} rows, expected ${rows}`);
    for (const row of r as { cells?: unknown; object?: { kind?: unknown; metadata?: unknown } }[]) {
      if (!Array.isArray(row.cells)) p.push('a row without cells');
      else if (Array.isArray(cols) && cols.length && row.cells.length !== cols.length)
        p.push(`a row of ${row.cells.length} cells for ${cols.length} columns`);
      if (row.object?.kind !== 'PartialObjectMetadata' || !row.object.metadata)
        p.push(
          `a row's object is ${String(row.object?.kind)}, not PartialObjectMetadata (includeObject=Metadata)`,
        );
      if (p.length) break;
    }
  }
  return p;
}

export async function checkTableList(s: ConformScope): Promise<CheckResult> {
  const d = def(s, tableList);
  const expected =
    'kind Table, apiVersion meta.k8s.io/v1, columnDefinitions, one row per object (cells per column, object a PartialObjectMetadata)';
  const plain = listOf(await s.http.request('GET', listPath(s, 'limit=50')));
  const a = await s.http.request('GET', listPath(s, 'limit=50'), { accept: kubectlTableAccept });
  if (a.status !== 200) return resultOf(d, 'fail', expected, answerText(a));
  const t = parseJSON(a.body);
  const p = tableProblems(t, s.noWrites === undefined ? plain?.items.length : undefined);
  const rows = Array.isArray(t?.rows) ? t.rows.length : 0;
  const got = `${String(t?.kind)} ${String(t?.apiVersion)}, ${Array.isArray(t?.columnDefinitions) ? t.columnDefinitions.length : 0} columns, ${rows} rows`;
  return resultOf(
    d,
    p.length ? 'fail' : 'pass',
    expected,
    p.length ? `${got}: ${p.join('; ')}` : got,
  );
}

/** The first events of a watch from resourceVersion 0 (the current objects, as ADDED). */
async function firstEvents(s: ConformScope, accept: string) {
  return s.http.watch(listPath(s, 'watch=1&resourceVersion=0&timeoutSeconds=5'), {
    accept,
    limitMs: 10_000,
    until: (events) => events.some((e) => e.type === 'ADDED'),
  });
}

/** A format watch that was not answered 200: the check fails with what came instead. */
function watchRefused(
  d: CheckDefinition,
  expected: string,
  w: Awaited<ReturnType<typeof firstEvents>>,
): CheckResult | undefined {
  if (w.status === 200) return undefined;
  return resultOf(
    d,
    'fail',
    expected,
    w.status === 0 ? `no answer: ${w.error}` : `${w.status}: ${w.strange.join(' ').slice(0, 200)}`,
  );
}

/** A format watch that saw no object: nothing to grade. */
function nothingAdded(
  d: CheckDefinition,
  expected: string,
  w: Awaited<ReturnType<typeof firstEvents>>,
): CheckResult {
  return resultOf(
    d,
    'skip',
    expected,
    `no object to see (${w.events.length} event(s), none ADDED)`,
  );
}

export async function checkTableWatch(s: ConformScope): Promise<CheckResult> {
  const d = def(s, tableWatch);
  const expected =
    'ADDED events whose object is a meta.k8s.io/v1 Table with one row (the first with columnDefinitions)';
  const w = await firstEvents(s, kubectlTableAccept);
  const refused = watchRefused(d, expected, w);
  if (refused) return refused;
  const added = w.events.filter((e) => e.type === 'ADDED');
  if (added.length === 0) return nothingAdded(d, expected, w);
  const p = tableProblems(added[0].object, 1, w.events.indexOf(added[0]) === 0);
  const got = `${added[0].type} ${String(added[0].object.kind)} ${String(added[0].object.apiVersion)}, ${Array.isArray(added[0].object.rows) ? added[0].object.rows.length : 0} row(s)`;
  return resultOf(
    d,
    p.length ? 'fail' : 'pass',
    expected,
    p.length ? `${got}: ${p.join('; ')}` : got,
  );
}

export async function checkMetadataList(s: ConformScope): Promise<CheckResult> {
  const d = def(s, metadataList);
  const expected =
    'kind PartialObjectMetadataList, apiVersion meta.k8s.io/v1, items with kind, apiVersion and metadata only';
  const a = await s.http.request('GET', listPath(s, 'limit=50'), { accept: metadataListAccept });
  if (a.status !== 200) return resultOf(d, 'fail', expected, answerText(a));
  const l = parseJSON(a.body);
  // Go writes an empty slice of the list as null.
  const items = Array.isArray(l?.items)
    ? (l.items as Record<string, unknown>[])
    : l?.items === null
      ? []
      : undefined;
  const got = `${String(l?.kind)} ${String(l?.apiVersion)}, ${items?.length ?? 'no'} items`;
  const p: string[] = [];
  if (l?.kind !== 'PartialObjectMetadataList' || l.apiVersion !== 'meta.k8s.io/v1')
    p.push('not a meta.k8s.io/v1 PartialObjectMetadataList');
  if (!items) p.push('no items');
  const full = items?.find((i) => beyondMetadata(i).length > 0 || typeof i.metadata !== 'object');
  if (full) p.push(`an item carries ${beyondMetadata(full).join(', ') || 'no metadata'}`);
  return resultOf(
    d,
    p.length ? 'fail' : 'pass',
    expected,
    p.length ? `${got}: ${p.join('; ')}` : got,
  );
}

export async function checkMetadataWatch(s: ConformScope): Promise<CheckResult> {
  const d = def(s, metadataWatch);
  const expected =
    'ADDED events whose object is a meta.k8s.io/v1 PartialObjectMetadata: kind, apiVersion and metadata only';
  const w = await firstEvents(s, metadataAccept);
  const refused = watchRefused(d, expected, w);
  if (refused) return refused;
  const added = w.events.find((e) => e.type === 'ADDED');
  if (!added) return nothingAdded(d, expected, w);
  const o = added.object;
  const p: string[] = [];
  if (o.kind !== 'PartialObjectMetadata' || o.apiVersion !== 'meta.k8s.io/v1')
    p.push(`kind ${String(o.kind)}, apiVersion ${String(o.apiVersion)}`);
  if (beyondMetadata(o).length) p.push(`it carries ${beyondMetadata(o).join(', ')}`);
  const got = `ADDED ${String(o.kind)} ${String(o.apiVersion)}`;
  return resultOf(
    d,
    p.length ? 'fail' : 'pass',
    expected,
    p.length ? `${got}: ${p.join('; ')}` : got,
  );
}

export const formatChecks: ((s: ConformScope) => Promise<CheckResult>)[] = [
  checkTableList,
  checkTableWatch,
  checkMetadataList,
  checkMetadataWatch,
];
