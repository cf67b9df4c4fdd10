// The Watchers tab's rows, answered by the host a page at a time (protocol.ts watchers/query):
// every watcher of the run and every WATCH request the server answered with an error (410, 429,
// 504…), as they stood at the scrubber's time, filtered, searched and sorted here so that the
// panel holds only the rows in view. No upstream counterpart; no vscode here.
import { watcherFiguresAt } from '../../inspector/watcher-at-time';
import { watcherPhaseAt } from '../../inspector/watcher-states';
import {
  maxWatcherRows,
  type VirtualMs,
  type WatchRequestRecord,
  type WatcherQuery,
  type WatcherRow,
  type WatcherRowPhase,
  type WatcherSortColumn,
  type WatcherTrack,
} from '../../protocol';
import type { RunModel } from '../../run/run-model';

/** A row's source: a watcher's track, or a failed watch request. */
interface Entry {
  id: string;
  track?: WatcherTrack;
  request?: WatchRequestRecord;
  client: string;
  /** Lower-cased id, client, selector, content type and outcome, for the search. */
  haystack: string;
}

/** How a failed request reads: `410 Expired: too old resource version: 101 (8901)`. */
export function requestOutcome(q: WatchRequestRecord): string {
  if (!q.error) return 'failed';
  return `${q.error.code}${q.error.reason ? ` ${q.error.reason}` : ''}: ${q.error.message}`;
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
    case 'floor':
      return row.floorRv;
    case 'lastRv':
      return row.lastRv;
    case 'received':
      return row.received;
    case 'buffer':
      return row.bufferCapacity ? row.bufferFill / row.bufferCapacity : 0;
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
}

export class WatcherRows {
  private readonly entries: Entry[];
  private readonly byId = new Map<string, Entry>();
  private readonly runEnd: VirtualMs;
  /** The last query's order (indices into entries), and what it depends on. */
  private cached: { key: string; order: number[] } | undefined;

  constructor(model: RunModel) {
    this.runEnd = model.durationMs;
    const clientOf = new Map<string, string>();
    for (const q of model.watchRequests ?? [])
      if (q.watcherId !== undefined) clientOf.set(q.watcherId, q.client);
    const watchers: Entry[] = model.watchers.map((track) => {
      const client = track.client ?? clientOf.get(track.id) ?? '';
      return {
        id: track.id,
        track,
        client,
        haystack:
          `${track.id}\n${client}\n${track.selector}\n${track.contentType}\n${track.closeReason}`.toLowerCase(),
      };
    });
    // A failed request stands where it was made among the watchers (both in request order).
    const failed: Entry[] = (model.watchRequests ?? [])
      .map((request, i) => ({ request, i }))
      .filter(({ request }) => request.outcome === 'error')
      .map(({ request, i }) => ({
        id: `request-${i + 1}`,
        request,
        client: request.client,
        haystack:
          `request-${i + 1}\n${request.client}\n${selectorOf(request.request)}\n${requestOutcome(request)}`.toLowerCase(),
      }));
    this.entries = [];
    let f = 0;
    for (const w of watchers) {
      const opened = w.track?.states[0]?.at ?? 0;
      while (f < failed.length && (failed[f].request as WatchRequestRecord).at < opened)
        this.entries.push(failed[f++]);
      this.entries.push(w);
    }
    while (f < failed.length) this.entries.push(failed[f++]);
    for (const e of this.entries) this.byId.set(e.id, e);
  }

  get total(): number {
    return this.entries.length;
  }

  /** The row with this id at `at`, if the run has it. */
  row(id: string, at: VirtualMs): WatcherRow | undefined {
    const e = this.byId.get(id);
    return e ? this.rowOf(e, at) : undefined;
  }

  /** The entry behind a row id: a watcher's track or a failed request. */
  source(id: string): { track?: WatcherTrack; request?: WatchRequestRecord } | undefined {
    const e = this.byId.get(id);
    return e ? { track: e.track, request: e.request } : undefined;
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
    };
    if (reveal !== undefined)
      answer.revealIndex = order.findIndex((i) => this.entries[i].id === reveal);
    return answer;
  }

  private phaseOf(e: Entry, at: VirtualMs): WatcherRowPhase {
    if (e.track) return watcherPhaseAt(e.track, at, this.runEnd);
    const q = e.request as WatchRequestRecord;
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
      if (needle && !e.haystack.includes(needle)) continue;
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
    if (e.track) {
      const t = e.track;
      const f = watcherFiguresAt(t, at, this.runEnd);
      const ended = f.phase === 'closed';
      const row: WatcherRow = {
        id: t.id,
        failed: false,
        client: e.client,
        selector: t.selector,
        contentType: t.contentType,
        phase: f.phase,
        floorRv: f.floorRv,
        lastRv: f.lastRv,
        received: f.received,
        bookmarks: f.bookmarks,
        bufferFill: f.bufferFill,
        bufferCapacity: f.bufferCapacity,
        outcome: ended ? t.closeReason || (t.terminated ? 'terminated' : 'closed') : '',
        endOfRun: f.endOfRun,
      };
      if (f.nextBookmarkSecond !== undefined) row.nextBookmarkSecond = f.nextBookmarkSecond;
      if (!ended && t.closedAt !== undefined) row.endsAt = t.closedAt;
      return row;
    }
    const q = e.request as WatchRequestRecord;
    const phase = this.phaseOf(e, at);
    const row: WatcherRow = {
      id: e.id,
      failed: true,
      client: q.client,
      selector: selectorOf(q.request),
      contentType: '',
      phase,
      floorRv: 0,
      lastRv: 0,
      received: 0,
      bookmarks: 0,
      bufferFill: 0,
      bufferCapacity: 0,
      outcome: phase === 'failed' ? requestOutcome(q) : '',
      endOfRun: false,
    };
    if (phase !== 'failed') row.endsAt = q.answeredAt ?? q.at;
    return row;
  }
}
