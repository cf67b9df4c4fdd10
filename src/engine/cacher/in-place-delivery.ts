// No upstream counterpart (upstream hands every event through a watcher's two channels and its
// goroutine): in-place delivery. While a watcher's task waits alone on its empty input and its
// client waits alone on the empty result channel, ready to write an event at once, an event the
// dispatcher offers would pass both hand-offs and leave everyone where they were. The watcher's
// fast path takes that turn in place, with the same counters. It learns who waits through the two
// channels' one hook (ReceiverListener) and is what nonblockingAdd asks first (WatcherFastPath). A
// client that only counts is credited in bulk, when it or the watcher is read (settle). Watchers
// with one filter share the event's conversion (SharedConversion, one per filter, owned by the
// cacher). The cacher makes one per watcher unless its fastPaths option is off.
import type { CacheWatcher, WatcherFastPath } from './cache-watcher';
import { CachingObject } from './caching-object';
import type { Channel, ChannelReceiver, ReceiverListener } from './channel';
import { encodeObject, type ObjectEncoder } from './object-encoders';
import type { WatchEvent, WatchObject } from './watch';
import type { WatchCacheEvent } from './watch-cache-event';

/** The client end of a result channel that can take events in place (WatchClient). */
export interface InPlaceClient extends ChannelReceiver<WatchEvent> {
  /** Asked when it waits alone on the result channel: will it take events in place while it waits? */
  canAcceptParked(): boolean;
  /** Takes `event` as its select would, and is back in the select. */
  acceptParked(event: WatchEvent): void;
  /** What it encodes with (the bytes it counts), if anything. */
  readonly directEncoder: ObjectEncoder | undefined;
  /** It keeps nothing of an event but counts: the watcher may count deliveries for it. */
  readonly directCounts: boolean;
  /** Credits deliveries counted for it; `lastRv` is the newest resourceVersion among them. */
  addDirect(events: number, bytes: number, lastRv: number): void;
  /** Who holds deliveries counted for it and not credited yet (settled before it reads its counts). */
  inPlaceSource: { settle(): void } | undefined;
}

function isInPlaceClient(r: ChannelReceiver<never>): boolean {
  return typeof (r as Partial<InPlaceClient>).acceptParked === 'function';
}

/**
 * The conversion of the event being dispatched, the same for every watcher with one pure filter
 * (the cacher's filterWithAttrsAndPrefixFunction for a key and predicate): made by the first of
 * them, reused by the rest. One per filter, kept by the cacher beside it.
 */
export class SharedConversion {
  event: WatchCacheEvent<WatchObject> | undefined = undefined;
  /** Its watch event (whose object is the dispatch's CachingObject), or undefined: not interested. */
  watchEvent: WatchEvent | undefined = undefined;
}

/** The counts a run of watchers keeps for all its members (watcher-run.ts WatcherRun). */
export interface RunCounts {
  /** False once it no longer speaks for every member. */
  valid: boolean;
  readonly delivered: number;
  readonly filtered: number;
  /** By encoder index. */
  readonly bytes: readonly number[];
  readonly lastResourceVersion: number;
}

/** A member's place in a run: the run's counts when it joined (or last settled). */
interface RunShare {
  readonly run: RunCounts;
  readonly encoderIndex: number;
  delivered: number;
  filtered: number;
  bytes: number;
}

/**
 * One watcher's fast path: the watcher's WatcherFastPath, its channels' ReceiverListener, and its
 * dispatch entry. A delivery in place reads and writes this object only (besides what the
 * watchers share): at 10k watchers a second object per watcher is a cache miss per delivery.
 */
