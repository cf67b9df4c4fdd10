// No upstream counterpart: the clients report (src/run/clients-report.ts) as a person reads it in
// a terminal: one row per client, what joins a client's connections, then each fault that
// touched a client with its recovery.
// `listwatch clients` prints it; `listwatch report` of a saved live trace adds it.
import type { ClientReport, ClientsReport } from '../run/clients-report';
import type { SummaryTable } from '../run/run-summary';

/** `200×3 429×1`. */
function answersText(answers: Record<string, number>): string {
  return Object.entries(answers)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, n]) => `${code}×${n}`)
    .join(' ');
}

/** `cache 2, etcd 1, paged 3, error 1, retried 1` (what is 0 left out). */
function listsText(l: ClientReport['lists']): string {
  const parts = [
    ['cache', l.cache],
    ['etcd', l.etcd],
    ['paged', l.paged],
    ['error', l.error],
    ['retried', l.retries],
  ]
    .filter(([, n]) => n !== 0)
    .map(([k, n]) => `${k} ${n}`);
  return parts.length ? `${l.total} (${parts.join(', ')})` : String(l.total);
}

/** `2 ended of 3`, '' when the client sent none. */
function syncsText(c: ClientReport): string {
  const n = c.watchListSyncs.length;
  if (n === 0) return '';
  return `${c.watchListSyncs.filter((s) => s.ended).length} ended of ${n}`;
}

/** The clients as a table (the rows a report prints). */
export function clientsTable(report: ClientsReport): SummaryTable {
  return {
    title: 'Clients (User-Agent · connection)',
    columns: [
      'Client',
      'LISTs',
      'WATCHes',
      'WatchList syncs',
      'Restarts (from last RV)',
      'Relists',
      'Answers',
      'Bytes',
    ],
    rows: report.clients.map((c) => [
      c.id,
      listsText(c.lists),
      c.watches.total,
      syncsText(c),
      `${c.restarts.total} (${c.restarts.fromLastRv})`,
      c.relists,
      answersText(c.answers),
      c.bytesSent,
    ]),
  };
}

/** One line per fault that touched a client: `#3 http-error → kubectl · c4: 1 hit, recovered in 1012 ms (retry)`. */
export function faultRecoveryLines(report: ClientsReport): string[] {
  const out: string[] = [];
  for (const c of report.clients)
    for (const f of c.faults)
      out.push(
        `${f.id === null ? '' : `#${f.id} `}${f.name} → ${c.id}: ${f.hits === 0 ? 'open watch at the fault' : `${f.hits} hit${f.hits === 1 ? '' : 's'}`}, ${f.recovery}`,
      );
  return out;
}

/** One line per client made of several connections: what taking them as one rests on. */
export function groupingLines(report: ClientsReport): string[] {
  return report.clients.filter((c) => c.grouping !== null).map((c) => `${c.id}: ${c.grouping}`);
}
