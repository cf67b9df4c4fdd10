// The Watchers tab's rows, answered by the host a page at a time (protocol.ts watchers/query):
// every watcher of the run and every WATCH request the server answered with an error (410, 429,
// 504…), as they stood at the scrubber's time, filtered, searched and sorted here so that the
// panel holds only the rows in view. No upstream counterpart; no vscode here.
import { statusText } from '../../run/views/status-text';
import { watcherFiguresAt } from '../../run/views/watcher-at-time';
import {
  watcherPhaseAt,
  watcherPhaseLabels,
  watcherPhaseText,
} from '../../run/views/watcher-states';
import {
  maxWatcherRows,
  type WatchersAtTime,
  type VirtualMs,
  type WatchRequestRecord,
  type WatcherQuery,
  type WatcherRow,
  type WatcherRowPhase,
  type WatcherSortColumn,
  type WatcherTrack,
} from '../../protocol';
import type { RunModel } from '../../run/run-model';

/** A watch request the server refused: a row of its own (it has no watcher). */
interface Refused {
  id: string;
  request: WatchRequestRecord;
}

/** A row's source: a watcher's track, or a refused watch request. */
type Entry = WatcherTrack | Refused;

function isRefused(e: Entry): e is Refused {
  return 'request' in e;
}

/** How a failed request reads: `410 Expired: too old resource version: 101 (8901)`. */
export function requestOutcome(q: WatchRequestRecord): string {
  return q.error ? statusText(q.error) : 'failed';
}

function selectorOf(request: string): string {
  const m = /[?&](labelSelector|fieldSelector)=([^&]*)/g;
  const parts: string[] = [];
  for (let x = m.exec(request); x; x = m.exec(request)) parts.push(decodeURIComponent(x[2]));
  return parts.join(',');
}

const phaseOrder: Record<WatcherRowPhase, number> = {
  notStarted: 0,
  failed: 1,
  WaitingForBookmark: 2,
  BookmarkReceived: 3,
  BookmarkSent: 4,
  closed: 5,
};

/** Columns whose order depends on the time (sorting by them re-sorts as the scrubber moves). */
const staticColumns = new Set<WatcherSortColumn>(['id', 'client', 'selector', 'contentType']);

function numericId(id: string): number {
  return /^\d+$/.test(id) ? Number(id) : Number.MAX_SAFE_INTEGER;
}

function sortKey(row: WatcherRow, column: WatcherSortColumn): number | string {
  switch (column) {
    case 'id':
      return row.failed ? -1 : numericId(row.id);
    case 'client':
      return row.client;
    case 'selector':
      return row.selector;
    case 'contentType':
      return row.contentType;
    case 'state':
      return phaseOrder[row.phase];
    // A figure not true yet sorts before every figure (a blank before 0).
    case 'floor':
      return row.floorRv ?? -1;
    case 'lastRv':
      return row.lastRv ?? -1;
    case 'received':
      return row.received ?? -1;
    case 'buffer':
      return row.bufferFill === undefined
        ? -1
        : row.bufferCapacity
          ? row.bufferFill / row.bufferCapacity
          : 0;
    case 'nextBookmark':
      return row.nextBookmarkSecond ?? Number.MAX_SAFE_INTEGER;
    case 'outcome':
      return row.outcome;
  }
}

export interface WatcherRowsAnswer {
  total: number;
  matching: number;
  from: number;
  rows: WatcherRow[];
  revealIndex?: number;
  watchersAt: WatchersAtTime;
}

/** How many of `times` (sorted) are <= at. */
function countAtOrBefore(times: readonly number[], at: VirtualMs): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows of each run, kept while its model lives (switching back to a run costs nothing). */
const rowsOfModel = new WeakMap<RunModel, WatcherRows>();

/** The rows of a run's model (made once per model). */
export function watcherRowsOf(model: RunModel): WatcherRows {
  let rows = rowsOfModel.get(model);
  if (!rows) {
    rows = new WatcherRows(model);
    rowsOfModel.set(model, rows);
  }
  return rows;
}

