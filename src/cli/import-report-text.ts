// `listwatch import`'s human output: the ImportReport as a person reads it in a terminal (clients
// table, pagination chains with their decoded tokens, relists, storms, watches, latency, how each
// request shape is served, rejected lines with their positions). Everything that came from a log
// is shown through visibleText: a user agent cannot drive the terminal. No upstream counterpart.
import type { ImportReport, ImportedClient, PaginationChain, Summary } from '../run/import-report';
import { latencyBasisText } from '../run/views/latency-text';
import { visibleText } from '../format/visible-text';
import {
  chainOrphanText,
  chainOutcomeText,
  chainPagesText,
  chainRestartText,
  chainRetryTexts,
  chainTokenText,
  joinsText,
  singleListsText,
} from '../run/views/chain-text';
import { relistClientText, relistViaText } from '../run/relist-rule';
import { formatCount } from '../format/count-text';

/** Chains, relists and rejected lines printed per section; --json has them all. */
const shownPerSection = 10;

export function isoTime(ms: number | null): string {
  return ms === null ? '—' : new Date(ms).toISOString();
}

function counts(m: Record<string, number>): string {
  const e = Object.entries(m).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return e.length ? e.map(([k, v]) => `${visibleText(k)} ${formatCount(v)}`).join(', ') : 'none';
}

function summaryText(s: Summary, unit: string): string {
  if (s.count === 0) return 'none';
  const approx = s.exact ? '' : ' (median and p99 within 1%)';
  return `n=${formatCount(s.count)} min ${s.min}${unit} median ${s.median}${unit} p99 ${s.p99}${unit} max ${s.max}${unit}${approx}`;
}

function table(rows: string[][], right: Set<number>): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r
      .map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

