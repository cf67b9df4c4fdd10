// No upstream counterpart: the report of a run that no built-in scenario made (a local API
// server's live run, logs imported and replayed, a probe of a cluster), read from its RunModel
// alone, so that `listwatch report` tells every trace's story the way it tells a scenario's.
import type { ScenarioSummary, SummaryTable } from './run-summary';
import { figuresByClient, totalFigures } from './compare-runs';
import { relistRule, relistViaText } from './relist-rule';
import { relistsOf } from './client-records';
import type { RunModel, WatchRequestRecord } from './run-model';
import { plural } from '../format/count-text';
import { replayCountOf, replayCountText } from './views/replay-count';

/** Rows a table of single requests shows before it says how many more `--json` carries. */
export const maxRequestRows = 40;

/** Each recorded run: its report's title, and why `listwatch replay` does not re-run it. */
const recordedRuns: Record<string, { title: string; notRerun: string }> = {
  live: {
    title: "a local API server's run: real clients, the engine on the real clock",
    notRerun:
      "a local API server's trace records real clients on the real clock; 'listwatch report' reads it",
  },
  import: {
    title: "logs imported and replayed through the engine, in virtual time at the log's spacing",
    notRerun:
      "an import is replayed from its logs: run 'listwatch import' on the files its header names again, with --trace; 'listwatch report' reads this trace",
  },
  probe: {
    title: 'a real cluster probed: its pages and watch events as it answered them',
    notRerun:
      "a probe's trace records what a real cluster answered; probe it again with 'listwatch probe'; 'listwatch report' reads this trace",
  },
};

/** The recorded runs `summarizeRecordedRun` reads. */
export function isRecordedRun(scenario: string): boolean {
  return scenario in recordedRuns;
}

/** Why a recorded run's trace is not re-run, and what reproduces it instead (undefined: a scenario's). */
export function notRerunReason(scenario: string): string | undefined {
  return recordedRuns[scenario]?.notRerun;
}

