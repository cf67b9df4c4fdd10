// No upstream counterpart: two runs side by side (a replay and its what-if, or any two runs of
// the same requests): what the storage layer did for each client, from the run models alone
// (etcd calls and the keys they fetched, 410s, freshness waits), and the totals.
import type { ClientComparison, RunComparison, RunFigures, RunModel } from './run-model';
import { listEtcdRequests } from './views/list-etcd-requests';

export type { ClientComparison, RunComparison, RunFigures } from './run-model';

function emptyFigures(): RunFigures {
  return {
    lists: 0,
    watches: 0,
    etcdCalls: 0,
    fetchedObjects: 0,
    http410: 0,
    waits: 0,
    waitedMs: 0,
    disagreements: 0,
  };
}

/** Each client's figures in one run (the client name as its requests carry it; '' for none). */
export function figuresByClient(model: RunModel): Map<string, RunFigures> {
  const out = new Map<string, RunFigures>();
  const of = (client: string | undefined): RunFigures => {
    const k = client ?? '';
    let f = out.get(k);
    if (!f) out.set(k, (f = emptyFigures()));
    return f;
  };
  for (const l of model.lists) {
    const f = of(l.client);
    f.lists++;
    f.etcdCalls += listEtcdRequests(l);
    f.fetchedObjects += l.etcdRequests.reduce((n, e) => n + e.kvs, 0);
    if (l.error?.code === 410) f.http410++;
    f.waits += l.waits.length;
    f.waitedMs += l.waits.reduce((n, w) => n + w.waitedMs, 0);
    if (l.disagrees?.length) f.disagreements++;
  }
  for (const w of model.watchRequests ?? []) {
    const f = of(w.client);
    f.watches++;
    f.waits += w.waits ?? 0;
    f.waitedMs += w.waitedMs ?? 0;
    if (w.error?.code === 410) f.http410++;
    if (w.disagrees?.length) f.disagreements++;
  }
  return out;
}

function add(into: RunFigures, f: RunFigures): void {
  for (const k of Object.keys(into) as Array<keyof RunFigures>) into[k] += f[k];
}

/** The figures of every client together. */
export function totalFigures(byClient: ReadonlyMap<string, RunFigures>): RunFigures {
  const total = emptyFigures();
  for (const f of byClient.values()) add(total, f);
  return total;
}

/** A run's label: `1.36`, `1.37 watchList=true`. */
export function runLabel(model: RunModel): string {
  const p = model.header.params;
  const whatIfs = ['watchCacheSize', 'watchList']
    .filter((k) => p[k] !== undefined)
    .map((k) => `${k}=${String(p[k])}`);
  return [model.header.profile, ...whatIfs].join(' ');
}

/** The two runs side by side, by client (sorted by name), and in total. */
export function compareRuns(a: RunModel, b: RunModel): RunComparison {
  const fa = figuresByClient(a);
  const fb = figuresByClient(b);
  const names = [...new Set([...fa.keys(), ...fb.keys()])].sort();
  const total: ClientComparison = { client: 'total', a: emptyFigures(), b: emptyFigures() };
  const clients = names.map((client) => {
    const row = {
      client,
      a: fa.get(client) ?? emptyFigures(),
      b: fb.get(client) ?? emptyFigures(),
    };
    add(total.a, row.a);
    add(total.b, row.b);
    return row;
  });
  return { a: runLabel(a), b: runLabel(b), clients, total };
}

/** The figures a comparison table shows, in order, with their column names. */
export const comparedFigures: ReadonlyArray<{ key: keyof RunFigures; title: string }> = [
  { key: 'lists', title: 'LISTs' },
  { key: 'watches', title: 'WATCHes' },
  { key: 'etcdCalls', title: 'etcd calls' },
  { key: 'fetchedObjects', title: 'fetched objects' },
  { key: 'http410', title: '410s' },
  { key: 'waits', title: 'freshness waits' },
  { key: 'waitedMs', title: 'waited ms' },
  { key: 'disagreements', title: 'disagreements' },
];
