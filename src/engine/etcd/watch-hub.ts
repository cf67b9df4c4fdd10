// Mirrors etcd server/storage/mvcc/watchable_store.go (synced/unsynced watcher groups,
// syncWatchers, notify, progressIfSync) and server/etcdserver/api/v3rpc/watch.go (progress
// ticker, prevKv, cancel responses). Deliberate differences: each Watch handle is its own watch
// stream; no slow-watcher victims (queues are unbounded); responses reach the consumer on a
// microtask, in order, never synchronously inside the write that produced them.

import { WatchResponses } from './watch-responses';
import type { Clock, Timer } from '../clock';
import type { SeededRandom } from '../rand';
import {
  etcdErrorMessages,
  type KeyValue,
  type Watch,
  type WatchEvent,
  type WatchRequest,
  type WatchResponse,
} from './kv';
import type { KeyRecord } from './key-index';
import { compareKeys } from './index-tree';
import { inInterval, keyInterval, type KeyInterval, type MvccStore } from './mvcc-store';

/** etcd watchBatchMaxRevs: at most this many revisions per replay response. */
export const watchBatchMaxRevs = 1000;
/** etcd maxWatchersPerSync: unsynced watchers caught up per sync round. */
export const maxWatchersPerSync = 512;
/** etcd's default --experimental-watch-progress-notify-interval. */
export const defaultProgressNotifyIntervalMs = 10 * 60 * 1000;

export interface WatchHubOptions {
  clock: Clock;
  /** Progress notification interval (virtual ms); 0 disables the ticker. */
  progressNotifyIntervalMs: number;
  /** Jitter source for the interval (GetProgressReportInterval adds up to interval/10); none without it. */
  rand?: SeededRandom;
  /**
   * 0: a watcher from an old revision is caught up at once (in batches of watchBatchMaxRevs
   * revisions). > 0: like etcd's syncWatchersLoop, one batch per unsynced watcher (up to
   * maxWatchersPerSync) every this many virtual ms, so replays take virtual time.
   */
  syncIntervalMs: number;
}

export function toKeyValue(r: KeyRecord, keysOnly = false): KeyValue {
  const kv: KeyValue = {
    key: r.key,
    value: keysOnly ? '' : r.value,
    createRevision: r.createRevision,
    modRevision: r.modRevision,
    version: r.version,
  };
  if (r.lease) kv.lease = r.lease;
  return kv;
}

class Watcher implements Watch {
  readonly id: number;
  readonly iv: KeyInterval;
  /** The next revision this watcher needs. */
  minRev: number;
  /** The requested start revision (0 = none): no progress is reported before it is reached. */
  readonly startRev: number;
  readonly prevKv: boolean;
  readonly noPut: boolean;
  readonly noDelete: boolean;
  synced: boolean;
  // v3rpc's progress[id]: true = nothing sent since the last tick, so the next tick reports progress.
  progressDue = true;
  progressTimer: Timer | undefined;
  private ended = false;
  private clientCanceled = false;
  private readonly responses: WatchResponses;
  private readonly hub: WatchHub;

  constructor(hub: WatchHub, id: number, req: WatchRequest, minRev: number, synced: boolean) {
    this.hub = hub;
    this.id = id;
    this.iv = keyInterval(req.key, req.rangeEnd);
    this.startRev = req.startRevision ?? 0;
    this.minRev = minRev;
    this.synced = synced;
    this.prevKv = !!req.prevKv;
    this.noPut = !!req.filters?.includes('noPut');
    this.noDelete = !!req.filters?.includes('noDelete');
    this.responses = new WatchResponses(
      id,
      () => this.canceled,
      () => this.cancel(),
    );
  }

  get canceled(): boolean {
    return this.ended || this.clientCanceled;
  }

  accepts(r: KeyRecord): boolean {
    if (r.version === 0 ? this.noDelete : this.noPut) return false;
    return inInterval(this.iv, r.key);
  }

  /** Queues a response; a canceled response ends the watch after it is delivered. */
  send(r: WatchResponse): void {
    if (this.canceled) return;
    if (r.canceled) {
      this.ended = true;
      this.hub.remove(this);
    }
    this.responses.push(r);
  }

  onResponse(cb: (r: WatchResponse) => void): void {
    this.responses.onResponse(cb);
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchResponse> {
    return this.responses.iterator();
  }

  requestProgress(): void {
    this.hub.recordProgressRequest(this);
    if (!this.canceled) this.hub.progressIfSync(this);
  }

  cancel(): void {
    if (this.clientCanceled) return;
    this.clientCanceled = true;
    this.responses.close();
    this.hub.remove(this);
  }
}

/** The watchers of one MemoryEtcd. */
export class WatchHub {
  private readonly store: MvccStore;
  private readonly opts: WatchHubOptions;
  private nextId = 0;
  private readonly synced = new Set<Watcher>();
  private readonly unsynced = new Set<Watcher>();
  private syncTimer: Timer | undefined;
  /** Called for every requestProgress (the request recorder hooks it). */
  onProgressRequest: ((w: Watch) => void) | undefined;
  /** Clock ms until which the member is unreachable (a fault): no progress notification gets out. */
  unreachableUntil = -Infinity;

  constructor(store: MvccStore, opts: WatchHubOptions) {
    this.store = store;
    this.opts = opts;
  }

  /** Number of open watchers (synced + unsynced). */
  get size(): number {
    return this.synced.size + this.unsynced.size;
  }