function clipped(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * A client as one line names it: its User-Agent, clipped, then its process when a client log
 * names one (importedClientName); a process that logged no User-Agent is its file and pid.
 */
function clientText(c: ImportedClient, max: number): string {
  const agent = visibleText(clipped(c.userAgent, max));
  if (c.process === undefined) return agent || '(none)';
  return agent ? `${agent} · ${visibleText(c.process)}` : visibleText(c.process);
}

function chainLines(c: ImportedClient, chain: PaginationChain): string[] {
  const outcome = chainOutcomeText(chain);
  const head = [
    `  chain ${chain.id} · ${clientText(c, 40)}${chain.user ? ` (${visibleText(chain.user)})` : ''} · ${visibleText(chain.path)}${chain.selector ? `?${visibleText(chain.selector)}` : ''}`,
    `    ${chainPagesText(chain)} · rv ${chain.resourceVersion ?? '—'} · ${outcome}${chain.orphan ? ` · ${chainOrphanText}` : ''}${chain.relist ? ' · a relist' : ''} · from ${chain.firstLine}`,
  ];
  if (chain.restartOf) head.push(`    ${chainRestartText(chain.restartOf)}`);
  for (const t of chainRetryTexts(chain).slice(0, shownPerSection)) head.push(`    ${t}`);
  for (const t of chain.tokens.slice(0, shownPerSection))
    head.push(`    ${chainTokenText(chain, t)}`);
  if (chain.tokens.length > shownPerSection)
    head.push(`    … ${formatCount(chain.tokens.length - shownPerSection)} more tokens (--json)`);
  if (chain.expired?.message)
    head.push(`    410: ${visibleText(clipped(chain.expired.message, 160))}`);
  return head;
}

/** WatchList watches' lists: to the bookmark ending their initial events, as their clients logged it. */
function initialListsLine(r: ImportReport): string[] {
  if (r.watches.watchLists === 0) return [];
  const s = r.watches.initialListsSeconds;
  return [
    `WatchList lists (to the bookmark that ends the initial events; the watch goes on): ${s && s.count > 0 ? summaryText(s, ' s') : "none logged (client-go's reflector logs that bookmark at -v=4)"}`,
  ];
}

/** How the records of several files were made one request each (files read together only). */
function joinsLine(r: ImportReport): string[] {
  const text = joinsText(r);
  return text === undefined ? [] : [`Joined across files: ${text}`];
}

export function renderImportReport(r: ImportReport): string {
  const out: string[] = [];
  const y = r.assumptions.year;
  out.push(
    `Imported ${formatCount(r.requests.total)} requests (${formatCount(r.records)} records) from ${formatCount(r.lines)} lines: ${formatCount(r.skipped)} skipped, ${formatCount(r.rejected.count)} rejected · ${isoTime(r.span.from)} – ${isoTime(r.span.to)}`,
    `Assumed: ${y ? `year ${y.value} (${visibleText(y.from)}), ` : ''}time zone ${r.assumptions.timeZone}; served as under profile ${r.profile}.`,
    ...joinsLine(r),
    '',
    `Requests: ${formatCount(r.requests.total)} · by verb: ${counts(r.requests.byVerb)} · by code: ${counts(r.requests.byCode)}`,
    `Watches: ${formatCount(r.watches.total)} (${formatCount(r.watches.watchLists)} WatchList) · started before the log ${formatCount(r.watches.startedBeforeLog)} · open at its end ${formatCount(r.watches.openAtEnd)} · ended: ${counts(Object.fromEntries(Object.entries(r.watches.byEnd).filter(([, v]) => v > 0)))}`,
    `Watch durations (start and end in the log): ${summaryText(r.watches.durationsSeconds, ' s')}`,
    ...initialListsLine(r),
    '',
    `Clients (${formatCount(r.clients.length)}):`,
  );
  // Each process a client log names is a client of its own: a PROCESS column tells them apart.
  const processes = r.clients.some((c) => c.process !== undefined);
  const rows = [
    [
      'USER AGENT',
      ...(processes ? ['PROCESS'] : []),
      'MODE',
      'REQ',
      'LIST',
      'WATCH',
      '410',
      '429',
      '504',
      'RELISTS',
      'CHAINS',
      'WATCH s median',
    ],
    ...r.clients.map((c) => [
      visibleText(clipped(c.userAgent, 48)) || (c.process !== undefined ? '—' : '(none)'),
      ...(processes ? [visibleText(c.process ?? '—')] : []),
      c.mode,
      formatCount(c.requests),
      formatCount(c.lists),
      formatCount(c.watches),
      formatCount(c.http410),
      formatCount(c.http429),
      formatCount(c.http504),
      formatCount(c.relists),
      formatCount(c.chainsTotal),
      c.watchDurationsSeconds.median === null ? '—' : String(c.watchDurationsSeconds.median),
    ]),
  ];
  const figures = processes ? [3, 4, 5, 6, 7, 8, 9, 10, 11] : [2, 3, 4, 5, 6, 7, 8, 9, 10];
  out.push(...table(rows, new Set(figures)).map((l) => `  ${l}`));
  const paged = r.clients.flatMap((c) =>
    c.paginationChains
      // A relist's LIST is a chain of its own even when it came back whole (CHAINS counts it).
      .filter((x) => x.pages > 1 || x.outcome !== 'complete' || x.restartOf || x.orphan || x.relist)
      .map((x) => [c, x] as const),
  );
  out.push(
    '',
    `Pagination chains (paged, broken, restarted or relists: ${formatCount(paged.length)}):`,
  );
  if (!paged.length) out.push('  none');
  for (const [c, x] of paged.slice(0, shownPerSection * 2)) out.push(...chainLines(c, x));
  if (paged.length > shownPerSection * 2)
    out.push(`  … ${formatCount(paged.length - shownPerSection * 2)} more (--json)`);
  for (const c of r.clients)
    if (c.singleLists > 0)
      out.push(`  ${clientText(c, 40)}: ${singleListsText(c.singleLists, c.singleListsRetried)}`);
  const relists = r.clients.flatMap((c) => c.relistDetails.map((x) => [c, x] as const));
  out.push('', `Relists (${formatCount(r.clients.reduce((s, c) => s + c.relists, 0))}):`);
  if (!relists.length) out.push('  none');
  for (const [c, x] of relists.slice(0, shownPerSection))
    out.push(
      `  ${isoTime(x.at)} ${clientText(c, 40)} ${relistViaText[x.via]} of ${visibleText(x.resource)} ${x.gapSeconds} s after its watch ended ${x.because} (${x.watchLine}) · ${x.line} · ${visibleText(relistClientText(x))}`,
    );
  if (relists.length > shownPerSection)
    out.push(`  … ${formatCount(relists.length - shownPerSection)} more (--json)`);
  out.push('', `Relist storms (${formatCount(r.storms.length)}):`);
  if (!r.storms.length) out.push('  none');
  for (const s of r.storms.slice(0, shownPerSection))
    out.push(
      `  ${s.kind === 'herd' ? `herd of ${formatCount(s.clients)} clients (${s.userAgents?.map((u) => visibleText(clipped(u, 30))).join(', ')})` : visibleText(s.userAgent)}: ${formatCount(s.relists)} relists ${isoTime(s.from)} – ${isoTime(s.to)}, median interval ${s.medianIntervalSeconds ?? '—'} s (window ${s.windowSeconds} s)`,
    );
  out.push('', `Latency (ms; watches excluded; measured from ${latencyBasisText}):`);
  const verbs = Object.entries(r.latencyMs);
  if (!verbs.length) out.push('  none');
  for (const [verb, s] of verbs) out.push(`  ${visibleText(verb)}: ${summaryText(s, '')}`);
  out.push(
    '',
    `Served as under profile ${r.profile}${r.etcdProven ? ' with etcd lacking RequestWatchProgress' : ''} (${formatCount(r.servedAs.length)} request shapes):`,
  );
  if (r.etcdProven)
    out.push(
      `  (the log proves it: "${visibleText(clipped(r.etcdProven.message, 120))}" at ${visibleText(r.etcdProven.at)})`,
    );
  if (!r.servedAs.length) out.push('  none');
  for (const s of r.servedAs.slice(0, shownPerSection * 2)) {
    const e = s.explained;
    out.push(
      `  ${visibleText(clipped(s.shape, 100))} ×${formatCount(s.requests)}: ${
        e
          ? `${e.servedBy}${e.errorCode !== undefined ? ` ${e.errorCode}` : ''} · ${visibleText(e.rule)}${e.consistentRead ? ' · consistent read' : ''}${e.mayWait ? ' · may wait 3 s' : ''}`
          : s.error
            ? `not explained: ${visibleText(s.error)}`
            : 'not explained'
      }`,
    );
  }
  if (r.servedAs.length > shownPerSection * 2)
    out.push(`  … ${formatCount(r.servedAs.length - shownPerSection * 2)} more (--json)`);
  out.push('', `Rejected lines: ${formatCount(r.rejected.count)}`);
  for (const x of r.rejected.samples.slice(0, shownPerSection))
    out.push(
      `  ${visibleText(x.file)}:${x.line}: ${visibleText(x.reason)}: ${visibleText(x.text)}`,
    );
  if (r.rejected.count > Math.min(shownPerSection, r.rejected.samples.length))
    out.push(
      `  … ${formatCount(r.rejected.count - Math.min(shownPerSection, r.rejected.samples.length))} more`,
    );
  out.push(
    '',
    'Rules:',
    `  relists: ${r.rules.relist}`,
    `  chains: ${r.rules.chains}`,
    `  storms: ${r.rules.storms}`,
    `  joins: ${r.joins.rule}`,
  );
  return out.join('\n') + '\n';
}