export class InPlaceDelivery implements WatcherFastPath, ReceiverListener {
  // Field order is memory layout: what a delivery touches comes first.
  readonly conversion: SharedConversion | undefined;
  /** The client waiting alone on the result channel, when it takes events in place. */
  private client: InPlaceClient | undefined = undefined;
  /** The watcher's task waits alone on its input (only in its live loop, on an empty input). */
  private taskWaiting = false;
  /** The task's resourceVersion while it waits (it changes only while the task runs). */
  private taskResourceVersion = 0;
  /** The client only counts (InPlaceClient.directCounts), encoding with `encoder`. */
  private counting = false;
  private encoder: ObjectEncoder | undefined = undefined;
  /** Deliveries counted in place for `client` and their bytes, not yet in the counts (settle). */
  private pending = 0;
  private pendingBytes = 0;
  private pendingLastRv = 0;
  readonly watcher: CacheWatcher;
  /** The run this watcher takes events with (made when it joins one: most watchers never do). */
  private share: RunShare | undefined = undefined;
  /** Told when the watcher's in-place state changes (its index entry, whose runs are then stale). */
  runHost: { runsChanged(): void } | undefined = undefined;

  constructor(watcher: CacheWatcher, conversion: SharedConversion | undefined) {
    this.conversion = conversion;
    this.watcher = watcher;
    watcher.fastPath = this;
    watcher.input.receiverListener = this;
    watcher.result.receiverListener = this;
  }

  /**
   * WatcherFastPath: a non-bookmark event while the task and the client both wait: the task would
   * take the event, send it (or skip or filter it) and wait again; the client would write it and
   * wait again. That turn, without the hand-offs. (done cannot be closed here: closing done comes
   * with closing input, which wakes the task.)
   */
  add(event: WatchCacheEvent<WatchObject>): boolean {
    const client = this.client;
    if (client === undefined || !this.taskWaiting || event.type === 'BOOKMARK') return false;
    if (!(event.resourceVersion > this.taskResourceVersion)) {
      const counts = this.watcher.ownCounts;
      counts.queued++;
      counts.skippedOld++;
      return true;
    }
    const watchEvent = this.convertToWatchEvent(event);
    if (watchEvent === undefined) {
      const counts = this.watcher.ownCounts;
      counts.queued++;
      counts.filtered++;
      return true;
    }
    if (this.counting) {
      // Counted here, credited when anyone looks: one object touched per delivery. The encode
      // (a cache hit but for the first) gives the size.
      const encoder = this.encoder;
      if (encoder !== undefined) {
        try {
          const object = watchEvent.object;
          this.pendingBytes +=
            object instanceof CachingObject
              ? object.encodedLength(encoder)
              : encodeObject(encoder, object).length;
        } catch (err) {
          // As on the channel path: queued, taken by the client, which failed to write it.
          this.watcher.ownCounts.queued++;
          client.addDirect(1, 0, 0);
          this.fail(client);
          throw err;
        }
      }
      this.pending++;
      // The object's resourceVersion: the event's (a DELETED carries the previous object at it).
      this.pendingLastRv = event.resourceVersion;
      return true;
    }
    const counts = this.watcher.ownCounts;
    counts.queued++;
    try {
      client.acceptParked(watchEvent);
    } catch (err) {
      this.fail(client);
      throw err;
    }
    counts.delivered++;
    return true;
  }

  /** WatcherFastPath: moves what was counted in place into the counts and credits the client. */
  settle(): void {
    this.settleRun();
    const n = this.pending;
    if (n === 0) return;
    const bytes = this.pendingBytes;
    this.pending = 0;
    this.pendingBytes = 0;
    const counts = this.watcher.ownCounts;
    counts.queued += n;
    counts.delivered += n;
    (this.client as InPlaceClient).addDirect(n, bytes, this.pendingLastRv);
  }

  /** ReceiverListener: who waits alone on the watcher's input or result channel changed. */
  receiverChanged(channel: Channel<never>, receiver: ChannelReceiver<never> | undefined): void {
    const wasEligible = this.runEligible();
    const inRun = this.share !== undefined;
    this.updateReceiver(channel, receiver);
    // Only a change that moves the watcher into or out of runs (or touches the run it is in)
    // re-forms the runs: a watcher off the fast path parks and unparks on every event.
    if (inRun || wasEligible !== this.runEligible()) {
      this.invalidateRun();
      this.runHost?.runsChanged();
    }
  }

