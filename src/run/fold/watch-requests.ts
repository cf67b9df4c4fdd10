// No upstream counterpart: folds the model's `watchRequests`: a record per WATCH request from its
// inputs (sent, answered, and for an imported watch its close, compared with the log), kept by
// request id until it is answered so that its watcher and its reads can be told apart.
import type { WatchCacheFreshnessWaitEvent } from '../../engine';
import { faultCutReason, type ScenarioInput } from '../trace/trace-format';
import type { WatchRequestRecord } from '../run-model';
import type { SeriesLimit } from './series-limit';
import { isWatchListRequest } from '../relist-rule';

type WatchInput<A extends ScenarioInput['action']> = Extract<ScenarioInput, { action: A }>;

/** A WATCH request until it is answered: its record and what its watcher track needs. */
export interface PendingWatch {
  record: WatchRequestRecord;
  contentType: string;
}

export class WatchRequestsFold {
  /** WATCH requests by request id, until they are answered. */
  private readonly pendingById = new Map<number, PendingWatch>();
  private readonly records: WatchRequestRecord[] = [];
  /** Live watches by request id until they close: a WatchList's sync end, a cut, join them. */
  private readonly open = new Map<number, WatchRequestRecord>();
  /** Imported WATCH requests (with a `logged` answer) until their handler returns. */
  private readonly compared = new Map<number, WatchRequestRecord>();

  constructor(
    private readonly series: SeriesLimit,
    /** Watch requests kept. */
    private readonly limit: number,
  ) {}

  /** The WATCH request `requestId`, while it waits for its answer. */
  pending(requestId: number | undefined): PendingWatch | undefined {
    return requestId === undefined ? undefined : this.pendingById.get(requestId);
  }

  sent(at: number, input: WatchInput<'watch'>): void {
    const w: WatchRequestRecord = {
      at,
      client: input.client,
      ...(input.connection !== undefined ? { connection: input.connection } : {}),
      ...(input.session !== undefined ? { session: input.session } : {}),
      ...(input.replica !== undefined ? { replica: input.replica } : {}),
      requestId: input.requestId,
      request: input.request,
      outcome: 'pending',
    };
    this.pendingById.set(input.requestId, { record: w, contentType: input.contentType ?? '' });
    this.open.set(input.requestId, w);
    if (this.records.length < this.limit) this.records.push(w);
    else this.series.truncate('watchRequests');
  }

  /** A freshness wait of the WATCH's request (a WatchList waits before its watcher starts). */
  wait(e: WatchCacheFreshnessWaitEvent): void {
    const w = this.pending(e.requestId)?.record;
    if (!w) return;
    w.waits = (w.waits ?? 0) + 1;
    w.waitedMs = (w.waitedMs ?? 0) + e.waitedMs;
  }

  opened(at: number, input: WatchInput<'watch-opened'>): void {
    const f = this.pendingById.get(input.requestId);
    if (!f) return;
    this.pendingById.delete(input.requestId);
    const w = f.record;
    w.answeredAt = at;
    if (input.logged) {
      w.logged = input.logged;
      // An imported watch's close is compared with the log: keep the record until then.
      this.compared.set(input.requestId, w);
    }
    if (input.disagrees) w.disagrees = input.disagrees;
    if (input.error) {
      w.outcome = 'error';
      w.error = {
        code: input.error.code,
        reason: input.error.reason,
        message: input.error.message,
      };
      if (input.inStream) w.errorInStream = true;
    } else {
      w.outcome = 'started';
      if (input.watcherId !== undefined) w.watcherId = String(input.watcherId);
    }
  }

  /** The initial-events-end bookmark was written to WatchList request `requestId`. */
  initialEventsEnd(at: number, input: WatchInput<'initial-events-end'>): void {
    const w = this.open.get(input.requestId);
    if (w && w.initialEventsEndAt === undefined && isWatchListRequest(w.request))
      w.initialEventsEndAt = at;
  }

  /** The client's handler returned: an imported watch's close, compared with the log. */
  closed(at: number, input: WatchInput<'watch-closed'>): void {
    const w = this.open.get(input.requestId);
    this.open.delete(input.requestId);
    if (w && input.reason === faultCutReason) w.cut = true;
    const compared = this.compared.get(input.requestId);
    if (!compared) return;
    this.compared.delete(input.requestId);
    compared.closedAt = at;
    if (input.logged) compared.logged = { ...compared.logged, ...input.logged };
    if (input.disagrees) compared.disagrees = [...(compared.disagrees ?? []), ...input.disagrees];
  }

  /** The records so far (a new array; the records are shared). */
  finish(): WatchRequestRecord[] {
    return this.records.slice();
  }
}
