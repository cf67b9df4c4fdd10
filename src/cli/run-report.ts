// The `listwatch scenario run` / `listwatch report` output: a report a person reads in a terminal
// (the story, tables, small bar charts, the key numbers, the metrics) and the --json object. Both
// are read from the RunModel and the scenario's summary, nothing else.
import type { ScenarioSummary, SummaryChart, SummaryTable } from '../run/run-summary';
import type { ListRecord, RunModel, WatcherTrack } from '../run/run-model';
import { importScenario, isRealTimeRun, runClockFacts, runClockText } from '../run/views/run-clock';
import { truncationOf } from '../scenarios/runner';
import type { JsonSection } from '../scenarios/scenario';
import { clientsReport, type ClientsReport } from '../run/clients-report';
import { liveScenario } from '../run/views/run-clock';
import { clientsTable, faultRecoveryLines, groupingLines } from './clients-report-text';

export interface ReportOptions {
  /** Line width for wrapping (default 100). */
  width?: number;
}

const maxCell = 72;

/**
 * One table cell on one line, at most maxCell characters: a longer one loses its middle, so both
 * ends stay (a client's User-Agent and the process after it, a URL's path and its query).
 */
export function reportCell(v: string | number): string {
  const s = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v;
  const one = s.replace(/\s+/g, ' ');
  if (one.length <= maxCell) return one;
  const head = Math.ceil((maxCell - 1) / 2);
  return `${one.slice(0, head)}…${one.slice(one.length - (maxCell - 1 - head))}`;
}

/** Wraps text at word boundaries, each line prefixed with `indent`. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      if (line !== '' && indent.length + line.length + 1 + word.length > width) {
        out.push(indent + line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    out.push(indent + line);
  }
  return out;
}

/** A table with a rule under the header; numeric columns right-aligned. */
export function renderTable(t: SummaryTable, width: number): string[] {
  const out = [t.title];
  if (t.rows.length === 0) {
    out.push('  (none)');
  } else {
    const cells = t.rows.map((r) => r.map(reportCell));
    const numeric = t.columns.map((_, c) =>
      t.rows.every((r) => r[c] === undefined || r[c] === '' || typeof r[c] === 'number'),
    );
    const widths = t.columns.map((h, c) =>
      Math.max(h.length, ...cells.map((r) => (r[c] ?? '').length)),
    );
    const fmt = (vals: string[]): string =>
      '  ' +
      vals
        .map((v, c) => (numeric[c] ? v.padStart(widths[c]) : v.padEnd(widths[c])))
        .join('  ')
        .trimEnd();
    out.push(fmt(t.columns));
    out.push('  ' + widths.map((w) => '─'.repeat(w)).join('  '));
    for (const r of cells) out.push(fmt(t.columns.map((_, c) => r[c] ?? '')));
  }
  if (t.note) for (const l of t.note.split('\n')) out.push(...wrap(l, width, '  '));
  return out;
}

const eighths = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** Horizontal bars scaled to the largest value. */
export function renderChart(c: SummaryChart, barWidth = 40): string[] {
  if (c.points.length === 0) return [];
  const max = Math.max(...c.points.map((p) => p.value), 0);
  const lw = Math.max(...c.points.map((p) => p.label.length));
  const out = [`${c.title} (${c.unit})`];
  for (const p of c.points) {
    const units = max > 0 ? (p.value / max) * barWidth * 8 : 0;
    const full = Math.floor(units / 8);
    let bar = '█'.repeat(full) + eighths[Math.floor(units % 8)];
    if (bar === '' && p.value > 0) bar = '▏';
    out.push(`  ${p.label.padEnd(lw)}  ${bar.padEnd(barWidth)} ${reportCell(p.value)}`);
  }
  return out;
}