  private updateReceiver(
    channel: Channel<never>,
    receiver: ChannelReceiver<never> | undefined,
  ): void {
    const w = this.watcher;
    if ((channel as unknown) === w.input) {
      this.taskWaiting = (receiver as unknown) === w;
      this.taskResourceVersion = w.taskResourceVersion;
      return;
    }
    this.settle(); // what was counted for the previous client is its own
    const c =
      receiver !== undefined &&
      isInPlaceClient(receiver) &&
      (receiver as unknown as InPlaceClient).canAcceptParked()
        ? (receiver as unknown as InPlaceClient)
        : undefined;
    this.client = c;
    this.counting = c !== undefined && c.directCounts;
    this.encoder = c?.directEncoder;
    if (c !== undefined) c.inPlaceSource = this;
  }

  /** The watcher's convertToWatchEvent, or the answer another watcher with this filter already got. */
  convertToWatchEvent(event: WatchCacheEvent<WatchObject>): WatchEvent | undefined {
    const shared = this.conversion;
    if (shared === undefined) return this.watcher.convertToWatchEvent(event);
    if (shared.event === event) return shared.watchEvent;
    const e = this.watcher.convertToWatchEvent(event);
    // The same for every watcher with this filter, unless its object is a copy of its own.
    if (e === undefined || e.object instanceof CachingObject) {
      shared.event = event;
      shared.watchEvent = e;
    }
    return e;
  }

  // ---- as a dispatch entry and a member of a run (indexed-watchers.ts, watcher-run.ts)

  /** Can take events as a member of a run: in place, counting only, with a shared conversion. */
  runEligible(): boolean {
    return this.taskWaiting && this.counting && this.conversion !== undefined;
  }

  /** Resource version the task skips events at or below (constant while it waits). */
  get runTaskResourceVersion(): number {
    return this.taskResourceVersion;
  }

  get runEncoder(): ObjectEncoder | undefined {
    return this.encoder;
  }

  /** DispatchEntry: the watcher's nonblockingAdd, in place when it can be. */
  nonblockingAdd(event: WatchCacheEvent<WatchObject>, blocked: CacheWatcher[]): void {
    if (this.add(event)) return;
    if (!this.watcher.nonblockingAddToInput(event)) blocked.push(this.watcher);
  }

  /** Counts from the run from now on. */
  joinRun(run: RunCounts, encoderIndex: number): void {
    this.settleRun();
    this.share = {
      run,
      encoderIndex,
      delivered: run.delivered,
      filtered: run.filtered,
      bytes: encoderIndex >= 0 ? run.bytes[encoderIndex] : 0,
    };
  }

  /** The run (if any) no longer speaks for this watcher: its members take events one by one. */
  invalidateRun(): void {
    if (this.share !== undefined) this.share.run.valid = false;
  }

  /** Takes its share of the run's counts and leaves it. */
  leaveRun(): void {
    this.settleRun();
    this.share = undefined;
  }

  /** Moves what the run counted for this watcher since it joined (or last settled) to its own. */
  private settleRun(): void {
    const share = this.share;
    if (share === undefined) return;
    const run = share.run;
    const delivered = run.delivered - share.delivered;
    const filtered = run.filtered - share.filtered;
    const bytes = share.encoderIndex >= 0 ? run.bytes[share.encoderIndex] - share.bytes : 0;
    share.delivered = run.delivered;
    share.filtered = run.filtered;
    share.bytes += bytes;
    this.pending += delivered;
    this.pendingBytes += bytes;
    if (delivered > 0 && run.lastResourceVersion > this.pendingLastRv)
      this.pendingLastRv = run.lastResourceVersion;
    const counts = this.watcher.ownCounts;
    counts.queued += filtered;
    counts.filtered += filtered;
  }

  /** A client that failed to write is no longer waiting, nor is the task (as on the channel path). */
  private fail(client: InPlaceClient): void {
    this.watcher.result.cancelRecv(client);
    this.watcher.input.cancelRecv(this.watcher);
  }
}