  watch(req: WatchRequest): Watch {
    const start = req.startRevision ?? 0;
    const cur = this.store.currentRev;
    // watchableStore.watch: a start at 0 or in the future is synced; an older one must catch up.
    const synced = start === 0 || start > cur;
    const minRev = synced ? Math.max(cur + 1, start) : start;
    const w = new Watcher(this, this.nextId++, req, minRev, synced);
    if (start < 0) {
      // v3rpc recvLoop: a negative start revision is refused with ErrCompacted as the reason.
      w.send({
        header: { revision: cur },
        events: [],
        canceled: true,
        cancelReason: etcdErrorMessages.compacted,
      });
      return w;
    }
    if (w.iv.end !== undefined && compareKeys(w.iv.start, w.iv.end) >= 0) {
      // watchStream.Watch: a range ending at or before its key is refused (ErrEmptyWatcherRange),
      // and v3rpc cancels the create with that reason.
      w.send({
        header: { revision: cur },
        events: [],
        canceled: true,
        cancelReason: etcdErrorMessages.emptyWatcherRange,
      });
      return w;
    }
    if (req.progressNotify && this.opts.progressNotifyIntervalMs > 0) this.startProgressTicker(w);
    if (synced) {
      this.synced.add(w);
    } else {
      this.unsynced.add(w);
      this.scheduleSync();
    }
    return w;
  }

  /** watchableStore.notify: the events of one write revision go to every synced watcher. */
  notify(rev: number, changes: KeyRecord[]): void {
    if (changes.length === 0 || this.synced.size === 0) return;
    for (const w of this.synced) {
      if (rev < w.minRev) continue;
      let events: WatchEvent[] | undefined;
      for (const r of changes) {
        if (!w.accepts(r)) continue;
        (events ??= []).push(this.toEvent(r, w.prevKv));
      }
      w.minRev = rev + 1;
      if (events) {
        w.progressDue = false;
        w.send({ header: { revision: rev }, events });
      }
    }
  }

  /** progressIfSync: a progress notification only for a synced watcher whose start revision is reached. */
  progressIfSync(w: Watcher): void {
    const rev = this.store.currentRev;
    if (!w.synced || rev < w.startRev || !this.synced.has(w)) return;
    if (this.opts.clock.now() < this.unreachableUntil) return;
    w.send({ header: { revision: rev }, events: [], progressNotify: true });
  }

  recordProgressRequest(w: Watcher): void {
    this.onProgressRequest?.(w);
  }

  remove(w: Watcher): void {
    this.synced.delete(w);
    this.unsynced.delete(w);
    w.progressTimer?.stop();
    w.progressTimer = undefined;
  }

  /** Stops every timer (the etcd is going away). */
  close(): void {
    for (const w of [...this.synced, ...this.unsynced]) w.cancel();
    this.syncTimer?.stop();
  }

  private startProgressTicker(w: Watcher): void {
    const base = this.opts.progressNotifyIntervalMs;
    // GetProgressReportInterval: interval + rand(interval/10), fixed for the stream's life.
    const interval =
      base + (this.opts.rand && base >= 10 ? this.opts.rand.intn(Math.floor(base / 10)) : 0);
    const tick = () => {
      if (w.canceled) return;
      if (w.progressDue) this.progressIfSync(w);
      w.progressDue = true;
      w.progressTimer = this.opts.clock.afterFunc(interval, tick);
    };
    w.progressTimer = this.opts.clock.afterFunc(interval, tick);
  }

  private scheduleSync(): void {
    if (this.opts.syncIntervalMs <= 0) {
      while (this.unsynced.size) this.syncWatchers(Infinity);
      return;
    }
    if (this.syncTimer) return;
    const loop = () => {
      this.syncTimer = undefined;
      this.syncWatchers(maxWatchersPerSync);
      if (this.unsynced.size)
        this.syncTimer = this.opts.clock.afterFunc(this.opts.syncIntervalMs, loop);
    };
    this.syncTimer = this.opts.clock.afterFunc(this.opts.syncIntervalMs, loop);
  }

  /** syncWatchers: one batch of history for up to `max` unsynced watchers. */
  private syncWatchers(max: number): void {
    const cur = this.store.currentRev;
    const compactRev = this.store.compactRev;
    let n = 0;
    for (const w of [...this.unsynced]) {
      if (n++ >= max) break;
      if (w.minRev < compactRev) {
        // unsynced.choose: the history is gone; the response carries the compact revision and
        // no header revision, and v3rpc marks it canceled.
        w.send({
          header: { revision: 0 },
          events: [],
          compactRevision: compactRev,
          canceled: true,
        });
        continue;
      }
      const batch = this.store.eventsFrom(w.minRev, (r) => w.accepts(r), watchBatchMaxRevs);
      w.minRev = batch.moreRev !== 0 ? batch.moreRev : Math.max(cur + 1, w.minRev);
      if (batch.records.length) {
        w.progressDue = false;
        w.send({
          header: { revision: cur },
          events: batch.records.map((r) => this.toEvent(r, w.prevKv)),
        });
      }
      if (batch.moreRev === 0 && !w.canceled) {
        this.unsynced.delete(w);
        w.synced = true;
        this.synced.add(w);
      }
    }
  }

  private toEvent(r: KeyRecord, withPrev: boolean): WatchEvent {
    const ev: WatchEvent =
      r.version === 0
        ? {
            type: 'DELETE',
            kv: {
              key: r.key,
              value: '',
              createRevision: 0,
              modRevision: r.modRevision,
              version: 0,
            },
          }
        : { type: 'PUT', kv: toKeyValue(r) };
    // v3rpc sendLoop: prevKv is the key read at modRevision-1, except for a create event.
    if (withPrev && !(ev.type === 'PUT' && r.createRevision === r.modRevision)) {
      const prev = this.store.get(r.key, r.modRevision - 1);
      if (prev) ev.prevKv = toKeyValue(prev);
    }
    return ev;
  }
}