function paramsLine(model: RunModel): string {
  return Object.entries(model.header.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

function fmtVirtual(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(3)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${(s - m * 60).toFixed(1)} s`;
}

/** The terminal report. */
/** The clients report as text: the clients table, what joins a client's connections, then each fault's recovery per client. */
export function renderClientsReport(report: ClientsReport, width: number): string[] {
  const out = renderTable(clientsTable(report), width);
  const grouped = groupingLines(report);
  if (grouped.length > 0)
    out.push('', 'Connections taken as one client', ...grouped.map((l) => `  ${l}`));
  const faults = faultRecoveryLines(report);
  out.push('', 'Faults and recovery');
  if (faults.length === 0) out.push('  (no fault touched a client)');
  else for (const l of faults) out.push(`  ${l}`);
  return out;
}

/** A live run's clients report (a scenario's clients are in its own tables). */
function liveClientsReport(model: RunModel): ClientsReport | undefined {
  if (model.header.scenario !== liveScenario) return undefined;
  if (!model.clients?.length && !model.answers?.length) return undefined;
  return clientsReport(model);
}

export function renderReport(
  model: RunModel,
  summary: ScenarioSummary,
  opts: ReportOptions = {},
): string {
  const width = opts.width ?? 100;
  const out: string[] = [];
  const h = model.header;
  out.push(`${h.scenario} — ${summary.title}`);
  out.push(
    h.scenario === importScenario
      ? // An import has no seed: its logs and their span say what it is.
        [
          `profile ${h.profile}`,
          ...runClockFacts(h, fmtVirtual(model.durationMs), model.imported?.span).filter(
            (f) => !f.startsWith('profile '),
          ),
        ].join(' · ')
      : `profile ${h.profile}${isRealTimeRun(h.scenario) ? '' : ` · seed ${h.seed}`} · ${fmtVirtual(model.durationMs)} ${runClockText(h.scenario)}`,
  );
  out.push(...wrap(paramsLine(model), width));
  out.push('');
  const truncation = truncationOf(model);
  if (truncation !== undefined) {
    out.push(
      ...wrap(`TRUNCATED: ${truncation}. Every figure below covers the run up to there.`, width),
    );
    out.push('');
  }
  for (const s of summary.story) {
    out.push(...wrap(s, width));
    out.push('');
  }
  for (const t of summary.tables) {
    out.push(...renderTable(t, width));
    out.push('');
  }
  const clients = liveClientsReport(model);
  if (clients) {
    out.push(...renderClientsReport(clients, width));
    out.push('');
  }
  for (const c of summary.charts) {
    const lines = renderChart(c);
    if (lines.length) {
      out.push(...lines);
      out.push('');
    }
  }
  out.push('Key numbers');
  const facts = Object.entries(summary.facts);
  const kw = Math.max(...facts.map(([k]) => k.length), 0);
  for (const [k, v] of facts)
    out.push(`  ${k.padEnd(kw)}  ${reportCell(typeof v === 'boolean' ? String(v) : v)}`);
  out.push('');
  const series = Object.entries(model.metrics).filter(
    ([k, v]) => !k.includes('_bucket{') && v !== 0,
  );
  if (series.length) {
    out.push('Metrics (non-zero series; histogram buckets left out)');
    for (const [k, v] of series) out.push(`  ${k} ${reportCell(v)}`);
    out.push('');
  }
  if (model.rejected.count > 0) {
    out.push(`Warning: ${model.rejected.count} trace line(s) rejected:`);
    for (const s of model.rejected.samples) out.push(`  ${s}`);
    out.push('');
  }
  const truncated = Object.entries(model.truncated ?? {});
  if (truncated.length)
    out.push(
      `Left out of bounded collections: ${truncated.map(([k, v]) => `${k} ${v}`).join(', ')}`,
      '',
    );
  return out.join('\n');
}

// ------------------------------------------------------------ --json

function listJson(l: ListRecord): Record<string, unknown> {
  return {
    id: l.id,
    requestId: l.requestId,
    at: l.at,
    request: l.request,
    ...(l.client !== undefined ? { client: l.client } : {}),
    servedBy: l.servedBy,
    rule: l.rule,
    etcdRequests: l.etcdRequests.map((q) => ({
      operation: q.operation,
      key: q.key,
      limit: q.limit,
      kvs: q.kvs,
      count: q.count,
      revision: q.revision,
      latencyMs: q.latencyMs,
      ...(q.error !== undefined ? { error: q.error } : {}),
    })),
    fetched: l.fetched,
    evaluated: l.evaluated,
    returned: l.returned,
    resourceVersion: l.resourceVersion,
    continue: l.continue,
    remainingItemCount: l.remainingItemCount ?? null,
    streamed: l.streamed ?? false,
    ...(l.stream ? { stream: l.stream } : {}),
    pages: l.pages ?? [],
    waits: l.waits,
    fallbacks: l.fallbacks,
    ...(l.error ? { error: l.error } : {}),
    endedAt: l.endedAt ?? null,
  };
}

function watcherJson(w: WatcherTrack, client: string | undefined): Record<string, unknown> {
  const rest: Partial<WatcherTrack> = { ...w };
  delete rest.log;
  delete rest.logDropped;
  delete rest.bookmarkTimes;
  // The figures over time are for the inspector; the client comes from the watch requests.
  delete rest.samples;
  delete rest.client;
  return {
    ...rest,
    ...(client !== undefined ? { client } : {}),
    closedAt: w.closedAt ?? null,
    nextBookmarkSecond: w.nextBookmarkSecond ?? null,
  };
}

/** The --json object: identity, resolved params, summary, metrics and the scenario's sections. */
export function runJson(
  model: RunModel,
  summary: ScenarioSummary,
  sections: readonly JsonSection[],
): Record<string, unknown> {
  const h = model.header;
  const out: Record<string, unknown> = {
    scenario: h.scenario,
    title: summary.title,
    seed: h.seed,
    profile: h.profile,
    params: h.params,
    durationMs: model.durationMs,
    summary: { story: summary.story, facts: summary.facts },
    metrics: model.metrics,
  };
  const clientOf = new Map<string, string>();
  for (const q of model.watchRequests ?? [])
    if (q.watcherId !== undefined) clientOf.set(q.watcherId, q.client);
  for (const s of sections) {
    switch (s) {
      case 'lists':
        out.lists = model.lists.map(listJson);
        if ((model.cacherLists ?? []).length)
          out.cacherLists = (model.cacherLists ?? []).map(listJson);
        break;
      case 'watchers':
        out.watchers = model.watchers.map((w) => watcherJson(w, clientOf.get(w.id)));
        break;
      case 'serialization': {
        const ser = model.serialization;
        out.serialization = {
          encodes: ser.encodes,
          hits: ser.hits,
          lazyDeepCopies: ser.lazyDeepCopies,
          invalidations: ser.invalidations,
          perIdentifier: ser.perIdentifier,
          perEvent: ser.perEvent,
          perEventDropped: ser.perEventDropped ?? 0,
        };
        break;
      }
      case 'capacity':
        out.capacity = model.capacity;
        break;
      case 'waits':
        out.waits = model.freshnessWaits ?? [];
        break;
      case 'watchRequests':
        out.watchRequests = model.watchRequests ?? [];
        break;
    }
  }
  const clients = liveClientsReport(model);
  if (clients) out.clientsReport = clients;
  if (model.rejected.count > 0) out.rejected = model.rejected;
  if (Object.keys(model.truncated ?? {}).length) out.truncated = model.truncated;
  return out;
}