function countBy<T>(xs: readonly T[], key: (x: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) {
    const k = key(x);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

function countsText(m: Record<string, number>): string {
  return Object.entries(m)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
}

function more(shown: number, total: number, what: string): string | undefined {
  return total > shown ? `${total - shown} more ${what} in --json.` : undefined;
}

/** How a refused WATCH was answered: an HTTP error, or an ERROR event in a 200 stream. */
function watchRefusalText(w: WatchRequestRecord): string {
  const code = String(w.error?.code ?? '?');
  return w.errorInStream ? `${code} as an ERROR event in a 200 stream` : code;
}

/** The summary of a live, import or probe run (renderReport and runJson print it). */
export function summarizeRecordedRun(model: RunModel): ScenarioSummary {
  const scenario = model.header.scenario;
  const lists = model.lists;
  const watches = model.watchRequests ?? [];
  const probe = scenario === 'probe';
  const clients = figuresByClient(model);
  const { etcdCalls, fetchedObjects: fetched, http410, disagreements } = totalFigures(clients);
  const returned = lists.reduce((n, l) => n + l.returned, 0);
  const listErrors = lists.filter((l) => l.error !== undefined);
  const watchErrors = watches.filter((w) => w.outcome === 'error');

  const story: string[] = [];
  const served = countBy(lists, (l) => l.servedBy);
  // The user agents that sent a LIST (the table below lists those that only watched too). Its
  // figures are per User-Agent: a live run's clients (a User-Agent on one connection, as the
  // Clients table and the clients report count them) are more.
  const listing = [...clients.values()].filter((f) => f.lists > 0).length;
  story.push(
    `${plural(lists.length, 'LIST')} from ${plural(listing, 'user agent')}` +
      (lists.length ? ` (served by ${countsText(served)})` : '') +
      (probe
        ? `: the cluster returned ${plural(returned, 'item')}; whether its watch cache or etcd served them is not seen from outside.`
        : `: ${plural(etcdCalls, 'etcd call')} read ${plural(fetched, 'key')}, ${plural(returned, 'item')} returned.`),
  );
  if (watches.length)
    story.push(
      `${plural(watches.length, 'WATCH request')}: ${countsText(countBy(watches, (w) => w.outcome))}` +
        (watchErrors.length
          ? `; refused with ${countsText(countBy(watchErrors, watchRefusalText))}.`
          : '.'),
    );
  const relists = (model.clients ?? []).flatMap((c) =>
    relistsOf(c).map((r) => ({ ...r, client: c.client })),
  );
  relists.sort((a, b) => a.at - b.at);
  if (relists.length)
    story.push(
      `${plural(relists.length, 'relist')}: ${countsText(countBy(relists, (r) => relistViaText[r.via]))}.`,
    );
  if (listErrors.length)
    story.push(
      `LISTs answered with an error: ${countsText(countBy(listErrors, (l) => `${l.error?.code} ${l.error?.reason}`))}.`,
    );
  // The replay's count in its one wording (run/views/replay-count.ts), as every face says it.
  if (scenario === 'import') story.push(`${replayCountText(replayCountOf(model))}.`);
  if (model.faults?.length)
    story.push(
      `Faults injected: ${countsText(countBy(model.faults, (f) => f.name))} (${model.faults.map((f) => f.text).join('; ')}).`,
    );

  const tables: SummaryTable[] = [];
  tables.push({
    title: probe ? 'Per user agent' : "Per user agent (the engine's answers)",
    columns: [
      'user agent',
      'LISTs',
      'WATCHes',
      'etcd calls',
      'etcd keys',
      '410s',
      'freshness waits',
      'disagree',
    ],
    rows: [...clients.entries()]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([c, f]) => [
        c || '(none)',
        f.lists,
        f.watches,
        f.etcdCalls,
        f.fetchedObjects,
        f.http410,
        f.waits,
        f.disagreements,
      ]),
    note: "freshness waits: the user agent's LISTs and WATCHes (a WatchList's too) that waited for the watch cache to be fresh (waitUntilFreshAndBlock), as apiserver_watch_cache_read_wait_seconds_count counts them.",
  });
  const listRows = lists.slice(0, maxRequestRows);
  tables.push({
    title: 'LISTs',
    columns: [
      'at ms',
      'client',
      'request',
      'served by',
      'etcd calls',
      'fetched',
      'returned',
      'status',
    ],
    rows: listRows.map((l) => [
      Math.round(l.at),
      l.client ?? '',
      l.request,
      l.servedBy,
      l.etcdRequests.length,
      l.fetched,
      l.returned,
      l.error ? `${l.error.code} ${l.error.reason}` : l.endedAt === undefined ? 'no answer' : '200',
    ]),
    note: more(listRows.length, lists.length, 'LISTs'),
  });
  if (relists.length) {
    const shown = relists.slice(0, maxRequestRows);
    tables.push({
      // An import's own relists (from the log) come first in its report: these are the replay's.
      title: scenario === 'import' ? "Relists (the engine's replay)" : 'Relists',
      columns: ['at ms', 'client', 'relist', 'request', 'after the watch ended', 'gap ms'],
      rows: shown.map((r) => [
        Math.round(r.at),
        r.client,
        relistViaText[r.via],
        r.request,
        r.because,
        Math.round(r.gapMs),
      ]),
      note: [
        `Rule: ${relistRule}.`,
        relists.length > shown.length
          ? `${relists.length - shown.length} more relists not shown.`
          : undefined,
      ]
        .filter((x) => x !== undefined)
        .join('\n'),
    });
  }
  const disagreeing = [
    ...lists.filter((l) => l.disagrees?.length).map((l) => ({ ...l, verb: 'LIST' })),
    ...watches.filter((w) => w.disagrees?.length).map((w) => ({ ...w, verb: 'WATCH' })),
  ].sort((a, b) => a.at - b.at);
  if (disagreeing.length) {
    const shown = disagreeing.slice(0, maxRequestRows);
    tables.push({
      title: 'Disagreements with the log',
      columns: ['at ms', 'verb', 'request', 'log', 'engine differs in'],
      rows: shown.map((r) => [
        Math.round(r.at),
        r.verb,
        r.request,
        r.logged?.status !== undefined ? String(r.logged.status) : '',
        (r.disagrees ?? []).join(', '),
      ]),
      note: more(shown.length, disagreeing.length, 'disagreements'),
    });
  }

  return {
    scenario,
    title: recordedRuns[scenario]?.title ?? scenario,
    story,
    facts: {
      lists: lists.length,
      watchRequests: watches.length,
      userAgents: clients.size,
      ...(probe ? {} : { etcdCalls, etcdKeys: fetched }),
      returnedItems: returned,
      http410,
      ...(relists.length ? { relists: relists.length } : {}),
      ...(scenario === 'import' ? { disagreements } : {}),
    },
    tables,
    charts: [],
  };
}
