// No upstream counterpart: one watcher's WatcherTrack while its run is folded: a bounded log (its
// first and last entries, the middle counted in `logDropped`), its first and last bookmark times,
// and the close reasons its events and its client report, settled into one when it is finished.
import type { WatcherTerminationCause } from '../../engine';
import type { WatcherLogEntry, WatcherTrack } from '../run-model';
import { faultCutReason } from '../trace/trace-format';

const closeReasonText: Record<string, string> = {
  contextDone: 'timeout',
  intervalInvalidated: 'interval invalidated (history overrun)',
  inputClosed: 'stopped',
};

/** A watcher's track being folded: the model's fields, plus what settles them when it is finished. */
export class TrackBuilder {
  readonly track: WatcherTrack;
  bookmarkHead: number[] = [];
  bookmarkTail: number[] = [];
  head: WatcherLogEntry[] = [];
  tail: WatcherLogEntry[] = [];
  tailStart = 0;
  closedReason = '';
  clientReason = '';
  graceful = false;
  /** Who terminated it (traces written before the engine recorded it: the blocked dispatch). */
  terminatedBy: WatcherTerminationCause = 'blockedDispatch';
  hasFinal = false;
  /**
   * Its client's reads are recorded one by one (`watch-event`, live runs): Read and Last RV come
   * from them alone, not from what the watcher put in its result channel.
   */
  readsRecorded = false;

  constructor(
    id: string,
    at: number,
    private readonly limit: number,
  ) {
    this.track = {
      id,
      selector: '',
      contentType: '',
      states: [{ at, state: 'WaitingForBookmark' }],
      bookmarkFloorRv: 0,
      lastRvSent: 0,
      bufferFill: 0,
      bufferCapacity: 0,
      bookmarksReceived: 0,
      bookmarksDropped: {},
      eventsReceived: 0,
      terminated: false,
      closeReason: '',
      log: [],
      logDropped: 0,
      client: undefined,
      samples: [],
    };
  }

  log(at: number, kind: string, text: string): void {
    const e = { at, kind, text };
    const half = Math.ceil(this.limit / 2);
    if (this.head.length < half) {
      this.head.push(e);
      return;
    }
    const tailMax = this.limit - half;
    if (tailMax <= 0) {
      this.track.logDropped++;
      return;
    }
    if (this.tail.length < tailMax) this.tail.push(e);
    else {
      // A ring: overwrite the oldest tail entry.
      this.tail[this.tailStart] = e;
      this.tailStart = (this.tailStart + 1) % tailMax;
      this.track.logDropped++;
    }
  }

  /** Keeps the first and last bookmark times (as many as log entries). */
  bookmarkAt(at: number, limit: number): void {
    const half = Math.max(1, Math.ceil(limit / 2));
    if (this.bookmarkHead.length < half) this.bookmarkHead.push(at);
    else {
      this.bookmarkTail.push(at);
      if (this.bookmarkTail.length > half) this.bookmarkTail.shift();
    }
  }

  /**
   * The track as it stands (a new object each call: the builder's own is never changed by it).
   * Its samples are the builder's array, not a copy (a 100,000-watcher run has millions): samples
   * added later lie after the snapshot's end, where nobody reads it.
   */
  finish(): WatcherTrack {
    const t = this.track;
    let closeReason = t.closeReason;
    if (t.terminated && this.terminatedBy === 'fault')
      closeReason = 'terminated by the terminate-watcher fault';
    else if (t.terminated)
      closeReason = this.graceful
        ? 'terminated (blocked dispatch, graceful drain)'
        : 'terminated (blocked dispatch)';
    else if (this.clientReason === 'timeout' || this.closedReason === 'contextDone')
      closeReason = 'timeout';
    else if (this.closedReason === 'intervalInvalidated')
      closeReason = closeReasonText.intervalInvalidated;
    else if (this.clientReason === 'disconnected') closeReason = 'client went away';
    // A fault cut the connection (its handler then stopped the watcher): the cut is the cause.
    else if (this.clientReason === faultCutReason) closeReason = faultCutReason;
    else if (this.closedReason !== '')
      closeReason = closeReasonText[this.closedReason] ?? this.closedReason;
    else if (this.clientReason !== '') closeReason = this.clientReason;
    return {
      ...t,
      states: t.states.slice(),
      bookmarksDropped: { ...t.bookmarksDropped },
      closeReason,
      bookmarkTimes: [...this.bookmarkHead, ...this.bookmarkTail],
      log: [
        ...this.head,
        ...this.tail.slice(this.tailStart),
        ...this.tail.slice(0, this.tailStart),
      ],
    };
  }
}