export class WatcherRows {
  private readonly entries: readonly Entry[];
  private clients: Map<string, string> | undefined;
  /** Entries by row id: made on the first lookup. */
  private byIdMap: Map<string, Entry> | undefined;
  /** Lower-cased id, client, selector, content type and outcome per entry: made on the first search. */
  private haystacks: string[] | undefined;
  private readonly runEnd: VirtualMs;
  /** The last query's order (indices into entries), and what it depends on. */
  private cached: { key: string; order: number[] } | undefined;
  /** The watchers' opening and ending times, sorted: made on the first count. */
  private lifetimes: { opened: number[]; ended: number[] } | undefined;

  constructor(private readonly model: RunModel) {
    this.runEnd = model.durationMs;
    // A refused request stands where it was made among the watchers (both in request order).
    const refused: Refused[] = [];
    for (const [i, request] of (model.watchRequests ?? []).entries())
      if (request.outcome === 'error') refused.push({ id: `request-${i + 1}`, request });
    if (refused.length === 0) {
      // The common case: the rows are the watchers, in order (no copy of 100,000 references).
      this.entries = model.watchers;
      return;
    }
    const entries: Entry[] = [];
    let f = 0;
    for (const w of model.watchers) {
      const opened = w.states[0]?.at ?? 0;
      while (f < refused.length && refused[f].request.at < opened) entries.push(refused[f++]);
      entries.push(w);
    }
    while (f < refused.length) entries.push(refused[f++]);
    this.entries = entries;
  }

  private byId(id: string): Entry | undefined {
    if (!this.byIdMap) {
      this.byIdMap = new Map();
      for (const e of this.entries) this.byIdMap.set(e.id, e);
    }
    return this.byIdMap.get(id);
  }

  /** The client of a watcher: the run model names it; older models only in the watch requests. */
  private clientOf(track: WatcherTrack): string {
    if (track.client !== undefined) return track.client;
    if (!this.clients) {
      this.clients = new Map();
      for (const q of this.model.watchRequests ?? [])
        if (q.watcherId !== undefined) this.clients.set(q.watcherId, q.client);
    }
    return this.clients.get(track.id) ?? '';
  }

  get total(): number {
    return this.entries.length;
  }

  /** The row with this id at `at`, if the run has it. */
  row(id: string, at: VirtualMs): WatcherRow | undefined {
    const e = this.byId(id);
    return e ? this.rowOf(e, at) : undefined;
  }

  /** The entry behind a row id: a watcher's track or a failed request. */
  source(id: string): { track?: WatcherTrack; request?: WatchRequestRecord } | undefined {
    const e = this.byId(id);
    if (!e) return undefined;
    return isRefused(e) ? { request: e.request } : { track: e };
  }

  query(
    q: WatcherQuery,
    at: VirtualMs,
    from: number,
    count: number,
    reveal?: string,
  ): WatcherRowsAnswer {
    const order = this.order(q, at);
    const start = Math.max(0, Math.min(from, order.length));
    const end = Math.min(order.length, start + Math.max(0, Math.min(count, maxWatcherRows)));
    const rows: WatcherRow[] = [];
    for (let i = start; i < end; i++) rows.push(this.rowOf(this.entries[order[i]], at));
    const answer: WatcherRowsAnswer = {
      total: this.entries.length,
      matching: order.length,
      from: start,
      rows,
      watchersAt: this.watchersAt(at),
    };
    if (reveal !== undefined)
      answer.revealIndex = order.findIndex((i) => this.entries[i].id === reveal);
    return answer;
  }

  /**
   * The run's watchers at `at`: open, not opened yet, ended (as watcherPhaseAt reads each). What
   * the Watchers tab says with no watcher selected, from the rows' own source.
   */
  watchersAt(at: VirtualMs): WatchersAtTime {
    if (!this.lifetimes) {
      const opened: number[] = [];
      const ended: number[] = [];
      for (const w of this.model.watchers) {
        opened.push(w.states.length ? w.states[0].at : Infinity);
        // Closed without a recorded time: seen closed from the end of the run on.
        ended.push(w.closedAt ?? (w.terminated || w.closeReason !== '' ? this.runEnd : Infinity));
      }
      const ascending = (a: number, b: number) => a - b;
      this.lifetimes = { opened: opened.sort(ascending), ended: ended.sort(ascending) };
    }
    const total = this.lifetimes.opened.length;
    const ended = countAtOrBefore(this.lifetimes.ended, at);
    const later = total - countAtOrBefore(this.lifetimes.opened, at);
    return { open: Math.max(0, total - later - ended), later, ended };
  }

