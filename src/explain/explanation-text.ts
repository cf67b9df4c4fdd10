// No upstream counterpart: an explanation as the few lines a Kubernetes engineer reads (the CLI,
// the read-only document in VS Code) and as the short answer of a hover.
import { formatClusterState } from './cluster-state';
import type { RequestExplanation } from './explain-request';

const servedByText: Record<RequestExplanation['servedBy'], string> = {
  cache: 'the watch cache',
  'cache-snapshot': 'a watch-cache snapshot',
  etcd: 'etcd',
  error: 'nobody: the request fails',
};

const watchStartText: Record<NonNullable<RequestExplanation['watch']>['startsFrom'], string> = {
  cache: 'the watch cache',
  etcd: "etcd (the etcd3 store's watch)",
  none: 'nothing (refused)',
};

/** One line: what, served by, and the error if any. */
export function explanationSummary(e: RequestExplanation): string {
  const what = e.kind === 'list' ? 'LIST' : 'WATCH';
  const served = e.servedBy === 'error' ? 'fails' : `served by ${servedByText[e.servedBy]}`;
  const error = e.errorCode !== undefined ? `: ${e.errorCode} ${e.message ?? ''}` : '';
  return `${what} ${served}${error}`;
}

/**
 * The state an explanation assumed, one assumption per phrase, each saying only its own key (the
 * hover lists them; the full text prints the keys themselves).
 */
export function assumedStatePhrases(e: RequestExplanation): string[] {
  // No storage is asked for a resource nobody serves: nothing about the cluster is assumed.
  if (e.servedResource === 'none') return [];
  const s = e.assumed;
  const gr = `${e.resource.group}/${e.resource.resource}`;
  const lag =
    s.cacheRV >= s.etcdRV
      ? `it is up to date with etcd (RV ${s.etcdRV})`
      : `it is at RV ${s.cacheRV}, etcd at RV ${s.etcdRV}, and ${s.cacheCatchesUp ? 'catches up' : 'does not catch up'} within 3 s`;
  return [
    ...(e.servedResource === 'custom'
      ? [`a CustomResourceDefinition serves ${gr} (not a built-in resource)`]
      : []),
    s.cacheReady ? 'the watch cache is ready' : 'the watch cache is not ready (still initialising)',
    lag,
    s.consistentReadsSupported
      ? 'etcd answers RequestWatchProgress, so consistent reads may be served from the watch cache'
      : 'etcd does not answer RequestWatchProgress, so consistent reads go to etcd',
    // RangeStream is new in etcd 3.7 (the 1.37 profile's default); etcd 3.6 does not serve it.
    s.rangeStreamSupported
      ? 'etcd serves RangeStream (as etcd 3.7)'
      : 'etcd does not serve RangeStream (as etcd 3.6)',
    ...(s.compactedRV > 0 ? [`etcd has compacted up to RV ${s.compactedRV}`] : []),
  ];
}

function yesNo(v: boolean): string {
  return v ? 'yes' : 'no';
}

/** The full explanation, one fact per line. */
export function explanationLines(e: RequestExplanation): string[] {
  const r = e.resource;
  const resource = `${r.group ? `${r.group}/` : ''}${r.version} ${r.resource}${r.namespace ? ` in namespace ${r.namespace}` : ' (all namespaces)'}`;
  const lines = [
    `${e.kind === 'list' ? 'LIST' : 'WATCH'} ${resource} (profile ${e.profile}${e.gates ? `, gates ${formatGates(e.gates)}` : ''})`,
    `  request:     GET ${e.url}`,
    `  served by:   ${servedByText[e.servedBy]}`,
    `  why:         ${e.rule}`,
  ];
  if (e.errorCode !== undefined)
    lines.push(
      `  error:       ${e.errorCode}${e.reason ? ` ${e.reason}` : ''}: ${e.message ?? ''}`,
    );
  if (e.fallback)
    lines.push(
      `  fallback:    ${e.fallback.reason}: ${e.fallback.toEtcd ? 'retried against etcd' : 'not retried (429 instead)'}`,
    );
  // A resource nobody serves reaches no storage: no limit, read or wait to speak of.
  const reachesStorage = e.servedResource !== 'none';
  if (e.kind === 'list' && reachesStorage)
    lines.push(
      `  limit:       ${e.limit === null ? 'none sent' : `${e.limit}, ${e.limitHonoured === true ? 'honoured' : e.limitHonoured === false ? 'ignored' : 'not reached'}`}`,
    );
  if (reachesStorage)
    lines.push(
      `  consistent:  ${yesNo(e.consistentRead)}; may wait up to 3 s for the cache: ${yesNo(e.mayWait)}${e.waitedMs > 0 ? ` (waited ${e.waitedMs} ms here)` : ''}`,
    );
  if (e.watch) {
    const w = e.watch;
    lines.push(
      `  watch:       starts from ${watchStartText[w.startsFrom]}; sendInitialEvents=${w.sendInitialEvents ?? 'unset'}, allowWatchBookmarks=${w.allowWatchBookmarks}`,
    );
    if (w.startsFrom !== 'none')
      lines.push(
        `               ${w.initialEvents} initial events${w.initialEventsEndBookmark ? ', then the initial-events-end bookmark' : ''}${w.requiredResourceVersion !== undefined ? `; the cache first reached RV ${w.requiredResourceVersion}` : ''}`,
      );
  }
  if (e.etcdCalls.length === 0) lines.push('  etcd calls:  none');
  else {
    lines.push(`  etcd calls:  ${e.etcdCalls.length}`);
    for (const c of e.etcdCalls)
      lines.push(
        `    ${c.operation} ${JSON.stringify(c.key)}${c.rangeEnd !== undefined ? `..${JSON.stringify(c.rangeEnd)}` : ''} limit=${c.limit} rev=${c.revision} -> ${c.returnedKeys} keys${c.more ? ', more' : ''}${c.error ? ` (${c.error})` : ''}`,
      );
  }
  if (e.fetched !== undefined && e.returned !== undefined)
    lines.push(`  objects:     ${e.fetched} fetched, ${e.returned} returned`);
  if (e.possibleErrors.length > 0) {
    lines.push('  can fail with:');
    for (const p of e.possibleErrors) lines.push(`    ${p.code} ${p.message}  (${p.when})`);
  }
  if (reachesStorage)
    lines.push(
      `  assumed:     ${formatClusterState(e.assumed)}; objects=${e.objects}${e.objects > 0 ? `, ${e.matchingObjects} matching` : ''}`,
    );
  for (const a of e.assumptions ?? []) lines.push(`  assumption:  ${a}`);
  for (const n of e.notes) lines.push(`  note:        ${n}`);
  return lines;
}

/** `K=V,…` as --gates takes it. */
export function formatGates(gates: Readonly<Record<string, boolean | undefined>>): string {
  return Object.entries(gates)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',');
}
