// The Clients tab's clients, answered by the host (protocol.ts clients/query): a run of 100,000
// single-watch clients must not cost the panel 100,000 records, so the most eventful come first
// and at most maxClientRows go; the webview reads their figures at the scrubber's time itself.
// No upstream counterpart; no vscode here.
import { maxClientRows, type ClientRecord } from '../../protocol';
import type { RunModel } from '../../run/run-model';
import { clientsReport, clientsReported, type ClientReported } from '../../run/clients-report';

/** Each live run's clients report figures, made on the first query. */
const reports = new WeakMap<RunModel, Record<string, ClientReported>>();

function reportedOf(model: RunModel): Record<string, ClientReported> | undefined {
  if (!model.answers?.length && !model.faults?.length) return undefined;
  let r = reports.get(model);
  if (!r) {
    r = clientsReported(clientsReport(model));
    reports.set(model, r);
  }
  return r;
}

/** What makes a client worth a look, by the end of the run: 410s, relists, restarts, requests. */
function interest(c: ClientRecord): [number, number, number, number] {
  let expired = 0;
  let restarts = 0;
  for (const r of c.requests) {
    if (r.kind === 'list' ? r.error?.code === 410 : r.end?.how === 'expired') expired++;
    if (r.kind === 'watch' && r.restart) restarts++;
  }
  const relists =
    c.chains.filter((ch) => ch.relist).length +
    c.requests.filter((r) => r.kind === 'watch' && r.relist).length;
  return [expired, relists, restarts, c.requests.length];
}

/** Each run's clients in interest order, made on the first query. */
const ordered = new WeakMap<RunModel, ClientRecord[]>();

function byInterest(model: RunModel): ClientRecord[] {
  const known = ordered.get(model);
  if (known) return known;
  const keyed = (model.clients ?? []).map((c, i) => ({ c, i, k: interest(c) }));
  keyed.sort((a, b) => {
    for (let j = 0; j < 4; j++) if (a.k[j] !== b.k[j]) return b.k[j] - a.k[j];
    return a.i - b.i;
  });
  const made = keyed.map((x) => x.c);
  ordered.set(model, made);
  return made;
}

export function clientRows(
  model: RunModel,
  search: string,
): {
  total: number;
  matching: number;
  clients: ClientRecord[];
  reported?: Record<string, ClientReported>;
} {
  const all = byInterest(model);
  const needle = search.trim().toLowerCase();
  const matching = needle
    ? all.filter(
        (c) =>
          c.client.toLowerCase().includes(needle) ||
          (c.connection ?? '').toLowerCase().includes(needle),
      )
    : all;
  const clients = matching.slice(0, maxClientRows);
  const reportedAll = reportedOf(model);
  const reported: Record<string, ClientReported> = {};
  for (const c of clients) if (reportedAll?.[c.id]) reported[c.id] = reportedAll[c.id];
  return {
    total: all.length,
    matching: matching.length,
    clients,
    ...(Object.keys(reported).length ? { reported } : {}),
  };
}