  private haystack(i: number): string {
    this.haystacks ??= this.entries.map((e) =>
      isRefused(e)
        ? `${e.id}\n${e.request.client}\n${selectorOf(e.request.request)}\n${requestOutcome(e.request)}`.toLowerCase()
        : `${e.id}\n${this.clientOf(e)}\n${e.selector}\n${e.contentType}\n${e.closeReason}`.toLowerCase(),
    );
    return this.haystacks[i];
  }

  private phaseOf(e: Entry, at: VirtualMs): WatcherRowPhase {
    if (!isRefused(e)) return watcherPhaseAt(e, at, this.runEnd);
    const q = e.request;
    return (q.answeredAt ?? q.at) <= at ? 'failed' : 'notStarted';
  }

  private order(q: WatcherQuery, at: VirtualMs): number[] {
    const needle = q.search.trim().toLowerCase();
    const timed = q.state !== '' || (q.sort !== undefined && !staticColumns.has(q.sort.column));
    const key = JSON.stringify([needle, q.state, q.sort ?? null, timed ? at : null]);
    if (this.cached?.key === key) return this.cached.order;
    let order: number[] = [];
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i];
      if (needle && !this.haystack(i).includes(needle)) continue;
      if (q.state && this.phaseOf(e, at) !== q.state) continue;
      order.push(i);
    }
    const sort = q.sort;
    if (sort) {
      const keys = new Map<number, number | string>();
      for (const i of order) keys.set(i, sortKey(this.rowOf(this.entries[i], at), sort.column));
      const dir = sort.descending ? -1 : 1;
      order = order.sort((a, b) => {
        const ka = keys.get(a) as number | string;
        const kb = keys.get(b) as number | string;
        return ka < kb ? -dir : ka > kb ? dir : a - b;
      });
    }
    this.cached = { key, order };
    return order;
  }

  private rowOf(e: Entry, at: VirtualMs): WatcherRow {
    if (!isRefused(e)) {
      const t = e;
      const f = watcherFiguresAt(t, at, this.runEnd);
      const ended = f.phase === 'closed';
      const row: WatcherRow = {
        id: t.id,
        failed: false,
        client: this.clientOf(t),
        selector: t.selector,
        contentType: t.contentType,
        phase: f.phase,
        stateText: watcherPhaseText(f.phase, t),
        bufferCapacity: f.bufferCapacity,
        // How it ended, only once it has.
        outcome: ended ? t.closeReason || (t.terminated ? 'terminated' : 'closed') : '',
        endOfRun: f.endOfRun,
      };
      if (f.known) {
        row.floorRv = f.floorRv;
        row.lastRv = f.lastRv;
        row.received = f.received;
        row.bookmarks = f.bookmarks;
        row.bufferFill = f.bufferFill;
      }
      if (f.nextBookmarkSecond !== undefined) row.nextBookmarkSecond = f.nextBookmarkSecond;
      // An open watch may say when it ends (later in the run); one not opened yet says nothing.
      if (f.opened && !ended && t.closedAt !== undefined) row.endsAt = t.closedAt;
      return row;
    }
    const q = e.request;
    const phase = this.phaseOf(e, at);
    const row: WatcherRow = {
      id: e.id,
      failed: true,
      client: q.client,
      selector: selectorOf(q.request),
      contentType: '',
      phase,
      stateText: phase === 'failed' ? 'Failed' : watcherPhaseLabels.notStarted,
      bufferCapacity: 0,
      outcome: phase === 'failed' ? requestOutcome(q) : '',
      endOfRun: false,
    };
    // Sent and not answered yet: when the answer comes. Before it was sent: nothing.
    if (phase !== 'failed' && q.at <= at) row.endsAt = q.answeredAt ?? q.at;
    return row;
  }
}
